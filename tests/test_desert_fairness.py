"""Hidden information stays hidden in the Desert (rule 8; issue 11 item 2).

Nothing hidden is stored in a state: an unexcavated tile nobody has seen is only "hidden" (its underside is
drawn when it is excavated or looked at), and the decks are multisets. What is still to come lives in the
generator ``state.rng`` alone. So two states that differ only in their generator must look the same to every
policy and get the same decision; the position format must hold the whole state; and ``play_game`` must never
let a policy reach the generator.
"""

from __future__ import annotations

import ast
import random
import sys
from functools import partial
from pathlib import Path

import pytest
from desert_invariants import eager, varied_setup
from desert_positions import state
from fairness_check import Deal, decisions, fairness_problems, fresh_processes, play, play_with_a_registry

from fi_cli.common.play import choose
from fi_cli.desert import engine
from fi_cli.desert.actions import END_ACTIONS, parse_action
from fi_cli.desert.engine import ACTIONS, ORDER, PEEK, PHASES, STORM
from fi_cli.desert.game import GameSetup, new_game
from fi_cli.desert.play import play_game
from fi_cli.desert.policies import is_fair, make_policy, policy_names
from fi_cli.desert.position import from_dict, to_dict
from fi_cli.desert.rules import Rules


def _decision_states():
    """A few decision points of each kind, from games of the eager test player."""
    wanted = {ACTIONS: 3, STORM: 2, PEEK: 1, ORDER: 1}
    found = []
    for g in range(300):
        s = new_game(varied_setup(g), g)
        rng = random.Random(g)
        while s.outcome is None and any(wanted.values()):
            legal = s.legal_actions()
            if wanted.get(s.phase) and len(legal) > 1 and s.turn > 1 + g % 4:
                wanted[s.phase] -= 1
                found.append(s.copy())
            s.apply(eager(s, legal, rng))
        if not any(wanted.values()):
            break
    assert not any(wanted.values()), f"no decision found for {[PHASES[p] for p, n in wanted.items() if n]}"
    return found


STATES = _decision_states()
# a decision cut off by the clock would depend on the machine's speed, not on the position
SMALL = {"search": {"samples": 3, "first": 1, "depth": 3, "time_per_decision": 1e6}}


@pytest.mark.parametrize("name", [n for n in policy_names() if is_fair(n)])  # the oracle is unfair on purpose
def test_states_that_differ_only_in_what_is_hidden_get_the_same_view_and_decision(name):
    for i, s in enumerate(STATES):
        a, b = s.copy(random.Random(1)), s.copy(random.Random(2))
        assert [a.rng.random() for _ in range(3)] != [b.rng.random() for _ in range(3)]  # different futures
        view = to_dict(a)
        assert view == to_dict(b)
        pa, pb = make_policy(name, SMALL.get(name)), make_policy(name, SMALL.get(name))
        pa.reset(100 + i)
        pb.reset(100 + i)
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        rng_a = a.rng
        choice = choose(pa, a, legal)
        assert choice == choose(pb, b, b.legal_actions()), f"{name} decides differently in {PHASES[s.phase]}"
        assert choice in legal
        assert to_dict(a) == view and a.rng is rng_a  # the policy left the position as it found it


def test_the_future_is_in_the_generator_not_in_the_state():
    # one position excavated with different generators: different undersides, so the state held none
    s = state([("water_carrier", "r1c1"), ("climber", "r3c3")])
    kinds = set()
    for seed in range(30):
        t = s.copy(random.Random(seed))
        t.apply_checked(parse_action("excavate(p0)"))
        kinds.add(t.kind[t.pos[0]])
    assert len(kinds) > 3


