"""Hidden information stays hidden (rules 3 and 9; issue 2 item 3).

The only hidden thing in a state is the order of the draw piles, and that order lives in the generator
``state.rng``. Two states that differ only in their generator must look the same to every policy and get
the same decision; and ``play_game`` must never let a policy reach the generator.
"""

from __future__ import annotations

import random

import pytest
from invariants import eager

from fi_cli.island.engine import ACTIONS, DISCARD_PHASE, FLOOD, PHASES, SWIM_PHASE
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import choose, play_game
from fi_cli.island.policies import make_policy, policy_names
from fi_cli.island.position import to_dict


def _decision_states():
    """A few decision points of each kind, from games of the eager test player."""
    wanted = {ACTIONS: 2, DISCARD_PHASE: 1, FLOOD: 1, SWIM_PHASE: 1}
    found = []
    for seed in range(200):
        s = new_game(GameSetup(get_layout("forbidden_island"), start_level=1 + seed % 3, players=2 + seed % 3), seed)
        rng = random.Random(seed)
        while s.outcome is None and any(wanted.values()):
            legal = s.legal_actions()
            if wanted.get(s.phase) and len(legal) > 1 and s.turn > 1 + seed % 4:
                wanted[s.phase] -= 1
                found.append(s.copy())
            s.apply(eager(s, legal, rng))
        if not any(wanted.values()):
            break
    assert not any(wanted.values()), f"no decision found for {[PHASES[p] for p, n in wanted.items() if n]}"
    return found


STATES = _decision_states()


def _params(name: str) -> dict:
    # a decision cut off by the clock would depend on the machine's speed, not on the position
    allowed = getattr(make_policy(name), "PARAMETERS", {})
    return {"time_per_decision": 1e6} if "time_per_decision" in allowed else {}


@pytest.mark.parametrize("name", policy_names())
def test_states_that_differ_only_in_deck_order_get_the_same_view_and_decision(name):
    for i, s in enumerate(STATES):
        a, b = s.copy(random.Random(1)), s.copy(random.Random(2))
        # the generators really give different futures ...
        assert [a.rng.random() for _ in range(3)] != [b.rng.random() for _ in range(3)]
        # ... but the public view is the same
        view = to_dict(a)
        assert view == to_dict(b)
        pa, pb = make_policy(name, _params(name)), make_policy(name, _params(name))
        pa.reset(100 + i)
        pb.reset(100 + i)
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        rng_a = a.rng
        choice_a = choose(pa, a, legal)
        choice_b = choose(pb, b, b.legal_actions())
        assert choice_a == choice_b, f"{name} decides differently in phase {PHASES[s.phase]}"
        assert choice_a in legal
        # the policy left the position as it found it, generator included
        assert to_dict(a) == view and a.rng is rng_a


class _Spy:
    name = "spy"

    def __init__(self) -> None:
        self.seen: list = []
        self.calls = 0

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, legal):
        self.calls += 1
        self.seen.append(state.rng)
        return legal[int(self.rng.random() * len(legal))]


def test_play_game_hides_the_generator_from_the_policy():
    spy = _Spy()
    rec = play_game(GameSetup(get_layout("forbidden_island"), start_level=1), spy, seed=5)
    assert spy.calls > 10 and set(spy.seen) == {None}
    # and the game still went on drawing from its own generator afterwards: it replays identically
    spy2 = _Spy()
    rec2 = play_game(GameSetup(get_layout("forbidden_island"), start_level=1), spy2, seed=5)
    assert [r.flood_draws for r in rec.turn_rows] == [r.flood_draws for r in rec2.turn_rows]


def test_choose_restores_the_generator_even_if_the_policy_fails():
    class Broken:
        name = "broken"

        def choose(self, state, legal):
            raise RuntimeError("boom")

    s = STATES[0].copy(random.Random(7))
    rng = s.rng
    with pytest.raises(RuntimeError):
        choose(Broken(), s, s.legal_actions())
    assert s.rng is rng


def test_a_copy_never_carries_the_generator():
    s = new_game(GameSetup(get_layout("forbidden_island")), 3)
    assert s.rng is not None and s.copy().rng is None
    assert "rng" not in str(to_dict(s))


@pytest.mark.parametrize("name", policy_names())
def test_order_inside_a_flood_segment_does_not_change_the_decision(name):
    # a segment is a set of cards in unknown order: how the engine happens to store it is not information
    for i, s in enumerate(STATES):
        a = s.copy(random.Random(1))
        b = s.copy(random.Random(1))
        for seg in b.fdeck:
            random.Random(i).shuffle(seg)
            seg.reverse()
        assert to_dict(a) == to_dict(b)
        pa, pb = make_policy(name, _params(name)), make_policy(name, _params(name))
        pa.reset(7 + i)
        pb.reset(7 + i)
        assert choose(pa, a, a.legal_actions()) == choose(pb, b, b.legal_actions()), PHASES[s.phase]
