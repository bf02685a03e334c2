"""`fi layouts`: list, draw and check islands."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .common import InputError

if TYPE_CHECKING:
    from ..island.layouts import Layout


@click.group(invoke_without_command=True)
@click.pass_context
def layouts(ctx: click.Context) -> None:
    """List the built-in islands; draw one (show) or check a layout file (check).

    \b
    Examples:
      fi layouts
      fi layouts show skull_island
      fi layouts show configs/layouts/lagoon.yaml
      fi layouts check configs/layouts/lagoon.yaml
    """
    if ctx.invoked_subcommand is None:
        from ..island.layouts import BUILTIN_LAYOUTS

        width = max(len(i) for i in BUILTIN_LAYOUTS)
        for lid, layout in BUILTIN_LAYOUTS.items():
            size = f"{layout.width}x{layout.height}"
            click.echo(f"{lid:<{width}}  {size:>5}  {' / '.join(layout.rows())}")


def _load(ref: str) -> Layout:
    from ..island.layouts import LayoutError
    from ..sim.errors import ConfigError
    from ..sim.layout_files import load_layout

    try:
        return load_layout(ref)
    except (ConfigError, LayoutError) as e:
        raise InputError(str(e)) from None


@layouts.command()
@click.argument("layout", metavar="ID|FILE")
def show(layout: str) -> None:
    """Draw a built-in island or a layout file, pinned tiles marked."""
    from ..sim.layout_files import draw_layout, layout_warnings

    lay = _load(layout)
    click.echo(draw_layout(lay))
    for w in layout_warnings(lay):
        click.echo(f"warning: {w}", err=True)


@layouts.command()
@click.argument("file", type=click.Path(dir_okay=False))
def check(file: str) -> None:
    """Validate a layout file: exactly 24 cells, valid and unique pins; warn if the island has parts.

    Exit code 0 when valid (warnings included), 2 when not.
    """
    from ..sim.layout_files import layout_warnings, looks_like_file

    if not looks_like_file(file):
        raise InputError(f"{file}: not a layout file (give a .yaml path; built-in ids need no check)")
    lay = _load(file)
    for w in layout_warnings(lay):
        click.echo(f"warning: {file}: {w}", err=True)
    pins = f", {len(lay.pins)} pinned tile{'s' * (len(lay.pins) != 1)}" if lay.pins else ""
    click.echo(f"ok: {file}: layout {lay.id!r}, 24 cells{pins}")
