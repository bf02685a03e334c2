"""`fi layouts`: list, draw, check, generate and design islands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .common import InputError

if TYPE_CHECKING:
    from ..island.layouts import Layout


@click.group(invoke_without_command=True)
@click.pass_context
def layouts(ctx: click.Context) -> None:
    """List the built-in islands; draw one with its features (show), check layout files (check), generate
    random islands (generate) or design one to a target win rate (design).

    \b
    Examples:
      fi layouts
      fi layouts show skull_island
      fi layouts show configs/layouts/lagoon.yaml
      fi layouts check configs/layouts/lagoon.yaml
      fi layouts generate 200 --seed 7 --pin F=fools_landing --out generated/
      fi layouts design --target 0.30 --difficulty normal --players 4 --policy heuristic --out designed.yaml
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
    """Draw a built-in island or a layout file, pinned tiles marked, and list its features.

    \b
    Features (computed from the cells and pins only; a step is a move to a cell sharing a side):
      coast, diameter, mean_distance, articulation (cells whose sinking splits the island), parts, and
      with pinned tiles: landing_to_centre, landing_to_<tile>, <treasure>_apart and their means.

    \b
    Example:
      fi layouts show configs/layouts/lagoon.yaml
    """
    from ..sim.layout_files import draw_layout, layout_warnings

    lay = _load(layout)
    click.echo(draw_layout(lay))
    click.echo("\n" + features_text(lay))
    for w in layout_warnings(lay):
        click.echo(f"warning: {w}", err=True)


def features_text(lay: Layout) -> str:
    """The layout's features as aligned lines: name, value, what it is."""
    from ..island.layout_features import describe, layout_features

    feats = layout_features(lay)
    width = max(map(len, feats))
    lines = ["features:"]
    for name, value in feats.items():
        shown = "–" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)
        lines.append(f"  {name:<{width}}  {shown:>6}  {describe(name)}")
    return "\n".join(lines)


@layouts.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def check(files: tuple[str, ...]) -> None:
    """Validate layout files: exactly 24 cells, valid and unique pins; warn if an island has parts.

    Exit code 0 when every file is valid (warnings included), 2 when one is not (each is named).

    \b
    Examples:
      fi layouts check configs/layouts/lagoon.yaml
      fi layouts check generated/*.yaml
    """
    from ..sim.layout_files import layout_warnings, looks_like_file

    bad = []
    for file in files:
        try:
            if not looks_like_file(file):
                raise InputError(f"{file}: not a layout file (give a .yaml path; built-in ids need no check)")
            lay = _load(file)
        except InputError as e:
            bad.append(e.message)
            continue
        for w in layout_warnings(lay):
            click.echo(f"warning: {file}: {w}", err=True)
        pins = f", {len(lay.pins)} pinned tile{'s' * (len(lay.pins) != 1)}" if lay.pins else ""
        click.echo(f"ok: {file}: layout {lay.id!r}, 24 cells{pins}")
    if bad:
        raise InputError("\n".join(bad) if len(files) == 1 else
                         f"{len(bad)} of {len(files)} layout files are not valid:\n" + "\n".join(bad))


def parse_pins(pins: tuple[str, ...]) -> dict[str, str]:
    """`--pin MARK=TILE` options -> {tile: mark}; InputError naming the option that is wrong."""
    from ..island.tiles import TILES

    out: dict[str, str] = {}
    for pin in pins:
        mark, sep, tile = (x.strip() for x in pin.partition("="))
        if not sep or len(mark) != 1 or not mark.isalnum() or mark in "Xx":
            raise InputError(f"--pin {pin!r}: give MARK=TILE, MARK one letter or digit other than X (it marks the "
                             "tile's cell in the written shape), e.g. --pin F=fools_landing")
        if tile not in TILES:
            raise InputError(f"--pin {pin!r}: unknown tile {tile!r}; tiles are: {', '.join(TILES)}")
        if tile in out or mark in out.values():
            raise InputError(f"--pin {pin!r}: each tile and each mark can be pinned once")
        out[tile] = mark
    return out


