"""Runs on a Dask cluster (`fi simulate --cluster`): the data of a local run, a killed worker or client costs
no finished chunk, and a cluster that cannot be used is one paragraph and exit code 2.

The tests that play need the optional extra (pip install -e '.[cluster]'); without it they are skipped."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_sim_faults import _alive, _children, _wait_until_gone, cli, one_paragraph_error
from test_sim_run import _wait_for_games, assert_same, make_study, read_all

import fi_cli
from fi_cli.sim import cluster
from fi_cli.sim.api import load_study, run_study
from fi_cli.sim.runner import Chunk, RunStopped, WorkersLost, read_manifest

LINUX = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()


def heuristic_study(tmp: Path, chunk: int = 1) -> Path:
    """48 games of about 20 ms each in chunks of `chunk` games (by default 48 chunks: time to kill something
    in the middle of the run)."""
    study = make_study(tmp, games=12, chunk=chunk)
    study.write_text(study.read_text() + "policy: heuristic\n")
    return study


@pytest.fixture(scope="module")
def client():
    """One local cluster of two worker processes, shared by the tests that do not start their own."""
    distributed = pytest.importorskip("distributed")
    with cluster.local_cluster_of(2) as local, distributed.Client(local) as c:
        yield c


@pytest.fixture(scope="module")
def local_run(tmp_path_factory) -> Path:
    """The study played on the local pool."""
    tmp = tmp_path_factory.mktemp("ref")
    return run_study(load_study(heuristic_study(tmp)), tmp / "out", workers=2, progress=False)


@pytest.fixture(scope="module")
def reference(local_run) -> dict:
    return read_all(local_run)


def test_the_workers_of_a_local_cluster_do_not_profile(client):
    # Dask's statistical profiler grew each worker by ~75 KB a chunk of game code (docs/results/log.md)
    callbacks = client.run(lambda dask_worker: sorted(dask_worker.periodic_callbacks))
    assert len(callbacks) == 2 and all(names and "profile" not in names for names in callbacks.values())


def test_a_cluster_writes_the_files_of_the_local_pool(client, tmp_path, local_run):
    local = local_run
    remote = run_study(load_study(heuristic_study(tmp_path)), tmp_path / "remote", cluster=client, progress=False)
    files = sorted(p.relative_to(local) for p in local.rglob("*.parquet"))
    assert len(files) == 3 * 48 and files == sorted(p.relative_to(remote) for p in remote.rglob("*.parquet"))
    for f in files:  # byte for byte: the same games, tables and Parquet encoding
        assert (local / f).read_bytes() == (remote / f).read_bytes(), f
    manifests = [read_manifest(run) for run in (local, remote)]
    assert [dict(m, study_file=None) for m in manifests] == [manifests[0] | {"study_file": None}] * 2


def test_a_killed_worker_costs_only_its_chunks(client, tmp_path, reference):
    pids = client.run(os.getpid)
    killed = []

    def kill_a_busy_worker(chunk: Chunk) -> None:
        deadline = time.time() + 30
        while not killed and time.time() < deadline:  # after the first chunk, 15 of about 60 ms are left
            busy = [w for w, keys in client.processing().items() if keys]
            if busy:
                os.kill(pids[busy[0]], signal.SIGKILL)  # in the middle of a chunk, with another one queued
                killed.append(pids[busy[0]])

    study = heuristic_study(tmp_path, chunk=3)
    out = run_study(load_study(study), tmp_path / "out", cluster=client, progress=False, on_chunk=kill_a_busy_worker)
    assert killed and read_manifest(out)["complete"]
    assert_same(read_all(out), reference)  # other chunks, the same games
    client.wait_for_workers(2, timeout=60)  # the nanny started a new worker in its place
    assert killed[0] not in client.run(os.getpid).values()


@pytest.mark.skipif(not LINUX, reason="reads worker pids from /proc")
def test_a_killed_client_resumes_with_the_same_data(client, tmp_path, reference):
    study = heuristic_study(tmp_path)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-c", "from fi_cli.cli import main; main()", "simulate", str(study),
                             "--out", str(out), "--cluster", "local:2", "-q"], stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_games(out, 1, proc)
        workers = {p for p in _children(proc.pid) if _alive(p)}
        proc.send_signal(signal.SIGKILL)  # the client alone: its local cluster's workers are not told
        proc.wait()
    finally:
        proc.kill()
    assert _wait_until_gone(workers) == set() and len(workers) >= 2
    m = read_manifest(out)
    assert not m["complete"] and 1 <= m["games_done"] < 48
    run_study(load_study(study), out, cluster=client, resume=True, progress=False)
    assert_same(read_all(out), reference)
    assert not list(out.rglob(".*.tmp-*"))


def test_a_lost_scheduler_stops_the_run_and_resume_completes_it(client, tmp_path, reference):
    import dask
    import distributed

    study = heuristic_study(tmp_path)
    out = tmp_path / "out"
    with (dask.config.set({"distributed.comm.timeouts.connect": "1s"}),  # closing it waits less for the dead
          cluster.local_cluster_of(1) as doomed, distributed.Client(doomed) as doomed_client):
        def lose_the_scheduler(chunk: Chunk, seen=[]) -> None:  # noqa: B006 - a counter across calls
            seen.append(chunk)
            if len(seen) == 1:
                doomed.sync(doomed.scheduler.close)

        with pytest.raises(RunStopped) as e:
            run_study(load_study(study), out, cluster=doomed_client, progress=False, on_chunk=lose_the_scheduler)
    # (FuturesCancelledError, or an OSError when the loss shows first in a look at the cluster's size)
    assert re.fullmatch(f"the cluster failed: lost the connection to the Dask scheduler at "
                        f"{re.escape(doomed.scheduler_address)} \\(\\w+\\); check that it still runs", str(e.value))
    assert e.value.games_done == read_manifest(out)["games_done"] >= 1 and not read_manifest(out)["complete"]
    run_study(load_study(study), out, cluster=client, resume=True, progress=False)
    assert_same(read_all(out), reference)


def test_workers_of_another_version_are_refused(client, tmp_path):
    study = heuristic_study(tmp_path)
    client.run(setattr, fi_cli, "__version__", "9.9.9")
    try:
        with pytest.raises(cluster.ClusterError) as e:
            run_study(load_study(study), tmp_path / "out", cluster=client, progress=False)
    finally:
        client.run(setattr, fi_cli, "__version__", fi_cli.__version__)
    addresses = sorted(client.run(os.getpid))
    assert str(e.value) == (
        f"refusing Dask workers that run another fi ({addresses[0]} has fi-cli 9.9.9; {addresses[1]} has fi-cli "
        "9.9.9): their games would not be this run's. Every worker needs what this machine has (fi-cli "
        f"{fi_cli.__version__}, island rules fi-rules-2, desert rules fd-rules-1); install the same fi-cli there "
        "and restart the workers")
    assert not (tmp_path / "out" / "manifest.json").exists()  # refused before anything was written
    # A worker that joins later is checked by each chunk it plays.
    s = load_study(study).scenarios[0]
    expected = dict(cluster.versions(), **{"island rules": "fi-rules-0"})
    with pytest.raises(WorkersLost, match=r"tcp://\S+ has island rules fi-rules-2\): their games would not"):
        client.submit(cluster.play_on_worker, expected, Chunk(0, 0, 0, 1), s.to_dict(), 1, {}).result()


def test_an_unreachable_scheduler(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    out = tmp_path / "out"
    msg = one_paragraph_error(cli("simulate", str(make_study(tmp_path)), "--out", str(out), "-q", "--cluster", address))
    assert f"cannot reach the Dask scheduler at {address} (Timed out trying to connect" in msg
    assert "start it with `dask scheduler` on that host" in msg
    assert not (out / "manifest.json").exists()  # nothing to resume: the same command works once it is up
    msg = one_paragraph_error(cli("simulate", str(make_study(tmp_path)), "-q", "--cluster", "nowhere"))
    assert "--cluster nowhere: not a scheduler address" in msg and "give tcp://HOST:PORT" in msg


@pytest.mark.parametrize("args, words", [
    (["--cluster", "local:0"], "--cluster local:0: local:N takes a number of worker processes N >= 1 (got '0')"),
    (["--cluster", "local:2", "--workers", "2"], "give either --workers (processes on this machine) or --cluster"),
])  # fmt: skip
def test_bad_cluster_options(tmp_path, args, words):
    pytest.importorskip("distributed")
    assert words in one_paragraph_error(cli("simulate", str(make_study(tmp_path)), "-q", *args))


def test_without_dask_the_cluster_option_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    msg = one_paragraph_error(cli("simulate", str(make_study(tmp_path)), "--cluster", "local:2", "-q"))
    assert "Dask distributed is not installed here: install fi's optional extra with pip install 'fi-cli[cluster]' " \
           "(in a checkout of fi: pip install -e '.[cluster]')" in msg
    # the rest needs nothing of Dask: without --cluster the run plays as ever
    assert cli("simulate", str(make_study(tmp_path)), "--out", str(tmp_path / "out"), "-q", "-w", "1").exit_code == 0
