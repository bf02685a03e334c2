"""Every gear card (rule 1, gear deck), played by any holder at any decision: on its own turn, on another
player's and between storm cards; the variant ``jet_pack_when_buried``."""

from __future__ import annotations

import pytest
from desert_positions import cell, do, state, texts, unblocked_cells

from fi_cli.desert.engine import ACTIONS, STORM
from fi_cli.desert.position import to_dict
from fi_cli.desert.tiles import KINDS

WC, CL, EX, NAV, ARCH, MET = "water_carrier", "climber", "explorer", "navigator", "archeologist", "meteorologist"


def plays(s) -> list[str]:
    return [t for t in texts(s) if t.startswith("play")]


# ----------------------------------------------------------------------------------------------- Dune Blaster
def test_dune_blaster_clears_a_tile_next_to_its_holder_on_anyones_turn():
    sand = {"r3c3": 1, "r2c3": 3, "r3c2": 2, "r4c4": 1}
    s = state([(WC, "r1c1"), (NAV, "r3c3", {"gear": {"dune_blaster": 1}})], sand=sand)
    assert plays(s) == ["play(p1, dune_blaster, r2c3)", "play(p1, dune_blaster, r3c2)", "play(p1, dune_blaster, r3c3)"]
    do(s, "play(p1, dune_blaster, r2c3)")
    assert (s.sand[cell("r2c3")], s.supply, s.hands[1][0], s.gused[0], s.actions_left) == (0, 44, 0, 1, 4)


def test_the_explorers_dune_blaster_reaches_the_diagonals():
    sand = {"r2c3": 3, "r4c4": 1, "r2c4": 2}
    s = state([(WC, "r1c1"), (EX, "r3c3", {"gear": {"dune_blaster": 1}})], sand=sand)
    assert plays(s) == ["play(p1, dune_blaster, r2c3)", "play(p1, dune_blaster, r2c4)", "play(p1, dune_blaster, r4c4)"]


def test_a_buried_pawn_may_blast_itself_free():
    s = state([(WC, "r1c1", {"gear": {"dune_blaster": 1}}), (CL, "r3c3")], sand={"r1c1": 4})
    assert texts(s) == ["end_actions(p0)", "play(p0, dune_blaster, r1c1)", "remove_sand(p0, r1c1)"]
    do(s, "play(p0, dune_blaster, r1c1)")
    assert not s.buried(0) and s.sand[cell("r1c1")] == 0


def test_gear_between_storm_cards():
    # the holder is not the current player; the storm phase asks before each card
    s = state([(WC, "r1c1"), (NAV, "r1c2", {"gear": {"dune_blaster": 1}})], sand={"r1c3": 1},
              storm_top=["wind_west_1", "wind_west_1", "wind_west_1"])  # fmt: skip
    do(s, "end_actions(p0)")
    assert s.phase == STORM and s.storm_left == 3
    assert texts(s) == ["draw_storm", "play(p1, dune_blaster, r1c3)"]
    do(s, "draw_storm")  # the tile of r2c3 slides west into r2c2 with a sand marker: next to p1 now
    assert s.storm == cell("r2c3") and s.storm_left == 2 and s.phase == STORM
    assert texts(s) == ["draw_storm", "play(p1, dune_blaster, r1c3)", "play(p1, dune_blaster, r2c2)"]
    do(s, "play(p1, dune_blaster, r2c2)")
    # nothing left to play or give: the last two cards were drawn by themselves (the second had no tile to move)
    assert (s.phase, s.current, s.storm) == (ACTIONS, 1, cell("r2c4"))
    assert (s.sand[cell("r2c2")], s.sand[cell("r2c3")], s.supply) == (0, 1, 46)


# ----------------------------------------------------------------------------------------------- Jet Pack
def test_jet_pack_flies_to_any_unblocked_tile_with_one_pawn_along():
    s = state([(WC, "r1c1"), (CL, "r3c3", {"gear": {"jet_pack": 1}}), (EX, "r3c3")], sand={"r0c0": 2, "r4c4": 3})
    dest = unblocked_cells(s, but=("r3c3",))
    assert len(dest) == 21
    assert plays(s) == sorted([f"play(p1, jet_pack, {c})" for c in dest] + [f"play(p1, jet_pack, {c}, p2)"
                                                                             for c in dest])  # fmt: skip
    do(s, "play(p1, jet_pack, r0c1, p2)")
    assert s.pos == [cell("r1c1"), cell("r0c1"), cell("r0c1")] and s.actions_left == 4 and s.gused[1] == 1


