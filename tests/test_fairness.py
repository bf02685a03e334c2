"""Fair play (rules 3 and 9; issue 10 item 5): a policy decides from what real players can see.

What is hidden in a game: the order of the draw piles, which lives in the game's generator; how the engine
happens to store the cards of a flood-pile segment (a set of cards in unknown order); and the game's seed,
from which the generator can be rebuilt. The whole-game test below plays real games of every registered
policy and, at every decision, asks a copy of the policy (its memory and its own randomness included) again
on copies of the position whose hidden parts differ, and requires the same decision:

- another generator state (another deck order),
- each flood-pile segment stored in another order,
- a different game seed for anything that could see one: the only seed a policy is handed is its own
  (``policy_seed``), and it must not rebuild the game.

It also checks that while a policy decides, the game's generator is in no frame on the call stack and not
in what the policy is handed. Three leaks are planted in the test itself, each a real cheat built on the
heuristic, and the test is shown to catch each one wherever it could work.
"""

from __future__ import annotations

import copy
import random
import sys

import pytest

from fi_cli.island import play
from fi_cli.island.actions import DRAW_FLOOD, END_ACTIONS, SANDBAGS_PLAY, SHORE_UP
from fi_cli.island.engine import OVER, GameState, LegalActions, Recorder
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import choose, play_game
from fi_cli.island.policies import is_fair, make_policy, policy_names
from fi_cli.island.policies.heuristic import HeuristicPolicy
from fi_cli.island.position import to_dict
from fi_cli.island.rules import Rules
from fi_cli.seeding import policy_seed

# Short games on a few set-ups: the turn limit ends a long game early (a loss by turn_limit).
SETUPS = [GameSetup(get_layout("forbidden_island"), start_level=2, players=4, rules=Rules(turn_limit=12)),
          GameSetup(get_layout("skull_island"), start_level=1, players=2, rules=Rules(turn_limit=16)),
          GameSetup(get_layout("forbidden_island"), start_level=3, players=3, rules=Rules(turn_limit=12))]
SMALL = {  # a decision cut off by the clock would depend on the machine's speed, not on the position
    "planner": {"samples": 2, "depth": 1, "candidates": 2, "screen": 6, "time_per_decision": 1e6},
    "search": {"samples": 2, "first": 1, "depth": 1, "candidates": 3, "screen": 6, "time_per_decision": 1e6},
}


def _in_reach(state: GameState, legal) -> list[str]:
    """Where a policy could find a live generator: its callers' local variables, and what it is handed."""
    found = []
    frame = sys._getframe(2)  # the caller of the policy's choose
    while frame is not None:
        for name, value in frame.f_locals.items():
            if isinstance(value, random.Random) or (isinstance(value, GameState) and value.rng is not None):
                found.append(f"{frame.f_code.co_name}() local {name!r}")
        frame = frame.f_back
    if state.rng is not None or getattr(legal, "_state", state).rng is not None:
        found.append("the state handed to the policy")
    return found


class Witness:
    """Plays a policy in a real game; at each decision asks copies of it on positions with other hidden parts."""

    name = "witness"

    def __init__(self, inner, setup: GameSetup, game_seed: int, ask=choose) -> None:
        self.inner, self.setup, self.game_seed, self.ask = inner, setup, game_seed, ask
        self.problems: list[str] = []
        self.decisions = 0

    def reset(self, seed: int) -> None:
        # the only seed a policy sees: a different game seed must not be one it could rebuild the game from
        rebuilt = to_dict(new_game(self.setup, seed)) == to_dict(new_game(self.setup, self.game_seed))
        if seed == self.game_seed or rebuilt:
            self.problems.append(f"the policy was handed a seed ({seed}) that rebuilds the game")
        self.inner.reset(seed)

    def choose(self, state: GameState, legal):
        for where in _in_reach(state, legal):
            self.problems.append(f"decision {self.decisions}: the generator is in reach: {where}")
        board = state.board  # shared by every copy of a game: not copied with the policy (which may refer to it)
        snapshot = copy.deepcopy(self.inner, {id(board): board})
        real = self.inner.choose(state, legal)
        for what, variant in self._variants(state):
            again = self.ask(copy.deepcopy(snapshot, {id(board): board}), variant, LegalActions(variant))
            if again != real:
                self.problems.append(f"decision {self.decisions} (turn {state.turn}, {what}): {again} instead of "
                                     f"{real}")
        self.decisions += 1
        return real

    def _variants(self, state: GameState):
        k = self.game_seed * 1000 + self.decisions  # reproducible; no generator kept in this frame
        yield "another deck order", state.copy(random.Random(k))
        shuffled = state.copy(random.Random(k + 1))
        for seg in shuffled.fdeck:
            stored = seg[:]
            random.Random(k + 2).shuffle(seg)
            if seg == stored:
                seg.reverse()
        yield "flood segments stored in another order", shuffled


