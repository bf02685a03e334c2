"""The race at the heart of both games' searches: candidates played on the same sampled futures.

Each future is a seed the caller turns into a copy of the state with its own generator (common random numbers:
every candidate meets the same storms and draws, a fair, low-noise comparison). Candidate 0 is the base
policy's choice; another replaces it only when better by ``margin`` on average.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any


def race(
    count: int, playout: Callable[[int, int], float], rng: random.Random, samples: int, margin: float,
    first: int = 0, drop: float = 0.0, seconds: float = float("inf"),
) -> int:  # fmt: skip
    """The index of the candidate to play (0: the base's), ``playout(i, seed)`` scoring candidate i on a future.

    One future at a time for every candidate still in, so the comparison stays fair if time runs out; after
    ``first`` futures, a candidate short of the margin by ``drop`` drops out (it would need much luck to catch
    up), and the race stops once only the base's choice is left."""
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
        if played == first:
            alive = [0] + [i for i in alive[1:] if (totals[i] - totals[0]) / played >= margin - drop]
            if len(alive) == 1:
                return 0
        if time.perf_counter() > deadline:
            break
    best = max(alive, key=lambda i: (totals[i], -i))
    return best if best != 0 and (totals[best] - totals[0]) / played >= margin else 0


def check_settings(counts: dict[str, tuple[Any, int]], amounts: dict[str, Any]) -> None:
    """ValueError unless each count is a whole number at least its low bound and each amount a number >= 0."""
    for key, (value, low) in counts.items():
        if type(value) is not int or value < low:
            raise ValueError(f"{key} must be an integer >= {low}, got {value!r}")
    for key, value in amounts.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValueError(f"{key} must be a non-negative number, got {value!r}")