@pytest.mark.parametrize("when_buried", [True, False])
def test_jet_pack_when_buried(when_buried):
    rules = {"jet_pack_when_buried": when_buried}
    s = state([(WC, "r1c1", {"gear": {"jet_pack": 1}}), (NAV, "r1c1"), (ARCH, "r3c3")], sand={"r1c1": 2},
              rules=rules)  # fmt: skip
    assert s.buried(0)
    jets = plays(s)
    if when_buried:
        dest = unblocked_cells(s, but=("r1c1",))
        assert jets == sorted([f"play(p0, jet_pack, {c})" for c in dest] + [f"play(p0, jet_pack, {c}, p1)"
                                                                            for c in dest])  # fmt: skip
        do(s, "play(p0, jet_pack, r4c2, p1)")  # the buried passenger comes along
        assert s.pos[:2] == [cell("r4c2")] * 2 and not s.buried(0)
    else:
        assert jets == []
    # with the Climber on the tile nobody there is buried: the Jet Pack works under either rule
    s = state([(WC, "r1c1", {"gear": {"jet_pack": 1}}), (CL, "r1c1"), (ARCH, "r3c3")], sand={"r1c1": 2}, rules=rules)
    assert len(plays(s)) == 2 * len(unblocked_cells(s, but=("r1c1",)))


# ----------------------------------------------------------------------------------------------- Solar Shield
def test_solar_shield_protects_its_users_tile_until_the_start_of_her_next_turn():
    # full canteens where pawns meet: no water to give, so the storm runs without asking
    s = state([(WC, "r1c1", {"gear": {"solar_shield": 1}}), (NAV, "r1c1"), (EX, "r3c3")], level=1,
              storm_top=["sun_beats_down", "sun_beats_down", "sun_beats_down", "wind_north_1", "wind_north_1",
                         "wind_north_1"])  # fmt: skip
    assert plays(s) == ["play(p0, solar_shield)"]
    do(s, "play(p0, solar_shield)")
    assert plays(s) == [] and to_dict(s)["players"][0]["solar_shield"] is True
    do(s, "end_actions(p0)")  # two suns: the shield holds for p0 and p1, not for p2
    assert s.water == [5, 4, 2] and s.current == 1
    do(s, "move(p1, r1c2)", "move(p1, r1c3)", "end_actions(p1)")  # a sun: p1 has left the shield's tile
    assert s.water == [5, 3, 1] and s.current == 2 and s.shields == 1
    do(s, "end_actions(p2)")
    assert s.current == 0 and s.shields == 0  # p0's turn starts: her shield is down


def test_the_shield_goes_with_its_user():
    s = state([(WC, "r1c1", {"gear": {"solar_shield": 1}, "water": 3}), (NAV, "r1c2", {"water": 3})], level=1,
              storm_top=["sun_beats_down", "sun_beats_down"])  # fmt: skip
    do(s, "play(p0, solar_shield)", "move(p0, r1c2)", "end_actions(p0)")
    assert s.water == [3, 3]


def test_a_shield_played_between_storm_cards():
    s = state([(WC, "r1c1"), (NAV, "r1c3", {"gear": {"solar_shield": 1}, "water": 3})], level=1,
              storm_top=["wind_north_1", "sun_beats_down"])  # fmt: skip
    do(s, "end_actions(p0)")
    assert texts(s) == ["draw_storm", "play(p1, solar_shield)"]
    do(s, "draw_storm", "play(p1, solar_shield)")  # then the sun, drawn by itself: p1 is in the shade
    assert s.phase == ACTIONS and s.water == [4, 3]


