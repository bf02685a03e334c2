"""benchmarks/losses.py: the loss table by progress for either game, the Desert's open endings, and a clear error
for a difficulty the game does not have."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))
import losses  # noqa: E402


def test_desert_summary_counts_each_loss_where_it_belongs(capsys):
    games = [
        losses.Game("win", 4, 3, True),
        losses.Game("thirst", 4, 1, True),  # lost with the parts in hand and the Launch Pad known
        losses.Game("buried", 3, None, True),  # every part found, one not yet picked up
        losses.Game("buried", 3, None, False),
        losses.Game("thirst", 1, None, False),
    ]
    s = losses.report("desert", games)
    assert s["wins"] == 0.2
    assert s["lost after all four parts were collected"] == 0.2
    assert s["lost with three parts collected"] == 0.4
    assert s["a pawn died of thirst"] == 0.4
    assert s["lost with every part found and the Launch Pad known"] == 0.4
    out = capsys.readouterr().out
    assert "| buried | 0.0% | 0.0% | 0.0% | 40.0% | 0.0% | 40.0% |" in out
    assert "2 games collected all four parts; 1 of them were lost after that" in out


def test_island_summary_keeps_its_treasures():
    games = [losses.Game("win", 4, 2, True), losses.Game("water_level", 4, 0, True)]
    s = losses.report("island", games)
    assert s == {
        "wins": 0.5,
        "lost after all four treasures were captured": 0.5,
        "lost with three treasures captured": 0.0,
        "water reached the skull": 0.5,
    }


def test_a_difficulty_of_the_other_game_is_refused():
    r = subprocess.run([sys.executable, "losses.py", "--game", "desert", "--difficulty", "7", "--games", "1"],
                       cwd=BENCH, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "start mark 1-4, got '7'" in r.stderr
