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

from pathlib import Path

from ...desert.layouts import BUILTIN_LAYOUTS, PINNABLE, Layout, LayoutError, get_layout
from ...desert.tiles import CELLS, CENTRE, SIZE
from ..layout_files import layout_path, read_layout_file, read_pins

KEYS = ("game", "id", "name", "description", "shape", "pins")
STORM, TILE = "*", "Xx"


def load_board(ref: str, base: Path | None = None) -> Layout:
    """A built-in board id, or a board file path (relative to `base`)."""
    path = layout_path(ref, base)
    return get_layout(ref) if path is None else load_board_file(path)


def load_board_file(path: Path) -> Layout:
    """Parse and validate a board file; errors name the file, the line and the key."""
    data, fail, board_id = read_layout_file(path, KEYS, BUILTIN_LAYOUTS, "desert board")
    if data.get("game") != "desert":
        raise fail("is not a Forbidden Desert board: a board file says 'game: desert' (an island layout file "
                   "names no game)", key="game", at=("game",), **({"value": data["game"]} if "game" in data else {}))
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
    pins: dict[str, str] = {}
    for mark, tile in read_pins(data, marks, PINNABLE, fail, "a tile, e.g. {L: launch_pad}",
                                "a tile shuffled as usual").items():
        pins.update(dict.fromkeys(marks[mark], tile))
    try:
        return Layout(id=board_id, pins=pins, name=data.get("name", "") or board_id,
                      description=data.get("description", ""))
    except LayoutError as e:
        raise fail(str(e), key="pins", at=("pins",)) from None


def draw_board(layout: Layout, marks: dict[str, str] | None = None) -> str:
    """The board as text: the storm, the pinned tiles by a letter (`marks`, tile -> letter; default A, B, ...)
    listed below, 'X' the shuffled tiles."""
    letters = marks or {kind: chr(ord("A") + i) for i, kind in enumerate(dict.fromkeys(layout.pins.values()))}
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
