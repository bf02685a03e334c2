"""The games' and players' seeds: numpy's SeedSequence, computed without numpy (fi_cli.common.seed_sequence)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fi_cli.common.seed_sequence import first_word
from fi_cli.seeding import policy_seed
from fi_cli.sim.seeds import game_seed, scenario_key


def _numpy(entropy: int, spawn_key: tuple[int, ...]) -> int:
    return int(np.random.SeedSequence(entropy, spawn_key=spawn_key).generate_state(1, np.uint64)[0])


def _cases() -> list[tuple[int, tuple[int, ...]]]:
    r = random.Random(51)
    edges = [(0, ()), (0, (0,)), (1, (1,)), (2**32 - 1, ()), (2**32, (5, 7)), (2**64 + 3, (1,)),
             (2**200 + 12345, (2**40, 0, 3)), (51, (2**64 - 1, 999)), (7, (1, 2, 3, 4, 5))]
    sizes = (2**4, 2**32, 2**64, 2**130)
    drawn = [(r.randrange(r.choice(sizes)), tuple(r.randrange(r.choice(sizes)) for _ in range(r.randrange(4))))
             for _ in range(400)]
    return edges + drawn


def test_the_first_word_is_numpys():
    for entropy, key in _cases():
        assert first_word(entropy, key) == _numpy(entropy, key), (entropy, key)


def test_a_negative_entropy_is_refused_as_numpy_refuses_it():
    with pytest.raises(ValueError):
        np.random.SeedSequence(-1)
    with pytest.raises(ValueError, match="non-negative"):
        first_word(-1, (0,))
    with pytest.raises(ValueError, match="non-negative"):
        first_word(3, (0, -2))


def test_game_and_policy_seeds_are_those_numpy_gave():
    for root, scenario, game in [(51, "difficulty=normal", 0), (1, "base", 999_999), (2**40, "players=3", 17)]:
        seed = game_seed(root, scenario, game)
        assert seed == _numpy(root, (scenario_key(scenario), game)) >> 1
        assert policy_seed(seed) == _numpy(seed, (1,)) >> 1
