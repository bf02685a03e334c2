"""Layout files: a user's island drawn as text in YAML, parsed into an engine `Layout`.

    id: lagoon_ring              # optional; default: the file name without .yaml
    name: Lagoon Ring
    description: A ring of tiles around a lagoon.
    shape: |                     # 24 cells; '.' or ' ' is sea, 'X' a cell, any other mark a pinned cell
      ..XFX..
      .XX.XX.
      ...
    pins:                        # optional: mark in the shape -> the tile pinned on that cell
      F: fools_landing
"""

from __future__ import annotations

import glob
import json
import re
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from ..island.layouts import BUILTIN_LAYOUTS, N_CELLS, Layout, LayoutError, get_layout
from ..island.tiles import TILES
from .errors import LayoutFileError, line_of, read_yaml

KEYS = ("id", "name", "description", "shape", "pins")
SEA = ". "
CELL = "Xx"
_ID = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")


def looks_like_file(ref: str) -> bool:
    """A layout reference that names a file rather than a built-in id."""
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def layout_path(ref: str, base: Path | None) -> Path | None:
    """The file a layout reference names (relative to `base`), or None for a built-in id."""
    if not looks_like_file(ref):
        return None
    path = Path(ref)
    return base / path if not path.is_absolute() and base is not None else path


LAYOUT_SET_KEYS = ("dir", "glob")
LAYOUT_SUFFIXES = (".yaml", ".yml")


def is_layout_set(value: object) -> bool:
    """A study's `layout: {dir: FOLDER}` or `{glob: PATTERN}`: many layout files at once."""
    return isinstance(value, dict)


def check_layout_set(value: dict) -> None:
    """ValueError unless `value` is {dir: FOLDER} or {glob: PATTERN} (one key, a non-empty text)."""
    (kind, where), = value.items() if len(value) == 1 else [(None, None)]
    if kind not in LAYOUT_SET_KEYS or not isinstance(where, str) or not where.strip():
        raise ValueError("a set of layout files is written {dir: FOLDER} (every .yaml file in it) or "
                         "{glob: PATTERN} (e.g. {glob: \"generated/*.yaml\"}), relative to the study file")


def layout_set_files(value: dict, base: Path) -> list[str]:
    """The files of a layout set, sorted, as references relative to `base` (what load_layout takes);
    ValueError naming the folder or pattern when it holds no layout file."""
    check_layout_set(value)
    (kind, where), = value.items()
    if kind == "dir":
        folder = base / where
        if not folder.is_dir():
            raise ValueError(f"folder {where!r} {'is not a folder' if folder.exists() else 'does not exist'} "
                             f"(looked for {folder})")
        found = [str(Path(where) / p.name) for p in folder.iterdir()]
        what = f"folder {where!r} holds"
    else:
        found = glob.glob(where, root_dir=base)
        what = f"pattern {where!r} matches"
    files = sorted(f for f in found if f.endswith(LAYOUT_SUFFIXES) and (base / f).is_file())
    if not files:
        raise ValueError(f"{what} no layout file (*.yaml or *.yml), looking from {base}")
    return files


def load_layout(ref: str, base: Path | None = None) -> Layout:
    """A built-in layout id, or a layout file path (relative to `base`)."""
    path = layout_path(ref, base)
    return get_layout(ref) if path is None else load_layout_file(path)


Fail = Callable[..., LayoutFileError]


def read_pins(data: dict, marks: Collection[str], tiles: Collection[str], fail: Fail, example: str, plain: str
              ) -> dict[str, str]:
    """The `pins:` of a layout file (of either game), {mark: tile}: each mark drawn in the shape, each tile one of
    `tiles`, and every mark drawn pinned (`example` shows a pin, `plain` says what an 'X' is)."""
    pins = data.get("pins") or {}
    if not isinstance(pins, dict):
        raise fail(f"must map a mark in the shape to {example}", key="pins", at=("pins",), value=pins)
    for mark, tile in pins.items():
        at = ("pins", mark)
        if str(mark) not in marks:
            raise fail("is not a mark drawn in the shape", key=f"pins.{mark}", at=at, value=mark,
                       allowed=", ".join(sorted(marks)) or "(no marks in the shape)")
        if tile not in tiles:
            raise fail("unknown tile", key=f"pins.{mark}", at=at, value=tile, allowed=", ".join(tiles))
    unused = sorted(set(marks) - {str(m) for m in pins})
    if unused:
        raise fail(f"mark {unused[0]!r} in the shape has no entry in pins (use 'X' for {plain})",
                   key="shape", at=("shape",))
    return {str(m): t for m, t in pins.items()}


