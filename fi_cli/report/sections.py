"""What a written report is: one section per game of its runs (a report of one game has one), each with its
data, comparisons, tables and figures (and parts of its own, such as the island's explorer), and the files
written."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from .figures import FigureInfo
from .games import TITLES
from .load import ReportData
from .pairing import Pairing


@dataclass
class Table:
    """A table shown on the page under its heading, with a note under it."""

    anchor: str
    heading: str
    frame: pd.DataFrame
    note: str = ""


@dataclass
class Part:
    """A part of a section beyond its figures (the island's explorer), laid out by the pages: a heading, an
    introduction and points, then figures and tables in order; `made` holds its figures (untitled), `tables`
    its CSV tables, `method` its method note."""

    anchor: str
    title: str
    intro: str
    points: list[str]
    blocks: list[FigureInfo | Table]
    made: dict[str, Figure]
    tables: dict[str, pd.DataFrame]
    method: str

    @property
    def figures(self) -> list[FigureInfo]:
        return [b for b in self.blocks if isinstance(b, FigureInfo)]


@dataclass
class Section:
    """One game's part of a report; its files are named `prefix` + name (a prefix only when games mix)."""

    game: str
    data: ReportData
    pairing: Pairing
    summary: pd.DataFrame
    tables: dict[str, pd.DataFrame]  # CSV stem -> table
    figures: list[FigureInfo]
    prefix: str = ""
    parts: list[Part] = field(default_factory=list)  # e.g. the island's explorer, when its runs play many layouts

    @property
    def title(self) -> str:
        return TITLES[self.game]


@dataclass
class Report:
    out_dir: Path
    sections: list[Section]
    formats: tuple[str, ...] = ("png", "svg")
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # warnings of the report as a whole

    @property
    def warnings(self) -> list[str]:
        return [w for s in self.sections for w in s.data.warnings] + self.notes

    @property
    def mixed(self) -> bool:
        """Whether the report holds runs of both games (then each has its own section, named by the game)."""
        return len(self.sections) > 1
