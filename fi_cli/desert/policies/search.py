"""The Desert ``search`` player: the heuristic's turn raced against the turns of weight variants of it.

At the start of each pawn's turn the heuristic and up to 12 ``variants`` of it (other weights, listed in
VARIANTS: more careful of thirst, more eager to dig, to excavate, to stay in the shade...) each propose the
whole turn they would play. Every distinct turn is played on the same sampled futures (common random numbers):
a copy of the state given its own generator, so the storm and gear decks and the unexcavated tiles are drawn
afresh -- the Desert state holds nothing hidden, so any generator gives a future that agrees with what the
players know. The heuristic plays on until ``depth`` turns have begun (this one included), and the position
is scored by a learned value model (a win 1, a loss 0). A variant's turn is played in the real game only
when it beats the heuristic's by ``margin`` on average; candidates far behind after ``first`` futures drop out,
and with ``recheck`` again every ``first`` futures with a smaller allowance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...common.rollout import play_on
from ...common.search import RECHECK, VariantTurns, check_settings, race
from ..actions import Action
from ..engine import ACTIONS, GameState
from ..tiles import ACTIONS_PER_TURN
from .heuristic import HeuristicPolicy
from .value import win_chance

# Weight changes of the heuristic that lead to other sensible turns: each proposes a whole turn at a turn's start.
# Chosen by hand among the weights whose change, played throughout, traded thirst for burial or the other way
# (benchmarks/RESULTS.md): wrong as a whole game's policy, right in some positions, which the race finds.
VARIANTS: tuple[dict[str, float], ...] = (
    {"w_death": 40.0},
    {"w_death": 10.0},
    {"w_shade": 1.0},
    {"w_well_waste": 1.0, "meet_rounds": 2.0},
    {"v_excavate": 6.0},
    {"v_sand": 2.0},
    {"w_bury_risk": 6.0},
    {"g_next": 1.0},
    {"v_water": 10.0},
    {"step_cost": 2.5},
    {"w_meet": 5.0},
    {"v_pick": 50.0, "v_clue_pair": 28.0},
)


class SearchPolicy:
    """The heuristic's turn or a variant's, whichever does better on sampled futures; see the module docstring."""

    name = "search"
    PARAMETERS: dict[str, str] = {
        "samples": "sampled futures per candidate turn (default 12)",
        "depth": "turns begun before a future is scored (default 5; 1 = end of this turn; 0 = end of game)",
        "margin": "average win-chance gain a variant's turn needs to replace the heuristic's (default 0.03)",
        "first": "futures before candidates short of the margin by `drop` drop out (default 4; 0: never)",
        "drop": "how far short of the margin a candidate may be after the first futures (default 0.05)",
        "recheck": RECHECK.format(0),
        "variants": f"weight variants of the heuristic that propose turns, 0-{len(VARIANTS)} (default {len(VARIANTS)})",
        "time_per_decision": "seconds one decision may take at most (default 10.0: a safety net)",
    }

    def __init__(
        self, samples: int = 12, depth: int = 5, margin: float = 0.03, first: int = 4, drop: float = 0.05,
        variants: int = len(VARIANTS), time_per_decision: float = 10.0, recheck: int = 0,
    ) -> None:  # fmt: skip
        check_settings(
            {"samples": (samples, 1), "depth": (depth, 0), "first": (first, 0), "variants": (variants, 0)},
            {"margin": margin, "drop": drop, "time_per_decision": time_per_decision},
            {"recheck": recheck},
        )
        if variants > len(VARIANTS):
            raise ValueError(f"variants must be at most {len(VARIANTS)}, got {variants}")
        self.samples, self.depth, self.first = samples, depth, first
        self.margin, self.drop, self.time_per_decision = float(margin), float(drop), float(time_per_decision)
        self.recheck = bool(recheck)
        self.base = HeuristicPolicy()
        self.roller = HeuristicPolicy()
        self.variants = VariantTurns(lambda weights: HeuristicPolicy(**weights), VARIANTS[:variants])
        self.reset(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"search-{seed}")
        for policy in (self.base, self.roller, self.variants):
            policy.reset(seed)

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        followed = self.variants.follow(state, legal, ACTIONS)
        if followed is not None:
            return followed
        proposal = self.base.choose(state, legal)
        if state.phase != ACTIONS or state.actions_left != ACTIONS_PER_TURN:
            return proposal  # a turn's course is set at its start; the heuristic plays the storm and gear
        cands = [(proposal, -1), *self.variants.turns(state, legal, proposal, self.base.planned())]
        best = race(len(cands), lambda i, seed: self._playout(state, cands[i][1], seed), self._rng, self.samples,
                    self.margin, self.first, self.drop, self.time_per_decision, self.recheck)  # fmt: skip
        action, variant = cands[best]
        if variant >= 0:
            self.variants.chosen = (state.turn, variant)
        return action

    def _playout(self, state: GameState, variant: int, seed: int) -> float:
        s = state.copy(random.Random(seed))  # nothing hidden is in the state: any generator is a fair future
        if variant >= 0:
            self.variants.play_turn(s, variant, seed)
        self.roller.reset(seed)
        play_on(s, self.roller, state.turn + self.depth if self.depth else 1 << 30, False)
        return win_chance(s)
