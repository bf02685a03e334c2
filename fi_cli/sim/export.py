"""A run's raw tables (games, turns, tiles) as CSV files or one Excel workbook, for spreadsheet users
(`fi export`). A list value (roles, actions, ...) is written as one text cell, its items joined by "; "."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from .api import Run
from .errors import ConfigError, os_error_text
from .games import door
from .tables import DATASETS, temp_path

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("csv", "xlsx")
SHEET_ROWS = 1_048_576  # the most rows an Excel sheet holds, its header row included
JOIN = "; "


class ExportError(ConfigError):
    """An export that cannot be written (nothing of the run is touched)."""


def export_run(run: Run, to: str, out: Path, scenarios: list[str] | None = None) -> Iterator[Path]:
    """Write the run's tables into folder `out`, one dataset after the other (yielding each file when written):
    `<dataset>.csv` each, or `<run name>.xlsx` with a sheet each. `scenarios`: ids or indexes (default: all).
    Each file is written under a temporary name and renamed when whole."""
    if to not in FORMATS:
        raise ExportError("unknown format", value=to, allowed=", ".join(FORMATS))
    if to == "xlsx" and importlib.util.find_spec("openpyxl") is None:
        raise ExportError("writing .xlsx needs the package openpyxl: pip install 'fi-cli[xlsx]' (or export "
                          "--to csv, which needs nothing more)")
    ids = [run.study.scenario(s).id for s in scenarios] if scenarios else None
    try:
        out.mkdir(parents=True, exist_ok=True)
        if to == "csv":
            for ds in DATASETS:
                path = out / f"{ds}.csv"
                _replace(path, lambda tmp, ds=ds: table(run, ds, ids).to_csv(tmp, index=False))
                yield path
        else:
            yield from _workbook(run, ids, out / f"{run.path.resolve().name}.xlsx")
    except OSError as e:
        raise ExportError(f"cannot write the export: {os_error_text(e, out)}; the run is untouched") from None


def table(run: Run, dataset: str, scenarios: list[str] | None = None) -> pd.DataFrame:
    """One dataset in the study's order, list values joined into text (what a spreadsheet can show)."""
    df = run.read(dataset, scenarios=scenarios)
    for f in door(run.game).SCHEMAS[dataset]:
        if f.name not in df:
            continue
        if pa.types.is_list(f.type):
            df[f.name] = [JOIN.join(map(str, v)) if v is not None else "" for v in df[f.name]]
        elif pa.types.is_integer(f.type) and df[f.name].dtype.kind == "f":  # pandas' floats for gaps: 10, not 10.0
            df[f.name] = df[f.name].astype("Int64")
    order = [c for c in ("scenario", "game", "turn") if c in df]
    return df.sort_values(order, kind="stable").reset_index(drop=True)


def _workbook(run: Run, ids: list[str] | None, path: Path) -> Iterator[Path]:
    import pandas as pd

    tables = {ds: table(run, ds, ids) for ds in DATASETS}
    big = {ds: len(t) for ds, t in tables.items() if len(t) >= SHEET_ROWS}
    if big:
        ds, rows = next(iter(big.items()))
        raise ExportError(f"the {ds} table has {rows:,} rows and an Excel sheet holds {SHEET_ROWS - 1:,}: export "
                          "--to csv, or fewer scenarios with --scenario", file=run.path)

    def write(tmp: Path) -> None:
        with pd.ExcelWriter(tmp, engine="openpyxl") as book:
            for ds, t in tables.items():
                t.to_excel(book, sheet_name=ds, index=False)

    _replace(path, write)
    yield path


def _replace(path: Path, write: Callable[[Path], object]) -> None:
    """Write `path` whole or not at all: `write(tmp)` writes a temporary file, renamed when done."""
    tmp = temp_path(path)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
