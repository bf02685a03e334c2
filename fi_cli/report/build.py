"""`fi report` as a library call: runs -> statistics -> figures, CSV tables, summary.md, index.html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..sim.errors import os_error_text
from . import figures, stats
from .errors import ReportError
from .load import ReportData, load_runs
from .pages import write_html, write_markdown
from .tables import summary_table


@dataclass
class FigureInfo:
    name: str  # file stem: NAME.png and NAME.svg
    title: str
    caption: str


@dataclass
class Report:
    out_dir: Path
    data: ReportData
    baseline: str
    summary: pd.DataFrame
    tables: dict[str, pd.DataFrame]  # CSV stem -> table
    figures: list[FigureInfo]
    files: list[Path] = field(default_factory=list)
    formats: tuple[str, ...] = ("png", "svg")

    @property
    def warnings(self) -> list[str]:
        return self.data.warnings


def default_out_dir(run_dirs: Sequence[Path]) -> Path:
    """reports/<run name> (names joined with '+' for several runs)."""
    return Path("reports") / "+".join(Path(d).resolve().name for d in run_dirs)


def resolve_baseline(data: ReportData, baseline: str | None) -> str:
    """The baseline label: the first scenario by default; a bare scenario id is accepted when unique."""
    if baseline is None:
        return data.scenarios[0]
    if baseline in data.scenarios:
        return baseline
    matches = data.info.loc[data.info["scenario_id"] == baseline, "scenario"].tolist()
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise ReportError(f"baseline {baseline!r} is in several runs; give one of: {', '.join(matches)}")
    raise ReportError(f"unknown baseline scenario {baseline!r}; scenarios are: {', '.join(data.scenarios)}")


FIGURES = [
    FigureInfo("loss_causes", "How games end",
               "Each bar is one scenario, split into the share of games won and lost by each cause; "
               "n is the number of games."),
    FigureInfo("win_rates", "Win rate and comparison with the baseline",
               "Left: win rate with its 95% Wilson interval. Right: difference to the baseline scenario in "
               "percentage points with a 95% Newcombe interval; p-values from a two-proportion z-test "
               "(Fisher's exact test when counts are small), Holm-corrected over all comparisons. Filled "
               "squares are differences that stay significant after the correction."),
    FigureInfo("water_levels", "Water level by turn",
               "Median water level (line) and the range of the middle 80% of games (band), over the games "
               "still being played at that turn; won and lost games apart. A curve stops when fewer than "
               "5 games (or 2% of the group) are left."),
    FigureInfo("water_level_reached", "When each water level is reached",
               "Top: the turn at which the water first reaches each level (dot: median, thick line: "
               "middle 50%, thin line: 10-90% of the games that reached it). Bottom: the share of games "
               "that reached the level at all."),
    FigureInfo("survival", "Survival and competing causes",
               "First panel: share of games still going after each turn. Other panels, per scenario: "
               "the cumulative share of games that ended each way by that turn (all lines add up to "
               "100%), with 95% Wilson bands."),
    FigureInfo("risk_map", "Island risk map",
               "Each layout cell coloured by the share of games in which the tile on it sank; the text "
               "gives that share and the median turn it sank. Fools' Landing (H) and treasure tiles are "
               "outlined where the layout pins them."),
    FigureInfo("key_tiles", "Fools' Landing and the treasure tiles",
               "Share of games in which each key tile sank, with 95% Wilson intervals."),
    FigureInfo("treasures", "Treasures",
               "Left: turn at which each treasure is captured (dot: median, line: 10-90%), with the share "
               "of games it was captured in. Right: lost games split by how many treasures they had "
               "captured."),
]


def compute(data: ReportData, baseline: str) -> dict[str, pd.DataFrame]:
    """Every table of the report, by CSV file stem."""
    g, t, sc = data.games, data.turns, data.scenarios
    reached = stats.level_reached(t)
    return {
        "outcomes": stats.outcome_table(g, sc),
        "win_rates": stats.win_rates(g, sc, baseline),
        "water_levels": stats.water_curves(t, g),
        "water_level_reached": stats.level_reached_summary(reached, g, sc),
        "survival": stats.cumulative_incidence(g, sc),
        "tile_risk_cells": stats.tile_risk_cells(data.tiles, g),
        "tile_risk_tiles": stats.tile_risk_tiles(data.tiles, sc),
        "treasure_captures": stats.treasure_summary(t, g, sc),
        "treasures_in_losses": stats.treasures_in_losses(g, sc),
    }


def draw(
    tables: dict[str, pd.DataFrame], data: ReportData, baseline: str, out_dir: Path,
    formats: Sequence[str] = ("png", "svg"),
) -> list[Path]:
    """Draw and save every figure (PNG + SVG by default)."""
    sc = data.scenarios
    endings = stats.endings_in(data.games)
    cells = tables["tile_risk_cells"]
    order = {s: i for i, s in enumerate(sc)}
    panels = sorted({(r.scenario, r.layout) for r in cells.itertuples()}, key=lambda p: (order[p[0]], p[1]))
    random_placement = bool((cells["pinned"] == "").any())
    made = {
        "loss_causes": figures.loss_causes(tables["outcomes"], endings),
        "win_rates": figures.win_rates(tables["win_rates"], baseline),
        "water_levels": figures.water_curves(tables["water_levels"], tables["outcomes"], sc),
        "water_level_reached": figures.level_reached(tables["water_level_reached"], sc),
        "survival": figures.survival(tables["survival"], sc, endings),
        "risk_map": figures.risk_map(cells, panels, random_placement),
        "key_tiles": figures.key_tiles(tables["tile_risk_tiles"], sc),
        "treasures": figures.treasures(tables["treasure_captures"], tables["treasures_in_losses"], sc),
    }
    paths = []
    for info in FIGURES:
        paths += figures.save(made[info.name], out_dir, info.name, formats)
    return paths


def build_report(
    run_dirs: Sequence[Path], out_dir: Path | None = None, baseline: str | None = None,
    formats: Sequence[str] = ("png", "svg"),
) -> Report:
    """Read the runs and write the whole report into out_dir (default reports/<run name>).

    `formats`: figure file types; the page shows the PNGs and links the SVGs (tests skip SVG for speed)."""
    if "png" not in formats:
        raise ReportError("the report page needs PNG figures; formats must include 'png'")
    data = load_runs([Path(d) for d in run_dirs])
    base = resolve_baseline(data, baseline)
    out_dir = Path(out_dir) if out_dir is not None else default_out_dir(run_dirs)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot create the report directory {os_error_text(e, out_dir)} (it is set with "
                          "--out)") from e
    tables = compute(data, base)
    summary = summary_table(tables["outcomes"], tables["win_rates"], stats.endings_in(data.games))
    report = Report(out_dir=out_dir, data=data, baseline=base, summary=summary, tables=tables, figures=FIGURES,
                    formats=tuple(formats))
    for name, df in tables.items():
        path = out_dir / f"{name}.csv"
        df.to_csv(path, index=False)
        report.files.append(path)
    summary.to_csv(out_dir / "summary.csv", index=False)
    report.files.append(out_dir / "summary.csv")
    report.files += draw(tables, data, base, out_dir, formats)
    report.files.append(write_markdown(report))
    report.files.append(write_html(report))
    return report
