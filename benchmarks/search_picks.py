"""Where the island `search` leaves the heuristic: at each turn's start, whether the turn of one of its weight
variants was played instead of the heuristic's own, and which, by the game's stage (treasures captured), the
water level, the current player's role and the Helicopter Lifts the team holds. Shows where the heuristic's
turns are beaten by a lookahead, the place to look for its next gains. Tuning seeds only (benchmarks/seeds.py).

    python benchmarks/search_picks.py --games 300 --seed 2154000 --jobs 2
    python benchmarks/search_picks.py --param depth=4 --param candidates=1 --param samples=8 --param first=0 \\
        --difficulty normal elite --games 300 --seed 2154000 --jobs 2
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor

from seeds import TUNING_START, tuning_range
from strength import game_count, parse_params, policy_or_usage_error, standard_game  # beside this one

from fi_cli.island.engine import ACTIONS
from fi_cli.island.policies.planner import VARIANTS
from fi_cli.island.tiles import DIFFICULTIES, HELICOPTER_LIFT, ROLES

DEFAULT = -1  # the heuristic's own turn


def variant_name(i: int) -> str:
    """A variant as its weights, e.g. 'w_meet 1.6'."""
    return "heuristic" if i == DEFAULT else ", ".join(f"{k} {v:g}" for k, v in VARIANTS[i].items())


def context(s) -> dict[str, object]:
    """What a turn's start is read by."""
    lifts = sum(h[HELICOPTER_LIFT] for h in s.hands)
    return {
        "treasures captured": bin(s.captured).count("1"),
        "water level": s.water,
        "role": ROLES[s.roles[s.current]],
        "Helicopter Lifts in hand": "2+" if lifts >= 2 else str(lifts),
    }


class _Watch:
    """The search, watched: (context, variant played) at every turn's start."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.rows: list[tuple[dict, int]] = []

    def reset(self, seed: int) -> None:
        self.policy.reset(seed)

    def choose(self, state, legal):
        action = self.policy.choose(state, legal)
        if state.phase == ACTIONS and state.actions_left == 3:
            chosen = self.policy.variants.chosen
            played = chosen[1] if chosen is not None and chosen[0] == state.turn else DEFAULT
            self.rows.append((context(state), played))
        return action


def _play(job: tuple) -> tuple[int, list[tuple[dict, int]]]:
    params, players, level, seeds = job
    make_setup, play_game, make_policy = standard_game("island")
    setup, watch = make_setup(players, level), _Watch(make_policy("search", params))
    wins = sum(play_game(setup, watch, seed).outcome == "win" for seed in seeds)
    return wins, watch.rows


def report(rows: list[tuple[dict, int]], top: int = 4) -> None:
    """For each reading: turns, how many a variant's turn replaced, and the variants played most often."""
    print(f"turn starts {len(rows)}, a variant's turn played at {sum(v != DEFAULT for _, v in rows)}")
    for key in rows[0][0] if rows else ():
        print(f"by {key}:")
        by: dict[object, Counter] = defaultdict(Counter)
        for ctx, played in rows:
            by[ctx[key]][played] += 1
        for value in sorted(by, key=str):
            seen = by[value]
            n = sum(seen.values())
            other = n - seen[DEFAULT]
            most = "; ".join([f"{variant_name(v)}: {k}" for v, k in seen.most_common() if v != DEFAULT][:top])
            print(f"  {value}: {n} turns, a variant's {other} ({other / n:.1%})" + (f"  [{most}]" if most else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="a parameter of the search")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    ap.add_argument("--difficulty", nargs="+", choices=sorted(DIFFICULTIES), default=["normal"])
    ap.add_argument("--games", type=game_count, default=300, help="games per difficulty")
    ap.add_argument("--seed", type=int, default=TUNING_START, help="first seed (a tuning seed)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    params = parse_params(args.param)
    policy_or_usage_error(ap, standard_game("island")[2], "search", params)
    seeds = list(tuning_range(args.seed, args.games))
    rows, wins = [], 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for difficulty in args.difficulty:
            parts = [seeds[i :: args.jobs] for i in range(args.jobs)]
            jobs = [(params, args.players, DIFFICULTIES[difficulty], part) for part in parts]
            for won, part_rows in pool.map(_play, jobs):
                wins += won
                rows += part_rows
    print(f"search {params or '(default parameters)'}; {args.players} players, {' '.join(args.difficulty)}, "
          f"{len(seeds)} games each, seeds {seeds[0]}-{seeds[-1]}: {wins} won")  # fmt: skip
    report(rows)


if __name__ == "__main__":
    main()
