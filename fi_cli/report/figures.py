"""The report's figures, drawn with matplotlib's object API (no pyplot: no global state, no display).

Each function takes the tables of `stats` and returns a Figure; `save` writes it as PNG and SVG.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import PercentFormatter

from fi_cli.island.tiles import SKULL, TILES, TREASURE_TILES, TREASURES

from . import style
from .style import ending_colour, ending_label, pct, wrap

DPI = 130


def save(fig: Figure, out_dir: Path, name: str, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write `name.<format>` for each format (PNG for the page, SVG to zoom); return the paths."""
    paths = [out_dir / f"{name}.{fmt}" for fmt in formats]
    for path in paths:
        fig.savefig(path, dpi=DPI)
    return paths


def _xerr(value: float, low: float, high: float) -> list[list[float]]:
    """Error-bar lengths from an interval; never negative (matplotlib refuses those)."""
    return [[max(0.0, value - low)], [max(0.0, high - value)]]


def _grid(n: int, ncols: int = 3) -> tuple[int, int]:
    ncols = max(1, min(ncols, n))
    return math.ceil(n / ncols), ncols


def _axes(fig: Figure, n: int, ncols: int = 3, **kw) -> list:
    rows, cols = _grid(n, ncols)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False, **kw)).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return list(axes[:n])


def loss_causes(outcomes: pd.DataFrame, endings: Sequence[str]) -> Figure:
    """1. Per scenario, one bar split into the shares of win and each loss cause."""
    n = len(outcomes)
    fig = Figure(figsize=(10, 1.6 + 0.62 * n), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for e in endings:
        share = outcomes[f"share_{e}"].to_numpy()
        ax.barh(y, share, left=left, color=ending_colour(e), label=ending_label(e), height=0.66,
                edgecolor="white", linewidth=0.6)
        for yi, l, s in zip(y, left, share, strict=True):
            if s >= 0.06:
                dark = e in ("water_level", "win")
                ax.text(l + s / 2, yi, f"{100 * s:.0f}%", ha="center", va="center", fontsize=9,
                        color="white" if dark else "black")
        left += share
    ax.set_yticks(y, [wrap(s) for s in outcomes["scenario"]])
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_xlabel("share of games")
    sec = ax.secondary_yaxis("right")
    sec.set_yticks(y, [f"n = {g:,}" for g in outcomes["games"]])
    sec.tick_params(length=0)
    ax.set_title("How games end, per scenario")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.06), ncols=min(len(endings), 3), frameon=False)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return fig


def water_curves(curves: pd.DataFrame, outcomes: pd.DataFrame, scenarios: Sequence[str]) -> Figure:
    """2a. Water level against turn: median and 10-90% band, wins and losses apart, one panel per scenario."""
    rows, cols = _grid(len(scenarios))
    fig = Figure(figsize=(4.4 * cols + 0.6, 3.3 * rows + 1.0), layout="constrained")
    axes = _axes(fig, len(scenarios), sharex=True, sharey=True)
    counts = outcomes.set_index("scenario")
    for ax, sc in zip(axes, scenarios, strict=True):
        for outcome in ("loss", "win"):
            c = curves[(curves["scenario"] == sc) & (curves["outcome"] == outcome)]
            if c.empty:
                continue
            col = style.OUTCOME_COLOURS[outcome]
            ax.fill_between(c["turn"], c["q10"], c["q90"], color=col, alpha=0.22, linewidth=0, step="post")
            ax.step(c["turn"], c["median"], where="post", color=col, linewidth=2)
        ax.axhline(SKULL, color="black", linestyle=":", linewidth=1)
        wins = int(counts.loc[sc, "win"]) if "win" in counts.columns else 0
        ax.set_title(f"{wrap(sc, 40)}\n{wins:,} won, {int(counts.loc[sc, 'games']) - wins:,} lost", fontsize=10)
        ax.set_ylim(0.5, SKULL + 0.5)
        ax.set_yticks(range(1, SKULL + 1), [*map(str, range(1, SKULL)), "skull"])
        ax.grid(axis="y", alpha=0.3)
    for ax in axes:
        if ax.get_subplotspec().is_first_col():
            ax.set_ylabel("water level")
        if ax.get_subplotspec().is_last_row() or not ax.get_shared_x_axes():
            ax.set_xlabel("turn (one player's turn)")
    handles = []
    for outcome, word in (("win", "won"), ("loss", "lost")):
        if (curves["outcome"] == outcome).any():
            col = style.OUTCOME_COLOURS[outcome]
            handles += [Line2D([], [], color=col, lw=2, label=f"{word} games: median"),
                        Patch(color=col, alpha=0.22, label=f"{word} games: 10-90% of games")]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)
    fig.suptitle("How fast the water rises (games still being played at each turn)")
    return fig


