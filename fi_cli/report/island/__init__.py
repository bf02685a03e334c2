"""The island's section of a report: the columns it reads, its endings, its tables and figures, its notes.

`report.build` makes what every section has (outcomes, win rates, the stage of the losses, survival; see
`report.stats` and `report.figures`) and asks this module for the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
from matplotlib.figure import Figure

from ...island.tiles import LOSS_CAUSES, TILE_STATES, TREASURES
from ..errors import ReportError
from ..figures import CARRIED, SURVIVAL, WIN_RATES, FigureInfo, Look, outcome_curves, scenario_curves, series_curves
from ..figures import LOSS_CAUSES as LOSS_CAUSES_FIGURE
from ..maps import no_data
from ..sections import Part, Table
from . import explorer, explorer_figures, maps, stats
from .figures import lost_treasures, water_at_loss
from .stats import skulls as island_skulls

if TYPE_CHECKING:
    from ..load import ReportData

GAME = "island"
# turn_limit is recorded by the simulator, not by the rules (a safety net), so it is not in LOSS_CAUSES.
ENDINGS: tuple[str, ...] = ("win", *LOSS_CAUSES, "turn_limit")
# dataset -> (columns the report needs, columns it uses when they are there)
COLUMNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "games": (("game", "layout", "difficulty", "players", "policy", "outcome", "loss_cause", "turns",
               "final_water_level", "treasures_captured", "tiles_sunk"),
              ("seed", "fair", "roles", "loss_causes", "lost_treasure", "drowned_tile", "components.water_meter")),
    "turns": (("game", "turn", "water_level", "waters_rise", "treasures_captured", "tiles_flooded", "tiles_sunk"),
              ("treasures", "actions")),
    "tiles": (("game", "tile", "row", "col", "sunk_turn"), ()),
}
# the games columns the tables use (when there): the games table keeps only these; the others are counted
KEPT = ("game", "players", "outcome", "loss_cause", "turns", "final_water_level", "treasures_captured", "fair",
        "loss_causes", "lost_treasure", "drowned_tile", "components.water_meter")
counts = stats.counts  # what the tables need of a batch of turns and tiles (see report.load)
# the means of the summary: (column of the outcomes table, column of the games, header)
MEANS = (("mean_treasures", "treasures_captured", "treasures"), ("mean_final_water", "final_water_level",
                                                                 "water at end"))
MEANS_LEGEND = "treasures: mean treasures captured per game; water at end: mean final water level."
STAGE = ("treasures_captured", len(TREASURES), "treasure")  # the losses by stage: column, most, unit
# the reference of comparisons when the study names none and plays it (see report.pairing)
STANDARD_LAYOUT = ("forbidden_island", "the standard island")

FIGURES = [
    FigureInfo("layouts", "The islands of the study",
               "Each layout as it is played: its cells, and the tiles it pins to a cell (code and colour); the "
               "other tiles are placed at random each game."),
    LOSS_CAUSES_FIGURE,
    WIN_RATES,
    FigureInfo("loss_stage", "At what stage games are lost",
               "Share of all games won, and lost with 0, 1, 2, 3 or 4 treasures captured; losses with all four "
               "treasures are the games lost on the way to Fools' Landing."),
    SURVIVAL,
    FigureInfo("island_left", "How much of the island is left",
               "Tiles dry, flooded and sunk after each turn, a panel each, a line per scenario: the mean over all "
               "the games, a game that has ended counting with the island it left (carried forward), with the "
               "10-90% band of the games when there are few scenarios. Does one island sink faster?"),
    FigureInfo("water_levels", "Water level by turn",
               "The water level after each turn, won and lost games apart, a line per scenario: the mean over all "
               "the games, a game that has ended counting with its final level (carried forward), with the "
               "10-90% band when there are few scenarios. The water rises with the treasure deck, not with the "
               "island: it is the clock the island is played against."),
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
    FigureInfo("treasures", "How fast the treasures are captured",
               "The mean number of treasures captured by each turn, a line per scenario, over all the games: a "
               "game that has ended counts with the treasures it had. Which treasure is captured when is in "
               "treasure_captures.csv."),
]

EXPLORER_FIGURES = [
    FigureInfo("explorer_features", "Win rate against each feature of the islands",
               "Each point is one island (one scenario) with its 95% Wilson interval, against one layout feature; "
               "the line is a logistic regression of a win on that feature alone (with one intercept per slice)."),
    FigureInfo("explorer_model", "What goes with a hard island, all features at once",
               "Coefficients of a logistic regression of a win on the standardised features: the change in the "
               "log-odds of a win per standard deviation of a feature, the others held fixed, with 95% intervals "
               "that are cluster-robust by island (games of one island are not independent); in grey, the same "
               "for the feature alone. Features that measure much the same share their effect when together."),
    FigureInfo("explorer_extremes", "The hardest and the easiest islands",
               f"The {explorer_figures.EXTREMES} islands with the lowest and the highest win rate (95% Wilson "
               "interval), drawn as on the layouts figure."),
    FigureInfo("explorer_ranking", "Every island ranked",
               "Each island by name, from the hardest (rank 1, at the top) to the easiest: its win rate with "
               "its 95% Wilson interval; dotted: the share of all their games won. The ranking table below gives "
               "their features."),
]

TABLE_NOTES = {
    "outcomes": "games, count and share of each ending, median turns, mean treasures and final water level",
    "loss_stage": "games won and lost with 0-4 treasures captured, as shares of all games and of losses",
    "island_left": "mean, median and 10/90% quantiles of the tiles dry, flooded and sunk, per scenario and turn",
    "water_levels": "mean, median and 10/90% quantiles of the water level per scenario, outcome and turn",
    "water_level_reached": "turn each water level is first reached (quantiles) and share of games reaching it",
    "water_at_loss": "lost games by loss cause and water level at the loss",
    "tile_risk_cells": "per layout cell: hazard per turn on the island, Kaplan-Meier median turn, share sunk",
    "tile_risk_tiles": "per tile: share of games it sank (Wilson interval) and the median turn it sank",
    "loss_cells": "per layout cell: lost games whose loss involved its tile, and games a pawn drowned there",
    "lost_treasures": "games lost because both tiles of each treasure sank",
    "treasure_captures": "per treasure: share of games captured (all, won, lost) and capture turn quantiles",
    "treasures_by_turn": "per scenario and turn: treasures captured by then, mean, median and 10/90% quantiles",
    "explorer_islands": "per island (scenario): rank in its slice, games, wins, win rate, Wilson interval, features",
    "explorer_model": "the logistic regression of a win on the standardised features: log-odds per SD, interval, p",
}

METHOD_NOTES = [
    "Curves by turn (island left, water level, treasures): the mean, median and 10-90% quantiles over all the "
    "games of a scenario, a game that has ended counting with its final value, so that a curve never moves "
    "because the set of games still being played changes; curves run to the turn by which 98% of the "
    "scenario's games have ended.",
    "Risk map: a tile's hazard is its sinkings divided by the turns it was on the island (a tile that "
    "sank on turn t counts t turns, one that never sank all the turns of its game); the Kaplan-Meier "
    "median is the turn by which half of the tiles on the cell sink, games that end first counting as "
    "censored. Neither grows because games last longer, unlike the share of games a tile sank in.",
    "Loss map: a lost game involves the two tiles of the treasure lost, Fools' Landing when it sank, and "
    "the tile a pawn drowned on (from games.lost_treasure, loss_causes and drowned_tile).",
]


def prepare(frames: dict[str, pd.DataFrame], run_dir: Path) -> dict[str, pd.DataFrame]:
    """Captures are timed from turns.treasures, or from the actions' text in runs logged before it."""
    turns = frames.get("turns")
    if turns is None:
        return frames
    if "treasures" not in turns.columns and "actions" not in turns.columns:
        raise ReportError(f"{run_dir / 'turns'}: needs a treasures or an actions column to time captures")
    if "treasures" in turns.columns:
        frames["turns"] = turns.drop(columns=[c for c in ("actions",) if c in turns.columns])
    return frames


