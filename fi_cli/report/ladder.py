"""Skill and luck: a ladder of players on the same deals (a `policy` matrix), both games.

When a study crosses several players (``matrix: {policy: [random, heuristic, search, oracle]}``) every rung plays the
very same deals (the games' seeds leave the policy out), so rungs compare game by game. Per deal scenario (the
study's other matrix values) the section shows each rung's win rate; the *skill depth* (what each stronger rung
adds, paired exact McNemar tests, Holm-corrected); the *luck* (the share of deals the clairvoyant oracle does not
win: lost to the cards whatever the play, as far as its search budget can tell); the *value of information* (the
oracle less the best fair rung); and where the rungs' losses differ.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests

from .figures import FigureInfo
from .load import ReportData
from .sections import Part, Table
from .stats import ALPHA, wilson
from .style import SCENARIO_PALETTE

FIGURE = FigureInfo("ladder", "Skill and luck: win rate by player, the same deals for every player",
                    "Each line is one scenario (colour), each point one player on the same deals (95% Wilson "
                    "interval). A hollow point is the clairvoyant oracle: it sees the decks, so it is no player, but "
                    "a lower bound on the share of deals that can be won at all.")  # fmt: skip
METHOD = (
    "Every player played the same deals (the same game seeds). Skill depth compares each player with the next "
    "weaker one on the deals only one of them won (exact McNemar test, Holm-corrected over the section). Luck is "
    "the share of deals the oracle did not win: it sees the order of every deck (and the Desert's tile undersides) "
    "and searches the fixed future for a win, so a deal it wins is winnable; a deal it does not win may still be, "
    "beyond its search budget, so luck is an upper bound and the oracle's rate a lower bound on winnable deals. "
    "Value of information = oracle − the best fair player."
)


def applies(data: ReportData) -> bool:
    """Whether the runs cross at least two players on the same deals."""
    rungs = _rungs(data)
    return len(rungs) >= 2 and rungs.groupby("deal")["rung"].nunique().max() >= 2


def _rungs(data: ReportData) -> pd.DataFrame:
    """scenario, deal (its label without the player), rung (the player), fair, in the report's order."""
    rows = []
    for sc, run, values, layout_name in data.info[["scenario", "run", "values", "layout_name"]].itertuples(index=False):
        if "policy" not in values:
            continue
        deal = [str(layout_name) if k == "layout" else _text(v) for k, v in values.items() if k != "policy"]
        games = data.games[data.games["scenario"] == sc]
        fair = bool(games["fair"].iloc[0]) if "fair" in games.columns and len(games) else True
        rows.append((sc, " · ".join([run, *deal]) if len(data.runs) > 1 else " · ".join(deal) or run,
                     _text(values["policy"]), fair))  # fmt: skip
    return pd.DataFrame(rows, columns=["scenario", "deal", "rung", "fair"])


def _text(v: Any) -> str:
    if isinstance(v, dict):
        name = v.get("name", "?")
        rest = ", ".join(f"{k}={x}" for k, x in v.items() if k != "name")
        return f"{name} ({rest})" if rest else str(name)
    return str(v)


def compute(data: ReportData) -> dict[str, pd.DataFrame]:
    """The ladder table (a row per deal and rung) and the summary (a row per deal)."""
    rungs = _rungs(data)
    g = data.games.drop(columns=["fair"], errors="ignore").merge(rungs, on="scenario")
    rows, tests = [], []
    for deal, by_deal in g.groupby("deal", sort=False):
        previous = None
        for rung, games in by_deal.groupby("rung", sort=False):
            won = games.set_index("game")["outcome"].eq("win")
            k, n = int(won.sum()), len(won)
            lo, hi = wilson(k, n)
            causes = games.loc[games["outcome"] != "win", "loss_cause"].value_counts(normalize=True)
            row = {"deal": deal, "rung": rung, "fair": bool(games["fair"].iloc[0]), "games": n, "wins": k,
                   "win_rate": k / n, "lo": float(lo), "hi": float(hi),
                   "main_loss": f"{causes.index[0]} {causes.iloc[0]:.0%}" if len(causes) else "",
                   "gain": np.nan, "only_this": np.nan, "only_previous": np.nan, "p": np.nan}  # fmt: skip
            if previous is not None:
                both = pd.concat([won, previous], axis=1, join="inner")
                only_this = int((both.iloc[:, 0] & ~both.iloc[:, 1]).sum())
                only_prev = int((~both.iloc[:, 0] & both.iloc[:, 1]).sum())
                row |= {"gain": k / n - previous.mean(), "only_this": only_this, "only_previous": only_prev,
                        "p": binomtest(only_this, only_this + only_prev).pvalue if only_this + only_prev else 1.0}
                tests.append(len(rows))
            rows.append(row)
            previous = won
    ladder = pd.DataFrame(rows)
    ladder["p_holm"] = np.nan
    if tests:
        ladder.loc[tests, "p_holm"] = multipletests(ladder.loc[tests, "p"], alpha=ALPHA, method="holm")[1]
    return {"ladder": ladder, "ladder_summary": _summary(ladder)}


