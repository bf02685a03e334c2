"""Statistics of a report, as tidy DataFrames (one row per scenario x whatever is counted).

Intervals and tests come from statsmodels/scipy; nothing here draws or writes files.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.stats import fisher_exact
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint, proportions_ztest

from fi_cli.island.tiles import SKULL, TILE_STATES, TILES, TREASURE_TILES, TREASURES

from .errors import ReportError
from .load import ENDINGS

ALPHA = 0.05
_CAPTURE = re.compile(r"capture\(\s*p?\d+\s*,\s*([a-z_]+)\s*\)")


def wilson(k: np.ndarray | int, n: np.ndarray | int, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for k successes out of n (good coverage also near 0% and 100%)."""
    k, n = np.asarray(k), np.asarray(n)
    lo, hi = proportion_confint(k, n, alpha=alpha, method="wilson")
    # Rounding can put a bound a hair past the estimate (e.g. 1e-18 above 0 for 0 wins); keep lo <= p <= hi.
    p = k / n
    return np.minimum(np.asarray(lo, dtype=float), p), np.maximum(np.asarray(hi, dtype=float), p)


def endings_in(games: pd.DataFrame) -> list[str]:
    """The endings that occur, in the fixed order (win first), unknown causes last."""
    present = set(games["ending"])
    return [e for e in ENDINGS if e in present] + sorted(present - set(ENDINGS))