def level_reached(summary: pd.DataFrame, scenarios: Sequence[str]) -> Figure:
    """2b. For each water level: when it is reached (median, 25-75%, 10-90%) and in what share of games."""
    colours = style.scenario_colours(scenarios)
    fig = Figure(figsize=(10, 7), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(2.2, 1))
    k = len(scenarios)
    width = min(0.8, 0.18 * k)
    offsets = np.linspace(-width / 2, width / 2, k) if k > 1 else np.zeros(1)
    for off, sc in zip(offsets, scenarios, strict=True):
        s = summary[summary["scenario"] == sc]
        if s.empty:
            continue
        x = s["level"].to_numpy() + off
        col = colours[sc]
        top.vlines(x, s["q10"], s["q90"], color=col, linewidth=1)
        top.vlines(x, s["q25"], s["q75"], color=col, linewidth=4)
        top.plot(x, s["median"], "o", color=col, markersize=5, markeredgecolor="white", label=wrap(sc, 30))
        bottom.plot(s["level"], s["share_reached"], "o-", color=col, markersize=4)
    top.set_ylabel("turn at which the level is reached")
    top.set_title("When the water reaches each level (dot: median, thick: middle 50%, thin: 10-90% of games)")
    top.grid(axis="y", alpha=0.3)
    top.legend(loc="upper left", frameon=False, fontsize=9, ncols=1 if k <= 6 else 2)
    bottom.set_ylabel("share of games\nreaching it")
    bottom.set_ylim(-0.03, 1.03)
    bottom.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    bottom.set_xlabel("water level")
    levels = sorted(summary["level"].unique()) if not summary.empty else list(range(2, SKULL + 1))
    bottom.set_xticks(levels, [str(v) if v < SKULL else "skull" for v in levels])
    bottom.grid(alpha=0.3)
    return fig


def survival(incidence: pd.DataFrame, scenarios: Sequence[str], endings: Sequence[str]) -> Figure:
    """3. Share of games still going at each turn (all scenarios), then per scenario the cumulative share
    ended by each cause (competing causes), with 95% Wilson bands."""
    colours = style.scenario_colours(scenarios)
    n = len(scenarios) + 1
    rows, cols = _grid(n)
    fig = Figure(figsize=(4.4 * cols + 0.6, 3.3 * rows + 1.2), layout="constrained")
    axes = _axes(fig, n, sharex=True, sharey=True)
    first = axes[0]
    for sc in scenarios:
        s = incidence[(incidence["scenario"] == sc) & (incidence["ending"] == "still going")]
        first.fill_between(s["turn"], s["ci_low"], s["ci_high"], step="post", color=colours[sc], alpha=0.2, lw=0)
        first.step(s["turn"], s["share"], where="post", color=colours[sc], lw=2, label=wrap(sc, 28))
    first.set_title("Games still going, all scenarios", fontsize=10)
    first.legend(fontsize=8, frameon=False, loc="lower left")
    for ax, sc in zip(axes[1:], scenarios, strict=True):
        for e in ["still going", *endings]:
            s = incidence[(incidence["scenario"] == sc) & (incidence["ending"] == e)]
            if s.empty or s["count"].max() == 0:
                continue
            col = ending_colour(e)
            ax.fill_between(s["turn"], s["ci_low"], s["ci_high"], step="post", color=col, alpha=0.2, lw=0)
            ax.step(s["turn"], s["share"], where="post", color=col, lw=2,
                    linestyle="--" if e == "still going" else "-")
        ax.set_title(wrap(sc, 40), fontsize=10)
    for ax in axes:
        ax.set_ylim(-0.02, 1.02)
        ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
        ax.grid(alpha=0.3)
        if ax.get_subplotspec().is_first_col():
            ax.set_ylabel("share of games")
        ax.set_xlabel("turn")
        ax.tick_params(labelbottom=True)
    handles = [Line2D([], [], color=ending_colour("still going"), lw=2, ls="--", label="still going")]
    handles += [Line2D([], [], color=ending_colour(e), lw=2, label=f"ended: {ending_label(e)}") for e in endings]
    handles.append(Patch(color="grey", alpha=0.3, label="95% confidence band (Wilson)"))
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 3), frameon=False)
    fig.suptitle("Survival: share of games still going, and how the others ended by each turn")
    return fig


