"""Read one or more runs of `fi simulate` into three tidy tables: games, turns, tiles.

A run directory holds `manifest.json` and the Parquet datasets `games/`, `turns/`, `tiles/`, each
hive-partitioned by scenario (`scenario=<url-encoded id>/part-*.parquet`). Every problem with the files
becomes a `ReportError` that names the path and what is wrong.
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fi_cli.island.tiles import LOSS_CAUSES

from .errors import ReportError

# turn_limit is recorded by the simulator, not by the rules (a safety net), so it is not in LOSS_CAUSES.
ENDINGS: tuple[str, ...] = ("win", *LOSS_CAUSES, "turn_limit")

GAMES_COLUMNS = ("game", "layout", "difficulty", "players", "policy", "outcome", "loss_cause", "turns",
                 "final_water_level", "treasures_captured", "tiles_sunk")
TURNS_COLUMNS = ("game", "turn", "water_level", "waters_rise", "treasures_captured")
TILES_COLUMNS = ("game", "tile", "row", "col", "sunk_turn")


@dataclass
class Run:
    """One run directory and its manifest."""

    path: Path
    manifest: dict
    name: str

    @property
    def rules_version(self) -> str:
        return str(self.manifest.get("rules_version", "unknown"))

    @property
    def scenario_ids(self) -> list[str]:
        return [str(s["id"]) for s in self.manifest.get("scenarios", []) if isinstance(s, dict) and "id" in s]


@dataclass
class ReportData:
    """All games of the runs, keyed by `scenario`: a label unique across runs (the scenario id when possible).

    `scenario_id` and `run` keep the original names; `scenarios` is the display order (manifest order).
    """

    runs: list[Run]
    games: pd.DataFrame
    turns: pd.DataFrame
    tiles: pd.DataFrame
    scenarios: list[str]
    info: pd.DataFrame  # one row per scenario label: run, scenario_id, rules_version, values
    warnings: list[str] = field(default_factory=list)


def read_manifest(run_dir: Path) -> dict:
    """The parsed manifest of a run directory."""
    if not run_dir.exists():
        raise ReportError(f"{run_dir}: no such run directory")
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: not a directory (give the run directory written by `fi simulate`)")
    mpath = run_dir / "manifest.json"
    if not mpath.is_file():
        raise ReportError(f"{mpath}: missing; {run_dir} does not look like a run of `fi simulate`")
    try:
        manifest = json.loads(mpath.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ReportError(f"{mpath}: not valid JSON ({e})") from e
    if not isinstance(manifest, dict):
        raise ReportError(f"{mpath}: expected a JSON object at the top level")
    return manifest


def _parquet_files(dataset_dir: Path) -> list[tuple[str | None, Path]]:
    """(scenario id from the partition directory or None, file) for every data file of a dataset."""
    files: list[tuple[str | None, Path]] = []
    for f in sorted(dataset_dir.rglob("*.parquet")):
        rel = f.relative_to(dataset_dir)
        if any(part.startswith((".", "_")) for part in rel.parts):
            continue  # temporary files of an unfinished atomic write, _metadata and friends
        scenario = None
        for part in rel.parts[:-1]:
            key, sep, value = part.partition("=")
            if sep and key == "scenario":
                scenario = urllib.parse.unquote(value)
        files.append((scenario, f))
    return files


def read_dataset(
    dataset_dir: Path, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> pd.DataFrame:
    """Read a hive-partitioned Parquet dataset; `scenario` comes back as a plain string column."""
    if not dataset_dir.is_dir():
        raise ReportError(f"{dataset_dir}: missing dataset directory")
    files = _parquet_files(dataset_dir)
    if not files:
        raise ReportError(f"{dataset_dir}: empty dataset (no Parquet files); has the run written any chunk?")
    tables = []
    for scenario, f in files:
        try:
            schema = pq.read_schema(f)
            have = set(schema.names)
            missing = [c for c in required if c not in have]
            if missing:
                raise ReportError(f"{f}: missing column(s) {', '.join(missing)}")
            cols = [c for c in (*required, *optional) if c in have]
            if scenario is None:
                if "scenario" not in have:
                    raise ReportError(f"{f}: no scenario column and not inside a scenario=<id> directory")
                cols.append("scenario")
            table = pq.read_table(f, columns=cols)
        except ReportError:
            raise
        except (pa.ArrowException, OSError) as e:
            raise ReportError(f"{f}: not a readable Parquet file ({e})") from e
        if scenario is not None:
            table = table.append_column("scenario", pa.array([scenario] * table.num_rows, type=pa.string()))
        tables.append(table)
    try:
        table = pa.concat_tables(tables, promote_options="permissive")
    except pa.ArrowException as e:
        raise ReportError(f"{dataset_dir}: files disagree on column types ({e})") from e
    if table.num_rows == 0:
        raise ReportError(f"{dataset_dir}: empty dataset (0 rows)")
    df = table.to_pandas()
    df["scenario"] = df["scenario"].astype(str)
    return df


def _check_games(games: pd.DataFrame, where: Path) -> list[str]:
    warnings = []
    bad = sorted(set(games["outcome"].dropna().astype(str)) - {"win", "loss"})
    if bad or games["outcome"].isna().any():
        raise ReportError(f"{where}: column outcome must be 'win' or 'loss', found {bad or ['null']}")
    lost = games["outcome"] == "loss"
    no_cause = int(games.loc[lost, "loss_cause"].isna().sum())
    if no_cause:
        raise ReportError(f"{where}: {no_cause} lost game(s) have no loss_cause")
    unknown = sorted(set(games.loc[lost, "loss_cause"].astype(str)) - set(ENDINGS))
    if unknown:
        warnings.append(f"{where}: unknown loss cause(s) {', '.join(unknown)}; shown as they are")
    dup = games.duplicated(["scenario", "game"])
    if dup.any():
        warnings.append(f"{where}: {int(dup.sum())} duplicated game row(s) dropped (a chunk written twice?)")
    return warnings


def load_run(run_dir: Path) -> tuple[Run, pd.DataFrame, pd.DataFrame, pd.DataFrame, list[str]]:
    """One run: (run, games, turns, tiles, warnings), with original scenario ids."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    run = Run(path=run_dir, manifest=manifest, name=run_dir.resolve().name)
    games = read_dataset(run_dir / "games", GAMES_COLUMNS, ("seed", "roles"))
    warnings = _check_games(games, run_dir / "games")
    games = games.drop_duplicates(["scenario", "game"])
    turns = read_dataset(run_dir / "turns", TURNS_COLUMNS, ("treasures", "actions"))
    if "treasures" not in turns.columns and "actions" not in turns.columns:
        raise ReportError(f"{run_dir / 'turns'}: needs a treasures or an actions column to time captures")
    if "treasures" in turns.columns:
        turns = turns.drop(columns=[c for c in ("actions",) if c in turns.columns])
    tiles = read_dataset(run_dir / "tiles", TILES_COLUMNS)
    listed = run.scenario_ids
    for sid in listed:
        if sid not in set(games["scenario"]):
            warnings.append(f"{run_dir}: scenario {sid!r} is in the manifest but has no games yet; left out")
    extra = sorted(set(games["scenario"]) - set(listed))
    if listed and extra:
        warnings.append(f"{run_dir}: scenario(s) {', '.join(extra)} have games but are not in the manifest")
    return run, games, turns, tiles, warnings


