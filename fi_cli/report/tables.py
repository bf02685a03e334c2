"""The compact summary table (terminal, summary.md, top of index.html) and plain-text rendering."""

from __future__ import annotations

import pandas as pd

from .style import ENDING_SHORT, pct


def summary_table(outcomes: pd.DataFrame, rates: pd.DataFrame, endings: list[str]) -> pd.DataFrame:
    """One row per scenario: games, win rate with interval, difference to the baseline, main loss cause,
    median game length in turns and mean treasures captured per game."""
    causes = [e for e in endings if e != "win"]
    rows = []
    for (_, o), (_, r) in zip(outcomes.iterrows(), rates.iterrows(), strict=True):
        if causes and o[causes].sum() > 0:
            top = max(causes, key=lambda c: o[c])
            main = f"{ENDING_SHORT.get(top, top)} {pct(o[f'share_{top}'], 0)}"
        else:
            main = "–"
        if r["test"] == "baseline":
            diff, p = "baseline", ""
        else:
            diff = f"{100 * r['diff']:+.1f} [{100 * r['diff_low']:+.1f}, {100 * r['diff_high']:+.1f}]"
            p = f"{r['p_holm']:.2g}" + (" *" if r["significant"] else "")
        rows.append({
            "scenario": o["scenario"],
            "games": f"{int(o['games']):,}",
            "win rate [95% CI]": f"{pct(r['win_rate'])} [{pct(r['ci_low'])}, {pct(r['ci_high'])}]",
            "vs baseline, pts": diff,
            "p (Holm)": p,
            "main loss cause": main,
            "turns": f"{o['median_turns']:.0f}",
            "treasures": f"{o['mean_treasures']:.2f}",
        })
    return pd.DataFrame(rows)


def to_text(df: pd.DataFrame) -> str:
    """A plain aligned text table (no extra dependency; readable in any terminal and in logs)."""
    cols = list(df.columns)
    cells = [[str(v) for v in df[c]] for c in cols]
    widths = [max([len(c), *map(len, col)]) for c, col in zip(cols, cells, strict=True)]
    numeric = [c in ("games", "turns", "treasures") for c in cols]

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
