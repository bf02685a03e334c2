"""How a policy loses: each loss cause by the number of treasures captured when the game was lost.

Shows where a player's next gains are: losses with no treasure captured are lost races against the early
flood; losses after all four treasures are lost endgames (the team did not reach Fools' Landing and lift
off in time). Also prints, for games that captured all four treasures, how many turns later they ended.

    python benchmarks/losses.py --policy heuristic --players 4 --difficulty normal --games 1500 --jobs 2
    python benchmarks/losses.py --policy heuristic --param w_fools_landing=12 --games 1000
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from strength import parse_params  # the benchmark script beside this one

from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.tiles import LOSS_CAUSES, parse_difficulty


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="normal")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1000, help="first game seed")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    params = parse_params(args.param)
    level = parse_difficulty(args.difficulty)
    seeds = list(range(args.seed, args.seed + args.games))
    parts = [seeds[i :: args.jobs] for i in range(args.jobs)]
    jobs = [(args.policy, params, args.players, level, part) for part in parts]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = [g for part in pool.map(_play, jobs) for g in part]

    n = len(games)
    print(f"policy {args.policy} {params or '(default parameters)'}; {args.players} players, {args.difficulty}, "
          f"{n} games, seeds {seeds[0]}-{seeds[-1]}")  # fmt: skip
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


if __name__ == "__main__":
    main()
