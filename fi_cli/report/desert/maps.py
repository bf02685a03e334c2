"""The desert's maps: the boards of a study (the tiles they pin), and where sand piles up and pawns run dry
(drawn with the grid maps of `report.maps`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

from ...desert.tiles import CELLS, CENTRE, SIZE
from ..figures import Look
from ..maps import (
    CELL_TEXT,
    LAYOUT_CELL,
    SEA_CELL,
    Footer,
    Panel,
    cell,
    circle_key,
    circles,
    colour_scale,
    map_figure,
    pin_handles,
    scenario_maps,
)
from ..style import pct
from .style import STORM_COLOUR, kind_code, kind_colour, kind_label


def boards(layouts: Sequence[dict[str, Any]]) -> Figure:
    """Each board of the study: the storm in the centre, the tiles it pins (by code and colour)."""
    pinned = {kind: kind_colour(kind) for board in layouts for kind in board.get("pins", {}).values()}
    panels = []
    for board in layouts:
        n = len(board.get("pins", {}))
        what = f"{n} pinned tile{'s' * (n != 1)}" if n else "all tiles shuffled"
        panels.append(Panel(range(SIZE), range(SIZE), f"{board.get('name') or board['id']}\n{what}"))
    fig, axes = map_figure(panels, LAYOUT_CELL, Footer(
        "Each game shuffles the tiles that are not pinned over the other cells, desert side up; a pinned tile is "
        "known to the team from the start. The wind moves every tile, pinned or not.",
        pin_handles({f"{kind_code(k)}: {kind_label(k)}": c for k, c in pinned.items()})))
    for ax, board in zip(axes, layouts, strict=True):
        pins = board.get("pins", {})
        for c, name in enumerate(CELLS):
            r, k = divmod(c, SIZE)
            kind = pins.get(name)
            colour = STORM_COLOUR if c == CENTRE else pinned[kind] if kind else SEA_CELL
            cell(ax, r, k, colour, ["storm"] if c == CENTRE else [kind_code(kind)] if kind else [], CELL_TEXT)
    return fig


def heat_map(cells: pd.DataFrame, look: Look, pins: dict[str, dict[str, str]] | None = None) -> Figure:
    """Each scenario's desert, cells coloured by the share of turns the tile on them was blocked (where sand
    piles up), a circle where pawns ran dry, its area growing with their number; `pins`: per scenario, the
    tiles its board pins at the start (cell -> kind), marked by code and outline as on the boards figure."""
    pins = pins or {}
    most = max(int(cells["ran_dry"].max()) if len(cells) else 0, 1)
    dry = cells.groupby("scenario")["ran_dry"].sum()
    kinds = {k for p in pins.values() for k in p.values()}
    footer = Footer("A tile is blocked with 2 or more sand markers. The wind slides the tiles, so a cell is a spot of "
                    "the desert, not a tile; the storm's cell holds no tile while the storm is there."
                    + (" Codes and outlines: the tiles the board pins there at the start." if kinds else ""),
                    [circle_key(f"pawns ran dry here (largest circle: {most} pawn{'s' * (most != 1)})"),
                     *pin_handles({f"{kind_code(k)}: {kind_label(k)}": kind_colour(k) for k in sorted(kinds)})])

    def pin(r: Any) -> tuple[str, str] | None:
        kind = pins.get(r.scenario, {}).get(r.cell)
        return (kind_code(kind), kind_colour(kind)) if kind else None

    return scenario_maps(cells, look, "blocked_share", colour_scale(cells["blocked_share"], 0.05),
                         matplotlib.colormaps["YlOrBr"], "share of turns the tile on the cell was blocked",
                         lambda r: [pct(r.blocked_share, 0)],
                         lambda sc: f"{look.labels[sc]}\n{int(dry.get(sc, 0)):,} pawns ran dry", footer,
                         circles("ran_dry", most), pin)
