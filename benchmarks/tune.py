"""Compare weight settings of a policy on the same games: total wins over a fixed set of cells.

Every setting plays the same seeds in the same cells, so differences come from the weights, not the deals.
Island cells: 4 players Novice/Normal/Elite, 3 players Normal/Elite, 2 players Normal; Desert cells: 2, 3 and
4 players Novice, 4 players Normal, 3 players Normal, 5 players Novice. Seeds start at 1000 by default and may
never be benchmark seeds (benchmarks/seeds.py), on which the results are reported.
Every setting after the first is also compared game by game with the first: the games only one of the two
won, and the exact two-sided McNemar p of that split.

    python benchmarks/tune.py --games 500 '{}' '{"w_fools_landing": 13}' '{"w_guard": 0.3}'
    python benchmarks/tune.py --policy heuristic --games 300 --jobs 2 '{"w_meet": 1.2, "w_give": 2.5}'
    python benchmarks/tune.py --game desert --games 300 --jobs 2 '{}' '{"v_water": 8}'
    python benchmarks/tune.py --game desert --cells 4:novice,3:novice --games 1000 '{}' '{"v_water": 8}'
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor

from scipy.stats import binomtest
from seeds import TUNING_START, tuning_range
from strength import CAUSE_LABEL, DIFFICULTIES, play_cell, policy_or_usage_error, standard_game  # beside this one

CELLS = {
    "island": [(4, "novice"), (4, "normal"), (4, "elite"), (3, "normal"), (3, "elite"), (2, "normal")],
    "desert": [(2, "novice"), (3, "novice"), (4, "novice"), (4, "normal"), (3, "normal"), (5, "novice")],
}
PLAYERS = {"island": 4, "desert": 5}  # the most players of each game (--cells)
WATCH = {"island": "fools_landing_sunk", "desert": "thirst"}  # the loss cause counted beside the wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("settings", nargs="+", help="JSON objects of weights; '{}' is the defaults")
    ap.add_argument("--game", choices=sorted(CELLS), default="island")
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--games", type=int, default=500, help="games per cell")
    ap.add_argument("--seed", type=int, default=TUNING_START, help="first seed of every cell (not a benchmark seed)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cells", metavar="PLAYERS:LEVEL,...",
                    help="play only these cells (e.g. 4:novice,3:normal) instead of the game's six")
    args = ap.parse_args()
    try:
        settings = [json.loads(text) for text in args.settings]
    except json.JSONDecodeError as e:
        ap.error(f"a setting is not a JSON object: {e}")
    make_policy = standard_game(args.game)[2]
    for w in settings:
        if not isinstance(w, dict):
            ap.error(f"a setting is not a JSON object: {json.dumps(w)}")
        policy_or_usage_error(ap, make_policy, args.policy, w)
    tuning_range(args.seed, args.games)
    cells = parse_cells(ap, args.game, args.cells) if args.cells else CELLS[args.game]
    jobs = [(args.game, args.policy, w, pl, d, args.games, args.seed) for w in settings for pl, d in cells]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_cell, jobs))
    watch = WATCH[args.game]
    print(f"{args.policy}, {args.games} games in each of: " + ", ".join(f"{pl}p {d}" for pl, d in cells))
    first = [won for r in results[: len(cells)] for won in r["won"]]
    for i, w in enumerate(settings):
        rs = results[i * len(cells) : (i + 1) * len(cells)]
        wins = sum(r["wins"] for r in rs)
        lost = sum(r["causes"].get(watch, 0) for r in rs)
        line = (f"{json.dumps(w):50s} wins {wins:5d}/{args.games * len(cells)}  {CAUSE_LABEL[watch]}: {lost:4d}  "
                f"by cell: {' '.join(str(r['wins']) for r in rs)}")  # fmt: skip
        if i:
            this = [won for r in rs for won in r["won"]]
            only_this = sum(b and not a for a, b in zip(first, this, strict=True))
            only_first = sum(a and not b for a, b in zip(first, this, strict=True))
            split = only_this + only_first
            p = binomtest(only_this, split, 0.5).pvalue if split else 1.0
            line += f"  vs first: only this {only_this}, only first {only_first}, McNemar p {p:.2g}"
        print(line)


def parse_cells(ap: argparse.ArgumentParser, game: str, text: str) -> list[tuple[int, str]]:
    """The cells of `--cells` (PLAYERS:LEVEL,...); a bad one stops the script with the form expected."""
    most = PLAYERS[game]
    out = []
    for item in text.split(","):
        players, _, level = item.partition(":")
        if not players.isdigit() or not 2 <= int(players) <= most or level not in DIFFICULTIES:
            ap.error(f"--cells takes PLAYERS:LEVEL, e.g. 4:novice (players 2-{most} in {game}, a level of "
                     f"{', '.join(DIFFICULTIES)}); got {item!r}")
        out.append((int(players), level))
    return out


if __name__ == "__main__":
    main()
