"""The actions of a turn (rule 4): move, tunnels, remove sand, buried pawns, excavation of every tile, the parts
(rule 6), water and gear given between pawns."""

from __future__ import annotations

from collections import Counter

import pytest
from desert_positions import cell, do, moves, state, texts

from fi_cli.desert.actions import parse_action
from fi_cli.desert.engine import ACTIONS, COLLECTED, IllegalActionError
from fi_cli.desert.position import to_dict
from fi_cli.desert.tiles import CELLS, KINDS

WC, CL = "water_carrier", "climber"


# ----------------------------------------------------------------------------------------------- moves and sand
def test_move_remove_sand_and_excavate():
    s = state([(WC, "r1c1"), (CL, "r3c3")], sand={"r0c1": 2, "r1c2": 1, "r2c1": 1})
    assert texts(s) == sorted(
        moves(0, "r1c0", "r1c2", "r2c1")
        + ["remove_sand(p0, r0c1)", "remove_sand(p0, r1c2)", "remove_sand(p0, r2c1)", "excavate(p0)", "end_actions(p0)"]
    )
    do(s, "remove_sand(p0, r0c1)")
    assert (s.sand[cell("r0c1")], s.supply, s.actions_left) == (1, 45, 3)
    assert "move(p0, r0c1)" in texts(s)  # one sand marker left: no longer blocked


def test_no_move_into_the_storm_or_off_the_grid():
    s = state([(WC, "r2c1"), (CL, "r3c3")])
    assert moves(0, "r1c1", "r2c0", "r3c1") == [t for t in texts(s) if t.startswith("move")]
    s = state([(WC, "r0c0"), (CL, "r3c3")])
    assert [t for t in texts(s) if t.startswith("move")] == moves(0, "r0c1", "r1c0")


def test_four_actions_then_the_storm():
    s = state([(WC, "r1c1"), (CL, "r3c3")], storm_top=["wind_north_1"] * 3)
    do(s, "move(p0, r1c0)", "move(p0, r1c1)", "move(p0, r1c0)")
    assert (s.phase, s.actions_left, s.current) == (ACTIONS, 1, 0)
    do(s, "move(p0, r1c1)")
    assert (s.phase, s.current, s.turn, s.actions_left) == (ACTIONS, 1, 2, 4)  # the storm was drawn on its own
    with pytest.raises(IllegalActionError, match=r"move\(p0, r1c0\) is not legal in the actions phase "
                                                  r"\(decision of p1, turn 2\)"):  # fmt: skip
        s.apply_checked(parse_action("move(p0, r1c0)"))


def test_ending_the_actions_early():
    s = state([(WC, "r1c1"), (CL, "r3c3")], storm_top=["wind_north_1"] * 2)
    do(s, "move(p0, r1c0)", "end_actions(p0)")
    assert (s.current, s.turn) == (1, 2)


TUNNELS = {"r0c1": "tunnel", "r3c4": "tunnel", "r4c2": "tunnel"}


def test_tunnels_move_between_excavated_unblocked_tunnels():
    # r3c4 is blocked: no way in
    s = state([(WC, "r0c1"), (CL, "r3c3")], dug=TUNNELS, sand={"r3c4": 2})
    assert [t for t in texts(s) if t.startswith("move")] == moves(0, "r0c0", "r0c2", "r1c1", "r4c2")
    do(s, "move(p0, r4c2)")
    assert s.pos[0] == cell("r4c2") and s.actions_left == 3


def test_no_tunnel_move_out_of_a_blocked_tunnel_when_buried():
    s = state([(WC, "r0c1"), (CL, "r3c3")], dug=TUNNELS, sand={"r0c1": 2})
    assert texts(s) == ["end_actions(p0)", "remove_sand(p0, r0c1)"]


def test_a_tunnel_that_is_not_excavated_is_no_way_in():
    s = state([(WC, "r4c2"), (CL, "r3c3")], dug={"r0c1": "tunnel", "r4c2": "tunnel"}, seen={"r3c4": "tunnel"})
    assert [t for t in texts(s) if t.startswith("move")] == moves(0, "r0c1", "r3c2", "r4c1", "r4c3")


