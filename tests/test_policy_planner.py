"""The planner: parameters, complete games, and its value model."""

from __future__ import annotations

import hashlib
import math

import pytest
from variant_spy import spy_on_variants

from fi_cli.island.actions import END_ACTIONS
from fi_cli.island.engine import ACTIONS, PHASES
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import PolicyError, make_policy
from fi_cli.island.policies.features import FEATURES, features
from fi_cli.island.policies.value import MODEL, win_chance
from fi_cli.island.rules import Rules

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
        ({"base": "planner"}, "a planner itself"),
        ({"base": "telepath"}, "unknown policy"),
        ({"horizon": 3}, "has no parameter 'horizon'"),
    ],
)
def test_bad_parameters_are_clear_errors(params, words):
    with pytest.raises(PolicyError, match=words):
        make_policy("planner", params)


def test_value_model_matches_the_features_and_reads_positions():
    assert len(MODEL.weights()) == len(FEATURES)
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


def test_the_value_is_the_logistic_of_the_weighted_features():
    from fi_cli.common.rollout import logistic

    s = new_game(GameSetup(get_layout("forbidden_island"), start_level=2, players=4), 3)
    z = sum(a * b for a, b in zip(MODEL.weights(), features(s), strict=True))
    assert win_chance(s) == pytest.approx(1.0 / (1.0 + math.exp(-z)), rel=1e-12)
    assert logistic((2.0, -1.0), (1.5, 1.0)) == pytest.approx(1.0 / (1.0 + math.exp(-2.0)))
    assert logistic((1.0,), (100.0,)) == 1.0 / (1.0 + math.exp(-30.0))  # kept within +-30
    with pytest.raises(ValueError, match="3 features for 2 weights"):
        logistic((1.0, 2.0), (1.0, 2.0, 3.0))


# --- the search player: the planner at study speed -----------------------------------------------------------

SETUP4 = GameSetup(get_layout("forbidden_island"), start_level=2, players=4, rules=Rules(turn_limit=10))


def _searched(policy) -> list[tuple[str, int]]:
    """(phase, actions left) of every decision at which ``policy`` looked ahead (it made candidates)."""
    seen = []
    make = policy._candidates

    def spy(state, legal, proposal):
        seen.append((PHASES[state.phase], state.actions_left))
        return make(state, legal, proposal)

    policy._candidates = spy
    return seen


def test_search_looks_ahead_at_the_start_of_a_turn_only():
    search = make_policy("search", FAST)
    planner = make_policy("planner", FAST)
    looked, planned = _searched(search), _searched(planner)
    for seed in (3, 4):
        play_game(SETUP4, search, seed)
        play_game(SETUP4, planner, seed)
    assert len(looked) > 20 and set(looked) == {("actions", 3)}
    assert any(phase != "actions" for phase, _ in planned)  # the planner also weighs special cards (specials=1)


def test_racing_drops_candidates_but_never_changes_a_decision_it_could_not_win():
    # a dropped candidate is short of the margin, so dropping only after the last future changes nothing
    full = play_game(SETUP4, make_policy("search", {**FAST, "samples": 4, "first": 0}), 6)
    late = play_game(SETUP4, make_policy("search", {**FAST, "samples": 4, "first": 4}), 6)
    assert [r.actions for r in full.turn_rows] == [r.actions for r in late.turn_rows]
    # dropped after one future, the candidates left behind are played out fewer times
    counts = {}
    for first in (0, 1):
        policy = make_policy("search", {"samples": 4, "candidates": 4, "screen": 8, "depth": 1, "first": first})
        played = []
        playout = policy._playout
        policy._playout = lambda s, a, seed, playout=playout, played=played: played.append(a) or playout(s, a, seed)
        play_game(SETUP4, policy, 6)
        counts[first] = len(played)
    assert counts[1] < counts[0]


def test_search_parameters_are_checked():
    with pytest.raises(PolicyError, match="first must be an integer >= 0"):
        make_policy("search", {"first": -1})
    with pytest.raises(PolicyError, match="base cannot be a planner"):
        make_policy("search", {"base": "search"})
    with pytest.raises(PolicyError, match="drop must be a non-negative number"):
        make_policy("search", {"drop": -0.1})
    with pytest.raises(PolicyError, match="recheck must be 0 or 1, got 'abc'"):
        make_policy("search", {"recheck": "abc"})
    with pytest.raises(PolicyError, match="specials must be 0 or 1, got 2"):
        make_policy("planner", {"specials": 2})
    assert make_policy("search", {"recheck": False, "every_action": True}).every_action
    with pytest.raises(PolicyError, match="variants must be at most 12"):
        make_policy("search", {"variants": 13})
    with pytest.raises(PolicyError, match="with base 'random' set variants to 0"):
        make_policy("search", {"base": "random"})


