"""Random islands: 24-cell shapes grown cell by cell, distinct up to rotation and reflection, with names.

The distribution (what `fi layouts generate` draws from): an island starts as one cell and grows one cell
at a time. Every sea cell beside the island (sharing a side with it) is a candidate, weighted
``compactness ** (n - 1)`` where n is the number of island cells it touches (1 to 4), and one candidate is
drawn in proportion to its weight. ``compactness = 1`` grows uniformly from the coast (Eden growth);
larger values favour cells that fill bays, giving rounder, more compact islands; smaller values favour thin,
branching shapes, and 0 grows a tree (no cell ever closes a loop). A range (low, high) draws each island's
compactness log-uniformly between the two, for a varied set of islands. With ``connected=False`` a sea cell that
touches the island only at a corner, or across a one-cell strait, is a candidate too, with weight
GAP_WEIGHT, so islands may come in several parts. Pinned tiles go on distinct cells drawn uniformly.

Every draw comes from one generator seeded by the seed, in order, so the same seed gives the same islands
(and the first k of N islands are the k islands asked for with N = k).
"""

from __future__ import annotations

import numpy as np

from .layout_features import articulation_cells
from .layouts import BUILTIN_LAYOUTS, N_CELLS, Layout, LayoutError

Cell = tuple[int, int]
GAP_WEIGHT = 0.2
MAX_TRIES_PER_ISLAND = 200  # draws allowed per distinct island asked for, before giving up

ADJECTIVES = (
    "Amber", "Ashen", "Azure", "Bleak", "Broken", "Copper", "Crooked", "Drowned", "Dusky", "Ember", "Fading",
    "Foggy", "Gilded", "Glass", "Golden", "Granite", "Hidden", "Hollow", "Iron", "Ivory", "Jade", "Lonely",
    "Lost", "Misty", "Moonlit", "Mossy", "Ochre", "Pale", "Quiet", "Restless", "Rusty", "Salt", "Scarlet",
    "Shifting", "Silent", "Silver", "Sleeping", "Stormy", "Sunken", "Tangled", "Thorny", "Twisted", "Velvet",
    "Whispering", "Wild", "Windy", "Withered", "Wandering",
)
NOUNS = (
    "Atoll", "Bank", "Bluff", "Cape", "Cay", "Coast", "Cove", "Crag", "Delta", "Dune", "Fjord", "Haven", "Headland",
    "Holm", "Inlet", "Isle", "Islet", "Key", "Knoll", "Lagoon", "Ledge", "Marsh", "Mesa", "Point", "Reach", "Reef",
    "Ridge", "Rock", "Sandbar", "Shoal", "Shore", "Skerry", "Sound", "Spit", "Strand", "Tor", "Wash", "Wharf",
)

_ORTH = ((-1, 0), (1, 0), (0, -1), (0, 1))
_GAP = ((-1, -1), (-1, 1), (1, -1), (1, 1), (-2, 0), (2, 0), (0, -2), (0, 2))
_SYMMETRIES = tuple((swap, fr, fc) for swap in (False, True) for fr in (1, -1) for fc in (1, -1))


def normalised(cells: list[Cell] | tuple[Cell, ...], pins: dict[str, Cell] | None = None
               ) -> tuple[tuple[Cell, ...], dict[str, Cell]]:
    """Cells (and pins) shifted so the topmost row and leftmost column are 0; cells sorted."""
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return (tuple(sorted((r - r0, c - c0) for r, c in cells)),
            {t: (r - r0, c - c0) for t, (r, c) in (pins or {}).items()})


