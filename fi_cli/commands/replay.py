"""`fi replay`: play one logged game again from its seed and check it against the log."""

from __future__ import annotations

import sys

import click

from .common import InputError


@click.command()
@click.argument("run_dir", metavar="DIR", type=click.Path(file_okay=False, exists=True))
@click.option("--scenario", "-s", required=True, help="Scenario id (or its index in the study).")
@click.option("--game", "-g", required=True, type=click.IntRange(min=0), help="Game number within the scenario.")
@click.option("--quiet", "-q", is_flag=True, help="Only check; do not print the game.")
def replay(run_dir: str, scenario: str, game: int, quiet: bool) -> None:
    """Replay game G of scenario S of a run turn by turn and confirm it matches the log.

    Exit code 0 when it matches, 1 when it does not.

    \b
    Example:
      fi replay runs/example --scenario "layout=skull_island,difficulty=normal" --game 17
    """
    from ..sim.errors import ConfigError
    from ..sim.replay import replay_game

    try:
        result = replay_game(run_dir, scenario, game, narrate=None if quiet else click.echo)
    except ConfigError as e:
        raise InputError(str(e)) from None
    if result.matches:
        click.echo(f"\nreplay of {result.scenario!r} game {game} (seed {result.seed}) matches the log")
    else:
        click.echo(f"\nreplay of {result.scenario!r} game {game} (seed {result.seed}) does NOT match the log:",
                   err=True)
        for d in result.differences:
            click.echo(f"  {d}", err=True)
        sys.exit(1)
