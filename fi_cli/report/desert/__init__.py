"""The desert's section of a report: the columns it reads, its endings, its tables and figures, its notes.

`report.build` makes what every section has (outcomes, win rates, the stage of the losses, survival; see
`report.stats` and `report.figures`) and asks this module for the rest: the storm meter (the desert's water
level), the sand on the board and in the supply (how close `buried` came), the water of the thirstiest pawn,
where sand piles up and pawns run dry, and when each part is found.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
from matplotlib.figure import Figure

from ...desert.tiles import LOSS_CAUSES, PARTS
from ..figures import LOSS_CAUSES as LOSS_CAUSES_FIGURE
from ..figures import SURVIVAL, WIN_RATES, FigureInfo, Look, outcome_curves, scenario_curves, series_curves, timing
from . import maps, stats
from .style import PART_LABELS

if TYPE_CHECKING:
    from ..load import ReportData

GAME = "desert"
ENDINGS: tuple[str, ...] = ("win", *LOSS_CAUSES)
# dataset -> (columns the report needs, columns it uses when they are there)
COLUMNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "games": (("game", "layout", "difficulty", "players", "roles", "policy", "outcome", "loss_cause", "turns",
               "storm_start", "sand_supply", "final_storm_level", "parts_found", "parts_collected", "ran_dry"),
              ("seed", "fair", "loss_causes", "tiles_excavated", "sand_on_tiles", "components.storm_meter",
               "components.canteens", "components.diamond_sand")),
    "turns": (("game", "turn", "storm_level", "sand_on_tiles", "sand_supply", "water", "blocked", "pawn_cells"),
              ()),
    "tiles": (("game", "tile", "kind", "excavated_turn"), ()),
}
# the games columns the tables use (when there): the games table keeps only these; the others are counted
KEPT = ("game", "players", "outcome", "loss_cause", "turns", "final_storm_level", "parts_found", "parts_collected",
        "fair", "loss_causes", "components.storm_meter")
MEANS = (("mean_parts_collected", "parts_collected", "parts"), ("mean_final_storm", "final_storm_level",
                                                                "storm at end"))
MEANS_LEGEND = "parts: mean parts picked up per game; storm at end: mean final mark of the storm meter."
counts = stats.counts  # what the tables need of a batch of turns and tiles (see report.load)
STAGE = ("parts_collected", len(PARTS), "part")
THIRST_PANELS = {1: "a pawn down to 1 water or less", 0: "a pawn out of water (0)"}  # levels of stats.thirst_curves
# the reference of comparisons when the study names none and plays it (see report.pairing)
STANDARD_LAYOUT = ("forbidden_desert", "the rules' board")

BOARDS = FigureInfo("boards", "The boards of the study",
                    "Each board as it is set up: the storm in the centre and the tiles it pins to a cell (code and "
                    "colour); the other tiles are shuffled each game.")
FIGURES = [
    LOSS_CAUSES_FIGURE,
    WIN_RATES,
    FigureInfo("loss_stage", "At what stage games are lost",
               "Share of all games won, and lost with 0, 1, 2, 3 or 4 parts picked up; losses with all four parts "
               "are the games lost on the way to the Launch Pad."),
    SURVIVAL,
    FigureInfo("storm_levels", "The storm meter by turn",
               "The storm meter's mark after each turn (the desert's water level: the storm draws more cards as it "
               "rises, and the game is lost at the skull, dotted), won and lost games apart, a line per scenario: "
               "the mean over all the games, a game that has ended counting with its final mark (carried "
               "forward, so no curve falls because the games that rose fastest have ended), with the 10-90% band "
               "when there are few scenarios."),
    FigureInfo("sand", "Sand on the board and in the supply",
               "Sand markers on the tiles and left in the supply after each turn, a line per scenario: the mean "
               "over all the games, a game that has ended counting with its final sand (carried forward), with "
               "the 10-90% band when there are few scenarios. The game is lost (buried) when the wind must place "
               "sand and the supply is empty; the legend says how low the supply came."),
    FigureInfo("thirst", "How close the pawns came to dying of thirst",
               "By each turn, the share of all games in which some pawn had come down to 1 water or less (left) "
               "and had run out of water (right), a line per scenario with its 95% Wilson band. A pawn without "
               "water that the sun beats down on loses the game; the games lost to thirst are in the survival "
               "figure."),
    FigureInfo("heat_map", "Where sand piles up and pawns run dry",
               "Each cell of the desert coloured by the share of turns after which the tile on it was blocked "
               "(2 or more sand); circles where the pawns whose thirst lost a game stood; codes and outlines: the "
               "tiles the board pins there at the start."),
    FigureInfo("parts", "When each part is found",
               "Per part: the turn it is found, once both of its clue tiles are excavated (dot: median, line: "
               "10-90% of the games it was found in), and the share of games in which it was found."),
]

TABLE_NOTES = {
    "outcomes": "games, count and share of each ending, median turns, mean parts picked up and final storm mark",
    "loss_stage": "games won and lost with 0-4 parts picked up, as shares of all games and of losses",
    "storm_levels": "mean, median and 10/90% quantiles of the storm meter's mark per scenario, outcome and turn",
    "sand": "mean, median and 10/90% quantiles of the sand on the board and in the supply, per scenario and turn",
    "lowest_supply": "per scenario: the lowest sand supply of the games (quantiles), share at 5 or fewer, buried",
    "thirst": "per scenario, water level and turn: games in which a pawn had come down to it, share, Wilson band",
    "heat_cells": "per cell: share of turns its tile was blocked, and the pawns that ran dry there",
    "part_finds": "per part: share of games found (all, won, lost) and quantiles of the turn found",
}

METHOD_NOTES = [
    "Curves by turn (storm meter, sand): the mean, median and 10-90% quantiles over all the games of a "
    "scenario (won and lost apart for the storm), a game that has ended counting with its final value, so that a "
    "curve never moves because the set of games still being played changes; curves run to the turn by which "
    "98% of the scenario's games have ended. Turn 0 is the set-up: the storm meter's start mark, the 8 sand "
    "markers of the diamond and the supply. Thirst: the share of all games in which some pawn had come down to "
    "1 water, or to 0, by each turn (Wilson bands).",
    "Heat map: a cell's share is the player-turns after which the tile on it held 2 or more sand markers, of "
    "all the scenario's player-turns; tiles slide with the wind, so a cell is a spot of the desert. A pawn ran "
    "dry where it stood when its thirst lost the game (from games.ran_dry and the last turn's pawn_cells).",
    "Parts: a part is found on the turn the second of its two clue tiles (its row and its column) is "
    "excavated (from tiles.kind and excavated_turn).",
]


def prepare(frames: dict[str, pd.DataFrame], run_dir: Path) -> dict[str, pd.DataFrame]:
    return frames


def compute(data: ReportData) -> dict[str, pd.DataFrame]:
    """The desert's own tables (after the shared ones), by CSV file stem."""
    g, c, sc = data.games, data.counts, data.scenarios
    return {
        "storm_levels": stats.storm_curves(c["storm"], g),
        "sand": stats.sand_curves(c["sand"], g),
        "lowest_supply": stats.lowest_supply(c["lowest"], sc),
        "thirst": stats.thirst_curves(c["thirst"], g),
        "heat_cells": stats.heat_cells(c["turn_rows"], c["blocked"], c["ran_dry"], sc),
        "part_finds": stats.part_timing(c["finds"], g, sc),
    }


