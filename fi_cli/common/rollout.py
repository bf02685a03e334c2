"""A policy plays a sampled future on: both games' searches' inner loop, compiled with the engines."""

from __future__ import annotations

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
