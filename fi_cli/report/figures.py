"""The charts every report shares, drawn with matplotlib's object API (no pyplot: no global state, no display):
how games end, win rates and comparisons, survival by cause, the stage of the losses, a value by turn (won and
lost games apart), several series by turn, the timing of events. Each game's own figures are in its package
(`report.island.figures`, `report.desert.figures`), drawn with these; grid maps are in `maps`.

Each function takes tables of `stats` and a `Look` (labels and styles of the scenarios) and returns a
Figure without a title: `build` adds the title (and the PARTIAL note) the same way for every figure.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, PercentFormatter

from . import style
from .stats import stages
from .style import ending_colour, ending_label, pct, text_on, wrap

DPI = 130
PERCENT = PercentFormatter(1.0, decimals=0)


@dataclass
class FigureInfo:
    """A figure of the report: its file stem (NAME.png, NAME.svg), its title and the caption under it."""

    name: str
    title: str
    caption: str


@dataclass
class Look:
    """How the scenarios of a report are named and drawn, in display order."""

    scenarios: list[str]
    labels: dict[str, str]
    styles: dict[str, dict]

    def label(self, scenario: str, width: int = 30) -> str:
        return wrap(self.labels[scenario], width)

    def colour(self, scenario: str) -> str:
        return str(self.styles[scenario]["color"])


# The figures every section of a report has, whatever the game.
LOSS_CAUSES = FigureInfo("loss_causes", "How games end",
                         "Each bar is one scenario, split into the share of games won and lost by each cause; the "
                         "causes too small to label in the bar are named with their share right of it, after n, the "
                         "number of games.")
WIN_RATES = FigureInfo("win_rates", "Win rate, and each scenario against its baseline",
                       "Left: win rate with its 95% Wilson interval. Right: the difference to the scenario's baseline "
                       "(named above the panel, or after 'vs') in percentage points with a 95% Newcombe interval; a "
                       "baseline row has no dot. Filled dots are significant after Holm's correction for all the "
                       "comparisons made, open dots are not. Each interval is its comparison's own, so one that "
                       "excludes 0 can still be not significant once the many comparisons are accounted for (marked "
                       "\u2020).")
SURVIVAL = FigureInfo("survival", "Survival and competing causes",
                      "After each turn, the share of games still going and the cumulative share that ended each way "
                      "(won, or lost by each cause), a line per scenario with a 95% Wilson band: which scenario ends "
                      "which way, and how soon. At every turn a scenario's shares over the panels add up to 100%.")


def save(fig: Figure, out_dir: Path, name: str, formats: Sequence[str] = ("png", "svg"), dpi: int = DPI
         ) -> list[Path]:
    """Write `name.<format>` for each format (PNG for the page, SVG to zoom) at `dpi`; return the paths."""
    paths = [out_dir / f"{name}.{fmt}" for fmt in formats]
    # A figure laid out by hand (the maps) is cut to what is drawn; the others are laid out to their edges.
    tight = {"bbox_inches": "tight", "pad_inches": 0.1} if fig.get_layout_engine() is None else {}
    # No date and fixed SVG ids: the same run gives the same files, so a regenerated report diffs cleanly.
    with matplotlib.rc_context({"svg.hashsalt": name}):
        for path in paths:
            fig.savefig(path, dpi=dpi, metadata={"Date": None} if path.suffix == ".svg" else None, **tight)
    return paths


def note(fig: Figure, text: str, handles: Sequence | None = None, ncols: int = 3, fontsize: float = 8.5) -> None:
    """A note under the figure, wrapped to its width; with legend `handles`, the note is the legend's title
    (one box at the bottom: a legend and a separate note there would overlap)."""
    width = int(fig.get_figwidth() * 72 / (0.62 * fontsize))  # chars a line: an em of 0.62 leaves room at 72 dpi
    text = "\n".join(textwrap.fill(p, width) for p in text.split("\n"))
    if handles:
        legend = fig.legend(handles=handles, loc="outside lower center", ncols=ncols, frameon=False, fontsize=9,
                            title=text, title_fontsize=fontsize)
        legend.get_title().set_multialignment("center")
    else:
        fig.supxlabel(text, fontsize=fontsize)


def _xerr(value: float, low: float, high: float) -> list[list[float]]:
    """Error-bar lengths from an interval; never negative (matplotlib refuses those)."""
    return [[max(0.0, value - low)], [max(0.0, high - value)]]


def grid(n: int, ncols: int = 3) -> tuple[int, int]:
    ncols = max(1, min(ncols, n))
    return math.ceil(n / ncols), ncols


def panels(fig: Figure, n: int, ncols: int = 3, **kw) -> list:
    """n axes in a grid (the cells left over are hidden)."""
    rows, cols = grid(n, ncols)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False, **kw)).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return list(axes[:n])


def panel_figure(n: int, width: float = 4.4, height: float = 3.1, extra: float = 1.2, **kw) -> tuple[Figure, list]:
    rows, cols = grid(n)
    fig = Figure(figsize=(width * cols + 0.6, height * rows + extra), layout="constrained")
    return fig, panels(fig, n, **kw)


def stacked_bars(ax, look: Look, parts: list[tuple[str, np.ndarray, str]], limit: float = 1.0,
                 right: Sequence[str] | None = None, short: dict[str, str] | None = None) -> None:
    """Horizontal bars, one per scenario (top to bottom), stacked from `parts` (label, shares, colour); a segment
    wide enough for it shows its share, in black or white on its colour, and the others are named with their
    share right of the bar (by their `short` name), after the row's `right` text (e.g. its number of games)."""
    n = len(look.scenarios)
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    small: list[list[str]] = [[] for _ in range(n)]
    for label, share, colour in parts:
        ax.barh(y, share, left=left, color=colour, label=label, height=0.7, edgecolor="white", linewidth=0.6)
        for i, (yi, lft, s) in enumerate(zip(y, left, share, strict=True)):
            if s >= 0.06 * limit:
                ax.text(lft + s / 2, yi, f"{100 * s:.0f}%", ha="center", va="center", fontsize=8.5,
                        color=text_on(colour))
            elif s > 0:
                small[i].append(f"{(short or {}).get(label, label)} {'<1%' if s < 0.005 else pct(s, 0)}")
        left += share
    ax.set_yticks(y, [look.label(s) for s in look.scenarios], fontsize=9)
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlim(0, limit)
    ax.xaxis.set_major_formatter(PERCENT)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    texts = ["\n".join(t for t in (first, wrap(", ".join(rest), 34)) if t)
             for first, rest in zip(right or [""] * n, small, strict=True)]
    if any(texts):
        sec = ax.secondary_yaxis("right")
        sec.set_yticks(y, texts, fontsize=8)
        sec.tick_params(length=0)