def read_layout_file(path: Path, keys: tuple[str, ...], builtin: Iterable[str], what: str
                     ) -> tuple[dict, Fail, str]:
    """Read a layout file (of either game) and check what every one has: a mapping of known `keys`, an id (the
    file name unless given) that is no `builtin` one, a text name and description. Returns the data, a
    `fail(message, key, at, **kw)` naming the file and the line of `at`, and the id."""
    data, lines = read_yaml(path, LayoutFileError)

    def fail(message: str, key: str | None = None, at: tuple = (), **kw) -> LayoutFileError:
        return LayoutFileError(message, file=path, key=key, line=line_of(lines, at) if at else None, **kw)

    if not isinstance(data, dict):
        raise fail(f"a {what} file is a mapping with the keys " + ", ".join(keys))
    for k in data:
        if k not in keys:
            raise fail("unknown key", key=str(k), at=(k,), allowed=", ".join(keys))
    if "id" in data:
        layout_id = data["id"]
        if not isinstance(layout_id, str) or not _ID.match(layout_id):
            raise fail("must be lower-case letters, digits, '_' or '-'", key="id", at=("id",), value=layout_id)
        if layout_id in builtin:
            raise fail(f"is the id of a built-in {what}; choose another", key="id", at=("id",), value=layout_id)
    else:  # the id is made from the file name: say so, since the file shows no id to correct
        layout_id = path.stem.replace(" ", "_").lower()
        why = ("is not lower-case letters, digits, '_' or '-'" if not _ID.match(layout_id)
               else f"is the id of a built-in {what}" if layout_id in builtin else "")
        if why:
            raise fail(f"the file gives no id, and the one made from its name ({path.name!r} -> {layout_id!r}) "
                       f"{why}; rename the file or give an id with a line such as 'id: my_{what.split()[-1]}'")
    for k in ("name", "description"):
        if not isinstance(data.get(k, ""), str):
            raise fail("must be text", key=k, at=(k,), value=data[k])
    return data, fail, layout_id


def load_layout_file(path: Path) -> Layout:
    """Parse and validate a layout file; errors name the file, the line and the key."""
    data, fail, layout_id = read_layout_file(path, KEYS, BUILTIN_LAYOUTS, "layout")
    shape = data.get("shape")
    if not isinstance(shape, str) or not shape.strip():
        raise fail("missing: draw the island as text rows, '.' for sea and 'X' for a cell", key="shape",
                    at=("shape",))
    rows = [r.rstrip() for r in shape.splitlines()]
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    marks: dict[str, tuple[int, int]] = {}
    cells = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in SEA:
                continue
            cells.append((r, c))
            if ch not in CELL:
                if ch in marks:
                    raise fail(f"pin mark {ch!r} is used on more than one cell ({marks[ch]} and {(r, c)})",
                               key="shape", at=("shape",))
                marks[ch] = (r, c)
    if len(cells) != N_CELLS:
        raise fail(f"the island has {len(cells)} cells; a Forbidden Island layout has exactly {N_CELLS}",
                   key="shape", at=("shape",))
    # Leading sea rows/columns carry no meaning: shift the island to row 0, column 0.
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    cells = [(r - r0, c - c0) for r, c in cells]
    marks = {m: (r - r0, c - c0) for m, (r, c) in marks.items()}
    pins: dict[str, tuple[int, int]] = {}
    for mark, tile in read_pins(data, marks, TILES, fail, "a tile id, e.g. {F: fools_landing}", "a plain cell").items():
        if tile in pins:
            raise fail("tile is pinned twice", key=f"pins.{mark}", at=("pins", mark), value=tile)
        pins[tile] = marks[mark]
    try:
        return Layout(id=layout_id, cells=tuple(cells), pins=pins, name=data.get("name", "") or layout_id,
                      description=data.get("description", ""))
    except LayoutError as e:
        raise fail(str(e)) from None


