"""Strength of a policy on the standard island: the table of ../shared/anchors.md.

Plays N games for each of 2, 3 and 4 players x the four difficulties and prints the win rate with its
95% Wilson interval per cell, a one-sided binomial test against the published rule-based player
(forbidden-island-kotlin), the loss-cause shares and average treasures per difficulty (2-4 players
pooled) and the speed in games per second of one process (cells run one per process with --jobs).

    python benchmarks/strength.py --policy heuristic --games 2000 --jobs 2
    python benchmarks/strength.py --policy heuristic --games 300 --players 4 --difficulties novice normal
    python benchmarks/strength.py --policy heuristic --games 500 --param w_meet=1.2 --param w_give=2
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from seeds import BENCHMARK, benchmark_range  # the seed ranges, beside this script

from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.tiles import DIFFICULTIES, LOSS_CAUSES

# Published win rates of the rule-based player (100,000 games per cell), ../shared/anchors.md
ANCHOR = {
    2: {"novice": 0.2019, "normal": 0.0891, "elite": 0.0230, "legendary": 0.0078},
    3: {"novice": 0.1847, "normal": 0.0846, "elite": 0.0272, "legendary": 0.0081},
    4: {"novice": 0.0869, "normal": 0.0393, "elite": 0.0124, "legendary": 0.0021},
}
ANCHOR_CAUSES = {
    "treasure_lost": (34.6, 42.0, 49.3, 41.8),
    "fools_landing_sunk": (20.1, 21.0, 21.3, 17.2),
    "water_level": (16.2, 16.8, 14.6, 32.3),
    "player_drowned": (13.3, 13.1, 12.6, 8.0),
}
ANCHOR_TREASURES = (2.44, 2.05, 1.65, 1.37)
CAUSE_LABEL = {
    "treasure_lost": "both tiles of a treasure sank",
    "fools_landing_sunk": "Fools' Landing sank",
    "water_level": "water reached the skull",
    "player_drowned": "a player drowned",
    "turn_limit": "turn limit",
}


def parse_params(items: list[str]) -> dict:
    out = {}
    for item in items:
        k, _, v = item.partition("=")
        try:
            out[k] = int(v) if v.lstrip("-").isdigit() else float(v)
        except ValueError:
            out[k] = v
    return out


def play_cell(job: tuple) -> dict:
    """Play one cell in this process; returns counts and the process time spent."""
    policy_name, params, players, difficulty, games, seed0 = job
    setup = GameSetup(get_layout("forbidden_island"), DIFFICULTIES[difficulty], players)
    policy = make_policy(policy_name, params)
    won = []  # which games were won, in seed order (for paired comparisons)
    causes: Counter = Counter()
    treasures = 0
    turns = 0
    t0 = time.process_time()
    for i in range(games):
        r = play_game(setup, policy, seed0 + i)
        won.append(r.outcome == "win")
        if r.outcome != "win":
            causes[r.loss_cause] += 1
        treasures += r.treasures_captured
        turns += r.turns
    dt = time.process_time() - t0
    return {
        "players": players, "difficulty": difficulty, "games": games, "wins": sum(won), "won": won,
        "causes": dict(causes),
        "treasures": treasures, "turns": turns, "seconds": dt,
    }  # fmt: skip


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def p_value(k: int, n: int, p0: float) -> float:
    """One-sided binomial test: P(X >= k) under the anchor's win rate."""
    from scipy.stats import binomtest

    return binomtest(k, n, p0, alternative="greater").pvalue


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--games", type=int, default=2000, help="games per cell")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--difficulties", nargs="+", default=list(DIFFICULTIES), choices=list(DIFFICULTIES))
    ap.add_argument("--seed", type=int, default=BENCHMARK.start,
                    help=f"first game seed of every cell (benchmark seeds: {BENCHMARK.start}-{BENCHMARK.stop - 1})")
    ap.add_argument("--jobs", type=int, default=1, help="processes (one cell per process at a time)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="a policy parameter")
    args = ap.parse_args()
    params = parse_params(args.param)
    make_policy(args.policy, params)  # fail early on a bad name or parameter
    benchmark_range(args.seed, args.games)  # a published figure is never measured on tuning seeds
    jobs = [
        (args.policy, params, n, d, args.games, args.seed) for n in args.players for d in args.difficulties
    ]
    wall = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            results = list(ex.map(play_cell, jobs))
    else:
        results = [play_cell(j) for j in jobs]
    wall = time.perf_counter() - wall
    cell = {(r["players"], r["difficulty"]): r for r in results}
    diffs = args.difficulties

    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"policy: {args.policy} {params or ''}; {args.games} games per cell, seeds {args.seed}..")
    print()
    print("Win rate (95% CI), published rule-based player in brackets, one-sided binomial p vs it:")
    print()
    print("| players | " + " | ".join(d.capitalize() for d in diffs) + " |")
    print("|---|" + "---:|" * len(diffs))
    worst_p = 0.0
    for n in args.players:
        row = []
        for d in diffs:
            r = cell[(n, d)]
            k, g = r["wins"], r["games"]
            lo, hi = wilson(k, g)
            pv = p_value(k, g, ANCHOR[n][d])
            worst_p = max(worst_p, pv)
            row.append(
                f"{100 * k / g:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) [{100 * ANCHOR[n][d]:.2f}%] p={pv:.1e}"
            )
        print(f"| {n} | " + " | ".join(row) + " |")
    print()
    print(f"largest p-value over the cells: {worst_p:.2e}")
    print()
    print("Share of all games (players pooled) by loss cause, published player in brackets:")
    print()
    print("| cause | " + " | ".join(d.capitalize() for d in diffs) + " |")
    print("|---|" + "---:|" * len(diffs))
    causes = sorted({c for r in results for c in r["causes"]}, key=lambda c: (list(LOSS_CAUSES) + [c]).index(c))
    for c in causes:
        row = []
        for d in diffs:
            g = sum(cell[(n, d)]["games"] for n in args.players)
            k = sum(cell[(n, d)]["causes"].get(c, 0) for n in args.players)
            anchor = ANCHOR_CAUSES.get(c)
            a = f" [{anchor[list(DIFFICULTIES).index(d)]:.1f}%]" if anchor else ""
            row.append(f"{100 * k / g:.1f}%{a}")
        print(f"| {CAUSE_LABEL.get(c, c)} | " + " | ".join(row) + " |")
    row = []
    for d in diffs:
        g = sum(cell[(n, d)]["games"] for n in args.players)
        t = sum(cell[(n, d)]["treasures"] for n in args.players)
        row.append(f"{t / g:.2f} [{ANCHOR_TREASURES[list(DIFFICULTIES).index(d)]:.2f}]")
    print("| average treasures captured | " + " | ".join(row) + " |")
    print()
    games = sum(r["games"] for r in results)
    secs = sum(r["seconds"] for r in results)
    turns = sum(r["turns"] for r in results)
    print(
        f"speed: {games / secs:,.0f} games/s per process (CPU time of one process, {turns / games:.1f} turns/game); "
        f"{games} games in {wall:.0f} s wall with {args.jobs} process(es)"
    )
    for n in args.players:
        parts = []
        for d in diffs:
            r = cell[(n, d)]
            parts.append(f"{d} {r['games'] / r['seconds']:,.0f}")
        print(f"  games/s by cell, {n} players: " + ", ".join(parts))


if __name__ == "__main__":
    main()