def bar_figure(n: int) -> tuple[Figure, object]:
    fig = Figure(figsize=(10.5, 1.9 + 0.5 * n), layout="constrained")
    return fig, fig.add_subplot()


def loss_causes(outcomes: pd.DataFrame, endings: Sequence[str], look: Look) -> Figure:
    """Per scenario, one bar split into the shares of win and each loss cause (the small ones named beside)."""
    fig, ax = bar_figure(len(outcomes))
    stacked_bars(ax, look, [(ending_label(e), outcomes[f"share_{e}"].to_numpy(), ending_colour(e)) for e in endings],
                 right=[f"n = {g:,}" for g in outcomes["games"]],
                 short={ending_label(e): style.ENDING_SHORT.get(e, e) for e in endings})
    ax.set_xlabel("share of games")
    fig.legend(loc="outside lower center", ncols=min(len(endings), 3), frameon=False, fontsize=9)
    return fig


def loss_stage(table: pd.DataFrame, look: Look, most: int, unit: str) -> Figure:
    """Per scenario: the share of all games won, and lost with 0, 1, ..., `most` of its `unit`s done."""
    fig, ax = bar_figure(len(look.scenarios))
    shades = matplotlib.colormaps["Purples"]
    parts, short = [], {}
    for i, stage in enumerate(stages(most)):
        share = table[table["stage"] == stage].set_index("scenario")["share_of_games"].reindex(look.scenarios)
        colour = style.OUTCOME_COLOURS["win"] if stage == "won" else matplotlib.colors.to_hex(shades(0.2 + 0.17 * i))
        label = stage if stage == "won" else f"{stage} {unit}{'s' * (stage[-1] != '1')}"
        parts.append((label, share.fillna(0).to_numpy(), colour))
        short[label] = label.removeprefix("lost with ")
    stacked_bars(ax, look, parts, short=short)
    ax.set_xlabel("share of all games")
    fig.legend(loc="outside lower center", ncols=3, frameon=False, fontsize=9)
    return fig