def canonical(cells: list[Cell] | tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The same tuple for every rotation and reflection of a shape (the least of its 8 images)."""
    images = []
    for swap, fr, fc in _SYMMETRIES:
        moved = [((c, r) if swap else (r, c)) for r, c in cells]
        images.append(normalised([(fr * r, fc * c) for r, c in moved])[0])
    return min(images)


def draw_compactness(rng: np.random.Generator, compactness: float | tuple[float, float]) -> float:
    """A number as it is; a range (low, high), 0 < low <= high: drawn log-uniformly in it."""
    if isinstance(compactness, tuple):
        low, high = compactness
        if not 0 < low <= high:
            raise LayoutError(f"a compactness range needs 0 < low <= high, got {low:g}..{high:g}")
        return float(np.exp(rng.uniform(np.log(low), np.log(high))))
    return compactness


def grow(rng: np.random.Generator, compactness: float = 1.0, connected: bool = True) -> tuple[Cell, ...]:
    """One shape of 24 cells drawn from the distribution of the module docstring."""
    if not compactness >= 0:
        raise LayoutError(f"compactness must be a number >= 0, got {compactness!r}")
    cells = {(0, 0)}
    while len(cells) < N_CELLS:
        weights: dict[Cell, float] = {}
        for r, c in cells:
            for dr, dc in _ORTH:
                n = (r + dr, c + dc)
                if n not in cells and n not in weights:
                    touching = sum((n[0] + a, n[1] + b) in cells for a, b in _ORTH)
                    weights[n] = compactness ** (touching - 1)
            if not connected:
                for dr, dc in _GAP:
                    n = (r + dr, c + dc)
                    if n not in cells and n not in weights and not any((n[0] + a, n[1] + b) in cells for a, b in _ORTH):
                        weights[n] = GAP_WEIGHT
        options = sorted(weights)  # a fixed order: the draw depends on the seed only
        w = np.array([weights[o] for o in options], dtype=float)
        cells.add(options[int(rng.choice(len(options), p=w / w.sum()))])
    return normalised(sorted(cells))[0]


def move_one_cell(rng: np.random.Generator, layout: Layout, connected: bool = True
                  ) -> tuple[tuple[Cell, ...], dict[str, Cell]] | None:
    """A neighbour of a shape for local search: one cell that holds no pinned tile moves to a sea cell beside
    the rest of the island (with ``connected``, only a cell whose removal leaves the island in one part; with
    ``connected=False`` the sea cell may also be across a corner or a one-cell strait). Returns the new
    (cells, pins), shifted to row 0 and column 0, or None when no cell can move."""
    pinned = set(layout.pins.values())
    splits = set(articulation_cells(layout.cells)) if connected else set()
    movable = [c for c in layout.cells if c not in pinned and c not in splits]
    if not movable:
        return None
    moved = movable[int(rng.integers(len(movable)))]
    rest = set(layout.cells) - {moved}
    steps = _ORTH if connected else _ORTH + _GAP
    targets = sorted({(r + dr, c + dc) for r, c in rest for dr, dc in steps} - rest - {moved})
    target = targets[int(rng.integers(len(targets)))]
    return normalised(sorted(rest | {target}), layout.pins)


def place_pins(rng: np.random.Generator, cells: tuple[Cell, ...], tiles: list[str]) -> dict[str, Cell]:
    """Each tile of `tiles` on its own cell, drawn uniformly."""
    chosen = rng.choice(len(cells), size=len(tiles), replace=False)
    return {t: cells[int(i)] for t, i in zip(tiles, chosen, strict=True)}


def island_name(rng: np.random.Generator, taken: set[str]) -> tuple[str, str]:
    """A readable (id, name) such as ('misty_cove', 'Misty Cove'), not in `taken` nor a built-in id."""
    for _ in range(50):
        name = f"{ADJECTIVES[rng.integers(len(ADJECTIVES))]} {NOUNS[rng.integers(len(NOUNS))]}"
        lid = name.lower().replace(" ", "_")
        if lid not in taken and lid not in BUILTIN_LAYOUTS:
            return lid, name
    k = 2
    while f"{lid}_{k}" in taken:
        k += 1
    return f"{lid}_{k}", f"{name} {k}"


def generate_layouts(n: int, seed: int, *, pins: list[str] = (), connected: bool = True,
                     compactness: float | tuple[float, float] = 1.0, description: str = "") -> list[Layout]:
    """`n` islands with distinct shapes (up to rotation and reflection), `pins` (tile ids) placed at random.
    `description` may use {index}, {n} and {compactness} (the island's own).

    LayoutError if `n` distinct shapes are not found in MAX_TRIES_PER_ISLAND * n draws (a tiny compactness-0
    family, say)."""
    if n < 1:
        raise LayoutError(f"the number of islands must be at least 1, got {n}")
    rng = np.random.default_rng(seed)
    seen: set[tuple[Cell, ...]] = set()
    taken: set[str] = set()
    out = []
    for _ in range(MAX_TRIES_PER_ISLAND * n):
        drawn = draw_compactness(rng, compactness)
        cells = grow(rng, drawn, connected)
        key = canonical(cells)
        if key in seen:
            continue
        seen.add(key)
        placed = place_pins(rng, cells, list(pins))
        lid, name = island_name(rng, taken)
        taken.add(lid)
        text = description.format(index=len(out) + 1, n=n, compactness=f"{drawn:.3g}")
        out.append(Layout(id=lid, cells=cells, pins=placed, name=name, description=text))
        if len(out) == n:
            return out
    raise LayoutError(f"found only {len(out)} distinct islands of {n} asked for (compactness {compactness!r}); "
                      "ask for fewer, or use a compactness that gives more varied shapes")
