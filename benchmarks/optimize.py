"""Tune several weights of a policy at once: simultaneous-perturbation stochastic approximation (SPSA).

Each step moves every chosen weight by a random factor exp(+-sigma) (a random sign per weight), plays the
perturbed setting and its mirror image on the same fresh games (tune.py's six cells, new tuning seeds every
step: paired, so the deals cancel out) and moves the weights towards the better of the two, in proportion
to the difference in wins. Weights stay positive (the steps are taken on their logarithm). The state is
written after every step, so a run can be stopped and resumed (--resume). Seeds are tuning seeds only
(benchmarks/seeds.py); check the result afterwards with tune.py on seeds it has not seen.

    python benchmarks/optimize.py --steps 40 --games 150 --state /tmp/opt.json
    python benchmarks/optimize.py --resume --steps 40 --state /tmp/opt.json
    python benchmarks/optimize.py --game desert --cells 4:novice --steps 60 --games 250 --state /tmp/desert.json

For the Desert every weight of its heuristic is tuned but ``v_win`` (a win, not a trade-off).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor

from seeds import TUNING_START, tuning_range
from strength import play_cell  # the benchmark script beside this one
from tune import CELLS, parse_cells

from fi_cli.desert.policies.heuristic import DEFAULTS as DESERT_DEFAULTS
from fi_cli.island.policies.heuristic import DEFAULTS

TUNED = (
    "w_fools_landing", "w_treasure_last", "w_treasure_twin", "w_treasure_pair", "w_plain", "risk_top", "risk_soon",
    "risk_deep", "risk_discard", "risk_wr", "w_cap_dist", "w_cap_pull", "w_meet", "meet_full", "w_late_fl",
    "collector_room", "w_order", "w_give", "w_give_complete", "w_overflow", "w_near", "w_position",
    "heli_shore_min", "heli_shore_cost", "heli_move_min", "sandbag_threshold", "heli_rescue_cost", "keep_sandbags",
    "w_cap_pre", "w_end_dist", "heli_last_cost", "keep_heli", "keep_heli_extra", "keep_team", "keep_set", "keep_base",
    "keep_own", "keep_collector", "keep_scarce", "w_play_sandbags", "w_swim_flooded",
)  # fmt: skip


def wins(pool: ProcessPoolExecutor, weights: list[dict], games: int, seed: int, game: str = "island",
         cells: list[tuple[int, str]] | None = None) -> list[int]:
    cells = cells or CELLS[game]
    jobs = [(game, "heuristic", w, pl, d, games, seed) for w in weights for pl, d in cells]
    res = list(pool.map(play_cell, jobs))
    return [sum(r["wins"] for r in res[i * len(cells) : (i + 1) * len(cells)]) for i in range(len(weights))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="JSON file of the run's state (written after every step)")
    ap.add_argument("--resume", action="store_true", help="go on from the state file")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--games", type=int, default=150, help="games per cell for each of the two settings of a step")
    ap.add_argument("--sigma", type=float, default=0.15, help="size of the perturbation (log scale)")
    ap.add_argument("--rate", type=float, default=0.3, help="step size times the gradient estimate")
    ap.add_argument("--seed", type=int, default=TUNING_START, help="first seed of the first step")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--game", choices=sorted(CELLS), default="island")
    ap.add_argument("--cells", metavar="PLAYERS:LEVEL,...", help="play only these cells (as tune.py --cells)")
    args = ap.parse_args()
    cells = parse_cells(ap, args.game, args.cells) if args.cells else CELLS[args.game]
    defaults = DEFAULTS if args.game == "island" else DESERT_DEFAULTS
    tuned = TUNED if args.game == "island" else tuple(k for k in DESERT_DEFAULTS if k != "v_win")
    if args.resume:
        with open(args.state) as f:
            st = json.load(f)
        for k in tuned:  # weights added to the list since the state was written start at their defaults
            if k not in st["log"] and defaults[k] > 0:
                st["log"][k] = math.log(defaults[k])
    else:
        st = {"step": 0, "seed": args.seed, "log": {k: math.log(defaults[k]) for k in tuned if defaults[k] > 0}}
    rng = random.Random(f"spsa-{st['step']}-{st['seed']}")
    with ProcessPoolExecutor(args.jobs) as pool:
        for _ in range(args.steps):
            names = sorted(st["log"])
            signs = {k: rng.choice((-1.0, 1.0)) for k in names}
            plus = {k: math.exp(st["log"][k] + args.sigma * signs[k]) for k in names}
            minus = {k: math.exp(st["log"][k] - args.sigma * signs[k]) for k in names}
            tuning_range(st["seed"], args.games)
            wp, wm = wins(pool, [plus, minus], args.games, st["seed"], args.game, cells)
            share = (wp - wm) / (args.games * len(cells))
            for k in names:  # the gradient estimate along the signs, in log-weight units
                st["log"][k] += args.rate * share / (2 * args.sigma) * signs[k]
            st["step"] += 1
            st["seed"] += args.games
            weights = {k: round(math.exp(v), 4) for k, v in sorted(st["log"].items())}
            print(f"step {st['step']}: +{wp} -{wm} (seeds {st['seed'] - args.games}..) -> {json.dumps(weights)}")
            st["weights"] = weights
            with open(args.state, "w") as f:
                json.dump(st, f, indent=1)


if __name__ == "__main__":
    main()
