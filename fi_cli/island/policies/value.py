"""A learned value: the chance the heuristic team goes on to win from a position (logistic model).

The weights live in ``value_weights.json`` beside this file and are refitted from heuristic self-play by
``python benchmarks/train_value.py``; the file records how it was made.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from ..engine import GameState
from .features import FEATURES, features

WEIGHTS_FILE = Path(__file__).with_name("value_weights.json")


@lru_cache(maxsize=1)
def load_weights() -> tuple[float, ...]:
    doc = json.loads(WEIGHTS_FILE.read_text())
    names = doc["features"]
    if tuple(names) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE} was fitted for other features; run benchmarks/train_value.py")
    return tuple(doc["weights"])


def win_chance(s: GameState, weights: tuple[float, ...] | None = None) -> float:
    """Estimated chance of a win from ``s`` (1 or 0 once the game is over)."""
    if s.outcome is not None:
        return 1.0 if s.outcome == "win" else 0.0
    w = weights or load_weights()
    z = sum(a * b for a, b in zip(w, features(s), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
