"""Statistics every report shares, whatever the game, as tidy DataFrames (one row per scenario x whatever is
counted): outcomes, win rates and comparisons, survival by cause, bands by turn, the stage of the losses, the
timing of events. Each game's own statistics are in its package (`report.island.stats`, `report.desert.stats`).

Intervals and tests come from statsmodels/scipy; nothing here draws or writes files. What is measured of the
turns and tiles comes as counts (see report.tally): a `*_counts` function makes them of some whole games, as the
report reads a run a batch of chunks at a time, and the table is made of the counts added up over the runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy.stats import fisher_exact
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint, proportions_ztest

from .errors import ReportError
from .tally import count_rows, counted_stats

ALPHA = 0.05


def wilson(k: np.ndarray | int, n: np.ndarray | int, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for k successes out of n (good coverage also near 0% and 100%)."""
    k, n = np.asarray(k), np.asarray(n)
    lo, hi = proportion_confint(k, n, alpha=alpha, method="wilson")
    # Rounding can put a bound a hair past the estimate (e.g. 1e-18 above 0 for 0 wins); keep lo <= p <= hi.
    p = k / n
    return np.minimum(np.asarray(lo, dtype=float), p), np.maximum(np.asarray(hi, dtype=float), p)


def meter_skulls(games: pd.DataFrame, meter: str, rulebook: Callable[[pd.Series], int]) -> dict[str, int]:
    """Per scenario, the skull of its meter: one above the last mark of the meter its study set (the games column
    `components.<meter>`), else the rulebook's (``rulebook`` of the scenario's first games row)."""
    column = f"components.{meter}"
    first = games.groupby("scenario", observed=True).first()
    return {str(sc): len(row[column]) + 1 if column in first.columns else rulebook(row) for sc, row in first.iterrows()}


def endings_in(games: pd.DataFrame, endings: Sequence[str]) -> list[str]:
    """The endings that occur, in the game's fixed order (win first), unknown causes last."""
    present = set(games["ending"])
    return [e for e in endings if e in present] + sorted(present - set(endings))


def outcome_table(games: pd.DataFrame, scenarios: Sequence[str], endings: Sequence[str],
                  means: Sequence[tuple[str, str]] = ()) -> pd.DataFrame:
    """Per scenario: number of games, count and share of each ending (win and every loss cause), the median
    game length and, for each (name, games column) of `means`, the column's mean as `name`."""
    endings = endings_in(games, endings)
    counts = pd.crosstab(games["scenario"], games["ending"]).reindex(index=list(scenarios), columns=endings,
                                                                     fill_value=0)
    out = pd.DataFrame({"scenario": list(scenarios), "games": counts.sum(axis=1).to_numpy()})
    for e in endings:
        out[e] = counts[e].to_numpy()
    for e in endings:
        out[f"share_{e}"] = out[e] / out["games"]
    by = games.groupby("scenario")
    out["median_turns"] = by["turns"].median().reindex(list(scenarios)).to_numpy()
    for name, column in means:
        out[name] = by[column].mean().reindex(list(scenarios)).to_numpy()
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
    games: pd.DataFrame, scenarios: Sequence[str], baseline: str | dict[str, str | tuple[str, ...] | None],
    alpha: float = ALPHA
) -> pd.DataFrame:
    """Win rate with a Wilson interval per scenario; against its baseline (one scenario for all, or one per
    scenario: {scenario: baseline, a tuple of scenarios whose games are pooled as one reference, or None}):
    difference with a Newcombe interval and a two-proportion test, p-values Holm-corrected over all the
    comparisons made. The `baseline` column names the reference (pooled scenarios joined by ' + ')."""
    scenarios = list(scenarios)
    if isinstance(baseline, str):
        if baseline not in scenarios:
            raise ReportError(f"unknown baseline scenario {baseline!r}; scenarios are: {', '.join(scenarios)}")
        baseline = dict.fromkeys(scenarios, baseline)
    g = games.groupby("scenario")
    n = g.size().reindex(scenarios).to_numpy()
    k = g["outcome"].apply(lambda s: int((s == "win").sum())).reindex(scenarios).to_numpy()
    lo, hi = wilson(k, n, alpha)
    refs = {s: (b,) if isinstance(b, str) else tuple(b or ()) for s, b in baseline.items()}
    out = pd.DataFrame({"scenario": scenarios, "games": n, "wins": k, "win_rate": k / n,
                        "ci_low": lo, "ci_high": hi, "baseline": [" + ".join(refs.get(s, ())) for s in scenarios]})
    cols: dict[str, list] = {"diff": [], "diff_low": [], "diff_high": [], "test": [], "p_value": []}
    for i, sc in enumerate(scenarios):
        b = [scenarios.index(r) for r in refs.get(sc, ())]
        if not b:
            row = (np.nan, np.nan, np.nan, "none", np.nan)
        elif b == [i]:
            row = (0.0, np.nan, np.nan, "baseline", np.nan)
        else:
            k0, n0 = int(k[b].sum()), int(n[b].sum())
            d_lo, d_hi = confint_proportions_2indep(k[i], n[i], k0, n0, method="newcomb", compare="diff", alpha=alpha)
            test, p = compare_two(int(k[i]), int(n[i]), k0, n0)
            row = (k[i] / n[i] - k0 / n0, float(d_lo), float(d_hi), test, p)
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


