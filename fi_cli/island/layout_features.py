"""Layout features: numbers that describe an island's shape and where its pinned tiles lie.

They depend only on the layout's cells and pins (not on a game), so they are computed once per layout.
A *step* is a move to an orthogonally adjacent cell of the island (how most pawns walk); a distance in steps
is the shortest walk through the island's cells, and is None between cells in different parts.

    coast              cells with at least one side on the sea (inner lagoons are sea too)
    diameter           the longest of the shortest walks between two cells (within a part)
    mean_distance      the mean shortest walk over all pairs of cells in the same part
    articulation       cells whose sinking splits their part in two or more (bottlenecks)
    parts              orthogonally connected parts of the island
    landing_to_centre  straight-line distance, in cell widths, from Fools' Landing to the centroid of the
                       island's cells (when Fools' Landing is pinned): 0 in the middle, large on a far edge
    landing_to_<tile>  steps from Fools' Landing to each pinned treasure tile (both pinned)
    <treasure>_apart   steps between the two tiles of a treasure (both pinned)
    landing_to_treasure_tiles, treasure_tiles_apart
                       the means of the two families above over the pairs that can be walked
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable

from .layouts import Layout, parts_of
from .tiles import TILES, TREASURE_TILES, TREASURES

Cell = tuple[int, int]
Value = int | float | None

# The features every layout has, with a short description (shown by `fi layouts show` and the report).
SHAPE_FEATURES: dict[str, str] = {
    "coast": "cells with a side on the sea",
    "diameter": "longest shortest walk between two cells, in steps",
    "mean_distance": "mean shortest walk between two cells, in steps",
    "articulation": "cells whose sinking splits the island",
    "parts": "orthogonally connected parts",
}
# Features of pinned tiles, when they are pinned (means over the walkable pairs).
PIN_FEATURES: dict[str, str] = {
    "landing_to_centre": "Fools' Landing to the island's centroid, in cell widths",
    "landing_to_treasure_tiles": "mean steps from Fools' Landing to a pinned treasure tile",
    "treasure_tiles_apart": "mean steps between the two pinned tiles of a treasure",
}
FEATURE_NOTES: dict[str, str] = SHAPE_FEATURES | PIN_FEATURES


def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)


def steps_from(start: Cell, cells: Iterable[Cell]) -> dict[Cell, int]:
    """Shortest walk (in steps) from `start` to every cell reachable from it."""
    cellset = set(cells)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for n in _neighbours(cell):
            if n in cellset and n not in dist:
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist


def coast_cells(cells: Iterable[Cell]) -> list[Cell]:
    cellset = set(cells)
    return sorted(c for c in cellset if any(n not in cellset for n in _neighbours(c)))


def articulation_cells(cells: Iterable[Cell]) -> list[Cell]:
    """Cells whose removal leaves more parts than there were (24 cells: trying each one is instant)."""
    cellset = set(cells)
    before = len(parts_of(cellset))
    return sorted(c for c in cellset if len(parts_of(cellset - {c})) > before)


def _mean(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None


def layout_features(layout: Layout) -> dict[str, Value]:
    """The features of a layout, by name, in a fixed order (see the module docstring)."""
    cells = layout.cells
    walks = {c: steps_from(c, cells) for c in cells}
    pair_steps = [d for a, dist in walks.items() for b, d in dist.items() if a < b]
    out: dict[str, Value] = {
        "coast": len(coast_cells(cells)),
        "diameter": max(pair_steps, default=0),
        "mean_distance": _mean(pair_steps) or 0.0,
        "articulation": len(articulation_cells(cells)),
        "parts": len(parts_of(cells)),
    }
    pins = layout.pins
    landing = pins.get(TILES[0])
    treasure_tiles = [TILES[i] for pair in TREASURE_TILES for i in pair if TILES[i] in pins]
    if landing is not None:
        centre = (sum(r for r, _ in cells) / len(cells), sum(c for _, c in cells) / len(cells))
        out["landing_to_centre"] = math.dist(landing, centre)
        to_tiles = {t: walks[landing].get(pins[t]) for t in treasure_tiles}
        if to_tiles:
            out["landing_to_treasure_tiles"] = _mean([d for d in to_tiles.values() if d is not None])
        out |= {f"landing_to_{t}": d for t, d in to_tiles.items()}
    apart = {}
    for treasure, (a, b) in zip(TREASURES, TREASURE_TILES, strict=True):
        if TILES[a] in pins and TILES[b] in pins:
            apart[f"{treasure}_apart"] = walks[pins[TILES[a]]].get(pins[TILES[b]])
    if apart:
        out["treasure_tiles_apart"] = _mean([d for d in apart.values() if d is not None])
        out |= apart
    return out


def describe(name: str) -> str:
    """A short description of any feature name `layout_features` makes."""
    if name in FEATURE_NOTES:
        return FEATURE_NOTES[name]
    if name.startswith("landing_to_"):
        return f"steps from Fools' Landing to {name.removeprefix('landing_to_').replace('_', ' ')}"
    if name.endswith("_apart"):
        return f"steps between the two tiles of the {name.removesuffix('_apart').replace('_', ' ')}"
    return name