def test_a_variant_whose_turn_wins_plays_that_turn_through():
    # margin 0: any candidate ahead of the base's choice is taken, so variants' turns are chosen often
    policy = make_policy("search", {**FAST, "samples": 3, "margin": 0.0})
    offered, chosen = spy_on_variants(policy, ACTIONS)
    for seed in (3, 4, 5):
        play_game(SETUP4, policy, seed)
    assert {(phase, left) for phase, left, _ in offered} == {(ACTIONS, 3)}  # only at the start of a turn
    assert sum(n for _, _, n in offered) > len(offered)  # most variants differ from the base's turn
    assert len(chosen) >= 3
    for c in chosen:  # the variant's planned turn is the turn played (up to the end of the actions)
        assert c["played"][: len(c["plan"])] == c["plan"]


def test_golden_search_game():
    # The search machinery alone (sampled futures, racing, the value model) on a random base policy, so that
    # a change of the heuristic leaves this digest alone; a change of the search changes it.
    policy = make_policy("search", {"base": "random", "samples": 4, "first": 2, "candidates": 4, "variants": 0,
                                    "depth": 3})
    rec = play_game(SETUP4, policy, 11)
    digest = hashlib.sha256(repr([(r.turn, r.actions, r.flood_draws) for r in rec.turn_rows]).encode()).hexdigest()
    assert (digest[:16], rec.outcome, rec.turns, rec.treasures_captured) == ("21011f34b52fe330", "loss", 6, 0)


def test_until_draw_plays_a_turn_up_to_its_first_draw():
    import random

    from fi_cli.common.play import LegalActions
    from fi_cli.common.search import until_draw

    state = new_game(SETUP4, 8)
    state.rng = None  # as a policy sees it
    before = repr((state.pos, state.hands, state.tiles, state.actions_left))
    heuristic = make_policy("heuristic")
    start, pending = until_draw(state, None, lambda s: heuristic.choose(s, LegalActions(s)))
    assert repr((state.pos, state.hands, state.tiles, state.actions_left)) == before  # played on a copy
    assert start.phase == ACTIONS and start.turn == state.turn and start.rng is None
    assert start.actions_left == 1 or pending[0] == END_ACTIONS  # the turn's last action draws the cards
    after = start.copy(random.Random(1))
    after.apply(pending)
    assert after.phase != ACTIONS or after.turn > state.turn
    # an action that draws at once is returned as it is, before anything is played
    start, pending = until_draw(state, (END_ACTIONS, state.current), lambda s: pytest.fail("nothing to decide"))
    assert pending == (END_ACTIONS, state.current) and start.actions_left == state.actions_left


def test_search_plays_each_candidate_turn_once_up_to_the_draw_with_the_same_games(monkeypatch):
    # the moves before a turn's draw are played once for all futures, and candidates that meet there share
    # their futures' scores: every race sees the scores, and the games are those, of a search that plays every
    # candidate in every future
    import fi_cli.island.policies.planner as planner

    real_race = planner.race
    params = {"samples": 4, "first": 2, "candidates": 4, "depth": 2, "screen": 8}
    games, scores, playouts = [], [], []
    for once in (True, False):
        seen = []

        def race(count, playout, *args, seen=seen, **kw):
            seen.append([playout(i, seed) for seed in (1, 2) for i in range(count)])
            return real_race(count, playout, *args, **kw)

        monkeypatch.setattr(planner, "race", race)
        policy = make_policy("search", params)
        policy._once = once
        calls = []
        playout = policy._playout
        policy._playout = lambda s, c, seed, playout=playout, calls=calls: calls.append(1) or playout(s, c, seed)
        rec = play_game(SETUP4, policy, 14)
        games.append([(r.turn, r.actions, r.flood_draws) for r in rec.turn_rows])
        scores.append(seen)
        playouts.append(len(calls))
    assert games[0] == games[1] and scores[0] == scores[1]
    assert playouts[0] < playouts[1]  # candidates that met another were not played again
