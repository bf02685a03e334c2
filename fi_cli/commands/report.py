"""`fi report`: figures, tables and one HTML page from one or more runs of `fi simulate`."""

from __future__ import annotations

from pathlib import Path

import click

from .common import InputError, use_system_allocator


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory to write the report into.  [default: reports/<run name>]")
@click.option("--baseline", metavar="KEY=VALUE|SCENARIO", default=None,
              help="Compare each scenario with the one that has this matrix value and the same other values "
                   "(e.g. layout=forbidden_island), or every scenario with one SCENARIO.  [default: the study's "
                   "baseline:, else the standard island when played, else all the other islands pooled]")
@click.option("--partial", is_flag=True,
              help="Report on an incomplete or damaged run, on the games that are sound; everything says PARTIAL.")
@click.option("--svg/--no-svg", default=True, show_default=True,
              help="Also write each figure as SVG (the page itself inlines PNG).")
@click.option("--dpi", type=click.IntRange(40, 400), default=130, show_default=True,
              help="Resolution of the PNG figures (a smaller report for a repository or a mail: e.g. 72).")
def report(runs: tuple[Path, ...], out_dir: Path | None, baseline: str | None, partial: bool, svg: bool,
           dpi: int) -> None:
    """Report on RUN [RUN ...]: why games are lost, where the island sinks or the desert buries, which layout is
    harder. Runs of Forbidden Island and Forbidden Desert get a section each.

    Writes OUT/index.html (one self-contained page with every figure and table), the figures as PNG and
    SVG, summary.md and the tables as CSV, and prints a summary table. The runs are checked first, as by
    `fi check`: an incomplete or damaged run stops the report (exit code 2) unless --partial is given.
    Runs whose scenario ids clash, or that were made under different rules versions, are kept apart.
    With 8 or more layouts (e.g. a study over a folder of generated islands) the report gains an explorer
    section: win rate against each layout feature, a logistic regression of a win on the features, the
    hardest and easiest islands and a ranking.

    \b
    Examples:
      fi report runs/example
      fi report runs/islands --baseline layout=skull_island
      fi report runs/islands runs/islands-elite --out reports/islands
      fi report runs/desert
      fi report runs/explore --out reports/explore --no-svg --dpi 72
    """
    # Heavy imports (pandas, matplotlib) only here, so `fi --help` stays instant.
    from fi_cli.report.build import build_report, default_out_dir
    from fi_cli.report.errors import ReportError
    from fi_cli.report.pages import legend
    from fi_cli.report.tables import to_text
    from fi_cli.sim.errors import os_error_text

    use_system_allocator()

    try:
        result = build_report(list(runs), out_dir, baseline, partial=partial, formats=("png", "svg")[:1 + svg],
                              dpi=dpi)
    except ReportError as e:
        raise InputError(str(e)) from None
    except OSError as e:  # writing the report (the runs are only read, and their errors are ReportErrors)
        where = os_error_text(e, out_dir or default_out_dir(runs))
        raise InputError(f"cannot write the report: {where}. The runs are untouched; fix this or choose "
                         "another directory with --out, then run the command again.") from None
    for w in result.warnings:
        click.secho(f"warning: {w}", fg="yellow", err=True)
    for sec in result.sections:
        if result.mixed:
            click.secho(f"\n{sec.title}", bold=True)
        if sec.data.partial:
            click.secho(f"{sec.data.partial_note}: the report shows only the sound chunks.", fg="red", bold=True)
        click.echo(to_text(sec.summary))
        click.echo(f"\nCompared: {sec.pairing.description}. {legend(sec)}")
        for part in sec.parts:
            click.echo(f"\n{part.title}. {part.intro}")
            click.echo("\n".join(f"- {line}" for line in part.points))
    click.echo(f"report: {result.out_dir / 'index.html'}")
