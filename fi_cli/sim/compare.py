"""Two players on the same deals: which wins more, and is the difference real?

Both players play every deal (a scenario's set-up and a game seed: the same island, tiles, cards and roles, and
the same draws as long as the same actions are taken), so the comparison is paired: the games won by one player
only decide it (the exact McNemar test: a binomial test of those games at one half). Also each player's win rate
with its 95% Wilson interval and its seconds per game (CPU time, a user's player's own process included).

The deals of a study are the games ``fi simulate`` plays for it (game seeds from its root seed, each scenario's
id and the game number); its ``policy`` is replaced by the two players.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..common.players import PlayerError
from .config import Scenario, Study
from .models import render_value
from .seeds import game_seed
from .workers import worker_count


@dataclass(frozen=True)
class Player:
    """A policy id or a user's player (``module:Class``) with its parameters."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return render_value({"name": self.name, **self.params} if self.params else self.name)


@dataclass(frozen=True)
class Deal:
    scenario: Scenario
    game: int
    seed: int


def study_deals(study: Study) -> list[Deal]:
    """Every game of a study, scenario by scenario, with the seeds ``fi simulate`` gives them."""
    return [Deal(sc, g, game_seed(study.seed, sc.id, g)) for sc in study.scenarios for g in range(study.games)]


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
        from ..report.stats import wilson

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


def _play_part(game: str, player: Player, deals: list[tuple[dict[str, Any], int]]) -> tuple[list[bool], float]:
    """In a worker: play these deals (resolved scenarios and seeds); the wins and the CPU seconds used."""
    from ..common.isolation import players_cpu

    results = []
    c0, k0 = time.process_time(), players_cpu()
    for scenario, seed in deals:
        sc = Scenario.from_dict(scenario)
        results.append(sc.door.play(sc.setup, player.name, player.params, seed).outcome == "win")
    return results, time.process_time() - c0 + players_cpu() - k0


def _parts(deals: Sequence[Deal], size: int) -> Iterator[list[Deal]]:
    for i in range(0, len(deals), size):
        yield list(deals[i:i + size])


def play_deals(player: Player, deals: Sequence[Deal], workers: int | None = None,
               progress: Callable[[int], None] | None = None) -> tuple[list[bool], float]:
    """Whether ``player`` won each deal, and its CPU seconds in all, on ``workers`` processes (1: this one)."""
    with _pool(workers, len(deals)) as pool:
        return _played(player, deals, pool, progress)


@contextmanager
def _pool(workers: int | None, deals: int) -> Iterator[ProcessPoolExecutor | None]:
    n, _ = worker_count(workers, deals)
    if n == 1:
        yield None
        return
    with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


def _played(player: Player, deals: Sequence[Deal], pool: ProcessPoolExecutor | None,
            progress: Callable[[int], None] | None) -> tuple[list[bool], float]:
    game = deals[0].scenario.game
    n = pool._max_workers if pool is not None else 1  # noqa: SLF001
    size = max(1, min(25, len(deals) // (4 * n)))  # parts small enough to keep every worker busy to the end
    jobs = [(game, player, [(d.scenario.to_dict(), d.seed) for d in part]) for part in _parts(deals, size)]
    results = (_play_part(*job) for job in jobs) if pool is None else pool.map(_play_part, *zip(*jobs, strict=True))
    wins: list[bool] = []
    cpu = 0.0
    for w, c in results:
        wins += w
        cpu += c
        if progress:
            progress(len(w))
    return wins, cpu


def compare(a: Player, b: Player, deals: Sequence[Deal], labels: dict[str, str] | None = None,
            workers: int | None = None, progress: Callable[[int], None] | None = None) -> Comparison:
    """Both players on every deal; a row per scenario (named by ``labels``), and one for all of them.

    Raises PlayerError when a user's player fails (what was played is lost: a comparison is all or nothing)."""
    with _pool(workers, len(deals)) as pool:
        played_a = _played(a, deals, pool, progress)
        played_b = _played(b, deals, pool, progress)
    return paired(a, b, deals, played_a, played_b, labels)


def paired(a: Player, b: Player, deals: Sequence[Deal], played_a: tuple[list[bool], float],
           played_b: tuple[list[bool], float], labels: dict[str, str] | None = None) -> Comparison:
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

    from ..report.style import SCENARIO_PALETTE

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


__all__ = ["Comparison", "Deal", "Player", "PlayerError", "Row", "compare", "figure", "paired", "play_deals",
           "study_deals", "text_table"]