def layout_warnings(layout: Layout) -> list[str]:
    """Legal but suspicious features of a layout."""
    parts = layout.components()
    if len(parts) > 1:
        sizes = ", ".join(str(len(p)) for p in parts)
        return [f"the island is in {len(parts)} parts ({sizes} cells): only the Pilot's flight and Helicopter "
                "Lifts (and the Diver, with the rule variant diver_through_sea) can cross between them"]
    return []


def pin_marks(layout: Layout) -> dict[str, str]:
    """A letter for each pinned tile (A, B, ... in reading order of their cells; never X, which means a cell)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWYZ"
    return {tile: letters[i] for i, (tile, _) in enumerate(sorted(layout.pins.items(), key=lambda kv: kv[1]))}


def _marked_rows(layout: Layout, marks: dict[str, str]) -> list[str]:
    grid = [list(row) for row in layout.rows()]
    for tile, (r, c) in layout.pins.items():
        grid[r][c] = marks[tile]
    return ["".join(row) for row in grid]


def file_pin_marks(path: Path) -> dict[str, str]:
    """{tile: the mark the file draws it with} of a valid layout or board file (so a drawing keeps them)."""
    pins = read_yaml(path, LayoutFileError)[0].get("pins") or {}
    return {tile: str(mark) for mark, tile in pins.items()}


def draw_layout(layout: Layout, marks: dict[str, str] | None = None) -> str:
    """The shape as text, pinned cells marked with letters (`marks`, default: pin_marks) and listed below."""
    marks = marks or pin_marks(layout)
    grid = _marked_rows(layout, marks)
    legend = [f"  {marks[tile]} = {tile}" for tile, _ in sorted(layout.pins.items(), key=lambda kv: kv[1])]
    lines = [f"{layout.id}: {layout.name}" if layout.name and layout.name != layout.id else layout.id]
    if layout.description:
        lines.append(layout.description)
    lines.append("")
    lines += ["  " + " ".join(row) for row in grid]
    if legend:
        lines += ["", "pinned tiles:", *legend]
    return "\n".join(lines)


def layout_file_text(layout: Layout, marks: dict[str, str] | None = None, comment: str = "") -> str:
    """The layout as a layout file that `load_layout_file` reads back as the same layout. `marks`: the
    character drawn on each pinned tile's cell (default: pin_marks); `comment`: lines put on top as # comments."""
    marks = marks or pin_marks(layout)
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines += [f"id: {layout.id}", f"name: {json.dumps(layout.name)}"]
    if layout.description:
        lines.append(f"description: {json.dumps(layout.description)}")
    lines += ["shape: |", *(f"  {row}" for row in _marked_rows(layout, marks))]
    if layout.pins:
        lines += ["pins:", *(f"  {json.dumps(marks[t])}: {t}" for t, _ in sorted(layout.pins.items(),
                                                                               key=lambda kv: kv[1]))]
    return "\n".join(lines) + "\n"


def layout_to_dict(layout: Layout) -> dict:
    """A JSON-able form that `layout_from_dict` reads back (used by run manifests)."""
    return {
        "id": layout.id,
        "name": layout.name,
        "description": layout.description,
        "rows": layout.rows(),
        "cells": [list(c) for c in layout.cells],
        "pins": {t: list(c) for t, c in sorted(layout.pins.items())},
    }


def layout_from_dict(d: dict) -> Layout:
    pins = {t: tuple(c) for t, c in d["pins"].items()}
    cells = tuple(tuple(c) for c in d["cells"])
    return Layout(id=d["id"], cells=cells, pins=pins, name=d["name"], description=d["description"])
