"""Long invariant soak: play many games with every check of tests/invariants.py after every step.

    python benchmarks/soak.py                       # 1,000,000 steps, random + eager test players
    python benchmarks/soak.py --steps 5000000 --seed 7 --roundtrip-every 50
    python benchmarks/soak.py --game desert         # Forbidden Desert, the checks of tests/desert_invariants.py

Island games cycle through player counts, start levels 1-9, every built-in island plus a pinned and a split
island, and every rule variant; Desert games through 2-5 players, the four difficulties (and the meter's
last mark), every variant and teams with a Meteorologist or a Climber. Prints what it checked, the endings
met and the speed; exits non-zero (with the seed and step of the failure) if any invariant breaks.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def island():
    """(the invariants module, new_game, the setup of game i, what the games cover)."""
    import invariants

    from fi_cli.island.game import GameSetup, new_game
    from fi_cli.island.layouts import BUILTIN_LAYOUTS, get_layout
    from fi_cli.island.rules import Rules

    layouts = [get_layout(x) for x in sorted(BUILTIN_LAYOUTS)] + [invariants.PINNED, invariants.SPLIT]

    def setup_for(i: int) -> GameSetup:
        return GameSetup(layouts[i % len(layouts)], start_level=1 + i % 9, players=2 + i % 3,
                         rules=Rules.from_dict(invariants.VARIANTS[i % len(invariants.VARIANTS)]))  # fmt: skip

    covers = f"islands: {len(layouts)}, variant sets: {len(invariants.VARIANTS)}, start levels 1-9, 2-4 players"
    return invariants, new_game, setup_for, covers


def desert():
    import desert_invariants

    from fi_cli.desert.game import new_game

    covers = f"Forbidden Desert: 2-5 players, 4 difficulties, variant sets: {len(desert_invariants.VARIANTS)}"
    return desert_invariants, new_game, desert_invariants.varied_setup, covers


def describe(setup) -> str:
    where = f"{setup.layout.id}, " if hasattr(setup, "layout") else ""
    return f"{where}level {setup.start_level}, {setup.players} players, {setup.rules.to_dict()}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("island", "desert"), default="island")
    ap.add_argument("--steps", type=int, default=1_000_000, help="actions to apply in all (default 1,000,000)")
    ap.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    ap.add_argument("--roundtrip-every", type=int, default=25,
                    help="also check copy() and the position round trip every N steps (default 25)")
    args = ap.parse_args()
    checks, new_game, setup_for, covers = desert() if args.game == "desert" else island()

    import random

    endings: Counter[str] = Counter()
    steps = games = 0
    max_turn = 0
    start = time.perf_counter()
    game = args.seed
    while steps < args.steps:
        setup = setup_for(game)
        chooser = checks.eager if game % 2 else checks.uniform
        s = new_game(setup, game)
        rng = random.Random(game ^ 0x5EED)
        try:
            snap = checks.check_state(s)
            n = 0
            while s.outcome is None:
                s.apply(chooser(s, s.legal_actions(), rng))
                n += 1
                snap = checks.check_state(s, snap)
                if n % args.roundtrip_every == 0:
                    checks.check_copy(s)
                    checks.check_roundtrip(s)
                if n > 200_000:
                    raise AssertionError("the game does not end")
        except AssertionError:
            traceback.print_exc()
            print(f"FAILED: game seed {game} ({describe(setup)}, {chooser.__name__} player) at step {n}",
                  file=sys.stderr)
            return 1
        steps += n
        games += 1
        max_turn = max(max_turn, s.turn)
        endings[s.loss_cause or s.outcome] += 1
        game += 1
        if games % 2000 == 0:
            print(f"  {games:,} games, {steps:,} steps, {time.perf_counter() - start:.0f}s", file=sys.stderr)
    elapsed = time.perf_counter() - start
    print(f"soak: {steps:,} steps in {games:,} games (seeds {args.seed}-{game - 1}), {elapsed:.1f}s, "
          f"{steps / elapsed:,.0f} checked steps/s")
    print(f"  {covers}; longest game {max_turn} turns")
    print("  endings: " + ", ".join(f"{k} {v:,}" for k, v in endings.most_common()))
    print("  checked after every step:")
    for c in checks.CHECKS:
        print(f"    - {c}")
    print(f"    - plus copy() and position to_dict/from_dict round trip every {args.roundtrip_every} steps")
    print("  all invariants held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
