"""The desert's own statistics: the storm meter, the sand and the water by turn, where sand piles up and where
pawns run dry, and when each part is found.

As for the island (report.island.stats), the statistics of turns and tiles are made from `counts` of batches of
chunks, added up over the runs (data.counts)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...desert.components import Components
from ...desert.tiles import DIAMOND, PARTS, SIZE, STORM_TRACKS
from ..stats import (
    HORIZON,
    event_counts,
    event_timing,
    meter_skulls,
    outcome_bands,
    outcome_counts,
    series_bands,
    turn_counts,
    wilson,
)
from ..tally import count_rows, counted_stats

SAND_SERIES = ("on the board", "in the supply")


def skulls(games: pd.DataFrame) -> dict[str, int]:
    """Per scenario, the storm meter's skull: the rulebook's for its player count, unless its study set a meter."""
    return meter_skulls(games, "storm_meter", lambda row: len(STORM_TRACKS[int(row["players"])]) + 1)


def counts(frames: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """What the desert's tables need of the turns and tiles of some games (whole games: a batch of chunks), as
    count frames (keys and n) by name; `frames`: their games, turns and tiles."""
    games, turns = frames["games"], frames["turns"]
    least = turns[["scenario", "game", "turn"]].assign(water=[min(w) for w in turns["water"]])
    thirsty = [least[least["water"] <= level].groupby(["scenario", "game"], observed=True)["turn"].min()
               .reset_index().assign(water=level) for level in THIRST_LEVELS]
    board = _with_start(turns, games, "sand_on_tiles", len(DIAMOND) * _diamond_sand(games))
    supply = _with_start(turns, games, "sand_supply", games["sand_supply"])
    sand = pd.concat([board.rename(columns={"sand_on_tiles": "sand"}).assign(where=SAND_SERIES[0]),
                      supply.rename(columns={"sand_supply": "sand"}).assign(where=SAND_SERIES[1])], ignore_index=True)
    low = turns.groupby(["scenario", "game"])["sand_supply"].min().rename("lowest").reset_index()
    low = games[["scenario", "game", "sand_supply", "loss_cause"]].merge(low, on=["scenario", "game"])
    low = low.assign(lowest=low[["lowest", "sand_supply"]].min(axis=1), buried=low["loss_cause"] == "buried")
    last = turns.sort_values("turn").groupby(["scenario", "game"]).tail(1)[["scenario", "game", "pawn_cells"]]
    dry = games[["scenario", "game", "ran_dry"]].merge(last, on=["scenario", "game"])
    dry["cell"] = [[at[q] for q in seats] for seats, at in zip(dry["ran_dry"], dry["pawn_cells"], strict=True)]
    return {
        "storm": outcome_counts(_with_start(turns, games, "storm_level", games["storm_start"]), games, "storm_level"),
        "thirst": count_rows(pd.concat(thirsty, ignore_index=True), ["scenario", "water", "turn"]),
        "sand": turn_counts(sand, "sand", ["where"]),
        "lowest": count_rows(low, ["scenario", "lowest", "sand_supply", "buried"]),
        "turn_rows": count_rows(turns, ["scenario"]),
        "blocked": count_rows(turns[["scenario", "blocked"]].explode("blocked").dropna(), ["scenario", "blocked"]),
        "ran_dry": count_rows(dry.explode("cell").dropna(subset=["cell"]), ["scenario", "cell"]),
        "finds": event_counts(_finds(frames["tiles"]), games, "part"),
    }


def _diamond_sand(games: pd.DataFrame) -> pd.Series:
    """The sand markers on each tile of the diamond at set-up, per games row (the rulebook's unless the study
    changed it)."""
    rulebook = Components().diamond_sand
    if "components.diamond_sand" in games:
        return games["components.diamond_sand"].fillna(rulebook).astype(int)
    return pd.Series(rulebook, index=games.index)


def _with_start(turns: pd.DataFrame, games: pd.DataFrame, column: str, start: pd.Series) -> pd.DataFrame:
    """`column` by turn, with turn 0 (the set-up) taken from `start` (a value per games row)."""
    first = pd.DataFrame({"scenario": games["scenario"], "game": games["game"], "turn": 0, column: start})
    return pd.concat([first, turns[["scenario", "game", "turn", column]]], ignore_index=True)


def storm_curves(counts: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, outcome and turn (0 = set-up): median and 10/90% quantiles of the storm meter's mark over
    all the games (see stats.outcome_bands; `counts`: counts()["storm"])."""
    return outcome_bands(counts, games, "storm_level")


THIRST_LEVELS = (1, 0)  # the thirst figure follows the games whose thirstiest pawn came down to this much water


