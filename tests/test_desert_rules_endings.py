"""The end of a Desert game (rule 7): taking off, checked after every action, free action, gear and storm card
(variant ``launch_pad_needs_excavation``); the loss causes and their ids."""

from __future__ import annotations

import pytest
from desert_positions import do, state

from fi_cli.desert.actions import parse_action
from fi_cli.desert.engine import OVER, IllegalActionError
from fi_cli.desert.tiles import LOSS_CAUSES

WC, CL, EX, NAV = "water_carrier", "climber", "explorer", "navigator"
ALL = {"propeller": "collected", "engine": "collected", "solar_crystal": "collected", "navigation_deck": "collected"}
PAD = {"r1c1": "launch_pad"}


def test_loss_cause_ids():
    assert LOSS_CAUSES == ("thirst", "buried", "storm")


def test_take_off_as_the_last_pawn_reaches_the_launch_pad():
    s = state([(WC, "r1c1"), (NAV, "r1c2")], dug=PAD, sand={"r1c1": 1}, parts=ALL, current=1)
    do(s, "move(p1, r1c1)")
    assert (s.outcome, s.phase, s.loss_causes) == ("win", OVER, ())
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply_checked(parse_action("move(p1, r1c2)"))


def test_no_take_off_without_every_part():
    parts = dict(ALL, engine="r1c1")
    s = state([(WC, "r1c1"), (NAV, "r1c2")], dug=PAD, parts=parts, current=1)
    do(s, "move(p1, r1c1)")
    assert s.outcome is None
    do(s, "pick_up(p1, engine)")
    assert s.outcome == "win"


def test_no_take_off_from_a_blocked_launch_pad_until_it_is_dug_out():
    s = state([(CL, "r1c1"), (NAV, "r1c1")], dug=PAD, sand={"r1c1": 2}, parts=ALL)
    assert s.outcome is None
    do(s, "remove_sand(p0, r1c1)")  # 1 sand left: not blocked
    assert s.outcome == "win"


@pytest.mark.parametrize("needs_excavation", [False, True])
def test_launch_pad_needs_excavation(needs_excavation):
    s = state([(WC, "r1c1"), (NAV, "r1c2")], seen=PAD, parts=ALL, current=1,
              rules={"launch_pad_needs_excavation": needs_excavation})  # fmt: skip
    do(s, "move(p1, r1c1)")
    assert s.outcome == (None if needs_excavation else "win")
    if needs_excavation:
        do(s, "excavate(p1)")
        assert s.outcome == "win"


def test_no_take_off_from_a_tile_nobody_knows_is_the_launch_pad():
    # r1c1 is desert side up: it may be the Launch Pad, but nobody knows
    s = state([(WC, "r1c1"), (NAV, "r1c2")], parts=ALL, current=1)
    do(s, "move(p1, r1c1)")
    assert s.outcome is None


def test_take_off_with_a_jet_pack_between_storm_cards():
    s = state([(WC, "r3c3", {"gear": {"jet_pack": 1}}), (NAV, "r3c3"), (EX, "r1c1")], dug=PAD, parts=ALL,
              storm_top=["wind_west_1", "wind_west_1"], storm_left=2, phase="storm", level=1)  # fmt: skip
    do(s, "play(p0, jet_pack, r1c1, p1)")
    assert s.outcome == "win"


def test_every_loss_is_one_cause_at_a_time():
    # each storm card brings one danger: thirst from the sun, the supply from the wind, the skull from Picks Up
    s = state([(WC, "r0c1", {"water": 0}), (NAV, "r4c4")], storm_top=["sun_beats_down"], storm_left=1,
              phase="storm")  # fmt: skip
    do(s, "draw_storm")
    assert (s.outcome, s.loss_cause, s.loss_causes) == ("loss", "thirst", ("thirst",))


def test_take_off_from_a_launch_pad_known_by_elimination():
    # the 19 other look-alike tiles are known: the last one can only be the Launch Pad
    seen = {"r0c1": "tunnel", "r0c2": "tunnel", "r0c3": "tunnel", "r1c0": "gear", "r1c1": "gear", "r1c2": "gear",
            "r1c3": "gear", "r1c4": "gear", "r2c0": "gear", "r2c1": "gear", "r2c3": "gear", "r2c4": "propeller_row",
            "r3c0": "propeller_column", "r3c1": "engine_row", "r3c2": "engine_column", "r3c3": "solar_crystal_row",
            "r3c4": "solar_crystal_column", "r4c1": "navigation_deck_row", "r4c2": "navigation_deck_column"}
    s = state([(WC, "r4c3"), (NAV, "r4c2")], seen=seen, parts=ALL, current=1)
    assert s.launch_pad() == s.pos[0] and not s.dug[s.pos[0]]
    do(s, "move(p1, r4c3)")
    assert s.outcome == "win"
