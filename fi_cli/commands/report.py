"""`fi report`: figures, tables and one HTML page from one or more runs of `fi simulate`."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory to write the report into.  [default: reports/<run name>]")
@click.option("--baseline", metavar="SCENARIO", default=None,
              help="Scenario the others are compared with.  [default: the first scenario]")
def report(runs: tuple[Path, ...], out_dir: Path | None, baseline: str | None) -> None:
    """Report on RUN [RUN ...]: why games are lost, how fast the water rises, which layout is harder.

    Writes OUT/index.html (every figure and table on one page, opens offline), the figures as PNG and
    SVG, summary.md and the tables as CSV, and prints a summary table. Runs whose scenario ids clash,
    or that were made under different rules versions, are kept apart (labelled run/scenario).

    \b
    Examples:
      fi report runs/example
      fi report runs/islands runs/islands-elite --out reports/islands --baseline standard-normal
    """
    # Heavy imports (pandas, matplotlib) only here, so `fi --help` stays instant.
    from fi_cli.report.build import build_report, default_out_dir
    from fi_cli.report.errors import ReportError
    from fi_cli.report.tables import to_text
    from fi_cli.sim.errors import os_error_text

    from .common import InputError

    try:
        result = build_report(list(runs), out_dir, baseline)
    except ReportError as e:
        raise InputError(str(e)) from None
    except OSError as e:  # writing the report (the runs are only read, and their errors are ReportErrors)
        where = os_error_text(e, out_dir or default_out_dir(runs))
        raise InputError(f"cannot write the report: {where}. The runs are untouched; fix this or choose "
                         "another directory with --out, then run the command again.") from None
    for w in result.warnings:
        click.secho(f"warning: {w}", fg="yellow", err=True)
    click.echo(to_text(result.summary))
    click.echo(f"\nbaseline: {result.baseline}. Win rates with 95% Wilson intervals; differences in percentage "
               "points [95% CI], p-values Holm-corrected (* = significant at 5%); turns = median game length; "
               "treasures = mean captured per game.")
    click.echo(f"report: {result.out_dir / 'index.html'}")
