"""`fi export`: a run's raw tables as CSV files or an Excel workbook, for spreadsheet users."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import InputError


@click.command()
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path))
@click.option("--to", "to", type=click.Choice(["csv", "xlsx"]), required=True,
              help="csv: games.csv, turns.csv and tiles.csv; xlsx: one workbook with a sheet each (needs "
                   "pip install 'fi-cli[xlsx]').")
@click.argument("out", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--scenario", "-s", "scenarios", multiple=True,
              help="Only this scenario (its id or index; repeatable).  [default: all]")
def export(run_dir: Path, to: str, out: Path, scenarios: tuple[str, ...]) -> None:
    """Write the raw tables of RUN (games, turns, tiles: one row per game, per turn, per tile and game) into
    folder DIR, in the study's order. A list (roles, actions, ...) is one cell, its items joined by "; ".
    Files already in DIR with the same names are replaced; the run is only read.

    \b
    Examples:
      fi export runs/example --to csv exported/
      fi export runs/example --to xlsx exported/ --scenario "layout=skull_island,difficulty=normal"
      fi export runs/desert --to csv desert-csv/
    """
    from tqdm import tqdm

    from ..sim.api import Run
    from ..sim.errors import ConfigError
    from ..sim.export import export_run
    from ..sim.tables import DATASETS

    try:
        run = Run(run_dir)
        files = len(DATASETS) if to == "csv" else 1
        with tqdm(total=files, unit="file", desc="export", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
            for path in export_run(run, to, out, list(scenarios)):
                bar.update()
                click.echo(f"wrote {path}")
    except ConfigError as e:
        raise InputError(str(e)) from None
