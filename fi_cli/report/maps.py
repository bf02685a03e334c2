"""Figures that draw a board as a grid of cells: a scenario's map coloured cell by cell, with a colour bar.
Each game's maps (`report.island.maps`, `report.desert.maps`) are drawn with these.

A cell is a square at (col, -row); its text is black or white, whichever reads better on its colour, and is
sized to the cell so that neighbouring texts never touch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .figures import Look, grid, note, panels
from .style import text_on

SEA_CELL = "#E8EEF2"  # a plain cell of a layout drawing
PANEL = 3.9  # inches per map panel
LAYOUT_PANEL = 3.0  # the drawings of the layouts need less room: no numbers in their cells


def fontsize(width: int, height: int, panel: float = PANEL) -> float:
    """Text size for the cells of a width x height island on a `panel`-inch panel (3 short lines fit a cell)."""
    cell_points = 72 * (panel - 0.6) / max(width, height, 4)
    return max(5.0, min(8.5, 0.2 * cell_points))


def cell(ax, row: int, col: int, colour: str, lines: Sequence[str], size: float, outline: str | None = None) -> None:
    x, y = col, -row
    ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, facecolor=colour, edgecolor="#555555", lw=0.8))
    if outline:
        ax.add_patch(Rectangle((x - 0.42, y - 0.42), 0.84, 0.84, fill=False, edgecolor=outline, lw=2.2))
    if lines:
        ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=size, color=text_on(colour),
                linespacing=1.1)


def frame(ax, rows: Sequence[int], cols: Sequence[int], title: str) -> None:
    if len(rows):
        ax.set_xlim(min(cols) - 0.6, max(cols) + 0.6)
        ax.set_ylim(-max(rows) - 0.6, -min(rows) + 0.6)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(title, fontsize=9.5)


def map_figure(n: int, colourbar: bool, ncols: int = 3, panel: float = PANEL) -> tuple[Figure, list]:
    rows, cols = grid(n, ncols)
    fig = Figure(figsize=(panel * cols + (1.3 if colourbar else 0.4), (panel + 0.5) * rows + 1.2),
                 layout="constrained")
    return fig, panels(fig, n, ncols)


def scenario_maps(cells: pd.DataFrame, look: Look, value: str, norm: Normalize, cmap, bar_label: str, text,
                  title, marks=None, pin=None) -> Figure:
    """One map per scenario, cells coloured by `value` (a colour bar saying `bar_label`); text(row) -> the
    lines in a cell, title(scenario) -> the panel's title, marks(ax, row) draws more on a cell, pin(row) ->
    (the code of a tile pinned there, its outline colour) or None."""
    fig, axes = map_figure(len(look.scenarios), colourbar=True)
    for ax, sc in zip(axes, look.scenarios, strict=True):
        c = cells[cells["scenario"] == sc]
        size = fontsize(int(c["col"].max()) + 1, int(c["row"].max()) + 1) if len(c) else 8
        for r in c.itertuples():
            v = getattr(r, value)
            colour = matplotlib.colors.to_hex(cmap(norm(v))) if v == v else "#FFFFFF"
            code, outline = (pin(r) if pin else None) or ("", None)
            cell(ax, r.row, r.col, colour, [code] * bool(code) + text(r), size, outline=outline)
            if marks:
                marks(ax, r)
        frame(ax, c["row"].tolist(), c["col"].tolist(), title(sc))
    fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=axes, shrink=0.6, label=bar_label,
                 format=lambda v, _: f"{100 * v:.0f}%" if norm.vmax >= 0.2 else f"{100 * v:.1f}%")
    return fig


def colour_scale(values: pd.Series, step: float, from_zero: bool = True) -> Normalize:
    """A colour scale shared by all panels (so they compare), over the values' range rounded to `step`."""
    values = values.dropna()
    top = math.ceil(float(values.max()) / step) * step if len(values) else step
    low = 0.0 if from_zero or not len(values) else math.floor(float(values.min()) / step) * step
    return Normalize(low, max(top, low + step))


def pins_key(fig: Figure, text: str, pinned: dict[str, str]) -> None:
    """The note under a figure of layouts, with a legend of the pinned tiles (label -> colour)."""
    handles = [Patch(facecolor=c, edgecolor="#555555", label=label) for label, c in pinned.items()]
    note(fig, text, handles, ncols=max(1, min(4, len(handles), int(fig.get_figwidth() / 2.6))))


def circles(column: str, most: int) -> Callable[[Any, Any], None]:
    """`marks` for scenario_maps: a white circle in the corner of a cell whose row has `column` > 0, its area
    growing with it (the largest for `most`)."""
    def marks(ax, r) -> None:
        n = getattr(r, column)
        if n:
            ax.plot(r.col + 0.3, -r.row - 0.3, "o", ms=2 + 6 * math.sqrt(n / most), mfc="white", mec="black", mew=1)

    return marks


def circle_key(label: str) -> Line2D:
    """The legend entry of `circles`."""
    return Line2D([], [], marker="o", ls="", mfc="white", mec="black", ms=7, label=label)


def no_data(message: str) -> Figure:
    """A small figure that says why a figure could not be drawn (e.g. a run logged before the data existed)."""
    fig = Figure(figsize=(8, 1.6), layout="constrained")
    ax = fig.add_subplot()
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=10, wrap=False)
    return fig
