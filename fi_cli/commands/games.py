"""`fi games`: list the games of a run (by scenario, outcome, loss cause), ready for `fi replay`."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from .common import InputError

_OUTCOME = {"win": "win", "won": "win", "loss": "loss", "lost": "loss"}


@click.command()
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path))
@click.option("--scenario", "-s", default=None, help="Only this scenario (its id, or its index in the study).")
@click.option("--outcome", type=click.Choice(list(_OUTCOME)), default=None, help="Only the games won, or lost.")
@click.option("--cause", default=None, help="Only the games lost by this cause (e.g. treasure_lost, thirst).")
@click.option("--limit", "-n", type=click.IntRange(min=0), default=20, show_default=True,
              help="List at most N games (0: all).")
def games(run_dir: Path, scenario: str | None, outcome: str | None, cause: str | None, limit: int) -> None:
    """List the games of RUN (a run of either game): scenario, game number, seed, turns, outcome and loss cause,
    in the study's order, then the command that replays the first one.

    An unknown scenario, or a cause no game of the run was lost by, is an error listing what the run has.

    \b
    Examples:
      fi games runs/example --outcome loss --cause fools_landing_sunk
      fi games runs/example --scenario "layout=skull_island,difficulty=normal" --outcome win -n 5
      fi games runs/desert --cause thirst --limit 0
    """
    from ..report.tables import to_text
    from ..sim.api import Run
    from ..sim.errors import ConfigError
    from ..sim.game_list import find_games
    from ..sim.games import door

    try:
        run = Run(run_dir)
        found = find_games(run, scenario, _OUTCOME.get(outcome or ""), cause, limit)
    except ConfigError as e:
        raise InputError(str(e)) from None
    if found.games.empty:
        click.echo(f"no game of the {found.total:,} of {run_dir} matches")
        return
    click.echo(to_text(found.games.astype({"scenario": str}).fillna({"loss_cause": "–"})))
    shown = len(found.games)
    more = f" (the first {shown}; --limit 0 lists all)" if shown < found.matched else ""
    click.echo(f"\n{found.matched:,} of {found.total:,} games match{more}.")
    first = found.games.iloc[0]
    rules = door(run.game).RULES_VERSION
    if run.rules_version not in (None, rules):
        click.echo(f"These games were played under the rules {run.rules_version} and this fi plays {rules}: "
                   "`fi replay` cannot play them again.")
        return
    command = shlex.join(["fi", "replay", str(run_dir), "--scenario", str(first["scenario"]),
                          "--game", str(first["game"])])
    click.echo(f"Replay the first: {command}")
