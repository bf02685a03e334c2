"""A layout with its tiles placed: adjacency tables by tile index, shared by all copies of a game."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .layouts import Layout
from .rules import Rules
from .tiles import TILES

_ORTH: Final = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAG: Final = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_N: Final = len(TILES)


@lru_cache(maxsize=256)
def _cell_tables(cells: tuple[tuple[int, int], ...], through_sea: bool) -> tuple[tuple, tuple, tuple]:
    """Neighbour tables by cell index (0..23 = the layout's cells), computed once per shape.

    Nodes from 24 up are the sea cells inside the layout's bounding box, present only when the Diver may
    cross the sea (rules section 8: the open sea beyond the box is never crossed).
    """
    node_at = {cell: i for i, cell in enumerate(cells)}
    if through_sea:
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        for r in range(min(rows), max(rows) + 1):
            for c in range(min(cols), max(cols) + 1):
                node_at.setdefault((r, c), len(node_at))

    def near(cell: tuple[int, int], steps, nodes: dict) -> tuple[int, ...]:
        r, c = cell
        return tuple(nodes[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in nodes)

    tiles_only = {cell: i for i, cell in enumerate(cells)}
    orth = tuple(near(cell, _ORTH, tiles_only) for cell in cells)
    around = tuple(near(cell, _ORTH + _DIAG, tiles_only) for cell in cells)
    dive = tuple(near(cell, _ORTH, node_at) for cell in sorted(node_at, key=node_at.__getitem__))
    return orth, around, dive


class Board:
    """Tile placement on a layout plus neighbour tables by tile index.

    ``orth``/``around`` list a tile's orthogonal / all eight neighbours; ``dive`` lists node neighbours for
    the Diver's chains (tiles 0..23, then open-sea nodes under variant ``diver_through_sea``). The board is
    shared by every copy of a game, so it also caches what only depends on pawns and sunk tiles.
    """

    __slots__ = ("layout", "cell_of", "tile_at", "orth", "around", "dive", "moves_cache")

    def __init__(self, layout: Layout, placement: tuple[int, ...], rules: Rules) -> None:
        # placement[i] = the tile on layout.cells[i]
        orth, around, dive = _cell_tables(layout.cells, rules.diver_through_sea)
        cell_index = [0] * _N
        for i, tile in enumerate(placement):
            cell_index[tile] = i
        self.layout = layout
        self.cell_of = tuple(layout.cells[i] for i in cell_index)
        self.tile_at = dict(zip(layout.cells, placement, strict=True))
        self.orth = tuple(tuple(placement[j] for j in orth[i]) for i in cell_index)
        self.around = tuple(tuple(placement[j] for j in around[i]) for i in cell_index)
        node = list(placement) + list(range(_N, len(dive)))  # cell/sea index -> node id
        self.dive = tuple(tuple(node[j] for j in dive[i]) for i in cell_index + list(range(_N, len(dive))))
        # actions that depend only on pawns and sunk tiles: Helicopter Lifts by (holder, pawn tiles, sunk
        # tiles) and by (holder, group tile, group, sunk tiles); Navigator moves by (NAVIGATE, ..., sunk tiles)
        self.moves_cache: dict = {}

    @property
    def placement(self) -> tuple[int, ...]:
        """Tile index on each layout cell, in the layout's cell order."""
        return tuple(self.tile_at[cell] for cell in self.layout.cells)
