"""Every ability of the role table (rule 1): Archeologist, Climber, Explorer, Meteorologist's storm cut,
Navigator, Water Carrier. (The Meteorologist's look at the storm deck is in test_desert_rules_storm.py.)"""

from __future__ import annotations

from desert_positions import cell, do, moves, state, texts

from fi_cli.desert.engine import ACTIONS

WC, CL, EX, NAV, ARCH, MET = "water_carrier", "climber", "explorer", "navigator", "archeologist", "meteorologist"


# ----------------------------------------------------------------------------------------------- Archeologist
def test_archeologist_removes_two_sand_for_one_action():
    s = state([(ARCH, "r1c1"), (CL, "r3c3")], sand={"r1c1": 1, "r1c2": 3, "r0c1": 1})
    assert texts(s) == sorted(
        moves(0, "r0c1", "r1c0", "r2c1")
        + ["remove_sand(p0, r0c1)", "remove_sand(p0, r1c1)", "remove_sand(p0, r1c2)", "end_actions(p0)"]
    )
    do(s, "remove_sand(p0, r1c2)")
    assert (s.sand[cell("r1c2")], s.supply, s.actions_left) == (1, 45, 3)
    do(s, "remove_sand(p0, r0c1)")  # only one was there
    assert (s.sand[cell("r0c1")], s.supply, s.actions_left) == (0, 46, 2)


def test_a_buried_archeologist_removes_two_from_her_own_tile():
    s = state([(ARCH, "r1c1"), (CL, "r3c3")], sand={"r1c1": 3, "r1c2": 3})
    assert texts(s) == ["end_actions(p0)", "remove_sand(p0, r1c1)"]
    do(s, "remove_sand(p0, r1c1)")
    assert s.sand[cell("r1c1")] == 1 and not s.buried(0)


# ----------------------------------------------------------------------------------------------- Climber
def test_climber_moves_onto_blocked_tiles_and_may_carry_one_pawn():
    s = state([(CL, "r1c1"), (WC, "r1c1"), (EX, "r3c3")], sand={"r1c2": 4})
    carry = [f"move(p0, {c}, p1)" for c in ("r0c1", "r1c0", "r1c2", "r2c1")]
    assert [t for t in texts(s) if t.startswith("move")] == sorted(moves(0, "r0c1", "r1c0", "r1c2", "r2c1") + carry)
    do(s, "move(p0, r1c2, p1)")
    assert s.pos[0] == s.pos[1] == cell("r1c2") and s.actions_left == 3
    assert not s.buried(0) and not s.buried(1)  # pawns on the Climber's tile are never buried
    do(s, "move(p0, r1c1)")  # she leaves: the pawn she brought is buried now
    assert s.buried(1)


def test_climber_carries_a_buried_pawn_off_its_tile():
    s = state([(CL, "r1c2"), (WC, "r1c2")], sand={"r1c2": 3})
    assert not s.buried(1)
    do(s, "move(p0, r1c3, p1)")
    assert s.pos == [cell("r1c3")] * 2


def test_pawns_on_the_climbers_blocked_tile_act_and_may_leave():
    players = [(WC, "r1c2"), (CL, "r1c2")]
    s = state(players, sand={"r1c2": 3, "r0c2": 2})
    assert texts(s) == sorted(moves(0, "r1c1", "r1c3") + ["remove_sand(p0, r0c2)", "remove_sand(p0, r1c2)",
                                                          "end_actions(p0)"])  # fmt: skip
    s = state([(WC, "r1c2"), (CL, "r3c3")], sand={"r1c2": 3, "r0c2": 2})  # without her: buried
    assert texts(s) == ["end_actions(p0)", "remove_sand(p0, r1c2)"]


def test_the_climber_is_never_buried():
    s = state([(CL, "r1c2"), (WC, "r3c3")], sand={"r1c2": 5})
    assert not s.buried(0)
    assert [t for t in texts(s) if t.startswith("move")] == moves(0, "r0c2", "r1c1", "r1c3")


def test_climber_uses_blocked_tunnels_and_so_may_the_pawns_on_her_tile():
    dug = {"r0c1": "tunnel", "r3c4": "tunnel", "r4c2": "tunnel"}
    s = state([(CL, "r0c1"), (WC, "r0c1")], dug=dug, sand={"r3c4": 2, "r0c1": 2})
    dest = ["r0c0", "r0c2", "r1c1", "r3c4", "r4c2"]
    assert [t for t in texts(s) if t.startswith("move")] == sorted(moves(0, *dest) + [f"move(p0, {c}, p1)"
                                                                                     for c in dest])  # fmt: skip
    s = state([(CL, "r0c1"), (WC, "r0c1")], dug=dug, sand={"r3c4": 2, "r0c1": 2}, current=1)
    assert [t for t in texts(s) if t.startswith("move")] == moves(1, "r0c0", "r0c2", "r1c1", "r4c2")


# ----------------------------------------------------------------------------------------------- Explorer
def test_explorer_moves_and_removes_sand_diagonally():
    sand = {"r0c0": 1, "r0c2": 2, "r2c0": 1}
    s = state([(EX, "r1c1"), (CL, "r3c3")], sand=sand)
    assert texts(s) == sorted(
        moves(0, "r0c0", "r0c1", "r1c0", "r1c2", "r2c0", "r2c1")
        + ["remove_sand(p0, r0c0)", "remove_sand(p0, r0c2)", "remove_sand(p0, r2c0)", "excavate(p0)", "end_actions(p0)"]
    )
    s = state([(WC, "r1c1"), (CL, "r3c3")], sand=sand)  # anybody else: orthogonally only
    assert texts(s) == sorted(moves(0, "r0c1", "r1c0", "r1c2", "r2c1") + ["excavate(p0)", "end_actions(p0)"])


