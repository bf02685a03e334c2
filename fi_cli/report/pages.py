"""summary.md and index.html: one page with every figure and table, no scripts, no network.

index.html is self-contained: the figures are inlined as PNG data URIs, so the one file can be mailed or
opened anywhere. The PNG, SVG and CSV files are written beside it as well (summary.md links to them). A report
of both games gives each its own section, headed by the game.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

import pandas as pd

from .figures import FigureInfo
from .games import section
from .sections import Part, Report, Section
from .style import pct
from .tables import to_markdown

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

_TABLE_NOTES = {  # the tables of every section; each game's own are in its section module
    "win_rates": "win rate, Wilson interval, the baseline compared with, difference, test and Holm p-value",
    "survival": "share still going and cumulative share per ending, per scenario and turn, with Wilson bands",
    "summary": "the summary table",
    "sensitivity": "per lever and step (down, up): its value and the base's, win rate and Wilson interval, paired "
                   "difference with the base (Newcombe interval, McNemar p, Holm p), median and mean game length "
                   "against the base (paired t interval, Holm p), the lever's rank",
}


def _table_note(sec: Section, name: str) -> str:
    return section(sec.game).TABLE_NOTES.get(name) or _TABLE_NOTES.get(name, "")


def method_notes(report: Report) -> list[str]:
    """How every number is made, in a few sentences (the same on both pages)."""
    compared = "; ".join((f"{s.title}: " if report.mixed else "") + s.pairing.description for s in report.sections)
    own = [(f"{s.title}: " if report.mixed else "") + n for s in report.sections
           for n in [*section(s.game).METHOD_NOTES, *(part.method for part in s.parts)]]
    return [
        "Completeness: the report reads exactly the chunks of games the run's manifest records as played, "
        "after checking that each chunk's games, turns and tiles files are there, can be read and hold the "
        "same games (`fi check` makes the same check).",
        "Win rates: the share of games won, with a 95% Wilson score interval.",
        f"Comparisons, like with like: {compared}. The difference in win rate is in "
        "percentage points with a 95% Newcombe (hybrid score) interval; its p-value comes from a two-sided "
        "two-proportion z-test, or Fisher's exact test when an expected count is below 5; the p-values are "
        "Holm-corrected over all the comparisons of the report, and * marks those below 5% after correction.",
        "Survival: every game is followed to its end, so the share still going and the cumulative share "
        "ended by each cause are plain shares, with a 95% Wilson band at each turn.",
        *own,
    ]


def _runs_table(sec: Section) -> pd.DataFrame:
    rows = []
    for run in sec.data.runs:
        m = run.manifest
        n = int((sec.data.games["run"] == run.name).sum())
        rows.append({"run": run.name, "study": m.get("name", ""), "games": f"{n:,} of {run.games_expected:,}",
                     "rules version": run.rules_version, "fi version": m.get("package_version", ""),
                     "root seed": m.get("root_seed", ""), "study hash": str(m.get("study_hash", ""))[:12]})
    return pd.DataFrame(rows)


def _title(report: Report) -> str:
    names = " + ".join(r.manifest.get("name", r.name) for s in report.sections for r in s.data.runs)
    return " and ".join(s.title for s in report.sections) + f" report: {names}"


def legend(sec: Section) -> str:
    """What the summary table's numbers are."""
    return ("Win rates with 95% Wilson intervals; differences to the baseline in percentage points with 95% "
            "Newcombe intervals; p-values Holm-corrected, * = significant at 5%. Each interval is its comparison's "
            "own: one that excludes 0 without * is a difference that, with this many comparisons, chance alone "
            "could make (Holm's correction). turns: median game length; "
            + section(sec.game).MEANS_LEGEND)


def _partial(report: Report) -> str:
    return "; ".join((f"{s.title}: " if report.mixed else "") + s.data.partial_note
                     for s in report.sections if s.data.partial)


def write_markdown(report: Report) -> Path:
    """summary.md: the summary and run tables, warnings, the figures as image links, the method notes."""
    lines = [f"# {_title(report)}", ""]
    if _partial(report):
        lines += [f"**{_partial(report)}** (the run is incomplete or damaged; see the warnings)", ""]
    lines += [f"> **Warning:** {w}" for w in report.warnings]
    if report.warnings:
        lines.append("")
    h = "###" if report.mixed else "##"
    for sec in report.sections:
        if report.mixed:
            lines += [f"## {sec.title}", ""]
        lines += [f"{h} Runs", "", to_markdown(_runs_table(sec)), "",
                  f"{h} Summary", "", f"Compared: {sec.pairing.description}.", "", to_markdown(sec.summary), "",
                  legend(sec), ""]
        for f in sec.figures:
            lines += [f"{h} {f.title}", "", f"![{f.title}]({sec.prefix}{f.name}.png)", "", f.caption, ""]
        for part in sec.parts:
            lines += _part_markdown(sec, part, h)
    lines += ["## Method notes", "", *[f"- {n}" for n in method_notes(report)], "", "## Tables (CSV)", ""]
    lines += [f"- [{s.prefix}{name}.csv]({s.prefix}{name}.csv): {_table_note(s, name)}"
              for s in report.sections for name in [*s.tables, "summary"]]
    path = report.out_dir / "summary.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _html_table(df: pd.DataFrame) -> str:
    return "<div class='scroll'>" + df.to_html(index=False, border=0, escape=True, na_rep="–") + "</div>"


