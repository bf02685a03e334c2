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
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..island.rules import RULES_VERSION
from . import engine
from .check import check_run
from .config import Scenario, Study
from .errors import ConfigError, os_error_text
from .seeds import game_seed
from .tables import DATASETS, Columns, stale_temp_files, temp_path, write_chunk
from .workers import die_with_parent, worker_count

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1


class RunDirError(ConfigError):
    """The output directory holds something this run must not overwrite."""


class GameError(RuntimeError):
    """A game that raised inside the engine, with what is needed to replay it."""


class SimulationInterrupted(Exception):
    """Ctrl-C: the finished chunks are kept and recorded; the run can be resumed."""

    def __init__(self, out: Path, games_done: int, games_total: int) -> None:
        super().__init__(f"interrupted after {games_done} of {games_total} games")
        self.out, self.games_done, self.games_total = out, games_done, games_total


class RunWriteError(SimulationInterrupted):
    """The run directory could not be written (full disk, read-only, no permission, a file in the way).

    The finished chunks are kept and recorded as far as the disk allows: once the cause is fixed, the run
    resumes. ``reason`` names the path and what to do."""

    def __init__(self, out: Path, error: OSError, games_done: int, games_total: int) -> None:
        super().__init__(out, games_done, games_total)
        self.reason = os_error_text(error, out)
        self.args = (f"cannot write {self.reason}",)


@dataclass(frozen=True)
class Chunk:
    scenario: int  # index into study.scenarios
    number: int
    start: int  # first game number
    stop: int


