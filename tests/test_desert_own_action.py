"""The Desert engine's ``is_own_action`` answers as ``a in own_actions()`` does (the heuristic asks it at every
action of its plan)."""

from __future__ import annotations

import random

from desert_invariants import eager, uniform, varied_setup

from fi_cli.desert.actions import (
    EXCAVATE,
    GIVE_WATER,
    MOVE,
    NAVIGATE,
    NOBODY,
    PEEK_STORM,
    PICK_UP,
    REDUCE_STORM,
    REMOVE_SAND,
    TAKE_WATER,
)
from fi_cli.desert.game import new_game
from fi_cli.desert.tiles import N_CELLS

_KINDS = (MOVE, REMOVE_SAND, EXCAVATE, PICK_UP, NAVIGATE, REDUCE_STORM, PEEK_STORM, TAKE_WATER, GIVE_WATER)


def _candidates(s, rng: random.Random) -> list[tuple]:
    """The legal actions and random actions of every kind an own action has (and some of the wrong length)."""
    out = list(s.legal_actions())
    n = s.n
    for _ in range(40):
        k = rng.choice(_KINDS)
        p = s.current if rng.random() < 0.8 else rng.randrange(n)
        c = rng.randrange(N_CELLS)
        who = rng.choice([NOBODY, rng.randrange(n)])
        out += [(k, p), (k, p, rng.randrange(-1, 5)), (k, p, c), (k, p, c, who), (k, p, rng.randrange(n), c, who)]
    return out


def test_is_own_action_answers_as_the_list_does():
    hits = 0
    for g in range(16):
        s = new_game(varied_setup(g), 900 + g)
        rng = random.Random(g)
        chooser = eager if g % 2 else uniform
        while s.outcome is None:
            own = set(s.own_actions())
            for a in _candidates(s, rng):
                assert s.is_own_action(a) == (a in own), a
                hits += a in own
            s.apply(chooser(s, s.legal_actions(), rng))
    assert hits > 3000
