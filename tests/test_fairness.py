"""Fair play (rules 3 and 9; issues 10 and 49): a policy decides from what real players can see.

What is hidden in a game: what its generator will draw (the order of the draw piles), how the engine happens to
store the cards of a flood-pile segment (a set of cards in unknown order), and the game's seed, from which the
generator can be rebuilt. ``fairness_check`` plays real games of every policy and asks every decision again **in a
fresh process**, from the public view, with another hidden future: the decision must be the same.

Four cheats are planted (``planted_cheats``), each the heuristic plus one route to what is hidden: a caller's
``seed`` (rebuild the game), a caller's real state (simulate the future), a generator reachable through a
function's ``__globals__``, a segment's storage order. In play the first three routes are shut: the cheats find
nothing. Played by a loop that leaves its route open (as fi's did before issue 49), each cheat is caught.
"""

from __future__ import annotations

import json
import random
from functools import partial

import pytest
from click.testing import CliRunner
from fairness_check import Deal, decisions, fairness_problems, fresh_processes, play, play_with_a_registry
from planted_cheats import ReadsACallersSeed, ReadsGlobals, ReadsTheStorageOrder, SimulatesACallersState

from fi_cli.cli import main
from fi_cli.common import play as common_play
from fi_cli.common.play import LegalActions, play_turns
from fi_cli.island.actions import action_text
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import choose
from fi_cli.island.policies import is_fair, make_policy, policy_names
from fi_cli.island.position import to_dict
from fi_cli.island.rules import Rules
from fi_cli.seeding import policy_seed
from fi_cli.sim.config import load_study
from fi_cli.sim.runner import run_study
from fi_cli.sim.seeds import game_seed

# Short games on a few set-ups: the turn limit ends a long game early (a loss by turn_limit).
SETUPS = [GameSetup(get_layout("forbidden_island"), start_level=2, players=4, rules=Rules(turn_limit=12)),
          GameSetup(get_layout("skull_island"), start_level=1, players=2, rules=Rules(turn_limit=16)),
          GameSetup(get_layout("forbidden_island"), start_level=3, players=3, rules=Rules(turn_limit=12))]
SMALL = {  # a decision cut off by the clock would depend on the machine's speed, not on the position
    "planner": {"samples": 2, "depth": 1, "candidates": 2, "screen": 6, "time_per_decision": 1e6},
    "search": {"samples": 2, "first": 1, "depth": 1, "candidates": 3, "screen": 6, "time_per_decision": 1e6},
}


def deals(setups, seeds) -> list[Deal]:
    return [Deal("island", setup, seed) for setup in setups for seed in seeds]


@pytest.fixture(scope="module")
def fresh():
    with fresh_processes(2) as pool:
        yield pool


GAMES = {"random": deals(SETUPS, (1, 2, 3)), "planner": deals(SETUPS[:2], (2,)), "search": deals(SETUPS, (2,))}


@pytest.mark.parametrize("name", [n for n in policy_names() if is_fair(n)])  # the oracle is unfair on purpose
def test_every_policy_decides_the_same_in_a_fresh_process_with_another_future(fresh, name):
    problems, witnesses = fairness_problems(fresh, "island", partial(make_policy, name, SMALL.get(name)), play,
                                            GAMES.get(name, deals(SETUPS, (1, 2))))  # fmt: skip
    assert decisions(witnesses) > 150
    assert not problems, "\n".join(problems[:10])


# --- play loops that leave a route open, as fi's did before issue 49 --------------------------------------------

def play_keeping_the_seed(witness, deal: Deal) -> None:
    """play_game as it was: the game's seed a local variable of a frame above the deciding policy."""
    seed = deal.seed
    s = new_game(deal.setup, seed)
    witness.reset(policy_seed(seed))
    for _ in play_turns(s, witness, action_text):
        pass


def play_keeping_the_real_state(witness, deal: Deal) -> None:
    """A loop that hands the policy a copy and keeps the real state, generator and all, in its own frame."""
    s = new_game(deal.setup, deal.seed)
    witness.reset(policy_seed(deal.seed))
    while s.outcome is None:
        view = s.copy()
        s.apply(witness.choose(view, LegalActions(view)))


LEAKS = [(ReadsACallersSeed, play_keeping_the_seed), (SimulatesACallersState, play_keeping_the_real_state),
         (ReadsGlobals, play_with_a_registry)]
# Seeds no one would guess: a cheat that tries small numbers as seeds against the first position would find a
# seed of 1 or 2 wherever it tried them (that is guessing, not a route: isolation cannot stop it, see the README)
CHEAT_SEEDS = (918_273_645, 918_273_646, 918_273_647)


@pytest.mark.parametrize("cheat, leaky", LEAKS, ids=[c.__name__ for c, _ in LEAKS])
def test_a_planted_cheat_finds_nothing_in_play_and_is_caught_where_its_route_is_open(fresh, cheat, leaky):
    setup = SETUPS[1]
    problems, witnesses = fairness_problems(fresh, "island", partial(cheat, setup), play,
                                            deals([setup], CHEAT_SEEDS[:2]))  # fmt: skip
    assert sum(w.inner.used for w in witnesses) == 0 and not problems, problems[:3]
    problems, witnesses = fairness_problems(fresh, "island", partial(cheat, setup), leaky,
                                            deals([setup], CHEAT_SEEDS))  # fmt: skip
    assert sum(w.inner.used for w in witnesses) > 10  # the route was open: the cheat read the future ...
    assert problems, "the fairness check missed a cheat"  # ... and the check caught it


