"""Per-game seeds: a pure function of (root seed, scenario id, game number).

They depend on neither the worker count nor the chunking nor the scenario's position in the matrix, so
adding a value to a matrix leaves the games of the other scenarios unchanged.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from ..common.seed_sequence import first_word


@lru_cache(maxsize=256)  # asked for each game: a scenario id (public) is hashed once
def scenario_key(scenario_id: str) -> int:
    """A stable 64-bit number for a scenario id (Python's hash() is salted per process)."""
    return int.from_bytes(hashlib.sha256(scenario_id.encode()).digest()[:8], "little")


def game_seed(root_seed: int, scenario_id: str, game: int) -> int:
    """The 63-bit seed of one game (fits a signed int64 column)."""
    return first_word(root_seed, (scenario_key(scenario_id), game)) >> 1  # numpy's SeedSequence, without its set-up