def _outcomes_view(sec: Section) -> pd.DataFrame:
    """The outcomes as a table that fits a page: one column per ending, 'count (share)'."""
    oc = sec.tables["outcomes"]
    endings = [c.removeprefix("share_") for c in oc.columns if c.startswith("share_")]
    out = pd.DataFrame({"scenario": oc["label"], "games": oc["games"].map("{:,}".format)})
    for e in endings:
        out[e.replace("_", " ")] = [f"{n:,} ({pct(s)})" for n, s in zip(oc[e], oc[f"share_{e}"], strict=True)]
    return out


def _rates_view(sec: Section) -> pd.DataFrame:
    wr = sec.tables["win_rates"]
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
    if _partial(report):
        parts.append(f"<p class='partial'>{e(_partial(report))}: the run is incomplete or damaged, and "
                     "every figure and table below shows only the games that are sound (see the warnings).</p>")
    h = "h3" if report.mixed else "h2"
    nav = []
    for sec in report.sections:
        if report.mixed:
            nav.append(f"<a href='#{sec.game}'><b>{e(sec.title)}</b></a>")
        nav += [f"<a href='#{sec.prefix}summary'>Summary</a>"]
        nav += [f"<a href='#{sec.prefix}{f.name}'>{e(f.title)}</a>" for f in sec.figures]
        nav += [f"<a href='#{sec.prefix}{part.anchor}'>{e(part.title.split(':')[0])}</a>" for part in sec.parts]
    parts.append("<nav>" + " ".join(nav) + " <a href='#method'>Method</a> <a href='#tables'>Tables</a></nav>")
    parts += [f"<p class='warn'><b>Warning:</b> {e(w)}</p>" for w in report.warnings]
    for sec in report.sections:
        if report.mixed:
            parts.append(f"<h2 id='{sec.game}' class='game'>{e(sec.title)}</h2>")
        parts += [f"<{h} id='{sec.prefix}runs'>Runs</{h}>", _html_table(_runs_table(sec))]
        parts += [f"<{h} id='{sec.prefix}summary'>Summary</{h}>",
                  f"<p class='meta'>Compared: {e(sec.pairing.description)}.</p>",
                  _html_table(sec.summary), f"<p class='meta'>{e(legend(sec))}</p>"]
        for f in sec.figures:
            parts += _figure_html(report, sec, f, h)
        for part in sec.parts:
            parts += _part_html(report, sec, part, h)
    parts += ["<h2 id='method'>Method notes</h2><ul>", *[f"<li>{e(n)}</li>" for n in method_notes(report)], "</ul>"]
    formats = " and ".join(f.upper() for f in report.formats)
    parts.append(f"<h2 id='tables'>Tables</h2><p class='meta'>Written beside this page, with every figure as "
                 f"{e(formats)}:</p><ul>")
    parts += [f"<li><code>{s.prefix}{name}.csv</code>: {e(_table_note(s, name))}</li>"
              for s in report.sections for name in [*s.tables, "summary"]]
    parts.append("</ul>")
    for sec in report.sections:
        game = f" ({sec.title})" if report.mixed else ""
        parts += [f"<h3>Win rates{e(game)}</h3>", _html_table(_rates_view(sec)),
                  f"<h3>Outcomes{e(game)}</h3>", _html_table(_outcomes_view(sec))]
    parts.append("</body></html>")
    path = report.out_dir / "index.html"
    path.write_text("\n".join(parts) + "\n")
    return path


def _figure_html(report: Report, sec: Section, f: FigureInfo, h: str) -> list[str]:
    e = html.escape
    png = base64.b64encode((report.out_dir / f"{sec.prefix}{f.name}.png").read_bytes()).decode("ascii")
    return [f"<{h} id='{sec.prefix}{f.name}'>{e(f.title)}</{h}>", "<figure>",
            f"<img src='data:image/png;base64,{png}' alt='{e(f.title)}'>",
            f"<figcaption>{e(f.caption)}</figcaption>", "</figure>"]


def _part_html(report: Report, sec: Section, part: Part, h: str) -> list[str]:
    """A part of a section: headed at level `h`, its figures and tables one level below."""
    e = html.escape
    sub = f"h{int(h[1]) + 1}"
    out = [f"<{h} id='{sec.prefix}{part.anchor}'>{e(part.title)}</{h}>", f"<p>{e(part.intro)}</p>",
           "<ul>", *[f"<li>{e(s)}</li>" for s in part.points], "</ul>"]
    for block in part.blocks:
        if isinstance(block, FigureInfo):
            out += _figure_html(report, sec, block, sub)
        else:
            out += [f"<{sub} id='{sec.prefix}{block.anchor}'>{e(block.heading)}</{sub}>", _html_table(block.frame)]
            out += [f"<p class='meta'>{e(block.note)}</p>"] if block.note else []
    return out


def _part_markdown(sec: Section, part: Part, h: str) -> list[str]:
    lines = [f"{h} {part.title}", "", part.intro, "", *[f"- {s}" for s in part.points], ""]
    for block in part.blocks:
        if isinstance(block, FigureInfo):
            lines += [f"{h}# {block.title}", "", f"![{block.title}]({sec.prefix}{block.name}.png)", "", block.caption,
                      ""]
        else:
            lines += [f"{h}# {block.heading}", "", to_markdown(block.frame), ""]
    return lines
