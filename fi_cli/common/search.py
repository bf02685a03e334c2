"""The race at the heart of both games' searches: candidates played on the same sampled futures.

Each future is a seed the caller turns into a copy of the state with its own generator (common random numbers:
every candidate meets the same storms and draws, a fair, low-noise comparison). Candidate 0 is the base
policy's choice; another replaces it only when better by ``margin`` on average.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .rollout import play_on


def race(
    count: int, playout: Callable[[int, int], float], rng: random.Random, samples: int, margin: float,
    first: int = 0, drop: float = 0.0, seconds: float = float("inf"), recheck: bool = False,
) -> int:  # fmt: skip
    """The index of the candidate to play (0: the base's), ``playout(i, seed)`` scoring candidate i on a future.

    One future at a time for every candidate still in, so the comparison stays fair if time runs out; after
    ``first`` futures, a candidate short of the margin by ``drop`` drops out (it would need much luck to catch
    up), and the race stops once only the base's choice is left. With ``recheck`` the same test is made again
    every ``first`` futures, with the allowance shrinking as drop * (first / futures played)^2: most candidates
    stay level with the base's choice (another first action that the base's play brings back to its own
    turn), and an average that still hovers near zero after 8 or 12 futures rarely ends above the margin."""
    if count < 2:
        return 0
    deadline = time.perf_counter() + seconds
    totals = [0.0] * count
    alive = range(count)
    played = 0
    while played < samples:
        seed = rng.getrandbits(64)
        for i in alive:
            totals[i] += playout(i, seed)
        played += 1
        if first and (played == first or recheck and played % first == 0):
            cut = margin - drop * (first / played) ** 2
            alive = [0] + [i for i in alive[1:] if (totals[i] - totals[0]) / played >= cut]
            if len(alive) == 1:
                return 0
        if time.perf_counter() > deadline:
            break
    best = max(alive, key=lambda i: (totals[i], -i))
    return best if best != 0 and (totals[best] - totals[0]) / played >= margin else 0


class _DrawNeeded(Exception):
    """Raised by _NO_DRAWS when an action would draw a card."""


class _NoDraws(random.Random):
    """A generator that refuses to draw: an action applied with it shows whether it needs chance."""

    def random(self) -> float:
        raise _DrawNeeded

    def getrandbits(self, k: int) -> int:
        raise _DrawNeeded


_NO_DRAWS = _NoDraws(0)


def until_draw(s: Any, action: tuple | None, decide: Callable[[Any], tuple]) -> tuple[Any, tuple | None]:
    """Play ``action`` (None: ``decide``'s choice), then ``decide``'s choices, on a copy of ``s`` while no card
    needs drawing. Returns the position reached and the action that would draw (None if the game ended first).

    Up to the first draw a deterministic player's moves are the same in every sampled future, so a search plays
    them once instead of once a future (and two candidates that meet there have the same futures)."""
    s = s.copy()
    if action is None:
        action = decide(s)
    while True:
        trial = s.copy(_NO_DRAWS)
        try:
            trial.apply(action)
        except _DrawNeeded:
            return s, action
        trial.rng = None
        s = trial
        if s.phase == s.OVER:
            return s, None
        action = decide(s)


def shared(keys: Sequence[Hashable | None], score: Callable[[int, int], float]) -> Callable[[int, int], float]:
    """playout(i, seed) for the race from ``score``, where candidates with equal keys (not None) are one: the first
    of them is scored on each future and the others take its score (their totals stay equal, so the race keeps
    them together), as if each were played in every future, at the cost of the distinct ones only."""
    first_of: dict[Hashable, int] = {}
    twin = [i if k is None else first_of.setdefault(k, i) for i, k in enumerate(keys)]
    scores: dict[int, float] = {}  # of the future being played, by candidate

    def playout(i: int, seed: int) -> float:
        j = twin[i]
        if j == i:
            scores[i] = score(i, seed)
        return scores[j]

    return playout


RECHECK = "1: drop candidates again every `first` futures, with less allowance each time (default {})"


def check_settings(
    counts: dict[str, tuple[Any, int]], amounts: dict[str, Any], switches: dict[str, Any] | None = None
) -> None:
    """ValueError unless each count is a whole number at least its low bound, each amount a number >= 0 and each
    switch 0 or 1 (or a boolean)."""
    for key, (value, low) in counts.items():
        if type(value) is not int or value < low:
            raise ValueError(f"{key} must be an integer >= {low}, got {value!r}")
    for key, value in amounts.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValueError(f"{key} must be a non-negative number, got {value!r}")
    for key, value in (switches or {}).items():
        if not isinstance(value, int) or value not in (0, 1):  # a bool is an int
            raise ValueError(f"{key} must be 0 or 1, got {value!r}")


class VariantTurns:
    """Weight variants of a heuristic, each proposing the whole turn it would play at a turn's start: a single
    action followed by the base's play often ends in the turn the base wanted anyway, a variant's turn is another
    plan carried through. Once a variant's turn is chosen it plays the rest of that turn. The proposers decide in
    the real game, the rollers in sampled futures (their own memory, so the proposers' plans are kept)."""

    def __init__(self, make: Callable[[dict[str, float]], Any], variants: Sequence[dict[str, float]]) -> None:
        self.proposers = [make(v) for v in variants]
        self.rollers = [make(v) for v in variants]
        self.chosen: tuple[int, int] | None = None  # (turn, variant) while a chosen variant plays out its turn
        self._seed = 0

    def reset(self, seed: int) -> None:
        self._seed = seed
        for policy in (*self.proposers, *self.rollers):
            policy.reset(seed)
        self.chosen = None

    def follow(self, state: Any, legal: Sequence[tuple], actions_phase: int) -> tuple | None:
        """The chosen variant's next action while its turn's actions last; else None, and the choice is over."""
        c = self.chosen
        if c is not None and c[0] == state.turn and state.phase == actions_phase:
            return self.proposers[c[1]].choose(state, legal)
        self.chosen = None
        return None

    def turns(self, state: Any, legal: Sequence[tuple], proposal: tuple, planned: tuple) -> list[tuple[tuple, int]]:
        """(first action, variant) of the variants' turns that differ from the base's (``proposal`` and the rest
        it ``planned``) and from each other."""
        seen = {(proposal, planned)}
        out = []
        for i, policy in enumerate(self.proposers):
            policy.reset(self._seed)  # plans from this position only; keeps the plan to follow if chosen
            a = policy.choose(state, legal)
            turn = (a, policy.planned())
            if turn not in seen:
                seen.add(turn)
                out.append((a, i))
        return out

    def play_turn(self, s: Any, variant: int, seed: int) -> None:
        """Let the variant play the rest of its turn's phase in the sampled future ``s``, as it would there."""
        policy = self.rollers[variant]
        policy.reset(seed)  # no memory carried from another sampled future
        play_on(s, policy, s.turn + 1, True)
