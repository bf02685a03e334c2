"""Playing a whole game with a policy, collecting what the data logs need turn by turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..common.play import ActionTexts, LegalActions, choose, clairvoyant_search
from ..common.records import ColumnRecord, TurnColumns
from ..seeding import policy_seed
from .actions import action_text
from .engine import GameState, Recorder
from .game import GameSetup, new_game
from .policies import Policy
from .render import describe_hands, describe_status, draw_island
from .tiles import FLOODED, ROLES, SUNK, TILES, TREASURES

__all__ = ["GameRecord", "TileRecord", "TurnRecord", "choose", "play_game"]  # choose: from common.play


@dataclass
class TurnRecord:
    turn: int
    player: int
    role: str
    actions: list[str]
    water_level: int
    flood_draws: list[str]
    waters_rise: int
    tiles_flooded: int
    tiles_sunk: int
    treasures_captured: int
    treasures: list[str]
    hand_sizes: list[int]


@dataclass
class TileRecord:
    tile: str
    row: int
    col: int
    times_flooded: int
    sunk_turn: int | None


# The treasures captured, by the bitmask of GameState.captured
_CAPTURED: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(TREASURES[i] for i in range(4) if m >> i & 1) for m in range(16))


_TEXTS: Final = ActionTexts(action_text)  # the text of each action, made once


@dataclass
class GameRecord(ColumnRecord):
    outcome: str
    loss_cause: str | None
    loss_causes: tuple[str, ...]
    turns: int
    final_water_level: int
    treasures_captured: int
    tiles_sunk: int
    roles: tuple[str, ...]
    first_player: int
    lost_treasure: str | None = None  # the treasure whose two tiles sank (loss cause treasure_lost)
    drowned_tile: str | None = None  # the tile a pawn drowned on (loss cause player_drowned)

    def row_kinds(self) -> tuple[Any, Any]:
        return TurnRecord, TileRecord


class _Turns(TurnColumns):
    """The turns of a game as they are played, column by column (see GameRecord.turn_columns)."""

    def __init__(self) -> None:
        super().__init__()
        self.water_level: list[int] = []
        self.flood_draws: list[str] = []
        self.n_flood_draws: list[int] = []
        self.waters_rise: list[int] = []
        self.tiles_flooded: list[int] = []
        self.tiles_sunk: list[int] = []
        self.treasures_captured: list[int] = []
        self.treasures: list[str] = []
        self.n_treasures: list[int] = []
        self.hand_sizes: list[int] = []
        self.n_hand_sizes: list[int] = []

    def add(self, s: GameState, turn: int, player: int, actions: list[str], rec: Recorder) -> None:
        """The turn just played (the state is the next turn's start); the recorder starts the next turn."""
        self.add_turn(turn, player, ROLES[s.roles[player]], actions)
        self.water_level.append(s.water)
        for t in rec.flood_draws:
            self.flood_draws.append(TILES[t])
        self.n_flood_draws.append(len(rec.flood_draws))
        self.waters_rise.append(rec.waters_rise)
        flooded = sunk = 0
        for tile in s.tiles:  # loops, not list.count or sum: compiled, they take a tenth of the time
            if tile == FLOODED:
                flooded += 1
            elif tile == SUNK:
                sunk += 1
        self.tiles_flooded.append(flooded)
        self.tiles_sunk.append(sunk)
        captured = _CAPTURED[s.captured]
        self.treasures_captured.append(len(captured))
        self.treasures.extend(captured)
        self.n_treasures.append(len(captured))
        for hand in s.hands:
            cards = 0
            for count in hand:
                cards += count
            self.hand_sizes.append(cards)
        self.n_hand_sizes.append(len(s.hands))
        rec.flood_draws = []
        rec.waters_rise = 0

    def columns(self) -> dict[str, Any]:
        return {**super().columns(),
                "water_level": self.water_level, "flood_draws": (self.flood_draws, self.n_flood_draws),
                "waters_rise": self.waters_rise, "tiles_flooded": self.tiles_flooded, "tiles_sunk": self.tiles_sunk,
                "treasures_captured": self.treasures_captured, "treasures": (self.treasures, self.n_treasures),
                "hand_sizes": (self.hand_sizes, self.n_hand_sizes)}


def _tile_columns(s: GameState, rec: Recorder) -> dict[str, Any]:
    cell_of = s.board.cell_of
    return {"tile": list(TILES), "row": [c[0] for c in cell_of], "col": [c[1] for c in cell_of],
            "times_flooded": rec.times_flooded, "sunk_turn": rec.sunk_turn}


def _narrate_turn(narrate: Callable[[str], None], s: GameState, rec: Recorder) -> None:
    if rec.flood_draws:
        narrate(f"  flood cards: {', '.join(TILES[t] for t in rec.flood_draws)}")
    if rec.waters_rise:
        narrate(f"  Waters Rise! x{rec.waters_rise}")
    narrate(f"  -> {describe_status(s)}")
    if s.outcome is None:
        narrate("\n" + _header(s))


def _header(s: GameState) -> str:
    return f"Turn {s.turn}: p{s.current} ({ROLES[s.roles[s.current]]})\n{draw_island(s)}\n{describe_hands(s)}"


def _running(s: GameState) -> bool:
    """Whether the game goes on (a call, not `s.outcome is None` in the loop: see common.play._over)."""
    return s.outcome is None


def play_game(
    setup: GameSetup, policy: Policy, seed: int, narrate: Callable[[str], None] | None = None
) -> GameRecord:
    """Play one game from its seed to the end; the same setup, policy and seed give the same game."""
    s = new_game(setup, seed)
    rec = Recorder()
    for t in s.fdiscard:  # the six tiles flooded at set-up
        rec.times_flooded[t] += 1
    s.stats = rec
    policy.reset(policy_seed(seed))  # never the game's own seed: it would let a player rebuild the draws
    clairvoyant_search(policy, s)  # only an unfair instrument (the oracle) is shown the real game
    first = s.current
    turns = _Turns()
    if narrate:
        narrate(f"Forbidden Island on {setup.layout.id}, water level {s.water}, {s.n} players, seed {seed}")
        narrate(_header(s))
    del seed  # no frame above a deciding policy holds the game's seed: it would rebuild the game
    # common.play's play_turns, with the state's type known: compiled, its fields and apply are read directly, not
    # looked up by name at each action (115 k of the 304 k instructions a game that recording added to the play)
    turn, player, actions = s.turn, s.current, []
    while _running(s):
        a = choose(policy, s, LegalActions(s))
        text = _TEXTS.text(a)
        actions.append(text)
        s.apply(a)
        if narrate:
            narrate(f"  {text}")
        if s.turn != turn or not _running(s):  # the turn is over (or the game): recorded at the next one's start
            if narrate:
                _narrate_turn(narrate, s, rec)
            turns.add(s, turn, player, actions, rec)
            turn, player, actions = s.turn, s.current, []
    assert s.outcome is not None  # the loop above ends with the game
    result = GameRecord(
        outcome=s.outcome,
        loss_cause=s.loss_cause,
        loss_causes=s.loss_causes,
        turns=s.turn,
        final_water_level=s.water,
        treasures_captured=s.treasures_captured(),
        tiles_sunk=s.tiles.count(SUNK),
        roles=tuple(ROLES[r] for r in s.roles),
        first_player=first,
        lost_treasure=None if rec.lost_treasure is None else TREASURES[rec.lost_treasure],
        drowned_tile=None if rec.drowned_tile is None else TILES[rec.drowned_tile],
        turn_columns=turns.columns(),
        tile_columns=_tile_columns(s, rec),
    )
    if narrate:
        cause = f" ({', '.join(s.loss_causes)})" if s.loss_causes else ""
        narrate(f"\nResult: {s.outcome}{cause} after {s.turn} turns")
    return result
