"""Faults a run must survive: too many workers, a killed parent, a full or read-only disk, a file in the
way, damaged files. Each is one paragraph and exit code 2, nothing finished is lost, and --resume completes
the run to the data of an uninterrupted one."""

from __future__ import annotations

import errno
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_sim_run import IDS, assert_same, make_study, read_all

from fi_cli.cli import main
from fi_cli.report.synthetic import random_scenario, write_run
from fi_cli.sim import workers
from fi_cli.sim.api import load_study, run_study
from fi_cli.sim.errors import os_error_text
from fi_cli.sim.runner import read_manifest

LINUX = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def one_paragraph_error(result) -> str:
    """The message of a bad-input error: exit 2, one paragraph, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.output.startswith("Error: "), result.output
    assert "\n\n" not in result.output.strip(), result.output
    return result.output


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ref")
    return read_all(run_study(load_study(make_study(tmp, games=4, chunk=1)), tmp / "out", workers=1, progress=False))


# --- workers ---------------------------------------------------------------------------------------------

def test_worker_count(monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert workers.worker_count(None, 100) == (2, None)  # default: the usable cores
    assert workers.worker_count(None, 1) == (1, None)
    assert workers.worker_count(3, 100) == (3, None)
    n, warning = workers.worker_count(999, 400)
    assert n == 2 * workers.PER_CORE and warning == (
        "999 workers asked for, 4 used: more than 2 per usable core (2 cores) only add memory and start-up time")
    assert workers.worker_count(4, 3) == (3, "4 workers asked for, 3 used: only 3 chunks are left to play")
    assert workers.worker_count(4, 0) == (1, None)  # nothing left to play: nothing to warn about
    assert 1 <= workers.usable_cores() <= (os.cpu_count() or 1)


def test_workers_999_starts_no_more_than_the_cap(tmp_path, monkeypatch, capfd, reference):
    monkeypatch.setattr(workers, "usable_cores", lambda: 1)
    seen = []
    out = run_study(load_study(make_study(tmp_path, games=4, chunk=1)), tmp_path / "out", workers=999,
                    progress=False, on_chunk=lambda c: seen.append(len(multiprocessing.active_children())))
    assert max(seen) <= workers.PER_CORE
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and err.startswith("warning: 999 workers asked for, 2 used: more than 2 per usable")
    assert_same(read_all(out), reference)


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _children(pid: int) -> set[int]:
    return {int(c) for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()}


def _wait_until_gone(pids: set[int], seconds: float = 10) -> set[int]:
    deadline = time.time() + seconds
    while time.time() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    left = {p for p in pids if _alive(p)}
    for p in left:  # do not leave them running whatever the test says
        os.kill(p, signal.SIGKILL)
    return left


@pytest.mark.skipif(not LINUX, reason="reads worker pids from /proc")
def test_workers_end_when_the_parent_is_killed(tmp_path):
    study = make_study(tmp_path, games=400, chunk=1)
    proc = subprocess.Popen([sys.executable, "-c", "from fi_cli.cli import main; main()", "simulate", str(study),
                             "--out", str(tmp_path / "out"), "-w", "2", "-q"], stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and not (read_manifest(tmp_path / "out") or {}).get("games_done"):
        time.sleep(0.05)  # the workers are playing
    kids = {p for p in _children(proc.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()}
    assert len(kids) == 2
    proc.send_signal(signal.SIGKILL)  # the parent alone: its workers are not told
    proc.wait()
    assert _wait_until_gone(kids) == set()


ORPHAN = """\
import multiprocessing, pathlib, sys, time

def orphan(ready):
    sys.platform = "elsewhere"  # not Linux: only the portable watch of the parent's sentinel
    from fi_cli.sim.workers import die_with_parent
    die_with_parent()
    pathlib.Path(ready).write_text("watching")
    time.sleep(60)

if __name__ == "__main__":
    p = multiprocessing.get_context("spawn").Process(target=orphan, args=(sys.argv[1],))
    p.start()
    print(p.pid, flush=True)
    time.sleep(60)
