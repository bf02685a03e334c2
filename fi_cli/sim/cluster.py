"""Playing a run's chunks on a Dask distributed cluster (`fi simulate --cluster`, `run_study(cluster=...)`).

The chunk is the unit of work, as in the local pool. A worker plays a chunk and sends its three Parquet files
back (encoded there: the client's work a chunk is then a few file writes, and one client feeds many workers);
this process (the client) writes the chunk files and the manifest with the same atomic code as a local
run. So the workers need no shared disk, the data are those of a local run whatever the cluster (per-game
seeds depend on neither), and a run stopped on a cluster resumes with or without one. Dask plays a chunk
whose worker died again elsewhere (up to `distributed.scheduler.allowed-failures` times). Every worker
must play the same games as this machine: the client refuses workers whose fi or rules versions differ.

Dask is an optional extra (`pip install 'fi-cli[cluster]'`), imported only when a cluster is asked for.
"""

from __future__ import annotations

import logging
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from typing import Any

from .errors import ConfigError
from .runner import Chunk, RunParts, WorkersLost, play_chunk
from .tables import write_chunk
from .workers import worker_count

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler before giving up
CHUNKS_PER_THREAD = 3  # in flight: no worker waits for its next chunk, and the client's memory stays flat
LOOK_EVERY = 5.0  # seconds between looks at the cluster's size (workers may join or leave)


class ClusterError(ConfigError):
    """A cluster that cannot be used: Dask not installed, a bad address, no scheduler, other versions of fi."""


def versions() -> dict[str, str]:
    """What must be the same here and on every worker for a chunk's games to be the same."""
    import fi_cli

    from ..games import GAMES, module

    return {"fi-cli": fi_cli.__version__, **{f"{g} rules": module(g, "rules").RULES_VERSION for g in GAMES}}


def refusal(found: dict[str, Any], expected: dict[str, str]) -> str:
    """Why workers are refused: `found` maps each worker's address to its versions() or to the exception
    it raised trying."""

    def differences(v: Any) -> str:
        if not isinstance(v, dict):
            return f"cannot run fi's check ({type(v).__name__}: {v})"
        return ", ".join(f"{k} {v.get(k)}" for k, want in expected.items() if v.get(k) != want)

    workers = "; ".join(f"{address} has {differences(v)}" for address, v in sorted(found.items()))
    here = ", ".join(f"{k} {v}" for k, v in expected.items())
    return (f"refusing Dask workers that run another fi ({workers}): their games would not be this run's. Every "
            f"worker needs what this machine has ({here}); install the same fi-cli there and restart the workers")


def play_on_worker(expected: dict[str, str], chunk: Chunk, scenario: dict[str, Any], root_seed: int,
                   meta: dict[str, str]) -> tuple[Chunk, dict[str, bytes]]:
    """A Dask task: play a chunk and return its files' bytes. Checked on every chunk, since workers may join a
    cluster after the client looked at them."""
    mine = versions()
    if mine != expected:
        from distributed import get_worker

        raise WorkersLost(refusal({get_worker().address: mine}, expected))
    start = time.perf_counter()
    files = play_chunk(chunk, scenario, root_seed, meta)
    return replace(chunk, seconds=time.perf_counter() - start), files


@contextmanager
def on_cluster(cluster: Any, run: RunParts, pending: int) -> Iterator[DaskBackend]:
    """A backend playing on `cluster` (see run_study), its workers' versions checked. A cluster started here
    (local:N) or a client connected here is closed at the end; a given Client is left open."""
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster plays on a Dask cluster, and Dask distributed is not installed here: "
                           "install fi's optional extra with pip install 'fi-cli[cluster]' (in a checkout of fi: "
                           "pip install -e '.[cluster]'), or leave out --cluster to play on this machine") from None
    with ExitStack() as stack:
        client = _client(distributed, cluster, run, pending, stack)
        expected = versions()
        try:
            found = client.run(versions, on_error="return")
        except OSError as e:
            raise ClusterError(f"lost the Dask scheduler at {client.scheduler.address} ({e})") from None
        wrong = {address: v for address, v in found.items() if v != expected}
        if wrong:
            raise ClusterError(refusal(wrong, expected))
        if not found:
            run.notify(f"warning: the Dask cluster at {client.scheduler.address} has no workers yet; the run starts "
                       f"when some join (dask worker {client.scheduler.address} --nworkers N --nthreads 1)")
        yield DaskBackend(client, run, expected)


