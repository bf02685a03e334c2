"""The benchmark scripts take a policy's parameters, and refuse a bad policy name or parameter with one usage line
(exit 2) before any game is played, instead of a traceback from a worker process."""

from __future__ import annotations

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
]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=BENCH, capture_output=True, text=True, timeout=120)


def test_speed_gives_a_parameter_to_the_policy_timed():
    r = _run("speed.py", "--policy", "heuristic", "--games", "2", "--param", "w_give=3")
    assert r.returncode == 0, r.stderr
    assert "2 games of heuristic {'w_give': 3} play" in r.stdout


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a[:2]) for a, _ in BAD])
def test_a_bad_policy_or_parameter_is_a_usage_error(args, message):
    r = _run(*args)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert message in r.stderr
    assert "wins" not in r.stdout and "games of" not in r.stdout  # nothing was played
