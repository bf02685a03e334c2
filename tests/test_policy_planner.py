"""The planner: parameters, complete games, and its value model."""

from __future__ import annotations

import pytest

from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import PolicyError, make_policy
from fi_cli.island.policies.features import FEATURES, features
from fi_cli.island.policies.value import load_weights, win_chance

FAST = {"samples": 2, "candidates": 2, "depth": 1, "screen": 8}


@pytest.mark.parametrize("players", [2, 4])
def test_planner_plays_whole_games(players):
    setup = GameSetup(get_layout("forbidden_island"), start_level=3, players=players)
    a = play_game(setup, make_policy("planner", FAST), 5)
    b = play_game(setup, make_policy("planner", FAST), 5)
    assert a.outcome in ("win", "loss")
    assert [r.actions for r in a.turn_rows] == [r.actions for r in b.turn_rows]  # reproducible from the seed


@pytest.mark.parametrize(
    "params, words",
    [
        ({"samples": 0}, "samples"),
        ({"depth": -1}, "depth"),
        ({"margin": "big"}, "margin"),
        ({"base": "planner"}, "itself"),
        ({"base": "oracle"}, "unknown policy"),
        ({"horizon": 3}, "has no parameter 'horizon'"),
    ],
)
def test_bad_parameters_are_clear_errors(params, words):
    with pytest.raises(PolicyError, match=words):
        make_policy("planner", params)


def test_value_model_matches_the_features_and_reads_positions():
    assert len(load_weights()) == len(FEATURES)
    s = new_game(GameSetup(get_layout("forbidden_island"), start_level=2, players=4), 1)
    assert len(features(s)) == len(FEATURES)
    p = win_chance(s)
    assert 0.0 < p < 1.0
    better = s.copy()
    better.captured = 0b0011  # two treasures already held, all else equal
    worse = s.copy()
    worse.water = 8  # five flood cards a turn, one Waters Rise! from the skull's neighbour
    assert win_chance(better) > p > win_chance(worse)
    over = s.copy()
    over.outcome = "win"
    assert win_chance(over) == 1.0