def outcome_table(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario: number of games, count and share of each ending (win and every loss cause)."""
    endings = endings_in(games)
    counts = pd.crosstab(games["scenario"], games["ending"]).reindex(index=list(scenarios), columns=endings,
                                                                     fill_value=0)
    out = pd.DataFrame({"scenario": list(scenarios), "games": counts.sum(axis=1).to_numpy()})
    for e in endings:
        out[e] = counts[e].to_numpy()
    for e in endings:
        out[f"share_{e}"] = out[e] / out["games"]
    by = games.groupby("scenario")
    out["median_turns"] = by["turns"].median().reindex(list(scenarios)).to_numpy()
    out["mean_treasures"] = by["treasures_captured"].mean().reindex(list(scenarios)).to_numpy()
    out["mean_final_water"] = by["final_water_level"].mean().reindex(list(scenarios)).to_numpy()
    return out


def compare_two(k1: int, n1: int, k0: int, n0: int) -> tuple[str, float]:
    """Two-sided test of p1 == p0: pooled z-test, or Fisher's exact test when an expected count is < 5."""
    pooled = (k1 + k0) / (n1 + n0)
    expected = np.array([n1 * pooled, n1 * (1 - pooled), n0 * pooled, n0 * (1 - pooled)])
    if (expected < 5).any():
        _, p = fisher_exact([[k1, n1 - k1], [k0, n0 - k0]], alternative="two-sided")
        return "fisher", float(p)
    _, p = proportions_ztest([k1, k0], [n1, n0], alternative="two-sided")
    return "z", float(p)


def win_rates(
    games: pd.DataFrame, scenarios: Sequence[str], baseline: str | dict[str, str | None], alpha: float = ALPHA
) -> pd.DataFrame:
    """Win rate with a Wilson interval per scenario; against its baseline (one scenario for all, or one per
    scenario: {scenario: baseline or None}): difference with a Newcombe interval and a two-proportion test,
    p-values Holm-corrected over all the comparisons made."""
    scenarios = list(scenarios)
    if isinstance(baseline, str):
        if baseline not in scenarios:
            raise ReportError(f"unknown baseline scenario {baseline!r}; scenarios are: {', '.join(scenarios)}")
        baseline = dict.fromkeys(scenarios, baseline)
    g = games.groupby("scenario")
    n = g.size().reindex(scenarios).to_numpy()
    k = g["outcome"].apply(lambda s: int((s == "win").sum())).reindex(scenarios).to_numpy()
    lo, hi = wilson(k, n, alpha)
    out = pd.DataFrame({"scenario": scenarios, "games": n, "wins": k, "win_rate": k / n,
                        "ci_low": lo, "ci_high": hi, "baseline": [baseline.get(s) or "" for s in scenarios]})
    cols: dict[str, list] = {"diff": [], "diff_low": [], "diff_high": [], "test": [], "p_value": []}
    for i, sc in enumerate(scenarios):
        b = scenarios.index(baseline[sc]) if baseline.get(sc) else None
        if b is None:
            row = (np.nan, np.nan, np.nan, "none", np.nan)
        elif i == b:
            row = (0.0, np.nan, np.nan, "baseline", np.nan)
        else:
            d_lo, d_hi = confint_proportions_2indep(k[i], n[i], k[b], n[b], method="newcomb", compare="diff",
                                                    alpha=alpha)
            test, p = compare_two(int(k[i]), int(n[i]), int(k[b]), int(n[b]))
            row = (k[i] / n[i] - k[b] / n[b], float(d_lo), float(d_hi), test, p)
        for key, value in zip(cols, row, strict=True):
            cols[key].append(value)
    for key, values in cols.items():
        out[key] = values
    mask = ~np.isnan(out["p_value"].to_numpy())
    out["p_holm"] = np.nan
    if mask.any():
        out.loc[mask, "p_holm"] = multipletests(out.loc[mask, "p_value"], alpha=alpha, method="holm")[1]
    out["significant"] = out["p_holm"] < alpha
    return out


def start_levels(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game: the water level before the first turn (level after turn 1 minus its rises)."""
    first = turns.sort_values("turn").groupby(["scenario", "game"], sort=False).head(1)
    return pd.DataFrame({"scenario": first["scenario"], "game": first["game"],
                         "start_level": first["water_level"] - first["waters_rise"]})


def water_by_turn(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per game and turn (turn 0 = set-up): water level and the game's outcome; only turns played."""
    w = turns[["scenario", "game", "turn", "water_level"]]
    s = start_levels(turns).rename(columns={"start_level": "water_level"}).assign(turn=0)
    w = pd.concat([s[["scenario", "game", "turn", "water_level"]], w], ignore_index=True)
    return w.merge(games[["scenario", "game", "outcome"]], on=["scenario", "game"], how="inner")


MIN_SHARE, MIN_GAMES = 0.02, 5  # a band by turn stops when fewer games than this are still being played


def _bands_by_turn(df: pd.DataFrame, groups: list[str], value: str, sizes: pd.Series) -> pd.DataFrame:
    """Per group and turn: median and 10/90% quantiles of `value` over the games still being played.
    Turns where fewer than max(MIN_GAMES, MIN_SHARE of the group's games) remain are dropped: a band over a
    handful of survivors says little. `sizes`: games per group."""
    q = df.groupby([*groups, "turn"])[value]
    out = q.agg(games="size", median="median").reset_index()
    out["q10"] = q.quantile(0.1).to_numpy()
    out["q90"] = q.quantile(0.9).to_numpy()
    out = out.merge(sizes.rename("group_games").reset_index(), on=groups)
    need = np.maximum(np.minimum(MIN_GAMES, out["group_games"]), np.ceil(MIN_SHARE * out["group_games"]))
    return out[out["games"] >= need].drop(columns="group_games").reset_index(drop=True)


def water_curves(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, outcome and turn: median and 10/90% quantiles of the water level over the games still
    being played (see _bands_by_turn)."""
    sizes = games.groupby(["scenario", "outcome"]).size()
    return _bands_by_turn(water_by_turn(turns, games), ["scenario", "outcome"], "water_level", sizes)


def island_left(turns: pd.DataFrame, tiles: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, tile state (dry, flooded, sunk) and turn: median and 10/90% quantiles of the number of
    tiles in that state after the turn, over the games still being played (see _bands_by_turn)."""
    n_tiles = tiles.groupby(["scenario", "game"]).size().rename("n_tiles").reset_index()
    t = turns[["scenario", "game", "turn", "tiles_flooded", "tiles_sunk"]].merge(n_tiles, on=["scenario", "game"])
    t = t.assign(dry=t["n_tiles"] - t["tiles_flooded"] - t["tiles_sunk"], flooded=t["tiles_flooded"],
                 sunk=t["tiles_sunk"])
    long = t.melt(id_vars=["scenario", "game", "turn"], value_vars=list(TILE_STATES), var_name="state",
                  value_name="tiles")
    sizes = games.groupby("scenario").size()
    sizes = pd.concat({st: sizes for st in TILE_STATES}, names=["state"]).reorder_levels(["scenario", "state"])
    return _bands_by_turn(long, ["scenario", "state"], "tiles", sizes)


def level_reached(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and water level above the start: the first turn at which the level was reached."""
    w = turns[["scenario", "game", "turn", "water_level"]]
    starts = start_levels(turns)
    rows = []
    for level in range(int(starts["start_level"].min()) + 1, SKULL + 1):
        hit = w[w["water_level"] >= level].groupby(["scenario", "game"])["turn"].min().reset_index()
        hit = hit.merge(starts, on=["scenario", "game"])
        rows.append(hit[hit["start_level"] < level].assign(level=level))
    cols = ["scenario", "game", "level", "turn"]
    return pd.concat(rows, ignore_index=True)[cols] if rows else pd.DataFrame(columns=cols)


def level_reached_summary(
    reached: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]
) -> pd.DataFrame:
    """Per scenario and level: share of games that reached it, and quantiles of the turn it was reached."""
    n = games.groupby("scenario").size()
    if reached.empty:  # the water never rose
        return pd.DataFrame(columns=["scenario", "level", "games_reached", "median", "q10", "q25", "q75", "q90",
                                     "share_reached"])
    q = reached.groupby(["scenario", "level"])["turn"]
    out = q.agg(games_reached="size", median="median").reset_index()
    for p in (0.1, 0.25, 0.75, 0.9):
        out[f"q{int(p * 100)}"] = q.quantile(p).to_numpy()
    out["share_reached"] = out["games_reached"] / out["scenario"].map(n)
    order = {s: i for i, s in enumerate(scenarios)}
    return out.sort_values(["scenario", "level"], key=lambda c: c.map(order) if c.name == "scenario" else c
                           ).reset_index(drop=True)


def cumulative_incidence(games: pd.DataFrame, scenarios: Sequence[str], alpha: float = ALPHA) -> pd.DataFrame:
    """Per scenario and turn t: share of games still going after turn t, and for each ending the share of
    games that ended that way by turn t (competing causes: these shares add up to 1). Every game is seen
    to its end (turn_limit is an ending of its own), so the empirical cumulative incidence is a plain
    share and a Wilson interval per turn is its confidence band."""
    endings = endings_in(games)
    rows = []
    for sc in scenarios:
        g = games[games["scenario"] == sc]
        n = len(g)
        t = np.arange(0, int(g["turns"].max()) + 1)
        ended = np.sort(g["turns"].to_numpy())
        still = n - np.searchsorted(ended, t, side="right")
        parts = [("still going", still)]
        for e in endings:
            te = np.sort(g.loc[g["ending"] == e, "turns"].to_numpy())
            parts.append((e, np.searchsorted(te, t, side="right")))
        for name, k in parts:
            lo, hi = wilson(k, np.full_like(k, n), alpha)
            rows.append(pd.DataFrame({"scenario": sc, "turn": t, "ending": name, "games": n, "count": k,
                                      "share": k / n, "ci_low": lo, "ci_high": hi}))
    return pd.concat(rows, ignore_index=True)


def km_median(time: np.ndarray, event: np.ndarray) -> float:
    """Kaplan-Meier median of event times with right censoring (event False: still there at `time`);
    NaN when the survival curve never falls to one half."""
    order = np.argsort(time, kind="stable")
    time, event = np.asarray(time)[order], np.asarray(event, dtype=bool)[order]
    times = np.unique(time[event])  # the turns at which something sank
    at_risk = len(time) - np.searchsorted(time, times, side="left")
    deaths = np.bincount(np.searchsorted(times, time[event]), minlength=len(times))
    below = np.nonzero(np.cumprod(1 - deaths / at_risk) <= 0.5)[0]
    return float(times[below[0]]) if len(below) else float("nan")


CELL = ["scenario", "layout", "row", "col"]
PINNED_SHARE = 0.95


def _on_cells(tiles: pd.DataFrame, games: pd.DataFrame, columns: Sequence[str] = ()) -> pd.DataFrame:
    """The tiles rows with their game's layout (and `columns` of the game)."""
    return tiles.merge(games[["scenario", "game", "layout", *columns]], on=["scenario", "game"])


def pinned_tiles(on_cells: pd.DataFrame) -> pd.DataFrame:
    """Per cell: `pinned`, the tile that stood there in >= PINNED_SHARE of the games (a layout that pins it),
    else empty: most tiles are placed at random, so a cell usually has no fixed tile."""
    counts = on_cells.groupby([*CELL, "tile"]).size().rename("n").reset_index()
    counts["share"] = counts["n"] / counts.groupby(CELL)["n"].transform("sum")
    top = counts.sort_values("n", ascending=False, kind="stable").drop_duplicates(CELL)
    top["pinned"] = top["tile"].where(top["share"] >= PINNED_SHARE, "")
    return top[[*CELL, "pinned"]].sort_values(CELL).reset_index(drop=True)


def tile_risk_cells(tiles: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, layout and grid cell, measures of how fast the tile on it sinks that do not grow with
    the length of the games: `hazard`, sinkings per turn the tile was on the island (a tile that sank on
    turn t was there t turns, one that never sank all the game's turns), and `km_median_turn`, the
    Kaplan-Meier median turn it sinks (games that end first are censored). Also the plain `share_sunk` and
    `median_sunk_turn` (over the games it sank in), and the `pinned` tile (see pinned_tiles)."""
    t = _on_cells(tiles, games, ["turns"])
    t["sank"] = t["sunk_turn"].notna()
    t["exposure"] = t["sunk_turn"].fillna(t["turns"]).astype(float)
    g = t.groupby(CELL)
    out = g.agg(games=("game", "size"), sank=("sank", "sum"), turns_on_island=("exposure", "sum"),
                median_sunk_turn=("sunk_turn", "median")).reset_index()
    out["share_sunk"] = out["sank"] / out["games"]
    out["hazard"] = out["sank"] / out["turns_on_island"]
    out["km_median_turn"] = [km_median(x["exposure"].to_numpy(), x["sank"].to_numpy()) for _, x in g]
    return out.merge(pinned_tiles(t), on=CELL)


def _loss_tiles(games: pd.DataFrame) -> pd.DataFrame:
    """(scenario, game, tile, how) for every tile a lost game's loss involved: both tiles of the lost
    treasure, Fools' Landing when it sank, and the tile a pawn drowned on."""
    lost = games[games["outcome"] == "loss"]
    cols = ["scenario", "game", "tile", "how"]
    if lost.empty:
        return pd.DataFrame(columns=cols)
    parts = []
    if "lost_treasure" in lost:
        tr = lost.dropna(subset=["lost_treasure"])
        pairs = tr["lost_treasure"].map(lambda t: [TILES[i] for i in TREASURE_TILES[TREASURES.index(t)]])
        parts.append(tr.assign(tile=pairs, how="treasure").explode("tile"))
    if "loss_causes" in lost:
        fl = lost[lost["loss_causes"].map(lambda c: "fools_landing_sunk" in list(c))]
        parts.append(fl.assign(tile=TILES[0], how="fools_landing"))
    if "drowned_tile" in lost:
        parts.append(lost.dropna(subset=["drowned_tile"]).assign(tile=lambda d: d["drowned_tile"], how="drowned"))
    return pd.concat([p[cols] for p in parts], ignore_index=True) if parts else pd.DataFrame(columns=cols)


def has_loss_details(games: pd.DataFrame) -> bool:
    """Whether the run logged what losses took (games.lost_treasure, drowned_tile, loss_causes)."""
    return {"lost_treasure", "drowned_tile", "loss_causes"} <= set(games.columns)


def loss_cells(tiles: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, layout and cell: the share of lost games whose loss involved the tile on it (a tile of
    the lost treasure, Fools' Landing, the tile a pawn drowned on), and the games a pawn drowned there."""
    on_cells = _on_cells(tiles, games)
    involved = _loss_tiles(games).merge(on_cells, on=["scenario", "game", "tile"])
    lost = games[games["outcome"] == "loss"].groupby("scenario").size()
    out = pinned_tiles(on_cells).merge(involved.drop_duplicates([*CELL, "game"]).groupby(CELL).size().rename("involved")
                      .reset_index(), on=CELL, how="left")
    drowned = involved[involved["how"] == "drowned"].groupby(CELL).size().rename("drowned").reset_index()
    out = out.merge(drowned, on=CELL, how="left").fillna({"involved": 0, "drowned": 0})
    out["lost_games"] = out["scenario"].map(lost).fillna(0).astype(int)
    out["share_of_losses"] = np.where(out["lost_games"] > 0, out["involved"] / out["lost_games"].clip(lower=1),
                                      np.nan)
    return out.astype({"involved": int, "drowned": int}).sort_values(CELL).reset_index(drop=True)


def lost_treasures(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and treasure: the games lost because both its tiles sank, as a share of all games and
    of the games lost to a treasure."""
    rows = []
    for sc in scenarios:
        g = games[games["scenario"] == sc]
        counts = g["lost_treasure"].value_counts() if "lost_treasure" in g else pd.Series(dtype=int)
        total = int(counts.sum())
        for tr in TREASURES:
            k = int(counts.get(tr, 0))
            rows.append({"scenario": sc, "treasure": tr, "games": len(g), "lost": k, "share_of_games": k / len(g),
                         "share_of_treasure_losses": k / total if total else np.nan})
    return pd.DataFrame(rows)


def water_at_loss(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario, loss cause and final water level: the lost games, and their share of the lost games."""
    lost = games[games["outcome"] == "loss"]
    out = lost.groupby(["scenario", "ending", "final_water_level"]).size().rename("lost_games").reset_index()
    if out.empty:
        return out.assign(share_of_losses=pd.Series(dtype=float))
    out["share_of_losses"] = out["lost_games"] / out["scenario"].map(lost.groupby("scenario").size())
    order = {s: i for i, s in enumerate(scenarios)}
    return out.sort_values(["scenario", "ending", "final_water_level"],
                           key=lambda c: c.map(order) if c.name == "scenario" else c).reset_index(drop=True)


def tile_risk_tiles(tiles: pd.DataFrame, scenarios: Sequence[str], alpha: float = ALPHA) -> pd.DataFrame:
    """Per scenario and tile id: share of games the tile sank (Wilson interval) and median sinking turn."""
    t = tiles.assign(sank=tiles["sunk_turn"].notna())
    g = t.groupby(["scenario", "tile"])
    out = g.agg(games=("game", "size"), sank=("sank", "sum"), median_sunk_turn=("sunk_turn", "median"))
    out = out.reset_index()
    out["share_sunk"] = out["sank"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson(out["sank"].to_numpy(), out["games"].to_numpy(), alpha)
    order = {s: i for i, s in enumerate(scenarios)}
    tile_order = {tl: i for i, tl in enumerate(TILES)}
    out["_o"] = out["scenario"].map(order) * 1000 + out["tile"].map(tile_order).fillna(999)
    return out.sort_values("_o").drop(columns="_o").reset_index(drop=True)


def capture_turns(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and captured treasure: the turn of capture (from `treasures`, else from the actions text)."""
    cols = ["scenario", "game", "treasure", "capture_turn"]
    if "treasures" in turns.columns:
        t = turns[["scenario", "game", "turn", "treasures"]].explode("treasures").dropna(subset=["treasures"])
        t = t.rename(columns={"treasures": "treasure"})
    elif "actions" in turns.columns:
        t = turns[["scenario", "game", "turn", "actions"]].explode("actions").dropna(subset=["actions"])
        t["treasure"] = t["actions"].astype(str).str.extract(_CAPTURE, expand=False)
        t = t.dropna(subset=["treasure"])
    else:
        return pd.DataFrame(columns=cols)
    if t.empty:
        return pd.DataFrame(columns=cols)
    out = t.groupby(["scenario", "game", "treasure"])["turn"].min().rename("capture_turn").reset_index()
    return out[cols]


def treasure_summary(turns: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and treasure: share of games (all, won, lost) it was captured in, and its capture turn."""
    caps = capture_turns(turns).merge(games[["scenario", "game", "outcome"]], on=["scenario", "game"])
    n = games.groupby(["scenario", "outcome"]).size()
    rows = []
    for sc in scenarios:
        n_all = int(n.get(sc, pd.Series(dtype=int)).sum())
        n_win, n_loss = int(n.get((sc, "win"), 0)), int(n.get((sc, "loss"), 0))
        for tr in TREASURES:
            c = caps[(caps["scenario"] == sc) & (caps["treasure"] == tr)]
            ct = c["capture_turn"]
            rows.append({
                "scenario": sc, "treasure": tr, "games": n_all, "captured": len(c),
                "share_captured": len(c) / n_all if n_all else np.nan,
                "share_captured_in_losses": (c["outcome"] == "loss").sum() / n_loss if n_loss else np.nan,
                "share_captured_in_wins": (c["outcome"] == "win").sum() / n_win if n_win else np.nan,
                "median_turn": ct.median() if len(ct) else np.nan,
                "q10_turn": ct.quantile(0.1) if len(ct) else np.nan,
                "q90_turn": ct.quantile(0.9) if len(ct) else np.nan,
            })
    return pd.DataFrame(rows)


STAGES = ("won", *(f"lost with {k}" for k in range(len(TREASURES) + 1)))


def loss_stage(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and stage (won; lost with k = 0..4 treasures captured): games, their share of all
    games and, for losses, of the lost games. Losses with 4 treasures are the endgame losses."""
    stage = np.where(games["outcome"] == "win", "won", "lost with " + games["treasures_captured"].astype(str))
    counts = pd.crosstab(games["scenario"], stage).reindex(index=list(scenarios), columns=list(STAGES),
                                                           fill_value=0)
    long = counts.stack().rename("games").reset_index()
    long.columns = ["scenario", "stage", "games"]
    n = long.groupby("scenario")["games"].transform("sum")
    lost = n - long["scenario"].map(counts["won"])
    long["share_of_games"] = long["games"] / n
    long["share_of_losses"] = np.where((long["stage"] != "won") & (lost > 0), long["games"] / lost.clip(lower=1),
                                       np.nan)
    return long
