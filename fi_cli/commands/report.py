"""`fi report`: figures, tables and one HTML page from one or more runs of `fi simulate`."""

from __future__ import annotations

from pathlib import Path

import click

from .common import InputError


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory to write the report into.  [default: reports/<run name>]")
@click.option("--baseline", metavar="KEY=VALUE|SCENARIO", default=None,
              help="Compare each scenario with the one that has this matrix value and the same other values "
                   "(e.g. layout=forbidden_island), or every scenario with one SCENARIO.  [default: the first "
                   "value of the first matrix key]")
@click.option("--partial", is_flag=True,
              help="Report on an incomplete or damaged run, on the games that are sound; everything says PARTIAL.")
def report(runs: tuple[Path, ...], out_dir: Path | None, baseline: str | None, partial: bool) -> None:
    """Report on RUN [RUN ...]: why games are lost, where the island sinks, which layout is harder.

    Writes OUT/index.html (one self-contained page with every figure and table), the figures as PNG and
    SVG, summary.md and the tables as CSV, and prints a summary table. The runs are checked first, as by
    `fi check`: an incomplete or damaged run stops the report (exit code 2) unless --partial is given.
    Runs whose scenario ids clash, or that were made under different rules versions, are kept apart.

    \b
    Examples:
      fi report runs/example
      fi report runs/islands --baseline layout=skull_island
      fi report runs/islands runs/islands-elite --out reports/islands
    """
    # Heavy imports (pandas, matplotlib) only here, so `fi --help` stays instant.
    from fi_cli.report.build import build_report, default_out_dir
    from fi_cli.report.errors import ReportError
    from fi_cli.report.tables import to_text
    from fi_cli.sim.errors import os_error_text

    try:
        result = build_report(list(runs), out_dir, baseline, partial=partial)
    except ReportError as e:
        raise InputError(str(e)) from None
    except OSError as e:  # writing the report (the runs are only read, and their errors are ReportErrors)
        where = os_error_text(e, out_dir or default_out_dir(runs))
        raise InputError(f"cannot write the report: {where}. The runs are untouched; fix this or choose "
                         "another directory with --out, then run the command again.") from None
    for w in result.warnings:
        click.secho(f"warning: {w}", fg="yellow", err=True)
    if result.data.partial:
        click.secho(f"{result.data.partial_note}: the report shows only the sound chunks.", fg="red", bold=True)
    click.echo(to_text(result.summary))
    click.echo(f"\nCompared: {result.pairing.description}. Win rates with 95% Wilson intervals; differences in "
               "percentage points [95% Newcombe CI], p-values Holm-corrected (* = significant at 5%); turns = "
               "median game length; treasures = mean captured per game; water at end = mean final water level.")
    click.echo(f"report: {result.out_dir / 'index.html'}")
