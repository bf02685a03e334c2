"""`fi check`: is a run complete, and do its files agree with its manifest and with each other?"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import InputError


@click.command()
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path))
def check(run_dir: Path) -> None:
    """Check that RUN is complete: every chunk recorded as done has its games, turns and tiles files,
    each can be read, and they hold the same games (one turns row per turn, one tiles row per tile).

    Exit code 0 when complete and consistent; 1 with one line per problem; 2 when RUN is not a run.
    `fi simulate STUDY --resume` plays missing or damaged chunks again; `fi report` makes the same check.

    \b
    Example:
      fi check runs/islands
    """
    from ..sim.check import check_run, resume_command
    from ..sim.errors import ConfigError

    try:
        result = check_run(run_dir)
    except ConfigError as e:
        raise InputError(str(e)) from None
    if result.ok:
        chunks = sum(map(len, result.good.values()))
        click.echo(f"ok: {run_dir}: complete, {result.games_good:,} games of {len(result.good)} scenario(s) "
                   f"in {chunks} chunk(s); games, turns and tiles agree")
        return
    for problem in result.problems:
        click.echo(problem)
    click.echo(f"{len(result.problems)} problem(s). To complete and repair the run: {resume_command(result)}",
               err=True)
    sys.exit(1)
