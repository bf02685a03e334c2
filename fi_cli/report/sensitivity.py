"""Which lever matters most: the analysis of a sensitivity run (`fi design sensitivity`, fi_cli.sim.sensitivity)
and its part of the report (a tornado figure and the tables).

Every arm played the same games (the same seeds) as the base, so each arm is compared with the base game by
game: for the win rate, the 2x2 table of (arm won, base won) gives the paired difference with Newcombe's hybrid
score interval for paired proportions (his method 10: the Wilson intervals of both rates, combined with the
correlation of the pairs) and the exact McNemar test (the games won by one of the two only, against a fair
coin); for the game length, the paired difference of the mean number of turns with its t interval and test.
The p-values of each family (win rate, length) are Holm-corrected over all the arms. Levers are ranked by the
larger of their two win-rate effects (in points, either sign), then by their effect on the length.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from scipy.stats import binomtest, ttest_rel
from statsmodels.stats.multitest import multipletests

from .figures import FigureInfo
from .load import ReportData
from .sections import Part, Table
from .stats import ALPHA, wilson

KIND = "sensitivity"
SIDES = ("down", "up")
COLOURS = {"down": "#0072B2", "up": "#D55E00"}  # Okabe-Ito blue and vermillion
FIGURE = FigureInfo("sensitivity_tornado", "Which lever matters most",
                    "Each lever one step down (blue) and up (vermillion) from the base, on the same deals: the change "
                    "of the win rate in points (left) and of the mean game length in turns (right), with 95% "
                    "intervals; levers ranked by the larger of their two win-rate effects. * = significant after "
                    "Holm's correction.")


def newcombe_paired(a: int, b: int, c: int, d: int, alpha: float = ALPHA) -> tuple[float, float]:
    """95% interval of p1 - p2 for paired proportions (Newcombe 1998, method 10): a = both succeed, b = only the
    first, c = only the second, d = neither."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    (l1, l2), (u1, u2) = wilson(np.array([a + b, a + c]), n, alpha)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(margins) if margins else 0.0
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    eps = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return p1 - p2 - delta, p1 - p2 + eps


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar test: of the b + c games won by one side only, b by the first."""
    return float(binomtest(b, b + c, 0.5).pvalue) if b + c else 1.0


def design_of(data: ReportData) -> dict[str, Any] | None:
    """The sensitivity design of the report's run, if it is one (a single sensitivity run)."""
    if len(data.runs) != 1:
        return None
    design = (data.runs[0].manifest.get("study") or {}).get("design")
    return design if design and design.get("kind") == KIND else None


def _arm(games: pd.DataFrame, base: pd.DataFrame, arm: str) -> dict[str, Any]:
    """One arm against the base, game by game."""
    g = games[games["scenario_id"] == arm].set_index("game")
    both = g.join(base.add_suffix("_base"), how="inner")
    won, won_base = both["outcome"].eq("win").to_numpy(), both["outcome_base"].eq("win").to_numpy()
    a, b = int((won & won_base).sum()), int((won & ~won_base).sum())
    c, d = int((~won & won_base).sum()), int((~won & ~won_base).sum())
    n = a + b + c + d
    lo, hi = wilson(a + b, n)
    d_lo, d_hi = newcombe_paired(a, b, c, d)
    turns, turns_base = both["turns"].to_numpy(float), both["turns_base"].to_numpy(float)
    diff = turns - turns_base
    if n > 1 and diff.std() > 0:
        t = ttest_rel(turns, turns_base)
        t_lo, t_hi = t.confidence_interval(1 - ALPHA)
        p_turns = float(t.pvalue)
    else:
        t_lo = t_hi = float(diff.mean()) if n else math.nan
        p_turns = 1.0
    return {"games": n, "wins": a + b, "win_rate": (a + b) / n, "ci_low": float(lo), "ci_high": float(hi),
            "base_win_rate": (a + c) / n, "diff": (b - c) / n, "diff_low": d_lo, "diff_high": d_hi,
            "only_arm": b, "only_base": c, "p_value": mcnemar_exact(b, c),
            "median_turns": float(np.median(turns)), "base_median_turns": float(np.median(turns_base)),
            "turns_diff": float(diff.mean()), "turns_low": float(t_lo), "turns_high": float(t_hi),
            "p_turns": p_turns}