def _summary(ladder: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for deal, d in ladder.groupby("deal", sort=False):
        fair, unfair = d[d["fair"]], d[~d["fair"]]
        best = fair.loc[fair["win_rate"].idxmax()] if len(fair) else None
        bound = float(unfair["win_rate"].max()) if len(unfair) else np.nan  # NaN: no oracle, luck not measured
        if best is None:  # only unfair players: nothing to compare
            continue
        weakest = fair.iloc[0]
        rows.append({
            "deal": deal, "weakest": weakest["rung"], "weakest_rate": weakest["win_rate"],
            "best_fair": best["rung"], "best_fair_rate": best["win_rate"],
            "skill_depth": best["win_rate"] - weakest["win_rate"],
            "winnable_at_least": bound, "luck_at_most": 1 - bound, "value_of_information": bound - best["win_rate"],
        })  # fmt: skip
    return pd.DataFrame(rows)


def figure(ladder: pd.DataFrame) -> Figure:
    """Win rate by rung, one line per deal: the islands (or boards) told apart on one axis."""
    deals = list(dict.fromkeys(ladder["deal"]))
    rungs = list(dict.fromkeys(ladder["rung"]))
    colours = [SCENARIO_PALETTE[i % len(SCENARIO_PALETTE)] for i in range(len(deals))]
    fig = Figure(figsize=(max(6.0, 1.6 * len(rungs) + 3), 4.8), layout="constrained")
    ax = fig.subplots()
    offsets = np.linspace(-0.08, 0.08, len(deals)) if len(deals) > 1 else [0.0]
    for deal, colour, dx in zip(deals, colours, offsets, strict=True):
        d = ladder[ladder["deal"] == deal]
        x = np.array([rungs.index(r) for r in d["rung"]]) + dx
        y = d["win_rate"].to_numpy()
        ax.plot(x, y, color=colour, lw=1.8, label=deal)
        for xi, (_, r) in zip(x, d.iterrows(), strict=True):
            ax.errorbar(xi, r["win_rate"], yerr=[[r["win_rate"] - r["lo"]], [r["hi"] - r["win_rate"]]], color=colour,
                        fmt="o", ms=7, mfc=colour if r["fair"] else "white", mew=1.8, capsize=3)  # fmt: skip
    unfair = set(ladder.loc[~ladder["fair"], "rung"])
    ax.set_xticks(range(len(rungs)), [f"{r}\n(sees the decks)" if r in unfair else r for r in rungs])
    ax.set_ylim(0, 1.03)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylabel("win rate")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", fontsize=9, frameon=False)
    return fig


def part(data: ReportData) -> list[Part]:
    """The skill-and-luck part of a section, when the runs hold a ladder of players."""
    if not applies(data):
        return []
    tables = compute(data)
    summary = tables["ladder_summary"]
    points = [_sentence(r) for r in summary.itertuples(index=False)]
    intro = (f"{len(summary)} scenario{'s' * (len(summary) > 1)}, each played by "
             f"{tables['ladder'].groupby('deal').size().max()} players on the same deals.")
    d = tables["ladder"]
    view = d.assign(win_rate=rate_texts(d), gain=[f"{x:+.1%}" if x == x else "" for x in d["gain"]],
                    p_holm=[f"{x:.2g}" if x == x else "" for x in d["p_holm"]])
    view = view[["deal", "rung", "fair", "games", "win_rate", "gain", "only_this", "only_previous", "p_holm",
                 "main_loss"]]
    blocks: list[FigureInfo | Table] = [FIGURE, Table("ladder", "Players on the same deals", view, METHOD)]
    made = {"ladder": figure(tables["ladder"])}
    return [Part("skill", "Skill and luck", intro, points, blocks, made, tables, METHOD)]


def rate_texts(d: pd.DataFrame) -> list[str]:
    """'33.3% [13.8%, 60.9%]': each row's win rate and its interval."""
    return [f"{w:.1%} [{lo:.1%}, {hi:.1%}]" for w, lo, hi in zip(d["win_rate"], d["lo"], d["hi"], strict=True)]


def _sentence(r: Any) -> str:
    if r.winnable_at_least != r.winnable_at_least:
        return (f"{r.deal}: the best player ({r.best_fair}) wins {r.best_fair_rate:.0%}, {r.skill_depth:+.0%} over "
                f"{r.weakest}; no oracle in the ladder, so luck is not measured.")
    return (f"{r.deal}: at least {r.winnable_at_least:.0%} of deals can be won (the oracle's); the best player "
            f"({r.best_fair}) wins {r.best_fair_rate:.0%} ({r.skill_depth:+.0%} over {r.weakest}): "
            f"{r.value_of_information:.0%} is left to skill and information, at most {r.luck_at_most:.0%} is luck.")
