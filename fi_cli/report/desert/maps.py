"""The desert's maps: the boards of a study (the tiles they pin), and where sand piles up and pawns run dry
(drawn with the grid maps of `report.maps`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

from ...desert.tiles import CELLS, CENTRE, SIZE
from ..figures import Look, note
from ..maps import (
    LAYOUT_PANEL,
    SEA_CELL,
    cell,
    circle_key,
    circles,
    colour_scale,
    fontsize,
    frame,
    map_figure,
    pins_key,
    scenario_maps,
)
from ..style import pct, wrap
from .style import STORM_COLOUR, kind_code, kind_colour, kind_label


def boards(layouts: Sequence[dict[str, Any]]) -> Figure:
    """Each board of the study: the storm in the centre, the tiles it pins (by code and colour)."""
    fig, axes = map_figure(len(layouts), colourbar=False, ncols=4, panel=LAYOUT_PANEL)
    pinned: dict[str, str] = {}
    size = fontsize(SIZE, SIZE, LAYOUT_PANEL) + 1
    for ax, board in zip(axes, layouts, strict=True):
        pins = board.get("pins", {})
        for c, name in enumerate(CELLS):
            r, k = divmod(c, SIZE)
            kind = pins.get(name)
            if kind:
                pinned[kind] = kind_colour(kind)
            colour = STORM_COLOUR if c == CENTRE else pinned[kind] if kind else SEA_CELL
            cell(ax, r, k, colour, ["storm"] if c == CENTRE else [kind_code(kind)] if kind else [], size)
        what = f"{len(pins)} pinned tile{'s' * (len(pins) != 1)}" if pins else "all tiles shuffled"
        frame(ax, range(SIZE), range(SIZE), f"{wrap(board.get('name') or board['id'], 28)}\n{what}")
    pins_key(fig, "Each game shuffles the tiles that are not pinned over the other cells, desert side up; a pinned "
             "tile is known to the team from the start. The wind moves every tile, pinned or not.",
             {f"{kind_code(k)}: {kind_label(k)}": c for k, c in pinned.items()})
    return fig


def heat_map(cells: pd.DataFrame, look: Look) -> Figure:
    """Each scenario's desert, cells coloured by the share of turns the tile on them was blocked (where sand
    piles up), a circle where pawns ran dry, its area growing with their number."""
    most = max(int(cells["ran_dry"].max()) if len(cells) else 0, 1)
    dry = cells.groupby("scenario")["ran_dry"].sum()
    fig = scenario_maps(cells, look, "blocked_share", colour_scale(cells["blocked_share"], 0.05),
                        matplotlib.colormaps["YlOrBr"], "share of turns the tile on the cell was blocked",
                        lambda r: [pct(r.blocked_share, 0)],
                        lambda sc: f"{look.label(sc, 36)}\n{int(dry.get(sc, 0)):,} pawns ran dry",
                        circles("ran_dry", most))
    note(fig, "A tile is blocked with 2 or more sand markers. The wind slides the tiles, so a cell is a spot of "
         "the desert, not a tile; the storm's cell holds no tile while the storm is there.",
         [circle_key(f"pawns ran dry here (largest circle: {most} pawn{'s' * (most != 1)})")])
    return fig
