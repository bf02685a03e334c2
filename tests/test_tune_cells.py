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


def test_a_late_weight_goes_into_the_late_storm_table_of_the_cell_alone():
    sys.path.insert(0, str(BENCH))
    try:
        from strength import cell_policy
    finally:
        sys.path.remove(str(BENCH))
    from fi_cli.desert.policies import heuristic, make_policy

    before = {n: dict(t) for n, t in heuristic.LATE_STORM.items()}
    four = cell_policy("desert", make_policy, "heuristic", {"late:w_death": 30.0, "v_pick": 11.0}, 4)
    two = cell_policy("desert", make_policy, "heuristic", {"late:w_death": 30.0}, 2)
    assert four._late[4]["w_death"] == 30.0 and four._late[4]["v_pick"] == 11.0  # a plain weight wins over both
    assert four._by_players[4]["w_death"] == heuristic.BY_PLAYERS[4]["w_death"]  # the early table: the team's own
    assert two._late[2]["w_death"] == 30.0 and two._late[2]["v_sand"] == heuristic.BY_PLAYERS[2].get(
        "v_sand", heuristic.DEFAULTS["v_sand"])  # a team without a table of its own: its defaults, the weight given
    assert heuristic.LATE_STORM == before  # put back for the next cell a worker plays


def test_tune_checks_a_late_weight_and_plays_it_late():
    same = json.dumps({f"late:{k}": v for k, v in _late_table(4).items()})
    r = _tune("--game", "desert", "--cells", "4:normal", "--games", "6", "--jobs", "1", "{}", same)
    assert r.returncode == 0, r.stderr
    assert "only this 0, only first 0" in r.stdout  # the table's own weights: the same games
    bad = _tune("--game", "desert", "--cells", "4:normal", "--games", "2", "{}", '{"late:w_dearth": 3}')
    assert bad.returncode == 2 and "no parameter 'w_dearth'" in bad.stderr and "Traceback" not in bad.stderr
    island = _tune("--cells", "4:normal", "--games", "2", "{}", '{"late:w_death": 3}')  # the island has no such table
    assert island.returncode == 2 and "the Desert heuristic's (its late-storm table)" in island.stderr


def _late_table(players: int) -> dict:
    from fi_cli.desert.policies import heuristic

    return heuristic.LATE_STORM[players]


def test_cem_late_tunes_one_teams_late_storm_table(tmp_path):
    state = tmp_path / "late.json"
    args = [sys.executable, "cem.py", "--game", "desert", "--late", "4", "--cells", "4:normal", "--games", "2",
            "--pop", "2", "--elite", "1", "--gens", "1", "--sigma", "0", "--floor", "0", "--jobs", "1", "--seed",
            "8000000", "--state", str(state)]  # fmt: skip
    r = subprocess.run(args, cwd=BENCH, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    st = json.loads(state.read_text())
    assert st["late"] == 4 and st["gen"] == 1 and not {"late_mark", "v_win", "nav_ride", "jet_walk"} & set(st["mean"])
    from fi_cli.desert.policies.heuristic import BY_PLAYERS, DEFAULTS

    # no spread: the mean stays where it started, the team's late-storm table (over its defaults for a weight the
    # table does not have)
    table = {**DEFAULTS, **BY_PLAYERS[4], **_late_table(4)}
    assert st["weights"] == {k: round(v, 4) for k, v in table.items() if k in st["mean"]} and len(st["mean"]) > 40
    assert set(_late_table(4)) - {"late_mark"} <= set(st["mean"])
    bad = subprocess.run(args[:-2] + ["--cells", "3:normal", "--state", str(state)], cwd=BENCH, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert bad.returncode == 2 and "every cell of --cells must be of 4 players" in bad.stderr