def _boards(data: ReportData, shown: list[str] | None = None) -> list[dict]:
    """The boards of the study (of the `shown` scenarios), if any pins a tile (a study of the rules' board needs
    no drawing of it)."""
    info = data.info if shown is None else data.info[data.info["scenario"].isin(shown)]
    boards = [data.layouts[lid] for lid in dict.fromkeys(info["layout"])]
    return boards if any(b.get("pins") for b in boards) else []


def figure_list(data: ReportData) -> list[FigureInfo]:
    return [BOARDS, *FIGURES] if _boards(data) else FIGURES


def make_figures(tables: dict[str, pd.DataFrame], data: ReportData, look: Look, endings: list[str]
                 ) -> dict[str, Figure]:
    """The desert's own figures (the shared ones are made by `build`)."""
    skulls = {sc: stats.skulls(data.games)[sc] for sc in look.scenarios}
    low = tables["lowest_supply"].set_index("scenario")
    lowest = {sc: f"lowest supply: median {low.loc[sc, 'median_lowest']:.0f}, {low.loc[sc, 'share_5_or_fewer']:.0%} "
                  "of games at 5 or fewer" for sc in look.scenarios}
    layout_of = data.info.set_index("scenario")["layout"]
    pins = {sc: data.layouts[layout_of[sc]].get("pins", {}) for sc in look.scenarios}
    sand = tables["sand"]
    top = max(float(sand["q90"].max()) if len(sand) else 0, 1)
    made = {
        "storm_levels": outcome_curves(tables["storm_levels"], tables["outcomes"], look, "storm meter mark",
                                       (0.5, max(skulls.values()) + 0.5), ref=skulls),
        "sand": series_curves(sand, look, "where", stats.SAND_SERIES, "sand markers", (0, top * 1.05), lowest),
        "thirst": scenario_curves(tables["thirst"], look, "share", "share of all games", column="water",
                                  panels=THIRST_PANELS, band=("ci_low", "ci_high"), percent=True,
                                  text="Each game counts from the turn a pawn first came down to that much water, "
                                       "to the end; 95% Wilson bands."),
        "heat_map": maps.heat_map(tables["heat_cells"], look, pins),
        "parts": timing(tables["part_finds"], look, "part", PART_LABELS, "found", "turn found",
                        "dot: median turn found; line: 10-90% of the games it was found in; right of each panel: "
                        "the share of games the part was found in"),
    }
    boards = _boards(data, look.scenarios)
    if boards:
        made["boards"] = maps.boards(boards)
    return made


def parts(data: ReportData, tables: dict[str, pd.DataFrame]) -> list:
    """No part beyond the figures (the explorer models the island's layout features)."""
    return []
