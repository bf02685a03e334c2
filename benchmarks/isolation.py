"""What a player in a process of its own costs: games/s of the random player in the game's process and isolated.

    python benchmarks/isolation.py                      # 300 island games, 4 players, normal
    python benchmarks/isolation.py --game desert --games 100

Both play the same games (fi's random policy, and the same class loaded by its import path
``fi_cli.common.policies:RandomPolicy`` in a process of its own): each decision then sends the public view and
the legal actions to the player's process and reads its answer back. The CPU time counts both processes.
"""

from __future__ import annotations

import argparse
import sys
import time

from speed import cpu_name

from fi_cli import native
from fi_cli.common.isolation import players_cpu
from fi_cli.games import module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("island", "desert"), default="island")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"machine: {cpu_name()}; code: {native.describe()}")
    game = module(args.game, "game")
    setup = game.GameSetup(players=args.players) if args.game == "desert" else \
        game.GameSetup(module("island", "layouts").get_layout("forbidden_island"), 2, args.players)
    play_game, make_policy = module(args.game, "play").play_game, module(args.game, "policies").make_policy
    rates, outcomes = {}, {}
    for label, name in (("in-process", "random"), ("isolated", "fi_cli.common.policies:RandomPolicy")):
        policy = make_policy(name)  # an isolated player's process starts here, before the clock
        t0, c0, k0 = time.perf_counter(), time.process_time(), players_cpu()
        records = [play_game(setup, policy, seed) for seed in range(args.games)]
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0 + players_cpu() - k0
        decisions = sum(len(a) for r in records for a in (t.actions for t in r.turn_rows))
        rates[label] = args.games / wall
        outcomes[label] = [(r.outcome, r.turns) for r in records]
        print(f"{label:>10}: {args.games} games in {wall:.2f} s: {args.games / wall:,.1f} games/s, "
              f"{decisions / wall:,.0f} decisions/s; CPU of both processes {cpu:.2f} s: "
              f"{args.games / cpu:,.1f} games/s")
    same = "the same games" if outcomes["in-process"] == outcomes["isolated"] else "DIFFERENT games (a bug)"
    print(f"isolated / in-process: {rates['isolated'] / rates['in-process']:.3f} of the speed ({same})")


if __name__ == "__main__":
    main()
