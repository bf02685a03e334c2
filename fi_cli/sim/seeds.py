"""Per-game seeds: a pure function of (root seed, scenario id, game number).

They depend on neither the worker count nor the chunking nor the scenario's position in the matrix, so
adding a value to a matrix leaves the games of the other scenarios unchanged.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=256)  # asked for each game: a scenario id (public) is hashed once
def scenario_key(scenario_id: str) -> int:
    """A stable 64-bit number for a scenario id (Python's hash() is salted per process)."""
    return int.from_bytes(hashlib.sha256(scenario_id.encode()).digest()[:8], "little")


def game_seed(root_seed: int, scenario_id: str, game: int) -> int:
    """The 63-bit seed of one game (fits a signed int64 column)."""
    ss = np.random.SeedSequence(root_seed, spawn_key=(scenario_key(scenario_id), game))
    return int(ss.generate_state(1, np.uint64)[0]) >> 1
