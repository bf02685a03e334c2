"""`fi position show|legal|apply`: look at a saved position and what can be done in it."""

from __future__ import annotations

import random
from pathlib import Path

import click

from .common import fail


def _load(path: Path):
    from ..island.position import PositionError, loads

    try:
        text = path.read_text()
    except OSError as e:
        raise fail(f"{path}: cannot read the position file ({e.strerror})") from None
    try:
        return loads(text, str(path))
    except PositionError as e:
        raise fail(f"{e}. See the position format in the README.") from None


_FILE = click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))


@click.group()
def position() -> None:
    """Draw a position, list its legal actions, or apply an action to it.

    \b
    Examples:
      fi play --seed 7 --save-positions pos/
      fi position show pos/0001.json
      fi position legal pos/0001.json
      fi position apply pos/0001.json "move(p0, watchtower)"
    """


@position.command()
@_FILE
def show(file: Path) -> None:
    """Draw the position in FILE: island, hands, water level, phase."""
    from ..island.render import draw_position

    click.echo(draw_position(_load(file)))


@position.command()
@_FILE
def legal(file: Path) -> None:
    """Print every legal action of the pending decision, one per line, sorted."""
    from ..island.actions import action_text

    for text in sorted(action_text(a) for a in _load(file).legal_actions()):
        click.echo(text)


@position.command()
@_FILE
@click.argument("action")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for any cards the action makes drawn.")
def apply(file: Path, action: str, seed: int) -> None:
    """Apply ACTION (in the action notation) and print the resulting position as JSON.

    Ending the actions or drawing a flood card draws cards: their outcome comes from --seed.
    """
    from ..island.actions import ActionParseError, parse_action
    from ..island.engine import IllegalActionError
    from ..island.position import dumps

    state = _load(file)
    try:
        act = parse_action(action)
        state.rng = random.Random(seed)
        state.apply_checked(act)
    except (ActionParseError, IllegalActionError) as e:
        raise fail(f"{file}: {e}. `fi position legal {file}` lists the legal actions.") from None
    click.echo(dumps(state))
