"""Desert boards: the 5x5 grid with the storm in the centre, and optionally tiles pinned to cells.

The rules shuffle all 24 tiles. A designer may fix some of them instead (the Launch Pad far from the Crash
Site, the wells at the edge): a pinned tile lies on its cell in every game and, since the board is public,
the team knows what it is from the start (it is excavated as usual). The other tiles are shuffled over the
free cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..common.choices import ChoiceError
from .tiles import CELL_INDEX, CENTRE, KINDS, SIZE, TILE_COUNTS

STANDARD_ID = "forbidden_desert"
PINNABLE: tuple[str, ...] = KINDS[: len(TILE_COUNTS)]  # the undersides; not the two desert-side looks


class LayoutError(ChoiceError):
    """A board that is not a valid Forbidden Desert board."""


@dataclass(frozen=True)
class Layout:
    """The board: ``pins`` maps a cell (``r0c0``) to the tile fixed on it (``launch_pad``, ``well``, ...)."""

    id: str = STANDARD_ID
    pins: dict[str, str] = field(default_factory=dict)
    name: str = "Forbidden Desert"
    description: str = ""

    def __post_init__(self) -> None:
        for cell, kind in self.pins.items():
            if cell not in CELL_INDEX:
                raise LayoutError(f"board {self.id!r}: {cell!r} is not a cell; cells are r0c0 to "
                                  f"r{SIZE - 1}c{SIZE - 1}")
            if CELL_INDEX[cell] == CENTRE:
                raise LayoutError(f"board {self.id!r}: {cell} is the storm's cell, no tile lies there at the start")
            if kind not in PINNABLE:
                raise LayoutError(f"board {self.id!r}: unknown tile {kind!r} on {cell}; tiles are: "
                                  f"{', '.join(PINNABLE)}")
        for kind in set(self.pins.values()):
            n = list(self.pins.values()).count(kind)
            if n > TILE_COUNTS[KINDS.index(kind)]:
                raise LayoutError(f"board {self.id!r}: {kind} is pinned to {n} cells, but the game has "
                                  f"{TILE_COUNTS[KINDS.index(kind)]} such tile(s)")
        object.__setattr__(self, "pins", {c: self.pins[c] for c in sorted(self.pins, key=CELL_INDEX.__getitem__)})

    def pinned_cells(self) -> dict[int, int]:
        """Cell index -> kind index of each pinned tile."""
        return {CELL_INDEX[c]: KINDS.index(k) for c, k in self.pins.items()}

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "description": self.description, "pins": dict(self.pins)}

    @classmethod
    def from_dict(cls, d: dict) -> Layout:
        return cls(id=d["id"], pins=dict(d.get("pins", {})), name=d.get("name", ""),
                   description=d.get("description", ""))


STANDARD = Layout(description="The rules' board: every tile shuffled, the storm in the centre.")
BUILTIN_LAYOUTS: dict[str, Layout] = {STANDARD.id: STANDARD}


def get_layout(layout_id: str) -> Layout:
    try:
        return BUILTIN_LAYOUTS[layout_id]
    except KeyError:
        raise LayoutError(f"unknown desert board {layout_id!r}", BUILTIN_LAYOUTS, "built-in") from None