def _holm_mismatch(r: pd.Series) -> bool:
    """Whether a comparison's own 95% interval excludes 0 while Holm's correction leaves it not significant."""
    return (r["diff_low"] > 0 or r["diff_high"] < 0) and not bool(r["significant"])


def win_rates(rates: pd.DataFrame, look: Look, heading: str) -> Figure:
    """Win rate with 95% Wilson intervals, and the difference to each scenario's baseline (Newcombe
    intervals, Holm-corrected p-values), under `heading` (what the scenarios are compared with).

    One meaning per channel: colour is the scenario; in the differences, a filled dot is significant after
    Holm's correction and an open one is not; a baseline row has no dot (it is the reference, not a result)."""
    n = len(rates)
    fig = Figure(figsize=(12, 2.0 + 0.62 * n), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(n)[::-1]
    compared = rates[~rates["test"].isin(["baseline", "none"])]
    one_reference = compared["baseline_label"].nunique() <= 1
    rate_text, diff_text = [], []
    for yi, (_, r) in zip(y, rates.iterrows(), strict=True):
        col = look.colour(r["scenario"])
        left.errorbar(r["win_rate"], yi, xerr=_xerr(r["win_rate"], r["ci_low"], r["ci_high"]), fmt="o", color=col,
                      capsize=4, markersize=6)
        rate_text.append(f"{pct(r['win_rate'])}\n{r['wins']:,}/{r['games']:,}")
        if r["test"] in ("baseline", "none"):
            diff_text.append("baseline (the reference)" if r["test"] == "baseline" else "no like to compare with")
            continue
        sig = bool(r["significant"])
        right.errorbar(r["diff"], yi, xerr=_xerr(r["diff"], r["diff_low"], r["diff_high"]), fmt="o", color=col,
                       capsize=4, markersize=6, mfc=col if sig else "white")
        mark = " *" if sig else " \u2020" if _holm_mismatch(r) else ""
        vs = "" if one_reference else f"\nvs {r['baseline_label']}"
        diff_text.append(f"{100 * r['diff']:+.1f} pts, p (Holm) = {r['p_holm']:.2g}{mark}{vs}")
    left.set_yticks(y, [look.label(s) for s in rates["scenario"]], fontsize=9)
    left.set_ylim(-0.6, n - 0.4)
    for ax, texts in ((left, rate_text), (right, diff_text)):
        sec = ax.secondary_yaxis("right")
        sec.set_yticks(y, [wrap(t, 34) if "\n" not in t else t for t in texts], fontsize=8)
        sec.tick_params(length=0)
        ax.grid(axis="x", alpha=0.3)
    hi = float(np.nanmax(rates["ci_high"])) if n else 1.0
    left.set_xlim(0, min(1.0, hi * 1.1 + 0.01))
    left.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
    left.set_xlabel("win rate (95% Wilson interval)")
    right.axvline(0, color="black", lw=1)
    lo = np.nanmin([0.0, *rates["diff_low"].dropna()])
    up = np.nanmax([0.0, *rates["diff_high"].dropna()])
    pad = max(up - lo, 0.02) * 0.08
    right.set_xlim(lo - pad, up + pad)
    # %g keeps ticks such as +0.25 exact instead of rounding them to a misleading +0.3
    right.xaxis.set_major_formatter(lambda v, _: "0" if abs(v) < 1e-12 else f"{round(100 * v, 6):+g}")
    right.set_xlabel("difference in win rate, percentage points (95% Newcombe interval)")
    right.set_title(wrap(heading, 60), fontsize=10)
    handles = [Line2D([], [], marker="o", color="grey", ls="", label="* significant after Holm's correction"),
               Line2D([], [], marker="o", color="grey", mfc="white", ls="", label="not significant after Holm's "
                      "correction")]
    text = (f"Holm's correction accounts for the {len(compared)} comparisons shown; each interval is its "
            "comparison's own 95% interval.")
    if compared.apply(_holm_mismatch, axis=1).any():
        text += ("\n\u2020 the interval excludes 0, yet with this many comparisons a difference this size could "
                 "arise by chance: not significant after the correction.")
    note(fig, text, handles, ncols=2)
    return fig


def scenario_handles(look: Look, notes: dict[str, str] | None = None, width: int = 30) -> list[Line2D]:
    """A legend entry per scenario: its colour and line style, its label and `notes` about it (wrapped to
    `width` on lines of their own)."""
    def label(sc: str) -> str:
        extra = (notes or {}).get(sc)
        return look.label(sc, width) + (f"\n{wrap(extra, width)}" if extra else "")

    return [Line2D([], [], color=look.colour(sc), ls=look.styles[sc]["linestyle"], lw=1.8, label=label(sc))
            for sc in look.scenarios]


def scenario_curves(table: pd.DataFrame, look: Look, value: str, ylabel: str, *, column: str | None = None,
                    panels: dict[Any, str] | None = None, band: tuple[str, str] | None = None,
                    limits: tuple[float, float] | None = None, ticks: tuple[Sequence, Sequence[str]] | None = None,
                    ref: dict[str, float] | None = None, notes: dict[str, str] | None = None, text: str = "",
                    percent: bool = False, bands_up_to: int = 99) -> Figure:
    """A value against turn, a line per scenario (its colour and line style) with a light `band` (two columns),
    on one axis, or one panel per value of `column` (`panels`: value -> title; each panel gets its own scale
    from 0 when `limits` is None). `ref`: per scenario, a level drawn dotted and named 'skull'; `notes`: per
    scenario, words after its label in the legend; `text`: the note above the legend. Where the table has a
    `count`, no band is drawn before the first game counts (a band around nothing would hide the others); with
    more than `bands_up_to` scenarios, none is drawn (they would hide each other)."""
    keys = list(panels or {None: ""})
    width = {1: 7.4, 2: 5.6}.get(len(keys), 4.4)
    ncols = max(1, min(3, int((width * min(len(keys), 3) + 0.6) / 3.2)))  # legend columns that fit the figure
    lines = 1 + bool(notes)  # lines of a legend entry
    fig, axes = panel_figure(len(keys), width=width, height=3.4 if len(keys) <= 2 else 2.8,
                             extra=1.0 + 0.2 * lines * math.ceil(len(look.scenarios) / ncols), sharex=True,
                             sharey=limits is not None)
    for ax, key in zip(axes, keys, strict=True):
        part = table if key is None else table[table[column] == key]
        top = 0.0
        for sc in look.scenarios:
            c = part[part["scenario"] == sc]
            if c.empty:
                continue
            st = look.styles[sc]
            if band and len(look.scenarios) <= bands_up_to:
                counted = (c["count"] > 0).to_numpy() if "count" in c else None
                ax.fill_between(c["turn"], c[band[0]], c[band[1]], where=counted, step="post", color=st["color"],
                                alpha=0.1, lw=0)
            ax.step(c["turn"], c[value], where="post", color=st["color"], ls=st["linestyle"], lw=1.8)
            top = max(top, float(np.nanmax(c[band[1]] if band else c[value])))
        for level in sorted(set((ref or {}).values())):
            ax.axhline(level, color="black", ls=":", lw=1)
            if ticks:  # the value axis names it
                continue
            ax.annotate("skull", (1, level), xycoords=("axes fraction", "data"), xytext=(-3, -3),
                        textcoords="offset points", ha="right", va="top", fontsize=8)
        if limits:
            ax.set_ylim(*limits)
        else:
            ax.set_ylim(0, (min(1.0, top * 1.08) if percent else top * 1.08) if top > 0 else 0.05)
        if ticks:
            ax.set_yticks(*ticks)
        if percent:
            ax.yaxis.set_major_formatter(PERCENT if ax.get_ylim()[1] >= 0.1 else PercentFormatter(1.0, decimals=None))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if key is not None:
            ax.set_title(wrap(panels[key], 44), fontsize=9.5)
    label_outer(axes, "turn", ylabel)
    note(fig, text, scenario_handles(look, notes), ncols=ncols)
    return fig


def survival(incidence: pd.DataFrame, look: Look, endings: Sequence[str]) -> Figure:
    """A panel per way a game can stand after each turn (still going, won, lost by each cause), a line per
    scenario with its 95% Wilson band: which scenario ends which way, and how soon. Each panel has its own scale
    from 0, so that a rare cause is not a flat line."""
    panels = {"still going": "still going", **{e: f"ended: {ending_label(e)}" for e in endings}}
    return scenario_curves(incidence, look, "share", "share of games", column="ending", panels=panels,
                           band=("ci_low", "ci_high"), percent=True,
                           text="Each panel: the share of all games that stand this way after each turn, with 95% "
                                "Wilson bands; the panels add up to 100% at every turn. Each panel has its own scale.")


def label_outer(axes: list, xlabel: str, ylabel: str) -> None:
    """Axis labels on the outer panels of a grid: x below the lowest panel of each column, y on the left."""
    ncols = axes[0].get_subplotspec().get_gridspec().ncols
    for i, ax in enumerate(axes):
        ax.grid(alpha=0.3)
        if i + ncols >= len(axes):  # nothing below: show its turn axis
            ax.tick_params(labelbottom=True)
            ax.set_xlabel(xlabel)
        if i % ncols == 0:
            ax.set_ylabel(ylabel)


CARRIED = ("a game that has ended counts with its final value (carried forward), so every curve is over all the "
           "games of its scenario")
BANDS_UP_TO = 4  # curves by turn draw their 10-90% bands for this many scenarios at most


def _band_text(look: Look) -> str:
    return ("band: 10-90% of the games" if len(look.scenarios) <= BANDS_UP_TO else
            f"no bands with more than {BANDS_UP_TO} scenarios (the CSV has the median and 10-90% quantiles)")


def outcome_curves(curves: pd.DataFrame, outcomes: pd.DataFrame, look: Look, ylabel: str,
                   limits: tuple[float, float], ticks: tuple[Sequence, Sequence[str]] | None = None,
                   ref: dict[str, float] | None = None) -> Figure:
    """A value against turn (the water level, the storm meter): won and lost games in a panel each, a line per
    scenario (the mean) with its 10-90% band. `limits` and `ticks` of the value axis; `ref`: per scenario, a
    level drawn dotted (the skull)."""
    counts = outcomes.set_index("scenario")
    wins = counts["win"] if "win" in counts.columns else pd.Series(0, index=counts.index)
    notes = {sc: f"{int(wins[sc]):,} won, {int(counts.loc[sc, 'games'] - wins[sc]):,} lost" for sc in look.scenarios}
    panels = {o: t for o, t in (("win", "won games"), ("loss", "lost games")) if (curves["outcome"] == o).any()}
    return scenario_curves(curves, look, "mean", ylabel, column="outcome", panels=panels, band=("q10", "q90"),
                           limits=limits, ticks=ticks, ref=ref, notes=notes, bands_up_to=BANDS_UP_TO,
                           text=f"Line: mean; {_band_text(look)}; {CARRIED}.")


def series_curves(bands: pd.DataFrame, look: Look, column: str, series: Sequence[str], ylabel: str,
                  limits: tuple[float, float], notes: dict[str, str] | None = None) -> Figure:
    """Several quantities against turn (tiles dry, flooded and sunk; sand on the board and in the supply): a
    panel per value of `column` (named in `series`), a line per scenario (the mean) with its 10-90% band;
    `notes`: per scenario, words after its label in the legend."""
    return scenario_curves(bands, look, "mean", ylabel, column=column, panels={s: s for s in series},
                           band=("q10", "q90"), limits=limits, notes=notes, bands_up_to=BANDS_UP_TO,
                           text=f"Line: mean; {_band_text(look)}; {CARRIED}.")


def timing(summary: pd.DataFrame, look: Look, column: str, items: dict[str, str], done: str, xlabel: str,
           text: str) -> Figure:
    """Per item (a treasure, a part; its panel titled by `items`) and scenario: the turn it is `done`
    (median, 10-90%) and the share of games it is; `text` explains the marks."""
    n = len(look.scenarios)
    fig = Figure(figsize=(12.5, 1.6 + 0.42 * n), layout="constrained")
    axes = fig.subplots(1, len(items), sharey=True, sharex=True)
    y = np.arange(n)[::-1]
    for ax, (item, title) in zip(axes, items.items(), strict=True):
        s = summary[summary[column] == item].set_index("scenario").reindex(look.scenarios)
        for yi, sc in zip(y, look.scenarios, strict=True):
            r = s.loc[sc]
            if r["median_turn"] == r["median_turn"]:
                ax.hlines(yi, r["q10_turn"], r["q90_turn"], color=look.colour(sc), lw=1.5)
                ax.plot(r["median_turn"], yi, look.styles[sc]["marker"], color=look.colour(sc), markersize=6)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", alpha=0.3)
        sec = ax.secondary_yaxis("right")
        sec.set_yticks(y, ["<1%" if 0 < v < 0.005 else pct(v, 0) for v in s[f"share_{done}"]], fontsize=8)
        sec.tick_params(length=0)
    axes[0].set_yticks(y, [look.label(sc, 28) for sc in look.scenarios], fontsize=9)
    axes[0].set_ylim(-0.6, n - 0.4)
    axes[0].set_xlim(left=0)
    note(fig, text)
    return fig
