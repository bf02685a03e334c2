"""`fi report` as a library call: runs -> statistics -> figures, CSV tables, summary.md, index.html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ..sim.errors import os_error_text
from . import figures, maps, stats
from .errors import ReportError
from .figures import Look
from .load import ReportData, load_runs
from .pages import write_html, write_markdown
from .pairing import Pairing, pair_scenarios
from .style import scenario_styles
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
    pairing: Pairing
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


FIGURES = [
    FigureInfo("layouts", "The islands of the study",
               "Each layout as it is played: its cells, and the tiles it pins to a cell (code and colour); the "
               "other tiles are placed at random each game."),
    FigureInfo("loss_causes", "How games end",
               "Each bar is one scenario, split into the share of games won and lost by each cause; n is the "
               "number of games."),
    FigureInfo("win_rates", "Win rate, and each scenario against its baseline",
               "Left: win rate with its 95% Wilson interval. Right: the difference to the scenario's baseline in "
               "percentage points with a 95% Newcombe interval; 'vs' names the baseline when scenarios have "
               "different ones (see the method notes). Filled squares stay significant after Holm's correction."),
    FigureInfo("loss_stage", "At what stage games are lost",
               "Share of all games won, and lost with 0, 1, 2, 3 or 4 treasures captured; losses with all four "
               "treasures are the games lost on the way to Fools' Landing."),
    FigureInfo("survival", "Survival and competing causes",
               "First panel: share of games still going after each turn. Other panels, per scenario: the "
               "cumulative share of games that ended each way by that turn (all lines add up to 100%), with 95% "
               "Wilson bands."),
    FigureInfo("island_left", "How much of the island is left",
               "Tiles dry, flooded and sunk after each turn: median (line) and the middle 80% of the games "
               "still being played (band). A curve stops when fewer than 5 games (or 2%) are left."),
    FigureInfo("water_levels", "Water level by turn",
               "Median water level (line) and the middle 80% of the games still being played (band), won and "
               "lost games apart. The water rises with the treasure deck, so this differs little between "
               "islands; it sets the clock the island is played against."),
    FigureInfo("water_at_loss", "Water level at the loss, by cause",
               "The water level at which games were lost, as a share of each scenario's lost games, split by "
               "loss cause: low levels are early losses of the island itself, 'skull' the water winning."),
    FigureInfo("risk_map", "Where the island sinks",
               "Each cell coloured by the sinking hazard of the tile on it (sinkings per turn it was on the "
               "island), with the Kaplan-Meier median turn it sinks. Unlike the share of games in which a tile "
               "sank, neither grows when games last longer."),
    FigureInfo("loss_map", "Where games are lost",
               "Each cell coloured by the share of lost games whose loss involved the tile on it: a tile of the "
               "lost treasure, Fools' Landing, or the tile a pawn drowned on; circles mark where pawns drowned."),
    FigureInfo("lost_treasures", "Which treasure is lost",
               "Share of all games lost because both tiles of a treasure sank, by treasure."),
    FigureInfo("treasures", "When treasures are captured",
               "Per treasure: the turn it is captured (dot: median, line: 10-90% of captures) and the share of "
               "games in which it was captured."),
]


def compute(data: ReportData, pairing: Pairing | str) -> dict[str, pd.DataFrame]:
    """Every table of the report, by CSV file stem (`pairing`: a Pairing, or one baseline scenario)."""
    g, t, sc = data.games, data.turns, data.scenarios
    baselines = pairing.baselines if isinstance(pairing, Pairing) else pairing
    labels = data.labels
    outcomes = stats.outcome_table(g, sc)
    outcomes.insert(1, "label", outcomes["scenario"].map(labels))
    rates = stats.win_rates(g, sc, baselines)
    rates.insert(1, "label", rates["scenario"].map(labels))
    rates.insert(rates.columns.get_loc("baseline") + 1, "baseline_label", rates["baseline"].map(labels).fillna(""))
    tables = {
        "outcomes": outcomes,
        "win_rates": rates,
        "loss_stage": stats.loss_stage(g, sc),
        "survival": stats.cumulative_incidence(g, sc),
        "island_left": stats.island_left(t, data.tiles, g),
        "water_levels": stats.water_curves(t, g),
        "water_level_reached": stats.level_reached_summary(stats.level_reached(t), g, sc),
        "water_at_loss": stats.water_at_loss(g, sc),
        "tile_risk_cells": stats.tile_risk_cells(data.tiles, g),
        "tile_risk_tiles": stats.tile_risk_tiles(data.tiles, sc),
        "lost_treasures": stats.lost_treasures(g, sc),
        "treasure_captures": stats.treasure_summary(t, g, sc),
    }
    if stats.has_loss_details(g):
        tables["loss_cells"] = stats.loss_cells(data.tiles, g)
    return tables


def look_of(data: ReportData) -> Look:
    info = data.info
    return Look(data.scenarios, data.labels, scenario_styles(info["scenario"], info["group"], info["within"]))


def make_figures(tables: dict[str, pd.DataFrame], data: ReportData, pairing: Pairing) -> dict[str, Figure]:
    """Every figure, titled (with the PARTIAL note when games are missing)."""
    look = look_of(data)
    endings = stats.endings_in(data.games)
    cells = tables["tile_risk_cells"]
    shapes = [data.layouts[lid] for lid in dict.fromkeys(data.info["layout"])]
    no_details = maps.no_data("This run does not log what losses took (games.lost_treasure, drowned_tile); "
                              "simulate it again with this version of fi to see them.")
    made = {
        "layouts": maps.layouts(shapes),
        "loss_causes": figures.loss_causes(tables["outcomes"], endings, look),
        "win_rates": figures.win_rates(tables["win_rates"], look, pairing.single),
        "loss_stage": figures.loss_stage(tables["loss_stage"], look),
        "survival": figures.survival(tables["survival"], look, endings),
        "island_left": figures.island_left(tables["island_left"], look),
        "water_levels": figures.water_curves(tables["water_levels"], tables["outcomes"], look),
        "water_at_loss": figures.water_at_loss(tables["water_at_loss"], look, endings),
        "risk_map": maps.risk_map(cells, look, bool((cells["pinned"] == "").any())),
        "loss_map": maps.loss_map(tables["loss_cells"], look) if "loss_cells" in tables else no_details,
        "lost_treasures": (figures.lost_treasures(tables["lost_treasures"], look)
                           if stats.has_loss_details(data.games) else no_details),
        "treasures": figures.treasures(tables["treasure_captures"], look),
    }
    note = data.partial_note
    for info in FIGURES:
        fig = made[info.name]
        fig.suptitle(f"{info.title}\n{note}" if note else info.title, fontsize=12,
                     color="#A0001E" if note else "black")
    return made


def build_report(
    run_dirs: Sequence[Path], out_dir: Path | None = None, baseline: str | None = None,
    formats: Sequence[str] = ("png", "svg"), partial: bool = False,
) -> Report:
    """Read the runs and write the whole report into out_dir (default reports/<run name>).

    `baseline`: matrix values KEY=VALUE or a scenario (see `pairing`). `partial`: report on the sound
    chunks of an incomplete or damaged run instead of stopping. `formats`: figure files; PNG is needed
    (the page inlines it), SVG is for zooming (tests skip it for speed)."""
    if "png" not in formats:
        raise ReportError("the report page needs PNG figures; formats must include 'png'")
    data = load_runs([Path(d) for d in run_dirs], partial=partial)
    pairing = pair_scenarios(data, baseline)
    out_dir = Path(out_dir) if out_dir is not None else default_out_dir(run_dirs)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot create the report directory {os_error_text(e, out_dir)} (it is set with "
                          "--out)") from e
    tables = compute(data, pairing)
    summary = summary_table(tables["outcomes"], tables["win_rates"], stats.endings_in(data.games))
    report = Report(out_dir=out_dir, data=data, pairing=pairing, summary=summary, tables=tables, figures=FIGURES,
                    formats=tuple(formats))
    for name, df in [*tables.items(), ("summary", summary)]:
        path = out_dir / f"{name}.csv"
        df.to_csv(path, index=False)
        report.files.append(path)
    for name, fig in make_figures(tables, data, pairing).items():
        report.files += figures.save(fig, out_dir, name, formats)
    report.files.append(write_markdown(report))
    report.files.append(write_html(report))
    return report