def fairness_problems(make, setups=SETUPS, seeds=(1, 2), ask=choose) -> tuple[list[str], int]:
    """Play each set-up with each seed through play_game; the problems found and the decisions checked."""
    problems, decisions = [], 0
    for setup in setups:
        for seed in seeds:
            witness = Witness(make(setup), setup, seed, ask)
            play_game(setup, witness, seed)
            problems += [f"{setup.layout.id} seed {seed}: {p}" for p in witness.problems]
            decisions += witness.decisions
    return problems, decisions


# the rest: SETUPS x (1, 2)
GAMES = {"random": (SETUPS, (1, 2, 3)), "planner": (SETUPS[:2], (2,)), "search": (SETUPS, (2,))}
LEAK_GAMES = (SETUPS, (1, 2))  # the heuristic's games of the test above: it plays them fair
ONE_GAME = (SETUPS[1:2], (1,))


@pytest.mark.parametrize("name", [n for n in policy_names() if is_fair(n)])  # the oracle is unfair on purpose
def test_every_policy_decides_the_same_whatever_is_hidden(name):
    games = GAMES.get(name, (SETUPS, (1, 2)))
    problems, decisions = fairness_problems(lambda setup: make_policy(name, SMALL.get(name)), *games)
    assert decisions > 150
    assert not problems, "\n".join(problems[:10])


# --- three leaks, planted on the heuristic ------------------------------------------------------------------

