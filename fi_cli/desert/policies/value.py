"""A learned value for the Desert: the chance the heuristic team goes on to win from a position (logistic).

The weights live in ``value_weights.json`` beside this file and are refitted from heuristic self-play by
``python benchmarks/train_value.py --game desert``.
"""

from __future__ import annotations

from pathlib import Path

from ...common.value import ValueModel
from .features import FEATURES, features

MODEL = ValueModel(Path(__file__).with_name("value_weights.json"), FEATURES, features)
WEIGHTS_FILE = MODEL.path
win_chance = MODEL.win_chance
