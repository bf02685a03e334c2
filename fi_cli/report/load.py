"""Read one or more runs of `fi simulate`: their games as a table, their turns and tiles as counts.

A run directory holds `manifest.json` and the Parquet datasets `games/`, `turns/`, `tiles/`, each
hive-partitioned by scenario (`scenario=<url-encoded id>/part-<chunk>.parquet`). The report reads exactly
the chunks the manifest records as done, after `fi_cli.sim.check` has verified them: an incomplete or
damaged run stops the report (a `ReportError` saying what is wrong and how to repair it) unless
`partial=True`, which reports on the good chunks and says so everywhere.

The turns and tiles (nine rows in ten) are never held whole: chunks are read one at a time, as they are
checked, and a batch of them at a time is turned into the counts the game's tables are made of (its section's
`counts`; see report.tally), so that the memory of a report grows with the games table only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
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
from .tally import Tally

MAX_LISTED = 8  # problems named in an error before "and n more"
BATCH_ROWS = 50_000  # turns rows counted at once (some 2,000 games): few pandas calls a game, some 100 MB


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
    """All games of the runs, keyed by `scenario`: a key unique across runs (the scenario id when possible);
    `counts`: what the game's tables need of the turns and tiles, as count frames by name (see load's docstring).

    `scenario_id` and `run` keep the original names; `scenarios` is the display order (manifest order);
    `info` describes each scenario (label, values, layout, colour group; see `labels.describe_scenarios`).
    All runs are of one `game` (a report gives each game its own section).
    """

    runs: list[Run]
    games: pd.DataFrame
    counts: dict[str, pd.DataFrame]
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
    """What the report keeps of the verified chunks of a run: the games, as a table of the columns the game's
    section reads (`columns`: per dataset, those it needs and those it uses when they are there), and the counts
    of its turns and tiles, made a batch of chunks at a time by the section's `counts`."""

    def __init__(self, run_dir: Path, game: ModuleType, datasets: tuple[str, ...]) -> None:
        self.run_dir, self.game, self.datasets = run_dir, game, datasets
        self.games: list[pa.Table] = []
        self.batch: dict[str, list[pa.Table]] = {ds: [] for ds in datasets}
        self.batch_rows = 0
        self.tallies: dict[str, Tally] = defaultdict(Tally)

    def keep(self, sid: str, chunk: int, tables: dict[str, pa.Table]) -> None:
        for ds in self.datasets:
            t = tables[ds]
            required, optional = self.game.COLUMNS[ds]
            missing = [c for c in required if c not in t.column_names]
            if missing:
                raise ReportError(f"{chunk_path(self.run_dir, ds, sid, chunk)}: missing column(s) "
                                  f"{', '.join(missing)}; was it written by another version of fi?")
            t = t.select([c for c in (*required, *optional) if c in t.column_names])
            self.batch[ds].append(t.append_column("scenario", pa.array([sid] * t.num_rows, pa.string())))
        games = self.batch["games"][-1]
        self.games.append(games.select([c for c in (*self.game.KEPT, "scenario") if c in games.column_names]))
        if "turns" not in self.datasets:
            self.batch["games"].clear()
            return
        self.batch_rows += tables["turns"].num_rows
        if self.batch_rows >= BATCH_ROWS:
            self.count_batch()

    def count_batch(self) -> None:
        """Count the turns and tiles of the chunks kept since the last batch, and let go of them."""
        if self.batch["games"] and "turns" in self.batch:
            # text as categories: joins and groups on the scenario or a tile take a fraction of the time
            frames = {ds: self.frame(ds, t, strings_to_categorical=True) for ds, t in self.batch.items()}
            for name, counts in self.game.counts(self.game.prepare(frames, self.run_dir)).items():
                text = [c for c in counts.columns if isinstance(counts[c].dtype, pd.CategoricalDtype)]
                self.tallies[name].add(counts.astype(dict.fromkeys(text, str)))
        self.batch_rows = 0

    def counts(self) -> dict[str, pd.DataFrame]:
        self.count_batch()
        return {name: tally.frame() for name, tally in self.tallies.items()}

    def games_frame(self) -> pd.DataFrame:
        """The games kept, as a frame whose list columns stay in Arrow (a fifth of the memory of Python lists;
        the report reads them only in batches). The Arrow memory is let go of as the columns are converted."""
        return self.frame("games", self.games, self_destruct=True, split_blocks=True,
                          types_mapper=lambda t: pd.ArrowDtype(t) if pa.types.is_list(t) else None)

    def frame(self, ds: str, tables: list[pa.Table], **options: Any) -> pd.DataFrame:
        """The tables as one frame, emptying the list (`options`: of pyarrow's to_pandas)."""
        try:
            table = pa.concat_tables(tables, promote_options="permissive")
        except pa.ArrowException as e:
            raise ReportError(f"{self.run_dir / ds}: files disagree on column types ({e})") from e
        tables.clear()  # the table holds the only references: converting it can free each column it is done with
        return table.to_pandas(**options)


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
             ) -> tuple[Run, pd.DataFrame, dict[str, pd.DataFrame], list[str]]:
    """One run: (run, games, counts, warnings), with original scenario ids.

    With all three datasets the run is checked first and its turns and tiles counted (see the module
    docstring); `datasets=("games",)` reads the games files of the chunks recorded as done without the check
    (a quick summary), and counts nothing."""
    run_dir = Path(run_dir)
    game = section(run_game(run_dir))
    chunks = _Chunks(run_dir, game, datasets)
    warnings: list[str] = []
    try:
        if set(datasets) == set(game.COLUMNS):
            check = check_run(run_dir, keep=chunks.keep, columns={ds: [c for cs in game.COLUMNS[ds] for c in cs]
                                                                  for ds in datasets})
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
    if not chunks.games:
        raise ReportError(f"{run_dir}: no chunk of games is complete and sound; nothing to report on yet")
    games = chunks.games_frame()
    warnings += _check_games(games, run_dir / "games", game.ENDINGS)
    for sid in run.scenario_ids:
        if sid not in set(games["scenario"]):
            warnings.append(f"{run_dir}: scenario {sid!r} has no sound chunk yet; left out")
    return run, games, chunks.counts(), warnings


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
    warnings = [w for x in loaded for w in x[3]]
    present = [[s for s in run.scenario_ids if s in set(games["scenario"])] for run, games, _, _ in loaded]
    described: Scenarios = describe_scenarios([r.manifest for r in runs], [r.name for r in runs], present)
    warnings += described.warnings
    games_of, counts_of = [], defaultdict(list)
    for i, (run, games, counts, _) in enumerate(loaded):
        key = {s: described.keys[(i, s)] for s in present[i]}
        games = games[games["scenario"].isin(present[i])]
        games_of.append(games.assign(scenario_id=games["scenario"], scenario=games["scenario"].map(key), run=run.name))
        for name, df in counts.items():
            if "scenario" in df:  # (not in an empty count frame)
                df = df[df["scenario"].isin(present[i])]
                df = df.assign(scenario=df["scenario"].map(key))
            counts_of[name].append(df)
    games = pd.concat(games_of, ignore_index=True)
    games["ending"] = games["loss_cause"].where(games["outcome"] == "loss", "win").astype(str)
    counts = {name: pd.concat(dfs, ignore_index=True) for name, dfs in counts_of.items()}
    return ReportData(runs=runs, games=games, counts=counts, scenarios=list(described.info["scenario"]),
                      info=described.info, layouts=described.layouts, warnings=warnings, game=played.pop())