def compute(data: ReportData) -> dict[str, pd.DataFrame]:
    """The island's own tables (after the shared ones), by CSV file stem."""
    g, c, sc = data.games, data.counts, data.scenarios
    tables = {
        "island_left": stats.island_left(c["left"], g),
        "water_levels": stats.water_curves(c["water"], g),
        "water_level_reached": stats.level_reached_summary(c["reached"], g, sc, max(island_skulls(g).values())),
        "water_at_loss": stats.water_at_loss(g, sc),
        "tile_risk_cells": stats.tile_risk_cells(c["exposure"], c["cell_tiles"]),
        "tile_risk_tiles": stats.tile_risk_tiles(c["tile_sinks"], sc),
        "lost_treasures": stats.lost_treasures(g, sc),
        "treasure_captures": stats.treasure_summary(c["captures"], g, sc),
        "treasures_by_turn": stats.treasures_by_turn(c["treasures"], g),
    }
    if stats.has_loss_details(g):
        tables["loss_cells"] = stats.loss_cells(c["involved"], c["drowned"], c["cell_tiles"], g)
    return tables


def figure_list(data: ReportData) -> list[FigureInfo]:
    return FIGURES


def make_figures(tables: dict[str, pd.DataFrame], data: ReportData, look: Look, endings: list[str]
                 ) -> dict[str, Figure]:
    """The island's own figures (the shared ones are made by `build`)."""
    cells = tables["tile_risk_cells"]
    shown = data.info[data.info["scenario"].isin(look.scenarios)]
    shapes = [data.layouts[lid] for lid in dict.fromkeys(shown["layout"])]
    no_details = no_data("This run does not log what losses took (games.lost_treasure, drowned_tile); "
                         "simulate it again with this version of fi to see them.")
    details = stats.has_loss_details(data.games)
    skulls = island_skulls(data.games)
    top = max(skulls[sc] for sc in look.scenarios)
    levels = range(1, top + 1)
    ticks = [*map(str, levels[:-1]), "skull" if len({skulls[sc] for sc in look.scenarios}) == 1 else str(top)]
    return {
        "layouts": maps.layouts(shapes),
        "island_left": series_curves(tables["island_left"], look, "state", TILE_STATES, "tiles", (0, 24.5)),
        "water_levels": outcome_curves(tables["water_levels"], tables["outcomes"], look, "water level",
                                       (0.5, top + 0.5), (levels, ticks), {sc: skulls[sc] for sc in look.scenarios}),
        "water_at_loss": water_at_loss(tables["water_at_loss"], look, endings, top),
        "risk_map": maps.risk_map(cells, look, bool((cells["pinned"] == "").any())),
        "loss_map": maps.loss_map(tables["loss_cells"], look) if "loss_cells" in tables else no_details,
        "lost_treasures": lost_treasures(tables["lost_treasures"], look) if details else no_details,
        "treasures": scenario_curves(tables["treasures_by_turn"], look, "mean", "treasures captured (mean)",
                                     limits=(0, len(TREASURES) + 0.2), text=f"Line: the mean; {CARRIED}."),
    }


