"""A layout with its tiles placed: adjacency tables computed once per game and shared by all copies."""

from __future__ import annotations

from .layouts import Layout
from .rules import Rules
from .tiles import TILES

_ORTH = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))


class Board:
    """Tile placement on a layout plus neighbour tables by tile index.

    Nodes 0..23 are the tiles; nodes from 24 up are open-sea cells, present only when the Diver may cross
    the sea (variant ``diver_through_sea``). ``orth``/``around`` list tile neighbours; ``dive`` lists node
    neighbours for the Diver's chains.
    """

    __slots__ = ("layout", "cell_of", "tile_at", "orth", "around", "dive", "n_nodes")

    def __init__(self, layout: Layout, placement: tuple[int, ...], rules: Rules) -> None:
        # placement[i] = tile index on layout.cells[i]
        self.layout = layout
        cell_of: list[tuple[int, int]] = [(0, 0)] * len(TILES)
        for cell, tile in zip(layout.cells, placement, strict=True):
            cell_of[tile] = cell
        self.cell_of = tuple(cell_of)
        self.tile_at = {cell: tile for tile, cell in enumerate(cell_of)}
        self.orth = tuple(self._neighbours(c, _ORTH) for c in cell_of)
        self.around = tuple(self._neighbours(c, _ORTH + _DIAG) for c in cell_of)
        node_at = dict(self.tile_at)
        if rules.diver_through_sea:
            rows = range(-1, layout.height + 1)
            cols = range(-1, layout.width + 1)
            for r in rows:
                for c in cols:
                    if (r, c) not in node_at:
                        node_at[(r, c)] = len(node_at)
        cells = sorted(node_at, key=node_at.get)
        self.n_nodes = len(cells)
        self.dive = tuple(
            tuple(node_at[(r + dr, c + dc)] for dr, dc in _ORTH if (r + dr, c + dc) in node_at) for r, c in cells
        )

    def _neighbours(self, cell: tuple[int, int], steps) -> tuple[int, ...]:
        r, c = cell
        return tuple(sorted(self.tile_at[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in self.tile_at))

    @property
    def placement(self) -> tuple[int, ...]:
        """Tile index on each layout cell, in the layout's cell order."""
        return tuple(self.tile_at[cell] for cell in self.layout.cells)
