"""The planner: looks ahead over sampled futures that agree with what the players know.

At a decision with several options it asks its base policy (the heuristic) for its choice, screens the
other legal actions by the value of the position they lead to, and compares the best few on copies of the
state. Each copy gets its own generator, i.e. a deck order *sampled* from the public segments, never the
real one (the state it is given carries no generator). Every candidate is played on the same sampled
futures (common random numbers: a fair, low-noise comparison); the base policy plays on until ``depth``
player-turns have begun, and the position reached is scored by the learned value model (a win 1, a loss 0).
The planner leaves the base policy's choice only when a candidate is better by ``margin`` on average.

The ``search`` player is the planner made cheap enough for studies: it looks ahead only at the start of a
turn (where the turn's course is set; the base policy plays the special cards, discards and swims) and
races its candidates: after ``first`` sampled futures, a candidate short of the margin by ``drop`` is
dropped (with ``recheck``, again every ``first`` futures with a smaller allowance), and the lookahead stops
once only the base policy's choice is left. It compares 6 candidates on 16
futures, 4 turns deep (the planner: 4 on 8, 3 turns deep), and beside them the whole turns that up to 12
``variants`` of the heuristic (other weights, listed in VARIANTS) would play: a single action followed by
the base policy's play often ends in the turn the base wanted anyway, while a variant's turn is a
different plan carried through. When a variant's turn wins, that variant plays the rest of the turn.
With the heuristic as base, each candidate's turn is played once up to its first draw and the futures start
there (the heuristic has no chance: its moves up to a draw are the same in every future).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ...common.play import LegalActions
from ...common.rollout import play_on
from ...common.search import RECHECK, VariantTurns, check_settings, race, shared, until_draw
from ..actions import Action
from ..engine import ACTIONS, GameState
from . import Policy, make_policy
from .value import win_chance

# Weight changes of the heuristic that lead to other sensible turns: each proposes a whole turn at a turn's
# start (stay near flooded tiles, gather cards, rush a capture, head home early, spend a lift...). Chosen by
# hand and kept because the search with them wins more (docs/results/log.md), not tuned one by one.
VARIANTS: tuple[dict[str, float], ...] = (
    {"w_guard": 0.3},
    {"w_position": 0.06},
    {"w_meet": 1.6},
    {"w_near": 0.6},
    {"w_plain": 3.0},
    {"risk_deep": 1.2, "risk_discard": 1.0},
    {"w_cap_dist": 8.0, "w_cap_pull": 0.8, "w_cap_pre": 0.8},
    {"w_late_fl": 3.0},
    {"heli_shore_cost": 2.0, "heli_move_min": 3.0},
    {"w_give": 4.0},
    {"w_guard": 0.8, "guard_min": 1.0},
    {"w_fools_landing": 15.0, "w_treasure_last": 15.0},
)


class PlannerPolicy:
    name = "planner"
    PARAMETERS: dict[str, str] = {
        "samples": "sampled futures per candidate action (default 8)",
        "depth": "turns begun before a future is scored (default 3; 1 = end of this turn; 0 = end of game)",
        "candidates": "how many actions are compared, the base policy's choice included (default 4)",
        "screen": "at most this many legal actions are screened by one-step value (default 40)",
        "margin": "average win-chance gain needed to overrule the base policy (default 0.04)",
        "time_per_decision": "seconds one decision may take at most (default 2.0)",
        "base": "policy id that proposes actions and plays the futures (default heuristic)",
        "every_action": "1: also look ahead at the 2nd and 3rd action of a turn (default 0: the base plays them)",
        "specials": "1: also look ahead at special-card plays outside the turn's start, discards, swims (default 1)",
        "first": "futures per candidate before those short of the margin by `drop` are dropped (default 0: never)",
        "drop": "how far short of the margin a candidate may be after the first futures (default 0.05)",
        "recheck": RECHECK.format(0),
        "variants": f"weight variants of the heuristic that also propose whole turns, 0-{len(VARIANTS)} (default 0)",
    }

    def __init__(
        self,
        samples: int = 8,
        depth: int = 3,
        candidates: int = 4,
        screen: int = 40,
        margin: float = 0.04,
        time_per_decision: float = 2.0,
        base: str = "heuristic",
        every_action: int = 0,
        specials: int = 1,
        first: int = 0,
        drop: float = 0.05,
        variants: int = 0,
        recheck: int = 0,
    ) -> None:
        check_settings(
            {"samples": (samples, 1), "depth": (depth, 0), "candidates": (candidates, 1), "screen": (screen, 1),
             "first": (first, 0), "variants": (variants, 0)},
            {"time_per_decision": time_per_decision, "margin": margin, "drop": drop},
            {"every_action": every_action, "specials": specials, "recheck": recheck},
        )  # fmt: skip
        if base in ("planner", "search"):
            raise ValueError(f"base cannot be a planner itself, got {base!r}")
        if variants > len(VARIANTS):
            raise ValueError(f"variants must be at most {len(VARIANTS)}, got {variants}")
        if variants and base != "heuristic":
            raise ValueError(f"variants change the heuristic's weights: with base {base!r} set variants to 0")
        self.samples = samples
        self.depth = depth
        self.candidates = candidates
        self.screen = screen
        self.margin = float(margin)
        self.time_per_decision = float(time_per_decision)
        self.every_action = bool(every_action)
        self.specials = bool(specials)
        self.first = first
        self.drop = float(drop)
        self.recheck = bool(recheck)
        self.base = make_policy(base)  # proposes the action in the real game
        self.roller = make_policy(base)  # plays the sampled futures (its own memory, so the base's is kept)
        self._rng = random.Random(0)
        self.variants = VariantTurns(lambda weights: make_policy(base, weights), VARIANTS[:variants])
        self._once = base == "heuristic"  # a player without chance: its moves up to a draw are played once

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"planner-{seed}")
        for policy in (self.base, self.roller, self.variants):
            policy.reset(seed)

    # ------------------------------------------------------------------
    def choose(self, state: GameState, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        followed = self.variants.follow(state, legal, ACTIONS)
        if followed is not None:
            return followed
        proposal = self.base.choose(state, legal)
        start = state.comp.actions_per_turn  # the actions of a turn: a turn's start has them all
        if state.phase == ACTIONS and 0 < state.actions_left < start and not self.every_action:
            return proposal  # the turn's course was chosen at its first action
        if not self.specials and (state.phase != ACTIONS or state.actions_left == 0):
            return proposal
        # a candidate is (first action, -1) for the base to play on, or (first action, variant) for a variant's turn
        cands: list[tuple[Action, int]] = [(a, -1) for a in self._candidates(state, legal, proposal)]
        if state.phase == ACTIONS and state.actions_left == start and self.variants.proposers:
            cands += self.variants.turns(state, legal, proposal, self.base.planned())
        if len(cands) == 1:
            return proposal
        if self._once:
            playout = self._shared_playout(state, cands)
        else:
            playout = lambda i, seed: self._playout(state, cands[i], seed)  # noqa: E731
        best = race(len(cands), playout, self._rng, self.samples, self.margin, self.first, self.drop,
                    self.time_per_decision, self.recheck)  # fmt: skip
        action, variant = cands[best]
        if variant >= 0:
            self.variants.chosen = (state.turn, variant)
        return action

    def _shared_playout(self, state: GameState, cands: list[tuple[Action, int]]) -> Callable[[int, int], float]:
        """playout(i, seed) for the race, with each candidate's turn played once up to its first draw: up to there
        the heuristic's moves are the same in every future (it has no chance). A candidate that meets another
        there, with the same action to come, has the same futures: it takes the other's score of each future
        (the race plays the two together, as their totals are equal), and the games are the same as if each
        candidate were played in every future."""
        runs: list[tuple[GameState, tuple[Action | None, int]]] = []
        keys: list[tuple[str, Action | None]] = []
        for action, variant in cands:
            if variant >= 0:  # the variant plays its turn's actions phase, as VariantTurns.play_turn does
                start, pending = until_draw(state, None, _Deciders(self.variants.rollers[variant], self.roller))
            else:
                start, pending = until_draw(state, action, _Deciders(self.roller))
            keys.append((_position(start), pending))
            runs.append((start, (pending, -1)))
        return shared(keys, lambda i, seed: self._playout(*runs[i], seed))

    def _candidates(self, state: GameState, legal: list[Action], proposal: Action) -> list[Action]:
        """The proposal first, then the actions whose next position the value model likes best."""
        if self.candidates == 1:
            return [proposal]
        pool = [a for a in legal if a != proposal]
        if len(pool) > self.screen:
            pool = self._rng.sample(pool, self.screen)
        seed = self._rng.getrandbits(64)
        scored = sorted(((self._peek(state, a, seed), i) for i, a in enumerate(pool)), reverse=True)
        return [proposal] + [pool[i] for _, i in scored[: self.candidates - 1]]

    def _sample(self, state: GameState, seed: int) -> GameState:
        s = state.copy(random.Random(seed))
        for seg in s.fdeck:  # a segment's storage order is not information: sample from a canonical order
            seg.sort()
        return s

    def _peek(self, state: GameState, action: Action, seed: int) -> float:
        s = self._sample(state, seed)
        s.apply(action)
        return win_chance(s)

    def _playout(self, state: GameState, cand: tuple[Action | None, int], seed: int) -> float:
        s = self._sample(state, seed)
        action, variant = cand
        if variant >= 0:  # the variant plays its turn as it would in this future
            self.variants.play_turn(s, variant, seed)
        elif action is not None:
            s.apply(action)
        self.roller.reset(seed)  # no memory carried from another sampled future
        play_on(s, self.roller, state.turn + self.depth if self.depth else 1 << 30, False)
        return win_chance(s)


class _Deciders:
    """Decisions up to a draw: ``first`` (reset) while the phase is the turn's actions, then ``then`` (reset)."""

    def __init__(self, first: Policy, then: Policy | None = None) -> None:
        first.reset(0)
        self.policy, self.then = first, then

    def __call__(self, s: GameState) -> Action:
        if self.then is not None and s.phase != ACTIONS:
            self.policy, self.then = self.then, None
            self.policy.reset(0)
        return self.policy.choose(s, LegalActions(s))


