"""Desert board files: the 5x5 desert drawn as text in YAML, tiles pinned to cells, parsed into a desert
`Layout`.

    game: desert                 # required: this is a Forbidden Desert board, not an island
    id: far_pad                  # optional; default: the file name without .yaml
    name: Launch Pad far from the Crash Site
    description: ...
    shape: |                     # 5 rows of 5 marks (spaces between them are ignored): '*' the storm (the
      C X X X X                  # centre), 'X' a tile shuffled as usual, any other mark a pinned tile
      X X X X X
      X X * X X
      X X X X X
      X X X X L
    pins:                        # mark -> the tile on its cells (a mark may stand on several cells:
      C: crash_site              # T: tunnel on three cells pins the three tunnels)
      L: launch_pad
"""

from __future__ import annotations

import re
from pathlib import Path

from ...desert.layouts import BUILTIN_LAYOUTS, PINNABLE, Layout, LayoutError, get_layout
from ...desert.tiles import CELLS, CENTRE, SIZE
from ..errors import LayoutFileError, line_of, read_yaml

KEYS = ("game", "id", "name", "description", "shape", "pins")
STORM, TILE = "*", "Xx"
_ID = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")


def looks_like_file(ref: str) -> bool:
    """A board reference that names a file rather than a built-in id."""
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def load_board(ref: str, base: Path | None = None) -> Layout:
    """A built-in board id, or a board file path (relative to `base`)."""
    if not looks_like_file(ref):
        return get_layout(ref)
    path = Path(ref)
    if not path.is_absolute() and base is not None:
        path = base / path
    return load_board_file(path)


def load_board_file(path: Path) -> Layout:
    """Parse and validate a board file; errors name the file, the line and the key."""
    data, lines = read_yaml(path, LayoutFileError)

    def fail(message: str, key: str | None = None, at: tuple = (), **kw) -> LayoutFileError:
        return LayoutFileError(message, file=path, key=key, line=line_of(lines, at) if at else None, **kw)

    if not isinstance(data, dict):
        raise fail("a desert board file is a mapping with the keys " + ", ".join(KEYS))
    if data.get("game") != "desert":
        raise fail("is not a Forbidden Desert board: a board file says 'game: desert' (an island layout file "
                   "names no game)", key="game", at=("game",), **({"value": data["game"]} if "game" in data else {}))
    for k in data:
        if k not in KEYS:
            raise fail("unknown key", key=str(k), at=(k,), allowed=", ".join(KEYS))
    board_id = data.get("id", path.stem.replace(" ", "_").lower())
    if not isinstance(board_id, str) or not _ID.match(board_id):
        raise fail("must be lower-case letters, digits, '_' or '-'", key="id", at=("id",), value=board_id)
    if board_id in BUILTIN_LAYOUTS:
        raise fail("is the id of a built-in board; choose another", key="id", at=("id",), value=board_id)
    for k in ("name", "description"):
        if not isinstance(data.get(k, ""), str):
            raise fail("must be text", key=k, at=(k,), value=data[k])
    rows = [r.replace(" ", "") for r in str(data.get("shape") or "").splitlines() if r.strip()]
    centre = f"{CELLS[CENTRE]} (row {CENTRE // SIZE}, column {CENTRE % SIZE})"
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise fail(f"draw the desert as {SIZE} rows of {SIZE} marks: '{STORM}' for the storm in the centre, 'X' for "
                   "a tile shuffled as usual, a letter for a pinned tile", key="shape", at=("shape",))
    marks: dict[str, list[str]] = {}
    for c, ch in enumerate("".join(rows)):
        if (ch == STORM) != (c == CENTRE):
            raise fail(f"the storm '{STORM}' stands on the centre cell {centre}, and only there", key="shape",
                       at=("shape",))
        if ch != STORM and ch not in TILE:
            marks.setdefault(ch, []).append(CELLS[c])
    pins_in = data.get("pins") or {}
    if not isinstance(pins_in, dict):
        raise fail("must map a mark in the shape to a tile, e.g. {L: launch_pad}", key="pins", at=("pins",),
                   value=pins_in)
    pins: dict[str, str] = {}
    for mark, tile in pins_in.items():
        at = ("pins", mark)
        if str(mark) not in marks:
            raise fail("is not a mark drawn in the shape", key=f"pins.{mark}", at=at, value=mark,
                       allowed=", ".join(sorted(marks)) or "(no marks in the shape)")
        if tile not in PINNABLE:
            raise fail("unknown tile", key=f"pins.{mark}", at=at, value=tile, allowed=", ".join(PINNABLE))
        pins.update(dict.fromkeys(marks[str(mark)], tile))
    unused = sorted(set(marks) - {str(m) for m in pins_in})
    if unused:
        raise fail(f"mark {unused[0]!r} in the shape has no entry in pins (use 'X' for a tile shuffled as usual)",
                   key="shape", at=("shape",))
    try:
        return Layout(id=board_id, pins=pins, name=data.get("name", "") or board_id,
                      description=data.get("description", ""))
    except LayoutError as e:
        raise fail(str(e), key="pins", at=("pins",)) from None


def draw_board(layout: Layout) -> str:
    """The board as text: the storm, the pinned tiles by a letter (listed below), 'X' the shuffled tiles."""
    letters = {kind: chr(ord("A") + i) for i, kind in enumerate(dict.fromkeys(layout.pins.values()))}
    grid = ["X"] * (SIZE * SIZE)
    grid[CENTRE] = STORM
    for cell, kind in layout.pins.items():
        grid[CELLS.index(cell)] = letters[kind]
    lines = [f"{layout.id}: {layout.name}" if layout.name and layout.name != layout.id else layout.id]
    if layout.description:
        lines.append(layout.description)
    lines += ["", *("  " + " ".join(grid[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))]
    if letters:
        lines += ["", "pinned tiles:", *(f"  {m} = {kind}" for kind, m in letters.items())]
    else:
        lines += ["", "no tile pinned: all 24 shuffled, as the rules set up the desert"]
    return "\n".join(lines)
