"""What a Desert game logs beyond its moves: where each tile went, how often it moved, its most sand, when it
was excavated; who ran dry; the board after every turn. Hand-built positions with the exact answers, and
consistency over whole random games."""

from __future__ import annotations

import pytest
from desert_positions import do, state

from fi_cli.desert.engine import Recorder
from fi_cli.desert.game import GameSetup
from fi_cli.desert.play import play_game
from fi_cli.desert.policies import make_policy
from fi_cli.desert.tiles import CELL_INDEX, CELLS, KINDS

WC, NAV, EX = "water_carrier", "navigator", "explorer"


def recorded(s):
    s.stats = Recorder(s)
    return s.stats


def test_tiles_are_followed_through_the_storm_with_their_moves_and_most_sand():
    # the storm on r2c2: wind north 2 slides r3c2 into r2c2 and r4c2 into r3c2; then wind south 1 slides the
    # tile now on r3c2 (the one from r4c2) back into the storm, now on r4c2
    s = state([(WC, "r0c0"), (NAV, "r4c4")], sand={"r4c2": 1}, storm_top=["wind_north_2", "wind_south_1"],
              storm_left=2, phase="storm")  # fmt: skip
    rec = recorded(s)
    do(s, "draw_storm")  # and the second card: nobody could do anything between the two
    at = {CELLS[t]: CELLS[c] for c, t in enumerate(rec.tile_at) if t >= 0}
    assert CELLS[s.storm] == "r3c2" and rec.tile_at[s.storm] == -1
    assert at["r3c2"] == "r2c2" and at["r4c2"] == "r4c2"  # the second tile is back where it started
    assert sum(1 for tile, cell in at.items() if tile != cell) == 1 and len(at) == 24
    moves = {CELLS[t]: m for t, m in enumerate(rec.moves) if m}
    assert moves == {"r3c2": 1, "r4c2": 2}
    assert rec.peak_sand[CELL_INDEX["r4c2"]] == 3 and rec.peak_sand[CELL_INDEX["r3c2"]] == 1
    assert s.sand[CELL_INDEX["r4c2"]] == 3


def test_the_peak_is_the_most_sand_ever_on_a_tile_not_its_last():
    s = state([(WC, "r1c2", {"gear": {"dune_blaster": 1}}), (NAV, "r4c4")], storm="r0c2", sand={"r1c2": 2},
              storm_top=["wind_north_1"], storm_left=1, phase="storm")  # fmt: skip
    rec = recorded(s)
    do(s, "draw_storm")  # r1c2 slides into r0c2 with its pawn: 3 sand
    do(s, "play(p0, dune_blaster, r0c2)")
    t = rec.tile_at[CELL_INDEX["r0c2"]]
    assert CELLS[t] == "r1c2" and s.sand[CELL_INDEX["r0c2"]] == 0 and rec.peak_sand[t] == 3


def test_the_last_tile_slid_into_an_empty_supply_is_followed_too():
    s = state([(WC, "r0c0"), (NAV, "r4c4")], sand={"r0c0": 47}, storm_top=["wind_north_3"], storm_left=1,
              phase="storm")  # fmt: skip
    rec = recorded(s)
    do(s, "draw_storm")
    assert s.loss_causes == ("buried",)
    assert {CELLS[t]: m for t, m in enumerate(rec.moves) if m} == {"r3c2": 1, "r4c2": 1}
    assert rec.peak_sand[CELL_INDEX["r4c2"]] == 0  # it found no marker


@pytest.mark.parametrize("thirst_at_zero, water, dry", [(False, 0, (0, 2)), (True, 1, (0, 2))])
def test_who_ran_dry(thirst_at_zero, water, dry):
    # p1 has no water either but stands in the shade of an excavated tunnel: not the one who ran dry
    s = state([(WC, "r0c1", {"water": water}), (NAV, "r1c1", {"water": 0}), (EX, "r3c4", {"water": water})],
              dug={"r1c1": "tunnel"}, rules={"thirst_at_zero": thirst_at_zero}, storm_top=["sun_beats_down"],
              storm_left=1, phase="storm")  # fmt: skip
    rec = recorded(s)
    do(s, "draw_storm")
    assert s.loss_causes == ("thirst",) and rec.ran_dry == dry


