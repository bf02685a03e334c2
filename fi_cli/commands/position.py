"""`fi position show|legal|apply`: look at a saved position (of either game) and what can be done in it."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import click

from .common import fail


def _load(path: Path) -> tuple[str, object]:
    """(the game, the state) of a position file; the file says which game it is."""
    from ..common.documents import PositionError, parse_json
    from ..games import game_of, module

    try:
        text = path.read_text()
    except OSError as e:
        raise fail(f"{path}: cannot read the position file ({e.strerror})") from None
    try:
        doc = parse_json(text, str(path))
        game = game_of(doc, str(path))
        state = module(game, "position").from_dict(doc, str(path))
    except PositionError as e:
        raise fail(f"{e}. See the position format in the README.") from None
    saved, rules = doc.get("rules_version"), module(game, "rules").RULES_VERSION
    if saved is not None and saved != rules:
        click.echo(f"warning: {path} was saved under the rules {saved} and this fi plays {rules}: the position is "
                   f"read and played under {rules}, which may differ from the game it came from", err=True)
    return game, state


def _modules(game: str, *names: str) -> SimpleNamespace:
    from ..games import module

    return SimpleNamespace(**{n: module(game, n) for n in names})


_FILE = click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))


@click.group()
def position() -> None:
    """Draw a position, list its legal actions, or apply an action to it (island or desert: the file says).

    \b
    Examples:
      fi play --seed 7 --save-positions pos/
      fi position show pos/0001.json
      fi position legal pos/0001.json
      fi position apply pos/0001.json "move(p0, watchtower)"
      fi play --game desert --seed 7 --save-positions dpos/
      fi position apply dpos/0001.json "remove_sand(p2, r1c3)"
    """


@position.command()
@_FILE
def show(file: Path) -> None:
    """Draw the position in FILE: the board, the players, the meter, the phase."""
    game, state = _load(file)
    click.echo(_modules(game, "render").render.draw_position(state))


@position.command()
@_FILE
def legal(file: Path) -> None:
    """Print every legal action of the pending decision, one per line, sorted."""
    game, state = _load(file)
    text = _modules(game, "actions").actions.action_text
    for line in sorted(text(a) for a in state.legal_actions()):
        click.echo(line)


@position.command()
@_FILE
@click.argument("action")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for anything the action leaves to chance.")
def apply(file: Path, action: str, seed: int) -> None:
    """Apply ACTION (in the action notation) and print the resulting position as JSON.

    What the action leaves to chance (cards drawn, a desert tile excavated or looked at) comes from --seed.
    """
    game, state = _load(file)
    m = _modules(game, "actions", "engine", "position")
    try:
        act = m.actions.parse_action(action)
        state.rng = random.Random(seed)
        state.apply_checked(act)
    except (m.actions.ActionParseError, m.engine.IllegalActionError) as e:
        raise fail(f"{file}: {e}. `fi position legal {file}` lists the legal actions.") from None
    click.echo(m.position.dumps(state))
