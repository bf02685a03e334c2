"""How a policy loses: each loss cause by the number of treasures captured when the game was lost.

Shows where a player's next gains are: losses with no treasure captured are lost races against the early
flood; losses after all four treasures are lost endgames (the team did not reach Fools' Landing and lift
off in time). Also prints, for games that captured all four treasures, how many turns later they ended,
and with several difficulties a summary table (the win rate, the losses after all four treasures were
captured, with three captured, and to the water) over them. Benchmark seeds by default, like strength.py;
``--tuning`` plays tuning seeds (benchmarks/seeds.py) to try ideas.

    python benchmarks/losses.py --policy heuristic --players 4 --difficulty normal --games 2000 --jobs 2
    python benchmarks/losses.py --players 4 --difficulty novice normal elite legendary --games 2000 --jobs 2
    python benchmarks/losses.py --tuning --param w_fools_landing=12 --games 1000
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from seeds import BENCHMARK, TUNING_START, chosen_seeds
from strength import parse_params  # the benchmark script beside this one

from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.tiles import LOSS_CAUSES, parse_difficulty


def difficulty_arg(value: str) -> str:
    """An argparse type: a difficulty name or start level, checked (a clear error, not a traceback)."""
    try:
        parse_difficulty(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return value


def _play(job: tuple) -> list[tuple[str, int, int | None]]:
    """(outcome or loss cause, treasures captured, turns from the fourth capture to the end or None)."""
    name, params, players, level, seeds = job
    policy = make_policy(name, params)
    setup = GameSetup(get_layout("forbidden_island"), start_level=level, players=players)
    out = []
    for seed in seeds:
        r = play_game(setup, policy, seed)
        t4 = next((row.turn for row in r.turn_rows if row.treasures_captured == 4), None)
        out.append((r.loss_cause or r.outcome, r.treasures_captured, None if t4 is None else r.turns - t4))
    return out


def report(games: list[tuple[str, int, int | None]]) -> dict[str, float]:
    """Print the table of one difficulty; return its summary shares."""
    n = len(games)
    wins = sum(1 for end, _, _ in games if end == "win")
    print(f"won {wins} ({wins / n:.1%})\n")
    table = Counter((end, caught) for end, caught, _ in games if end != "win")
    print("| loss cause | " + " | ".join(f"{k} captured" for k in range(5)) + " | all |")
    print("|---|" + "---:|" * 6)
    for cause in LOSS_CAUSES:
        row = [table[cause, k] for k in range(5)]
        print(f"| {cause} | " + " | ".join(f"{c / n:.1%}" for c in row) + f" | {sum(row) / n:.1%} |")
    late = [(end, after) for end, _, after in games if after is not None]
    lost = [after for end, after in late if end != "win"]
    print(f"\n{len(late)} games captured all four treasures; {len(lost)} of them were lost after that "
          f"({len(lost) / max(1, len(late)):.1%}), {len(lost) / n:.1%} of all games.")  # fmt: skip
    after = Counter(min(a, 5) for a in lost)
    print("turns from the fourth capture to the loss: " + ", ".join(
        f"{'5+' if k == 5 else k}: {after[k]}" for k in range(6)))  # fmt: skip
    return {
        "wins": wins / n,
        "lost after all four treasures were captured": len(lost) / n,
        "lost with three treasures captured": sum(table[c, 3] for c in LOSS_CAUSES) / n,
        "water reached the skull": sum(table["water_level", k] for k in range(5)) / n,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", nargs="+", type=difficulty_arg, default=["normal"], help="one or more difficulties")
    ap.add_argument("--games", type=int, default=2000, help="games per difficulty")
    ap.add_argument("--seed", type=int, default=None,
                    help=f"first game seed (default {BENCHMARK.start}, or {TUNING_START} with --tuning)")
    ap.add_argument("--tuning", action="store_true", help="play tuning seeds, to try ideas")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    params = parse_params(args.param)
    seeds = chosen_seeds(args.tuning, args.seed, args.games)
    summary = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for difficulty in args.difficulty:
            level = parse_difficulty(difficulty)
            parts = [seeds[i :: args.jobs] for i in range(args.jobs)]
            jobs = [(args.policy, params, args.players, level, part) for part in parts]
            games = [g for part in pool.map(_play, jobs) for g in part]
            print(f"policy {args.policy} {params or '(default parameters)'}; {args.players} players, {difficulty}, "
                  f"{len(games)} games, seeds {seeds[0]}-{seeds[-1]}")  # fmt: skip
            summary[difficulty] = report(games)
            print()
    if len(summary) > 1:
        print(f"| {args.players} players | " + " | ".join(d.capitalize() for d in summary) + " |")
        print("|---|" + "---:|" * len(summary))
        for key in next(iter(summary.values())):
            print(f"| {key} | " + " | ".join(f"{s[key]:.1%}" for s in summary.values()) + " |")


if __name__ == "__main__":
    main()
