"""What a written report is: one section per game of its runs (a report of one game has one), each with its
data, comparisons, tables and figures, and the files written."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .figures import FigureInfo
from .games import TITLES
from .load import ReportData
from .pairing import Pairing


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
