"""A policy plays a sampled future on, and the future is scored: both games' searches' inner loop, compiled with
the engines."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .play import LegalActions


def play_on(s: Any, policy: Any, stop: int, this_phase: bool) -> None:
    """Let ``policy`` play ``s`` until turn ``stop`` begins, the game ends, or (``this_phase``) the phase ends.

    The policy decides without the state's generator, as in a real game: it is taken away at each decision."""
    over = s.OVER
    phase = s.phase
    while s.phase != over and s.turn < stop and (not this_phase or s.phase == phase):
        rng = s.rng
        s.rng = None
        a = policy.choose(s, LegalActions(s))
        s.rng = rng
        s.apply(a)


def logistic(weights: Sequence[float], features: Sequence[float]) -> float:
    """The logistic of the weighted sum of ``features`` (summed in order; its argument kept within +-30)."""
    if len(weights) != len(features):
        raise ValueError(f"{len(features)} features for {len(weights)} weights")
    z = 0.0
    for i in range(len(weights)):
        z += weights[i] * features[i]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
