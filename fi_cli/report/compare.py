"""Two players on the same deals (``sim.compare`` plays them): which wins more, and is the difference real?

The comparison is paired: the games won by one player only decide it (the exact McNemar test: a binomial test of
those games at one half). Also each player's win rate with its 95% Wilson interval and its seconds per game (CPU
time, a user's player's own process included); a table for the terminal and a figure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fi_cli.sim.compare import Deal, Played, Player, play_both

from .stats import wilson
from .style import SCENARIO_PALETTE


@dataclass
class Row:
    """The paired results of one scenario (or of all: ``scenario`` "all")."""

    scenario: str
    label: str
    games: int
    wins_a: int
    wins_b: int
    only_a: int  # games A won and B lost
    only_b: int
    seconds_a: float  # CPU per game
    seconds_b: float

    @property
    def rate_a(self) -> float:
        return self.wins_a / self.games

    @property
    def rate_b(self) -> float:
        return self.wins_b / self.games

    def interval(self, wins: int) -> tuple[float, float]:
        lo, hi = wilson(wins, self.games)
        return float(lo), float(hi)

    @property
    def p_value(self) -> float:
        """Exact two-sided McNemar p: the games won by one player only, against an even split."""
        from scipy.stats import binomtest

        n = self.only_a + self.only_b
        return float(binomtest(self.only_b, n, 0.5).pvalue) if n else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rate_a": self.rate_a, "rate_b": self.rate_b, "interval_a": self.interval(self.wins_a),
                "interval_b": self.interval(self.wins_b), "mcnemar_p": self.p_value}


@dataclass
class Comparison:
    a: Player
    b: Player
    rows: list[Row]  # one per scenario, then "all" when there are several
    games: list[dict[str, Any]]  # per deal: scenario, game, seed, win_a, win_b

    def to_dict(self) -> dict[str, Any]:
        return {"a": asdict(self.a) | {"label": self.a.label}, "b": asdict(self.b) | {"label": self.b.label},
                "rows": [r.to_dict() for r in self.rows]}


def compare(a: Player, b: Player, deals: Sequence[Deal], labels: dict[str, str] | None = None,
            workers: int | None = None, progress: Callable[[int], None] | None = None) -> Comparison:
    """Both players on every deal; a row per scenario (named by ``labels``), and one for all of them.

    Raises PlayerError when a user's player fails (what was played is lost: a comparison is all or nothing)."""
    return paired(a, b, deals, *play_both(a, b, deals, workers, progress), labels)


def paired(a: Player, b: Player, deals: Sequence[Deal], played_a: Played, played_b: Played,
           labels: dict[str, str] | None = None) -> Comparison:
    """The comparison of two players' results on the same deals: (wins by deal, CPU seconds in all) each."""
    (won_a, cpu_a), (won_b, cpu_b) = played_a, played_b
    games = [{"scenario": d.scenario.id, "game": d.game, "seed": d.seed, "win_a": x, "win_b": y}
             for d, x, y in zip(deals, won_a, won_b, strict=True)]
    scenarios = list(dict.fromkeys(d.scenario.id for d in deals))
    share = {s: sum(1 for d in deals if d.scenario.id == s) / len(deals) for s in scenarios}
    rows = [_row(s, (labels or {}).get(s, s), [g for g in games if g["scenario"] == s],
                 cpu_a * share[s], cpu_b * share[s]) for s in scenarios]
    if len(rows) > 1:
        rows.append(_row("all", "all scenarios", games, cpu_a, cpu_b))
    return Comparison(a, b, rows, games)


def _row(scenario: str, label: str, games: list[dict[str, Any]], cpu_a: float, cpu_b: float) -> Row:
    n = len(games)
    return Row(scenario, label, n, sum(g["win_a"] for g in games), sum(g["win_b"] for g in games),
               sum(g["win_a"] and not g["win_b"] for g in games), sum(g["win_b"] and not g["win_a"] for g in games),
               cpu_a / n, cpu_b / n)


def text_table(c: Comparison) -> str:
    """The comparison as a table for the terminal."""
    def rate(row: Row, wins: int) -> str:
        lo, hi = row.interval(wins)
        return f"{wins / row.games:.1%} [{lo:.1%}, {hi:.1%}]"

    head = ["scenario", "games", f"A {c.a.label}", f"B {c.b.label}", "only A", "only B", "McNemar p",
            "A s/game", "B s/game"]
    body = [[r.label, str(r.games), rate(r, r.wins_a), rate(r, r.wins_b), str(r.only_a), str(r.only_b),
             f"{r.p_value:.2g}", f"{r.seconds_a:.4f}", f"{r.seconds_b:.4f}"] for r in c.rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    lines = [head, ["-" * w for w in widths], *body]
    return "\n".join("  ".join(x.ljust(w) if i in (0, 2, 3) else x.rjust(w) for i, (x, w) in
                               enumerate(zip(line, widths, strict=True))) for line in lines)  # fmt: skip


def figure(c: Comparison, path: Path) -> Path:
    """Each scenario's two win rates with their intervals, and the games won by one player only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = c.rows
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 1.2 + 0.55 * len(rows)), width_ratios=(3, 2), sharey=True)
    ys = list(range(len(rows)))[::-1]
    for k, (player, wins, colour) in enumerate(((c.a, "wins_a", SCENARIO_PALETTE[0]),
                                                (c.b, "wins_b", SCENARIO_PALETTE[1]))):
        rates = [getattr(r, wins) / r.games for r in rows]
        lo_hi = [r.interval(getattr(r, wins)) for r in rows]
        err = [[p - lo for p, (lo, _) in zip(rates, lo_hi, strict=True)],
               [hi - p for p, (_, hi) in zip(rates, lo_hi, strict=True)]]
        ax.errorbar(rates, [y + (0.15 if k == 0 else -0.15) for y in ys], xerr=err, fmt="o", color=colour,
                    capsize=3, label=f"{'AB'[k]}: {player.label}")
    ax.set_yticks(ys, [r.label for r in rows])
    ax.set_xlabel("games won (95% Wilson interval)")
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    bx.barh([y + 0.2 for y in ys], [r.only_a for r in rows], height=0.4, color=SCENARIO_PALETTE[0], label="A only")
    bx.barh([y - 0.2 for y in ys], [r.only_b for r in rows], height=0.4, color=SCENARIO_PALETTE[1], label="B only")
    most = max(max(r.only_a, r.only_b) for r in rows) or 1
    for y, r in zip(ys, rows, strict=True):
        bx.text(max(r.only_a, r.only_b) + 0.03 * most, y, f"p = {r.p_value:.2g}", va="center", fontsize=8)
    bx.set_xlim(0, most * 1.45)
    bx.set_xlabel("games won by one player only (McNemar)")
    bx.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