MIN_SHARE, MIN_GAMES = 0.02, 5  # a band by turn stops when fewer games than this are still being played
HORIZON = 0.98  # curves by turn run to the turn by which this share of a scenario's games have ended


def turn_counts(by_turn: pd.DataFrame, value: str, keys: Sequence[str] = ()) -> pd.DataFrame:
    """The counts behind a curve by turn, of some whole games: scenario, `keys`, turn, `value`, `ended` and n
    (`by_turn`: one row per scenario, game, `keys` and turn). Every row is counted with ended False, and each
    game's last row (for each value of `keys`) once more with ended True, for carry_forward to repeat."""
    ids = ["scenario", "game", *keys]
    last = by_turn.sort_values("turn", kind="stable").groupby(ids, observed=True, sort=False).tail(1)
    both = pd.concat([by_turn.assign(ended=False), last.assign(ended=True)], ignore_index=True)
    return count_rows(both, ["scenario", *keys, "turn", value, "ended"])


def carry_forward(counts: pd.DataFrame, games: pd.DataFrame, value: str, keys: Sequence[str] = ()) -> pd.DataFrame:
    """The rows counted by turn_counts with each game's last row repeated on every later turn, up to its
    scenario's horizon (the turn by which HORIZON of its games have ended; rows after it are dropped), as counts:
    scenario, `keys`, turn, `value` and n. A value by turn is then over all the games, an ended game counting
    with its final value: the set of games does not change along a curve, so a curve cannot fall because the
    games that rose have ended."""
    horizon = np.ceil(games.groupby("scenario", observed=True)["turns"].quantile(HORIZON))
    cols = ["scenario", *keys, "turn", value, "n"]
    ended = counts["ended"].astype(bool).to_numpy()
    last = counts[ended].reset_index(drop=True)
    reps = (last["scenario"].map(horizon).to_numpy() - last["turn"].to_numpy()).clip(0).astype(int)
    extra = last.loc[np.repeat(last.index.to_numpy(), reps)].reset_index(drop=True)
    # turn + 1, + 2, ... within each repeated last row
    extra["turn"] = extra["turn"].to_numpy() + np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps) + 1
    out = pd.concat([counts[~ended][cols], extra[cols]], ignore_index=True)
    out = out[out["turn"].to_numpy() <= out["scenario"].map(horizon).to_numpy()]
    return out.groupby(cols[:-1], dropna=False, sort=False)["n"].sum().reset_index()


def bands_by_turn(counts: pd.DataFrame, groups: list[str], value: str, sizes: pd.Series) -> pd.DataFrame:
    """Per group and turn: median, 10/90% quantiles and mean of `value` over the games counted that turn
    (`counts`: groups, turn, `value` and n). Turns where fewer than max(MIN_GAMES, MIN_SHARE of the group's
    games) remain are dropped: a band over a handful of survivors says little. `sizes`: games per group."""
    out = counted_stats(counts, [*groups, "turn"], value, {"q10": 0.1, "q90": 0.9}, mean=True)
    out = out.merge(sizes.rename("group_games").reset_index(), on=groups)
    need = np.maximum(np.minimum(MIN_GAMES, out["group_games"]), np.ceil(MIN_SHARE * out["group_games"]))
    return out[out["games"] >= need].drop(columns="group_games").reset_index(drop=True)


def outcome_counts(by_turn: pd.DataFrame, games: pd.DataFrame, value: str) -> pd.DataFrame:
    """The counts behind outcome_bands, of some whole games (`by_turn`: scenario, game, turn, `value`)."""
    df = by_turn.merge(games[["scenario", "game", "outcome"]], on=["scenario", "game"], how="inner")
    return turn_counts(df, value, ["outcome"])


def outcome_bands(counts: pd.DataFrame, games: pd.DataFrame, value: str) -> pd.DataFrame:
    """Per scenario, outcome and turn: median and 10/90% quantiles of `value` over all the games, won and lost
    games apart, each ended game at its final value (see carry_forward; `counts`: of outcome_counts)."""
    return bands_by_turn(carry_forward(counts, games, value, ["outcome"]), ["scenario", "outcome"], value,
                         games.groupby(["scenario", "outcome"]).size())


def series_bands(counts: pd.DataFrame, games: pd.DataFrame, series: Sequence[str], column: str, value: str
                 ) -> pd.DataFrame:
    """Per scenario, series (the values of `column`, e.g. tile states) and turn: median and 10/90% quantiles
    of `value` over all the games, each ended game at its final value (see carry_forward; `counts`: of
    turn_counts with the key `column`)."""
    sizes = games.groupby("scenario").size()
    sizes = pd.concat({s: sizes for s in series}, names=[column]).reorder_levels(["scenario", column])
    return bands_by_turn(carry_forward(counts, games, value, [column]), ["scenario", column], value, sizes)


