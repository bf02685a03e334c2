"""`fi layouts`: list, draw and check islands and desert boards."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .common import InputError

if TYPE_CHECKING:
    from ..desert.layouts import Layout as Board
    from ..island.layouts import Layout


@click.group(invoke_without_command=True)
@click.pass_context
def layouts(ctx: click.Context) -> None:
    """List the built-in islands and desert boards; draw one (show) or check a layout file (check).

    A desert board file says `game: desert` (see the README); an island layout file names no game.

    \b
    Examples:
      fi layouts
      fi layouts show skull_island
      fi layouts show configs/layouts/lagoon.yaml
      fi layouts check configs/layouts/lagoon.yaml
      fi layouts check configs/layouts/desert_far_pad.yaml
    """
    if ctx.invoked_subcommand is None:
        from ..desert.layouts import BUILTIN_LAYOUTS as BOARDS
        from ..island.layouts import BUILTIN_LAYOUTS

        width = max(len(i) for i in [*BUILTIN_LAYOUTS, *BOARDS])
        for lid, layout in BUILTIN_LAYOUTS.items():
            size = f"{layout.width}x{layout.height}"
            click.echo(f"{lid:<{width}}  {size:>5}  {' / '.join(layout.rows())}")
        for lid, board in BOARDS.items():
            click.echo(f"{lid:<{width}}  {'5x5':>5}  Forbidden Desert: {board.description}")


def _load(ref: str) -> tuple[str, Layout | Board]:
    """(the game, the layout) of a built-in id or a layout file; a desert board file says `game: desert`."""
    from ..desert.layouts import BUILTIN_LAYOUTS as BOARDS
    from ..sim.games import door, layout_file_game
    from ..sim.layout_files import looks_like_file

    desert = layout_file_game(Path(ref)) == "desert" if looks_like_file(ref) else ref in BOARDS
    game = "desert" if desert else "island"
    try:
        return game, door(game).load_layout(ref, None)
    except ValueError as e:  # a file's ConfigError, an unknown id's LayoutError
        raise InputError(str(e)) from None


@layouts.command()
@click.argument("layout", metavar="ID|FILE")
def show(layout: str) -> None:
    """Draw a built-in island or desert board, or a layout file, pinned tiles marked."""
    from ..sim.games.desert_boards import draw_board
    from ..sim.layout_files import draw_layout, layout_warnings

    game, lay = _load(layout)
    if game == "desert":
        click.echo(draw_board(lay))
        return
    click.echo(draw_layout(lay))
    for w in layout_warnings(lay):
        click.echo(f"warning: {w}", err=True)


@layouts.command()
@click.argument("file", type=click.Path(dir_okay=False))
def check(file: str) -> None:
    """Validate a layout file: an island (exactly 24 cells, valid and unique pins; a warning if the island has
    parts) or a desert board (5x5, the storm in the centre, pins of tiles the game has).

    Exit code 0 when valid (warnings included), 2 when not.
    """
    from ..sim.layout_files import layout_warnings, looks_like_file

    if not looks_like_file(file):
        raise InputError(f"{file}: not a layout file (give a .yaml path; built-in ids need no check)")
    game, lay = _load(file)
    pins = f", {len(lay.pins)} pinned tile{'s' * (len(lay.pins) != 1)}" if lay.pins else ""
    if game == "desert":
        click.echo(f"ok: {file}: desert board {lay.id!r}, 5x5 with the storm in the centre{pins}")
        return
    for w in layout_warnings(lay):
        click.echo(f"warning: {file}: {w}", err=True)
    click.echo(f"ok: {file}: layout {lay.id!r}, 24 cells{pins}")