def _position(s: GameState) -> str:
    """Everything of the state that a future depends on (its generator aside), as one hashable text."""
    return repr((
        s.pos, s.hands, s.tiles, s.tdeck, s.tdiscard, s.fdeck, s.fdiscard, s.water, s.captured, s.current, s.turn,
        s.phase, s.actions_left, s.flight_used, s.discarder, s.resume, s.draws_left, s.flood_left, s.swimmers,
        s.sinking, s.outcome, s.loss_causes,
    ))  # fmt: skip


class SearchPolicy(PlannerPolicy):
    """The planner at study speed: lookahead at the start of each turn only, candidates raced."""

    name = "search"
    PARAMETERS: dict[str, str] = {
        **PlannerPolicy.PARAMETERS,
        "time_per_decision": "seconds one decision may take at most (default 10.0: a safety net, ~30 ms are usual)",
        "specials": "1: also look ahead at special-card plays outside the turn's start, discards, swims (default 0)",
        "first": "futures per candidate before those short of the margin by `drop` are dropped (default 4)",
        "samples": "sampled futures per candidate action (default 16)",
        "candidates": "how many actions are compared, the base policy's choice included (default 6)",
        "variants": f"weight variants of the heuristic that also propose whole turns, 0-{len(VARIANTS)} (default 12)",
        "depth": "turns begun before a future is scored (default 4; 1 = end of this turn; 0 = end of game)",
    }

    def __init__(
        self, specials: int = 0, first: int = 4, time_per_decision: float = 10.0, samples: int = 16,
        candidates: int = 6, variants: int = 12, depth: int = 4, **kw,
    ) -> None:  # fmt: skip
        # 16 futures, 6 candidates and 4 turns deep: the compiled heuristic made room for them within 0.5 s a game
        super().__init__(specials=specials, first=first, time_per_decision=time_per_decision, samples=samples,
                         candidates=candidates, variants=variants, depth=depth, **kw)  # fmt: skip
