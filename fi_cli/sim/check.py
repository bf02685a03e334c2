"""Is a run complete, and do its files hold what the manifest says? The one check behind `fi check`,
`fi report` (which reads exactly the chunks it verified) and `fi simulate --resume` (which plays the bad
chunks again).

A chunk recorded as done is good when its three files exist, can be read whole, and agree: the games
file holds exactly the chunk's games of its scenario, the turns file one row per turn of each of those
games (`games.turns`), the tiles file the same number of distinct tiles for each of them. A reader that
uses only some columns (`fi report`) may have only those read, and those the check needs (CHECKED): a
tenth of the work for the turns, whose actions are most of their bytes.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.parquet as pq

from .chunks import ChunkSet
from .errors import ConfigError
from .tables import DATASETS, chunk_path

MANIFEST_KEYS = ("scenarios", "chunks_done", "chunk_size", "games_per_scenario")
CHECKED = {"games": ("game", "turns"), "turns": ("game",), "tiles": ("game", "tile")}  # the columns the check reads
_PART = re.compile(r"part-(\d+)\.parquet")

# Called with (scenario id, chunk number, {dataset: table}) for every chunk that passed the check.
KeepChunk = Callable[[str, int, dict[str, pa.Table]], None]


@dataclass
class RunCheck:
    """What `check_run` found. `problems` has one line per problem; an empty list means complete and
    consistent. `good` lists, per scenario, the chunks recorded as done whose files passed."""

    path: Path
    manifest: dict[str, Any]
    problems: list[str] = field(default_factory=list)
    good: dict[str, list[int]] = field(default_factory=dict)
    bad: set[tuple[str, int]] = field(default_factory=set)  # recorded as done, but the files fail
    games_total: int = 0
    games_good: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def load_manifest(out: Path) -> dict[str, Any]:
    """The manifest of a run directory; ConfigError (naming the path) when there is none to trust."""
    path = Path(out) / "manifest.json"
    if not Path(out).is_dir():
        raise ConfigError("no such run directory (give the directory `fi simulate` wrote)", file=out)
    if not path.is_file():
        raise ConfigError("is not a run of `fi simulate` (no manifest.json)", file=out)
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot be read ({e.strerror})", file=path) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"is not valid JSON ({e}); run the study again with `fi simulate … --overwrite`",
                          file=path) from None
    missing = [k for k in MANIFEST_KEYS if not isinstance(manifest, dict) or k not in manifest]
    if missing:
        raise ConfigError(f"is not a manifest of `fi simulate` (no {', '.join(missing)})", file=path)
    return manifest


def done_chunks(out: Path, manifest: dict[str, Any], sid: str) -> ChunkSet:
    """The chunks of a scenario the manifest of the run in `out` records as done; ConfigError when that record
    is damaged."""
    try:
        return ChunkSet.from_json(manifest["chunks_done"].get(sid, []))
    except ValueError as e:
        raise ConfigError(f"chunks_done of {sid!r}: {e}; run the study again with `fi simulate … --overwrite`",
                          file=Path(out) / "manifest.json") from None


def chunk_range(manifest: dict[str, Any], chunk: int) -> range:
    """The game numbers of a chunk (the same for every scenario)."""
    size, games = manifest["chunk_size"], manifest["games_per_scenario"]
    return range(chunk * size, min((chunk + 1) * size, games))


def check_run(out: str | Path, keep: KeepChunk | None = None, columns: dict[str, Sequence[str]] | None = None,
              progress: bool | None = None) -> RunCheck:
    """Check the run in `out` (see the module docstring); `keep` gets the tables of each good chunk, so a
    reader needs to read the files only once; `columns`: read only these columns of each dataset (those
    there are) and CHECKED, not the whole files; `progress`: a bar of the chunks on stderr (None: only on a
    terminal). ConfigError when `out` is not a run with a manifest."""
    from tqdm import tqdm

    out = Path(out)
    manifest = load_manifest(out)
    ids = [str(s["id"]) for s in manifest["scenarios"]]
    done = {sid: done_chunks(out, manifest, sid) for sid in ids}
    bar = tqdm(total=sum(map(len, done.values())), unit="chunk", desc=f"reading {out.name}", file=sys.stderr,
               disable=None if progress is None else not progress, leave=False, dynamic_ncols=True)
    n_chunks = -(-manifest["games_per_scenario"] // manifest["chunk_size"])
    result = RunCheck(out, manifest, games_total=manifest["games_per_scenario"] * len(ids))
    recorded: set[tuple[str, int]] = set()
    for sid in ids:
        result.good[sid] = []
        for c in done[sid]:
            bar.update()
            if not 0 <= c < n_chunks:
                result.problems.append(f"{out}/manifest.json: records chunk {c} of {sid!r} as done, but the "
                                       f"study has chunks 0 to {n_chunks - 1}")
                continue
            recorded.add((sid, c))
            problem = _check_chunk(out, sid, c, chunk_range(manifest, c), keep, columns)
            if problem:
                result.problems.append(problem)
                result.bad.add((sid, c))
            else:
                result.good[sid].append(c)
                result.games_good += len(chunk_range(manifest, c))
    bar.close()
    for path, key in _chunk_files(out):
        if key not in recorded:
            what = (f"chunk {key[1]} of {key[0]!r}: --resume plays it again" if key[0] in ids and key[1] < n_chunks
                    else "no chunk of this study: remove it")
            result.problems.append(f"{path}: not recorded as done in the manifest, so it is not read ({what})")
    games_done = sum(len(chunk_range(manifest, c)) for _, c in recorded)
    if games_done < result.games_total:
        result.problems.insert(0, f"{out}: incomplete: {games_done:,} of {result.games_total:,} games are "
                                  "recorded as played (the run was stopped before it finished)")
    elif not manifest.get("complete"):
        result.problems.insert(0, f"{out}: the manifest does not say complete (the run was stopped as it ended)")
    return result


def resume_command(check: RunCheck) -> str:
    """The command that completes and repairs the run (games and seed given, in case they were overridden)."""
    m = check.manifest
    return shlex.join(["fi", "simulate", str(m.get("study_file") or "STUDY.yaml"), "--out", str(check.path),
                       "--games", str(m["games_per_scenario"]), "--seed", str(m.get("root_seed")), "--resume"])


def _check_chunk(out: Path, sid: str, chunk: int, games: range, keep: KeepChunk | None,
                 columns: dict[str, Sequence[str]] | None) -> str | None:
    """None if the chunk is good, else one line saying what is wrong with which file."""
    tables: dict[str, pa.Table] = {}
    for ds in DATASETS:
        path = chunk_path(out, ds, sid, chunk)
        if not path.is_file():
            return f"{path}: missing (chunk {chunk} of {sid!r} is recorded as done)"
        wanted = None if columns is None else {*columns[ds], *CHECKED[ds]}
        try:
            with pq.ParquetFile(path) as f:
                names = None if wanted is None else [c for c in f.schema_arrow.names if c in wanted]
                tables[ds] = f.read(columns=names)
        except (OSError, pa.ArrowException) as e:
            return f"{path}: cannot be read ({str(e).splitlines()[0]})"
    why = _disagreement(tables, games)
    if why:
        return f"{chunk_path(out, why[0], sid, chunk)}: {why[1]}"
    if keep:
        keep(sid, chunk, tables)
    return None


def _column(tables: dict[str, pa.Table], ds: str, name: str) -> list | None:
    t = tables[ds]
    return t.column(name).to_pylist() if name in t.column_names else None


def _disagreement(tables: dict[str, pa.Table], games: range) -> tuple[str, str] | None:
    """(dataset, what is wrong) when the three tables of a chunk do not hold the same games."""
    for ds, name in (("games", "game"), ("games", "turns"), ("turns", "game"), ("tiles", "game"),
                     ("tiles", "tile")):
        if name not in tables[ds].column_names:
            return ds, f"has no column {name!r}"
    numbers = _column(tables, "games", "game")
    if sorted(numbers) != list(games):
        return "games", (f"holds {len(numbers)} game rows, expected games {games.start} to {games.stop - 1} "
                         "once each")
    expected = dict(zip(numbers, _column(tables, "games", "turns"), strict=True))
    found = Counter(_column(tables, "turns", "game"))
    wrong = [g for g in numbers if found.get(g, 0) != expected[g]] + sorted(set(found) - set(expected))
    if wrong:
        g = wrong[0]
        return "turns", (f"{len(wrong)} game(s) without one row per turn (game {g}: {found.get(g, 0)} rows, "
                         f"games.turns = {expected.get(g, 'no such game')})")
    tiles = Counter(zip(_column(tables, "tiles", "game"), _column(tables, "tiles", "tile"), strict=True))
    per_game = Counter(g for g, _ in tiles)
    n_tiles = len({t for _, t in tiles})
    wrong = [g for g in numbers if per_game.get(g, 0) != n_tiles] + sorted(set(per_game) - set(expected))
    if wrong or max(tiles.values()) > 1:
        g = wrong[0] if wrong else next(k for k, v in tiles.items() if v > 1)[0]
        return "tiles", f"game {g} does not have one row for each of the {n_tiles} tiles"
    return None


def _chunk_files(out: Path) -> list[tuple[Path, tuple[str, int]]]:
    """Every data file in the run's datasets, with the (scenario id, chunk) its name says it holds."""
    files = []
    for ds in DATASETS:
        root = out / ds
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.parquet")):
            rel = path.relative_to(root)
            if any(part.startswith((".", "_")) for part in rel.parts):
                continue  # temp files of an unfinished atomic write, _metadata and friends
            part, m = rel.parts[0], _PART.fullmatch(path.name)
            sid = unquote(part.removeprefix("scenario=")) if part.startswith("scenario=") else ""
            ok = len(rel.parts) == 2 and sid and m
            files.append((path, (sid, int(m.group(1))) if ok else ("", -1)))
    return files
