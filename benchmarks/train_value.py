"""Fit a search's value model: P(win | position features) from heuristic self-play.

    python benchmarks/train_value.py --games 6000 --seed 1        # writes the island's value_weights.json
    python benchmarks/train_value.py --game desert --games 3000 --seed 490000   # the Desert's

Positions are taken at the start of every player-turn of games on the standard board (2-4 players on the
island, 2-5 in the Desert, the four difficulties, random roles), each labelled with how its game ended. A
logistic regression with a small L2 penalty is fitted by Newton's method; the held-out log-loss and accuracy
are printed and stored.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np
from seeds import is_benchmark  # the seed ranges, beside this script

from fi_cli.common.play import LegalActions, choose
from fi_cli.seeding import policy_seed


def game_kit(game: str):
    """(setup from a generator, new_game, heuristic, value model, turn start) of a game."""
    if game == "desert":
        from fi_cli.desert.engine import ACTIONS
        from fi_cli.desert.game import GameSetup, new_game
        from fi_cli.desert.policies import make_policy
        from fi_cli.desert.policies.value import MODEL
        from fi_cli.desert.tiles import ACTIONS_PER_TURN

        def setup(rng: random.Random):
            return GameSetup(players=rng.randint(2, 5), start_level=rng.randint(1, 4))
    else:
        from fi_cli.island.engine import ACTIONS
        from fi_cli.island.game import GameSetup, new_game
        from fi_cli.island.layouts import get_layout
        from fi_cli.island.policies import make_policy
        from fi_cli.island.policies.value import MODEL

        ACTIONS_PER_TURN = 3

        def setup(rng: random.Random):
            return GameSetup(get_layout("forbidden_island"), start_level=rng.randint(1, 4), players=rng.randint(2, 4))

    turn_start = (ACTIONS, ACTIONS_PER_TURN)
    return setup, new_game, make_policy("heuristic"), MODEL, turn_start


def collect(game: str, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    setup, new_game, policy, model, turn_start = game_kit(game)
    xs, ys, gs = [], [], []
    for g in range(games):
        s_setup = setup(rng)
        game_seed = rng.getrandbits(63)
        while is_benchmark(game_seed):  # never train on a game a published figure is measured on
            game_seed = rng.getrandbits(63)
        s = new_game(s_setup, game_seed)
        policy.reset(policy_seed(game_seed))  # its own seed, never the game's (the heuristic has no randomness)
        rows = []
        while s.outcome is None:
            if (s.phase, s.actions_left) == turn_start:
                rows.append(model.features(s))
            s.apply(choose(policy, s, LegalActions(s)))  # listed only if the policy looks, as in play_game
        xs.extend(rows)
        ys.extend([1.0 if s.outcome == "win" else 0.0] * len(rows))
        gs.extend([g] * len(rows))
    return np.array(xs, dtype=float), np.array(ys), np.array(gs)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 50) -> np.ndarray:
    w = np.zeros(x.shape[1])
    scale = np.maximum(np.abs(x).max(axis=0), 1.0)  # fit on scaled columns for stable steps
    xs = x / scale
    reg = l2 * len(y) * np.eye(x.shape[1])
    reg[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(xs @ w, -30, 30)))
        grad = xs.T @ (p - y) + reg @ w
        hess = (xs * (p * (1 - p))[:, None]).T @ xs + reg + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w / scale


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30))), 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()), float(((p > 0.5) == (y > 0.5)).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("island", "desert"), default="island")
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="default: the game's value_weights.json in the package")
    args = ap.parse_args()
    model = game_kit(args.game)[3]
    out = args.out or str(model.path)
    t0 = time.perf_counter()
    x, y, g = collect(args.game, args.games, args.seed)
    held = g % 5 == 0  # every fifth game is held out
    w = fit(x[~held], y[~held])
    loss, acc = log_loss(w, x[held], y[held])
    base = float(y[~held].mean())
    base_loss = -(base * np.log(base) + (1 - base) * np.log(1 - base)) if 0 < base < 1 else 0.0
    print(f"command: {' '.join(['python'] + sys.argv)}")
    took = time.perf_counter() - t0
    print(f"{args.games} heuristic games, {len(y)} positions, win share {y.mean():.3f}, {took:.0f} s")
    print(f"held-out log-loss {loss:.4f} (constant model {base_loss:.4f}), accuracy {acc:.3f}")
    for name, v in zip(model.names, w, strict=True):
        print(f"  {name:<18} {v:+.4f}")
    doc = {
        "features": list(model.names),
        "weights": [round(float(v), 6) for v in w],
        "made_by": f"python benchmarks/train_value.py --game {args.game} --games {args.games} --seed {args.seed}",
        "positions": int(len(y)),
        "held_out_log_loss": round(loss, 4),
        "held_out_accuracy": round(acc, 4),
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