def win_rates(rates: pd.DataFrame, baseline: str) -> Figure:
    """4. Win rate with 95% Wilson intervals, and the difference to the baseline (Newcombe intervals,
    Holm-corrected p-values)."""
    colours = style.scenario_colours(list(rates["scenario"]))
    n = len(rates)
    fig = Figure(figsize=(12, 2.0 + 0.6 * n), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(n)[::-1]
    rate_text, diff_text = [], []
    for yi, (_, r) in zip(y, rates.iterrows(), strict=True):
        col = colours[r["scenario"]]
        left.errorbar(r["win_rate"], yi, xerr=_xerr(r["win_rate"], r["ci_low"], r["ci_high"]), fmt="o", color=col,
                      capsize=4, markersize=6)
        rate_text.append(f"{pct(r['win_rate'])}\n{r['wins']:,}/{r['games']:,}")
        if r["scenario"] == baseline:
            right.plot(0, yi, "D", color=col, markersize=6)
            diff_text.append("baseline")
            continue
        sig = bool(r["significant"])
        right.errorbar(r["diff"], yi, xerr=_xerr(r["diff"], r["diff_low"], r["diff_high"]), fmt="s" if sig else "o",
                       color=col, capsize=4, markersize=6, mfc=col if sig else "white")
        diff_text.append(f"{100 * r['diff']:+.1f} pts\np = {r['p_holm']:.2g}{' *' if sig else ''}")
    left.set_yticks(y, [wrap(s) for s in rates["scenario"]])
    left.set_ylim(-0.6, n - 0.4)
    for ax, texts in ((left, rate_text), (right, diff_text)):
        sec = ax.secondary_yaxis("right")
        sec.set_yticks(y, texts, fontsize=8.5)
        sec.tick_params(length=0)
        ax.grid(axis="x", alpha=0.3)
    hi = float(np.nanmax(rates["ci_high"])) if n else 1.0
    left.set_xlim(0, min(1.0, hi * 1.1 + 0.01))
    left.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
    left.set_xlabel("win rate (95% Wilson interval)")
    left.set_title("Win rate per scenario")
    right.axvline(0, color="black", lw=1)
    lo = np.nanmin([0.0, *rates["diff_low"].dropna()])
    up = np.nanmax([0.0, *rates["diff_high"].dropna()])
    pad = max(up - lo, 0.02) * 0.08
    right.set_xlim(lo - pad, up + pad)
    # %g keeps ticks such as +0.25 exact instead of rounding them to a misleading +0.3
    right.xaxis.set_major_formatter(lambda v, _: "0" if abs(v) < 1e-12 else f"{round(100 * v, 6):+g}")
    right.set_xlabel("difference in win rate, percentage points (95% Newcombe interval)")
    right.set_title(f"Against the baseline: {wrap(baseline, 40)}")
    fig.legend(handles=[
        Line2D([], [], marker="D", color="grey", ls="", label="baseline"),
        Line2D([], [], marker="s", color="grey", ls="", label="significant after Holm correction (p < 0.05)"),
        Line2D([], [], marker="o", color="grey", mfc="white", ls="", label="not significant"),
    ], loc="outside lower center", ncols=3, fontsize=9, frameon=False)
    return fig


def risk_map(cells: pd.DataFrame, panels: Sequence[tuple[str, str]], random_placement: bool) -> Figure:
    """5. Each layout's cells coloured by the share of games the tile there sank, with the median turn it
    sank; Fools' Landing and treasure tiles marked where the layout pins them."""
    n = len(panels)
    rows, cols = _grid(n)
    fig = Figure(figsize=(4.3 * cols + 1.2, 4.4 * rows + 1.1), layout="constrained")
    axes = _axes(fig, n)
    cmap = matplotlib.colormaps["YlOrRd"]
    # Scale to the riskiest cell (shared by all panels, so they compare); a 0-100% scale washes out.
    top = float(cells["share_sunk"].max()) if len(cells) else 1.0
    norm = Normalize(0, min(1.0, max(0.1, math.ceil(top * 10) / 10)))
    # tile id -> its treasure's initials, to mark pinned treasure tiles
    marks = {TILES[i]: "".join(w[0].upper() for w in TREASURES[t].split("_") if w != "of")
             for t, pair in enumerate(TREASURE_TILES) for i in pair}
    for ax, (sc, layout) in zip(axes, panels, strict=True):
        c = cells[(cells["scenario"] == sc) & (cells["layout"] == layout)]
        for _, r in c.iterrows():
            x, y = r["col"], -r["row"]
            colour = cmap(norm(r["share_sunk"]))
            pinned = r["pinned"]
            ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, facecolor=colour, edgecolor="#555555", lw=0.8))
            dark = norm(r["share_sunk"]) > 0.6
            txt = pct(r["share_sunk"], 0)
            if r["median_sunk_turn"] == r["median_sunk_turn"]:
                txt += f"\nt {r['median_sunk_turn']:.0f}"
            marked = pinned == "fools_landing" or pinned in marks
            ax.text(x, y - (0.1 if marked else 0), txt, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")
            if pinned == "fools_landing":
                ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, fill=False, edgecolor="black", lw=3))
                ax.text(x, y + 0.27, "H", ha="center", va="center", fontsize=8.5, weight="bold",
                        color="white" if dark else "black")
            elif pinned in marks:
                ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, fill=False, edgecolor="#0072B2", lw=3))
                ax.text(x, y + 0.27, marks[pinned], ha="center", va="center", fontsize=8, weight="bold",
                        color="#0072B2")
        if not c.empty:
            ax.set_xlim(c["col"].min() - 0.6, c["col"].max() + 0.6)
            ax.set_ylim(-c["row"].max() - 0.6, -c["row"].min() + 0.6)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)
        title = wrap(sc, 34) if str(layout) in sc else f"{wrap(sc, 34)}\nlayout: {layout}"
        ax.set_title(title, fontsize=10)
    fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=axes, shrink=0.6,
                 label="share of games the tile on this cell sank", format=lambda v, _: f"{100 * v:.0f}%")
    note = ("Cell text: share of games it sank, and 't' the median turn it sank.  "
            "H = Fools' Landing, ES/SW/CF/OC = treasure tiles, where the layout pins them.")
    if random_placement:
        note += "\nTiles are placed at random each game, so a cell shows a spot of the island, not a tile; "
        note += "see the key-tile figure for Fools' Landing and the treasure tiles."
    fig.suptitle("Island risk map: where the island sinks", fontsize=12)
    fig.text(0.5, 0.0, note, ha="center", va="bottom", fontsize=8.5, wrap=True)
    fig.get_layout_engine().set(h_pad=0.25)
    return fig


