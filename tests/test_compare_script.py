"""benchmarks/compare.py: a paired comparison runs for either game, and a difficulty the game does not have is a
clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _compare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "compare.py", *args], cwd=BENCH, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_both_games_compare_two_players_on_the_same_seeds():
    for game, level in (("island", "normal"), ("desert", "novice")):
        r = _compare("--game", game, "--a", "random", "--b", "heuristic", "--difficulty", level, "--games", "2",
                     "--tuning", "--seed", "5000")  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert "A random : " in r.stdout and "B heuristic : " in r.stdout
        assert "seeds 5000-5001" in r.stdout


def test_a_difficulty_the_game_lacks_is_refused():
    r = _compare("--game", "desert", "--difficulty", "9", "--games", "1", "--tuning")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "start mark 1-4, got '9'" in r.stderr
