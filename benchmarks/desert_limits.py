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
The games run in pure Python (benchmarks/limits.py, the runner shared with island_limits.py, says why).

    python benchmarks/desert_limits.py --players 4 --difficulty novice --games 400
    python benchmarks/desert_limits.py --players 2 --games 400 --relax none water
"""

from __future__ import annotations

import limits  # the runner shared with island_limits.py, beside this script

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


def main() -> None:
    limits.run("desert", relax, limits.parser(__doc__, RELAX, range(2, 6), "novice"))


if __name__ == "__main__":
    main()
