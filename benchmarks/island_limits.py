"""What limits an island policy's endgame: its win rate when the game is eased in one way at a time.

Each relaxation changes one rule in this process only (the package is untouched), on the same tuning seeds, and
all but ``none`` only once the fourth treasure is captured: they split the games lost after that (issue 14's
endgame) by what would have saved them.

- ``none``: the rules as they are (the reference);
- ``lift``: the take-off needs no Helicopter Lift card (the team lifts off as soon as every pawn stands on Fools'
  Landing);
- ``home``: the fourth capture carries every pawn to Fools' Landing (perfect gathering; the take-off still
  needs a lift);
- ``others``: the fourth capture carries every pawn but the capturer to Fools' Landing (the team-mates waiting
  there already);
- ``capturer``: the fourth capture carries the capturer to Fools' Landing (the others walk home as they would);
- ``fools_landing``: Fools' Landing cannot sink (its flood card drawn while it is flooded leaves it flooded);
- ``water``: the water stops one mark short of the skull (a Waters Rise! that would reach it still puts the
  flood discard pile back on top).

A relaxation that cuts the losses after four a lot shows where the endgame's next gains are. Tuning seeds
(benchmarks/seeds.py): a diagnostic, not a published figure. The games run in pure Python (benchmarks/limits.py,
the runner shared with desert_limits.py, says why).

    python benchmarks/island_limits.py --players 4 --difficulty normal --games 2000 --seed 2200000 --jobs 2
    python benchmarks/island_limits.py --games 400 --relax none home
"""

from __future__ import annotations

import limits  # the runner shared with desert_limits.py, beside this script

RELAX = ("none", "lift", "home", "others", "capturer", "fools_landing", "water")
ALL = 0b1111


def relax(name: str, patch=setattr) -> None:
    """Change one rule of the island engine in this process, from the fourth capture on (``patch``: how an
    attribute is set, as in desert_limits.relax)."""
    from fi_cli.island.actions import CAPTURE
    from fi_cli.island.engine import OVER, GameState
    from fi_cli.island.tiles import FOOLS_LANDING, SKULL

    if name in ("home", "others", "capturer"):
        apply = GameState.apply
        advance = GameState._advance
        carried: list[int] = []  # the pawns to carry home, between the capture and the steps it sets off

        def capture_then_carry(self: GameState, a: tuple) -> None:
            if a[0] == CAPTURE and self.captured | 1 << a[2] == ALL:
                capturer = a[1]
                others = [q for q in range(self.n) if q != capturer]
                carried[:] = {"home": [capturer, *others], "others": others, "capturer": [capturer]}[name]
            apply(self, a)

        def carry_first(self: GameState) -> None:
            for q in carried:  # before the turn runs on: the draws and the flood step find them home
                self.pos[q] = FOOLS_LANDING
            carried.clear()
            advance(self)

        patch(GameState, "apply", capture_then_carry)
        patch(GameState, "_advance", carry_first)
    elif name == "lift":
        advance = GameState._advance

        def lift_off_when_home(self: GameState) -> None:
            if self.captured == ALL and self.outcome is None and all(x == FOOLS_LANDING for x in self.pos):
                self.outcome = "win"
                self.phase = OVER
                return
            advance(self)

        patch(GameState, "_advance", lift_off_when_home)
    elif name == "fools_landing":
        sink = GameState._sink

        def keep_fools_landing(self: GameState, t: int) -> None:
            if t == FOOLS_LANDING and self.captured == ALL:
                self.fdiscard.append(t)  # drawn while flooded: it stays flooded, its card is discarded
                return
            sink(self, t)

        patch(GameState, "_sink", keep_fools_landing)
    elif name == "water":
        lose = GameState._lose

        def stop_short(self: GameState, causes: list[str]) -> None:
            if causes == ["water_level"] and self.captured == ALL:
                self.water = SKULL - 1
                if self.fdiscard:  # what the Waters Rise! does below the skull
                    self.fdeck.append(self.fdiscard)
                    self.fdiscard = []
                return
            lose(self, causes)

        patch(GameState, "_lose", stop_short)


def main() -> None:
    limits.run("island", relax, limits.parser(__doc__, RELAX, range(2, 5), "normal"))


if __name__ == "__main__":
    main()
