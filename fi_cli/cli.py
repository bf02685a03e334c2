"""The `fi` command line: a thin click layer over the library (heavy imports stay inside commands)."""

from __future__ import annotations

import click

from . import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fi")
def main() -> None:
    """Play Forbidden Island (and Forbidden Desert) thousands of times and show how and why games are won and lost.

    \b
    Examples:
      fi play --players 4 --difficulty normal --policy random --seed 7
      fi play --game desert --players 4 --difficulty normal --policy random --seed 7
      fi simulate configs/example.yaml
      fi report runs/example
      fi games runs/example --outcome loss --cause treasure_lost
      fi compare heuristic search --difficulty elite --games 400
    """
    from pathlib import Path

    from .common.players import search_here

    search_here(Path.cwd())  # players of your own (module:Class) are found in the current folder too


def _register() -> None:
    # One module per command; each defines a click command named like the module.
    from .commands import (
        check,
        compare,
        design,
        export,
        games,
        layouts,
        play,
        policies,
        position,
        replay,
        report,
        simulate,
    )

    main.add_command(play.play)
    main.add_command(position.position)
    main.add_command(simulate.simulate)
    main.add_command(layouts.layouts)
    main.add_command(games.games)
    main.add_command(replay.replay)
    main.add_command(export.export)
    main.add_command(report.report)
    main.add_command(check.check)
    main.add_command(policies.policies)
    main.add_command(compare.compare)
    main.add_command(design.design)


_register()
