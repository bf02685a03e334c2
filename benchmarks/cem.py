"""Tune every weight of a heuristic at once with the cross-entropy method, on tuning seeds.

Each generation draws ``--pop`` settings around the current mean (each weight times exp(N(0, sigma)), its own
sigma), the mean itself among them, and plays all of them on the same fresh games (every cell of ``--cells``,
``--games`` games each, new tuning seeds every generation: paired, so the deals cancel out). The mean and the
sigmas move to the ``--elite`` settings that won most. A sigma never falls below ``--floor``, so that the noise
of a few hundred games cannot freeze a weight early. Weights stay positive; ``v_win`` (a win, not a trade-off),
the Desert's ``late_mark`` (a storm mark), its ``nav_ride`` and ``jet_walk`` (rules used or not) and weights that
are 0 are left alone. Every setting is given whole, so the Desert heuristic plays it throughout: a team's
late-storm table (heuristic.LATE_STORM) is not in play, unless ``--late PLAYERS`` tunes that table alone (from
the team's current one; the early weights stay its defaults). The state is written after every generation
(``--resume`` goes on from it). Check the result afterwards with tune.py on seeds the run has not seen, and the
published figures with strength.py on the benchmark seeds.

    python benchmarks/cem.py --game desert --cells 4:novice,4:normal,2:normal --games 500 --state /tmp/cem.json
    python benchmarks/cem.py --resume --gens 10 --state /tmp/cem.json
    python benchmarks/cem.py --game desert --start '{"v_pick": 20}' --state /tmp/cem2.json   # another mean
    python benchmarks/cem.py --game desert --late 4 --cells 4:novice,4:normal --state /tmp/late4.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from optimize import wins  # beside this script
from seeds import tuning_range
from strength import LATE
from tune import CELLS, parse_cells


def defaults_of(game: str) -> dict[str, float]:
    if game == "desert":
        from fi_cli.desert.policies.heuristic import DEFAULTS as DESERT

        return DESERT
    from fi_cli.island.policies.heuristic import DEFAULTS as ISLAND

    return ISLAND


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="JSON file of the run's state (written after every generation)")
    ap.add_argument("--resume", action="store_true", help="go on from the state file")
    ap.add_argument("--game", choices=sorted(CELLS), default="desert")
    ap.add_argument("--cells", metavar="PLAYERS:LEVEL,...", help="the cells played (as tune.py --cells; with --resume "
                    "the run's own)")
    ap.add_argument("--gens", type=int, default=20, help="generations to run")
    ap.add_argument("--pop", type=int, default=24, help="settings a generation (the mean among them)")
    ap.add_argument("--elite", type=int, default=6, help="the best settings the mean moves to")
    ap.add_argument("--games", type=int, help="games per cell for each setting of a generation (default 500; with "
                    "--resume the run's own)")
    ap.add_argument("--sigma", type=float, default=0.25, help="first spread of each weight (log scale)")
    ap.add_argument("--floor", type=float, default=0.08, help="the least spread of a weight (log scale)")
    ap.add_argument("--seed", type=int, default=4_000_000, help="first game seed of the first generation")
    ap.add_argument("--start", default="{}", help="JSON object of weights the first mean takes (else the defaults)")
    ap.add_argument("--late", type=int, metavar="PLAYERS", help="tune the Desert late-storm table of this team size "
                    "alone (heuristic.LATE_STORM, played from the storm's mark late_mark on): its early weights stay "
                    "the team's defaults; every cell must be of this size")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    defaults = defaults_of(args.game)
    if args.resume:  # the run goes on with its own cells and games (given again, they must be the same)
        with open(args.state) as f:
            st = json.load(f)
        if args.cells and [f"{p}:{d}" for p, d in parse_cells(ap, args.game, args.cells)] != st["cells"]:
            ap.error(f"--cells: the run plays {','.join(st['cells'])}")
        if args.games is not None and args.games != st["games"]:
            ap.error(f"--games: the run plays {st['games']} games a cell")
        args.cells, args.games = ",".join(st["cells"]), st["games"]
        if args.late is not None and args.late != st.get("late"):
            tuned = "every weight" if st.get("late") is None else f"the late-storm table of {st['late']} players"
            ap.error(f"--late: the run tunes {tuned}")
        args.late = st.get("late")
    args.games = 500 if args.games is None else args.games
    cells = parse_cells(ap, args.game, args.cells) if args.cells else CELLS[args.game]
    if args.late is not None:
        if args.game != "desert" or any(p != args.late for p, _ in cells):
            ap.error(f"--late {args.late}: a Desert team's table; every cell of --cells must be of {args.late} players")
        from fi_cli.desert.policies.heuristic import BY_PLAYERS, LATE_STORM

        defaults = {**defaults, **BY_PLAYERS.get(args.late, {}), **LATE_STORM.get(args.late, {})}
    prefix = "" if args.late is None else LATE
    if not args.resume:
        start = {**defaults, **json.loads(args.start)}
        # v_win is a win, not a trade-off; late_mark is a storm mark that switches weight tables, nav_ride and
        # jet_walk rules the player uses or not: none is a weight
        switches = ("v_win", "late_mark", "nav_ride", "jet_walk")
        names = sorted(k for k in defaults if k not in switches and start[k] > 0)
        st = {"gen": 0, "seed": args.seed, "cells": [f"{p}:{d}" for p, d in cells], "games": args.games,
              "late": args.late, "mean": {k: math.log(start[k]) for k in names},
              "sigma": {k: args.sigma for k in names}, "log": []}
    names = sorted(st["mean"])
    rng = random.Random(f"cem-{st['seed']}-{st['gen']}")
    with ProcessPoolExecutor(args.jobs) as pool:
        for _ in range(args.gens):
            seed = st["seed"] + st["gen"] * args.games
            tuning_range(seed, args.games)
            logs = [dict(st["mean"])]
            logs += [{k: st["mean"][k] + rng.gauss(0.0, st["sigma"][k]) for k in names} for _ in range(args.pop - 1)]
            t0 = time.time()
            scores = wins(pool, [{prefix + k: math.exp(v) for k, v in lw.items()} for lw in logs], args.games, seed,
                          args.game, cells)  # fmt: skip
            order = sorted(range(len(logs)), key=lambda i: (-scores[i], i))
            elite = [logs[i] for i in order[: args.elite]]
            for k in names:
                mean = sum(e[k] for e in elite) / len(elite)
                spread = math.sqrt(sum((e[k] - mean) ** 2 for e in elite) / len(elite))
                st["mean"][k] = mean
                st["sigma"][k] = max(args.floor, 0.7 * spread + 0.3 * st["sigma"][k])
            st["gen"] += 1
            elite_mean = round(sum(scores[i] for i in order[: args.elite]) / args.elite, 1)
            row = {"gen": st["gen"], "seeds": f"{seed}-{seed + args.games - 1}", "mean_wins": scores[0],
                   "best": scores[order[0]], "elite": elite_mean,
                   "average": round(sum(scores) / len(scores), 1), "of": args.games * len(cells),
                   "seconds": round(time.time() - t0)}  # fmt: skip
            st["log"].append(row)
            st["weights"] = {k: round(math.exp(v), 4) for k, v in sorted(st["mean"].items())}
            with open(args.state, "w") as f:
                json.dump(st, f, indent=1)
            print(json.dumps(row), flush=True)
    print(json.dumps(st["weights"]))


if __name__ == "__main__":
    main()
