"""`fi check` and `fi simulate --resume` on damaged runs: every problem found, named, and repaired by
playing the bad chunks again into exactly the data of an uninterrupted run. Runs of both games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from test_sim_run import DESERT_IDS, IDS, assert_same, make_study, read_all

from fi_cli.cli import main
from fi_cli.sim.api import load_study, run_study
from fi_cli.sim.check import check_run
from fi_cli.sim.tables import chunk_path


@pytest.fixture(scope="module", params=["island", "desert"])
def reference(request, tmp_path_factory) -> tuple[Path, Path, dict, list[str]]:
    """An uninterrupted run (4 scenarios x 6 games, chunks of 4: chunks 0 and 1), its study, its data and its
    scenario ids; of the island, then of the desert."""
    tmp = tmp_path_factory.mktemp("ref")
    study = make_study(tmp, game=request.param)
    out = run_study(load_study(study), tmp / "out", workers=1, progress=False)
    return study, out, read_all(out), IDS if request.param == "island" else DESERT_IDS


@pytest.fixture
def run(reference, tmp_path) -> Path:
    """A fresh copy of the reference run to damage."""
    out = reference[1]
    return Path(shutil.copytree(out, tmp_path / "run"))


def _check(run: Path) -> tuple[int, list[str]]:
    r = CliRunner().invoke(main, ["check", str(run)])
    return r.exit_code, r.stdout.splitlines()


def _resume(reference, run: Path) -> None:
    study, _, ref, _ = reference
    r = CliRunner().invoke(main, ["simulate", str(study), "--out", str(run), "--resume", "-q", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert_same(read_all(run), ref)
    assert _check(run)[0] == 0


def _drop_first_row(path: Path) -> None:
    pq.write_table(pq.read_table(path).slice(1), path)


def test_a_complete_run_passes(reference):
    code, lines = _check(reference[1])
    assert code == 0 and lines == [f"ok: {reference[1]}: complete, 24 games of 4 scenario(s) in 8 chunk(s); "
                                   "games, turns and tiles agree"]


def _damage(run: Path, case: str, ids: list[str]) -> str:
    """Damage the run one way; return the text the problem line must contain."""
    sid = ids[2]
    if case == "deleted tiles file":
        chunk_path(run, "tiles", sid, 1).unlink()
        return f"{chunk_path(run, 'tiles', sid, 1)}: missing (chunk 1 of '{sid}' is recorded as done)"
    if case == "corrupt turns file":
        chunk_path(run, "turns", sid, 0).write_bytes(b"PAR1 not parquet at all")
        return f"{chunk_path(run, 'turns', sid, 0)}: cannot be read"
    if case == "a turn row missing":
        _drop_first_row(chunk_path(run, "turns", sid, 0))
        return f"{chunk_path(run, 'turns', sid, 0)}: 1 game(s) without one row per turn (game 0:"
    if case == "a game row missing":
        _drop_first_row(chunk_path(run, "games", sid, 1))
        return f"{chunk_path(run, 'games', sid, 1)}: holds 1 game rows, expected games 4 to 5 once each"
    if case == "a tile row missing":
        _drop_first_row(chunk_path(run, "tiles", sid, 1))
        return f"{chunk_path(run, 'tiles', sid, 1)}: game 4 does not have one row for each of the 24 tiles"
    if case == "files of two chunks swapped":
        a, b = chunk_path(run, "games", sid, 0), chunk_path(run, "games", ids[3], 0)
        a.rename(a.with_suffix(".tmp"))
        b.rename(a)
        a.with_suffix(".tmp").rename(b)
        return "turns"  # the games files agree on numbers but the turn counts no longer do
    if case == "unlisted chunk":  # written, but the kill came before the manifest recorded it
        m = json.loads((run / "manifest.json").read_text())
        m["chunks_done"][sid] = [0]
        m["complete"] = False
        (run / "manifest.json").write_text(json.dumps(m))
        return f"{chunk_path(run, 'games', sid, 1)}: not recorded as done in the manifest, so it is not read"
    raise AssertionError(case)


CASES = ["deleted tiles file", "corrupt turns file", "a turn row missing", "a game row missing",
         "a tile row missing", "files of two chunks swapped", "unlisted chunk"]


@pytest.mark.parametrize("case", CASES)
def test_each_problem_is_named_and_resume_repairs_it(reference, run, case):
    expected = _damage(run, case, reference[3])
    code, lines = _check(run)
    assert code == 1 and any(expected in line for line in lines), lines
    result = check_run(run)
    assert result.problems == lines and result.games_good < 24
    _resume(reference, run)


def test_a_killed_run_is_incomplete_and_resume_completes_it(reference, run):
    m = json.loads((run / "manifest.json").read_text())
    for sid in reference[3][1:]:
        m["chunks_done"][sid] = []
        for ds in ("games", "turns", "tiles"):
            for c in (0, 1):
                chunk_path(run, ds, sid, c).unlink()
    m["complete"] = False
    (run / "manifest.json").write_text(json.dumps(m))
    code, lines = _check(run)
    assert code == 1 and lines == [f"{run}: incomplete: 6 of 24 games are recorded as played (the run was "
                                   "stopped before it finished)"]
    r = CliRunner().invoke(main, ["check", str(run)])
    assert "--games 6 --seed 11 --resume" in r.stderr
    _resume(reference, run)


def test_a_stray_file_is_reported_and_not_read(reference, run):
    ids = reference[3]
    stray = chunk_path(run, "games", ids[0], 7)
    shutil.copy(chunk_path(run, "games", ids[0], 0), stray)
    code, lines = _check(run)
    assert code == 1 and lines == [f"{stray}: not recorded as done in the manifest, so it is not read "
                                   "(no chunk of this study: remove it)"]


def test_not_a_run_is_bad_input(tmp_path):
    for target, message in ((tmp_path / "nope", "no such run directory"), (tmp_path, "no manifest.json")):
        r = CliRunner().invoke(main, ["check", str(target)])
        assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output
    (tmp_path / "manifest.json").write_text("{broken")
    r = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert r.exit_code == 2 and "manifest.json: is not valid JSON" in r.output
