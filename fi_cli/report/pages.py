"""summary.md and index.html: one page with every figure and table, no scripts, no network.

index.html is self-contained: the figures are inlined as PNG data URIs, so the one file can be mailed or
opened anywhere. The PNG, SVG and CSV files are written beside it as well (summary.md links to them).
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .style import pct
from .tables import to_markdown

if TYPE_CHECKING:
    from .build import Report

_CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 1180px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.88em; margin: 0.6em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.5em; text-align: right; vertical-align: top; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; max-width: 22em; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.92em; color: #333; max-width: 60em; }
.warn { background: #fff4e0; border-left: 4px solid #8a5300; padding: 0.5em 1em; }
.partial { background: #fde8e8; border-left: 6px solid #a0001e; color: #6b0014; padding: 0.6em 1em;
           font-weight: bold; }
.meta { color: #444; font-size: 0.92em; }
nav a { margin-right: 1em; }
"""

_TABLE_NOTES = {
    "outcomes": "games, count and share of each ending, median turns, mean treasures and final water level",
    "win_rates": "win rate, Wilson interval, the baseline compared with, difference, test and Holm p-value",
    "loss_stage": "games won and lost with 0-4 treasures captured, as shares of all games and of losses",
    "survival": "share still going and cumulative share per ending, per scenario and turn, with Wilson bands",
    "island_left": "median and 10/90% quantiles of the tiles dry, flooded and sunk, per scenario and turn",
    "water_levels": "median and 10/90% quantiles of the water level per scenario, outcome and turn",
    "water_level_reached": "turn each water level is first reached (quantiles) and share of games reaching it",
    "water_at_loss": "lost games by loss cause and water level at the loss",
    "tile_risk_cells": "per layout cell: hazard per turn on the island, Kaplan-Meier median turn, share sunk",
    "tile_risk_tiles": "per tile: share of games it sank (Wilson interval) and the median turn it sank",
    "loss_cells": "per layout cell: lost games whose loss involved its tile, and games a pawn drowned there",
    "lost_treasures": "games lost because both tiles of each treasure sank",
    "treasure_captures": "per treasure: share of games captured (all, won, lost) and capture turn quantiles",
    "summary": "the summary table",
}


def method_notes(report: Report) -> list[str]:
    """How every number is made, in a few sentences (the same on both pages)."""
    return [
        "Completeness: the report reads exactly the chunks of games the run's manifest records as played, "
        "after checking that each chunk's games, turns and tiles files are there, can be read and hold the "
        "same games (`fi check` makes the same check).",
        "Win rates: the share of games won, with a 95% Wilson score interval.",
        f"Comparisons, like with like: {report.pairing.description}. The difference in win rate is in "
        "percentage points with a 95% Newcombe (hybrid score) interval; its p-value comes from a two-sided "
        "two-proportion z-test, or Fisher's exact test when an expected count is below 5; the p-values are "
        "Holm-corrected over all the comparisons of the report, and * marks those below 5% after correction.",
        "Survival: every game is followed to its end, so the share still going and the cumulative share "
        "ended by each cause are plain shares, with a 95% Wilson band at each turn.",
        "Bands by turn (island left, water level): median and 10-90% quantiles over the games still being "
        "played; a curve stops when fewer than 5 games, or 2% of the scenario's games, are left.",
        "Risk map: a tile's hazard is its sinkings divided by the turns it was on the island (a tile that "
        "sank on turn t counts t turns, one that never sank all the turns of its game); the Kaplan-Meier "
        "median is the turn by which half of the tiles on the cell sink, games that end first counting as "
        "censored. Neither grows because games last longer, unlike the share of games a tile sank in.",
        "Loss map: a lost game involves the two tiles of the treasure lost, Fools' Landing when it sank, and "
        "the tile a pawn drowned on (from games.lost_treasure, loss_causes and drowned_tile).",
    ]


def _runs_table(report: Report) -> pd.DataFrame:
    rows = []
    for run in report.data.runs:
        m = run.manifest
        n = int((report.data.games["run"] == run.name).sum())
        rows.append({"run": run.name, "study": m.get("name", ""), "games": f"{n:,} of {run.games_expected:,}",
                     "rules version": run.rules_version, "fi version": m.get("package_version", ""),
                     "root seed": m.get("root_seed", ""), "study hash": str(m.get("study_hash", ""))[:12]})
    return pd.DataFrame(rows)


def _title(report: Report) -> str:
    return "Forbidden Island report: " + " + ".join(r.manifest.get("name", r.name) for r in report.data.runs)


def _legend(report: Report) -> str:
    return ("Win rates with 95% Wilson intervals; differences to the baseline in percentage points with 95% "
            "Newcombe intervals; p-values Holm-corrected, * = significant at 5%. turns: median game length; "
            "treasures: mean treasures captured per game; water at end: mean final water level.")


