"""Running a study: chunks of games on a process pool, each chunk written as it finishes, a manifest of
what is done so that a stopped run resumes where it stopped and ends with the same data."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from .. import __version__
from ..common.players import PlayerError
from .check import check_run
from .chunks import Chunk, ChunkSet, chunk_count, chunks_of
from .config import Scenario, Study
from .errors import ConfigError, os_error_text
from .estimate import measure, refusal
from .games import DEFAULT, TITLES
from .seeds import game_seed
from .tables import DATASETS, Columns, encode_chunk, stale_temp_files, temp_path, write_chunk
from .workers import die_with_parent, worker_count

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 2  # 2: chunks_done holds spans [first, last] of consecutive chunks (see chunks.ChunkSet)


class RunDirError(ConfigError):
    """The output directory holds something this run must not overwrite."""


class RunTooLarge(ConfigError):
    """The estimate from the first chunk says that the run cannot fit on its disk."""


class GameError(RuntimeError):
    """A game that raised inside the engine, with what is needed to replay it."""


class SimulationInterrupted(Exception):
    """Ctrl-C: the finished chunks are kept and recorded; the run can be resumed."""

    def __init__(self, out: Path, games_done: int, games_total: int) -> None:
        super().__init__(f"interrupted after {games_done} of {games_total} games")
        self.out, self.games_done, self.games_total = out, games_done, games_total


class RunStopped(SimulationInterrupted):
    """The run stopped for a cause outside it; the finished chunks are kept and recorded as far as possible,
    and once the cause is fixed the run resumes. ``reason`` says what happened and what to do."""

    def __init__(self, out: Path, reason: str, games_done: int, games_total: int) -> None:
        super().__init__(out, games_done, games_total)
        self.reason = reason
        self.args = (reason,)


class RunWriteError(RunStopped):
    """The run directory could not be written (full disk, read-only, no permission, a file in the way)."""

    def __init__(self, out: Path, error: OSError, games_done: int, games_total: int) -> None:
        super().__init__(out, f"cannot write the run: {os_error_text(error, out)}", games_done, games_total)


class WorkersLost(RuntimeError):
    """The workers playing the chunks failed or cannot be reached (a Dask cluster): the run stops, keeping
    what is finished."""


# --- manifest --------------------------------------------------------------------------------------------

def read_manifest(out: Path) -> dict[str, Any] | None:
    path = Path(out) / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RunDirError(f"cannot read {os_error_text(e)}", file=out) from None
    except ValueError as e:  # not JSON, not UTF-8
        raise RunDirError(f"{MANIFEST} is damaged ({e}); it records which games are done: start the run "
                          "again with --overwrite", file=out) from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("chunks_done"), dict):
        raise RunDirError(f"{MANIFEST} is not the manifest of a run of `fi simulate`", file=out)
    return manifest


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """Atomic: a reader (or a resumed run) never sees half a manifest."""
    path = Path(out) / MANIFEST
    tmp = temp_path(path)
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def new_manifest(study: Study) -> dict[str, Any]:
    return {
        "format": MANIFEST_FORMAT,
        "name": study.name,
        "study_hash": study.hash,
        "root_seed": study.seed,
        "package_version": __version__,
        "game": study.game,
        "rules_version": study.door.RULES_VERSION,
        "study_file": str(study.path) if study.path else None,
        "games_per_scenario": study.games,
        "chunk_size": study.chunk_size,
        "scenarios": [{"id": s.id, "values": s.values, "index": s.index} for s in study.scenarios],
        "chunks_total": chunk_count(study.games, study.chunk_size) * len(study.scenarios),
        "chunks_done": {s.id: [] for s in study.scenarios},
        "games_done": 0,
        "complete": False,
        "study": study.resolved(),
    }


def _incompatible(manifest: dict[str, Any], study: Study) -> str | None:
    for key, mine in (("study_hash", study.hash), ("package_version", __version__)):
        if manifest.get(key) != mine:
            return f"its {key} is {manifest.get(key)!r}, this run's is {mine!r}"
    return None


def _prepare(study: Study, out: Path, resume: bool, overwrite: bool) -> dict[str, Any]:
    """Decide what to do with an existing output directory; return the manifest to continue."""
    manifest = read_manifest(out)
    if overwrite:
        for ds in DATASETS:
            shutil.rmtree(out / ds, ignore_errors=True)
        (out / MANIFEST).unlink(missing_ok=True)
        manifest = None
    elif manifest is not None:
        made_for, rules = manifest.get("game", DEFAULT), study.door.RULES_VERSION
        if made_for != study.game:
            raise RunDirError(f"holds a run of {TITLES.get(made_for, made_for)} and this study plays "
                              f"{TITLES[study.game]}; use --overwrite to replace it or --out to write elsewhere",
                              file=out)
        made_under = manifest.get("rules_version")
        if made_under != rules:
            # checked first: the study hash differs too (the rules dict gained flags), which would hide why
            raise RunDirError(f"was made under the {study.game} rules {made_under!r} and this fi plays {rules!r}; "
                              "one run never mixes two rule sets, so it cannot be resumed. `fi report` still reads "
                              "it (reported apart from runs of other rules versions); to play the study under "
                              f"{rules}, use --overwrite to replace it or --out to write elsewhere", file=out)
        why = _incompatible(manifest, study)
        if why:
            raise RunDirError(f"holds a different study ({why}); use --overwrite to replace it or --out "
                              "to write elsewhere", file=out)
        if not resume:
            state = "complete" if manifest.get("complete") else "incomplete"
            raise RunDirError(f"already holds this study ({state}); use --resume to complete it or --overwrite "
                              "to start again", file=out)
    elif any((out / ds).exists() for ds in DATASETS):
        raise RunDirError("has game data but no manifest; use --overwrite to replace it", file=out)
    for tmp in list(stale_temp_files(out)):  # a kill can come between writing a file and renaming it
        tmp.unlink(missing_ok=True)
    if manifest is None:
        return new_manifest(study)
    # A chunk counts as done only if the manifest says so and its files pass the check (they exist, can be
    # read and agree); the others are played again, into the same files, with the same seeds.
    check = check_run(out)
    manifest["chunks_done"] = {sid: ChunkSet(good).to_json() for sid, good in check.good.items()}
    if check.bad:
        manifest["complete"] = False
    return manifest


# --- workers ---------------------------------------------------------------------------------------------

def play_games(scenario: Scenario, root_seed: int, games: range, columns: Columns) -> None:
    """Play games of a scenario into `columns`; the one loop used by runs, benchmarks and replays."""
    game = scenario.door
    for g in games:
        try:  # the seed is an argument only: no local variable holds it while the players decide
            rec = game.play(scenario.setup, scenario.policy, scenario.policy_params,
                            game_seed(root_seed, scenario.stream, g))
        except PlayerError as e:  # the user's player, not fi: said as it is, without a traceback
            raise PlayerError(f"scenario {scenario.id!r}, game {g}: {e}") from None
        except Exception as e:
            raise GameError(f"scenario {scenario.id!r} game {g} (seed {game_seed(root_seed, scenario.stream, g)}) "
                            f"failed: {type(e).__name__}: {e}") from e
        game.log(columns, scenario, g, game_seed(root_seed, scenario.stream, g), rec)


def play_chunk(chunk: Chunk, scenario: dict[str, Any], root_seed: int, meta: dict[str, str]) -> dict[str, bytes]:
    """Play a chunk of a scenario (given resolved, as Scenario.to_dict makes it); the bytes of its three files
    (encoded where it is played: on a cluster, the client only writes them).

    A worker gets all it needs with each chunk and keeps nothing between chunks (building a scenario's
    set-up takes 0.1 ms), so any worker, local or on a cluster, can play any chunk of any run."""
    sc = Scenario.from_dict(scenario)
    cols = Columns(sc.schemas)
    play_games(sc, root_seed, range(chunk.start, chunk.stop), cols)
    return encode_chunk(cols.tables(dict(meta, **{"fi.scenario": json.dumps(sc.to_dict())})))


def _play_and_write(out: Path, chunk: Chunk, scenario: dict[str, Any], root_seed: int, meta: dict[str, str]
                    ) -> Chunk:
    """A chunk of the local pool (or of this process): played and written by the same process."""
    start = time.perf_counter()
    write_chunk(out, scenario["id"], chunk.number, play_chunk(chunk, scenario, root_seed, meta))
    return replace(chunk, seconds=time.perf_counter() - start)


def _init_pool_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides on Ctrl-C; a worker ends its chunk
    die_with_parent()


# --- the run ---------------------------------------------------------------------------------------------

def run_study(
    study: Study,
    out: str | Path | None = None,
    *,
    workers: int | None = None,
    cluster: Any = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool | None = None,
    on_chunk: Callable[[Chunk], None] | None = None,
    check_space: bool = True,
) -> Path:
    """Play every game of the study and write DIR/{games,turns,tiles}/ and DIR/manifest.json.

    workers: processes (default: the usable cores, 1 plays in this process; more than the chunks to play
    or than workers.PER_CORE per core are not started, with a warning on stderr). cluster: play on a Dask
    distributed cluster instead: a scheduler address ("tcp://host:8786"), "local" or "local:N" (N worker
    processes on this machine) or a dask.distributed.Client; the data are the same (see sim.cluster).
    progress: a tqdm bar on stderr (None: only on a terminal). resume: complete an interrupted run of the
    same study. overwrite: replace whatever run is in DIR. check_space: once the first chunk is played, stop
    (RunTooLarge) if the estimate from it says the rest cannot fit on DIR's disk. Chunks are made as they are
    played, so a study of any size takes the same memory. Raises RunDirError, RunTooLarge, ClusterError (a
    cluster that cannot be used), GameError, SimulationInterrupted on Ctrl-C, or RunStopped when DIR cannot be
    written (RunWriteError), the cluster fails or a user's player fails (common.players.PlayerError); finished
    chunks are kept in every case but RunTooLarge of a new run, which leaves nothing.
    """
    from tqdm import tqdm

    if workers is not None and cluster is not None:
        raise ConfigError("give either --workers (processes on this machine) or --cluster (a Dask cluster, whose "
                          "workers are its own: start more with `dask worker`, or use --cluster local:N), not both")
    out = Path(out) if out is not None else Path("runs") / study.name
    total = study.games * len(study.scenarios)
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        manifest = _prepare(study, out, resume, overwrite)
    except OSError as e:
        saved = read_manifest(out)  # read a moment ago by _prepare, or None
        raise RunWriteError(out, e, saved.get("games_done", 0) if saved else 0, total) from None
    done = {s.id: ChunkSet.from_json(manifest["chunks_done"][s.id]) for s in study.scenarios}
    ids = [s.id for s in study.scenarios]
    todo = (c for c in chunks_of(study.games, study.chunk_size, len(ids)) if c.number not in done[ids[c.scenario]])
    pending = manifest["chunks_total"] - sum(map(len, done.values()))
    games_done = sum(d.games(study.games, study.chunk_size) for d in done.values())
    manifest["games_done"] = games_done
    manifest["format"] = MANIFEST_FORMAT
    workers_used = 1  # set once the backend is known: for the estimate of the time left

    bar = tqdm(total=total, initial=games_done, unit="game", desc=study.name, file=sys.stderr,
               disable=None if progress is None else not progress, smoothing=0.05, dynamic_ncols=True)

    def record(chunk: Chunk) -> None:
        sid = ids[chunk.scenario]
        done[sid].add(chunk.number)
        manifest["chunks_done"][sid] = done[sid].to_json()
        manifest["games_done"] += chunk.games
        write_manifest(out, manifest)
        bar.update(chunk.games)
        if on_chunk:
            on_chunk(chunk)
        if check_space and manifest["games_done"] == games_done + chunk.games:  # the first chunk of this call
            estimate = measure(out, sid, chunk, total - manifest["games_done"], workers_used)
            if not estimate.fits:
                raise RunTooLarge(refusal(estimate, out, study.games, len(ids), study.path, fresh=not games_done))

    meta = {
        "fi.study_name": study.name,
        "fi.study_hash": study.hash,
        "fi.root_seed": str(study.seed),
        "fi.package_version": __version__,
        "fi.rules_version": study.door.RULES_VERSION,
        # island files name no game: their bytes are as they were before the desert
        **({"fi.game": study.game} if study.game != DEFAULT else {}),
    }
    run = RunParts(out, [s.to_dict() for s in study.scenarios], study.seed, meta,
                   notify=lambda m: bar.write(m, file=sys.stderr))
    try:
        with _backend(run, pending, workers, cluster) as backend:
            workers_used = backend.workers if backend else 1
            write_manifest(out, manifest)
            if backend is None:
                for chunk in todo:  # a Ctrl-C here loses only the chunk being played
                    record(_play_and_write(out, *run.job(chunk)))
            else:
                _play(backend, todo, record)
        manifest["complete"] = True
        write_manifest(out, manifest)
    except (KeyboardInterrupt, OSError, WorkersLost, PlayerError) as e:
        bar.close()
        _save_manifest(out, manifest)
        saved = manifest["games_done"]
        if isinstance(e, OSError):
            raise RunWriteError(out, e, saved, total) from None
        if isinstance(e, WorkersLost):
            raise RunStopped(out, f"the cluster failed: {e}", saved, total) from None
        if isinstance(e, PlayerError):
            raise RunStopped(out, f"the game stopped: {e}", saved, total) from None
        raise SimulationInterrupted(out, saved, total) from None
    except RunTooLarge:
        if not games_done:
            _discard(out, created)
        raise
    finally:
        bar.close()
    return out


def _discard(out: Path, created: bool) -> None:
    """Remove a new run that is not played (and its directory, if this run made it)."""
    for ds in DATASETS:
        shutil.rmtree(out / ds, ignore_errors=True)
    for path in [out / MANIFEST, *stale_temp_files(out)]:  # a write that filled the disk may leave a temp file
        path.unlink(missing_ok=True)
    if created and not any(out.iterdir()):
        out.rmdir()


def _save_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """Record what is done when a run stops early; if even that fails, resume plays the unrecorded chunks
    again (the same games: nothing is lost but time)."""
    try:
        write_manifest(out, manifest)
    except OSError:
        temp_path(out / MANIFEST).unlink(missing_ok=True)


# --- where chunks are played -----------------------------------------------------------------------------

@dataclass(frozen=True)
class RunParts:
    """What a backend needs of the run: where it is written, what play_chunk needs, and where to say something
    (a line on stderr that does not break the progress bar)."""

    out: Path
    scenarios: list[dict[str, Any]]  # resolved, by index
    root_seed: int
    meta: dict[str, str]  # the schema metadata of the run's files
    notify: Callable[[str], None]

    def job(self, chunk: Chunk) -> tuple[Chunk, dict[str, Any], int, dict[str, str]]:
        """The arguments of play_chunk for a chunk."""
        return chunk, self.scenarios[chunk.scenario], self.root_seed, self.meta


class Backend(Protocol):
    """Where chunks are played: the local process pool (_Pool) or a Dask cluster (sim.cluster)."""

    @property
    def workers(self) -> int:
        """How many chunks it plays at once (now: a cluster may grow or shrink)."""

    def window(self) -> int:
        """How many chunks to keep in flight: enough that no worker waits, few enough to bound memory."""

    def submit(self, chunk: Chunk) -> Any:
        """Start playing a chunk; a future."""

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        """(finished, not yet): blocks until at least one is finished."""

    def result(self, future: Any) -> Chunk:
        """The chunk of a finished future, its files written; raises what playing it raised."""

    def cancel(self, futures: set[Any]) -> None:
        """Drop the chunks in flight (the run stops on an error)."""

    def stop(self, futures: set[Any], record: Callable[[Chunk], None]) -> None:
        """Ctrl-C: keep what can be kept of the chunks in flight (recorded), drop the rest."""


@contextmanager
def _backend(run: RunParts, pending: int, workers: int | None, cluster: Any) -> Iterator[Backend | None]:
    """The backend for `pending` chunks; None: play in this process (one worker, or nothing left to play)."""
    if cluster is not None and pending:
        from .cluster import on_cluster

        with on_cluster(cluster, run, pending) as backend:
            yield backend
        return
    n, warning = worker_count(workers, pending)
    if warning:
        run.notify(f"warning: {warning}")
    if n == 1:
        yield None
        return
    with _Pool(n, run) as pool:
        yield pool


def _play(backend: Backend, todo: Iterable[Chunk], record: Callable[[Chunk], None]) -> None:
    """Play the chunks on a backend, recording each as it finishes, whatever the order. After a chunk fails
    (a bug, a full disk, a lost cluster), no chunk is started and those in flight are still recorded as they
    finish; then the first failure is raised."""
    queue = iter(todo)
    in_flight: set[Any] = set()
    failure: Exception | None = None
    try:
        while True:
            if failure is None:
                room = max(0, backend.window() - len(in_flight))  # the window shrinks when a worker is lost
                in_flight |= {backend.submit(c) for c in itertools.islice(queue, room)}
            if not in_flight:
                break
            finished, in_flight = backend.wait(in_flight)
            for f in finished:
                try:
                    record(backend.result(f))
                except Exception as e:  # keep the others that finish
                    failure = failure or e
    except KeyboardInterrupt:
        backend.stop(in_flight, record)
        raise
    except BaseException:
        backend.cancel(in_flight)
        raise
    if failure is not None:
        raise failure


class _Pool:
    """Worker processes on this machine; each writes the files of the chunks it plays."""

    def __init__(self, workers: int, run: RunParts) -> None:
        self.workers, self.run = workers, run
        # 'spawn': workers start clean (no copied threads or locks from pyarrow/tqdm), same on every OS.
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_init_pool_worker)

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: Any) -> None:
        # after a Ctrl-C, stop() has done all there is to wait for
        self.pool.shutdown(wait=kind is None or not issubclass(kind, KeyboardInterrupt), cancel_futures=True)

    def window(self) -> int:
        return 2 * self.workers  # workers never wait, and a Ctrl-C waits for little

    def submit(self, chunk: Chunk) -> Future:
        return self.pool.submit(_play_and_write, self.run.out, *self.run.job(chunk))

    def wait(self, futures: set[Future]) -> tuple[set[Future], set[Future]]:
        return wait(futures, return_when=FIRST_COMPLETED)  # type: ignore[return-value]

    def result(self, future: Future) -> Chunk:
        return future.result()

    def cancel(self, futures: set[Future]) -> None:
        for f in futures:
            f.cancel()

    def stop(self, futures: set[Future], record: Callable[[Chunk], None]) -> None:
        """The chunks being played are finished and saved; a second Ctrl-C stops the workers at once."""
        self.run.notify("stopping: saving the games in progress (Ctrl-C again to stop at once)")
        try:
            for f in futures:
                try:
                    record(f.result())
                except Exception:  # a chunk that failed: it is played again on resume
                    pass
        except KeyboardInterrupt:
            for proc in list(getattr(self.pool, "_processes", {}).values()):  # no public API before Python 3.14
                proc.terminate()