def _labels(runs: list[Run], ids: list[list[str]]) -> tuple[dict[tuple[int, str], str], list[str]]:
    """A display label per (run index, scenario id): the id itself unless that would mix runs."""
    warnings = []
    seen: dict[str, int] = {}
    shared = set()
    for i, sids in enumerate(ids):
        for sid in sids:
            if sid in seen and seen[sid] != i:
                shared.add(sid)
            seen.setdefault(sid, i)
    versions = {r.rules_version for r in runs}
    mixed_rules = len(versions) > 1
    if mixed_rules:
        detail = ", ".join(f"{r.name}: {r.rules_version}" for r in runs)
        warnings.append(f"runs were made under different rules versions ({detail}); their scenarios are kept "
                        "apart and differences between them mix rules changes with scenario changes")
    if shared:
        warnings.append(f"scenario id(s) {', '.join(sorted(shared))} appear in several runs; they are kept "
                        "apart and labelled run/scenario")
    names = [r.name for r in runs]
    run_names = [n if names.count(n) == 1 else f"{n}#{i + 1}" for i, n in enumerate(names)]
    qualify = bool(shared) or mixed_rules
    labels = {
        (i, sid): (f"{run_names[i]}/{sid}" if qualify else sid) for i, sids in enumerate(ids) for sid in sids
    }
    return labels, warnings


def load_runs(run_dirs: list[Path]) -> ReportData:
    """Read and combine runs; scenario labels stay unique, so nothing from different runs is pooled."""
    if not run_dirs:
        raise ReportError("no run given")
    loaded = [load_run(Path(d)) for d in run_dirs]
    runs = [x[0] for x in loaded]
    warnings = [w for x in loaded for w in x[4]]
    order: list[list[str]] = []
    for run, games, *_ in loaded:
        present = list(dict.fromkeys(games["scenario"]))
        listed = [s for s in run.scenario_ids if s in set(present)]
        order.append(listed + [s for s in present if s not in set(listed)])
    labels, more = _labels(runs, order)
    warnings += more
    frames: dict[str, list[pd.DataFrame]] = {"games": [], "turns": [], "tiles": []}
    for i, (run, games, turns, tiles, _) in enumerate(loaded):
        for key, df in (("games", games), ("turns", turns), ("tiles", tiles)):
            df = df[df["scenario"].isin(order[i])].copy()
            df["scenario_id"] = df["scenario"]
            df["scenario"] = [labels[(i, s)] for s in df["scenario_id"]]
            df["run"] = run.name
            frames[key].append(df)
    scenarios = [labels[(i, s)] for i, sids in enumerate(order) for s in sids]
    values = {}
    for i, run in enumerate(runs):
        for s in run.manifest.get("scenarios", []):
            if isinstance(s, dict) and (i, str(s.get("id"))) in labels:
                values[labels[(i, str(s["id"]))]] = s.get("values", {})
    info = pd.DataFrame({
        "scenario": scenarios,
        "run": [runs[i].name for i, sids in enumerate(order) for _ in sids],
        "scenario_id": [s for sids in order for s in sids],
        "rules_version": [runs[i].rules_version for i, sids in enumerate(order) for _ in sids],
        "values": [values.get(s, {}) for s in scenarios],
    })
    games = pd.concat(frames["games"], ignore_index=True)
    turns = pd.concat(frames["turns"], ignore_index=True)
    tiles = pd.concat(frames["tiles"], ignore_index=True)
    games["ending"] = games["loss_cause"].where(games["outcome"] == "loss", "win").astype(str)
    return ReportData(runs=runs, games=games, turns=turns, tiles=tiles, scenarios=scenarios, info=info,
                      warnings=warnings)
