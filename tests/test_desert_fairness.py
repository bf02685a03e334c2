"""Hidden information stays hidden in the Desert (rule 8; issue 11 item 2).

Nothing hidden is stored in a state: an unexcavated tile nobody has seen is only "hidden" (its underside is
drawn when it is excavated or looked at), and the decks are multisets. What is still to come lives in the
generator ``state.rng`` alone. So two states that differ only in their generator must look the same to every
policy and get the same decision; the position format must hold the whole state; and ``play_game`` must never
let a policy reach the generator.
"""

from __future__ import annotations

import copy
import random

import pytest
from desert_invariants import eager, varied_setup
from desert_positions import state

from fi_cli.common import play as common_play
from fi_cli.common.play import choose
from fi_cli.desert.actions import END_ACTIONS, action_text, parse_action
from fi_cli.desert.engine import ACTIONS, ORDER, PEEK, PHASES, STORM, GameState
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


def test_the_position_holds_the_whole_state():
    # every slot of a state but the generator and the recorder is written: nothing else is kept
    for s in STATES:
        t = from_dict(to_dict(s))
        for slot in GameState.__slots__:
            if slot not in ("rng", "stats"):
                assert getattr(t, slot) == getattr(s, slot), slot


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


# --- whole games: every decision of a real game asked again with another future ------------------------------
class _Witness:
    """Plays a policy in a real game; at each decision asks a copy of it (its memory and its own randomness
    included) on the same position with another generator: other undersides for the unexcavated tiles, another
    order of the storm and gear decks. A fair policy decides the same."""

    name = "witness"

    def __init__(self, inner, game_seed: int) -> None:
        self.inner, self.game_seed = inner, game_seed
        self.problems: list[str] = []
        self.decisions = 0

    def reset(self, seed: int) -> None:
        if seed == self.game_seed:
            self.problems.append("the policy was handed the game's seed")
        self.inner.reset(seed)

    def choose(self, state, legal):
        if state.rng is not None:
            self.problems.append(f"decision {self.decisions}: the generator was handed to the policy")
        snapshot = copy.deepcopy(self.inner)
        real = self.inner.choose(state, legal)
        other = state.copy(random.Random(self.game_seed * 1000 + self.decisions))
        again = choose(snapshot, other, other.legal_actions())
        if again != real:
            self.problems.append(f"decision {self.decisions} (turn {state.turn}, {PHASES[state.phase]}): "
                                 f"{action_text(again)} instead of {action_text(real)}")  # fmt: skip
        self.decisions += 1
        return real


@pytest.mark.parametrize("name", [n for n in policy_names() if is_fair(n)])  # the oracle is unfair on purpose
def test_every_decision_of_whole_games_is_the_same_whatever_is_hidden(name):
    problems, decisions = [], 0
    for setup, seed in [(GameSetup(players=4, start_level=1), 1), (GameSetup(players=2, start_level=2), 2),
                        (GameSetup(players=5, start_level=1, rules=Rules(meteorologist_peek_return="top_any_order")),
                         3)]:  # fmt: skip
        witness = _Witness(make_policy(name, SMALL.get(name)), seed)
        play_game(setup, witness, seed)
        problems += [f"seed {seed}: {p}" for p in witness.problems]
        decisions += witness.decisions
    assert decisions > 150
    assert not problems, "\n".join(problems[:10])


class _PeeksAtTheGenerator:
    """A planted leak: the heuristic, but it finds the generator ``choose`` put aside for the position, previews
    the next draw and lets it decide whether to end the turn's actions now."""

    name = "leak"

    def __init__(self) -> None:
        self.inner = make_policy("heuristic")

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def choose(self, state, legal):
        fair = self.inner.choose(state, legal)
        rng = common_play._AWAY.get(id(state))  # where choose keeps this position's generator meanwhile
        stop = (END_ACTIONS, state.current)
        if rng is None or state.phase != ACTIONS or stop not in legal:
            return fair
        preview = random.Random()
        preview.setstate(rng.getstate())
        return stop if preview.random() < 0.3 else fair


def test_the_whole_game_witness_catches_a_policy_that_reads_the_hidden_future():
    witness = _Witness(_PeeksAtTheGenerator(), 1)
    play_game(GameSetup(players=3, start_level=1), witness, 1)
    assert len(witness.problems) > 5
