"""The planner: looks ahead over sampled futures that agree with what the players know.

At a decision with several options it tries the most promising candidates (ranked by its base policy)
on copies of the state. Each copy gets its own generator, i.e. a deck order *sampled* from the public
segments, never the real one (the state it is given carries no generator). Every candidate is played on
the same sampled futures (common random numbers, so the comparison is fair and low-noise), the base policy
plays on for ``depth`` player-turns, and the result is scored: a win 1, a loss 0, an unfinished game by the
base policy's evaluation squashed into (0, 1).
"""

from __future__ import annotations

import math
import random
import time

from ..actions import Action
from ..engine import OVER, GameState
from . import make_policy


class PlannerPolicy:
    name = "planner"
    PARAMETERS: dict[str, str] = {
        "samples": "sampled futures per candidate action (default 12)",
        "depth": "player-turns played out after the candidate (default 3; 0 = to the end of the game)",
        "candidates": "how many of the base policy's best actions are compared (default 6)",
        "time_per_decision": "seconds one decision may take at most (default 1.0)",
        "base": "policy id used to rank candidates and play the futures (default heuristic)",
    }

    def __init__(
        self,
        samples: int = 12,
        depth: int = 3,
        candidates: int = 6,
        time_per_decision: float = 1.0,
        base: str = "heuristic",
    ) -> None:
        for key, value, low in (("samples", samples, 1), ("depth", depth, 0), ("candidates", candidates, 1)):
            if type(value) is not int or value < low:
                raise ValueError(f"{key} must be an integer >= {low}, got {value!r}")
        if not isinstance(time_per_decision, int | float) or time_per_decision <= 0:
            raise ValueError(f"time_per_decision must be a positive number of seconds, got {time_per_decision!r}")
        if base == "planner":
            raise ValueError("base cannot be the planner itself")
        self.samples = samples
        self.depth = depth
        self.candidates = candidates
        self.time_per_decision = float(time_per_decision)
        self.base = make_policy(base)
        self._rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"planner-{seed}")
        self.base.reset(seed)

    # ------------------------------------------------------------------
    def choose(self, state: GameState, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        cands = self._candidates(state, legal)
        if len(cands) == 1:
            return cands[0]
        deadline = time.perf_counter() + self.time_per_decision
        seeds = [self._rng.getrandbits(64) for _ in range(self.samples)]
        totals = [0.0] * len(cands)
        done = 0
        for seed in seeds:  # one sampled future at a time for every candidate: fair even if time runs out
            for i, a in enumerate(cands):
                totals[i] += self._playout(state, a, seed)
            done += 1
            if time.perf_counter() > deadline:
                break
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def _candidates(self, state: GameState, legal: list[Action]) -> list[Action]:
        rank = getattr(self.base, "rank", None)
        if rank is not None:
            return list(rank(state, legal, self.candidates))
        if len(legal) <= self.candidates:
            return list(legal)
        first = self.base.choose(state, legal)
        others = [a for a in legal if a != first]
        return [first] + self._rng.sample(others, self.candidates - 1)

    def _playout(self, state: GameState, action: Action, seed: int) -> float:
        s = state.copy(random.Random(seed))
        s.apply(action)
        base = self.base
        stop = s.turn + self.depth if self.depth else None
        while s.phase != OVER and (stop is None or s.turn < stop):
            legal = s.legal_actions()
            rng = s.rng
            s.rng = None  # the base policy decides without the sampled future, as in a real game
            a = legal[0] if len(legal) == 1 else base.choose(s, legal)
            s.rng = rng
            s.apply(a)
        if s.outcome == "win":
            return 1.0
        if s.outcome == "loss":
            return 0.0
        return _squash(self._evaluate(s))

    def _evaluate(self, s: GameState) -> float:
        evaluate = getattr(self.base, "evaluate", None)
        return evaluate(s) if evaluate is not None else plain_evaluation(s)


def _squash(x: float) -> float:
    """Map an evaluation to (0, 1) so that any unfinished game ranks between a loss and a win."""
    return 0.05 + 0.9 / (1.0 + math.exp(-x / 10.0))


def plain_evaluation(s: GameState) -> float:
    """A simple fallback evaluation when the base policy has none: treasures, key tiles, water."""
    from ..tiles import FLOODED, SUNK, TREASURE_TILES

    score = 10.0 * s.treasures_captured() - 3.0 * s.water
    for tr, (a, b) in enumerate(TREASURE_TILES):
        if not s.captured >> tr & 1:
            alive = (s.tiles[a] != SUNK) + (s.tiles[b] != SUNK)
            score += 4.0 * alive - 2.0 * ((s.tiles[a] == FLOODED) + (s.tiles[b] == FLOODED))
    score -= 6.0 * (s.tiles[0] == FLOODED)
    return score