def _clone(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def _flood_ahead(state: GameState, rng: random.Random) -> list[int]:
    """The tiles the flood draws of this turn and the next would hit, in order, if `rng` were the game's."""
    future = state.copy(_clone(rng))
    future.stats = Recorder()
    while future.phase != OVER and future.turn <= state.turn + 1:
        legal = future.legal_actions()
        ends = [a for a in legal if a[0] in (END_ACTIONS, DRAW_FLOOD)]
        future.apply(ends[0] if ends else legal[0])
    return future.stats.flood_draws


def _cheat(state: GameState, legal, doomed: list[int], fair) -> tuple:
    """Save the tile the cheat 'knows' is drawn first, if it can; else play fair."""
    for t in doomed:
        for a in legal:
            if a[0] in (SHORE_UP, SANDBAGS_PLAY) and a[2] == t:
                return a
    return fair


class _Leak(HeuristicPolicy):
    """The heuristic with a cheat added; ``used`` counts the decisions where the cheat had something to use."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        self.setup, self.used = setup, 0


class ReplaysTheSeed(_Leak):
    """(a) Takes the seed it is handed for the game's: rebuilds the game from it and replays its own moves;
    if that gives the very position it is in, it holds the game's generator and knows the flood draws."""

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self.seed, self.moves, self.same_start = seed, [], None

    def choose(self, state, legal):
        fair = super().choose(state, legal)
        if self.same_start is None:  # the first decision: does the seed set up this very game?
            self.same_start = to_dict(new_game(self.setup, self.seed)) == to_dict(state)
        if self.same_start:
            game = new_game(self.setup, self.seed)
            for a in self.moves:
                game.apply(a)
            if to_dict(game) == to_dict(state):
                self.used += 1
                fair = _cheat(state, legal, _flood_ahead(state, game.rng), fair)
        self.moves.append(fair)
        return fair


class ReadsTheCallersFrames(_Leak):
    """(b) Looks for a generator in its callers' local variables and reads the flood draws from it."""

    def choose(self, state, legal):
        fair = super().choose(state, legal)
        frame = sys._getframe(1)
        while frame is not None:
            rng = next((v for v in frame.f_locals.values() if isinstance(v, random.Random)), None)
            if rng is not None:
                self.used += 1
                return _cheat(state, legal, _flood_ahead(state, rng), fair)
            frame = frame.f_back
        return fair


class ReadsTheStorageOrder(_Leak):
    """(c) Takes the order in which a flood-pile segment happens to be stored for the order of the draws."""

    def choose(self, state, legal):
        drawn_first = state.fdeck[-1][::-1] if state.fdeck else []  # as if the last one stored came first
        self.used += bool(drawn_first)
        return _cheat(state, legal, drawn_first, super().choose(state, legal))


def _planted(leak: type[_Leak]):
    """A policy factory for fairness_problems that keeps the leaks it makes, to count what they used."""
    def make(setup: GameSetup) -> _Leak:
        make.made.append(leak(setup))
        return make.made[-1]

    make.made = []
    return make


def _leaky_choose(policy, s, legal):
    """play.choose as it was: the generator kept in a local variable of the frame that asks the policy."""
    rng = s.rng
    s.rng = None
    try:
        return policy.choose(s, legal)
    finally:
        s.rng = rng


def test_catches_a_policy_replaying_its_seed_as_the_games(monkeypatch):
    # With the seed it is handed (policy_seed), the rebuilt game is another game: the leak has nothing to use.
    leak = _planted(ReplaysTheSeed)
    problems, _ = fairness_problems(leak, *ONE_GAME)
    assert not problems and sum(p.used for p in leak.made) == 0
    # Handed the game's own seed, as play_game once did, it rebuilds the game and knows the draws: caught.
    monkeypatch.setattr(play, "policy_seed", lambda seed: seed)
    leak = _planted(ReplaysTheSeed)
    problems, _ = fairness_problems(leak, *LEAK_GAMES)
    assert sum(p.used for p in leak.made) > 10
    assert any("was handed a seed" in p and "rebuilds the game" in p for p in problems), problems[:3]


def test_catches_a_policy_reading_the_generator_from_its_callers_frames(monkeypatch):
    # The generator is in no frame while a policy decides: the leak finds nothing to read.
    leak = _planted(ReadsTheCallersFrames)
    problems, _ = fairness_problems(leak, *ONE_GAME)
    assert not problems and sum(p.used for p in leak.made) == 0
    # Where the caller keeps it in a local variable (play.choose as it was), the leak reads it and is caught
    # twice: the generator is in reach, and the leak's decisions follow the deck order.
    monkeypatch.setattr(play, "choose", _leaky_choose)
    leak = _planted(ReadsTheCallersFrames)
    problems, _ = fairness_problems(leak, *LEAK_GAMES, ask=_leaky_choose)
    assert sum(p.used for p in leak.made) > 10
    assert any("the generator is in reach: _leaky_choose() local 'rng'" in p for p in problems)
    assert any("another deck order" in p for p in problems), problems[:3]


def test_catches_a_policy_reading_a_segments_storage_order():
    leak = _planted(ReadsTheStorageOrder)
    problems, _ = fairness_problems(leak, *LEAK_GAMES)
    assert sum(p.used for p in leak.made) > 10
    assert any("flood segments stored in another order" in p for p in problems), problems[:3]


def test_choose_restores_the_generator_even_if_the_policy_fails():
    class Broken:
        name = "broken"

        def choose(self, state, legal):
            raise RuntimeError("boom")

    s = new_game(SETUPS[0], 3)
    rng = s.rng
    with pytest.raises(RuntimeError):
        choose(Broken(), s, s.legal_actions())
    assert s.rng is rng and not play._AWAY


def test_a_copy_never_carries_the_generator():
    s = new_game(SETUPS[0], 3)
    assert s.rng is not None and s.copy().rng is None
    assert "rng" not in str(to_dict(s))


def test_the_policy_seed_is_not_the_game_seed_and_rebuilds_nothing():
    for seed in range(50):
        x = policy_seed(seed)
        assert x != seed and to_dict(new_game(SETUPS[0], x)) != to_dict(new_game(SETUPS[0], seed))
        assert random.Random(x).random() != random.Random(seed).random()