def _client(distributed: Any, cluster: Any, run: RunParts, pending: int, stack: ExitStack) -> Any:
    if isinstance(cluster, distributed.Client):
        return cluster
    if not isinstance(cluster, str):
        raise ClusterError(f"a cluster is a scheduler address, 'local', 'local:N' or a dask.distributed.Client "
                           f"(got {cluster!r})")
    # What goes wrong is raised as one error of this run: Dask's own log lines (with tracebacks) would bury it.
    for handler in logging.getLogger("distributed").handlers:  # the one Dask sets up on import, to stderr
        stack.callback(handler.setLevel, handler.level)
        handler.setLevel(logging.CRITICAL)
    local = re.fullmatch(r"local(?::(.*))?", cluster)
    if local:
        n = local[1]
        if n is not None and not (n.isdigit() and int(n) >= 1):
            raise ClusterError(f"--cluster {cluster}: local:N takes a number of worker processes N >= 1 (got {n!r})")
        n, warning = worker_count(int(n) if n else None, pending)
        if warning:
            run.notify(f"warning: {warning}")
        local_cluster = stack.enter_context(local_cluster_of(n))
        return stack.enter_context(distributed.Client(local_cluster))
    try:
        return stack.enter_context(distributed.Client(cluster, timeout=CONNECT_TIMEOUT))
    except ValueError as e:
        raise ClusterError(f"--cluster {cluster}: not a scheduler address ({e}); give tcp://HOST:PORT (a "
                           "scheduler started with `dask scheduler` listens on port 8786), local or local:N") from None
    except OSError as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {cluster} ({e}); start it with `dask scheduler` "
                           "on that host and check the address and port (default 8786), or use --cluster local:N "
                           "to play on this machine") from None


def local_cluster_of(workers: int, profile: bool = False) -> Any:
    """A Dask LocalCluster of worker processes on this machine, quiet and left alone by Ctrl-C (`local:N`);
    `profile` turns Dask's profiler back on (to measure what it costs)."""
    import dask
    import distributed

    # Processes of one thread each: games are pure Python, threads of one process would wait for each other.
    # No statistical profiler: it samples the deep, varied stacks of game code every 10 ms and its call trees
    # grew each worker by ~75 KB a chunk (docs/results/log.md), for a dashboard nobody looks at here.
    with dask.config.set({"distributed.worker.profile.enabled": profile}):
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=":0", preload=[__name__], silence_logs=logging.CRITICAL)


def dask_setup(worker: Any) -> None:
    """Run by each worker of a local cluster as it starts (its preload). A Ctrl-C in the terminal reaches
    the whole process group: the client decides what stops, the workers wait to be told."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class DaskBackend:
    """The chunks of a run as Dask tasks; this process writes what they return (see runner.Backend)."""

    def __init__(self, client: Any, run: RunParts, expected: dict[str, str]) -> None:
        self.client, self.run, self.expected = client, run, expected
        self.chunks: dict[Any, Chunk] = {}  # future -> its chunk, to name it when it fails
        self.threads, self.next_look = 0, 0.0

    @property
    def workers(self) -> int:
        return max(1, self.threads)

    def window(self) -> int:
        if time.monotonic() >= self.next_look:
            with self.lost_scheduler():  # asking the scheduler is where its loss may show first
                self.threads = sum(self.client.nthreads().values())
            self.next_look = time.monotonic() + LOOK_EVERY
        return CHUNKS_PER_THREAD * max(1, self.threads)

    def submit(self, chunk: Chunk) -> Any:
        future = self.client.submit(play_on_worker, self.expected, *self.run.job(chunk), pure=False)
        self.chunks[future] = chunk
        return future

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        from distributed import wait

        with self.lost_scheduler():
            finished, running = wait(futures, return_when="FIRST_COMPLETED")
        return set(finished), set(running)

    def result(self, future: Any) -> Chunk:
        from distributed import KilledWorker

        chunk = self.chunks.pop(future)
        scenario = self.run.scenarios[chunk.scenario]["id"]
        try:
            with self.lost_scheduler():
                chunk, files = future.result()
        except KilledWorker:
            raise WorkersLost(f"chunk {chunk.number} of {scenario!r} (games {chunk.start} to {chunk.stop - 1}) "
                              "ended every worker that played it, more often than Dask's "
                              "distributed.scheduler.allowed-failures allows (did they run out of memory?)") from None
        write_chunk(self.run.out, scenario, chunk.number, files)
        return chunk

    def cancel(self, futures: set[Any]) -> None:
        try:
            self.client.cancel(list(futures))
        except Exception:  # the scheduler is gone: so are the chunks
            pass

    @contextmanager
    def lost_scheduler(self) -> Iterator[None]:
        """Dask's errors of a lost connection (which are OSErrors, not errors of this run's disk) as WorkersLost."""
        from distributed import CancelledError, TimeoutError

        try:
            yield
        except (OSError, CancelledError, TimeoutError) as e:
            raise WorkersLost(f"lost the connection to the Dask scheduler at {self.client.scheduler.address} "
                              f"({type(e).__name__}); check that it still runs") from None

    def stop(self, futures: set[Any], record: Callable[[Chunk], None]) -> None:
        """Ctrl-C: the chunks already played are saved, the others cancelled (they may not have started)."""
        played = {f for f in futures if f.status == "finished"}
        self.cancel(futures - played)
        for f in played:
            try:
                record(self.result(f))
            except Exception:  # played again on resume
                pass