def chunks_of(study: Study) -> list[Chunk]:
    """All chunks, round-robin over scenarios so a partial run has comparable data for every scenario."""
    n = -(-study.games // study.chunk_size)
    return [
        Chunk(s.index, c, c * study.chunk_size, min((c + 1) * study.chunk_size, study.games))
        for c in range(n)
        for s in study.scenarios
    ]


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
        "rules_version": RULES_VERSION,
        "study_file": str(study.path) if study.path else None,
        "games_per_scenario": study.games,
        "chunk_size": study.chunk_size,
        "scenarios": [{"id": s.id, "values": s.values, "index": s.index} for s in study.scenarios],
        "chunks_total": len(chunks_of(study)),
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
        made_under = manifest.get("rules_version")
        if made_under != RULES_VERSION:
            # checked first: the study hash differs too (the rules dict gained flags), which would hide why
            raise RunDirError(f"was made under the island rules {made_under!r} and this fi plays {RULES_VERSION!r}; "
                              "one run never mixes two rule sets, so it cannot be resumed. `fi report` still reads "
                              "it (reported apart from runs of other rules versions); to play the study under "
                              f"{RULES_VERSION}, use --overwrite to replace it or --out to write elsewhere", file=out)
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
    manifest["chunks_done"] = check.good
    if check.bad:
        manifest["complete"] = False
    return manifest


# --- workers ---------------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(resolved: dict[str, Any], out: str, meta: dict[str, str], pool: bool) -> None:
    """Per worker, once: rebuild the scenarios and their game set-ups from the resolved study."""
    if pool:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides on Ctrl-C; a worker ends its chunk
        die_with_parent()
    study = Study.from_resolved(resolved)
    _WORKER.update(
        study=study,
        setups={s.index: engine.make_setup(s) for s in study.scenarios},
        out=Path(out),
        meta=meta,
    )


def play_games(scenario: Scenario, setup: Any, root_seed: int, games: range, columns: Columns) -> None:
    """Play games of a scenario into `columns`; the one loop used by runs, benchmarks and replays."""
    for g in games:
        seed = game_seed(root_seed, scenario.id, g)
        try:
            rec = engine.play(scenario, setup, seed)
        except Exception as e:
            raise GameError(f"scenario {scenario.id!r} game {g} (seed {seed}) failed: "
                            f"{type(e).__name__}: {e}") from e
        columns.add(scenario, g, seed, rec, RULES_VERSION)


def _run_chunk(chunk: Chunk) -> Chunk:
    study: Study = _WORKER["study"]
    scenario = study.scenarios[chunk.scenario]
    cols = Columns()
    play_games(scenario, _WORKER["setups"][scenario.index], study.seed, range(chunk.start, chunk.stop), cols)
    meta = dict(_WORKER["meta"], **{"fi.scenario": json.dumps(scenario.to_dict())})
    write_chunk(_WORKER["out"], scenario.id, chunk.number, cols.tables(meta))
    return chunk


# --- the run ---------------------------------------------------------------------------------------------

def run_study(
    study: Study,
    out: str | Path | None = None,
    *,
    workers: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool | None = None,
    on_chunk: Callable[[Chunk], None] | None = None,
) -> Path:
    """Play every game of the study and write DIR/{games,turns,tiles}/ and DIR/manifest.json.

    workers: processes (default: the usable cores, 1 plays in this process; more than the chunks to play
    or than workers.PER_CORE per core are not started, with a warning on stderr). progress: a tqdm bar on
    stderr (None: only on a terminal). resume: complete an interrupted run of the same study. overwrite:
    replace whatever run is in DIR. Raises RunDirError, GameError, SimulationInterrupted on Ctrl-C, or
    RunWriteError when DIR cannot be written; finished chunks are kept in every case.
    """
    from tqdm import tqdm

    out = Path(out) if out is not None else Path("runs") / study.name
    total = study.games * len(study.scenarios)
    try:
        out.mkdir(parents=True, exist_ok=True)
        manifest = _prepare(study, out, resume, overwrite)
    except OSError as e:
        saved = read_manifest(out)  # read a moment ago by _prepare, or None
        raise RunWriteError(out, e, saved.get("games_done", 0) if saved else 0, total) from None
    done = {(sid, c) for sid, cs in manifest["chunks_done"].items() for c in cs}
    chunks = chunks_of(study)
    todo = [c for c in chunks if (study.scenarios[c.scenario].id, c.number) not in done]
    games_done = sum(c.stop - c.start for c in chunks) - sum(c.stop - c.start for c in todo)
    manifest["games_done"] = games_done
    workers, warning = worker_count(workers, len(todo))
    if warning:
        tqdm.write(f"warning: {warning}", file=sys.stderr)

    bar = tqdm(total=total, initial=games_done, unit="game", desc=study.name, file=sys.stderr,
               disable=None if progress is None else not progress, smoothing=0.05, dynamic_ncols=True)

    def record(chunk: Chunk) -> None:
        sid = study.scenarios[chunk.scenario].id
        manifest["chunks_done"][sid] = sorted(manifest["chunks_done"][sid] + [chunk.number])
        manifest["games_done"] += chunk.stop - chunk.start
        write_manifest(out, manifest)
        bar.update(chunk.stop - chunk.start)
        if on_chunk:
            on_chunk(chunk)

    meta = {
        "fi.study_name": study.name,
        "fi.study_hash": study.hash,
        "fi.root_seed": str(study.seed),
        "fi.package_version": __version__,
        "fi.rules_version": RULES_VERSION,
    }
    init_args = (study.resolved(), str(out), meta)
    try:
        write_manifest(out, manifest)
        if workers == 1:
            _init_worker(*init_args, pool=False)
            for chunk in todo:  # a Ctrl-C here loses only the chunk being played
                record(_run_chunk(chunk))
        else:
            _run_pool(todo, workers, init_args, record, notify=lambda m: bar.write(m, file=sys.stderr))
        manifest["complete"] = True
        write_manifest(out, manifest)
    except KeyboardInterrupt:
        bar.close()
        _save_manifest(out, manifest)
        raise SimulationInterrupted(out, manifest["games_done"], total) from None
    except OSError as e:
        bar.close()
        _save_manifest(out, manifest)
        raise RunWriteError(out, e, manifest["games_done"], total) from None
    finally:
        bar.close()
    return out


def _save_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """Record what is done when a run stops early; if even that fails, resume plays the unrecorded chunks
    again (the same games: nothing is lost but time)."""
    try:
        write_manifest(out, manifest)
    except OSError:
        temp_path(out / MANIFEST).unlink(missing_ok=True)


def _run_pool(todo: list[Chunk], workers: int, init_args: tuple, record: Callable[[Chunk], None],
              notify: Callable[[str], None]) -> None:
    # 'spawn': workers start clean (no copied threads or locks from pyarrow/tqdm), same on every OS.
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(*init_args, True))
    queue = iter(todo)
    # At most two chunks per worker in flight: workers never wait, and a Ctrl-C waits for little.
    in_flight: set[Future] = set()
    failure: Exception | None = None
    try:
        while True:
            if failure is None:
                in_flight |= {pool.submit(_run_chunk, c) for c in itertools.islice(queue, 2 * workers - len(in_flight))}
            if not in_flight:
                break
            finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for f in finished:
                try:
                    record(f.result())
                except Exception as e:  # a chunk failed (full disk, a bug): keep the others that finish
                    failure = failure or e
    except KeyboardInterrupt:
        notify("stopping: saving the games in progress (Ctrl-C again to stop at once)")
        try:
            for f in in_flight:
                try:
                    record(f.result())
                except Exception:  # a chunk that failed: it is played again on resume
                    pass
        except KeyboardInterrupt:  # a second Ctrl-C: stop the workers now
            for proc in list(getattr(pool, "_processes", {}).values()):  # no public API before Python 3.14
                proc.terminate()
        pool.shutdown(wait=False)
        raise
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    if failure is not None:
        raise failure
