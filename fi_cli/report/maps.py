"""Figures that draw the islands: the layouts of a study, where they sink, and where games are lost.

A cell is a square at (col, -row); its text is black or white, whichever reads better on its colour, and is
sized to the cell so that neighbouring texts never touch. Pinned tiles are named by a two-letter code
(style.tile_code) explained on the layouts figure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from . import style
from .figures import Look, grid, note, panels
from .style import text_on, tile_code, tile_colour, tile_label, wrap

SEA_CELL = "#E8EEF2"  # a plain cell of a layout drawing
PANEL = 3.9  # inches per map panel
LAYOUT_PANEL = 3.0  # the drawings of the layouts need less room: no numbers in their cells


def _fontsize(width: int, height: int, panel: float = PANEL) -> float:
    """Text size for the cells of a width x height island on a `panel`-inch panel (3 short lines fit a cell)."""
    cell_points = 72 * (panel - 0.6) / max(width, height, 4)
    return max(5.0, min(8.5, 0.2 * cell_points))


def _cell(ax, row: int, col: int, colour: str, lines: Sequence[str], size: float, outline: str | None = None) -> None:
    x, y = col, -row
    ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, facecolor=colour, edgecolor="#555555", lw=0.8))
    if outline:
        ax.add_patch(Rectangle((x - 0.42, y - 0.42), 0.84, 0.84, fill=False, edgecolor=outline, lw=2.2))
    if lines:
        ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=size, color=text_on(colour),
                linespacing=1.1)


def _frame(ax, rows: Sequence[int], cols: Sequence[int], title: str) -> None:
    if len(rows):
        ax.set_xlim(min(cols) - 0.6, max(cols) + 0.6)
        ax.set_ylim(-max(rows) - 0.6, -min(rows) + 0.6)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(title, fontsize=9.5)


def _map_figure(n: int, colourbar: bool, ncols: int = 3, panel: float = PANEL) -> tuple[Figure, list]:
    rows, cols = grid(n, ncols)
    fig = Figure(figsize=(panel * cols + (1.3 if colourbar else 0.4), (panel + 0.5) * rows + 1.2),
                 layout="constrained")
    return fig, panels(fig, n, ncols)


def layouts(shapes: Sequence[dict[str, Any]]) -> Figure:
    """Each layout of the study: its cells, its name, and its pinned tiles (by code and colour)."""
    fig, axes = _map_figure(len(shapes), colourbar=False, ncols=4, panel=LAYOUT_PANEL)
    pinned: dict[str, str] = {}
    for ax, lay in zip(axes, shapes, strict=True):
        cells = [tuple(c) for c in lay.get("cells", [])]
        pins = {tuple(c): t for t, c in lay.get("pins", {}).items()}
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        size = _fontsize(max(cols, default=0) + 1, max(rows, default=0) + 1, LAYOUT_PANEL) + 1
        for r, c in cells:
            tile = pins.get((r, c))
            if tile:
                pinned[tile] = tile_colour(tile) or "#BBBBBB"
            _cell(ax, r, c, pinned[tile] if tile else SEA_CELL, [tile_code(tile)] if tile else [], size)
        what = f"{len(pins)} pinned tile{'s' * (len(pins) != 1)}" if pins else "tiles placed at random"
        _frame(ax, rows, cols, f"{wrap(lay.get('name') or lay['id'], 28)}\n{what}")
    handles = [Patch(facecolor=c, edgecolor="#555555", label=f"{tile_code(t)}: {tile_label(t)}")
               for t, c in pinned.items()]
    note(fig, "Each game places the tiles that are not pinned at random on the other cells."
         + (" Pinned tiles by code; colours: Fools' Landing and the tiles of each treasure." if pinned else ""),
         handles, ncols=max(1, min(4, len(handles), int(fig.get_figwidth() / 2.6))))
    return fig


def _scenario_maps(cells: pd.DataFrame, look: Look, value: str, norm: Normalize, cmap, bar_label: str, text,
                   title, marks=None) -> Figure:
    """One map per scenario, cells coloured by `value` (a colour bar saying `bar_label`); text(row) -> the
    lines in a cell, title(scenario) -> the panel's title, marks(ax, row) draws more on a cell."""
    fig, axes = _map_figure(len(look.scenarios), colourbar=True)
    for ax, sc in zip(axes, look.scenarios, strict=True):
        c = cells[cells["scenario"] == sc]
        size = _fontsize(int(c["col"].max()) + 1, int(c["row"].max()) + 1) if len(c) else 8
        for r in c.itertuples():
            v = getattr(r, value)
            colour = matplotlib.colors.to_hex(cmap(norm(v))) if v == v else "#FFFFFF"
            code = [tile_code(r.pinned)] if r.pinned else []
            _cell(ax, r.row, r.col, colour, code + text(r), size, outline=tile_colour(r.pinned) if r.pinned else None)
            if marks:
                marks(ax, r)
        _frame(ax, c["row"].tolist(), c["col"].tolist(), title(sc))
    fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=axes, shrink=0.6, label=bar_label,
                 format=lambda v, _: f"{100 * v:.0f}%" if norm.vmax >= 0.2 else f"{100 * v:.1f}%")
    return fig


