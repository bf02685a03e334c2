"""Figures that draw a board as a grid of cells: a scenario's map coloured cell by cell, with a colour bar.
Each game's maps (`report.island.maps`, `report.desert.maps`) are drawn with these.

A cell is a square at (col, -row) of a fixed size in inches, whatever the island's shape: a long thin island gets
a wide panel, not small cells, so that the text in a cell is CELL_TEXT points at the saved size on every island.
The panels are packed in rows no wider than MAX_WIDTH, each row as high as its tallest island, and the figure is
cut to them (no empty margins around square panels); the colour bar and the notes sit under them. A cell's text
is black or white, whichever reads better on its colour.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .figures import Look
from .style import text_on

SEA_CELL = "#E8EEF2"  # a plain cell of a layout drawing
CELL = 0.5  # inches per cell of a map with numbers in its cells: three lines of CELL_TEXT fit one
LAYOUT_CELL = 0.32  # the drawings of the layouts: a short code in a few cells
CELL_TEXT = 8.0  # points, at the saved size
MAX_WIDTH = 12.5  # inches of the panels side by side (a 24-cell line of an island still fits in one row)
SHRINK = 0.88  # cells may shrink to this share of their size to fit the panels in fewer rows (text stays readable)
MIN_PANEL = 2.3  # inches: room for a panel's title
GAP = 0.35  # inches between panels
TOP = 0.8  # inches above the panels for the figure's title (build adds it: up to three lines)
TITLE_SIZE, NOTE_SIZE = 9.5, 8.5


@dataclass
class Panel:
    """One map of a figure: the rows and columns of its cells, and its title."""

    rows: Sequence[int]
    cols: Sequence[int]
    title: str


@dataclass
class Footer:
    """What goes under the maps: a colour bar (norm, colour map, label, tick format), legend handles, a note."""

    text: str
    handles: list = field(default_factory=list)
    colourbar: tuple[Normalize, Any, str, Callable] | None = None


def _lines(text: str, width_in: float, size: float) -> list[str]:
    """`text` wrapped to a width in inches at a font size (an average glyph is about 0.55 em wide)."""
    chars = max(10, int(width_in * 72 / (0.55 * size)))
    return [line for part in text.split("\n") for line in (textwrap.wrap(part, chars) or [""])]


class MapFigure(Figure):
    """A figure of maps laid out by hand: its title (build adds it) sits just above the panels, and it is saved
    cut to what is drawn (figures.save), so that a one-line title leaves no empty band."""

    panels_top = 1.0  # figure fraction

    def suptitle(self, t: str, **kwargs):
        return super().suptitle(t, **{"y": self.panels_top, "va": "bottom", **kwargs})


def _rows(boxes: list[tuple], width: float) -> list[list[int]]:
    """The panels packed in order into rows no wider than `width` inches (a box: width, height, slot, ...)."""
    rows: list[list[int]] = [[]]
    for i, box in enumerate(boxes):
        if rows[-1] and sum(boxes[j][2] + GAP for j in rows[-1]) + box[2] > width:
            rows.append([])
        rows[-1].append(i)
    return rows


def map_figure(panels: Sequence[Panel], cell: float, footer: Footer) -> tuple[Figure, list]:
    """A figure of maps, one axes per panel (framed and titled, cells still to draw), `cell` inches per cell
    (down to SHRINK of it when that puts the panels in fewer rows), and the `footer` drawn under them."""
    fewest = min(len(_rows(_boxes(panels, c), MAX_WIDTH)) for c in (cell, SHRINK * cell))
    cell = next(c for c in (cell, SHRINK * cell) if len(_rows(_boxes(panels, c), MAX_WIDTH)) == fewest)
    boxes = _boxes(panels, cell)
    rows = _rows(boxes, MAX_WIDTH)
    widths = [sum(boxes[j][2] for j in row) + GAP * (len(row) - 1) for row in rows]
    heights = [max(boxes[j][1] + boxes[j][4] for j in row) for row in rows]
    width = max(*widths, 6.0) + 0.4
    text = _lines(footer.text, width - 0.4, NOTE_SIZE)
    ncols = max(1, min(4, len(footer.handles), int(width / 2.8)))
    foot = 0.7 * bool(footer.colourbar) + 0.17 * len(text) + 0.27 * math.ceil(len(footer.handles) / ncols) + 0.15
    height = TOP + sum(heights) + GAP * (len(rows) - 1) + foot
    fig = MapFigure(figsize=(width, height))
    fig.panels_top = (height - TOP + 0.1) / height
    axes: list = [None] * len(panels)
    top = height - TOP
    for row, row_width, row_height in zip(rows, widths, heights, strict=True):
        x = (width - row_width) / 2
        for j in row:
            w, h, slot, title, title_h = boxes[j]
            ax = fig.add_axes(((x + (slot - w) / 2) / width, (top - title_h - h) / height, w / width, h / height))
            _frame(ax, panels[j].rows, panels[j].cols, title)
            axes[j] = ax
            x += slot + GAP
        top -= row_height + GAP
    _footer(fig, footer, text, ncols, foot)
    return fig, axes


def _boxes(panels: Sequence[Panel], cell: float) -> list[tuple[float, float, float, str, float]]:
    """Per panel: the map's width and height, the slot's width (room for the title), the title wrapped to it
    and its height, in inches."""
    boxes = []
    for p in panels:
        ncols = max(p.cols) - min(p.cols) + 1 if len(p.cols) else 1
        nrows = max(p.rows) - min(p.rows) + 1 if len(p.rows) else 1
        w, h = (ncols + 0.2) * cell, (nrows + 0.2) * cell
        slot = max(w, MIN_PANEL)
        title = "\n".join("\n".join(textwrap.wrap(line, max(10, int(slot * 72 / (0.6 * TITLE_SIZE)))) or [""])
                          for line in p.title.split("\n"))
        boxes.append((w, h, slot, title, 0.18 * (title.count("\n") + 1) + 0.1))
    return boxes


def _frame(ax, rows: Sequence[int], cols: Sequence[int], title: str) -> None:
    if len(rows):
        ax.set_xlim(min(cols) - 0.6, max(cols) + 0.6)
        ax.set_ylim(-max(rows) - 0.6, -min(rows) + 0.6)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(title, fontsize=TITLE_SIZE, pad=3)


def _footer(fig: Figure, footer: Footer, text: list[str], ncols: int, height: float) -> None:
    """The colour bar, the legend and the note, from the top of the footer (`height` inches) down."""
    width, total = fig.get_figwidth(), fig.get_figheight()
    y = height - 0.1  # inches from the bottom
    if footer.colourbar:
        norm, cmap, label, fmt = footer.colourbar
        bar = min(6.0, width - 1.0)
        ax = fig.add_axes(((width - bar) / 2 / width, (y - 0.16) / total, bar / width, 0.16 / total))
        fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=ax, orientation="horizontal", format=fmt)
        ax.tick_params(labelsize=8)
        ax.set_xlabel(label, fontsize=9, labelpad=2)
        y -= 0.7
    if footer.handles:
        fig.legend(handles=footer.handles, loc="upper center", bbox_to_anchor=(0.5, y / total), ncols=ncols,
                   frameon=False, fontsize=9, borderaxespad=0, handletextpad=0.5)
        y -= 0.27 * math.ceil(len(footer.handles) / ncols)
    if text:
        fig.text(0.5, y / total, "\n".join(text), ha="center", va="top", fontsize=NOTE_SIZE, linespacing=1.3)


def cell(ax, row: int, col: int, colour: str, lines: Sequence[str], size: float = CELL_TEXT,
         outline: str | None = None) -> None:
    x, y = col, -row
    ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, facecolor=colour, edgecolor="#555555", lw=0.8))
    if outline:  # on a white halo, so that it shows on a cell of a like colour
        ax.add_patch(Rectangle((x - 0.41, y - 0.41), 0.82, 0.82, fill=False, edgecolor="white", lw=4.2))
        ax.add_patch(Rectangle((x - 0.41, y - 0.41), 0.82, 0.82, fill=False, edgecolor=outline, lw=2.2))
    if lines:
        ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=size, color=text_on(colour),
                linespacing=1.1)


def scenario_maps(cells: pd.DataFrame, look: Look, value: str, norm: Normalize, cmap, bar_label: str, text,
                  title, footer: Footer, marks=None, pin=None) -> Figure:
    """One map per scenario, cells coloured by `value` (a colour bar saying `bar_label`); text(row) -> the
    lines in a cell, title(scenario) -> the panel's title, `footer`: the note and legend under the maps (the
    colour bar is added to it), marks(ax, row) draws more on a cell, pin(row) -> (the code of a tile pinned
    there, its outline colour) or None."""
    per = {sc: cells[cells["scenario"] == sc] for sc in look.scenarios}
    fmt = (lambda v, _: f"{100 * v:.0f}%") if norm.vmax >= 0.2 else (lambda v, _: f"{100 * v:.1f}%")
    footer.colourbar = (norm, cmap, bar_label, fmt)
    fig, axes = map_figure([Panel(c["row"].tolist(), c["col"].tolist(), title(sc)) for sc, c in per.items()], CELL,
                           footer)
    for ax, c in zip(axes, per.values(), strict=True):
        for r in c.itertuples():
            v = getattr(r, value)
            colour = matplotlib.colors.to_hex(cmap(norm(v))) if v == v else "#FFFFFF"
            code, outline = (pin(r) if pin else None) or ("", None)
            cell(ax, r.row, r.col, colour, [code] * bool(code) + text(r), outline=outline)
            if marks:
                marks(ax, r)
    return fig


def colour_scale(values: pd.Series, step: float, from_zero: bool = True) -> Normalize:
    """A colour scale shared by all panels (so they compare), over the values' range rounded to `step`."""
    values = values.dropna()
    top = math.ceil(float(values.max()) / step) * step if len(values) else step
    low = 0.0 if from_zero or not len(values) else math.floor(float(values.min()) / step) * step
    return Normalize(low, max(top, low + step))


def pin_handles(pinned: dict[str, str]) -> list[Patch]:
    """Legend entries of pinned tiles (label -> colour)."""
    return [Patch(facecolor=c, edgecolor="#555555", label=label) for label, c in pinned.items()]


def circles(column: str, most: int) -> Callable[[Any, Any], None]:
    """`marks` for scenario_maps: a white circle in the corner of a cell whose row has `column` > 0, its area
    growing with it (the largest for `most`), clear of the cell's text."""
    def marks(ax, r) -> None:
        n = getattr(r, column)
        if n:
            ax.plot(r.col + 0.36, -r.row - 0.36, "o", ms=2 + 4 * math.sqrt(n / most), mfc="white", mec="black", mew=1)

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

