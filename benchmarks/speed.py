"""Games per second of random play on one core, with the machine it ran on.

    python benchmarks/speed.py                 # 20,000 games, 4 players, normal
    python benchmarks/speed.py --games 5000 --players 2 --difficulty elite --profile
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import sys
import time

from fi_cli.island.engine import LegalActions
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import choose
from fi_cli.island.policies import make_policy
from fi_cli.island.tiles import parse_difficulty


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def play_bare(setup: GameSetup, policy, seeds: range) -> tuple[int, int]:
    """Play games with no logging; returns (decisions, player turns)."""
    decisions = turns = 0
    for seed in seeds:
        s = new_game(setup, seed)
        policy.reset(seed)
        while s.outcome is None:
            s.apply(choose(policy, s, LegalActions(s)))  # listed only if the policy looks, as in play_game
            decisions += 1
        turns += s.turn
    return decisions, turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--layout", default="forbidden_island")
    ap.add_argument("--policy", default="random")
    ap.add_argument("--profile", action="store_true", help="print where the time goes (cProfile, top 15)")
    args = ap.parse_args()
    setup = GameSetup(get_layout(args.layout), parse_difficulty(args.difficulty), args.players)
    policy = make_policy(args.policy)
    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"machine: {cpu_name()}, Python {platform.python_version()}, one process")
    play_bare(setup, policy, range(10**6, 10**6 + 200))  # warm-up
    t0 = time.perf_counter()
    decisions, turns = play_bare(setup, policy, range(args.games))
    dt = time.perf_counter() - t0
    print(
        f"{args.games} games of {args.policy} play ({args.players} players, {args.difficulty}, {args.layout}) "
        f"in {dt:.2f} s: {args.games / dt:,.0f} games/s, {decisions / dt:,.0f} decisions/s, "
        f"{turns / args.games:.1f} turns/game"
    )
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play_bare(setup, policy, range(min(args.games, 5000)))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
