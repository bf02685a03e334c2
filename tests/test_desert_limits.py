"""The what-if relaxations of benchmarks/desert_limits.py each change exactly the rule they name."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import desert_limits  # noqa: E402

from fi_cli.desert.game import GameSetup, new_game
from fi_cli.desert.tiles import ORTH


def _spread_game():
    """A 4-player game with the pawns on three different cells, none in shade, water below full."""
    s = new_game(GameSetup(players=4, roles=("archeologist", "climber", "explorer", "navigator")), 7)
    cells = [c for c in range(25) if s.kind[c] >= 0 and c != s.storm][:3]
    s.pos = [cells[0], cells[0], cells[1], cells[2]]
    s.water = [1, 1, 1, 1]
    return s


def test_water_relaxation_makes_the_sun_harmless(monkeypatch):
    s = _spread_game()
    s._sun()
    assert s.water == [0, 0, 0, 0]  # the rules as they are
    desert_limits.relax("water", monkeypatch.setattr)
    s = _spread_game()
    s._sun()
    assert s.water == [1, 1, 1, 1]


def test_gather_relaxation_waters_every_pawn_wherever_it_stands(monkeypatch):
    s = _spread_game()
    s._give_all(s.pos[0], 2)
    assert s.water == [3, 3, 1, 1]
    desert_limits.relax("gather", monkeypatch.setattr)
    s = _spread_game()
    s._give_all(s.pos[0], 2)
    assert s.water == [3, 3, 3, 3]


def test_near_relaxation_waters_the_pawns_next_to_the_tile_only(monkeypatch):
    s = _spread_game()
    desert_limits.relax("near", monkeypatch.setattr)
    x = s.pos[0]
    near = [s.pos[q] in ORTH[x] for q in (2, 3)]
    s._give_all(x, 2)
    assert s.water == [3, 3, *(3 if n else 1 for n in near)]
    assert any(near) and not all(near)  # the position tests both a pawn next to the tile and one farther


def test_sand_relaxation_ignores_only_the_empty_supply(monkeypatch):
    desert_limits.relax("sand", monkeypatch.setattr)
    s = _spread_game()
    s._lose("buried")
    assert s.outcome is None
    s._lose("thirst")
    assert s.outcome == "loss" and s.loss_causes == ("thirst",)


def test_pool_relaxation_shares_the_water_out_before_the_sun(monkeypatch):
    s = _spread_game()
    s.water = [0, 0, 2, 2]
    s._sun()
    assert s.outcome == "loss" and s.loss_causes == ("thirst",)  # the rules as they are: the dry pawns die
    desert_limits.relax("pool", monkeypatch.setattr)
    s = _spread_game()
    s.water = [0, 0, 2, 2]
    s._sun()
    assert s.outcome is None and s.water == [0, 0, 0, 0]  # each drank a water shared out from afar
    s = _spread_game()
    s.water = [0, 3, 3, 3]  # the archeologist's and the climber's canteens hold 3
    s._sun()
    assert s.outcome is None and sorted(s.water) == [1, 1, 1, 2]  # 9 water evened to 2, 2, 2, 3, then drunk


def test_the_script_relaxes_the_games_it_plays():
    """Run as a script (compiled engine installed or not), the ``water`` relaxation leaves no thirst loss."""
    import subprocess

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "desert_limits.py"
    out = subprocess.run([sys.executable, str(script), "--games", "12", "--relax", "none", "water"],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    none, water = (line for line in out.splitlines() if line.lstrip().startswith(("none", "water")))
    assert "thirst" in none  # these games are lost to thirst as the rules are
    assert "thirst" not in water
