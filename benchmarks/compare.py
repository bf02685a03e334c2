"""Two policies on the same games, on the benchmark (or tuning) seeds: `fi compare` with the seeds of published
figures, and with another git revision's code for a side (``--a-rev``/``--b-rev``).

Both policies play the same seeds (the same islands, deals and roles), so the comparison is paired: the exact
McNemar test counts the games one policy won and the other lost (``fi_cli.sim.compare`` plays, and
``fi_cli.report.compare`` does the statistics, as for `fi compare`). Also prints each win rate with its 95% Wilson
interval and the CPU seconds per game.

    python benchmarks/compare.py --a heuristic --b planner --players 4 --difficulty normal --games 300 --jobs 2
    python benchmarks/compare.py --a heuristic --b planner --b-param samples=12 --difficulty elite --games 200
    python benchmarks/compare.py --a search --b search --b-param samples=12 --games 200 --tuning --seed 300000
    python benchmarks/compare.py --tuning --a heuristic --b heuristic --b-param w_order=0 --games 2000 --jobs 2
    python benchmarks/compare.py --a heuristic --a-rev 1688f01 --b heuristic --games 2000 --jobs 2
    python benchmarks/compare.py --game desert --b heuristic --b-param jet_tasks=0 --difficulty novice --tuning

``--game desert`` compares Forbidden Desert players (``--difficulty``: novice, normal, elite, legendary or a
storm meter mark).

``--tuning`` plays tuning seeds instead (benchmarks/seeds.py): for trying ideas, never for a published figure.
``--a-rev``/``--b-rev`` play a side with the code of a git revision (checked out in a temporary worktree of
this repository): two versions of a player on the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from losses import difficulty_arg
from seeds import BENCHMARK, TUNING_START, chosen_seeds
from strength import parse_params, policy_or_usage_error, standard_game  # the benchmark script beside this one

from fi_cli.desert import tiles as desert_tiles
from fi_cli.island import tiles as island_tiles
from fi_cli.report.compare import paired, text_table
from fi_cli.sim.compare import Deal, Player, play_deals
from fi_cli.sim.config import BASE_SCENARIO_ID, Scenario

TILES = {"island": island_tiles, "desert": desert_tiles}


def deals(game: str, players: int, level: int, seeds: list[int]) -> list[Deal]:
    """The standard board's deals of these game seeds (the benchmark seeds are game seeds themselves)."""
    setup = standard_game(game)[0](players, level)
    scenario = Scenario(index=0, id=BASE_SCENARIO_ID, values={}, setup=setup, policy="random", game=game)
    return [Deal(scenario, i, seed) for i, seed in enumerate(seeds)]


def run(side: Player, the_deals: list[Deal], jobs: int, rev: str | None = None) -> tuple[list[bool], float]:
    """Wins by deal and CPU seconds in all; with ``rev``, played by that git revision's code."""
    if not rev:
        return play_deals(side, the_deals, jobs)
    d0 = the_deals[0]
    seeds = [d.seed for d in the_deals]
    parts = [seeds[i::jobs] for i in range(jobs)]
    setup = d0.scenario.setup
    results = _run_at(rev, [(d0.scenario.game, side.name, side.params, setup.players, setup.start_level, part)
                            for part in parts])
    wins: dict[int, bool] = {}
    for part, (w, _) in zip(parts, results, strict=True):
        wins.update(zip(part, w, strict=True))
    return [wins[s] for s in seeds], sum(c for _, c in results)


_AT_REV = """
import json, sys
from concurrent.futures import ProcessPoolExecutor
import time

def play(job):
    game, name, params, players, level, seeds = job
    if game == "desert":
        from fi_cli.desert.game import GameSetup
        from fi_cli.desert.play import play_game
        from fi_cli.desert.policies import make_policy
        setup = GameSetup(players=players, start_level=level)
    else:
        from fi_cli.island.game import GameSetup
        from fi_cli.island.layouts import get_layout
        from fi_cli.island.play import play_game
        from fi_cli.island.policies import make_policy
        setup = GameSetup(get_layout("forbidden_island"), start_level=level, players=players)
    policy = make_policy(name, params)
    t0 = time.process_time()
    wins = [play_game(setup, policy, seed).outcome == "win" for seed in seeds]
    return wins, time.process_time() - t0

if __name__ == "__main__":
    jobs = json.loads(sys.stdin.read())
    with ProcessPoolExecutor(len(jobs)) as pool:
        print(json.dumps(list(pool.map(play, jobs))))
"""