# ----------------------------------------------------------------------------------------------- buried pawns
def test_a_buried_pawn_may_only_remove_sand_from_its_own_tile():
    s = state([("meteorologist", "r1c1"), (CL, "r3c3")], sand={"r1c1": 3, "r1c2": 1})
    assert texts(s) == ["end_actions(p0)", "remove_sand(p0, r1c1)"]
    do(s, "remove_sand(p0, r1c1)")
    assert texts(s) == ["end_actions(p0)", "remove_sand(p0, r1c1)"]  # 2 left: still buried
    do(s, "remove_sand(p0, r1c1)")
    assert texts(s) == sorted(
        moves(0, "r0c1", "r1c0", "r1c2", "r2c1")
        + ["remove_sand(p0, r1c1)", "remove_sand(p0, r1c2)", "reduce_storm(p0)", "peek_storm(p0)", "end_actions(p0)"]
    )


def test_others_may_dig_a_buried_pawn_out():
    s = state([(WC, "r1c2"), (CL, "r3c3"), ("archeologist", "r1c1")], sand={"r1c1": 2})
    assert s.buried(2) and "remove_sand(p0, r1c1)" in texts(s)
    do(s, "remove_sand(p0, r1c1)")
    assert not s.buried(2)


def test_buried_pawns_still_give_and_receive_water_and_gear():
    s = state([(WC, "r1c2", {"water": 2}), ("explorer", "r1c1", {"water": 4, "gear": {"terrascope": 1}}),
               ("navigator", "r1c1", {"water": 1})], sand={"r1c1": 2})  # fmt: skip
    assert s.buried(1) and s.buried(2)
    free = [t for t in texts(s) if t.startswith("give")]
    # (the Water Carrier gives to the next tile; nobody gives to her there)
    assert free == ["give_gear(p1, p2, terrascope)", "give_water(p0, p2)", "give_water(p1, p2)"]


# ----------------------------------------------------------------------------------------------- excavation
def test_excavate_only_without_sand_and_only_once():
    s = state([(WC, "r1c1"), (CL, "r3c3")], sand={"r1c1": 1})
    assert "excavate(p0)" not in texts(s)
    do(s, "remove_sand(p0, r1c1)", "excavate(p0)")
    assert s.dug[cell("r1c1")] and s.kind[cell("r1c1")] < 14  # the underside is known now
    assert "excavate(p0)" not in texts(s)


def test_a_well_gives_two_water_to_every_pawn_on_it_once():
    s = state([(WC, "r1c1", {"water": 1}), (CL, "r1c1", {"water": 2}), ("explorer", "r1c2", {"water": 0})],
              seen={"r1c1": "well"})  # fmt: skip
    do(s, "excavate(p0)")
    assert s.water == [3, 3, 0]  # the Climber's canteen holds 3
    assert KINDS[s.kind[cell("r1c1")]] == "well" and s.dug[cell("r1c1")] == 1


@pytest.mark.parametrize("tile", ["mirage", "launch_pad"])
def test_mirage_and_launch_pad_give_nothing(tile):
    s = state([(WC, "r1c1", {"water": 1}), (CL, "r1c1", {"water": 2})], seen={"r1c1": tile})
    before = to_dict(s)
    do(s, "excavate(p0)")
    assert s.water == [1, 2] and s.hands == [[0] * 6, [0] * 6] and s.gdeck == [3, 3, 2, 2, 1, 1]
    assert before["parts"] == to_dict(s)["parts"]


