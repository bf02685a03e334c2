"""Playing a whole Desert game with a policy, recording and narrating it turn by turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..common.play import clairvoyant_search, play_turns
from ..common.policies import Policy
from ..seeding import policy_seed
from .actions import action_text
from .engine import NOT_FOUND, GameState, Recorder
from .game import GameSetup, new_game
from .render import LEGEND, describe_players, describe_status, draw_desert
from .tiles import CELLS, KINDS, N_CELLS, ROLES, SIZE, STORM_CARDS, difficulty_name


@dataclass
class TurnRecord:
    """The board after a player's turn (the storm included)."""

    turn: int
    player: int
    role: str
    actions: list[str]
    storm_cards: list[str]
    storm_level: int
    sand_on_tiles: int
    sand_supply: int
    tiles_blocked: int
    blocked: list[str]  # the cells of the blocked tiles
    storm_cell: str
    tiles_excavated: int
    water: list[int]  # by seat
    pawn_cells: list[str]  # by seat
    parts_found: int  # lying on the board or collected
    parts_collected: int


@dataclass
class TileRecord:
    """One tile's game: ``tile`` is the cell it started on, ``kind`` what the team knew it to be at the end."""

    tile: str
    kind: str
    row: int
    col: int
    times_moved: int
    peak_sand: int
    sand: int
    excavated_turn: int | None


@dataclass
class GameRecord:
    outcome: str
    loss_cause: str | None
    loss_causes: tuple[str, ...]
    turns: int
    final_storm_level: int
    parts_found: int
    parts_collected: int
    tiles_excavated: int
    sand_on_tiles: int
    ran_dry: tuple[int, ...]  # the seats whose thirst lost the game
    roles: tuple[str, ...]
    first_player: int
    turn_rows: list[TurnRecord] = field(default_factory=list)
    tile_rows: list[TileRecord] = field(default_factory=list)


def _turn_row(s: GameState, turn: int, player: int, actions: list[str], rec: Recorder) -> TurnRecord:
    for c in range(N_CELLS):  # nothing is excavated outside a player's actions: this turn's, if new
        if s.dug[c] and rec.excavated[rec.tile_at[c]] is None:
            rec.excavated[rec.tile_at[c]] = turn
    row = TurnRecord(
        turn=turn,
        player=player,
        role=ROLES[s.roles[player]],
        actions=actions,
        storm_cards=[STORM_CARDS[c] for c in rec.storm_cards],
        storm_level=s.level,
        sand_on_tiles=sum(s.sand),
        sand_supply=s.supply,
        tiles_blocked=sum(1 for k in s.sand if k >= 2),
        blocked=[CELLS[c] for c in range(N_CELLS) if s.sand[c] >= 2],
        storm_cell=CELLS[s.storm],
        tiles_excavated=sum(s.dug),
        water=s.water[:],
        pawn_cells=[CELLS[x] for x in s.pos],
        parts_found=len(s.parts) - s.parts.count(NOT_FOUND),
        parts_collected=s.parts_collected(),
    )
    rec.storm_cards = []
    return row


def _tile_rows(s: GameState, rec: Recorder) -> list[TileRecord]:
    cell_of = {t: c for c, t in enumerate(rec.tile_at) if t >= 0}
    return [TileRecord(tile=CELLS[t], kind=KINDS[s.kind[c]], row=c // SIZE, col=c % SIZE, times_moved=rec.moves[t],
                       peak_sand=rec.peak_sand[t], sand=s.sand[c], excavated_turn=rec.excavated[t])
            for t, c in sorted(cell_of.items())]


def _header(s: GameState) -> str:
    return f"Turn {s.turn}: p{s.current} ({ROLES[s.roles[s.current]]})\n{draw_desert(s)}\n{describe_players(s)}"


def play_game(setup: GameSetup, policy: Policy, seed: int, narrate: Callable[[str], None] | None = None) -> GameRecord:
    """Play one game from its seed to the end; the same setup, policy and seed give the same game."""
    s = new_game(setup, seed)
    rec = Recorder(s)
    s.stats = rec
    policy.reset(policy_seed(seed))  # never the game's own seed: it would let a player rebuild the draws
    clairvoyant_search(policy, s)  # only an unfair instrument (the oracle) is shown the real game
    first = s.current
    rows: list[TurnRecord] = []
    if narrate:
        narrate(f"Forbidden Desert, {s.n} players, storm meter at mark {s.level} "
                f"({difficulty_name(setup.start_level)}), seed {seed}\n{LEGEND}")  # fmt: skip
        narrate(_header(s))
    del seed  # no frame above a deciding policy holds the game's seed: it would rebuild the game
    for turn, player, actions in play_turns(s, policy, action_text, narrate):
        row = _turn_row(s, turn, player, actions, rec)
        rows.append(row)
        if narrate:
            if row.storm_cards:
                narrate(f"  storm: {', '.join(row.storm_cards)}")
            narrate(f"  -> {describe_status(s)}")
            if s.outcome is None:
                narrate("\n" + _header(s))
    if narrate:
        cause = f" ({', '.join(s.loss_causes)})" if s.loss_causes else ""
        narrate(f"\nResult: {s.outcome}{cause} after {s.turn} turns, {s.parts_collected()} parts collected")
    return GameRecord(
        outcome=s.outcome,
        loss_cause=s.loss_cause,
        loss_causes=s.loss_causes,
        turns=s.turn,
        final_storm_level=s.level,
        parts_found=rows[-1].parts_found,
        parts_collected=s.parts_collected(),
        tiles_excavated=sum(s.dug),
        sand_on_tiles=sum(s.sand),
        ran_dry=rec.ran_dry,
        roles=tuple(ROLES[r] for r in s.roles),
        first_player=first,
        turn_rows=rows,
        tile_rows=_tile_rows(s, rec),
    )