def key_tiles(by_tile: pd.DataFrame, scenarios: Sequence[str]) -> Figure:
    """5b. Fools' Landing and the eight treasure tiles: share of games each sank (95% Wilson interval)."""
    tiles = [TILES[0]] + [TILES[i] for pair in TREASURE_TILES for i in pair]
    colours = style.scenario_colours(scenarios)
    fig = Figure(figsize=(10, 5.2), layout="constrained")
    ax = fig.add_subplot()
    k = len(scenarios)
    width = 0.8 / k
    x = np.arange(len(tiles))
    for i, sc in enumerate(scenarios):
        s = by_tile[by_tile["scenario"] == sc].set_index("tile").reindex(tiles)
        xs = x - 0.4 + width * (i + 0.5)
        ax.bar(xs, s["share_sunk"], width=width * 0.92, color=colours[sc], label=wrap(sc, 30))
        ax.errorbar(xs, s["share_sunk"], yerr=[(s["share_sunk"] - s["ci_low"]).clip(lower=0),
                                               (s["ci_high"] - s["share_sunk"]).clip(lower=0)],
                    fmt="none", ecolor="black", elinewidth=0.8, capsize=2)
    labels = [style.tile_label(t) for t in tiles]
    ax.set_xticks(x, [wrap(lb, 12) for lb in labels], fontsize=8.5)
    for i in range(len(TREASURE_TILES)):
        mid = 1 + 2 * i + 0.5
        ax.text(mid, 1.04, style.TREASURE_LABELS[TREASURES[i]], ha="center", fontsize=8.5,
                transform=ax.get_xaxis_transform())
        ax.axvline(mid - 1, color="#bbbbbb", lw=0.8)
    top = by_tile.loc[by_tile["tile"].isin(tiles), "ci_high"].max()
    ax.set_ylim(0, min(1.0, float(top) * 1.1 + 0.02) if top == top else 1.0)
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_ylabel("share of games the tile sank")
    ax.set_title("Key tiles: how often Fools' Landing and each treasure tile sank", pad=22)
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    return fig


