"""Games per second of random play on one core, with the machine it ran on.

    python benchmarks/speed.py                 # 20,000 games, 4 players, normal
    python benchmarks/speed.py --games 5000 --players 2 --difficulty elite --profile
    python benchmarks/speed.py --game desert   # Forbidden Desert: random and heuristic play
    python benchmarks/speed.py --policy random,heuristic,random --games 3000   # and the ratio of their speeds
    python benchmarks/speed.py --policy search --games 100 --param depth=2 --param samples=8 --param candidates=1

The games of a policy are played again until ``--min-seconds`` of the clock have passed (2 by default): 400
Desert games of random play take a tenth of a second, too short a measurement for a steady ratio.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import sys
import time

from strength import game_count, parse_params, policy_or_usage_error  # the benchmark script beside this one

from fi_cli import native
from fi_cli.common.play import LegalActions, choose
from fi_cli.seeding import policy_seed


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def deals(seeds: range) -> list[tuple[int, int]]:
    """(game seed, the policy's own seed) of each game, worked out before the clock starts."""
    return [(seed, policy_seed(seed)) for seed in seeds]


def play_bare(new_game, setup, policy, games: list[tuple[int, int]]) -> tuple[int, int]:
    """Play games with no logging; returns (decisions, player turns). The policy gets its own seed, as in play."""
    decisions = turns = 0
    for seed, own in games:
        s = new_game(setup, seed)
        policy.reset(own)
        while s.outcome is None:
            s.apply(choose(policy, s, LegalActions(s)))  # listed only if the policy looks, as in play_game
            decisions += 1
        turns += s.turn
    return decisions, turns


def _game(args):
    """(new_game, setup, make_policy, the policies to measure, what the setup is) of the game asked for."""
    if args.game == "desert":
        from fi_cli.desert.game import GameSetup, new_game
        from fi_cli.desert.policies import make_policy, policy_names
        from fi_cli.desert.tiles import parse_difficulty

        setup = GameSetup(args.players, parse_difficulty(args.difficulty))
        known = [p for p in ("random", "heuristic") if p in policy_names()]
        policies = args.policy.split(",") if args.policy else known
        return new_game, setup, make_policy, policies, f"Forbidden Desert, {args.players} players, {args.difficulty}"
    from fi_cli.island.game import GameSetup, new_game
    from fi_cli.island.layouts import get_layout
    from fi_cli.island.policies import make_policy
    from fi_cli.island.tiles import parse_difficulty

    setup = GameSetup(get_layout(args.layout), parse_difficulty(args.difficulty), args.players)
    return new_game, setup, make_policy, (args.policy or "random").split(","), \
        f"{args.players} players, {args.difficulty}, {args.layout}"


def _seconds(text: str) -> float:
    """argparse type: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:  # (also NaN)
        raise argparse.ArgumentTypeError(f"a number of seconds, 0 or more, got {text!r}")
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("island", "desert"), default="island")
    ap.add_argument("--games", type=game_count, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--layout", default="forbidden_island", help="the island's layout (island only)")
    ap.add_argument("--policy", default=None,
                    help="policy id(s), comma-separated (default: random; desert: random and heuristic)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter of the policies measured (each of them), e.g. the search's depth=2")
    ap.add_argument("--min-seconds", type=_seconds, default=2.0, metavar="S",
                    help="play a policy's games again until this many seconds have passed (default 2; 0: once)")
    ap.add_argument("--profile", action="store_true", help="print where the time goes (cProfile, top 15)")
    args = ap.parse_args()
    new_game, setup, make_policy, names, what = _game(args)
    params = parse_params(args.param)
    policies = [policy_or_usage_error(ap, make_policy, name, params) for name in names]  # before any timing
    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"machine: {cpu_name()}, Python {platform.python_version()}, one process")
    print(f"code: {native.describe()}")  # the modules compiled at install (mypyc) or pure Python
    rates = []
    label = f" {params}" if params else ""
    for name, policy in zip(names, policies, strict=True):
        warm_up(new_game, setup, policy)
        games = deals(range(args.games))
        played = decisions = turns = rounds = 0
        t0, c0 = time.perf_counter(), time.process_time()
        while not rounds or time.perf_counter() - t0 < args.min_seconds:
            d, t = play_bare(new_game, setup, policy, games)
            played, decisions, turns, rounds = played + len(games), decisions + d, turns + t, rounds + 1
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        rates.append(played / dt)
        again = f" ({args.games} deals, {rounds} times)" if rounds > 1 else ""
        print(
            f"{played} games of {name}{label} play{again} ({what}) "
            f"in {dt:.2f} s: {played / dt:,.0f} games/s, {decisions / dt:,.0f} decisions/s, "
            f"{turns / played:.1f} turns/game; CPU {cpu:.2f} s: {played / cpu:,.0f} games/s"
        )
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            play_bare(new_game, setup, policy, deals(range(min(args.games, 5000))))
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    if len(rates) > 1:  # a ratio measured in one run depends far less on the machine's load than games/s do
        print("games/s relative to " + names[0] + ": " + ", ".join(
            f"{name} {r / rates[0]:.4f}" for name, r in zip(names[1:], rates[1:], strict=True)))  # fmt: skip


def warm_up(new_game, setup, policy, most: int = 200, seconds: float = 1.0) -> None:
    """Play up to ``most`` deals before the clock starts, 5 at a time, stopping once ``seconds`` have passed: a
    search taking a second a game needs a few, not the 200 a fast policy plays in that time."""
    t0 = time.perf_counter()
    for start in range(10**6, 10**6 + most, 5):
        play_bare(new_game, setup, policy, deals(range(start, start + 5)))
        if time.perf_counter() - t0 > seconds:
            return


if __name__ == "__main__":
    main()