def _run_at(rev: str, jobs: list[tuple]) -> list[tuple[list[bool], float]]:
    """Play the jobs with the code of git revision ``rev``, checked out in a temporary worktree."""
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="fi-rev-") as tmp:
        tree = Path(tmp) / "tree"
        git = ["git", "-C", str(repo)]
        done = subprocess.run(git + ["worktree", "add", "--detach", str(tree), rev], capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"--a-rev/--b-rev: cannot check out {rev!r}: {done.stderr.strip()}")
        try:
            out = subprocess.run(
                [sys.executable, "-c", _AT_REV], input=json.dumps(jobs), capture_output=True, text=True,
                env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
            )  # fmt: skip
        finally:
            subprocess.run(git + ["worktree", "remove", "--force", str(tree)], capture_output=True)
    return [tuple(r) for r in json.loads(out.stdout)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(TILES), default="island")
    ap.add_argument("--a", default="heuristic")
    ap.add_argument("--b", default="planner")
    ap.add_argument("--a-param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--b-param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--a-rev", default=None, help="play A with the code of this git revision")
    ap.add_argument("--b-rev", default=None, help="play B with the code of this git revision")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="normal", help="a difficulty name or start level (default normal)")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=None,
                    help=f"first game seed (default {BENCHMARK.start}, or {TUNING_START} with --tuning)")
    ap.add_argument("--tuning", action="store_true",
                    help=f"play tuning seeds (outside {BENCHMARK.start}-{BENCHMARK.stop - 1}), to try ideas")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    try:
        difficulty_arg(args.game)(args.difficulty)
    except argparse.ArgumentTypeError as e:
        ap.error(f"argument --difficulty: {e}")
    level = TILES[args.game].parse_difficulty(args.difficulty)
    seeds = chosen_seeds(args.tuning, args.seed, args.games)
    print(f"command: {' '.join(['python'] + sys.argv)}")
    sides = [(Player(args.a, parse_params(args.a_param)), args.a_rev), (Player(args.b, parse_params(args.b_param)),
                                                                         args.b_rev)]  # fmt: skip
    for side, rev in sides:
        if rev is None:  # a revision's own policies are checked by its own code
            policy_or_usage_error(ap, standard_game(args.game)[2], side.name, side.params)
    the_deals = deals(args.game, args.players, level, seeds)
    played = [run(side, the_deals, args.jobs, rev) for side, rev in sides]
    result = paired(sides[0][0], sides[1][0], the_deals, *played)
    row = result.rows[0]
    for label, (side, rev), wins in (("A", sides[0], row.wins_a), ("B", sides[1], row.wins_b)):
        lo, hi = row.interval(wins)
        at = f" at {rev}" if rev else ""
        print(f"{label} {side.name}{at} {side.params or ''}: {wins}/{row.games} wins = {wins / row.games:.1%} "
              f"[{lo:.1%}, {hi:.1%}], {(row.seconds_a, row.seconds_b)[label == 'B']:.3f} s/game (CPU)")
    from scipy.stats import binomtest

    n = row.only_a + row.only_b
    one_sided = binomtest(row.only_b, n, 0.5, alternative="greater").pvalue if n else 1.0
    print(f"{args.players} players, {args.difficulty}, seeds {seeds[0]}-{seeds[-1]}: games only A won {row.only_a}, "
          f"only B won {row.only_b}; exact McNemar p = {row.p_value:.2g} (two-sided), {one_sided:.2g} (one-sided, "
          f"B better)")
    print(text_table(result))


if __name__ == "__main__":
    main()
