"""Learned position values for both games' searches: a logistic model over a game's features, its weights in
a JSON file beside the game's features, written by ``benchmarks/train_value.py`` (which records how)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .rollout import logistic


class ValueModel:
    """P(win) of a position: the logistic of the weighted ``features(state)``; a game over is worth 1 or 0."""

    def __init__(self, path: Path, names: tuple[str, ...], features: Callable[[Any], list[float]]) -> None:
        self.path, self.names, self.features = path, names, features
        self._weights: tuple[float, ...] | None = None

    def weights(self) -> tuple[float, ...]:
        """The fitted weights (read once), which must be those of the features' names."""
        if self._weights is None:
            doc = json.loads(self.path.read_text())
            if tuple(doc["features"]) != self.names:
                raise ValueError(f"{self.path} was fitted for other features; run benchmarks/train_value.py")
            self._weights = tuple(doc["weights"])
        return self._weights

    def win_chance(self, s: Any) -> float:
        """Estimated chance of a win from ``s`` (1 or 0 once the game is over)."""
        if s.outcome is not None:
            return 1.0 if s.outcome == "win" else 0.0
        return logistic(self.weights(), self.features(s))