def analyse(games: pd.DataFrame, design: dict[str, Any]) -> pd.DataFrame:
    """One row per arm played: its lever, side, value, win rate and length against the base (see the module
    doc), p-values Holm-corrected over all the arms, and each lever's rank (1: the largest win-rate effect)."""
    base = games[games["scenario_id"] == design["base"]].set_index("game")[["outcome", "turns"]]
    rows = []
    for entry in design["levers"]:
        for side in SIDES:
            arm = entry[side]
            if arm is None or not (games["scenario_id"] == arm["scenario"]).any():
                continue
            rows.append({"lever": entry["lever"], "side": side, "base_value": _text(entry["base"]),
                         "value": _text(arm["value"]), "scenario": arm["scenario"],
                         **_arm(games, base, arm["scenario"])})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    for p, holm in (("p_value", "p_holm"), ("p_turns", "p_turns_holm")):
        out[holm] = multipletests(out[p], alpha=ALPHA, method="holm")[1]
    effect = out.assign(size=out["diff"].abs(), length=out["turns_diff"].abs()).groupby("lever")[["size", "length"]]
    order = effect.max().sort_values(["size", "length"], ascending=False, kind="stable").index
    out["rank"] = out["lever"].map({lever: i + 1 for i, lever in enumerate(order)})
    return out.sort_values(["rank", "side"], kind="stable").reset_index(drop=True)


def _text(value: Any) -> str:
    """A lever's value as text: 3, '2,2,3' (a meter), 'explorer 5 ...' (canteens)."""
    if isinstance(value, dict):
        return " ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return str(value)


def _short(value: str, width: int = 18) -> str:
    return value if len(value) <= width else value[: width - 1] + "…"


def not_played(design: dict[str, Any]) -> list[str]:
    """The steps the rules could not bear (left out of the design), as 'lever down' / 'lever up'."""
    return [f"{e['lever']} {side}" for e in design["levers"] for side in SIDES if e[side] is None]


def tornado(table: pd.DataFrame) -> Figure:
    """The levers, most important on top: per side, the change of the win rate (points) and of the mean game
    length (turns) against the base, with 95% intervals; * after a bar significant after Holm."""
    levers = list(dict.fromkeys(table["lever"]))
    fig = Figure(figsize=(11, 1.4 + 0.42 * len(levers)), layout="constrained")
    rate_ax, turns_ax = fig.subplots(1, 2, sharey=True)
    y = {lever: len(levers) - 1 - i for i, lever in enumerate(levers)}
    for ax, (value, low, high, holm, scale) in (
            (rate_ax, ("diff", "diff_low", "diff_high", "p_holm", 100.0)),
            (turns_ax, ("turns_diff", "turns_low", "turns_high", "p_turns_holm", 1.0))):
        for side, shift in (("down", 0.19), ("up", -0.19)):
            t = table[table["side"] == side]
            ys = [y[lever] + shift for lever in t["lever"]]
            mid = t[value].to_numpy() * scale
            err = np.vstack([mid - t[low].to_numpy() * scale, t[high].to_numpy() * scale - mid])
            ax.barh(ys, mid, height=0.36, color=COLOURS[side], alpha=0.85)
            ax.errorbar(mid, ys, xerr=err, fmt="none", ecolor="black", elinewidth=0.8, capsize=2)
            for yy, x, lo_, hi_, p in zip(ys, mid, t[low].to_numpy() * scale, t[high].to_numpy() * scale, t[holm],
                                          strict=True):
                if p < ALPHA:  # beyond the end of the interval, on the side of the bar
                    ax.text(hi_ if x >= 0 else lo_, yy, " *" if x >= 0 else "* ", va="center",
                            ha="left" if x >= 0 else "right", fontsize=9)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.grid(axis="x", alpha=0.3)
    first = table.drop_duplicates("lever").set_index("lever")
    rate_ax.set_yticks(list(y.values()), [f"{lever}\n({_short(first.loc[lever, 'base_value'])})" for lever in y],
                       fontsize=8)
    rate_ax.set_xlabel("win rate against the base (points)")
    turns_ax.set_xlabel("mean game length against the base (turns)")
    fig.legend(handles=[Patch(color=COLOURS["down"], label="one step down"),
                        Patch(color=COLOURS["up"], label="one step up")],
               loc="outside lower center", ncols=2, frameon=False, fontsize=9)
    return fig


