"""`fi design`: designing a game with the components as levers (`fi design sensitivity`: which lever matters
most)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import InputError
from .simulate import play_study


@click.group()
def design() -> None:
    """Design a game with its components as levers.

    \b
    Examples:
      fi design sensitivity configs/sensitivity_island.yaml --games 400
      fi design sensitivity configs/sensitivity_desert.yaml --lever sun_beats_down --lever storm_picks_up
    """


@design.command()
@click.argument("study_file", metavar="STUDY.yaml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--scenario", "-s", help="The base scenario (its id or index) when the study has several.")
@click.option("--lever", "-l", "levers", multiple=True,
              help="A component to move (repeat for several; default: every component of the game).")
@click.option("--games", "-n", type=click.IntRange(min=1), help="Games per arm (default: the study's).")
@click.option("--seed", type=click.IntRange(min=0), help="Root seed (overrides the study).")
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path),
              help="Output directory (default: runs/<study name>-sensitivity).")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes (default: the usable cores).")
@click.option("--resume", is_flag=True, help="Complete an interrupted run in --out.")
@click.option("--overwrite", is_flag=True, help="Replace whatever run is in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar; only the table.")
def sensitivity(study_file: Path, scenario: str | None, levers: tuple[str, ...], games: int | None, seed: int | None,
                out: Path | None, workers: int | None, resume: bool, overwrite: bool, quiet: bool) -> None:
    """Which lever matters most: each component one step down and one step up from a base scenario.

    The base is the study's scenario (or --scenario). Every arm plays the same games (the same seeds) as the
    base, and is compared with it game by game: the change of the win rate (95% Newcombe interval for paired
    data, exact McNemar test) and of the mean game length (paired t interval), p-values Holm-corrected over
    the arms. A step the rules cannot bear (no Waters Rise! left, a hand limit below a capture) is left out.
    The run is an ordinary one (DIR/games ..., resumable); `fi report DIR` adds the tornado figure and the
    tables of the section "Which lever matters most". Prints the table, most important lever first.

    \b
    Examples:
      fi design sensitivity configs/sensitivity_island.yaml --games 400
      fi design sensitivity configs/sensitivity_desert.yaml --games 400 --out runs/desert-levers
      fi design sensitivity configs/example.yaml --scenario 1 --lever hand_limit --lever waters_rise
      fi report runs/sensitivity_island-sensitivity
    """
    from ..report.load import load_runs
    from ..report.sensitivity import analyse, design_of, not_played, top_levers, view
    from ..report.tables import to_text
    from ..sim.config import load_study
    from ..sim.errors import ConfigError
    from ..sim.sensitivity import sensitivity_study

    try:
        study = sensitivity_study(load_study(study_file).replace(seed=seed), scenario, list(levers) or None, games)
    except ConfigError as e:
        raise InputError(str(e)) from None
    out = out or Path("runs") / study.name
    again = ["fi", "design", "sensitivity", str(study_file)]
    again += [f"--{k}={v}" for k, v in (("scenario", scenario), ("games", games), ("seed", seed)) if v is not None]
    again += [f"--lever={lever}" for lever in levers]
    play_study(study, out, again, workers=workers, resume=resume, overwrite=overwrite, quiet=quiet)
    data = load_runs([out])
    plan = design_of(data)
    table = analyse(data.games, plan)
    click.echo(to_text(view(table)))
    click.echo(f"\nBase: {study.design['base_scenario']} of {study_file}, {study.games:,} games per arm on the same "
               f"deals. Most important: {', '.join(top_levers(table))}.")
    skipped = not_played(plan)
    if skipped:
        click.echo(f"Left out (the rules cannot bear them): {', '.join(skipped)}.")
    click.echo(f"Win rates with 95% Wilson intervals; against the base: paired Newcombe intervals, exact McNemar "
               f"tests and paired t intervals, Holm-corrected. Tornado figure: fi report {out}")
