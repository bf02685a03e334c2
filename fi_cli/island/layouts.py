"""Island layouts: a shape of 24 grid cells, optionally with tiles pinned to cells."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..common.choices import ChoiceError
from .tiles import TILE_INDEX, TILES

N_CELLS = len(TILES)


class LayoutError(ChoiceError):
    """A layout that is not a valid Forbidden Island shape."""


@dataclass(frozen=True)
class Layout:
    """A set of 24 grid cells (row, col), listed in reading order, and optional pins tile -> cell."""

    id: str
    cells: tuple[tuple[int, int], ...]
    pins: dict[str, tuple[int, int]] = field(default_factory=dict)
    name: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        cells = tuple(sorted(set(self.cells)))
        if len(cells) != len(self.cells):
            raise LayoutError(f"layout {self.id!r}: a cell is listed twice")
        if len(cells) != N_CELLS:
            raise LayoutError(f"layout {self.id!r} has {len(cells)} cells; a Forbidden Island layout has exactly 24")
        object.__setattr__(self, "cells", cells)
        seen: dict[tuple[int, int], str] = {}
        for tile, cell in self.pins.items():
            if tile not in TILE_INDEX:
                raise LayoutError(f"layout {self.id!r}: unknown pinned tile {tile!r}; tiles are: {', '.join(TILES)}")
            cell = (int(cell[0]), int(cell[1]))
            if cell not in cells:
                raise LayoutError(f"layout {self.id!r}: tile {tile!r} is pinned to {cell}, not a cell of the island")
            if cell in seen:
                raise LayoutError(f"layout {self.id!r}: {seen[cell]!r} and {tile!r} are pinned to the same cell {cell}")
            seen[cell] = tile
        object.__setattr__(self, "pins", {t: (int(c[0]), int(c[1])) for t, c in self.pins.items()})

    @classmethod
    def from_rows(cls, id: str, rows: list[str] | str, **kw) -> Layout:
        """Build from text rows: 'X' (or any tile mark) is a cell, '.' or ' ' is sea."""
        if isinstance(rows, str):
            rows = [r for r in (part.strip() for part in rows.replace("/", "\n").splitlines()) if r]
        cells = tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in ". ")
        return cls(id=id, cells=cells, **kw)

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1

    def rows(self) -> list[str]:
        """The shape as text rows, 'X' for a cell and '.' for sea."""
        cellset = set(self.cells)
        return ["".join("X" if (r, c) in cellset else "." for c in range(self.width)) for r in range(self.height)]

    def components(self) -> list[list[tuple[int, int]]]:
        """The orthogonally connected parts of the shape."""
        return parts_of(self.cells)


def parts_of(cells: Iterable[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The orthogonally connected parts of a set of cells, each sorted, in sorted order."""
    left = set(cells)
    parts = []
    while left:
        stack = [left.pop()]
        part = []
        while stack:
            r, c = stack.pop()
            part.append((r, c))
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n in left:
                    left.remove(n)
                    stack.append(n)
        parts.append(sorted(part))
    return sorted(parts)


_STANDARD = "..XX.. / .XXXX. / XXXXXX / XXXXXX / .XXXX. / ..XX.."
_BUILTIN_ROWS: dict[str, tuple[str, str]] = {
    "forbidden_island": ("Forbidden Island", _STANDARD),
    "treasure_island": ("Treasure Island", "XX...XX / .XXXXX. / ..XXX.. / ..XXX.. / .XXXXX. / XX...XX"),
    "island_of_shadows": ("Island of Shadows", "XXXXXX / XXXXXX / XXXXXX / XXXXXX"),
    "volcano_island": ("Volcano Island", "XXXXX / XXXXX / XX.XX / XXXXX / XXXXX"),
    "island_of_death": ("Island of Death", "..XXX.. / XXXXXXX / .XXXXX. / ..XXX.. / ..XXX.. / ..XXX.."),
    "bay_of_gulls": ("Bay of Gulls", "...XX... / ...XX... / X..XX..X / XXXXXXXX / .XXXXXX. / ...XX..."),
    "bone_island": ("Bone Island", ".XX..XX. / XXXXXXXX / XXXXXXXX / .XX..XX."),
    "coral_reef": ("Coral Reef", ".XX.... / XXXX... / XXXXXX. / .XXXXXX / ...XXXX / ....XX."),
    "skull_island": ("Skull Island", "XXXXXX / X.XX.X / XXXXXX / .XXXX. / .XXXX."),
    "bridge_of_horrors": ("Bridge of Horrors", "XXX...XXXX / XXXXXXXXXX / XXXX...XXX"),
    "atoll_of_decisions": (
        "Atoll of Decisions",
        "..XXX.. / .XX.XX. / XX...XX / X.....X / XX...XX / .XX.XX. / ..XXX..",
    ),
    "arch_of_fate": ("Arch of Fate", "...XXX... / ..XXXXX.. / .XXX.XXX. / XXX...XXX / XX.....XX"),
}

BUILTIN_LAYOUTS: dict[str, Layout] = {
    lid: Layout.from_rows(lid, rows, name=name, description=f"{name} (built-in)")
    for lid, (name, rows) in _BUILTIN_ROWS.items()
}
STANDARD_LAYOUT_ID = "forbidden_island"


def get_layout(layout_id: str) -> Layout:
    """A built-in layout by id; the error lists the ids there are."""
    try:
        return BUILTIN_LAYOUTS[layout_id]
    except KeyError:
        raise LayoutError(f"unknown layout {layout_id!r}", BUILTIN_LAYOUTS, "built-in layouts are") from None
