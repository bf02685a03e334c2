"""Playing a whole game with a policy, collecting what the data logs need turn by turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..common.play import choose, clairvoyant_search, play_turns
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


@dataclass
class GameRecord:
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
    turn_rows: list[TurnRecord] = field(default_factory=list)
    tile_rows: list[TileRecord] = field(default_factory=list)


def _turn_row(s: GameState, turn: int, player: int, actions: list[str], rec: Recorder) -> TurnRecord:
    tiles = s.tiles
    row = TurnRecord(
        turn=turn,
        player=player,
        role=ROLES[s.roles[player]],
        actions=actions,
        water_level=s.water,
        flood_draws=[TILES[t] for t in rec.flood_draws],
        waters_rise=rec.waters_rise,
        tiles_flooded=tiles.count(FLOODED),
        tiles_sunk=tiles.count(SUNK),
        treasures_captured=s.treasures_captured(),
        treasures=[TREASURES[i] for i in range(4) if s.captured >> i & 1],
        hand_sizes=[sum(h) for h in s.hands],
    )
    rec.flood_draws = []
    rec.waters_rise = 0
    return row


def _header(s: GameState) -> str:
    return f"Turn {s.turn}: p{s.current} ({ROLES[s.roles[s.current]]})\n{draw_island(s)}\n{describe_hands(s)}"


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
    rows: list[TurnRecord] = []
    if narrate:
        narrate(f"Forbidden Island on {setup.layout.id}, water level {s.water}, {s.n} players, seed {seed}")
        narrate(_header(s))
    del seed  # no frame above a deciding policy holds the game's seed: it would rebuild the game
    for turn, player, actions in play_turns(s, policy, action_text, narrate, ask=choose):
        row = _turn_row(s, turn, player, actions, rec)
        rows.append(row)
        if narrate:
            if row.flood_draws:
                narrate(f"  flood cards: {', '.join(row.flood_draws)}")
            if row.waters_rise:
                narrate(f"  Waters Rise! x{row.waters_rise}")
            narrate(f"  -> {describe_status(s)}")
            if s.outcome is None:
                narrate("\n" + _header(s))
    cell_of = s.board.cell_of
    tile_rows = [
        TileRecord(TILES[t], cell_of[t][0], cell_of[t][1], rec.times_flooded[t], rec.sunk_turn[t])
        for t in range(len(TILES))
    ]
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
        turn_rows=rows,
        tile_rows=tile_rows,
    )
    if narrate:
        cause = f" ({', '.join(s.loss_causes)})" if s.loss_causes else ""
        narrate(f"\nResult: {s.outcome}{cause} after {s.turn} turns")
    return result
