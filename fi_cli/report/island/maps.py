"""The island's maps: the layouts of a study, where the island sinks, and where games are lost (drawn with
the grid maps of `report.maps`). Pinned tiles are named by a two-letter code (style.tile_code) explained on
the layouts figure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

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
from .style import tile_code, tile_colour, tile_label


def _pin(r: Any) -> tuple[str, str | None] | None:
    """The code and outline of the tile a layout pins on a cell (a row with `pinned`), if any."""
    return (tile_code(r.pinned), tile_colour(r.pinned)) if r.pinned else None


def layouts(shapes: Sequence[dict[str, Any]], titles: Sequence[str] | None = None) -> Figure:
    """Each layout of the study: its cells, its name, and its pinned tiles (by code and colour); `titles`
    replace the panels' default titles (name and pins)."""
    pinned = {t: tile_colour(t) or "#BBBBBB" for lay in shapes for t in lay.get("pins", {})}
    panels = []
    for i, lay in enumerate(shapes):
        cells = [tuple(c) for c in lay.get("cells", [])]
        n = len(lay.get("pins", {}))
        what = f"{n} pinned tile{'s' * (n != 1)}" if n else "tiles placed at random"
        panels.append(Panel([r for r, _ in cells], [c for _, c in cells],
                            titles[i] if titles else f"{lay.get('name') or lay['id']}\n{what}"))
    text = "Each game places the tiles that are not pinned at random on the other cells." + (
        " Pinned tiles by code; colours: Fools' Landing and the tiles of each treasure." if pinned else "")
    fig, axes = map_figure(panels, LAYOUT_CELL, Footer(text, pin_handles(
        {f"{tile_code(t)}: {tile_label(t)}": c for t, c in pinned.items()})))
    for ax, lay in zip(axes, shapes, strict=True):
        pins = {tuple(c): t for t, c in lay.get("pins", {}).items()}
        for r, c in (tuple(x) for x in lay.get("cells", [])):
            tile = pins.get((r, c))
            cell(ax, r, c, pinned[tile] if tile else SEA_CELL, [tile_code(tile)] if tile else [], CELL_TEXT)
    return fig


def risk_map(cells: pd.DataFrame, look: Look, random_placement: bool) -> Figure:
    """Each scenario's island, cells coloured by the sinking hazard of the tile on them (sinkings per turn
    it was on the island) with the Kaplan-Meier median turn it sinks."""
    def text(r) -> list[str]:
        km = f"t{r.km_median_turn:.0f}" if r.km_median_turn == r.km_median_turn else "t –"
        return [f"{100 * r.hazard:.1f}%", km]

    note = ("First number: the hazard of the tile on the cell, its sinkings per turn it was on the island "
            "(it does not grow with the length of games). 't': the Kaplan-Meier median turn it sinks, games that "
            "end first counted as censored ('t –': fewer than half sink).")
    if random_placement:
        note += ("\nTiles not pinned are placed at random each game, so such a cell is a spot of the island, not a "
                 "tile. Codes and outlines: pinned tiles, as on the layouts figure.")
    # From the lowest hazard up: a scale from 0 would paint every cell of an island in the same red.
    return scenario_maps(cells, look, "hazard", colour_scale(cells["hazard"], 0.005, from_zero=False),
                         matplotlib.colormaps["YlOrRd"], "hazard: sinkings per turn the tile is on the island", text,
                         lambda sc: look.labels[sc], Footer(note), pin=_pin)


def loss_map(cells: pd.DataFrame, look: Look) -> Figure:
    """Each scenario's island, cells coloured by the share of lost games whose loss involved the tile on
    it; a circle where pawns drowned, its area growing with the games."""
    most = max(int(cells["drowned"].max()) if len(cells) else 0, 1)
    lost = cells.groupby("scenario")["lost_games"].max()
    footer = Footer("A loss involves the two tiles of the treasure that was lost, Fools' Landing when it sank, and "
                    "the tile a pawn drowned on; losses to the water level involve no tile.",
                    [circle_key(f"pawns drowned here (largest circle: {most} game{'s' * (most != 1)})")])
    return scenario_maps(cells, look, "share_of_losses", colour_scale(cells["share_of_losses"], 0.05),
                         matplotlib.colormaps["Purples"], "share of lost games whose loss involved this cell's tile",
                         lambda r: [pct(r.share_of_losses, 0)],
                         lambda sc: f"{look.labels[sc]}\n{int(lost.get(sc, 0)):,} lost games", footer,
                         circles("drowned", most), _pin)
