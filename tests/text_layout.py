"""Readable figures: the texts matplotlib actually draws, and what is wrong with them: two that overlap,
one that sticks out of the figure, a coloured one too faint on the white page."""

from __future__ import annotations

from itertools import combinations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.text import Text

from fi_cli.report.style import contrast


def drawn_texts(fig: Figure) -> list[Text]:
    """Every non-empty text drawn when the figure renders (tick labels outside the view, hidden panels and
    empty strings are not drawn, so they do not count)."""
    drawn: list[Text] = []
    draw = Text.draw

    def spy(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return draw(self, renderer)

    FigureCanvasAgg(fig)  # the report's figures are made without a canvas (no pyplot)
    Text.draw = spy
    try:
        fig.canvas.draw()
    finally:
        Text.draw = draw
    return drawn


def text_problems(fig: Figure, tolerance: float = 0.5) -> list[str]:
    """Texts whose boxes overlap by more than `tolerance` pixels each way, texts that stick out of the
    figure, and texts in a colour (not black or white) with less than 4.5:1 contrast on white."""
    texts = drawn_texts(fig)
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    width, height = fig.canvas.get_width_height()
    problems = [f"outside the figure: {t!r}" for t, b in boxes
                if b.x0 < -tolerance or b.y0 < -tolerance or b.x1 > width + tolerance or b.y1 > height + tolerance]
    for (ta, a), (tb, b) in combinations(boxes, 2):
        if min(a.x1, b.x1) - max(a.x0, b.x0) > tolerance and min(a.y1, b.y1) - max(a.y0, b.y0) > tolerance:
            problems.append(f"{ta!r} overlaps {tb!r}")
    for t in texts:
        colour = to_hex(t.get_color())
        if colour not in ("#000000", "#ffffff") and contrast(colour, "white") < 4.5:
            problems.append(f"too faint on white: {t.get_text()!r} in {colour}")
    return problems
