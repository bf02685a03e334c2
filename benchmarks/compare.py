"""Two policies on the same games: which wins more, and is the difference real?

Both policies play the same seeds (the same islands, deals and roles), so the comparison is paired: the
exact McNemar test counts the games one policy won and the other lost. Also prints each win rate with its
95% Wilson interval and the seconds per game of one process.

    python benchmarks/compare.py --a heuristic --b planner --players 4 --difficulty normal --games 300 --jobs 2
    python benchmarks/compare.py --a heuristic --b planner --b-param samples=12 --difficulty elite --games 200
    python benchmarks/compare.py --tuning --a heuristic --b heuristic --b-param w_danger=0 --games 2000 --jobs 2

``--tuning`` plays tuning seeds instead (benchmarks/seeds.py): for trying ideas, never for a published figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from scipy.stats import binomtest
from seeds import BENCHMARK, TUNING_START, benchmark_range, tuning_range
from statsmodels.stats.proportion import proportion_confint
from strength import parse_params  # the benchmark script beside this one

from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.tiles import parse_difficulty


def _play(job: tuple) -> tuple[list[bool], float]:
    name, params, players, level, seeds = job
    policy = make_policy(name, params)
    setup = GameSetup(get_layout("forbidden_island"), start_level=level, players=players)
    t0 = time.process_time()
    wins = [play_game(setup, policy, seed).outcome == "win" for seed in seeds]
    return wins, time.process_time() - t0


def run(name: str, params: dict, players: int, level: int, seeds: list[int], jobs: int) -> tuple[list[bool], float]:
    parts = [seeds[i::jobs] for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(_play, [(name, params, players, level, part) for part in parts]))
    wins: dict[int, bool] = {}
    cpu = 0.0
    for part, (w, t) in zip(parts, results, strict=True):
        wins.update(zip(part, w, strict=True))
        cpu += t
    return [wins[s] for s in seeds], cpu / len(seeds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="heuristic")
    ap.add_argument("--b", default="planner")
    ap.add_argument("--a-param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--b-param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=None,
                    help=f"first game seed (default {BENCHMARK.start}, or {TUNING_START} with --tuning)")
    ap.add_argument("--tuning", action="store_true",
                    help=f"play tuning seeds (outside {BENCHMARK.start}-{BENCHMARK.stop - 1}), to try ideas")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    level = parse_difficulty(args.difficulty)
    if args.tuning:
        seeds = list(tuning_range(TUNING_START if args.seed is None else args.seed, args.games))
    else:
        seeds = list(benchmark_range(BENCHMARK.start if args.seed is None else args.seed, args.games))
    print(f"command: {' '.join(['python'] + sys.argv)}")
    res = {}
    for label, name, params in (("A", args.a, parse_params(args.a_param)), ("B", args.b, parse_params(args.b_param))):
        wins, per_game = run(name, params, args.players, level, seeds, args.jobs)
        res[label] = wins
        lo, hi = proportion_confint(sum(wins), len(wins), method="wilson")
        print(
            f"{label} {name} {params or ''}: {sum(wins)}/{len(wins)} wins = {sum(wins) / len(wins):.1%} "
            f"[{lo:.1%}, {hi:.1%}], {per_game:.3f} s/game (CPU, one process)"
        )
    only_a = sum(a and not b for a, b in zip(res["A"], res["B"], strict=True))
    only_b = sum(b and not a for a, b in zip(res["A"], res["B"], strict=True))
    p = binomtest(only_b, only_a + only_b, 0.5, alternative="greater").pvalue if only_a + only_b else 1.0
    print(
        f"{args.players} players, {args.difficulty}, seeds {seeds[0]}-{seeds[-1]}: games only A won {only_a}, "
        f"only B won {only_b}; exact one-sided McNemar p (B better) = {p:.2g}"
    )


if __name__ == "__main__":
    main()