# ----------------------------------------------------------------------------------------------- Terrascope
def test_terrascope_shows_the_underside_of_an_unexcavated_tile_to_everyone():
    s = state([(WC, "r1c1", {"gear": {"terrascope": 1}}), (CL, "r3c3")], seen={"r1c2": "tunnel"}, seed=3)
    hidden = [c for c, t in to_dict(s)["tiles"].items() if t["tile"].startswith("hidden")]
    assert len(hidden) == 22  # not the Crash Site, not the tunnel already seen
    assert plays(s) == sorted(f"play(p0, terrascope, {c})" for c in hidden)
    do(s, "play(p0, terrascope, r4c0)")
    assert KINDS[s.kind[cell("r4c0")]] in ("well", "mirage") and not s.dug[cell("r4c0")]
    assert s.hands[0][3] == 0 and s.gused[3] == 1 and s.actions_left == 4


def test_terrascope_draws_from_the_tiles_not_yet_seen():
    seen = {"r0c1": "launch_pad", "r0c2": "tunnel", "r0c3": "tunnel", "r1c0": "tunnel"}
    found = set()
    for seed in range(60):
        s = state([(WC, "r1c1", {"gear": {"terrascope": 1}}), (CL, "r3c3")], seen=seen, seed=seed)
        do(s, "play(p0, terrascope, r3c1)")
        found.add(KINDS[s.kind[cell("r3c1")]])
    assert "launch_pad" not in found and "tunnel" not in found and "gear" in found and len(found) > 3


# ----------------------------------------------------------------------------------------------- Secret Water Reserve
def test_secret_water_reserve_gives_two_water_to_every_pawn_on_the_tile():
    s = state([(WC, "r1c1", {"gear": {"secret_water_reserve": 1}, "water": 4}), (CL, "r1c1", {"water": 0}),
               (EX, "r1c2", {"water": 0})])  # fmt: skip
    assert "play(p0, secret_water_reserve)" in plays(s)
    do(s, "play(p0, secret_water_reserve)")
    assert s.water == [5, 2, 0] and s.gused[4] == 1


def test_secret_water_reserve_is_not_offered_when_every_canteen_there_is_full():
    s = state([(WC, "r1c1", {"gear": {"secret_water_reserve": 1}}), (CL, "r1c1"), (EX, "r1c2", {"water": 0})])
    assert plays(s) == []


# ----------------------------------------------------------------------------------------------- Time Throttle
def test_time_throttle_two_more_actions_for_the_current_player():
    s = state([(WC, "r1c1", {"gear": {"time_throttle": 1}}), (CL, "r3c3")], actions_left=0,
              storm_top=["wind_north_1"] * 3)  # fmt: skip
    assert texts(s) == ["end_actions(p0)", "play(p0, time_throttle)"]
    do(s, "play(p0, time_throttle)")
    assert s.actions_left == 2 and s.gused[5] == 1
    do(s, "move(p0, r1c0)", "move(p0, r1c1)")
    assert s.current == 1


def test_time_throttle_only_on_the_holders_turn_but_it_can_be_passed_first():
    s = state([(WC, "r1c1"), (CL, "r1c2", {"gear": {"time_throttle": 1}})], storm_top=["wind_north_1"] * 3)
    assert plays(s) == []
    do(s, "end_actions(p0)")  # nor between storm cards: the storm ran by itself
    assert s.current == 1 and s.phase == ACTIONS
    assert "play(p1, time_throttle)" in plays(s)
    s = state([(WC, "r1c1"), (CL, "r1c1", {"gear": {"time_throttle": 1}})])
    assert plays(s) == [] and "give_gear(p1, p0, time_throttle)" in texts(s)
    do(s, "give_gear(p1, p0, time_throttle)", "play(p0, time_throttle)")
    assert s.actions_left == 6


def test_the_first_holders_gear_plays_alone_tell_whether_any_is_open():
    # gear_actions(first=True) stops at the first holder with a play: what the engine asks to know whether the
    # game waits for a decision
    s = state([(WC, "r1c1", {"gear": {"solar_shield": 1}}), (NAV, "r3c3", {"gear": {"dune_blaster": 1}})],
              sand={"r2c3": 3})  # fmt: skip
    everyone = s.gear_actions()
    first = s.gear_actions(first=True)
    assert first == [a for a in everyone if a[1] == 0] and len(first) < len(everyone)
    assert s.gear_actions([1], first=True) == [a for a in everyone if a[1] == 1]
    none = state([(WC, "r1c1"), (NAV, "r3c3")])
    assert none.gear_actions(first=True) == none.gear_actions() == []
