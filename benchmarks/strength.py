"""Strength of a policy: win rates by players x difficulty, for the island or the Desert.

Plays N games in each cell of players x the four difficulties and prints the win rate with its 95% Wilson
interval, the loss-cause shares and the average parts gathered per difficulty (players pooled) and the
speed in games per second of one process (cells run one per process with --jobs).

Island (standard island, 2-4 players): against the published rule-based player of ../shared/anchors.md
(forbidden-island-kotlin), with a one-sided binomial test per cell. Desert (2-5 players): against the
published anchor, a uniformly random player, which wins 0% (measure it here too with --policy random).

    python benchmarks/strength.py --policy heuristic --games 2000 --jobs 2
    python benchmarks/strength.py --policy heuristic --games 300 --players 4 --difficulties novice normal
    python benchmarks/strength.py --policy heuristic --games 500 --param w_meet=1.2 --param w_give=2
    python benchmarks/strength.py --game desert --policy heuristic --games 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from seeds import BENCHMARK, benchmark_range  # the seed ranges, beside this script

from fi_cli.common.policies import Policy, PolicyError

DIFFICULTIES = ("novice", "normal", "elite", "legendary")

# Published win rates of the rule-based player (100,000 games per cell), ../shared/anchors.md
ANCHOR = {
    2: {"novice": 0.2019, "normal": 0.0891, "elite": 0.0230, "legendary": 0.0078},
    3: {"novice": 0.1847, "normal": 0.0846, "elite": 0.0272, "legendary": 0.0081},
    4: {"novice": 0.0869, "normal": 0.0393, "elite": 0.0124, "legendary": 0.0021},
}
ANCHOR_CAUSES = {
    "treasure_lost": (34.6, 42.0, 49.3, 41.8),
    "fools_landing_sunk": (20.1, 21.0, 21.3, 17.2),
    "water_level": (16.2, 16.8, 14.6, 32.3),
    "player_drowned": (13.3, 13.1, 12.6, 8.0),
}
ANCHOR_TREASURES = (2.44, 2.05, 1.65, 1.37)
CAUSE_LABEL = {
    "treasure_lost": "both tiles of a treasure sank",
    "fools_landing_sunk": "Fools' Landing sank",
    "water_level": "water reached the skull",
    "player_drowned": "a player drowned",
    "turn_limit": "turn limit",
    "thirst": "a pawn died of thirst",
    "buried": "the sand ran out",
    "storm": "the storm meter reached the skull",
}
PLAYERS = {"island": [2, 3, 4], "desert": [2, 3, 4, 5]}
PROGRESS = {"island": "average treasures captured", "desert": "average parts collected"}


def game_count(value: str) -> int:
    """An argparse type for --games: a whole number of at least 1 (a usage error, not a traceback later)."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of games, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"at least 1 game, got {n}")
    return n


def parse_params(items: list[str]) -> dict:
    out = {}
    for item in items:
        k, _, v = item.partition("=")
        try:
            out[k] = int(v) if v.lstrip("-").isdigit() else float(v)
        except ValueError:
            out[k] = v
    return out


LATE = "late:"  # a parameter's prefix for tuning alone: a weight of the Desert heuristic's late-storm table


def split_late(params: dict) -> tuple[dict, dict]:
    """(the parameters but the ``late:<weight>`` ones, those by the weights they name)."""
    plain = {k: v for k, v in params.items() if not k.startswith(LATE)}
    return plain, {k[len(LATE):]: v for k, v in params.items() if k.startswith(LATE)}


def policy_or_usage_error(
    ap: argparse.ArgumentParser, make_policy: Callable[[str, dict], Policy], name: str, params: dict
) -> Policy:
    """The policy, built before any game is played: a bad name or parameter is a usage error (exit 2) that
    says what is allowed, not a traceback from a worker process. ``late:<weight>`` parameters (see
    ``cell_policy``) are checked as the weights they name."""
    plain, late = split_late(params)
    try:
        if late and "late_mark" not in getattr(make_policy(name, {}), "PARAMETERS", {}):
            raise PolicyError(f"{LATE}<weight> parameters are the Desert heuristic's (its late-storm table), not "
                              f"this game's {name}'s")
        return make_policy(name, {**plain, **late})
    except PolicyError as e:
        ap.error(str(e))


