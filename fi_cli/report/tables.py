"""The compact summary table (terminal, summary.md, top of index.html) and plain-text rendering."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from .style import ENDING_SHORT, pct

# columns right-aligned in text: counts and the means of either game's summary
NUMERIC = ("games", "turns", "treasures", "water at end", "parts", "storm at end")


def _main_cause(o: pd.Series, causes: list[str]) -> str:
    """The most common loss cause of an outcomes row, with its share of all games."""
    if not causes or o[causes].sum() == 0:
        return "–"
    top = max(causes, key=lambda c: o[c])
    return f"{ENDING_SHORT.get(top, top)} {pct(o[f'share_{top}'], 0)}"


def _win_rate(r: pd.Series) -> str:
    return f"{pct(r['win_rate'])} [{pct(r['ci_low'])}, {pct(r['ci_high'])}]"


def summary_table(outcomes: pd.DataFrame, rates: pd.DataFrame, endings: list[str],
                  means: Sequence[tuple[str, str]] = ()) -> pd.DataFrame:
    """One row per scenario (by label): games, win rate with interval, the baseline it is compared with
    and the difference, main loss cause, median game length in turns, and the game's means: (column of the
    outcomes, header) pairs, e.g. the island's treasures captured and water level at the end."""
    causes = [e for e in endings if e != "win"]
    rows = []
    for (_, o), (_, r) in zip(outcomes.iterrows(), rates.iterrows(), strict=True):
        if r["test"] in ("baseline", "none"):
            diff, p = ("baseline" if r["test"] == "baseline" else "–"), ""
        else:
            diff = f"{100 * r['diff']:+.1f} [{100 * r['diff_low']:+.1f}, {100 * r['diff_high']:+.1f}]"
            p = f"{r['p_holm']:.2g}" + (" *" if r["significant"] else "")
        rows.append({
            "scenario": o["label"],
            "games": f"{int(o['games']):,}",
            "win rate [95% CI]": _win_rate(r),
            "compared with": "" if r["test"] == "baseline" else r["baseline_label"] or "–",
            "vs baseline, pts": diff,
            "p (Holm)": p,
            "main loss cause": _main_cause(o, causes),
            "turns": f"{o['median_turns']:.0f}",
            **{header: f"{o[column]:.2f}" for column, header in means},
        })
    return pd.DataFrame(rows)


def brief_table(outcomes: pd.DataFrame, rates: pd.DataFrame, endings: list[str]) -> pd.DataFrame:
    """The short table `fi simulate` ends with: games, win rate, main loss cause, median turns."""
    causes = [e for e in endings if e != "win"]
    return pd.DataFrame([{
        "scenario": o["label"],
        "games": f"{int(o['games']):,}",
        "win rate [95% CI]": _win_rate(r),
        "main loss cause": _main_cause(o, causes),
        "turns": f"{o['median_turns']:.0f}",
    } for (_, o), (_, r) in zip(outcomes.iterrows(), rates.iterrows(), strict=True)])


def run_summary(run_dir: Path) -> str:
    """The table `fi simulate` ends with, as text: per scenario, games, win rate with its 95% interval, the
    most common loss cause and the median number of turns (read from the games files only)."""
    from . import ladder, stats
    from .games import section
    from .load import load_runs

    data = load_runs([run_dir], datasets=("games",))
    endings = section(data.game).ENDINGS
    outcomes = stats.outcome_table(data.games, data.scenarios, endings).assign(
        label=lambda o: o["scenario"].map(data.labels))
    rates = stats.win_rates(data.games, data.scenarios, data.scenarios[0])
    text = to_text(brief_table(outcomes, rates, stats.endings_in(data.games, endings)))
    if ladder.applies(data):
        side = ladder_table(ladder.compute(data)["ladder"])
        text += "\n\nThe players side by side, on the same deals:\n" + to_text(side)
    return text


def ladder_table(rungs: pd.DataFrame) -> pd.DataFrame:
    """A row per deal scenario, a column per player (win rate and 95% interval); an unfair one says so."""
    from .ladder import rate_texts

    unfair = [r if fair else f"{r} (unfair)" for r, fair in zip(rungs["rung"], rungs["fair"], strict=True)]
    cell = rungs.assign(rate=rate_texts(rungs), rung=unfair)
    wide = cell.pivot(index="deal", columns="rung", values="rate")
    wide = wide.reindex(index=list(dict.fromkeys(cell["deal"])), columns=list(dict.fromkeys(cell["rung"])))
    return wide.fillna("").reset_index().rename(columns={"deal": "scenario"})


def to_text(df: pd.DataFrame) -> str:
    """A plain aligned text table (no extra dependency; readable in any terminal and in logs)."""
    cols = list(df.columns)
    cells = [[str(v) for v in df[c]] for c in cols]
    widths = [max([len(c), *map(len, col)]) for c, col in zip(cols, cells, strict=True)]
    numeric = [c in NUMERIC for c in cols]

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w)
                         for v, w, num in zip(values, widths, numeric, strict=True)).rstrip()

    out = [line(cols), "  ".join("-" * w for w in widths)]
    out += [line([col[i] for col in cells]) for i in range(len(df))]
    return "\n".join(out)


def to_markdown(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (pandas' to_markdown would need the tabulate package)."""
    def esc(v: object) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(map(esc, df.columns)) + " |"
    align = "|" + "|".join("---:" if pd.api.types.is_numeric_dtype(df[c]) else "---" for c in df.columns) + "|"
    body = ["| " + " | ".join(esc(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, align, *body])