def _clear_out(out: Path, overwrite: bool) -> None:
    """Make OUT ready for new layout files: refuse one holding layout files unless --overwrite removes them."""
    from ..sim.errors import os_error_text
    from ..sim.layout_files import LAYOUT_SUFFIXES

    try:
        out.mkdir(parents=True, exist_ok=True)
        old = sorted(p for p in out.iterdir() if p.suffix in LAYOUT_SUFFIXES)
        if old and not overwrite:
            raise InputError(f"{out} already holds {len(old)} layout file(s) (e.g. {old[0].name}); a study over the "
                             "folder would mix them with the new ones. Use another --out, or --overwrite to "
                             "replace them")
        for p in old:
            p.unlink()
    except OSError as e:
        raise InputError(f"cannot write the layout files: {os_error_text(e, out)}") from None


@layouts.command()
@click.argument("n", type=click.IntRange(min=1))
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Seed: the same seed gives the same islands.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the layout files into (one <id>.yaml per island).")
@click.option("--pin", "pins", multiple=True, metavar="MARK=TILE",
              help="Pin TILE on a random cell of each island, drawn as MARK in its shape (repeatable).")
@click.option("--connected/--any", default=True, show_default=True,
              help="Islands in one part, or also in several (cells across a corner or a one-cell strait).")
@click.option("--compactness", type=click.FloatRange(min=0), default=1.0, show_default=True,
              help="1: uniform growth; larger: rounder islands; smaller: thin, branching ones (0: trees).")
@click.option("--overwrite", is_flag=True, help="Remove the layout files already in --out first.")
def generate(n: int, seed: int, out: Path, pins: tuple[str, ...], connected: bool, compactness: float,
             overwrite: bool) -> None:
    """Write N random 24-cell islands, distinct up to rotation and reflection, as layout files.

    Each island grows from one cell, one cell at a time: a sea cell beside the island is drawn with weight
    COMPACTNESS ** (n - 1), n being the island cells it touches (see the README). Each file gets a
    readable name (e.g. "Misty Cove") and id; the same seed gives the same islands. A study then plays them
    all with `layout: {dir: FOLDER}`.

    \b
    Examples:
      fi layouts generate 200 --seed 7 --out generated/
      fi layouts generate 40 --seed 1 --compactness 3 --pin F=fools_landing --pin M=temple_of_the_moon --out gen/
    """
    import shlex

    from ..island.layout_features import layout_features
    from ..island.layout_generator import generate_layouts
    from ..island.layouts import LayoutError
    from ..sim.errors import os_error_text
    from ..sim.layout_files import layout_file_text

    marks = parse_pins(pins)
    try:
        islands = generate_layouts(n, seed, pins=list(marks), connected=connected, compactness=compactness,
                                   description=f"Island {{index}} of {{n}} generated with seed {seed}, compactness "
                                               f"{compactness:g}, {'connected' if connected else 'any parts'}.")
    except LayoutError as e:
        raise InputError(str(e)) from None
    _clear_out(out, overwrite)
    pin_args = [x for t, m in marks.items() for x in ("--pin", f"{m}={t}")]
    command = shlex.join(["fi", "layouts", "generate", str(n), "--seed", str(seed), "--compactness", f"{compactness:g}",
                          *pin_args, "--connected" if connected else "--any", "--out", str(out)])
    width = max(len(str(out / f"{lay.id}.yaml")) for lay in islands)
    for lay in islands:
        path = out / f"{lay.id}.yaml"
        try:
            path.write_text(layout_file_text(lay, marks, comment=f"Written by: {command}"), encoding="utf-8")
        except OSError as e:
            raise InputError(f"cannot write the layout files: {os_error_text(e, path)}") from None
        f = layout_features(lay)
        click.echo(f"{str(path):<{width}}  {lay.name:<22} coast {f['coast']:>2}, diameter {f['diameter']:>2}, "
                   f"articulation {f['articulation']:>2}, parts {f['parts']}")
    click.echo(f"wrote {n} islands to {out}; play them all with `layout: {{dir: {out}}}` in a study", err=True)
