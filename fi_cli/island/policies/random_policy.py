"""The baseline: a uniformly random choice among the legal actions."""

from __future__ import annotations

import random

from ..actions import Action
from ..engine import GameState


class RandomPolicy:
    name = "random"
    PARAMETERS: dict[str, str] = {}

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        return legal[int(self._rng.random() * len(legal))]
