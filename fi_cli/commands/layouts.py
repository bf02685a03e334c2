"""`fi layouts`: list, draw, check, generate and design islands; list, draw and check desert boards."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .common import InputError, search_options

if TYPE_CHECKING:
    from ..desert.layouts import Layout as Board
    from ..island.layouts import Layout
    from ..sim.design import DesignResult, DesignSpec


@click.group(invoke_without_command=True)
@click.pass_context
def layouts(ctx: click.Context) -> None:
    """List the built-in islands and desert boards; draw one with its features (show), check layout files
    (check), generate random islands (generate) or design one to a target win rate (design).

    A desert board file says `game: desert` (see the README); an island layout file names no game.

    \b
    Examples:
      fi layouts
      fi layouts show skull_island
      fi layouts show configs/layouts/lagoon.yaml
      fi layouts check configs/layouts/lagoon.yaml
      fi layouts check configs/layouts/desert_far_pad.yaml
      fi layouts generate 200 --seed 7 --pin F=fools_landing --out generated/
      fi layouts design --target 0.30 --difficulty normal --players 4 --policy heuristic --out designed.yaml
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
    """Draw a built-in island or desert board, or a layout file, pinned tiles marked, and list an island's
    features.

    \b
    Features (computed from the cells and pins only; a step is a move to a cell sharing a side):
      coast, diameter, mean_distance, articulation (cells whose sinking splits the island), parts, and
      with pinned tiles: landing_to_centre, landing_to_<tile>, <treasure>_apart and their means.

    \b
    Examples:
      fi layouts show configs/layouts/lagoon.yaml
      fi layouts show configs/layouts/desert_far_pad.yaml
    """
    from ..sim.games.desert_boards import draw_board
    from ..sim.layout_files import draw_layout, file_pin_marks, layout_warnings, looks_like_file

    game, lay = _load(layout)
    marks = file_pin_marks(Path(layout)) if looks_like_file(layout) else None  # the file's own letters
    if game == "desert":
        click.echo(draw_board(lay, marks))
        return
    click.echo(draw_layout(lay, marks))
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
    """Validate layout files: an island (exactly 24 cells, valid and unique pins; a warning if it has parts)
    or a desert board (5x5, the storm in the centre, pins of tiles the game has).

    Exit code 0 when every file is valid (warnings included), 2 when one is not (each is named).

    \b
    Examples:
      fi layouts check configs/layouts/lagoon.yaml
      fi layouts check generated/*.yaml
      fi layouts check configs/layouts/desert_far_pad.yaml
    """
    from ..sim.layout_files import layout_warnings, looks_like_file

    bad = []
    for file in files:
        try:
            if not looks_like_file(file):
                raise InputError(f"{file}: not a layout file (give a .yaml path; built-in ids need no check)")
            game, lay = _load(file)
        except InputError as e:
            bad.append(e.message)
            continue
        pins = f", {len(lay.pins)} pinned tile{'s' * (len(lay.pins) != 1)}" if lay.pins else ""
        if game == "desert":
            click.echo(f"ok: {file}: desert board {lay.id!r}, 5x5 with the storm in the centre{pins}")
            continue
        for w in layout_warnings(lay):
            click.echo(f"warning: {file}: {w}", err=True)
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


def _compactness(text: str) -> float | tuple[float, float]:
    """`--compactness X` or `LOW..HIGH`; InputError when it is neither."""
    try:
        if ".." in text:
            low, high = (float(x) for x in text.split(".."))
            if 0 < low <= high:
                return low, high
        elif float(text) >= 0:
            return float(text)
    except ValueError:
        pass
    raise InputError(f"--compactness {text!r}: give a number >= 0 (e.g. 1) or a range LOW..HIGH with "
                     "0 < LOW <= HIGH (e.g. 0.5..8)")


@layouts.command()
@click.argument("n", type=click.IntRange(min=1))
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Seed: the same seed gives the same islands.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the layout files into (one <id>.yaml per island).")
@click.option("--pin", "pins", multiple=True, metavar="MARK=TILE",
              help="Pin TILE on a random cell of each island, drawn as MARK in its shape (repeatable).")