def thirst_curves(counts: pd.DataFrame, games: pd.DataFrame, levels: Sequence[int] = THIRST_LEVELS) -> pd.DataFrame:
    """Per scenario, water level w of `levels` and turn t (0 = set-up) up to the scenario's horizon (see
    stats.carry_forward): the games in which some pawn had w water or less after a turn up to t, as a count and
    a share of all the scenario's games with a Wilson interval. A share of all games, every game counted to
    the end, so it only grows: no curve moves because the games still being played change. `counts`:
    counts()["thirst"], the games that first came down to each level (of THIRST_LEVELS) on each turn."""
    horizon = np.ceil(games.groupby("scenario")["turns"].quantile(HORIZON)).astype(int)
    n = games.groupby("scenario").size()
    rows = []
    for level in levels:  # (turn 0 needs no row of its own: no canteen starts this low)
        for sc, size in n.items():
            t = np.arange(0, int(horizon[sc]) + 1)
            hits = counts[(counts["scenario"] == sc) & (counts["water"] == level)].sort_values("turn") \
                if len(counts) else pd.DataFrame({"turn": [], "n": []})
            done = np.concatenate([[0], np.cumsum(hits["n"].to_numpy(dtype="int64"))])  # games down to it by then
            k = done[np.searchsorted(hits["turn"].to_numpy(), t, side="right")]
            lo, hi = wilson(k, np.full_like(k, size))
            rows.append(pd.DataFrame({"scenario": sc, "water": level, "turn": t, "games": size, "count": k,
                                      "share": k / size, "ci_low": lo, "ci_high": hi}))
    return pd.concat(rows, ignore_index=True)


def sand_curves(counts: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, where (on the board, in the supply) and turn (0 = set-up): median and 10/90% quantiles of
    the sand markers there, over the games still being played (`counts`: counts()["sand"]). The game is lost
    (buried) when sand must be placed and the supply is empty."""
    return series_bands(counts, games, SAND_SERIES, "where", "sand")


def lowest_supply(counts: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario: how close the games came to `buried`: quantiles of the lowest sand supply of each game,
    the share of games whose supply fell to 5 markers or fewer, and the share buried (`counts`:
    counts()["lowest"])."""
    rows = []
    for sc in scenarios:
        g = counts[counts["scenario"] == sc]
        low = counted_stats(g, ["scenario"], "lowest", {"q10": 0.1})
        n = int(g["n"].sum())
        rows.append({"scenario": sc, "games": n, "start_supply": int(g["sand_supply"].max()),
                     "median_lowest": low["median"].iloc[0], "q10_lowest": low["q10"].iloc[0],
                     "share_5_or_fewer": float(g.loc[g["lowest"] <= 5, "n"].sum() / n),
                     "share_buried": float(g.loc[g["buried"], "n"].sum() / n)})
    return pd.DataFrame(rows)


def heat_cells(turn_rows: pd.DataFrame, blocked: pd.DataFrame, ran_dry: pd.DataFrame, scenarios: Sequence[str]
               ) -> pd.DataFrame:
    """Per scenario and cell of the 5x5 desert: the share of player-turns after which the tile on it was
    blocked (2+ sand: where sand piles up), and the pawns that ran dry there (the cells of the pawns whose
    thirst lost the game, after its last turn). `turn_rows`, `blocked`, `ran_dry`: counts()[...]."""
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    rows_of = turn_rows.groupby("scenario")["n"].sum() if len(turn_rows) else pd.Series(dtype="int64")
    blocked = blocked.groupby(["scenario", "blocked"])["n"].sum() if len(blocked) else pd.Series(dtype="int64")
    dry_counts = ran_dry.groupby(["scenario", "cell"])["n"].sum() if len(ran_dry) else pd.Series(dtype="int64")
    out = []
    for sc in scenarios:
        n = int(rows_of.get(sc, 0))
        for r, c in cells:
            name = f"r{r}c{c}"
            k = int(blocked.get((sc, name), 0))
            out.append({"scenario": sc, "cell": name, "row": r, "col": c, "turns": n, "blocked_turns": k,
                        "blocked_share": k / n if n else np.nan, "ran_dry": int(dry_counts.get((sc, name), 0))})
    return pd.DataFrame(out)


def _finds(tiles: pd.DataFrame) -> pd.DataFrame:
    """scenario, game, part, turn: a part is found when both of its clue tiles (its row and its column) are
    excavated."""
    dug = tiles.dropna(subset=["excavated_turn"])
    found = []
    for part in PARTS:
        clues = dug[dug["kind"].isin([f"{part}_row", f"{part}_column"])]
        both = clues.groupby(["scenario", "game"])["excavated_turn"].agg(["size", "max"])
        both = both[both["size"] == 2].reset_index()
        found.append(pd.DataFrame({"scenario": both["scenario"], "game": both["game"], "part": part,
                                   "turn": both["max"]}))
    return pd.concat(found, ignore_index=True)


def part_timing(finds: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and part: the share of games (all, won, lost) in which it was found, and the turn (`finds`:
    counts()["finds"])."""
    return event_timing(finds, games, scenarios, PARTS, "part", "found")