@pytest.mark.parametrize("tile", ["tunnel", "gear", "crash_site"])
def test_tunnels_gear_tiles_and_the_crash_site_give_a_gear_card(tile):
    drawn = Counter()
    for seed in range(120):
        where = "r0c0" if tile == "crash_site" else "r1c1"
        s = state([(WC, where), (CL, "r3c3")], seen={} if tile == "crash_site" else {where: tile}, seed=seed,
                  gear_deck={"jet_pack": 2, "terrascope": 1})  # fmt: skip
        do(s, "excavate(p0)")
        got = [g for g in range(6) if s.hands[0][g]]
        assert len(got) == 1 and sum(s.hands[0]) == 1 and sum(s.gdeck) == 2 and s.hands[1] == [0] * 6
        drawn[got[0]] += 1
    assert set(drawn) == {1, 3} and 60 <= drawn[1] <= 100  # jet pack 2/3, terrascope 1/3


def test_a_hidden_tile_is_drawn_from_the_tiles_not_yet_seen():
    # 19 of the 20 look-alike tiles are known but for two gear tiles and the launch pad
    seen = {
        "r0c1": "tunnel",
        "r0c2": "tunnel",
        "r0c3": "tunnel",
        "r1c0": "gear",
        "r1c1": "gear",
        "r1c2": "gear",
        "r1c3": "gear",
        "r1c4": "gear",
        "r2c0": "gear",
        "r2c1": "propeller_row",
        "r2c3": "propeller_column",
        "r2c4": "engine_row",
        "r3c0": "engine_column",
        "r3c1": "solar_crystal_row",
        "r3c2": "solar_crystal_column",
        "r3c3": "navigation_deck_row",
        "r3c4": "navigation_deck_column",
    }
    found = Counter()
    for seed in range(300):
        s = state([(WC, "r4c1"), (CL, "r3c3")], seen=seen, seed=seed)
        assert [KINDS[s.kind[cell(c)]] for c in ("r4c1", "r4c2", "r4c3")] == ["hidden"] * 3
        do(s, "excavate(p0)")
        k = KINDS[s.kind[cell("r4c1")]]
        found[k] += 1
        rest = sorted(KINDS[s.kind[cell(c)]] for c in ("r4c2", "r4c3"))
        # what is left of the pool: hidden still, or known by elimination
        assert rest == (["hidden", "hidden"] if k == "gear" else ["gear", "gear"])
    assert set(found) == {"gear", "launch_pad"} and 170 <= found["gear"] <= 230


def test_the_water_drop_tiles_are_two_wells_and_a_mirage():
    found = Counter()
    for seed in range(300):
        s = state([(WC, "r0c4"), (CL, "r3c3")], seed=seed)
        do(s, "excavate(p0)")
        k = KINDS[s.kind[cell("r0c4")]]
        found[k] += 1
        others = sorted(KINDS[s.kind[cell(c)]] for c in ("r4c0", "r4c4"))
        assert others == (["hidden_water"] * 2 if k == "well" else ["well", "well"])  # a mirage tells the rest
    assert set(found) == {"well", "mirage"} and 170 <= found["well"] <= 230


def test_the_third_water_tile_is_known_once_both_wells_are():
    s = state([(WC, "r0c4"), (CL, "r3c3")], seen={"r4c0": "well"}, seed=0)
    s.rng.random = lambda: 0.0  # the first tile of the pool left: a well
    do(s, "excavate(p0)")
    assert [KINDS[s.kind[cell(c)]] for c in ("r0c4", "r4c0", "r4c4")] == ["well", "well", "mirage"]
    assert not s.dug[cell("r4c4")]


# ----------------------------------------------------------------------------------------------- the parts
def test_a_part_appears_where_its_clues_cross():
    s = state([(WC, "r3c0"), (CL, "r3c3")], dug={"r1c3": "engine_row"}, seen={"r3c0": "engine_column"})
    do(s, "excavate(p0)")
    assert to_dict(s)["parts"] == {"propeller": "not_found", "engine": "r1c0", "solar_crystal": "not_found",
                                   "navigation_deck": "not_found"}  # fmt: skip


def test_one_clue_is_not_enough():
    s = state([(WC, "r3c0"), (CL, "r3c3")], seen={"r3c0": "engine_column", "r1c3": "engine_row"})
    do(s, "excavate(p0)")
    assert to_dict(s)["parts"]["engine"] == "not_found"


