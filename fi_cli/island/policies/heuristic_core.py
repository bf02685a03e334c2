"""The heuristic player's decisions, compiled with the other helpers (HeuristicPolicy wraps them).

At each decision it follows the turn plan made earlier in the turn while the position is exactly the one
the plan expected, and otherwise asks the helpers: the flood step's Sandbags, a Helicopter Lift before the
turn's plan, the plan of the rest of the turn, a discard, a swim. Kept apart from ``heuristic.py`` so that
this hot path runs compiled while HeuristicPolicy stays a Python class other players may subclass.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from ..actions import END_ACTIONS, HELI_PLAY, LIFT_OFF, SANDBAGS_PLAY, Action
from ..engine import ACTIONS, DISCARD_PHASE, FLOOD, SWIM_PHASE, GameState
from ..tiles import FOOLS_LANDING
from .heuristic_escape import escape_now, lift_home
from .heuristic_eval import Context
from .heuristic_geom import Geometry
from .heuristic_special import discard_decision, flood_decision, heli_in_turn, swim_decision
from .heuristic_turn import plan_turn


class HeuristicCore:
    """The weights, the distance tables and the plan being followed; ``choose`` makes a decision."""

    def __init__(self, w: dict[str, float]) -> None:
        self.w = w
        self.geo = Geometry()
        self.seq: list[Action] = []
        self.expect: GameState | None = None

    def __deepcopy__(self, memo: dict) -> HeuristicCore:
        # a compiled class is not rebuilt by copy's default protocol (its __init__ needs the weights)
        other = HeuristicCore(copy.deepcopy(self.w, memo))
        memo[id(self)] = other
        other.geo = copy.deepcopy(self.geo, memo)
        other.seq = list(self.seq)
        other.expect = copy.deepcopy(self.expect, memo)
        return other

    def reset(self) -> None:
        # the geometry is kept: it depends only on the board and the sunk tiles, which it checks at every
        # decision, so the planner's sampled futures of one position share its distance tables
        self.seq = []
        self.expect = None

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        # ``legal`` is looked at only where the state alone cannot tell (play_game lists it lazily)
        if state.captured == 0b1111 and all(x == FOOLS_LANDING for x in state.pos):
            for a in legal:
                if a[0] == LIFT_OFF:
                    return a
        ph = state.phase
        if self.w["escape"] > 0:  # a take-off in reach comes before anything else
            esc = escape_now(state) if ph == ACTIONS else lift_home(state)
            if esc is not None:
                self.seq = []
                return esc
        if ph == FLOOD:
            return flood_decision(state, self.w, self.geo)
        if ph == ACTIONS:
            k = state.actions_left
            if k == 0 and state.captured != 0b1111:
                return (END_ACTIONS, state.current)
            # follow the plan made earlier this turn while the position is exactly the one it expected
            expect = self.expect
            if self.seq and expect is not None and same_position(state, expect):
                a = self.seq[0]
                if state.is_own_action(a):
                    cap = state.capture_now()
                    if cap is not None:  # a capture met on the way comes first
                        self.seq = []
                        return cap
                    return self._follow(state, a)
            self.seq = []
        self.geo.update(state)
        ctx = Context(state, self.w, self.geo)
        if ph == ACTIONS:
            if ctx.heli:
                lift = heli_in_turn(ctx)
                if lift is not None:
                    return self._lifted(state, lift)
            if state.actions_left == 0:
                return (END_ACTIONS, state.current)
            seq = plan_turn(ctx, True)
            if not seq or (not state.is_own_action(seq[0]) and seq[0] not in legal):
                return (END_ACTIONS, state.current)
            self.seq = seq
            return self._follow(state, seq[0])
        if ph == DISCARD_PHASE:
            return discard_decision(ctx, legal)
        if ph == SWIM_PHASE:
            return swim_decision(ctx, legal)
        return legal[0]

    def _lifted(self, state: GameState, a: Action) -> Action:
        """Play a Helicopter Lift chosen before planning; when it moves the current player, plan the rest of
        the turn from where it lands, so that the lift is not undone by another rule at the next action."""
        if a[0] == HELI_PLAY and a[2] >> state.current & 1 and state.actions_left:
            after = state.copy()
            after.apply(a)
            if after.phase == ACTIONS:
                self.geo.update(after)
                rest = plan_turn(Context(after, self.w, self.geo), False)
                if rest and after.is_own_action(rest[0]):
                    self.seq = [a] + rest
                    return self._follow(state, a)
        return a

    def _follow(self, state: GameState, a: Action) -> Action:
        """Take the first planned action and remember the position the rest of the plan expects."""
        seq = self.seq[1:]
        self.seq = []
        spent = 0 if a[0] == HELI_PLAY or a[0] == SANDBAGS_PLAY else 1  # special cards cost no action
        if seq and a[0] != LIFT_OFF and a[0] != END_ACTIONS and state.actions_left - spent >= 1:
            after = state.copy()
            after.apply(a)  # an action that is not the turn's last draws no card: no generator needed
            if after.phase == ACTIONS:
                self.seq = seq
                self.expect = after
        return a


def same_position(s: GameState, e: GameState) -> bool:
    """Whether s is the public position e, to check that a plan is followed in the very position it was made
    for (e is a copy of the position the plan was made in, with the plan's first action applied)."""
    return (
        s.pos == e.pos and s.turn == e.turn and s.actions_left == e.actions_left and s.tiles == e.tiles
        and s.hands == e.hands and s.current == e.current and s.flight_used == e.flight_used
        and s.captured == e.captured and s.water == e.water and s.tdeck == e.tdeck
        and (s.fdeck == e.fdeck or list(map(frozenset, s.fdeck)) == list(map(frozenset, e.fdeck)))
        and (s.fdiscard == e.fdiscard or frozenset(s.fdiscard) == frozenset(e.fdiscard))
    )  # fmt: skip  (the order in which a pile's cards are stored is no information)
