"""benchmarks/speed.py: a policy's parameters reach the policy timed, and a bad one is a clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _speed(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "speed.py", *args], cwd=BENCH, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_a_parameter_is_given_to_the_policy_timed():
    r = _speed("--policy", "heuristic", "--games", "2", "--param", "w_give=3")
    assert r.returncode == 0, r.stderr
    assert "2 games of heuristic {'w_give': 3} play" in r.stdout


def test_a_parameter_the_policy_lacks_is_refused_before_timing():
    r = _speed("--policy", "random", "--games", "2", "--param", "depth=2")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "policy 'random' has no parameter 'depth'" in r.stderr
    assert "games of" not in r.stdout


def test_an_unknown_policy_is_refused():
    r = _speed("--game", "desert", "--policy", "nobody", "--games", "2")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "unknown policy 'nobody'" in r.stderr
