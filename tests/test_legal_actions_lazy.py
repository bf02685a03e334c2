"""``LegalActions`` (the list made on first look) and ``own_actions`` agree with ``legal_actions``."""

from __future__ import annotations

import random

from invariants import varied_setup

from fi_cli.island.actions import CAPTURE, END_ACTIONS, HELI_PLAY, LIFT_OFF, SANDBAGS_PLAY
from fi_cli.island.engine import ACTIONS, LegalActions
from fi_cli.island.game import new_game

_SPECIAL = (SANDBAGS_PLAY, HELI_PLAY, LIFT_OFF, END_ACTIONS)


def _states(games: int = 40):
    rng = random.Random(7)
    for g in range(games):
        s = new_game(varied_setup(g), 300 + g)
        while s.outcome is None:
            yield s
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])


def test_the_lazy_list_is_the_legal_list():
    seen = 0
    for s in _states():
        expected = s.legal_actions()
        lazy = LegalActions(s)
        assert len(lazy) == len(expected)
        assert list(lazy) == expected
        assert [lazy[i] for i in range(len(expected))] == expected
        assert lazy[-1] == expected[-1]
        assert all(a in lazy for a in expected)
        assert ("no such action",) not in lazy
        seen += 1
    assert seen > 800


def test_the_list_is_made_only_when_looked_at():
    s = next(_states(1))
    lazy = LegalActions(s)
    assert lazy._list is None
    assert len(lazy) == len(s.legal_actions())
    assert lazy._list is lazy.actions  # made once, then kept


def test_own_actions_are_the_start_of_the_legal_list():
    own_seen = 0
    for s in _states():
        own = s.own_actions()
        legal = s.legal_actions()
        if s.phase == ACTIONS and s.actions_left:
            cut = next(i for i, a in enumerate(legal) if a[0] in _SPECIAL)
            assert own == legal[:cut]
            own_seen += len(own) > 0
        else:
            assert own == []
    assert own_seen > 500


def test_special_and_heli_actions_are_parts_of_the_legal_list():
    from fi_cli.island.engine import SWIM_PHASE

    lifts_seen = 0
    for s in _states():
        legal = s.legal_actions()
        special = s.special_actions()
        assert special == [a for a in legal if a[0] in (SANDBAGS_PLAY, HELI_PLAY, LIFT_OFF)]
        lifts = [a for h in range(s.n) for a in s.heli_actions(h)]
        if s.phase == SWIM_PHASE:
            assert lifts == []  # rescues are the swim phase's own lifts
        else:
            assert lifts == [a for a in legal if a[0] == HELI_PLAY]
            lifts_seen += len(lifts) > 0
    assert lifts_seen > 50


def _candidates(s, rng: random.Random) -> list:
    """Own actions, the whole legal list and a sample of actions of the own kinds that may or may not be legal."""
    from fi_cli.island.actions import CAPTURE, FLY, GIVE, MOVE, NAVIGATE, NO_TILE, SHORE_UP

    out = s.own_actions() + s.legal_actions()
    n = s.n
    for _ in range(60):
        p = rng.randrange(n) if rng.random() < 0.3 else s.current
        t, u = rng.randrange(24), rng.randrange(24)
        kind = rng.randrange(6)
        if kind == 0:
            out.append((MOVE, p, t))
        elif kind == 1:
            out.append((FLY, p, t))
        elif kind == 2:
            out.append((NAVIGATE, p, rng.randrange(n), t))
        elif kind == 3:
            out.append((SHORE_UP, p, t, rng.choice([NO_TILE, u])))
        elif kind == 4:
            out.append((GIVE, p, rng.randrange(n), rng.randrange(6)))
        else:
            out.append((CAPTURE, p, rng.randrange(4)))
    return out


def test_is_own_action_answers_as_the_list_does():
    rng = random.Random(11)
    hits = 0
    for s in _states(25):
        own = set(s.own_actions())
        for a in _candidates(s, rng):
            assert s.is_own_action(a) == (a in own), a
            hits += a in own
        cap = s.capture_now()
        assert [a for a in own if a[0] == CAPTURE] == ([cap] if cap else [])
    assert hits > 5000


def test_is_heli_action_answers_as_the_list_does():
    from fi_cli.island.actions import HELI_PLAY

    rng = random.Random(12)
    hits = 0
    for s in _states(25):
        for h in range(s.n):
            lifts = set(s.heli_actions(h))
            tries = list(lifts)
            tries += [(HELI_PLAY, h, rng.randrange(-1, 1 << s.n + 1), rng.randrange(-1, 25)) for _ in range(30)]
            for a in tries:
                assert s.is_heli_action(a) == (a in lifts), a
            hits += len(lifts)
    assert hits > 3000


def test_discards_and_sandbags_actions_are_parts_of_the_legal_list():
    from fi_cli.island.actions import DISCARD
    from fi_cli.island.engine import DISCARD_PHASE

    discards_seen = sandbags_seen = 0
    for s in _states():
        legal = s.legal_actions()
        discards = s.discards()
        assert discards == [a for a in legal if a[0] == DISCARD]
        if s.phase == DISCARD_PHASE:
            assert legal[: len(discards)] == discards and discards
            discards_seen += 1
        plays = [a for h in range(s.n) for a in s.sandbags_actions(h)]
        assert plays == [a for a in legal if a[0] == SANDBAGS_PLAY]
        sandbags_seen += len(plays) > 0
    assert discards_seen > 20 and sandbags_seen > 50


def test_is_sandbags_action_answers_as_the_list_does():
    rng = random.Random(13)
    hits = 0
    for s in _states(25):
        plays = {a for h in range(s.n) for a in s.sandbags_actions(h)}
        legal = set(s.legal_actions())
        tries = list(plays)
        tries += [(SANDBAGS_PLAY, rng.randrange(-1, s.n + 1), rng.randrange(-1, 25)) for _ in range(30)]
        tries += [(HELI_PLAY, h, 1, t) for h in range(s.n) for t in range(3)]
        for a in tries:
            assert s.is_sandbags_action(a) == (a in plays), a
            assert s.is_sandbags_action(a) == (a in legal and a[0] == SANDBAGS_PLAY), a
        hits += len(plays)
    assert hits > 300