@click.option("--connected/--any", default=True, show_default=True,
              help="Islands in one part, or also in several (cells across a corner or a one-cell strait).")
@click.option("--compactness", default="1", show_default=True, metavar="X|LOW..HIGH",
              help="1: uniform growth; larger: rounder islands; smaller: thin, branching ones (0: trees); a range "
                   "LOW..HIGH draws each island's compactness log-uniformly in it.")
@click.option("--overwrite", is_flag=True, help="Remove the layout files already in --out first.")
def generate(n: int, seed: int, out: Path, pins: tuple[str, ...], connected: bool, compactness: str,
             overwrite: bool) -> None:
    """Write N random 24-cell islands, distinct up to rotation and reflection, as layout files.

    Each island grows from one cell, one cell at a time: a sea cell beside the island is drawn with weight
    COMPACTNESS ** (n - 1), n being the island cells it touches (see the README). Each file gets a
    readable name (e.g. "Misty Cove") and id; the same seed gives the same islands. A study then plays them
    all with `layout: {dir: FOLDER}`.

    \b
    Examples:
      fi layouts generate 200 --seed 7 --out generated/
      fi layouts generate 40 --seed 1 --compactness 0.5..8 --pin F=fools_landing --out gen/
    """
    import shlex

    from ..island.layout_features import layout_features
    from ..island.layout_generator import generate_layouts
    from ..island.layouts import LayoutError
    from ..sim.errors import os_error_text
    from ..sim.layout_files import layout_file_text

    marks = parse_pins(pins)
    knob = _compactness(compactness)
    try:
        islands = generate_layouts(n, seed, pins=list(marks), connected=connected, compactness=knob,
                                   description=f"Island {{index}} of {{n}} generated with seed {seed}, compactness "
                                               f"{{compactness}}, {'connected' if connected else 'any parts'}.")
    except LayoutError as e:
        raise InputError(str(e)) from None
    _clear_out(out, overwrite)
    pin_args = [x for t, m in marks.items() for x in ("--pin", f"{m}={t}")]
    command = shlex.join(["fi", "layouts", "generate", str(n), "--seed", str(seed), "--compactness", compactness,
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


@layouts.command()
@click.option("--target", type=click.FloatRange(0, 1, min_open=True, max_open=True), required=True,
              help="The win rate to design for, e.g. 0.30.")
@click.option("--difficulty", default="normal", show_default=True,
              help="novice | normal | elite | legendary, or a start level 1-9.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--policy", default="heuristic", show_default=True, help="The players' policy id.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE", help="A parameter of the policy, repeatable.")
@click.option("--budget", type=click.IntRange(min=1), default=30_000, show_default=True,
              help="Games the whole design may play, search and confirmation together.")
@click.option("--tolerance", type=click.FloatRange(0, 1, min_open=True), default=0.03, show_default=True,
              help="How near the target the confirmed win rate must be.")
@search_options
@click.option("--pin", "pins", multiple=True, metavar="MARK=TILE", help="Pin TILE on a cell of every candidate.")
@click.option("--connected/--any", default=True, show_default=True, help="Islands in one part, or in any.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The layout file to write the island into.")
@click.option("--overwrite", is_flag=True, help="Replace --out if it exists.")
def design(target: float, difficulty: str, players: int, policy: str, params: tuple[str, ...], budget: int,
           tolerance: float, confirm_games: int, screen: int | None, seed: int, pins: tuple[str, ...], connected: bool,
           workers: int | None, out: Path, overwrite: bool) -> None:
    """Search for an island whose win rate is within --tolerance of --target, and write it to --out.

    Brackets of 16 candidates (generated islands, and islands with one cell of the best so far moved) are
    screened with few games and halved, the half nearest the target playing twice the games, down to one.
    The best is confirmed on --confirm fresh games (seeds never used by the search); when the confirmed
    rate is within the tolerance the island is written with it. Every game seed comes from --seed, so the
    design is reproducible. Ctrl-C writes the best island so far. Exit code 0 when an island is confirmed
    within the tolerance, 1 when the budget ran out first (the nearest island is written all the same).

    \b
    Examples:
      fi layouts design --target 0.30 --difficulty normal --players 4 --policy heuristic --out designed.yaml
      fi layouts design --target 0.10 --difficulty elite --budget 20000 --seed 7 --out hard.yaml
    """
    import shlex

    from ..island.tiles import parse_difficulty
    from ..sim.design import DesignSpec
    from ..sim.games import door
    from .common import design_and_write, parse_rules

    if out.exists() and not overwrite:
        raise InputError(f"{out} exists; use --overwrite to replace it or give another --out")
    marks = parse_pins(pins)
    policy_params = parse_rules(params, "--param")
    try:
        level = parse_difficulty(difficulty)
        door("island").check_policy(policy, policy_params)
    except ValueError as e:
        raise InputError(str(e)) from None
    spec = DesignSpec(target=target, difficulty=level, players=players, policy=policy,
                      policy_params=policy_params, budget=budget, tolerance=tolerance,
                      confirm=confirm_games, screen=screen, seed=seed, pins=tuple(marks), connected=connected)
    command = shlex.join([
        "fi", "layouts", "design", "--target", f"{target:g}", "--difficulty", difficulty, "--players", str(players),
        "--policy", policy, *(x for p in params for x in ("--param", p)), "--budget", str(budget), "--tolerance",
        f"{tolerance:g}", "--confirm", str(confirm_games), *(["--screen", str(screen)] if screen else []),
        "--seed", str(seed),
        *(x for p in pins for x in ("--pin", p)), *([] if connected else ["--any"]), "--out", str(out)])
    click.echo(f"designing an island for a {100 * target:.1f}% win rate (±{100 * tolerance:.1f} points) at "
               f"{difficulty}, {players} players, {policy}; budget {budget:,} games, seed {seed}", err=True)
    design_and_write(spec, workers, lambda result: _write_design(result, spec, marks, out, command, difficulty))


def _write_design(result: DesignResult, spec: DesignSpec, marks: dict[str, str], out: Path, command: str,
                  difficulty: str) -> None:
    """Print the outcome of a design and write its island (if any) with the measurements as comments."""
    import dataclasses

    from .. import __version__
    from ..sim.errors import os_error_text
    from ..sim.layout_files import draw_layout, layout_file_text

    best = result.best
    if best is None:
        click.echo("stopped before any island was played; nothing written", err=True)
        return
    pct = f"{100 * spec.target:.1f}%"
    conf = best.confirmed
    setting = f"{difficulty}, {spec.players} players, {spec.policy}"
    lines = [f"Designed by: {command}",
             f"Target: {pct} ±{100 * spec.tolerance:.1f} points at {setting} (seed {spec.seed}).",
             f"Search: {100 * best.rate:.1f}% won in {best.games:,} search games ({best.origin})."]
    if conf:
        lo, hi = conf.interval
        lines.append(f"Confirmed: {100 * conf.rate:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%] (95% Wilson) won in "
                     f"{conf.games:,} fresh games, none of them played in the search (seed stream {conf.stream}): "
                     f"{'within' if result.found else 'outside'} the tolerance.")
    else:
        lines.append("Not confirmed: the design was stopped before a confirmation; the rate above is the search's "
                     "estimate, which favours islands that happened to come near the target.")
    lines.append(f"Budget: {result.games:,} of {spec.budget:,} games ({result.search_games:,} search in "
                 f"{result.brackets} bracket(s), {result.confirm_games:,} confirmation); fi {__version__}.")
    description = (f"Designed for {pct} at {setting}: " +
                   (f"{100 * conf.rate:.1f}% confirmed on {conf.games:,} games." if conf else "not confirmed."))
    layout = dataclasses.replace(best.layout, description=description)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(layout_file_text(layout, marks or None, comment="\n".join(lines)), encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write the island: {os_error_text(e, out)}") from None
    click.echo(draw_layout(layout))
    click.echo("")
    click.echo("\n".join(lines[1:]))
    state = "interrupted: the best island so far" if result.interrupted else \
        "found" if result.found else "budget spent without a confirmed island within the tolerance: the nearest"
    click.echo(f"{state}; written to {out}")