EXPLORER_METHOD = (
    "Explorer: each island's features come from its cells and pinned tiles alone (`fi layouts show` lists them). "
    "The model is a logistic regression of a win on the features standardised over the islands, with one "
    "intercept per slice (scenarios that differ only in their layout), fitted on each island's counts of wins "
    "and games (statsmodels GLM, binomial). Games of one island are not independent draws: they share "
    "whatever about the island the features miss, so counting 500 games of an island as 500 independent "
    "observations would make the intervals far too narrow. The standard errors are therefore cluster-robust "
    "by island, with t intervals over the islands; the Pearson dispersion says how much more the islands "
    "differ than the features explain. Features that are undefined for some island, constant, or a linear "
    "combination of others are left out (the section says which). Associations, not causes: a generated "
    "island's features come together (long islands have more coast), so read a coefficient as 'with the "
    "other features held fixed'.")


def parts(data: ReportData, tables: dict[str, pd.DataFrame]) -> list[Part]:
    """The explorer (what makes an island hard), when the runs play many layouts."""
    if not explorer.applies(data):
        return []
    ex = explorer.explore(data, tables["win_rates"])
    slices = f" in {len(ex.slices)} slices ({', '.join(ex.slices)})" if len(ex.slices) > 1 else ""
    intro = (f"{ex.fit['islands']:.0f} islands{slices}, {ex.fit['games']:,.0f} games. What goes with a low win "
             f"rate, from the {len(ex.features)} layout features in the model ({', '.join(ex.features)}):")
    features, model, *rest = EXPLORER_FIGURES
    made = make_explorer_figures(ex, data)
    blocks = [model, Table("model", "The model", _model_view(ex.model), EXPLORER_METHOD), features, *rest,
              Table("ranking", "Ranking", explorer_figures.island_list(ex))]
    return [Part("explorer", "Explorer: what makes an island hard", intro, explorer.model_sentences(ex), blocks, made,
                 {"explorer_islands": ex.islands, "explorer_model": ex.model}, EXPLORER_METHOD)]


def make_explorer_figures(ex: explorer.Explorer, data: ReportData) -> dict[str, Figure]:
    """The explorer's figures (untitled: `build` titles them like the others)."""
    return {
        "explorer_features": explorer_figures.feature_scatter(ex),
        "explorer_model": explorer_figures.coefficients(ex),
        "explorer_extremes": explorer_figures.extremes(ex, data.layouts),
        "explorer_ranking": explorer_figures.ranking(ex),
    }


def _model_view(m: pd.DataFrame) -> pd.DataFrame:
    """The explorer's model as a table that reads: each feature's log-odds per SD with its interval."""
    return pd.DataFrame({
        "feature": m["feature"], "what it measures": m["description"], "mean": m["mean"].map("{:.2f}".format),
        "SD": m["sd"].map("{:.2f}".format),
        "log-odds per SD [95% CI]": [f"{c:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                                     for c, lo, hi in zip(m["coef"], m["ci_low"], m["ci_high"], strict=True)],
        "odds ratio": m["odds_ratio"].map("{:.2f}".format), "p": m["p_value"].map("{:.2g}".format),
        "alone: log-odds per SD [95% CI]": [f"{c:+.3f} [{lo:+.3f}, {hi:+.3f}]" for c, lo, hi in
                                            zip(m["coef_alone"], m["ci_low_alone"], m["ci_high_alone"], strict=True)]})
