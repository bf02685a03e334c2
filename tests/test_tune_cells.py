"""benchmarks/tune.py and optimize.py --cells: the cells a comparison or a tuning step plays, and a clear error for
a malformed one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _tune(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "tune.py", *args], cwd=BENCH, capture_output=True, text=True, timeout=120)


def test_cells_plays_only_the_cells_named():
    r = _tune("--game", "desert", "--cells", "2:novice,3:elite", "--games", "2", "--jobs", "1", "{}")
    assert r.returncode == 0, r.stderr
    assert "2 games in each of: 2p novice, 3p elite\n" in r.stdout


def test_a_malformed_cell_is_refused_with_the_form_expected():
    for game, bad in [("desert", "4-novice"), ("desert", "four:novice"), ("desert", "4:hard"), ("desert", "6:novice"),
                      ("island", "5:normal")]:  # fmt: skip
        r = _tune("--game", game, "--cells", bad, "--games", "2", "{}")
        assert r.returncode == 2 and "--cells takes PLAYERS:LEVEL, e.g. 4:novice" in r.stderr and bad in r.stderr
        assert "Traceback" not in r.stderr


def test_optimize_steps_on_the_desert_cells_named_and_tunes_the_desert_weights(tmp_path):
    state = tmp_path / "state.json"
    r = subprocess.run([sys.executable, "optimize.py", "--game", "desert", "--cells", "4:novice", "--steps", "1",
                        "--games", "2", "--jobs", "1", "--state", str(state)],
                       cwd=BENCH, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    st = json.loads(state.read_text())
    assert st["step"] == 1 and "w_death" in st["weights"] and "v_win" not in st["weights"]
    assert "w_fools_landing" not in st["weights"]
    bad = subprocess.run([sys.executable, "optimize.py", "--game", "desert", "--cells", "6:novice", "--state",
                          str(state)], cwd=BENCH, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert bad.returncode == 2 and "--cells takes PLAYERS:LEVEL" in bad.stderr and "Traceback" not in bad.stderr
