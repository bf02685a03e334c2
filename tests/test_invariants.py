"""Invariants over many games: across player counts, start levels, every built-in island and every variant.

The checks themselves live in ``invariants.py`` (shared with ``benchmarks/soak.py``, the long run).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from invariants import PINNED, SPLIT, VARIANTS, check_copy, check_roundtrip, check_state, eager, play_checked, uniform

from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import BUILTIN_LAYOUTS, get_layout
from fi_cli.island.play import choose
from fi_cli.island.policies import make_policy, policy_names
from fi_cli.island.rules import Rules

LAYOUTS = sorted(BUILTIN_LAYOUTS)


def _setup(i: int) -> GameSetup:
    layouts = [get_layout(x) for x in LAYOUTS] + [PINNED, SPLIT]
    return GameSetup(
        layouts[i % len(layouts)],
        start_level=(1, 2, 3, 4, 6)[i % 5],
        players=(2, 3, 4)[i % 3],
        rules=Rules.from_dict(VARIANTS[i % len(VARIANTS)]),
    )


ENDINGS: Counter[str] = Counter()


@pytest.mark.parametrize("chunk", range(4))
def test_invariants_hold_in_random_play(chunk):
    for i in range(chunk, 240, 4):
        s, steps = play_checked(_setup(i), seed=1000 + i, chooser=uniform, roundtrip_every=11)
        ENDINGS[s.loss_cause or s.outcome] += 1


@pytest.mark.parametrize("chunk", range(2))
def test_invariants_hold_in_eager_play(chunk):
    for i in range(chunk, 100, 2):
        s, steps = play_checked(_setup(i), seed=5000 + i, chooser=eager, roundtrip_every=11)
        ENDINGS[s.loss_cause or s.outcome] += 1


@pytest.mark.skipif("heuristic" not in policy_names(), reason="no heuristic policy")
def test_invariants_hold_in_heuristic_play():
    # a stronger player reaches the late game: captures, lift-offs, the water near the skull
    for i in range(24):
        setup = GameSetup(get_layout(LAYOUTS[i % 3]), start_level=(1, 2)[i % 2], players=(2, 3, 4)[i % 3],
                          rules=Rules.from_dict(VARIANTS[i % 8]))  # fmt: skip
        policy = make_policy("heuristic")
        policy.reset(i)
        s = new_game(setup, 9000 + i)
        snap = check_state(s)
        steps = 0
        while s.outcome is None:
            s.apply(choose(policy, s, s.legal_actions()))
            snap = check_state(s, snap, actions=steps % 3 == 0)
            steps += 1
            if steps % 17 == 0:
                check_copy(s)
                check_roundtrip(s)
        ENDINGS[s.loss_cause or s.outcome] += 1


def test_the_games_checked_reached_every_ending():
    # runs after the tests above (file order): the checks met every way a game can end
    if sum(ENDINGS.values()) < 300:
        pytest.skip("the invariant games did not run in this session")
    # (wins and the skull need a stronger player: the heuristic games usually add them, but that depends on
    # the heuristic; the hand-built tests in test_rules_endings.py cover them exactly)
    expected = {"treasure_lost", "fools_landing_sunk", "player_drowned", "turn_limit"}
    assert expected <= set(ENDINGS), ENDINGS


def test_the_checks_catch_a_broken_state():
    # the invariant checker is not a tautology: corrupt a state in a few ways and see it complain
    s = new_game(_setup(0), 1)
    check_state(s)
    bad = s.copy()
    bad.hands[0][0] += 1
    with pytest.raises(AssertionError, match="not conserved"):
        check_state(bad)
    bad = s.copy()
    bad.fdeck[-1].pop()
    with pytest.raises(AssertionError, match="flood cards"):
        check_state(bad)
    bad = s.copy()
    snap = check_state(bad)
    bad.water -= 1
    with pytest.raises(AssertionError, match="water fell"):
        check_state(bad, snap)
    bad = s.copy()
    bad.tiles[bad.pos[0]] = 2
    bad.fdiscard = [t for t in bad.fdiscard if t != bad.pos[0]]
    bad.fdeck = [[t for t in seg if t != bad.pos[0]] for seg in bad.fdeck]
    with pytest.raises(AssertionError, match="on a sunk tile"):
        check_state(bad)


def test_a_game_replays_identically_from_its_seed():
    for i in range(10):
        a, _ = play_checked(_setup(i), seed=i, chooser=uniform)
        b, _ = play_checked(_setup(i), seed=i, chooser=uniform)
        assert (a.outcome, a.loss_causes, a.turn, a.tiles, a.hands) == (b.outcome, b.loss_causes, b.turn, b.tiles,
                                                                        b.hands)  # fmt: skip


def test_random_choices_never_leave_the_legal_list():
    rng = random.Random(4)
    s = new_game(_setup(3), 3)
    while s.outcome is None:
        legal = s.legal_actions()
        s.apply_checked(legal[rng.randrange(len(legal))])