def _norm(values: pd.Series, step: float, from_zero: bool = True) -> Normalize:
    """A colour scale shared by all panels (so they compare), over the values' range rounded to `step`."""
    values = values.dropna()
    top = math.ceil(float(values.max()) / step) * step if len(values) else step
    low = 0.0 if from_zero or not len(values) else math.floor(float(values.min()) / step) * step
    return Normalize(low, max(top, low + step))


def risk_map(cells: pd.DataFrame, look: Look, random_placement: bool) -> Figure:
    """Each scenario's island, cells coloured by the sinking hazard of the tile on them (sinkings per turn
    it was on the island) with the Kaplan-Meier median turn it sinks."""
    def text(r) -> list[str]:
        km = f"t{r.km_median_turn:.0f}" if r.km_median_turn == r.km_median_turn else "t –"
        return [f"{100 * r.hazard:.1f}%", km]

    # From the lowest hazard up: a scale from 0 would paint every cell of an island in the same red.
    fig = _scenario_maps(cells, look, "hazard", _norm(cells["hazard"], 0.005, from_zero=False),
                         matplotlib.colormaps["YlOrRd"],
                         "hazard: sinkings per turn the tile is on the island", text, lambda sc: look.label(sc, 36))
    text = ("First number: the hazard of the tile on the cell, its sinkings per turn it was on the island "
            "(it does not grow with the length of games). 't': the Kaplan-Meier median turn it sinks, games that "
            "end first counted as censored ('t –': fewer than half sink).")
    if random_placement:
        text += ("\nTiles not pinned are placed at random each game, so such a cell is a spot of the island, not a "
                 "tile. Codes and outlines: pinned tiles, as on the layouts figure.")
    note(fig, text)
    return fig


def loss_map(cells: pd.DataFrame, look: Look) -> Figure:
    """Each scenario's island, cells coloured by the share of lost games whose loss involved the tile on
    it; a circle where pawns drowned, its area growing with the games."""
    most = max(int(cells["drowned"].max()) if len(cells) else 0, 1)

    def marks(ax, r) -> None:
        if r.drowned:
            ax.plot(r.col + 0.3, -r.row - 0.3, "o", ms=2 + 6 * math.sqrt(r.drowned / most), mfc="white",
                    mec="black", mew=1)

    lost = cells.groupby("scenario")["lost_games"].max()
    fig = _scenario_maps(cells, look, "share_of_losses", _norm(cells["share_of_losses"], 0.05),
                         matplotlib.colormaps["Purples"], "share of lost games whose loss involved this cell's tile",
                         lambda r: [style.pct(r.share_of_losses, 0)],
                         lambda sc: f"{look.label(sc, 36)}\n{int(lost.get(sc, 0)):,} lost games", marks)
    note(fig, "A loss involves the two tiles of the treasure that was lost, Fools' Landing when it sank, and the "
         "tile a pawn drowned on; losses to the water level involve no tile.",
         [Line2D([], [], marker="o", ls="", mfc="white", mec="black", ms=7,
                 label=f"pawns drowned here (largest circle: {most} game{'s' * (most != 1)})")])
    return fig


def no_data(message: str) -> Figure:
    """A small figure that says why a figure could not be drawn (e.g. a run logged before the data existed)."""
    fig = Figure(figsize=(8, 1.6), layout="constrained")
    ax = fig.add_subplot()
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=10, wrap=False)
    return fig