def standard_game(game: str):
    """(setup(players, start level), play_game, make_policy) of the game on its standard board."""
    if game == "desert":
        from fi_cli.desert.game import GameSetup
        from fi_cli.desert.play import play_game
        from fi_cli.desert.policies import make_policy

        return (lambda players, level: GameSetup(players=players, start_level=level)), play_game, make_policy
    from fi_cli.island.game import GameSetup
    from fi_cli.island.layouts import get_layout
    from fi_cli.island.play import play_game
    from fi_cli.island.policies import make_policy

    def setup(players: int, level: int):
        return GameSetup(get_layout("forbidden_island"), level, players)

    return setup, play_game, make_policy


def game_api(game: str):
    """(make_policy, setup(players, difficulty), play(setup, policy, seed) -> (outcome, cause, progress, turns),
    the game's loss causes in order)."""
    make_setup, play_game, make_policy = standard_game(game)
    if game == "desert":
        from fi_cli.desert.tiles import DIFFICULTIES as LEVELS
        from fi_cli.desert.tiles import LOSS_CAUSES

        def progress(r) -> int:
            return r.parts_collected
    else:
        from fi_cli.island.tiles import DIFFICULTIES as LEVELS
        from fi_cli.island.tiles import LOSS_CAUSES

        def progress(r) -> int:
            return r.treasures_captured

    def setup(players: int, difficulty: str):
        return make_setup(players, LEVELS[difficulty])

    def play(setup, policy, seed: int) -> tuple:
        r = play_game(setup, policy, seed)
        return r.outcome, r.loss_cause, progress(r), r.turns

    return make_policy, setup, play, LOSS_CAUSES


def cell_policy(game: str, make_policy, name: str, params: dict, players: int):
    """The policy of a cell. Parameters named ``late:<weight>`` (cem.py --late) go into the Desert heuristic's
    late-storm table of this team size (heuristic.LATE_STORM) while the policy is made, so that its early weights
    stay the team's defaults; the table is put back afterwards (a worker plays other cells after this one)."""
    plain, late = split_late(params)
    if not late:
        return make_policy(name, params)
    if (game, name) != ("desert", "heuristic"):
        raise ValueError(f"{LATE}<weight> parameters are the Desert heuristic's, not {game}'s {name}")
    from fi_cli.desert.policies import heuristic

    table = heuristic.LATE_STORM
    saved = table.get(players)
    table[players] = {**heuristic.BY_PLAYERS.get(players, {}), **(saved or {}), **late}
    try:
        return make_policy(name, plain)
    finally:
        if saved is None:
            del table[players]
        else:
            table[players] = saved