@pytest.fixture(scope="module")
def games():
    setups = [GameSetup(players=n, start_level=mark, sand_supply=sand)
              for n, mark, sand in ((2, 1, 40), (4, 1, 12), (5, 13, 40))]
    return [play_game(setup, make_policy("random"), seed) for setup in setups for seed in range(25)]


def test_every_game_logs_one_row_per_turn_and_one_per_tile(games):
    for rec in games:
        assert [r.turn for r in rec.turn_rows] == list(range(1, rec.turns + 1))
        assert sorted(t.tile for t in rec.tile_rows) == sorted(c for c in CELLS if c != "r2c2")
        assert len({(t.row, t.col) for t in rec.tile_rows}) == 24  # every tile on its own cell
        storm = CELL_INDEX[rec.turn_rows[-1].storm_cell]
        assert (storm // 5, storm % 5) not in {(t.row, t.col) for t in rec.tile_rows}


def test_the_rows_agree_with_each_other_and_with_the_game(games):
    causes = set()
    for rec in games:
        last = rec.turn_rows[-1]
        supply = rec.turn_rows[0].sand_supply + rec.turn_rows[0].sand_on_tiles
        for r in rec.turn_rows:
            assert r.sand_supply + r.sand_on_tiles == supply  # markers move between the board and the supply
            assert len(r.blocked) == r.tiles_blocked and len(r.water) == len(r.pawn_cells)
            assert r.parts_collected <= r.parts_found
        assert (rec.final_storm_level, rec.parts_found, rec.parts_collected) == (
            last.storm_level, last.parts_found, last.parts_collected)
        assert rec.sand_on_tiles == last.sand_on_tiles == sum(t.sand for t in rec.tile_rows)
        dug = [t for t in rec.tile_rows if t.excavated_turn is not None]
        assert len(dug) == rec.tiles_excavated == last.tiles_excavated
        for t in dug:  # excavated on that turn: the count of excavated tiles grew then
            before = rec.turn_rows[t.excavated_turn - 2].tiles_excavated if t.excavated_turn > 1 else 0
            assert rec.turn_rows[t.excavated_turn - 1].tiles_excavated > before
            assert t.kind in KINDS[:14]
        for t in rec.tile_rows:
            assert t.peak_sand >= t.sand and (t.times_moved or t.tile == f"r{t.row}c{t.col}")
        blocked = {f"r{t.row}c{t.col}" for t in rec.tile_rows if t.sand >= 2}
        assert blocked == set(last.blocked)
        assert bool(rec.ran_dry) == (rec.loss_cause == "thirst")
        assert all(last.water[q] == 0 for q in rec.ran_dry)
        causes.add(rec.loss_cause)
    assert {"thirst", "buried", "storm"} <= causes  # a short supply buries teams, a high start storms


def test_moves_add_up_to_the_storms_steps(games):
    """Each slide moves one tile one cell and the storm one cell the other way: over a game, the storm's
    steps are the tiles' moves (the storm's path between turns is at least its straight distance)."""
    for rec in games:
        moved = sum(t.times_moved for t in rec.tile_rows)
        cells = ["r2c2"] + [r.storm_cell for r in rec.turn_rows]
        distance = sum(abs(CELL_INDEX[a] // 5 - CELL_INDEX[b] // 5) + abs(CELL_INDEX[a] % 5 - CELL_INDEX[b] % 5)
                       for a, b in zip(cells, cells[1:], strict=False))
        assert moved >= distance and (moved - distance) % 2 == 0
