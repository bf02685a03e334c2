"""Desert invariants over many games: 2-5 players, the four difficulties, every variant, random and eager play.

The checks themselves live in ``desert_invariants.py`` (shared with ``benchmarks/soak.py --game desert``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from desert_invariants import check_state, eager, play_checked, uniform, varied_setup

from fi_cli.desert.engine import PEEK
from fi_cli.desert.game import GameSetup, new_game

ENDINGS: Counter[str] = Counter()
SEEN: Counter[str] = Counter()


@pytest.mark.parametrize("chunk", range(2))
def test_invariants_hold_in_random_play(chunk):
    for g in range(chunk, 400, 2):
        s, _ = play_checked(varied_setup(g), seed=1000 + g, chooser=uniform, roundtrip_every=7)
        ENDINGS[s.loss_cause or s.outcome] += 1


@pytest.mark.parametrize("chunk", range(2))
def test_invariants_hold_in_eager_play(chunk):
    for g in range(chunk, 240, 2):
        s, _ = play_checked(varied_setup(g), seed=5000 + g, chooser=eager, roundtrip_every=7)
        ENDINGS[s.loss_cause or s.outcome] += 1
        SEEN["parts collected"] += s.parts_collected()
        SEEN["tiles excavated"] += sum(s.dug)


def test_the_games_checked_reached_every_ending():
    # runs after the tests above (file order): the checks met every way a game can end
    if sum(ENDINGS.values()) < 640:
        pytest.skip("the invariant games did not run in this session")
    assert {"thirst", "buried", "storm"} <= set(ENDINGS), ENDINGS
    assert SEEN["parts collected"] > 20 and SEEN["tiles excavated"] > 500, SEEN


def test_the_checks_catch_a_broken_state():
    # the invariant checker is not a tautology: corrupt a state in a few ways and see it complain
    s = new_game(varied_setup(1), 1)  # the meter on its second mark
    snap = check_state(s)
    for corrupt, words in [
        (lambda b: b.sand.__setitem__(0, b.sand[0] + 1), "sand markers"),
        (lambda b: b.sdeck.__setitem__(13, b.sdeck[13] - 1), "storm card 13"),
        (lambda b: b.hands[0].__setitem__(1, 1), "gear 1"),
        (lambda b: b.water.__setitem__(0, 9), "out of its canteen"),
        (lambda b: setattr(b, "level", b.level - 1), "storm meter fell"),
        (lambda b: b.pos.__setitem__(0, b.storm), "on the storm cell"),
    ]:
        bad = s.copy()
        corrupt(bad)
        with pytest.raises(AssertionError, match=words):
            check_state(bad, snap)


def test_a_game_replays_identically_from_its_seed():
    for g in range(8):
        a, _ = play_checked(varied_setup(g), seed=g, chooser=eager)
        b, _ = play_checked(varied_setup(g), seed=g, chooser=eager)
        assert (a.outcome, a.loss_causes, a.turn, a.kind, a.sand, a.water) == (b.outcome, b.loss_causes, b.turn,
                                                                               b.kind, b.sand, b.water)  # fmt: skip


def test_random_choices_never_leave_the_legal_list():
    rng = random.Random(4)
    looked = 0
    for g in range(6):
        s = new_game(GameSetup(players=3, roles=("meteorologist", "climber", "navigator")), g)
        while s.outcome is None:
            legal = s.legal_actions()
            looked += s.phase == PEEK
            s.apply_checked(legal[rng.randrange(len(legal))])
    assert looked > 0
