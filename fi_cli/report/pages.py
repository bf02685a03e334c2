"""summary.md and index.html: one page with every figure and table, no scripts, no network.

Figures are linked as relative files next to the page, so the directory opens offline and can be copied.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .tables import to_markdown

if TYPE_CHECKING:
    from .build import Report

_CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 1180px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.6em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.92em; color: #444; max-width: 60em; }
.warn { background: #fff4e0; border-left: 4px solid #E69F00; padding: 0.5em 1em; }
.meta { color: #555; font-size: 0.92em; }
nav a { margin-right: 1em; }
"""

_TABLE_NOTES = {
    "outcomes": "games, count and share of each ending per scenario",
    "win_rates": "win rate, Wilson interval, difference to the baseline, test and Holm-corrected p-value",
    "water_levels": "median and 10/90% quantiles of the water level per scenario, outcome and turn",
    "water_level_reached": "turn each water level is first reached (quantiles) and share of games reaching it",
    "survival": "share still going and cumulative share per ending, per scenario and turn, with Wilson bands",
    "tile_risk_cells": "per layout cell: share of games its tile sank and the median turn it sank",
    "tile_risk_tiles": "per tile: share of games it sank (Wilson interval) and the median turn it sank",
    "treasure_captures": "per treasure: share of games captured (all, won, lost) and capture turn quantiles",
    "treasures_in_losses": "lost games by number of treasures captured",
    "summary": "the summary table above",
}


def _runs_table(report: Report) -> pd.DataFrame:
    rows = []
    for run in report.data.runs:
        m = run.manifest
        n = int((report.data.games["run"] == run.name).sum())
        rows.append({"run": run.name, "study": m.get("name", ""), "games": f"{n:,}",
                     "rules version": run.rules_version, "fi version": m.get("package_version", ""),
                     "root seed": m.get("root_seed", ""), "study hash": str(m.get("study_hash", ""))[:12]})
    return pd.DataFrame(rows)


def _title(report: Report) -> str:
    return "Forbidden Island report: " + " + ".join(r.manifest.get("name", r.name) for r in report.data.runs)


def write_markdown(report: Report) -> Path:
    """summary.md: the summary and run tables, warnings, and the figures as image links."""
    lines = [f"# {_title(report)}", ""]
    for w in report.warnings:
        lines.append(f"> **Warning:** {w}")
    if report.warnings:
        lines.append("")
    lines += ["## Runs", "", to_markdown(_runs_table(report)), "",
              f"## Summary (baseline: `{report.baseline}`)", "", to_markdown(report.summary), "",
              "Win rates with 95% Wilson intervals; differences to the baseline in percentage points with 95% "
              "Newcombe intervals; p-values Holm-corrected, * = significant at 5%. turns: median game length; "
              "treasures: mean treasures captured per game.", ""]
    for f in report.figures:
        lines += [f"## {f.title}", "", f"![{f.title}]({f.name}.png)", "", f.caption, ""]
    lines += ["## Tables (CSV)", ""]
    lines += [f"- [{name}.csv]({name}.csv): {_TABLE_NOTES.get(name, '')}" for name in [*report.tables, "summary"]]
    path = report.out_dir / "summary.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _html_table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, border=0, escape=True, na_rep="–")


def write_html(report: Report) -> Path:
    """index.html: everything on one page; images and CSV files are relative links."""
    e = html.escape
    title = _title(report)
    parts = [f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{e(title)}</title>",
             "<meta name='viewport' content='width=device-width, initial-scale=1'>",
             f"<style>{_CSS}</style></head><body>", f"<h1>{e(title)}</h1>"]
    nav = ["<a href='#summary'>Summary</a>"] + [f"<a href='#{f.name}'>{e(f.title)}</a>" for f in report.figures]
    parts.append("<nav>" + " ".join(nav) + " <a href='#tables'>Tables</a></nav>")
    for w in report.warnings:
        parts.append(f"<p class='warn'><b>Warning:</b> {e(w)}</p>")
    parts += ["<h2 id='runs'>Runs</h2>", _html_table(_runs_table(report))]
    parts += [f"<h2 id='summary'>Summary <span class='meta'>(baseline: {e(report.baseline)})</span></h2>",
              _html_table(report.summary),
              "<p class='meta'>Win rates with 95% Wilson intervals; differences to the baseline in percentage "
              "points with 95% Newcombe intervals; p-values Holm-corrected, * = significant at 5%. turns: median "
              "game length; treasures: mean treasures captured per game.</p>"]
    svg = "svg" in report.formats
    for f in report.figures:
        img = f"<img src='{f.name}.png' alt='{e(f.title)}'>"
        parts += [f"<h2 id='{f.name}'>{e(f.title)}</h2>", "<figure>",
                  f"<a href='{f.name}.svg'>{img}</a>" if svg else img,
                  f"<figcaption>{e(f.caption)}" + (f" <a href='{f.name}.svg'>SVG</a>" if svg else "")
                  + "</figcaption>", "</figure>"]
    parts.append("<h2 id='tables'>Tables</h2><ul>")
    for name in [*report.tables, "summary"]:
        parts.append(f"<li><a href='{name}.csv'>{name}.csv</a>: {e(_TABLE_NOTES.get(name, ''))}</li>")
    parts.append("</ul>")
    wr = report.tables["win_rates"].copy()
    parts += ["<h3>Win rates</h3>", _html_table(wr.round(4))]
    oc = report.tables["outcomes"].copy()
    parts += ["<h3>Outcomes</h3>", _html_table(oc.round(4))]
    parts.append("</body></html>")
    path = report.out_dir / "index.html"
    path.write_text("\n".join(parts) + "\n")
    return path
