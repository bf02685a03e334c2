"""What limits a Desert policy: its win rate when the game is eased in one way at a time.

Each relaxation changes one rule in this process only (the package is untouched), on the same tuning seeds:

- ``none``: the rules as they are (the reference);
- ``water``: Sun Beats Down costs nobody water (the team never goes thirsty);
- ``gather``: water found is shared at once: a well's 2 water and the Secret Water Reserve's reach every pawn,
  wherever it stands (what perfect gathering of the team on a well would bring, without the walk);
- ``near``: a well's 2 water and the Secret Water Reserve's reach also the pawns on the tiles orthogonally next
  to it (what a team that stands close, but not on the tile, misses);
- ``sand``: the sand supply never runs out (a marker the supply lacks is simply not placed);
- ``pool``: the team's water is shared out as evenly as the canteens allow before every Sun Beats Down,
  wherever the pawns stand (perfect sharing without the walks: nobody runs dry while another holds water).

A relaxation that lifts the win rate a lot shows where the policy's next gains are; one that lifts it little
shows what is not worth working on. Tuning seeds (benchmarks/seeds.py): a diagnostic, not a published figure.
The games run in pure Python (the script restarts itself with ``FI_PURE_PYTHON=1`` if need be): a compiled
engine calls its own methods directly, past a patch, and a relaxation would change nothing.

    python benchmarks/desert_limits.py --players 4 --difficulty novice --games 400
    python benchmarks/desert_limits.py --players 2 --games 400 --relax none water
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from seeds import TUNING_START, tuning_range
from strength import play_cell  # the benchmark script beside this one

RELAX = ("none", "water", "gather", "near", "sand", "pool")


def relax(name: str, patch=setattr) -> None:
    """Change one rule of the Desert engine in this process (``patch``: how an attribute is set; a test passes
    pytest's monkeypatch.setattr to undo it)."""
    from fi_cli.desert.engine import GameState
    from fi_cli.desert.tiles import CANTEEN, ORTH

    if name == "water":
        patch(GameState, "_sun", lambda self: None)
    elif name in ("gather", "near"):
        give = GameState._give_all

        def spread(self, x: int, amount: int) -> None:
            cells = set(self.pos) if name == "gather" else {x, *ORTH[x]} & set(self.pos)
            for c in cells:
                give(self, c, amount)

        patch(GameState, "_give_all", spread)
    elif name == "pool":
        sun = GameState._sun

        def shared_first(self) -> None:
            water, room = self.water, [CANTEEN[r] for r in self.roles]
            while True:  # one water at a time from the fullest canteen to the emptiest one with room
                rich = max(range(self.n), key=water.__getitem__)
                poor = min((q for q in range(self.n) if water[q] < room[q]), key=water.__getitem__, default=rich)
                if water[rich] - water[poor] < 2:
                    break
                water[rich] -= 1
                water[poor] += 1
            sun(self)

        patch(GameState, "_sun", shared_first)
    elif name == "sand":
        lose = GameState._lose

        def keep_going(self, cause: str) -> None:
            if cause != "buried":
                lose(self, cause)

        patch(GameState, "_lose", keep_going)


def play(job: tuple) -> tuple[str, int, Counter, float]:
    """Play one relaxation's games in this (fresh) process: (name, wins, loss causes, seconds)."""
    name, policy_name, players, difficulty, games, seed0 = job
    relax(name)
    cell = play_cell(("desert", policy_name, {}, players, difficulty, games, seed0))
    return name, cell["wins"], Counter(cell["causes"]), cell["seconds"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--players", type=int, default=4, choices=range(2, 6))
    ap.add_argument("--difficulty", default="novice", choices=("novice", "normal", "elite", "legendary"))
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=TUNING_START, help="first seed (a tuning seed)")
    ap.add_argument("--relax", nargs="+", choices=RELAX, default=list(RELAX))
    ap.add_argument("--jobs", type=int, default=1, help="processes (one relaxation each)")
    args = ap.parse_args()
    from fi_cli import native

    if native.compiled():  # run again on the engine's source, where the patches of ``relax`` take effect
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "FI_PURE_PYTHON": "1"})
    tuning_range(args.seed, args.games)  # refuses benchmark seeds
    print(f"policy {args.policy}, {args.players} players, {args.difficulty}, {args.games} games a relaxation, "
          f"tuning seeds {args.seed}..{args.seed + args.games - 1}")  # fmt: skip
    jobs = [(r, args.policy, args.players, args.difficulty, args.games, args.seed) for r in args.relax]
    with ProcessPoolExecutor(max_workers=args.jobs, max_tasks_per_child=1) as pool:  # a fresh process each
        for name, wins, causes, dt in pool.map(play, jobs):
            lost = ", ".join(f"{c} {k / args.games:.1%}" for c, k in causes.most_common())
            print(f"  {name:7s} wins {wins:4d}/{args.games} = {wins / args.games:6.1%}   lost: {lost}   ({dt:.0f} s)")


if __name__ == "__main__":
    main()
