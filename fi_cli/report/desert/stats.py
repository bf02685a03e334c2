"""The desert's own statistics: the storm meter, the sand and the water by turn, where sand piles up and where
pawns run dry, and when each part is found."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...desert.tiles import DIAMOND, PARTS, SIZE, STORM_TRACKS
from ..stats import HORIZON, event_timing, meter_skulls, outcome_bands, series_bands, wilson

SAND_SERIES = ("on the board", "in the supply")


def skulls(games: pd.DataFrame) -> dict[str, int]:
    """Per scenario, the storm meter's skull: the rulebook's for its player count, unless its study set a meter."""
    return meter_skulls(games, "storm_meter", lambda row: len(STORM_TRACKS[int(row["players"])]) + 1)


def _with_start(turns: pd.DataFrame, games: pd.DataFrame, column: str, start: pd.Series) -> pd.DataFrame:
    """`column` by turn, with turn 0 (the set-up) taken from `start` (a value per games row)."""
    first = pd.DataFrame({"scenario": games["scenario"], "game": games["game"], "turn": 0, column: start})
    return pd.concat([first, turns[["scenario", "game", "turn", column]]], ignore_index=True)


def storm_curves(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, outcome and turn (0 = set-up): median and 10/90% quantiles of the storm meter's mark over
    the games still being played."""
    return outcome_bands(_with_start(turns, games, "storm_level", games["storm_start"]), games, "storm_level")


THIRST_LEVELS = (1, 0)  # the thirst figure follows the games whose thirstiest pawn came down to this much water


def thirst_curves(turns: pd.DataFrame, games: pd.DataFrame, levels: Sequence[int] = THIRST_LEVELS) -> pd.DataFrame:
    """Per scenario, water level w of `levels` and turn t (0 = set-up) up to the scenario's horizon (see
    stats.carry_forward): the games in which some pawn had w water or less after a turn up to t, as a count and
    a share of all the scenario's games with a Wilson interval. A share of all games, every game counted to
    the end, so it only grows: no curve moves because the games still being played change."""
    least = turns[["scenario", "game", "turn"]].assign(water=[min(w) for w in turns["water"]])
    horizon = np.ceil(games.groupby("scenario")["turns"].quantile(HORIZON)).astype(int)
    n = games.groupby("scenario").size()
    rows = []
    for level in levels:  # (turn 0 needs no row of its own: no canteen starts this low)
        first = least[least["water"] <= level].groupby(["scenario", "game"])["turn"].min()
        for sc, size in n.items():
            t = np.arange(0, int(horizon[sc]) + 1)
            hits = np.sort(first.loc[sc].to_numpy()) if sc in first.index.get_level_values(0) else np.array([])
            k = np.searchsorted(hits, t, side="right")
            lo, hi = wilson(k, np.full_like(k, size))
            rows.append(pd.DataFrame({"scenario": sc, "water": level, "turn": t, "games": size, "count": k,
                                      "share": k / size, "ci_low": lo, "ci_high": hi}))
    return pd.concat(rows, ignore_index=True)


def sand_curves(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, where (on the board, in the supply) and turn (0 = set-up): median and 10/90% quantiles of
    the sand markers there, over the games still being played. The game is lost (buried) when sand must be
    placed and the supply is empty."""
    board = _with_start(turns, games, "sand_on_tiles", pd.Series(len(DIAMOND), index=games.index))
    supply = _with_start(turns, games, "sand_supply", games["sand_supply"])
    long = pd.concat([board.rename(columns={"sand_on_tiles": "sand"}).assign(where=SAND_SERIES[0]),
                      supply.rename(columns={"sand_supply": "sand"}).assign(where=SAND_SERIES[1])], ignore_index=True)
    return series_bands(long, games, SAND_SERIES, "where", "sand")


def lowest_supply(turns: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario: how close the games came to `buried`: quantiles of the lowest sand supply of each game,
    the share of games whose supply fell to 5 markers or fewer, and the share buried."""
    low = turns.groupby(["scenario", "game"])["sand_supply"].min().rename("lowest").reset_index()
    low = games[["scenario", "game", "sand_supply", "loss_cause"]].merge(low, on=["scenario", "game"])
    low["lowest"] = low[["lowest", "sand_supply"]].min(axis=1)
    rows = []
    for sc in scenarios:
        g = low[low["scenario"] == sc]
        rows.append({"scenario": sc, "games": len(g), "start_supply": int(g["sand_supply"].max()),
                     "median_lowest": g["lowest"].median(), "q10_lowest": g["lowest"].quantile(0.1),
                     "share_5_or_fewer": float((g["lowest"] <= 5).mean()),
                     "share_buried": float((g["loss_cause"] == "buried").mean())})
    return pd.DataFrame(rows)


def heat_cells(turns: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and cell of the 5x5 desert: the share of player-turns after which the tile on it was
    blocked (2+ sand: where sand piles up), and the pawns that ran dry there (the cells of the pawns whose
    thirst lost the game, after its last turn)."""
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    blocked = turns[["scenario", "blocked"]].explode("blocked").dropna().groupby(["scenario", "blocked"]).size()
    rows_of = turns.groupby("scenario").size()
    last = turns.sort_values("turn").groupby(["scenario", "game"]).tail(1)[["scenario", "game", "pawn_cells"]]
    dry = games[["scenario", "game", "ran_dry"]].merge(last, on=["scenario", "game"])
    dry["cell"] = [[at[q] for q in seats] for seats, at in zip(dry["ran_dry"], dry["pawn_cells"], strict=True)]
    dry_counts = dry.explode("cell").dropna(subset=["cell"]).groupby(["scenario", "cell"]).size()
    out = []
    for sc in scenarios:
        n = int(rows_of.get(sc, 0))
        for r, c in cells:
            name = f"r{r}c{c}"
            k = int(blocked.get((sc, name), 0))
            out.append({"scenario": sc, "cell": name, "row": r, "col": c, "turns": n, "blocked_turns": k,
                        "blocked_share": k / n if n else np.nan, "ran_dry": int(dry_counts.get((sc, name), 0))})
    return pd.DataFrame(out)


def part_timing(tiles: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and part: the share of games (all, won, lost) in which it was found, and the turn: a part
    appears when both of its clue tiles (its row and its column) are excavated."""
    dug = tiles.dropna(subset=["excavated_turn"])
    found = []
    for part in PARTS:
        clues = dug[dug["kind"].isin([f"{part}_row", f"{part}_column"])]
        both = clues.groupby(["scenario", "game"])["excavated_turn"].agg(["size", "max"])
        both = both[both["size"] == 2].reset_index()
        found.append(pd.DataFrame({"scenario": both["scenario"], "game": both["game"], "part": part,
                                   "turn": both["max"]}))
    return event_timing(pd.concat(found, ignore_index=True), games, scenarios, PARTS, "part", "found")
