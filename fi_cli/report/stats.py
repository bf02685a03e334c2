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

from fi_cli.island.tiles import SKULL, TILES, TREASURES

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
    games: pd.DataFrame, scenarios: Sequence[str], baseline: str, alpha: float = ALPHA
) -> pd.DataFrame:
    """Win rate with a Wilson interval per scenario; against the baseline: difference with a Newcombe
    interval and a two-proportion test, p-values Holm-corrected over all comparisons with the baseline."""
    if baseline not in scenarios:
        raise ReportError(f"unknown baseline scenario {baseline!r}; scenarios are: {', '.join(scenarios)}")
    g = games.groupby("scenario")
    n = g.size().reindex(list(scenarios)).to_numpy()
    k = g["outcome"].apply(lambda s: int((s == "win").sum())).reindex(list(scenarios)).to_numpy()
    lo, hi = wilson(k, n, alpha)
    out = pd.DataFrame({"scenario": list(scenarios), "games": n, "wins": k, "win_rate": k / n,
                        "ci_low": lo, "ci_high": hi})
    b = list(scenarios).index(baseline)
    cols: dict[str, list] = {"diff": [], "diff_low": [], "diff_high": [], "test": [], "p_value": []}
    for i in range(len(scenarios)):
        if i == b:
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


def water_curves(turns: pd.DataFrame, games: pd.DataFrame, min_share: float = 0.02, min_games: int = 5
                 ) -> pd.DataFrame:
    """Per scenario, outcome and turn: median and 10/90% quantiles of the water level over the games still
    being played. Turns where fewer than max(min_games, min_share of the group) remain are dropped: a band
    over a handful of survivors says little."""
    w = water_by_turn(turns, games)
    q = w.groupby(["scenario", "outcome", "turn"])["water_level"]
    out = q.agg(games="size", median="median").reset_index()
    out["q10"] = q.quantile(0.1).to_numpy()
    out["q90"] = q.quantile(0.9).to_numpy()
    total = games.groupby(["scenario", "outcome"]).size().rename("group_games").reset_index()
    out = out.merge(total, on=["scenario", "outcome"])
    need = np.maximum(np.minimum(min_games, out["group_games"]), np.ceil(min_share * out["group_games"]))
    return out[out["games"] >= need].drop(columns="group_games").reset_index(drop=True)


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


def tile_risk_cells(tiles: pd.DataFrame, games: pd.DataFrame, pinned_share: float = 0.95) -> pd.DataFrame:
    """Per scenario, layout and grid cell: share of games in which the tile on that cell sank, and the
    median turn it sank. `pinned` names the tile that stood there in >= pinned_share of games (a layout
    that pins it), else is empty: tiles are placed at random, so a cell usually has no fixed tile."""
    t = tiles.merge(games[["scenario", "game", "layout"]], on=["scenario", "game"])
    t["sank"] = t["sunk_turn"].notna()
    keys = ["scenario", "layout", "row", "col"]
    g = t.groupby(keys)
    out = g.agg(games=("game", "size"), sank=("sank", "sum"), median_sunk_turn=("sunk_turn", "median"))
    out = out.reset_index()
    out["share_sunk"] = out["sank"] / out["games"]
    top = t.groupby(keys)["tile"].agg(lambda s: s.value_counts().idxmax() if len(s) else "")
    top_share = t.groupby(keys)["tile"].agg(lambda s: s.value_counts(normalize=True).max() if len(s) else 0.0)
    out["pinned"] = np.where(top_share.to_numpy() >= pinned_share, top.to_numpy(), "")
    return out


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


def treasures_in_losses(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and k = 0..4: number and share of lost games that had captured k treasures."""
    lost = games[games["outcome"] == "loss"]
    counts = pd.crosstab(lost["scenario"], lost["treasures_captured"]).reindex(
        index=list(scenarios), columns=range(len(TREASURES) + 1), fill_value=0)
    long = counts.stack().rename("lost_games").reset_index()
    long.columns = ["scenario", "treasures_captured", "lost_games"]
    total = long.groupby("scenario")["lost_games"].transform("sum")
    long["share"] = np.where(total > 0, long["lost_games"] / total.where(total > 0, 1), np.nan)
    return long
