"""The figures of the explorer section (see `explorer`): win rate against each feature, the model's
coefficients, the hardest and easiest islands drawn, and every island ranked with its interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from fi_cli.island.layout_features import describe

from ..figures import PERCENT, note, panels
from ..style import SCENARIO_PALETTE, pct, wrap
from .explorer import Explorer
from .maps import layouts

EXTREMES = 4  # islands drawn at each end of a slice's ranking


def _slice_colours(ex: Explorer) -> dict[str, str]:
    return {s: SCENARIO_PALETTE[i % len(SCENARIO_PALETTE)] for i, s in enumerate(ex.slices)}


def _slice_legend(fig: Figure, ex: Explorer, text: str) -> None:
    """The note under a figure, with a legend of the slices' colours when there are several."""
    colours = _slice_colours(ex)
    handles = [Line2D([], [], marker="o", color=c, ls="", label=s) for s, c in colours.items()]
    note(fig, text, handles if len(handles) > 1 else None, ncols=3)


def feature_scatter(ex: Explorer) -> Figure:
    """One panel per feature of the model: each island's win rate (95% Wilson interval) against the feature,
    and the win rate a logistic regression on that feature alone predicts."""
    n = max(1, len(ex.features))
    cols = min(3, n)
    rows = -(-n // cols)
    fig = Figure(figsize=(4.2 * cols + 0.6, 3.2 * rows + 1.4), layout="constrained")
    axes = panels(fig, n, cols, sharey=True)
    colours = _slice_colours(ex)
    isl = ex.islands
    for ax, f in zip(axes, ex.features, strict=False):
        for s, c in colours.items():
            d = isl[isl["slice_label"] == s]
            ax.errorbar(d[f], d["win_rate"], yerr=[(d["win_rate"] - d["ci_low"]).clip(lower=0),
                                                   (d["ci_high"] - d["win_rate"]).clip(lower=0)],
                        fmt="o", color=c, alpha=0.55, markersize=3.5, elinewidth=0.8, capsize=0)
            curve = ex.curves[(ex.curves["feature"] == f) & (ex.curves["slice_label"] == s)]
            ax.plot(curve["x"], curve["win_rate"], color=c, lw=2)
        ax.set_xlabel(f, fontsize=9)
        ax.set_title(wrap(describe(f), 44), fontsize=8.5)
        ax.grid(alpha=0.3)
        ax.yaxis.set_major_formatter(PERCENT)
    if not ex.features:
        axes[0].axis("off")
        axes[0].text(0.5, 0.5, "no feature varies between the islands", ha="center", va="center")
    for i, ax in enumerate(axes):
        if i % cols == 0:
            ax.set_ylabel("win rate")
    _slice_legend(fig, ex, "Each point is one island with its 95% Wilson interval; the line is a logistic "
                           "regression of a win on this feature alone.")
    return fig


def coefficients(ex: Explorer) -> Figure:
    """The model's coefficients: change in the log-odds of a win per standard deviation of each feature,
    with 95% cluster-robust intervals; the odds ratio written beside."""
    m = ex.model
    n = max(1, len(m))
    fig = Figure(figsize=(10, 1.9 + 0.45 * n), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(m))[::-1]
    for yi, r in zip(y, m.itertuples(), strict=True):
        clear = r.ci_low > 0 or r.ci_high < 0
        ax.errorbar(r.coef, yi + 0.12, xerr=[[r.coef - r.ci_low], [r.ci_high - r.coef]], fmt="s" if clear else "o",
                    color="#0072B2", mfc="#0072B2" if clear else "white", capsize=4, markersize=6)
        ax.errorbar(r.coef_alone, yi - 0.18, xerr=[[r.coef_alone - r.ci_low_alone], [r.ci_high_alone - r.coef_alone]],
                    fmt="D", color="#777777", capsize=3, markersize=4, lw=1)
    ax.axvline(0, color="black", lw=1)
    ax.set_yticks(y, [f"{r.feature}\n(SD {r.sd:.2g})" for r in m.itertuples()], fontsize=8.5)
    ax.set_ylim(-0.6, max(len(m), 1) - 0.4)
    sec = ax.secondary_yaxis("right")
    sec.set_yticks(y, [f"together: odds x{r.odds_ratio:.2f}, p = {r.p_value:.2g}" for r in m.itertuples()], fontsize=8)
    sec.tick_params(length=0)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel("change in the log-odds of a win per standard deviation of the feature (95% interval)")
    if m.empty:
        ax.text(0, 0, "no model: " + "; ".join(ex.notes)[:120], ha="center", va="center", fontsize=9)
    handles = [Line2D([], [], marker="s", color="#0072B2", ls="-", label="all features at once (filled: excludes 0)"),
               Line2D([], [], marker="D", color="#777777", ls="-", ms=4, label="this feature alone")]
    note(fig, "Logistic regression of a win on the standardised features, one intercept per slice, fitted on each "
              "island's counts; intervals cluster-robust by island.", handles, ncols=2)
    return fig


def extremes(ex: Explorer, shapes: dict[str, dict]) -> Figure:
    """The EXTREMES hardest and easiest islands of each slice, drawn, with their win rates."""
    chosen, titles = [], []
    multi = len(ex.slices) > 1
    for s in ex.slices:
        d = ex.islands[ex.islands["slice_label"] == s]
        k = min(EXTREMES, len(d) // 2)
        for what, part in (("hardest", d.head(k)), ("easiest", d.tail(k).iloc[::-1])):
            for r in part.itertuples():
                chosen.append(shapes[r.layout])
                where = f"{s}: " if multi else ""
                titles.append(f"{where}{what} #{r.rank if what == 'hardest' else len(d) + 1 - r.rank}\n"
                              f"{wrap(r.island, 28)}\n{pct(r.win_rate)} [{pct(r.ci_low)}, {pct(r.ci_high)}]")
    return layouts(chosen, titles)


def ranking(ex: Explorer) -> Figure:
    """Per slice (a panel each), every island by name from the hardest (top) to the easiest: win rate with its
    95% Wilson interval, and the win rate of all the slice's games (dotted)."""
    n = len(ex.slices)
    most = int(ex.islands.groupby("slice_label").size().max())
    fig = Figure(figsize=(min(5.4 * n, 12.5) + 0.6, 0.21 * most + 1.6), layout="constrained")
    axes = panels(fig, n, n)
    colours = _slice_colours(ex)
    for ax, s in zip(axes, ex.slices, strict=True):
        d = ex.islands[ex.islands["slice_label"] == s]
        y = np.arange(len(d))[::-1]  # rank 1 at the top
        ax.errorbar(d["win_rate"], y, xerr=[(d["win_rate"] - d["ci_low"]).clip(lower=0),
                                            (d["ci_high"] - d["win_rate"]).clip(lower=0)],
                    fmt="o", color=colours[s], markersize=3.5, elinewidth=0.9, capsize=0)
        ax.set_yticks(y, [f"{r}. {name}" for r, name in zip(d["rank"], d["island"], strict=True)], fontsize=8)
        ax.set_ylim(-0.7, len(d) - 0.3)
        pooled = d["wins"].sum() / d["games"].sum()
        ax.axvline(pooled, color="black", ls=":", lw=1)
        ax.set_title(f"{s}: {len(d)} islands, {pct(pooled)} of all their games won (dotted)" if n > 1 else
                     f"{len(d)} islands, {pct(pooled)} of all their games won (dotted)", fontsize=9.5)
        ax.xaxis.set_major_formatter(PERCENT)
        ax.grid(axis="x", alpha=0.3)
        ax.set_xlabel("win rate (95% Wilson interval)")
    return fig


def island_list(ex: Explorer) -> pd.DataFrame:
    """The ranking as a table for the page: rank, island, slice, games, win rate and interval, features."""
    d = ex.islands
    out = pd.DataFrame({"rank": d["rank"], "island": d["island"]})
    if len(ex.slices) > 1:
        out["slice"] = d["slice_label"]
    out["games"] = d["games"].map("{:,}".format)
    out["win rate"] = d["win_rate"].map(pct)
    out["95% CI"] = [f"{pct(lo)}–{pct(hi)}" for lo, hi in zip(d["ci_low"], d["ci_high"], strict=True)]
    for f in ex.features:
        out[f] = d[f].map(lambda v: f"{v:.2f}" if isinstance(v, float) and not float(v).is_integer() else f"{v:g}")
    return out
