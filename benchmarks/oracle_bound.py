"""How many deals can be won at all: the clairvoyant oracle's win rate (a lower bound on the winnable share) beside
the fair players', on the same benchmark deals, for one or more search budgets.

The oracle sees the order of every deck (and the Desert's tile undersides) and searches the fixed future for a
win (fi_cli/common/oracle.py); a deal it wins is winnable. Each budget's row gives its win rate with the 95% Wilson
interval, its seconds a game, and how many of the fair players' won deals it wins too (a sanity check of the
bound: it should win nearly every deal a fair player wins). A setting BEAM:BUDGET is the oracle's beam width and
its budget of continuations.

    python benchmarks/oracle_bound.py --game island --difficulties normal --games 1000 --settings 1:200 32:20000
    python benchmarks/oracle_bound.py --game desert --difficulties novice normal --games 1000 --fair heuristic search
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from seeds import BENCHMARK, benchmark_range
from strength import play_cell, wilson  # beside this script


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["island", "desert"], default="island")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulties", nargs="+", default=["normal"])
    ap.add_argument("--games", type=int, default=1000, help="deals per cell")
    ap.add_argument("--settings", nargs="+", default=["32:20000"], metavar="BEAM:BUDGET",
                    help="the oracle's search settings: beam width and budget of continuations (default its own)")
    ap.add_argument("--fair", nargs="+", default=["heuristic"], help="fair players to set beside it")
    ap.add_argument("--seed", type=int, default=BENCHMARK.start, help="first deal (a benchmark seed)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--slices", type=int, default=8, help="pieces each row's deals are cut into for the processes")
    args = ap.parse_args()
    benchmark_range(args.seed, args.games)
    try:
        settings = [tuple(map(int, text.split(":"))) for text in args.settings]
    except ValueError:
        ap.error("--settings takes BEAM:BUDGET pairs of whole numbers, e.g. 1:200 32:20000")
    rows = [(name, {}) for name in args.fair] + [("oracle", {"beam": w, "budget": b}) for w, b in settings]
    step = -(-args.games // args.slices)
    jobs = [(args.game, name, params, args.players, d, min(step, args.games - s), args.seed + s)
            for d in args.difficulties for name, params in rows for s in range(0, args.games, step)]  # fmt: skip
    with ProcessPoolExecutor(args.jobs) as pool:
        done = list(pool.map(play_cell, jobs))
    print(f"{args.game}, {args.players} players, deals {args.seed}-{args.seed + args.games - 1} (benchmark seeds)")
    print(f"{'cell':<8} {'player':<22} {'wins':>11} {'95% interval':>16} {'s/game':>8}  fair wins it wins too")
    for d in args.difficulties:
        results = {}
        for name, params in rows:
            parts = [r for job, r in zip(jobs, done, strict=True) if job[1:3] == (name, params) and job[4] == d]
            won = [w for r in parts for w in r["won"]]
            results[(name, str(params))] = (won, sum(r["seconds"] for r in parts))
        fair_won = [any(results[(n, "{}")][0][i] for n in args.fair) for i in range(args.games)]
        for name, params in rows:
            won, seconds = results[(name, str(params))]
            k, n = sum(won), len(won)
            lo, hi = wilson(k, n)
            label = name if not params else f"oracle {params['beam']}:{params['budget']}"
            also = ""
            if name == "oracle":
                both = sum(w and f for w, f in zip(won, fair_won, strict=True))
                also = f"{both}/{sum(fair_won)} = {both / max(1, sum(fair_won)):.1%}"
            print(f"{d:<8} {label:<22} {k:>5}/{n:<5} {100 * k / n:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}] "
                  f"{seconds / n:8.3f}  {also}")  # fmt: skip


if __name__ == "__main__":
    main()
