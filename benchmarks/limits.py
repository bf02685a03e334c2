"""The runner shared by desert_limits.py and island_limits.py: a policy's games played with one rule eased at a
time, each relaxation in a fresh process of its own, on the same tuning seeds.

A relaxation patches the engine's class in its process only. The games run in pure Python (the script restarts
itself with ``FI_PURE_PYTHON=1`` if need be): a compiled engine calls its own methods directly, past a patch, and
a relaxation would change nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from seeds import TUNING_START, tuning_range
from strength import game_count, play_cell, policy_or_usage_error, standard_game  # the benchmark script beside this one

FOUR = {"island": "treasures captured", "desert": "parts collected"}  # what "all four" counts


def parser(doc: str, relaxations: Sequence[str], players: Sequence[int], difficulty: str) -> argparse.ArgumentParser:
    """The command line of a limits script."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--players", type=int, default=4, choices=players)
    ap.add_argument("--difficulty", default=difficulty, choices=("novice", "normal", "elite", "legendary"))
    ap.add_argument("--games", type=game_count, default=400)
    ap.add_argument("--seed", type=int, default=TUNING_START, help="first seed (a tuning seed)")
    ap.add_argument("--relax", nargs="+", choices=relaxations, default=list(relaxations))
    ap.add_argument("--jobs", type=int, default=1, help="processes (one relaxation each)")
    return ap


def _play(job: tuple) -> tuple[str, dict]:
    """Play one relaxation's games in this (fresh) process."""
    game, relax, name, policy_name, players, difficulty, games, seed0 = job
    relax(name)
    return name, play_cell((game, policy_name, {}, players, difficulty, games, seed0))


def run(game: str, relax: Callable[[str], None], ap: argparse.ArgumentParser) -> None:
    """Play and print every relaxation the command line ``ap`` asks for (restarting on the sources first if need
    be); a bad policy name is a usage error before any game is played."""
    from fi_cli import native

    args = ap.parse_args()
    policy_or_usage_error(ap, standard_game(game)[2], args.policy, {})
    if native.compiled():  # run again on the engine's source, where the patches of ``relax`` take effect
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "FI_PURE_PYTHON": "1"})
    tuning_range(args.seed, args.games)  # refuses benchmark seeds
    print(f"policy {args.policy}, {args.players} players, {args.difficulty}, {args.games} games a relaxation, "
          f"tuning seeds {args.seed}..{args.seed + args.games - 1}")  # fmt: skip
    jobs = [(game, relax, r, args.policy, args.players, args.difficulty, args.games, args.seed) for r in args.relax]
    n = args.games
    with ProcessPoolExecutor(max_workers=args.jobs, max_tasks_per_child=1) as pool:  # a fresh process each
        for name, cell in pool.map(_play, jobs):
            lost = ", ".join(f"{c} {k / n:.1%}" for c, k in Counter(cell["causes"]).most_common())
            print(f"  {name:13s} wins {cell['wins']:4d}/{n} = {cell['wins'] / n:6.1%}   lost with all four "
                  f"{FOUR[game]} {cell['lost_four'] / n:5.1%}   lost: {lost}   ({cell['seconds']:.0f} s)")  # fmt: skip