def test_catches_a_policy_reading_a_segments_storage_order(fresh):
    problems, witnesses = fairness_problems(fresh, "island", partial(ReadsTheStorageOrder, SETUPS[0]), play,
                                            deals(SETUPS[:1], (1, 2)))  # fmt: skip
    assert sum(w.inner.used for w in witnesses) > 10
    assert any("turn" in p for p in problems), problems[:3]


def _watched(report, run) -> set[str]:
    """What FrameWatch found above it while ``run()`` played (it writes '-' at a decision where it found nothing)."""
    report.write_text("")
    run()
    lines = report.read_text().splitlines()
    assert len(lines) >= 3  # it watched decisions (a line or more each)
    return set(lines) - {"-"}


WATCHED = Deal("island", SETUPS[0], 918_273_645)  # a global: the test's own frames must not hold its seed either


def test_no_frame_above_a_deciding_policy_holds_the_seed_the_generator_or_the_real_state(tmp_path):
    report = tmp_path / "watch.txt"
    watch = {"report": str(report), "isolated": False, "seeds": WATCHED.seed}
    # play_game, as the fairness tests and every benchmark call it
    assert not _watched(report, lambda: play(make_policy("planted_cheats:FrameWatch", watch), WATCHED))
    # a study, played in this process by the runner
    study = tmp_path / "s.yaml"
    study.write_text("name: s\ngames: 2\nseed: 5\ngame: {players: 4}\npolicy: {import: planted_cheats:FrameWatch, "
                     f"isolated: false, report: {report}, seeds: {[game_seed(5, 'base', g) for g in (0, 1)]}}}\n")
    assert not _watched(report, lambda: run_study(load_study(study), tmp_path / "run", workers=1, progress=False))
    # fi play, from the command line
    argv = ["play", "--seed", str(WATCHED.seed), "--quiet", "--policy", "planted_cheats:FrameWatch", "--param",
            "isolated=false", "--param", f"report={report}", "--param", f"seeds={WATCHED.seed}"]
    assert not _watched(report, lambda: CliRunner().invoke(main, argv, catch_exceptions=False))
    # the check sees them where they are: play_game as it was
    found = _watched(report, lambda: play_keeping_the_seed(make_policy("planted_cheats:FrameWatch", watch), WATCHED))
    assert found == {"play_keeping_the_seed() seed"}, found


def _spied(isolated: bool, report, seed: int) -> tuple[list[dict], list[list[float]], list[list[float]]]:
    """The test's own loop (it holds the seed and the game, as a runner does) with the Spy deciding: what the spy
    found at each decision, the game's next draws then, and the spy's own."""
    s = new_game(SETUPS[0], seed)
    spy = make_policy("planted_cheats:Spy", {"report": str(report), "isolated": isolated})
    spy.reset(policy_seed(seed))
    own = random.Random(policy_seed(seed))
    games, owns = [], []
    while s.outcome is None and len(games) < 4:
        twin, mine = random.Random(), random.Random()
        twin.setstate(s.rng.getstate())
        mine.setstate(own.getstate())
        games.append([round(twin.random(), 12) for _ in range(4)])
        owns.append([round(mine.random(), 12) for _ in range(4)])
        s.apply(choose(spy, s, LegalActions(s)))
        own.random()
    found = [json.loads(line) for line in report.read_text().splitlines()]
    report.unlink()
    return found, games, owns


def test_an_isolated_player_finds_no_generator_and_no_seed_anywhere_in_its_process(tmp_path):
    seed = 7_000_000_123
    found, games, owns = _spied(True, tmp_path / "spy.jsonl", seed)
    assert len(found) == 4 and all(f["objects"] > 1000 and f["frames"] >= 2 for f in found)  # it looked ...
    assert all(own in f["randoms"] for own, f in zip(owns, found, strict=True))  # ... it finds a generator ...
    for future, f in zip(games, found, strict=True):  # ... but not the game's, nor its seed
        assert future not in f["randoms"] and seed not in f["numbers"]
    # The same spy in the game's process finds both: why a user's player runs in a process of its own.
    found, games, _ = _spied(False, tmp_path / "spy.jsonl", seed)
    assert all(future in f["randoms"] and seed in f["numbers"] for future, f in zip(games, found, strict=True))


def test_choose_gives_the_generator_back_even_if_the_policy_fails():
    class Broken:
        name = "broken"

        def choose(self, state, legal):
            raise RuntimeError("boom")

    s = new_game(SETUPS[0], 3)
    rng = s.rng
    with pytest.raises(RuntimeError, match="boom"):
        choose(Broken(), s, s.legal_actions())
    assert s.rng is rng
    registries = [k for k, v in vars(common_play).items() if isinstance(v, dict | random.Random)]
    assert set(registries) <= {"__builtins__"}  # (compiled with mypyc, the module has no __builtins__ dict)


def test_a_copy_never_carries_the_generator():
    s = new_game(SETUPS[0], 3)
    assert s.rng is not None and s.copy().rng is None
    assert "rng" not in str(to_dict(s))


def test_the_policy_seed_is_not_the_game_seed_and_rebuilds_nothing():
    for seed in range(50):
        x = policy_seed(seed)
        assert x != seed and to_dict(new_game(SETUPS[0], x)) != to_dict(new_game(SETUPS[0], seed))
        assert random.Random(x).random() != random.Random(seed).random()