def play_cell(job: tuple) -> dict:
    """Play one cell in this process; returns counts and the process time spent. ``job`` is (game, policy,
    params, players, difficulty, games, first seed)."""
    game, policy_name, params, players, difficulty, games, seed0 = job
    make_policy, setup_of, play, _ = game_api(game)
    setup = setup_of(players, difficulty)
    policy = cell_policy(game, make_policy, policy_name, params, players)
    won = []  # which games were won, in seed order (for paired comparisons)
    progress = turns = lost_four = 0
    causes: Counter = Counter()
    t0 = time.process_time()
    for i in range(games):
        outcome, cause, gathered, n_turns = play(setup, policy, seed0 + i)
        won.append(outcome == "win")
        if outcome != "win":
            causes[cause] += 1
            lost_four += gathered == 4  # lost with every treasure captured (every part collected)
        progress += gathered
        turns += n_turns
    dt = time.process_time() - t0
    return {
        "players": players, "difficulty": difficulty, "games": games, "wins": sum(won), "won": won,
        "causes": dict(causes), "progress": progress, "turns": turns, "seconds": dt, "lost_four": lost_four,
    }  # fmt: skip


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of k wins in n games (the report's)."""
    from fi_cli.report.stats import wilson as interval

    lo, hi = interval(k, n)
    return float(lo), float(hi)


def p_value(k: int, n: int, p0: float) -> float:
    """One-sided binomial test: P(X >= k) under the anchor's win rate."""
    from scipy.stats import binomtest

    return binomtest(k, n, p0, alternative="greater").pvalue


def print_wins(game: str, cell: dict, players: list[int], diffs: list[str]) -> None:
    island = game == "island"
    if island:
        print("Win rate (95% CI), published rule-based player in brackets, one-sided binomial p vs it:")
    else:
        print("Win rate (95% CI); the published anchor, a uniformly random player, wins 0% in every cell:")
    print()
    print("| players | " + " | ".join(d.capitalize() for d in diffs) + " |")
    print("|---|" + "---:|" * len(diffs))
    worst_p = 0.0
    for n in players:
        row = []
        for d in diffs:
            r = cell[(n, d)]
            k, g = r["wins"], r["games"]
            lo, hi = wilson(k, g)
            text = f"{100 * k / g:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            if island:
                pv = p_value(k, g, ANCHOR[n][d])
                worst_p = max(worst_p, pv)
                text += f" [{100 * ANCHOR[n][d]:.2f}%] p={pv:.1e}"
            row.append(text)
        print(f"| {n} | " + " | ".join(row) + " |")
    if island:
        print()
        print(f"largest p-value over the cells: {worst_p:.2e}")


def print_causes(game: str, cell: dict, results: list[dict], players: list[int], diffs: list[str], order) -> None:
    island = game == "island"
    print("Share of all games (players pooled) by loss cause" + (", published player in brackets:" if island else ":"))
    print()
    print("| cause | " + " | ".join(d.capitalize() for d in diffs) + " |")
    print("|---|" + "---:|" * len(diffs))
    causes = sorted({c for r in results for c in r["causes"]}, key=lambda c: (list(order) + [c]).index(c))
    for c in causes:
        row = []
        for d in diffs:
            g = sum(cell[(n, d)]["games"] for n in players)
            k = sum(cell[(n, d)]["causes"].get(c, 0) for n in players)
            anchor = ANCHOR_CAUSES.get(c) if island else None
            a = f" [{anchor[DIFFICULTIES.index(d)]:.1f}%]" if anchor else ""
            row.append(f"{100 * k / g:.1f}%{a}")
        print(f"| {CAUSE_LABEL.get(c, c)} | " + " | ".join(row) + " |")
    row = []
    for d in diffs:
        g = sum(cell[(n, d)]["games"] for n in players)
        t = sum(cell[(n, d)]["progress"] for n in players)
        a = f" [{ANCHOR_TREASURES[DIFFICULTIES.index(d)]:.2f}]" if island else ""
        row.append(f"{t / g:.2f}{a}")
    print(f"| {PROGRESS[game]} | " + " | ".join(row) + " |")


def print_speed(cell: dict, results: list[dict], players: list[int], diffs: list[str], wall: float, jobs: int) -> None:
    games = sum(r["games"] for r in results)
    secs = sum(r["seconds"] for r in results)
    turns = sum(r["turns"] for r in results)
    print(
        f"speed: {games / secs:,.0f} games/s per process (CPU time of one process, {turns / games:.1f} turns/game); "
        f"{games} games in {wall:.0f} s wall with {jobs} process(es)"
    )
    for n in players:
        parts = [f"{d} {cell[(n, d)]['games'] / cell[(n, d)]['seconds']:,.0f}" for d in diffs]
        print(f"  games/s by cell, {n} players: " + ", ".join(parts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(PLAYERS), default="island")
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--games", type=game_count, default=2000, help="games per cell")
    ap.add_argument("--players", type=int, nargs="+", help="player counts (island 2 3 4, desert 2 3 4 5)")
    ap.add_argument("--difficulties", nargs="+", default=list(DIFFICULTIES), choices=list(DIFFICULTIES))
    ap.add_argument("--seed", type=int, default=BENCHMARK.start,
                    help=f"first game seed of every cell (benchmark seeds: {BENCHMARK.start}-{BENCHMARK.stop - 1})")
    ap.add_argument("--jobs", type=int, default=1, help="processes (one cell per process at a time)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="a policy parameter")
    args = ap.parse_args()
    players = args.players or PLAYERS[args.game]
    bad = [n for n in players if n not in PLAYERS[args.game]]
    if bad:
        ap.error(f"{args.game} is played by {', '.join(map(str, PLAYERS[args.game]))} players, not {bad[0]}")
    params = parse_params(args.param)
    make_policy, _, _, order = game_api(args.game)
    policy_or_usage_error(ap, make_policy, args.policy, params)
    benchmark_range(args.seed, args.games)  # a published figure is never measured on tuning seeds
    jobs = [(args.game, args.policy, params, n, d, args.games, args.seed) for n in players for d in args.difficulties]
    wall = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            results = list(ex.map(play_cell, jobs))
    else:
        results = [play_cell(j) for j in jobs]
    wall = time.perf_counter() - wall
    cell = {(r["players"], r["difficulty"]): r for r in results}
    diffs = args.difficulties

    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"game: {args.game}; policy: {args.policy} {params or ''}; {args.games} games per cell, seeds {args.seed}..")
    print()
    print_wins(args.game, cell, players, diffs)
    print()
    print_causes(args.game, cell, results, players, diffs, order)
    print()
    print_speed(cell, results, players, diffs, wall, args.jobs)


if __name__ == "__main__":
    main()