def treasures(summary: pd.DataFrame, in_losses: pd.DataFrame, scenarios: Sequence[str]) -> Figure:
    """6. When each treasure is captured, and how many treasures the lost games had captured."""
    colours = style.scenario_colours(scenarios)
    k = len(scenarios)
    fig = Figure(figsize=(11, 5.0 + max(2.0, 0.55 * k)), layout="constrained")
    top, bottom = fig.subplots(2, 1, height_ratios=(1.5, max(1.0, 0.3 * k)))
    width = min(0.8, 0.16 * k)
    offsets = np.linspace(-width / 2, width / 2, k) if k > 1 else np.zeros(1)
    x = np.arange(len(TREASURES))
    for off, sc in zip(offsets, scenarios, strict=True):
        s = summary[summary["scenario"] == sc].set_index("treasure").reindex(list(TREASURES))
        col = colours[sc]
        top.vlines(x + off, s["q10_turn"], s["q90_turn"], color=col, lw=1.5)
        top.plot(x + off, s["median_turn"], "o", color=col, markeredgecolor="white", markersize=7,
                 label=wrap(sc, 30))
        for xi, share, q90 in zip(x + off, s["share_captured"], s["q90_turn"], strict=True):
            if q90 == q90:
                label = "<1%" if 0 < share < 0.005 else pct(share, 0)
                top.annotate(label, (xi, q90), xytext=(0, 4), textcoords="offset points", ha="center",
                             fontsize=7.5, color=col)
    top.set_xticks(x, [style.TREASURE_LABELS[t] for t in TREASURES])
    top.set_xlim(-0.6, len(TREASURES) - 0.4)
    top.set_ylabel("turn of capture")
    top.set_title("When each treasure is captured (dot: median, line: 10-90% of captures; "
                  "number: share of games it was captured in)", fontsize=10)
    top.grid(axis="y", alpha=0.3)
    if summary["median_turn"].isna().all():
        top.text(0.5, 0.5, "no treasure was captured in any game", transform=top.transAxes, ha="center")
        top.set_ylim(0, 1)
    else:
        top.set_ylim(0, float(summary["q90_turn"].max()) * 1.15 + 1)
        top.legend(fontsize=8.5, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    y = np.arange(k)[::-1]
    lft = np.zeros(k)
    blues = matplotlib.colormaps["Blues"]
    for t in range(len(TREASURES) + 1):
        share = np.array([
            in_losses[(in_losses["scenario"] == sc) & (in_losses["treasures_captured"] == t)]["share"].sum()
            for sc in scenarios])
        bottom.barh(y, share, left=lft, color=blues(0.15 + 0.2 * t), edgecolor="white", height=0.66,
                    label=f"{t} treasure{'s' if t != 1 else ''}")
        for yi, l, s in zip(y, lft, share, strict=True):
            if s >= 0.05:
                bottom.text(l + s / 2, yi, f"{100 * s:.0f}%", ha="center", va="center", fontsize=8.5,
                            color="white" if t >= 3 else "black")
        lft += share
    lost = in_losses.groupby("scenario")["lost_games"].sum().reindex(list(scenarios)).fillna(0).astype(int)
    bottom.set_yticks(y, [f"{wrap(sc, 26)}\n({lost[sc]:,} lost)" for sc in scenarios], fontsize=9)
    bottom.set_xlim(0, 1)
    bottom.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    bottom.set_xlabel("share of lost games")
    bottom.set_title("How many treasures the lost games had captured", fontsize=10)
    if lost.sum() == 0:
        bottom.text(0.5, 0.5, "no lost games", transform=bottom.transAxes, ha="center", va="center")
    else:
        bottom.legend(fontsize=8.5, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                      title="captured")
    return fig