def cumulative_incidence(games: pd.DataFrame, scenarios: Sequence[str], endings: Sequence[str], alpha: float = ALPHA
                         ) -> pd.DataFrame:
    """Per scenario and turn t: share of games still going after turn t, and for each ending the share of
    games that ended that way by turn t (competing causes: these shares add up to 1). Every game is seen
    to its end (turn_limit is an ending of its own), so the empirical cumulative incidence is a plain
    share and a Wilson interval per turn is its confidence band. `endings`: the game's, in order."""
    endings = endings_in(games, endings)
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


def km_median(time: np.ndarray, event: np.ndarray, count: np.ndarray | None = None) -> float:
    """Kaplan-Meier median of event times with right censoring (event False: still there at `time`), each
    (time, event) counted `count` times (default once); NaN when the survival curve never falls to one half."""
    count = np.ones(len(time), dtype="int64") if count is None else np.asarray(count)
    order = np.argsort(time, kind="stable")
    time, event, count = np.asarray(time)[order], np.asarray(event, dtype=bool)[order], count[order]
    times = np.unique(time[event])  # the turns at which something sank
    later = np.concatenate([np.cumsum(count[::-1])[::-1], [0]])  # rows at this time or later
    at_risk = later[np.searchsorted(time, times, side="left")]
    deaths = np.bincount(np.searchsorted(times, time[event]), weights=count[event], minlength=len(times))
    below = np.nonzero(np.cumprod(1 - deaths / at_risk) <= 0.5)[0]
    return float(times[below[0]]) if len(below) else float("nan")


def stages(most: int) -> tuple[str, ...]:
    """The stages of a game: won, or lost with 0..`most` treasures (parts) done."""
    return ("won", *(f"lost with {k}" for k in range(most + 1)))


def loss_stage(games: pd.DataFrame, scenarios: Sequence[str], column: str, most: int) -> pd.DataFrame:
    """Per scenario and stage (won; lost with k = 0..most of `column`, e.g. treasures captured): games, their
    share of all games and, for losses, of the lost games. Losses with all `most` done are endgame losses."""
    names = stages(most)
    stage = np.where(games["outcome"] == "win", "won", "lost with " + games[column].astype(str))
    counts = pd.crosstab(games["scenario"], stage).reindex(index=list(scenarios), columns=list(names), fill_value=0)
    long = counts.stack().rename("games").reset_index()
    long.columns = ["scenario", "stage", "games"]
    n = long.groupby("scenario")["games"].transform("sum")
    lost = n - long["scenario"].map(counts["won"])
    long["share_of_games"] = long["games"] / n
    long["share_of_losses"] = np.where((long["stage"] != "won") & (lost > 0), long["games"] / lost.clip(lower=1),
                                       np.nan)
    return long


def event_counts(events: pd.DataFrame, games: pd.DataFrame, item: str) -> pd.DataFrame:
    """The counts behind event_timing, of some whole games: scenario, `item`, outcome, turn and n (`events`:
    scenario, game, `item`, turn; one row per game and item at most)."""
    caps = events.merge(games[["scenario", "game", "outcome"]], on=["scenario", "game"])
    return count_rows(caps, ["scenario", item, "outcome", "turn"])


def event_timing(counts: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str], items: Sequence[str],
                 item: str, done: str) -> pd.DataFrame:
    """Per scenario and item (a treasure, a part): the share of games (all, won, lost) the item was `done` in
    (captured, found) and quantiles of the turn (`counts`: of event_counts)."""
    n = games.groupby(["scenario", "outcome"]).size()
    timing = counted_stats(counts, ["scenario", item], "turn", {"q10": 0.1, "q90": 0.9}
                           ).set_index(["scenario", item]) if len(counts) else None
    by_outcome = counts.groupby(["scenario", item, "outcome"])["n"].sum() if len(counts) else pd.Series()
    rows = []
    for sc in scenarios:
        n_all = int(n.get(sc, pd.Series(dtype=int)).sum())
        n_win, n_loss = int(n.get((sc, "win"), 0)), int(n.get((sc, "loss"), 0))
        for it in items:
            t = timing.loc[(sc, it)] if timing is not None and (sc, it) in timing.index else None
            k = int(t["games"]) if t is not None else 0
            rows.append({
                "scenario": sc, item: it, "games": n_all, done: k,
                f"share_{done}": k / n_all if n_all else np.nan,
                f"share_{done}_in_losses": by_outcome.get((sc, it, "loss"), 0) / n_loss if n_loss else np.nan,
                f"share_{done}_in_wins": by_outcome.get((sc, it, "win"), 0) / n_win if n_win else np.nan,
                "median_turn": t["median"] if k else np.nan,
                "q10_turn": t["q10"] if k else np.nan,
                "q90_turn": t["q90"] if k else np.nan,
            })
    return pd.DataFrame(rows)
