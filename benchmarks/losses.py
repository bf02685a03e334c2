"""How a policy loses: each loss cause by the progress made when the game was lost (treasures captured on the
island, parts collected in the Desert).

Shows where a player's next gains are: losses with no treasure captured are lost races against the early
flood; losses after all four treasures are lost endgames (the team did not reach Fools' Landing and lift
off in time). Also prints, for games that captured all four treasures, how many turns later they ended and
how many were won by the Helicopter Lifts the team held at the fourth capture, by the pawns that could not
walk to Fools' Landing then, by whether the capturer was one of them, carried to its treasure's tile by a lift
(it needs another to get home), and by the tiles sunk then (in the Desert, by the water of the driest pawn at
the fourth part), and with several difficulties a summary table (the win rate, the losses after all four
treasures were captured, with three captured, and to the water) over them. In the Desert the same for the
four parts, and how many losses came with every part found and the Launch Pad known (only the last pickups
and the walk to the Launch Pad were left), and how many thirst losses came with one pawn alone dry, beside the
water the others held (water the team did not bring together). Benchmark seeds by default, like strength.py;
``--tuning`` plays tuning seeds (benchmarks/seeds.py) to try ideas.

    python benchmarks/losses.py --policy heuristic --players 4 --difficulty normal --games 2000 --jobs 2
    python benchmarks/losses.py --players 4 --difficulty novice normal elite legendary --games 2000 --jobs 2
    python benchmarks/losses.py --tuning --param w_fools_landing=12 --games 1000
    python benchmarks/losses.py --game desert --difficulty novice --tuning --games 600 --jobs 2
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from seeds import BENCHMARK, TUNING_START, chosen_seeds
from strength import game_count, parse_params, policy_or_usage_error, standard_game  # beside this one

from fi_cli.desert import tiles as desert_tiles
from fi_cli.island import tiles as island_tiles
from fi_cli.island.actions import CAPTURE, FLY, HELI_PLAY, MOVE, NAVIGATE, SWIM
from fi_cli.island.policies.heuristic import DEFAULTS as HEURISTIC_DEFAULTS
from fi_cli.island.policies.heuristic_eval import Context
from fi_cli.island.policies.heuristic_geom import Geometry

# per game: what four things are gathered, and the loss cause counted on its own in the summary
GATHERED = {"island": ("treasures", "captured"), "desert": ("parts", "collected")}
WATCH = {"island": ("water_level", "water reached the skull"), "desert": ("thirst", "a pawn died of thirst")}
TILES = {"island": island_tiles, "desert": desert_tiles}


class Game(NamedTuple):
    """One game as this script reads it: how it ended, the things gathered, the turns from the fourth to the end
    (None if never four), whether only the last stretch was left (the Desert: every part found and the
    Launch Pad known when the game ended; the island: all four treasures captured), and what the team held
    at its first decision with all four (see HELD; None if never four). In the Desert, ``alone``: the water the
    other pawns held at the last decision when one pawn alone was at 0 or 1 (a thirst loss then is a pawn that
    died beside water the team could have shared; None otherwise)."""

    end: str
    gathered: int
    after: int | None
    open_end: bool
    held: int | None = None
    stranded: int | None = None
    lifted: bool | None = None  # the island: the fourth capturer could not walk home and had come by a lift
    sunk: int | None = None  # the island: tiles sunk then
    alone: int | None = None


def _lifts(s) -> int:
    return sum(h[island_tiles.HELICOPTER_LIFT] for h in s.hands)


def _stranded(s) -> list[int]:
    """Pawns that cannot walk (the Explorer diagonally too, the Diver through water) to Fools' Landing: they
    need a Helicopter Lift to get home. The Pilot flies, so is never counted (the heuristic's own reading)."""
    geo = Geometry()
    geo.update(s)
    return Context(s, HEURISTIC_DEFAULTS, geo).stranded()


# what the endgame is read by: (label, all four gathered?, what the team holds then)
HELD = {
    "island": ("Helicopter Lifts in hand", lambda s: s.captured == 0b1111, _lifts),
    "desert": ("water of the driest pawn", lambda s: s.parts_collected() == 4, lambda s: min(s.water)),
}


class _Watch:
    """The policy, watched: what the team held (HELD) at the first decision with all four gathered, and on the
    island how many pawns were stranded away from Fools' Landing then, whether the fourth capturer was one of
    them carried to its treasure by a Helicopter Lift, and how many tiles had sunk."""

    def __init__(self, policy, game: str) -> None:
        self.policy = policy
        self.game = game
        _, self.four, self.count = HELD[game]
        self.reset_watch()

    def reset_watch(self) -> None:
        self.held: int | None = None
        self.stranded: int | None = None
        self.lifted: bool | None = None
        self.sunk: int | None = None
        self.water: list[int] = []  # the Desert: each pawn's water at the last decision
        self.by_lift = [False] * 4  # whether each pawn's last move was a Helicopter Lift
        self.capturer = -1

    def reset(self, seed: int) -> None:
        self.policy.reset(seed)
        self.reset_watch()

    def choose(self, state, legal):
        if self.held is None and self.four(state):
            self.held = self.count(state)
            if self.game == "island":
                stranded = _stranded(state)
                self.stranded = len(stranded)
                self.lifted = self.capturer in stranded and self.by_lift[self.capturer]
                self.sunk = state.tiles.count(island_tiles.SUNK)
        if self.game == "desert":
            self.water = list(state.water)
        a = self.policy.choose(state, legal)
        if self.game == "island" and self.held is None:
            self._note(a)
        return a

    def _note(self, a: tuple) -> None:
        """Who moved how, and who captured (island actions, read before the fourth capture)."""
        kind = a[0]
        if kind == HELI_PLAY:
            for q in range(4):
                if a[2] >> q & 1:
                    self.by_lift[q] = True
        elif kind in (MOVE, FLY, SWIM):
            self.by_lift[a[1]] = False
        elif kind == NAVIGATE:
            self.by_lift[a[2]] = False
        elif kind == CAPTURE:
            self.capturer = a[1]


def difficulty_arg(game: str):
    """An argparse type for the game: a difficulty name or start level, checked (a clear error, no traceback)."""

    def check(value: str) -> str:
        try:
            TILES[game].parse_difficulty(value)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return value

    return check


def _play(job: tuple) -> list[Game]:
    game, name, params, players, level, seeds = job
    make_setup, play_game, make_policy = standard_game(game)
    setup, policy = make_setup(players, level), _Watch(make_policy(name, params), game)
    return [_read(game, play_game(setup, policy, seed), policy) for seed in seeds]


def _read(game: str, r, watch: _Watch | None = None) -> Game:
    """A game's record as this script reads it (with what ``watch`` saw at the fourth)."""
    if game == "desert":
        gathered = r.parts_collected
        open_end = r.parts_found == 4 and any(t.kind == "launch_pad" for t in r.tile_rows)
        t4 = next((row.turn for row in r.turn_rows if row.parts_collected == 4), None)
    else:
        gathered = r.treasures_captured
        open_end = gathered == 4
        t4 = next((row.turn for row in r.turn_rows if row.treasures_captured == 4), None)
    seen = (watch.held, watch.stranded, watch.lifted, watch.sunk, _alone(watch.water)) if watch else ()
    return Game(r.loss_cause or r.outcome, gathered, None if t4 is None else r.turns - t4, open_end, *seen)


def _alone(water: list[int]) -> int | None:
    """The water the other pawns hold when one pawn alone holds 0 or 1 (see ``Game.alone``), else None."""
    dry = [u for u in water if u <= 1]
    return sum(water) - dry[0] if len(dry) == 1 else None


def _by(games: list[Game], field: str, label: str, group=lambda v: "2+" if v >= 2 else str(v)) -> None:
    """Print how many of the games were won by what was read at the fourth capture, in the groups ``group``
    names (by default a count, 2 or more together)."""
    seen = [(group(getattr(g, field)), g.end == "win") for g in games if getattr(g, field) is not None]
    if seen:
        played, won = Counter(k for k, _ in seen), Counter(k for k, w in seen if w)
        print(f"{label}: " + ", ".join(f"{k}: {won[k]}/{played[k]} won" for k in sorted(played)))


def _sunk_group(n: int) -> str:
    return "0-11" if n < 12 else "12-15" if n < 16 else "16+"


def report(game: str, games: list[Game]) -> dict[str, float]:
    """Print the table of one difficulty; return its summary shares."""
    things, verb = GATHERED[game]
    causes = TILES[game].LOSS_CAUSES
    n = len(games)
    wins = sum(1 for g in games if g.end == "win")
    print(f"won {wins} ({wins / n:.1%})\n")
    table = Counter((g.end, g.gathered) for g in games if g.end != "win")
    print("| loss cause | " + " | ".join(f"{k} {verb}" for k in range(5)) + " | all |")
    print("|---|" + "---:|" * 6)
    for cause in causes:
        row = [table[cause, k] for k in range(5)]
        print(f"| {cause} | " + " | ".join(f"{c / n:.1%}" for c in row) + f" | {sum(row) / n:.1%} |")
    late = [g for g in games if g.after is not None]
    lost = [g.after for g in late if g.end != "win"]
    print(f"\n{len(late)} games {verb} all four {things}; {len(lost)} of them were lost after that "
          f"({len(lost) / max(1, len(late)):.1%}), {len(lost) / n:.1%} of all games.")  # fmt: skip
    after = Counter(min(a, 5) for a in lost)
    print(f"turns from the fourth {things[:-1]} {verb} to the loss: " + ", ".join(
        f"{'5+' if k == 5 else k}: {after[k]}" for k in range(6)))  # fmt: skip
    _by(late, "held", f"games with all four {things} {verb}, by the {HELD[game][0]} then")
    _by(late, "stranded", "by the pawns that could not walk to Fools' Landing then (the Pilot flies)")
    _by(late, "lifted", "by whether the fourth capturer was one of them, carried to its treasure by a Helicopter "
        "Lift", lambda v: "yes" if v else "no")  # fmt: skip
    _by(late, "sunk", "by the tiles sunk then", _sunk_group)
    watch, watch_label = WATCH[game]
    summary = {
        "wins": wins / n,
        f"lost after all four {things} were {verb}": len(lost) / n,
        f"lost with three {things} {verb}": sum(table[c, 3] for c in causes) / n,
        watch_label: sum(table[watch, k] for k in range(5)) / n,
    }
    if game == "desert":
        open_end = sum(1 for g in games if g.end != "win" and g.open_end)
        print(f"lost with every part found and the Launch Pad known: {open_end} ({open_end / n:.1%} of all games)")
        summary["lost with every part found and the Launch Pad known"] = open_end / n
        thirst = [g for g in games if g.end == "thirst"]
        alone = [g.alone for g in thirst if g.alone is not None]
        mean = f"; the others held {sum(alone) / len(alone):.1f} water then, on average" if alone else ""
        print(f"lost to thirst with one pawn alone at 0-1 water at the last decision: {len(alone)} of "
              f"{len(thirst)} thirst losses ({len(alone) / n:.1%} of all games){mean}")  # fmt: skip
        summary["lost to thirst, one pawn alone dry"] = len(alone) / n
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(GATHERED), default="island")
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", nargs="+", default=["normal"], help="one or more difficulties")
    ap.add_argument("--games", type=game_count, default=2000, help="games per difficulty")
    ap.add_argument("--seed", type=int, default=None,
                    help=f"first game seed (default {BENCHMARK.start}, or {TUNING_START} with --tuning)")
    ap.add_argument("--tuning", action="store_true", help="play tuning seeds, to try ideas")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    check = difficulty_arg(args.game)
    try:
        for difficulty in args.difficulty:
            check(difficulty)
    except argparse.ArgumentTypeError as e:
        ap.error(f"argument --difficulty: {e}")
    params = parse_params(args.param)
    policy_or_usage_error(ap, standard_game(args.game)[2], args.policy, params)
    seeds = chosen_seeds(args.tuning, args.seed, args.games)
    summary = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for difficulty in args.difficulty:
            level = TILES[args.game].parse_difficulty(difficulty)
            parts = [seeds[i :: args.jobs] for i in range(args.jobs)]
            jobs = [(args.game, args.policy, params, args.players, level, part) for part in parts]
            games = [g for part in pool.map(_play, jobs) for g in part]
            print(f"policy {args.policy} {params or '(default parameters)'}; {args.players} players, {difficulty}, "
                  f"{len(games)} games, seeds {seeds[0]}-{seeds[-1]}")  # fmt: skip
            summary[difficulty] = report(args.game, games)
            print()
    if len(summary) > 1:
        print(f"| {args.players} players | " + " | ".join(d.capitalize() for d in summary) + " |")
        print("|---|" + "---:|" * len(summary))
        for key in next(iter(summary.values())):
            print(f"| {key} | " + " | ".join(f"{s[key]:.1%}" for s in summary.values()) + " |")


if __name__ == "__main__":
    main()