"""


@pytest.mark.skipif(not LINUX, reason="reads process states from /proc")
def test_the_portable_parent_watch_ends_an_orphan(tmp_path):
    (tmp_path / "parent.py").write_text(ORPHAN)
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, str(tmp_path / "parent.py"), str(ready)], stdout=subprocess.PIPE,
                            text=True)
    child = int(proc.stdout.readline())
    deadline = time.time() + 30
    while time.time() < deadline and not ready.exists():
        time.sleep(0.05)
    assert ready.exists() and _alive(child)
    proc.kill()
    proc.wait()
    assert _wait_until_gone({child}) == set()


# --- I/O errors --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, words", [
    (errno.ENOSPC, "the disk is full: free some space"),
    (errno.EROFS, "the file system is read-only: use a directory on a writable disk"),
    (errno.EACCES, "permission denied: change the permissions or use another directory"),
    (errno.ENOTDIR, "a part of this path is a file, not a directory"),
])  # fmt: skip
def test_os_error_text(code, words):
    assert os_error_text(OSError(code, os.strerror(code), "runs/x/a.parquet")).startswith(f"runs/x/a.parquet: {words}")
    assert os_error_text(OSError(code, "pyarrow's words"), "runs/x").startswith("runs/x: ")
    assert os_error_text(OSError(errno.EIO, "Input/output error")) == "Input/output error"


def _fail_writes_after(monkeypatch, n: int, code: int) -> None:
    """The (n+1)-th Parquet file written and every later one fails with `code`, half written."""
    real = Path.write_bytes
    calls = []

    def write_bytes(self: Path, data: bytes) -> int:
        if ".parquet.tmp-" not in self.name:
            return real(self, data)
        calls.append(self)
        if len(calls) > n:
            real(self, data[:10])  # left behind, as a kill or a crash may leave it
            raise OSError(code, os.strerror(code), str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_write_error_keeps_finished_chunks_and_resume_completes(tmp_path, monkeypatch, code, reference):
    study = make_study(tmp_path, games=4, chunk=1)
    out = tmp_path / "out"
    with monkeypatch.context() as m:
        _fail_writes_after(m, 3 * 5 + 1, code)  # five chunks of three files, then the sixth fails part-way
        msg = one_paragraph_error(cli("simulate", str(study), "--out", str(out), "-w", "1", "-q"))
    assert re.search(f"cannot write the run: {re.escape(str(out))}/\\w+/scenario=[^ ]+/part-\\d+\\.parquet: "
                     f"{re.escape(os_error_text(OSError(code, '')))}", msg)
    assert f"5 of 16 games are saved in {out} and kept" in msg
    assert f"complete the run with: fi simulate {study} --out {out} --resume" in msg
    assert read_manifest(out)["games_done"] == 5 and not read_manifest(out)["complete"]
    r = cli("simulate", str(study), "--out", str(out), "--resume", "-w", "1", "-q")
    assert r.exit_code == 0, r.output
    assert_same(read_all(out), reference)
    assert not list(out.rglob(".*.tmp-*"))


def test_a_read_only_output_directory(tmp_path, monkeypatch):
    def read_only(self, *args, **kw):
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    study = make_study(tmp_path)
    monkeypatch.setattr(Path, "mkdir", read_only)
    msg = one_paragraph_error(cli("simulate", str(study), "--out", str(tmp_path / "ro" / "run"), "-q"))
    assert f"{tmp_path / 'ro' / 'run'}: the file system is read-only" in msg and "No game is saved yet" in msg


def test_an_output_path_below_a_file(tmp_path):
    (tmp_path / "taken").write_text("a file")
    out = tmp_path / "taken" / "run"
    msg = one_paragraph_error(cli("simulate", str(make_study(tmp_path)), "--out", str(out), "-q"))
    assert f"{out}: a part of this path is a file, not a directory: move that file away" in msg


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir()
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                        capture_output=True).returncode == 0
    return ok


@pytest.mark.skipif(not LINUX or os.geteuid() != 0, reason="mounts a tiny tmpfs (root on Linux)")
def test_a_really_full_disk_with_two_workers(tmp_path, reference):
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "100k"):  # room for a few one-game chunks
        pytest.skip("cannot mount a tmpfs here")
    try:
        study, out = make_study(tmp_path, games=4, chunk=1), disk / "run"
        command = [sys.executable, "-c", "from fi_cli.cli import main; main()", "simulate", str(study), "--out",
                   str(out), "-w", "2", "-q"]
        r = subprocess.run(command, capture_output=True, text=True, timeout=120)  # the estimate sees it coming
        assert r.returncode == 2 and r.stderr.startswith(f"Error: {out}: this run would not fit on its disk.")
        assert not out.exists()
        r = subprocess.run([*command, "--no-space-check"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and r.stderr.startswith("Error: cannot write the run: ")
        assert r.stderr.count("\n") == 1, r.stderr  # one paragraph: no traceback, no warning of leaked resources
        assert "the disk is full: free some space" in r.stderr and "--resume" in r.stderr
        done = read_manifest(out)["games_done"]
        assert 0 < done < 16
        subprocess.run(["mount", "-o", "remount,size=4m", str(disk)], check=True)
        r = cli("simulate", str(study), "--out", str(out), "--resume", "-w", "1", "-q")
        assert r.exit_code == 0, r.output
        assert_same(read_all(out), reference)
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_report_write_errors(tmp_path, monkeypatch):
    run = write_run(tmp_path / "run", [random_scenario("a", 10, win_rate=0.3, seed=1)])
    (tmp_path / "taken").write_text("a file")
    msg = one_paragraph_error(cli("report", str(run), "--out", str(tmp_path / "taken" / "rep")))
    assert f"cannot create the report directory {tmp_path / 'taken' / 'rep'}: a part of this path is a file" in msg

    import pandas as pd

    def full(self, path, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    msg = one_paragraph_error(cli("report", str(run), "--out", str(tmp_path / "rep")))
    assert f"cannot write the report: {tmp_path / 'rep'}: the disk is full: free some space" in msg
    assert "choose another directory with --out" in msg


def test_replay_of_a_damaged_file(tmp_path):
    study = make_study(tmp_path, games=2, chunk=2)
    out = run_study(load_study(study), tmp_path / "out", workers=1, progress=False)
    part = next((out / "turns").glob(f"scenario={IDS[1]}")) / "part-00000.parquet"
    part.write_bytes(b"garbage")
    msg = one_paragraph_error(cli("replay", str(out), "-s", IDS[1], "-g", "1", "-q"))
    assert f"{part}: this file of the run is damaged (ArrowInvalid: " in msg
    assert f"Delete it, then play its games again with: fi simulate {study} --out {out} --resume" in msg
    part.unlink()
    assert cli("simulate", str(study), "--out", str(out), "--resume", "-q").exit_code == 0
    assert cli("replay", str(out), "-s", IDS[1], "-g", "1", "-q").exit_code == 0


def test_a_damaged_manifest(tmp_path):
    study = make_study(tmp_path, games=2, chunk=2)
    out = run_study(load_study(study), tmp_path / "out", workers=1, progress=False)
    (out / "manifest.json").write_text("{")
    for args in (["simulate", str(study), "--out", str(out), "--resume", "-q"], ["replay", str(out), "-s", "0",
                 "-g", "0"], ["report", str(out), "--out", str(tmp_path / "rep")]):
        assert "manifest.json" in one_paragraph_error(cli(*args))


def test_play_save_positions_write_errors(tmp_path, monkeypatch):
    (tmp_path / "taken").write_text("a file")
    msg = one_paragraph_error(cli("play", "--seed", "7", "--quiet", "--save-positions", str(tmp_path / "taken" / "p")))
    assert "cannot save the positions: " in msg and "a part of this path is a file" in msg
    real, written = Path.write_text, []

    def write_text(self, text, *a, **kw):
        if len(written) == 3:
            real(self, text[:10])  # half a file, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        written.append(self)
        return real(self, text, *a, **kw)

    monkeypatch.setattr(Path, "write_text", write_text)
    msg = one_paragraph_error(cli("play", "--seed", "7", "--quiet", "--save-positions", str(tmp_path / "pos")))
    assert f"{tmp_path / 'pos' / '0004.json'}: the disk is full: free some space" in msg
    assert "(the 3 positions written so far are kept)" in msg
    assert sorted(p.name for p in (tmp_path / "pos").iterdir()) == ["0001.json", "0002.json", "0003.json"]
