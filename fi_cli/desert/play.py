"""Playing a whole Desert game with a policy, recording and narrating it turn by turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..common.play import ActionTexts, clairvoyant_search, play_turns
from ..common.policies import Policy
from ..common.records import ColumnRecord, TurnColumns
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
class GameRecord(ColumnRecord):
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

    def row_kinds(self) -> tuple[Any, Any]:
        return TurnRecord, TileRecord


_TEXTS: Final = ActionTexts(action_text)  # the text of each action, made once


class _Turns(TurnColumns):
    """The turns of a game as they are played, column by column (see GameRecord.turn_columns)."""

    def __init__(self) -> None:
        super().__init__()
        self.storm_cards: list[str] = []
        self.n_storm_cards: list[int] = []
        self.storm_level: list[int] = []
        self.sand_on_tiles: list[int] = []
        self.sand_supply: list[int] = []
        self.tiles_blocked: list[int] = []
        self.blocked: list[str] = []
        self.n_blocked: list[int] = []
        self.storm_cell: list[str] = []
        self.tiles_excavated: list[int] = []
        self.water: list[int] = []
        self.n_water: list[int] = []
        self.pawn_cells: list[str] = []
        self.n_pawn_cells: list[int] = []
        self.parts_found: list[int] = []
        self.parts_collected: list[int] = []

    def add(self, s: GameState, turn: int, player: int, actions: list[str], rec: Recorder) -> None:
        """The board after the turn just played (the storm included); the recorder starts the next turn."""
        self.add_turn(turn, player, ROLES[s.roles[player]], actions)
        for card in rec.storm_cards:
            self.storm_cards.append(STORM_CARDS[card])
        self.n_storm_cards.append(len(rec.storm_cards))
        self.storm_level.append(s.level)
        sand = blocked = excavated = 0
        for c in range(N_CELLS):
            if s.dug[c]:  # nothing is excavated outside a player's actions: this turn's, if new
                if rec.excavated[rec.tile_at[c]] is None:
                    rec.excavated[rec.tile_at[c]] = turn
                excavated += s.dug[c]
            k = s.sand[c]
            sand += k
            if k >= 2:
                blocked += 1
                self.blocked.append(CELLS[c])
        self.sand_on_tiles.append(sand)
        self.sand_supply.append(s.supply)
        self.tiles_blocked.append(blocked)
        self.n_blocked.append(blocked)
        self.storm_cell.append(CELLS[s.storm])
        self.tiles_excavated.append(excavated)
        self.water.extend(s.water)
        self.n_water.append(len(s.water))
        for x in s.pos:
            self.pawn_cells.append(CELLS[x])
        self.n_pawn_cells.append(len(s.pos))
        self.parts_found.append(len(s.parts) - s.parts.count(NOT_FOUND))
        self.parts_collected.append(s.parts_collected())
        rec.storm_cards = []

    def columns(self) -> dict[str, Any]:
        return {**super().columns(),
                "storm_cards": (self.storm_cards, self.n_storm_cards), "storm_level": self.storm_level,
                "sand_on_tiles": self.sand_on_tiles, "sand_supply": self.sand_supply,
                "tiles_blocked": self.tiles_blocked, "blocked": (self.blocked, self.n_blocked),
                "storm_cell": self.storm_cell, "tiles_excavated": self.tiles_excavated,
                "water": (self.water, self.n_water), "pawn_cells": (self.pawn_cells, self.n_pawn_cells),
                "parts_found": self.parts_found, "parts_collected": self.parts_collected}


def _tile_columns(s: GameState, rec: Recorder) -> dict[str, Any]:
    """The tiles by the cell each started on, where they lie at the end."""
    on: list[tuple[int, int]] = sorted((t, c) for c, t in enumerate(rec.tile_at) if t >= 0)
    return {"tile": [CELLS[t] for t, _ in on], "kind": [KINDS[s.kind[c]] for _, c in on],
            "row": [c // SIZE for _, c in on], "col": [c % SIZE for _, c in on],
            "times_moved": [rec.moves[t] for t, _ in on], "peak_sand": [rec.peak_sand[t] for t, _ in on],
            "sand": [s.sand[c] for _, c in on], "excavated_turn": [rec.excavated[t] for t, _ in on]}


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
    turns = _Turns()
    if narrate:
        narrate(f"Forbidden Desert, {s.n} players, storm meter at mark {s.level} "
                f"({difficulty_name(setup.start_level)}), seed {seed}\n{LEGEND}")  # fmt: skip
        narrate(_header(s))
    del seed  # no frame above a deciding policy holds the game's seed: it would rebuild the game
    # common.play's loop: a typed copy as the island's (its state's fields read directly) measured about 2 points
    # less of recorded / bare (benchmarks/scale.py recording --game desert), not worth a second copy of the loop
    for turn, player, actions in play_turns(s, policy, _TEXTS.text, narrate):
        if narrate:
            if rec.storm_cards:
                narrate(f"  storm: {', '.join(STORM_CARDS[c] for c in rec.storm_cards)}")
            narrate(f"  -> {describe_status(s)}")
            if s.outcome is None:
                narrate("\n" + _header(s))
        turns.add(s, turn, player, actions, rec)
    assert s.outcome is not None  # the loop above ends with the game
    if narrate:
        cause = f" ({', '.join(s.loss_causes)})" if s.loss_causes else ""
        narrate(f"\nResult: {s.outcome}{cause} after {s.turn} turns, {s.parts_collected()} parts collected")
    return GameRecord(
        outcome=s.outcome,
        loss_cause=s.loss_cause,
        loss_causes=s.loss_causes,
        turns=s.turn,
        final_storm_level=s.level,
        parts_found=turns.parts_found[-1],
        parts_collected=s.parts_collected(),
        tiles_excavated=sum(s.dug),
        sand_on_tiles=sum(s.sand),
        ran_dry=rec.ran_dry,
        roles=tuple(ROLES[r] for r in s.roles),
        first_player=first,
        turn_columns=turns.columns(),
        tile_columns=_tile_columns(s, rec),
    )
