"""`fi simulate`: run a study from YAML to Parquet."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from .common import InputError


def play_study(study, out: Path, again: list[str], workers: int | None = None, cluster: str | None = None,
               resume: bool = False, overwrite: bool = False, quiet: bool = False, check_space: bool = True) -> None:
    """Run a study into `out` with a progress line and the time taken; every way it can stop is one paragraph
    (`again`: the command that made it, to which the message adds --out and --resume). check_space: refuse a
    run that the estimate from its first chunk says cannot fit on the disk."""
    import time

    from ..sim.errors import ConfigError
    from ..sim.runner import GameError, RunStopped, SimulationInterrupted, run_study

    n = len(study.scenarios)
    try:
        if not quiet:
            click.echo(f"{study.name}: {n} scenario{'s' * (n != 1)} x {study.games} games -> {out}", err=True)
        start = time.perf_counter()
        run_study(study, out, workers=workers, cluster=cluster, resume=resume, overwrite=overwrite,
                  progress=False if quiet else None, check_space=check_space)
    except ConfigError as e:
        raise InputError(str(e)) from None
    except GameError as e:
        raise click.ClickException(f"{e}\nThis is a bug in the engine or a policy; please report it.") from None
    except SimulationInterrupted as e:
        resume_with = shlex.join([*again, "--out", str(e.out)]) + " --resume"
        if isinstance(e, RunStopped):
            saved = f"{e.games_done} of {e.games_total} games are saved in {e.out} and kept" if e.games_done \
                else "No game is saved yet"
            raise InputError(f"{e.reason}. {saved}; once this is fixed, complete the run with: {resume_with}") \
                from None
        click.echo(f"\nInterrupted: {e.games_done} of {e.games_total} games are saved in {e.out}.\n"
                   f"Resume with: {resume_with}", err=True)
        sys.exit(130)
    if not quiet:
        secs = time.perf_counter() - start
        click.echo(f"done in {secs:.1f} s: {study.games * n} games in {out}/{{games,turns,tiles}}/, "
                   f"manifest {out}/manifest.json", err=True)


@click.command()
@click.argument("study_file", metavar="STUDY.yaml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path),
              help="Output directory (default: runs/<study name>).")
@click.option("--games", "-n", type=click.IntRange(min=1), help="Games per scenario (overrides the study).")
@click.option("--workers", "-w", type=click.IntRange(min=1),
              help="Worker processes (default: the usable cores; at most 2 per core and 1 per chunk).")
@click.option("--cluster", metavar="ADDRESS",
              help="Play on a Dask cluster: its scheduler's address (tcp://host:8786), or local[:N] for N worker "
                   "processes on this machine. Needs the extra: pip install 'fi-cli[cluster]'.")
@click.option("--seed", type=click.IntRange(min=0), help="Root seed (overrides the study).")
@click.option("--resume", is_flag=True, help="Complete an interrupted run of the same study in --out.")
@click.option("--overwrite", is_flag=True, help="Replace whatever run is in --out.")
@click.option("--no-space-check", is_flag=True,
              help="Play even when the estimate from the first chunk says the run cannot fit on the output's disk "
                   "(it stops when the disk is full, keeping every finished chunk).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
def simulate(study_file: Path, out: Path | None, games: int | None, workers: int | None, cluster: str | None,
             seed: int | None, resume: bool, overwrite: bool, no_space_check: bool, quiet: bool) -> None:
    """Play every scenario of a study and write every game, turn and tile to Parquet.

    Writes DIR/games/, DIR/turns/, DIR/tiles/ (Parquet datasets, partitioned by scenario) and
    DIR/manifest.json. The same study and seed give the same data whatever the number of workers, on
    this machine or on a cluster. Ctrl-C keeps every finished chunk; --resume completes the run. Once
    the first chunk is played, a run whose estimated size does not fit on the disk stops (exit code 2).

    \b
    Examples:
      fi simulate configs/example.yaml
      fi simulate configs/example.yaml --games 100 --workers 2 --out runs/quick
      fi simulate configs/example.yaml --resume
      fi simulate configs/example.yaml --cluster tcp://10.0.0.5:8786
      fi simulate configs/example.yaml --games 50000000 --no-space-check
    \b
    Then, in Python:
      pandas.read_parquet("runs/example/games")
    """
    from ..sim.config import load_study
    from ..sim.errors import ConfigError

    try:
        study = load_study(study_file).replace(games=games, seed=seed)
    except ConfigError as e:
        raise InputError(str(e)) from None
    out = out or Path("runs") / study.name
    again = ["fi", "simulate", str(study_file)]
    again += [f"--{k}={v}" for k, v in (("games", games), ("seed", seed), ("cluster", cluster)) if v is not None]
    play_study(study, out, again, workers=workers, cluster=cluster, resume=resume, overwrite=overwrite, quiet=quiet,
               check_space=not no_space_check)
    if not quiet:
        from ..report.tables import run_summary

        click.echo(run_summary(out))
        click.echo(f"\nWin rates with 95% Wilson intervals; turns = median game length. Figures and "
                   f"comparisons: fi report {out}")