def test_a_part_under_the_storm_waits_and_lands_on_the_next_tile_that_slides_in():
    # row clue on row 2, column clue on column 2: the storm cell
    s = state([(WC, "r0c2"), (CL, "r3c3")], dug={"r2c4": "propeller_row"}, seen={"r0c2": "propeller_column"},
              sand={"r3c2": 1}, storm_top=["wind_north_1", "sun_beats_down"], level=1)  # fmt: skip
    do(s, "excavate(p0)")
    assert s.parts[0] == s.storm == cell("r2c2")
    do(s, "end_actions(p0)")  # wind north: the tile of r3c2 slides into r2c2 and takes the part
    assert s.storm == cell("r3c2") and s.parts[0] == cell("r2c2") and s.sand[cell("r2c2")] == 2


def test_pick_up_needs_an_excavated_unblocked_tile():
    players = [(CL, "r1c1"), (WC, "r1c1")]
    s = state(players, dug={"r1c1": "gear"}, sand={"r1c1": 1}, parts={"engine": "r1c1"})
    assert "pick_up(p0, engine)" in texts(s)
    do(s, "pick_up(p0, engine)")
    assert s.parts[1] == COLLECTED and s.actions_left == 3
    s = state(players, dug={"r1c1": "gear"}, sand={"r1c1": 2}, parts={"engine": "r1c1"})  # the Climber stands there
    assert not [t for t in texts(s) if t.startswith("pick_up")]
    s = state(players, parts={"engine": "r1c1"})  # desert side up: excavate first
    assert not [t for t in texts(s) if t.startswith("pick_up")]
    do(s, "excavate(p0)")
    assert "pick_up(p0, engine)" in texts(s)


def test_two_parts_on_one_tile():
    s = state([(CL, "r1c1"), (WC, "r3c3")], dug={"r1c1": "gear"}, parts={"engine": "r1c1", "propeller": "r1c1"})
    assert [t for t in texts(s) if t.startswith("pick")] == ["pick_up(p0, engine)", "pick_up(p0, propeller)"]


# ----------------------------------------------------------------------------------------------- water and gear
def test_water_goes_to_pawns_on_the_same_tile_never_above_a_canteen():
    s = state([("explorer", "r1c1", {"water": 2}), ("navigator", "r1c1", {"water": 4}),
               ("archeologist", "r1c1", {"water": 0}), (CL, "r1c2", {"water": 0})])  # fmt: skip
    assert [t for t in texts(s) if t.startswith("give")] == [
        "give_water(p0, p2)", "give_water(p1, p0)", "give_water(p1, p2)"]  # fmt: skip
    do(s, "give_water(p1, p2)")
    assert s.water == [2, 3, 1, 0] and s.actions_left == 4  # free


def test_thirst_at_zero_keeps_a_pawns_last_water():
    players = [("explorer", "r1c1", {"water": 1}), ("navigator", "r1c1", {"water": 2})]
    assert [t for t in texts(state(players)) if t.startswith("give")] == ["give_water(p0, p1)", "give_water(p1, p0)"]
    s = state(players, rules={"thirst_at_zero": True})
    assert [t for t in texts(s) if t.startswith("give")] == ["give_water(p1, p0)"]


def test_gear_goes_to_pawns_on_the_same_tile_free():
    s = state([("explorer", "r1c1", {"gear": {"terrascope": 1, "jet_pack": 2}}), ("navigator", "r1c1"),
               (CL, "r1c2")])  # fmt: skip
    assert [t for t in texts(s) if t.startswith("give")] == [
        "give_gear(p0, p1, jet_pack)", "give_gear(p0, p1, terrascope)"]  # fmt: skip
    do(s, "give_gear(p0, p1, jet_pack)")
    assert s.hands[0][1] == 1 and s.hands[1][1] == 1 and s.actions_left == 4


def test_every_cell_name_is_a_cell():
    assert CELLS[0] == "r0c0" and CELLS[24] == "r4c4" and cell("r2c2") == 12
