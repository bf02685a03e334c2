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
from ..figures import SURVIVAL, WIN_RATES, FigureInfo, Look, outcome_curves, series_curves, timing
from . import maps, stats
from .style import PART_LABELS, SAND_COLOURS

if TYPE_CHECKING:
    from ..load import ReportData

GAME = "desert"
ENDINGS: tuple[str, ...] = ("win", *LOSS_CAUSES)
# dataset -> (columns the report needs, columns it uses when they are there)
COLUMNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "games": (("game", "layout", "difficulty", "players", "roles", "policy", "outcome", "loss_cause", "turns",
               "storm_start", "sand_supply", "final_storm_level", "parts_found", "parts_collected", "ran_dry"),
              ("seed", "loss_causes", "tiles_excavated", "sand_on_tiles", "components.storm_meter",
               "components.canteens")),
    "turns": (("game", "turn", "storm_level", "sand_on_tiles", "sand_supply", "water", "blocked", "pawn_cells"),
              ()),
    "tiles": (("game", "tile", "kind", "excavated_turn"), ()),
}
MEANS = (("mean_parts_collected", "parts_collected", "parts"), ("mean_final_storm", "final_storm_level",
                                                                "storm at end"))
MEANS_LEGEND = "parts: mean parts picked up per game; storm at end: mean final mark of the storm meter."
STAGE = ("parts_collected", len(PARTS), "part")

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
               "rises, and the game is lost at the skull, the dotted line): median (line) and the middle 80% of "
               "the games still being played (band), won and lost games apart."),
    FigureInfo("sand", "Sand on the board and in the supply",
               "Sand markers on the tiles and left in the supply after each turn: median (line) and the middle 80% "
               "of the games still being played (band). The game is lost (buried) when the wind must place sand "
               "and the supply is empty; each panel's title says how low the supply came."),
    FigureInfo("thirst", "Water of the thirstiest pawn",
               "The least water of any pawn after each turn (turn 0: full canteens): median (line) and the middle "
               "80% of the games still being played (band), won and lost games apart. A pawn without water that "
               "the sun beats down on loses the game."),
    FigureInfo("heat_map", "Where sand piles up and pawns run dry",
               "Each cell of the desert coloured by the share of turns after which the tile on it was blocked "
               "(2 or more sand); circles where the pawns whose thirst lost a game stood."),
    FigureInfo("parts", "When each part is found",
               "Per part: the turn it is found, once both of its clue tiles are excavated (dot: median, line: "
               "10-90% of the games it was found in), and the share of games in which it was found."),
]

TABLE_NOTES = {
    "outcomes": "games, count and share of each ending, median turns, mean parts picked up and final storm mark",
    "loss_stage": "games won and lost with 0-4 parts picked up, as shares of all games and of losses",
    "storm_levels": "median and 10/90% quantiles of the storm meter's mark per scenario, outcome and turn",
    "sand": "median and 10/90% quantiles of the sand on the board and in the supply, per scenario and turn",
    "lowest_supply": "per scenario: the lowest sand supply of the games (quantiles), share at 5 or fewer, buried",
    "thirst": "median and 10/90% quantiles of the water of the thirstiest pawn, per scenario, outcome and turn",
    "heat_cells": "per cell: share of turns its tile was blocked, and the pawns that ran dry there",
    "part_finds": "per part: share of games found (all, won, lost) and quantiles of the turn found",
}

METHOD_NOTES = [
    "Bands by turn (storm meter, sand, thirst): median and 10-90% quantiles over the games still being "
    "played; a curve stops when fewer than 5 games, or 2% of the scenario's games, are left. Turn 0 is the "
    "set-up: the storm meter's start mark, the 8 sand markers of the diamond and the supply, full canteens.",
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
    g, t, sc = data.games, data.turns, data.scenarios
    return {
        "storm_levels": stats.storm_curves(t, g),
        "sand": stats.sand_curves(t, g),
        "lowest_supply": stats.lowest_supply(t, g, sc),
        "thirst": stats.thirst_curves(t, g),
        "heat_cells": stats.heat_cells(t, g, sc),
        "part_finds": stats.part_timing(data.tiles, g, sc),
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
    titles = {sc: f"{look.label(sc, 40)}\nlowest supply: median {low.loc[sc, 'median_lowest']:.0f}, "
                  f"{low.loc[sc, 'share_5_or_fewer']:.0%} of games at 5 or fewer" for sc in look.scenarios}
    sand = tables["sand"]
    top = max(float(sand["q90"].max()) if len(sand) else 0, 1)
    water = max(float(tables["thirst"]["q90"].max()) if len(tables["thirst"]) else 0, 5)
    made = {
        "storm_levels": outcome_curves(tables["storm_levels"], tables["outcomes"], look, "storm meter mark",
                                       (0.5, max(skulls.values()) + 0.5), ref=skulls),
        "sand": series_curves(sand, look, "where", SAND_COLOURS, "sand markers", (0, top * 1.05), titles),
        "thirst": outcome_curves(tables["thirst"], tables["outcomes"], look, "water of the thirstiest pawn",
                                 (-0.3, water + 0.3), ref=dict.fromkeys(look.scenarios, 0)),
        "heat_map": maps.heat_map(tables["heat_cells"], look),
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