def _slots() -> tuple[str, ...]:
    """GameState's slots, read from its source (compiled, the class lists none)."""
    tree = ast.parse(Path(engine.__file__).with_name("engine.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameState")
    slots = next(n.value for n in cls.body if isinstance(n, ast.Assign) and n.targets[0].id == "__slots__")
    return ast.literal_eval(slots)


def test_the_position_holds_the_whole_state():
    # every slot of a state but the generator and the recorder is written: nothing else is kept
    assert len(_slots()) > 30
    for s in STATES:
        t = from_dict(to_dict(s))
        for slot in _slots():
            if slot not in ("rng", "stats"):
                assert getattr(t, slot) == getattr(s, slot), slot


def test_the_public_view_holds_every_field_of_the_state():
    # the view asked again in a fresh process (fairness_check) rebuilds the state from these fields alone
    from fi_cli.desert.view import FIELDS

    assert set(FIELDS) == set(_slots()) - {"rng", "stats", "rules", "comp"}


class _Spy:
    name = "spy"

    def __init__(self) -> None:
        self.seen: list = []

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, legal):
        self.seen.append(state.rng)
        return legal[int(self.rng.random() * len(legal))]


def test_play_game_hides_the_generator_from_the_policy():
    spy = _Spy()
    rec = play_game(GameSetup(players=3), spy, seed=5)
    assert len(spy.seen) > 10 and set(spy.seen) == {None}
    rec2 = play_game(GameSetup(players=3), _Spy(), seed=5)  # and the game replays identically
    assert [r.storm_cards for r in rec.turn_rows] == [r.storm_cards for r in rec2.turn_rows]


def test_a_copy_never_carries_the_generator():
    s = new_game(GameSetup(), 3)
    assert s.rng is not None and s.copy().rng is None
    assert "rng" not in str(to_dict(s))


# --- whole games: every decision asked again in a fresh process with another future (tests/fairness_check.py) ---
DEALS = [Deal("desert", GameSetup(players=4, start_level=1), 1), Deal("desert", GameSetup(players=2, start_level=2), 2),
         Deal("desert", GameSetup(players=5, start_level=1, rules=Rules(meteorologist_peek_return="top_any_order")),
              3)]


@pytest.fixture(scope="module")
def fresh():
    with fresh_processes(1) as pool:
        yield pool


@pytest.mark.parametrize("name", [n for n in policy_names() if is_fair(n)])  # the oracle is unfair on purpose
def test_every_decision_of_whole_games_is_the_same_in_a_fresh_process_with_another_future(fresh, name):
    problems, witnesses = fairness_problems(fresh, "desert", partial(make_policy, name, SMALL.get(name)), play, DEALS)
    assert decisions(witnesses) > 150
    assert not problems, "\n".join(problems[:10])


class PeeksAtTheGenerator:
    """A planted cheat: the heuristic, but it looks for a generator in the globals of its callers' functions (where
    ``choose`` kept it before issue 49), previews the next draw and lets it decide whether to end the turn's
    actions now."""

    name = "leak"

    def __init__(self) -> None:
        self.inner, self.used = make_policy("heuristic"), 0

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def choose(self, state, legal):
        fair = self.inner.choose(state, legal)
        stop = (END_ACTIONS, state.current)
        frame, rng = sys._getframe(1), None
        while frame is not None and rng is None:
            registries = [v for v in frame.f_globals.values() if isinstance(v, dict)]
            rng = next((r for d in registries for r in d.values() if type(r) is random.Random), None)
            frame = frame.f_back
        if rng is None or state.phase != ACTIONS or stop not in legal:
            return fair
        self.used += 1
        preview = random.Random()
        preview.setstate(rng.getstate())
        return stop if preview.random() < 0.3 else fair


def test_a_policy_that_reads_the_hidden_future_finds_nothing_in_play_and_is_caught_where_it_could():
    with fresh_processes(1) as pool:
        problems, witnesses = fairness_problems(pool, "desert", PeeksAtTheGenerator, play, DEALS[:1])
        assert not problems and witnesses[0].inner.used == 0
        problems, witnesses = fairness_problems(pool, "desert", PeeksAtTheGenerator, play_with_a_registry, DEALS[:1])
    assert witnesses[0].inner.used > 5 and len(problems) > 5
