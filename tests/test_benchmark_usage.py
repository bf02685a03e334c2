"""The benchmark scripts take a policy's parameters, and refuse a bad policy name or parameter with one usage line
(exit 2) before any game is played, instead of a traceback from a worker process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

BAD = [
    (["strength.py", "--param", "nope=1", "--games", "2"], "policy 'heuristic' has no parameter 'nope'"),
    (["losses.py", "--tuning", "--param", "nope=1", "--games", "2"], "policy 'heuristic' has no parameter 'nope'"),
    (["compare.py", "--tuning", "--b", "nobody", "--games", "2"], "unknown policy 'nobody'"),
    (["compare.py", "--tuning", "--game", "desert", "--difficulty", "novice", "--a-param", "w_plain=2", "--games", "2"],
     "policy 'heuristic' has no parameter 'w_plain'"),
    (["tune.py", "--games", "2", '{"nope": 1}'], "policy 'heuristic' has no parameter 'nope'"),
    (["tune.py", "--games", "2", "[1]"], "a setting is not a JSON object: [1]"),
    (["speed.py", "--policy", "random", "--param", "depth=2", "--games", "2"],
     "policy 'random' has no parameter 'depth'"),
    (["speed.py", "--game", "desert", "--policy", "nobody", "--games", "2"], "unknown policy 'nobody'"),
    (["search_picks.py", "--param", "nope=1", "--games", "2"], "policy 'search' has no parameter 'nope'"),
    (["island_limits.py", "--policy", "nobody", "--games", "2"], "unknown policy 'nobody'"),
    (["desert_limits.py", "--policy", "nobody", "--games", "2"], "unknown policy 'nobody'"),
    (["island_limits.py", "--games", "0"], "argument --games: at least 1 game, got 0"),
    (["search_picks.py", "--games", "0"], "argument --games: at least 1 game, got 0"),
    (["losses.py", "--tuning", "--games", "0"], "argument --games: at least 1 game, got 0"),
    (["strength.py", "--games", "ten"], "argument --games: a whole number of games, got 'ten'"),
    (["speed.py", "--game", "desert", "--games", "0"], "argument --games: at least 1 game, got 0"),
    (["speed_against.py", "no-such-commit"], "no commit 'no-such-commit' in"),
    (["speed_against.py", "HEAD", "--rounds", "0"], "argument --rounds: a whole number of rounds, 1 or more, got '0'"),
    (["speed_against.py", "HEAD", "--games", "0"], "argument --games: at least 1 game, got 0"),
    (["speed.py", "--min-seconds", "-1", "--games", "2"],
     "argument --min-seconds: a number of seconds, 0 or more, got '-1'"),
]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=BENCH, capture_output=True, text=True, timeout=120)


def test_speed_gives_a_parameter_to_the_policy_timed():
    r = _run("speed.py", "--policy", "heuristic", "--games", "2", "--param", "w_give=3", "--min-seconds", "0")
    assert r.returncode == 0, r.stderr
    assert "2 games of heuristic {'w_give': 3} play (" in r.stdout


def test_speed_plays_the_games_again_until_its_clock_has_run_long_enough():
    r = _run("speed.py", "--game", "desert", "--policy", "random", "--games", "3", "--min-seconds", "0.3")
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if "games of random play" in x)
    played, rounds = int(line.split()[0]), int(line.split("3 deals, ")[1].split()[0])
    assert rounds > 1 and played == 3 * rounds
    seconds = float(line.split(" in ")[1].split(" s:")[0])
    assert seconds >= 0.3


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a[:2]) for a, _ in BAD])
def test_a_bad_policy_or_parameter_is_a_usage_error(args, message):
    r = _run(*args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert message in r.stderr
    assert "wins" not in r.stdout and "games of" not in r.stdout  # nothing was played


def test_search_picks_reads_the_turns_of_a_few_games():
    r = _run("search_picks.py", "--games", "2", "--seed", "2154000", "--param", "samples=2", "--param", "depth=1")
    assert r.returncode == 0, r.stderr
    assert "4 players, normal, 2 games each, seeds 2154000-2154001" in r.stdout
    starts = int(r.stdout.split("turn starts ")[1].split(",")[0])
    assert starts > 10  # two games of 4 players last more than ten turns
    for reading in ("by treasures captured:", "by water level:", "by role:", "by Helicopter Lifts in hand:"):
        assert reading in r.stdout
    # every turn start is counted once under each reading
    block = r.stdout.split("by treasures captured:")[1].split("by water level:")[0]
    assert sum(int(line.split(": ")[1].split(" turns")[0]) for line in block.strip().splitlines()) == starts


def test_search_picks_refuses_benchmark_seeds():
    r = _run("search_picks.py", "--games", "2", "--seed", "1000000")
    assert r.returncode != 0
    assert "overlap the benchmark seeds" in r.stderr
    assert "turn starts" not in r.stdout


def test_isolation_times_the_random_player_in_both_processes_on_the_same_games():
    r = _run("isolation.py", "--games", "3", "--game", "desert")
    assert r.returncode == 0, r.stderr
    assert "in-process: 3 games in" in r.stdout and "isolated: 3 games in" in r.stdout
    assert "of the speed (the same games)" in r.stdout


def test_timed_games_plays_the_deals_asked_and_prints_one_json_line():
    """The harness speed_against.py times every install with: the deals asked, played again until the clock has
    run long enough (here once), and the player turns of those games."""
    r = _run("timed_games.py", '{"game": "desert", "policy": "random", "games": 3, "min_seconds": 0}')
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip())
    assert out["games"] == 3 and out["seconds"] > 0 and out["decisions"] > out["turns"] >= 3


@pytest.mark.parametrize(("options", "message"), [
    ('{"game": "desert", "policy": "heuristic", "games": 1, "params": {"nope": 1}, "check": 1}',
     "policy 'heuristic' has no parameter 'nope'"),
    ('{"game": "desert", "policy": "random", "games": 1, "players": 9, "check": 1}', "players must be 2 to 5, got 9"),
])  # fmt: skip
def test_timed_games_refuses_a_bad_set_up_or_parameter_with_its_message_alone(options, message):
    r = _run("timed_games.py", options)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert message in r.stderr and r.stdout == ""