def write_markdown(report: Report) -> Path:
    """summary.md: the summary and run tables, warnings, the figures as image links, the method notes."""
    lines = [f"# {_title(report)}", ""]
    if report.data.partial:
        lines += [f"**{report.data.partial_note}** (the run is incomplete or damaged; see the warnings)", ""]
    lines += [f"> **Warning:** {w}" for w in report.warnings]
    if report.warnings:
        lines.append("")
    lines += ["## Runs", "", to_markdown(_runs_table(report)), "",
              "## Summary", "", f"Compared: {report.pairing.description}.", "", to_markdown(report.summary), "",
              _legend(report), ""]
    for f in report.figures:
        lines += [f"## {f.title}", "", f"![{f.title}]({f.name}.png)", "", f.caption, ""]
    lines += ["## Method notes", "", *[f"- {n}" for n in method_notes(report)], "", "## Tables (CSV)", ""]
    lines += [f"- [{name}.csv]({name}.csv): {_TABLE_NOTES.get(name, '')}" for name in [*report.tables, "summary"]]
    path = report.out_dir / "summary.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _html_table(df: pd.DataFrame) -> str:
    return "<div class='scroll'>" + df.to_html(index=False, border=0, escape=True, na_rep="–") + "</div>"


def _outcomes_view(report: Report) -> pd.DataFrame:
    """The outcomes as a table that fits a page: one column per ending, 'count (share)'."""
    oc = report.tables["outcomes"]
    endings = [c.removeprefix("share_") for c in oc.columns if c.startswith("share_")]
    out = pd.DataFrame({"scenario": oc["label"], "games": oc["games"].map("{:,}".format)})
    for e in endings:
        out[e.replace("_", " ")] = [f"{n:,} ({pct(s)})" for n, s in zip(oc[e], oc[f"share_{e}"], strict=True)]
    return out


def _rates_view(report: Report) -> pd.DataFrame:
    wr = report.tables["win_rates"]
    return pd.DataFrame({
        "scenario": wr["label"], "games": wr["games"], "wins": wr["wins"], "win rate": wr["win_rate"].map(pct),
        "95% CI": [f"{pct(lo)}–{pct(hi)}" for lo, hi in zip(wr["ci_low"], wr["ci_high"], strict=True)],
        "compared with": wr["baseline_label"], "test": wr["test"],
        "p": wr["p_value"].map(lambda p: f"{p:.2g}" if p == p else ""),
        "p (Holm)": wr["p_holm"].map(lambda p: f"{p:.2g}" if p == p else ""),
    })


def write_html(report: Report) -> Path:
    """index.html: everything on one self-contained page (figures inlined as PNG data URIs)."""
    e = html.escape
    title = _title(report)
    parts = [f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{e(title)}</title>",
             "<meta name='viewport' content='width=device-width, initial-scale=1'>",
             f"<style>{_CSS}</style></head><body>", f"<h1>{e(title)}</h1>"]
    if report.data.partial:
        parts.append(f"<p class='partial'>{e(report.data.partial_note)}: the run is incomplete or damaged, and "
                     "every figure and table below shows only the games that are sound (see the warnings).</p>")
    nav = ["<a href='#summary'>Summary</a>"] + [f"<a href='#{f.name}'>{e(f.title)}</a>" for f in report.figures]
    parts.append("<nav>" + " ".join(nav) + " <a href='#method'>Method</a> <a href='#tables'>Tables</a></nav>")
    parts += [f"<p class='warn'><b>Warning:</b> {e(w)}</p>" for w in report.warnings]
    parts += ["<h2 id='runs'>Runs</h2>", _html_table(_runs_table(report))]
    parts += ["<h2 id='summary'>Summary</h2>", f"<p class='meta'>Compared: {e(report.pairing.description)}.</p>",
              _html_table(report.summary), f"<p class='meta'>{e(_legend(report))}</p>"]
    for f in report.figures:
        png = base64.b64encode((report.out_dir / f"{f.name}.png").read_bytes()).decode("ascii")
        parts += [f"<h2 id='{f.name}'>{e(f.title)}</h2>", "<figure>",
                  f"<img src='data:image/png;base64,{png}' alt='{e(f.title)}'>",
                  f"<figcaption>{e(f.caption)}</figcaption>", "</figure>"]
    parts += ["<h2 id='method'>Method notes</h2><ul>", *[f"<li>{e(n)}</li>" for n in method_notes(report)], "</ul>"]
    formats = " and ".join(f.upper() for f in report.formats)
    parts.append(f"<h2 id='tables'>Tables</h2><p class='meta'>Written beside this page, with every figure as "
                 f"{e(formats)}:</p><ul>")
    parts += [f"<li><code>{name}.csv</code>: {e(_TABLE_NOTES.get(name, ''))}</li>"
              for name in [*report.tables, "summary"]]
    parts += ["</ul>", "<h3>Win rates</h3>", _html_table(_rates_view(report)),
              "<h3>Outcomes</h3>", _html_table(_outcomes_view(report)), "</body></html>"]
    path = report.out_dir / "index.html"
    path.write_text("\n".join(parts) + "\n")
    return path