# ----------------------------------------------------------------------------------------------- Meteorologist
def test_meteorologist_draws_one_card_fewer_per_action_spent():
    top = ["wind_north_1", "wind_east_1", "wind_south_1"]
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=top)  # 2 players, mark 2: 3 cards a turn
    do(s, "reduce_storm(p0)")
    assert s.skips == 1 and s.actions_left == 3
    do(s, "end_actions(p0)")
    assert s.current == 1 and s.stop == [6]  # two cards drawn: wind_south_1 is still on top
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=top)
    do(s, "reduce_storm(p0)", "reduce_storm(p0)", "reduce_storm(p0)")
    assert "reduce_storm(p0)" not in texts(s)  # down to 0 cards: no further
    do(s, "end_actions(p0)")
    assert s.current == 1 and len(s.stop) == 3 and s.storm == cell("r2c2")
    assert s.skips == 0  # a new turn


def test_only_the_meteorologist_reduces_the_storm():
    s = state([(WC, "r1c1"), (MET, "r3c3")])
    assert not [t for t in texts(s) if "storm" in t]


# ----------------------------------------------------------------------------------------------- Navigator
def test_navigator_moves_another_pawn_up_to_three_unblocked_steps_a_tunnel_jump_is_one():
    # from r0c0: r0c1 (a tunnel) and r1c0; r0c2 and r1c1 are blocked; the tunnel leads to r3c4
    s = state([(NAV, "r4c2"), (WC, "r0c0")], dug={"r0c1": "tunnel", "r3c4": "tunnel"},
              sand={"r0c2": 2, "r1c1": 2})  # fmt: skip
    reach = ["r0c1", "r1c0", "r2c0", "r2c1", "r2c4", "r3c0", "r3c3", "r3c4", "r4c4"]
    assert texts(s) == sorted(moves(0, "r3c2", "r4c1", "r4c3") + [f"navigate(p0, p1, {c})" for c in reach]
                              + ["excavate(p0)", "end_actions(p0)"])  # fmt: skip
    do(s, "navigate(p0, p1, r3c3)")
    assert s.pos[1] == cell("r3c3") and s.actions_left == 3


def test_navigator_moves_the_explorer_diagonally():
    s = state([(NAV, "r4c4"), (EX, "r0c0")], sand={"r0c1": 2, "r1c0": 2})
    reach = ["r0c2", "r0c3", "r1c1", "r1c2", "r1c3", "r2c0", "r2c1", "r2c3", "r3c0", "r3c1", "r3c2"]
    assert [t for t in texts(s) if t.startswith("navigate")] == [f"navigate(p0, p1, {c})" for c in reach]


def test_navigator_moves_the_climber_over_blocked_tiles_carrying_a_pawn_even_the_navigator():
    # p2 is buried on r1c0 (no Climber there): it cannot be moved, and the Climber only carries from her tile
    s = state([(NAV, "r0c0"), (CL, "r0c0"), (ARCH, "r1c0")], sand={"r1c0": 2, "r0c2": 3})
    reach = ["r0c1", "r0c2", "r0c3", "r1c0", "r1c1", "r1c2", "r2c0", "r2c1", "r3c0"]
    navs = [t for t in texts(s) if t.startswith("navigate")]
    assert navs == sorted([f"navigate(p0, p1, {c})" for c in reach] + [f"navigate(p0, p1, {c}, p0)" for c in reach])
    do(s, "navigate(p0, p1, r1c0, p0)")  # onto the buried Archeologist's tile: all three are free now
    assert s.pos == [cell("r1c0")] * 3 and not any(s.buried(q) for q in range(3))


def test_navigator_cannot_move_a_buried_pawn_or_himself():
    s = state([(NAV, "r4c4"), (WC, "r1c1")], sand={"r1c1": 2})
    assert not [t for t in texts(s) if t.startswith("navigate")]
    s = state([(NAV, "r4c4"), (WC, "r1c1")], sand={"r1c1": 1})
    assert len([t for t in texts(s) if t.startswith("navigate")]) > 0
    assert not [t for t in texts(s) if t.startswith("navigate(p0, p0")]


# ----------------------------------------------------------------------------------------------- Water Carrier
def test_water_carrier_takes_water_from_an_excavated_well_and_gives_to_the_next_tiles():
    s = state([(WC, "r1c1", {"water": 2}), (CL, "r1c2", {"water": 1}), (EX, "r2c1", {"water": 4}),
               (NAV, "r0c0", {"water": 0})], dug={"r1c1": "well"})  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "r0c1", "r1c0", "r1c2", "r2c1") + ["take_water(p0)", "give_water(p0, p1)", "end_actions(p0)"]
    )  # r0c0 is diagonal: not next to her
    do(s, "take_water(p0)")
    assert s.water[0] == 4 and s.actions_left == 3
    do(s, "take_water(p0)")
    assert s.water[0] == 5 and "take_water(p0)" not in texts(s)  # her canteen holds 5
    do(s, "give_water(p0, p1)")
    assert s.water[:2] == [4, 2] and s.actions_left == 2 and s.phase == ACTIONS


def test_no_water_from_a_mirage_or_an_unexcavated_well():
    assert "take_water(p0)" not in texts(state([(WC, "r1c1", {"water": 2}), (CL, "r3c3")], dug={"r1c1": "mirage"}))
    assert "take_water(p0)" not in texts(state([(WC, "r1c1", {"water": 2}), (CL, "r3c3")], seen={"r1c1": "well"}))
    # only the Water Carrier draws from a well
    assert not [t for t in texts(state([(NAV, "r1c1", {"water": 2}), (WC, "r3c3")], dug={"r1c1": "well"}))
                if t.startswith("take")]  # fmt: skip