def view(table: pd.DataFrame) -> pd.DataFrame:
    """The analysis as a table that reads: one row per arm, most important lever first."""
    def pts(x: float) -> str:
        return f"{100 * x:+.1f}"

    return pd.DataFrame({
        "rank": table["rank"], "lever": table["lever"], "step": table["side"],
        "value (base)": [f"{_short(v)} ({_short(b)})" for v, b in zip(table["value"], table["base_value"],
                                                                       strict=True)],
        "win rate [95% CI]": [f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]" for r, lo, hi in
                              zip(table["win_rate"], table["ci_low"], table["ci_high"], strict=True)],
        "vs base, points [95% CI]": [f"{pts(d)} [{pts(lo)}, {pts(hi)}]" for d, lo, hi in
                                     zip(table["diff"], table["diff_low"], table["diff_high"], strict=True)],
        "won by one only (arm / base)": [f"{b} / {c}" for b, c in zip(table["only_arm"], table["only_base"],
                                                                      strict=True)],
        "p (McNemar, Holm)": table["p_holm"].map("{:.2g}".format),
        "turns: median (base)": [f"{m:g} ({b:g})" for m, b in zip(table["median_turns"], table["base_median_turns"],
                                                                  strict=True)],
        "mean turns vs base [95% CI]": [f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]" for d, lo, hi in
                                        zip(table["turns_diff"], table["turns_low"], table["turns_high"],
                                            strict=True)],
        "p (t, Holm)": table["p_turns_holm"].map("{:.2g}".format),
    })


def top_levers(table: pd.DataFrame, n: int = 3) -> list[str]:
    """The n levers that matter most, each as 'lever: -x.x / +y.y points'."""
    out = []
    for lever, rows in list(table.groupby("lever", sort=False))[:n]:
        sides = {r.side: f"{100 * r.diff:+.1f}" for r in rows.itertuples()}
        out.append(f"{lever} ({' / '.join(f'{s} {sides[s]}' for s in SIDES if s in sides)} points)")
    return out


METHOD = __doc__.split("\n\n", 1)[1].replace("\n", " ")


def parts(data: ReportData) -> list[Part]:
    """The sensitivity part of a section, when its run is a sensitivity design."""
    design = design_of(data)
    if design is None:
        return []
    table = analyse(data.games, design)
    if table.empty:
        return []
    base = data.info.set_index("scenario_id").loc[design["base"], "label"]
    games = int(table["games"].iloc[0])
    intro = (f"From the base {base} (win rate {100 * table['base_win_rate'].iloc[0]:.1f}%), each lever one step "
             f"down and one step up, {games:,} games each, on the same deals as the base. The levers that matter "
             f"most: {', '.join(top_levers(table))}.")
    points = [f"Left out (the rules cannot bear them): {', '.join(skipped)}." for skipped in [not_played(design)]
              if skipped]
    blocks = [FIGURE, Table("sensitivity", "Each lever against the base", view(table), METHOD)]
    return [Part("sensitivity", "Which lever matters most", intro, points, blocks,
                 {FIGURE.name: tornado(table)}, {"sensitivity": table}, METHOD)]
