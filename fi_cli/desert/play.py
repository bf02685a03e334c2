"""Playing a whole Desert game with a policy, recording and narrating it turn by turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..common.play import play_turns
from ..common.policies import Policy
from ..seeding import policy_seed
from .actions import action_text
from .engine import GameState, Recorder
from .game import GameSetup, new_game
from .render import LEGEND, describe_players, describe_status, draw_desert
from .tiles import ROLES, STORM_CARDS, difficulty_name


@dataclass
class TurnRecord:
    turn: int
    player: int
    role: str
    actions: list[str]
    storm_cards: list[str]
    storm_level: int
    sand_on_tiles: int
    tiles_blocked: int
    tiles_excavated: int
    water: list[int]
    parts_collected: int


@dataclass
class GameRecord:
    outcome: str
    loss_cause: str | None
    loss_causes: tuple[str, ...]
    turns: int
    final_storm_level: int
    parts_collected: int
    roles: tuple[str, ...]
    first_player: int
    turn_rows: list[TurnRecord] = field(default_factory=list)


def _turn_row(s: GameState, turn: int, player: int, actions: list[str], rec: Recorder) -> TurnRecord:
    row = TurnRecord(
        turn=turn,
        player=player,
        role=ROLES[s.roles[player]],
        actions=actions,
        storm_cards=[STORM_CARDS[c] for c in rec.storm_cards],
        storm_level=s.level,
        sand_on_tiles=sum(s.sand),
        tiles_blocked=sum(1 for k in s.sand if k >= 2),
        tiles_excavated=sum(s.dug),
        water=s.water[:],
        parts_collected=s.parts_collected(),
    )
    rec.storm_cards = []
    return row


def _header(s: GameState) -> str:
    return f"Turn {s.turn}: p{s.current} ({ROLES[s.roles[s.current]]})\n{draw_desert(s)}\n{describe_players(s)}"


def play_game(setup: GameSetup, policy: Policy, seed: int, narrate: Callable[[str], None] | None = None) -> GameRecord:
    """Play one game from its seed to the end; the same setup, policy and seed give the same game."""
    s = new_game(setup, seed)
    rec = Recorder()
    s.stats = rec
    policy.reset(policy_seed(seed))  # never the game's own seed: it would let a player rebuild the draws
    first = s.current
    rows: list[TurnRecord] = []
    if narrate:
        narrate(f"Forbidden Desert, {s.n} players, storm meter at mark {s.level} "
                f"({difficulty_name(setup.start_level)}), seed {seed}\n{LEGEND}")  # fmt: skip
        narrate(_header(s))
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
        parts_collected=s.parts_collected(),
        roles=tuple(ROLES[r] for r in s.roles),
        first_player=first,
        turn_rows=rows,
    )
