"""Read one or more runs of `fi simulate` into three tidy tables: games, turns, tiles.

A run directory holds `manifest.json` and the Parquet datasets `games/`, `turns/`, `tiles/`, each
hive-partitioned by scenario (`scenario=<url-encoded id>/part-<chunk>.parquet`). The report reads exactly
the chunks the manifest records as done, after `fi_cli.sim.check` has verified them: an incomplete or
damaged run stops the report (a `ReportError` saying what is wrong and how to repair it) unless
`partial=True`, which reports on the good chunks and says so everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fi_cli.sim.check import RunCheck, check_run, done_chunks, load_manifest, resume_command
from fi_cli.sim.errors import ConfigError
from fi_cli.sim.tables import chunk_path

from .errors import ReportError
from .games import game_of, section
from .labels import Scenarios, describe_scenarios

MAX_LISTED = 8  # problems named in an error before "and n more"


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
        return [str(s["id"]) for s in self.manifest.get("scenarios", [])]

    @property
    def games_expected(self) -> int:
        return int(self.manifest["games_per_scenario"]) * len(self.scenario_ids)


@dataclass
class ReportData:
    """All games of the runs, keyed by `scenario`: a key unique across runs (the scenario id when possible).

    `scenario_id` and `run` keep the original names; `scenarios` is the display order (manifest order);
    `info` describes each scenario (label, values, layout, colour group; see `labels.describe_scenarios`).
    All runs are of one `game` (a report gives each game its own section).
    """

    runs: list[Run]
    games: pd.DataFrame
    turns: pd.DataFrame
    tiles: pd.DataFrame
    scenarios: list[str]
    info: pd.DataFrame
    layouts: dict[str, dict[str, Any]]  # layout id -> the manifest's layout (name, cells, pins)
    warnings: list[str] = field(default_factory=list)
    game: str = "island"

    @property
    def games_expected(self) -> int:
        return sum(r.games_expected for r in self.runs)

    @property
    def partial(self) -> bool:
        return len(self.games) < self.games_expected

    @property
    def partial_note(self) -> str:
        """'PARTIAL: n of N games' when some games are missing, else ''."""
        return f"PARTIAL: {len(self.games):,} of {self.games_expected:,} games" if self.partial else ""

    @property
    def labels(self) -> dict[str, str]:
        return dict(zip(self.info["scenario"], self.info["label"], strict=True))


class _Chunks:
    """The tables of verified chunks, kept column by column as the report needs them (`columns`: per
    dataset, the columns the game's section needs and those it uses when they are there)."""

    def __init__(self, run_dir: Path, datasets: tuple[str, ...], columns: dict[str, tuple[tuple[str, ...], ...]]
                 ) -> None:
        self.run_dir, self.datasets, self.columns = run_dir, datasets, columns
        self.tables: dict[str, list[pa.Table]] = {ds: [] for ds in datasets}

    def keep(self, sid: str, chunk: int, tables: dict[str, pa.Table]) -> None:
        for ds in self.datasets:
            t = tables[ds]
            required, optional = self.columns[ds]
            missing = [c for c in required if c not in t.column_names]
            if missing:
                raise ReportError(f"{chunk_path(self.run_dir, ds, sid, chunk)}: missing column(s) "
                                  f"{', '.join(missing)}; was it written by another version of fi?")
            t = t.select([c for c in (*required, *optional) if c in t.column_names])
            self.tables[ds].append(t.append_column("scenario", pa.array([sid] * t.num_rows, pa.string())))

    def frame(self, ds: str) -> pd.DataFrame:
        try:
            table = pa.concat_tables(self.tables[ds], promote_options="permissive")
        except pa.ArrowException as e:
            raise ReportError(f"{self.run_dir / ds}: files disagree on column types ({e})") from e
        return table.to_pandas()


def _problems_text(run_dir: Path, check: RunCheck) -> str:
    problems = check.problems
    listed = "\n".join(f"  - {p}" for p in problems[:MAX_LISTED])
    more = f"\n  - and {len(problems) - MAX_LISTED} more (`fi check {run_dir}` lists them all)" \
        if len(problems) > MAX_LISTED else ""
    return (f"{run_dir}: the run is incomplete or its files do not agree, so a report would mislead:\n{listed}{more}\n"
            f"Complete and repair it with `{resume_command(check)}` (it plays the missing and damaged chunks "
            f"again), or add --partial to report on the {check.games_good:,} of {check.games_total:,} games "
            "that are sound.")


def _check_games(games: pd.DataFrame, where: Path, endings: tuple[str, ...]) -> list[str]:
    bad = sorted(set(games["outcome"].dropna().astype(str)) - {"win", "loss"})
    if bad or games["outcome"].isna().any():
        raise ReportError(f"{where}: column outcome must be 'win' or 'loss', found {bad or ['null']}")
    lost = games["outcome"] == "loss"
    no_cause = int(games.loc[lost, "loss_cause"].isna().sum())
    if no_cause:
        raise ReportError(f"{where}: {no_cause} lost game(s) have no loss_cause")
    unknown = sorted(set(games.loc[lost, "loss_cause"].astype(str)) - set(endings))
    return [f"{where}: unknown loss cause(s) {', '.join(unknown)}; shown as they are"] if unknown else []


def run_game(run_dir: Path) -> str:
    """The game of the run in `run_dir` (ReportError when it is not a run)."""
    try:
        return game_of(load_manifest(Path(run_dir)))
    except ConfigError as e:
        raise ReportError(str(e)) from None


def load_run(run_dir: Path, partial: bool = False, datasets: tuple[str, ...] = ("games", "turns", "tiles"),
             ) -> tuple[Run, dict[str, pd.DataFrame], list[str]]:
    """One run: (run, {dataset: frame}, warnings), with original scenario ids.

    With all three datasets the run is checked first (see the module docstring); `datasets=("games",)`
    reads the games files of the chunks recorded as done without the check (a quick summary)."""
    run_dir = Path(run_dir)
    game = section(run_game(run_dir))
    chunks = _Chunks(run_dir, datasets, game.COLUMNS)
    warnings: list[str] = []
    try:
        if set(datasets) == set(game.COLUMNS):
            check = check_run(run_dir, keep=chunks.keep)
            manifest = check.manifest
        else:
            check, manifest = None, load_manifest(run_dir)
            for sid in manifest["chunks_done"]:
                for c in done_chunks(run_dir, manifest, sid):
                    try:
                        chunks.keep(sid, c, {"games": pq.read_table(chunk_path(run_dir, "games", sid, c))})
                    except (OSError, pa.ArrowException) as e:
                        raise ReportError(f"{chunk_path(run_dir, 'games', sid, c)}: cannot be read ({e})") from e
    except ConfigError as e:
        raise ReportError(str(e)) from None
    if check is not None and check.problems:
        if not partial:
            raise ReportError(_problems_text(run_dir, check))
        warnings += [f"left out: {p}" for p in check.problems]
    run = Run(path=run_dir, manifest=manifest, name=run_dir.resolve().name)
    if not chunks.tables["games"]:
        raise ReportError(f"{run_dir}: no chunk of games is complete and sound; nothing to report on yet")
    frames = {ds: chunks.frame(ds) for ds in datasets}
    warnings += _check_games(frames["games"], run_dir / "games", game.ENDINGS)
    frames = game.prepare(frames, run_dir)
    for sid in run.scenario_ids:
        if sid not in set(frames["games"]["scenario"]):
            warnings.append(f"{run_dir}: scenario {sid!r} has no sound chunk yet; left out")
    return run, frames, warnings


def load_runs(run_dirs: list[Path], partial: bool = False, datasets: tuple[str, ...] = ("games", "turns", "tiles"),
              ) -> ReportData:
    """Read and combine runs of one game; scenario keys stay unique, so nothing from different runs is pooled."""
    if not run_dirs:
        raise ReportError("no run given")
    played = {run_game(Path(d)) for d in run_dirs}
    if len(played) > 1:
        raise ReportError(f"{', '.join(map(str, run_dirs))}: runs of {' and '.join(sorted(played))}; read each game's "
                          "runs apart (fi report does, and gives each game its own section)")
    loaded = [load_run(Path(d), partial, datasets) for d in run_dirs]
    runs = [x[0] for x in loaded]
    warnings = [w for x in loaded for w in x[2]]
    present = [[s for s in run.scenario_ids if s in set(frames["games"]["scenario"])] for run, frames, _ in loaded]
    described: Scenarios = describe_scenarios([r.manifest for r in runs], [r.name for r in runs], present)
    warnings += described.warnings
    keys = described.keys
    out: dict[str, list[pd.DataFrame]] = {ds: [] for ds in datasets}
    for i, (run, frames, _) in enumerate(loaded):
        for ds, df in frames.items():
            df = df[df["scenario"].isin(present[i])].copy()
            df["scenario_id"] = df["scenario"]
            df["scenario"] = [keys[(i, s)] for s in df["scenario_id"]]
            df["run"] = run.name
            out[ds].append(df)
    frames = {ds: pd.concat(dfs, ignore_index=True) for ds, dfs in out.items()}
    games = frames["games"]
    games["ending"] = games["loss_cause"].where(games["outcome"] == "loss", "win").astype(str)
    empty = pd.DataFrame()
    return ReportData(runs=runs, games=games, turns=frames.get("turns", empty), tiles=frames.get("tiles", empty),
                      scenarios=list(described.info["scenario"]), info=described.info, layouts=described.layouts,
                      warnings=warnings, game=played.pop())
