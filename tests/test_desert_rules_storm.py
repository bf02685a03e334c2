"""The storm (rules 1, 2, 4.2 and 5): Wind Blows, Storm Picks Up, Sun Beats Down, the deck and its reshuffles
(variant ``reshuffle_includes_this_draw``), the Meteorologist's look (variant ``meteorologist_peek_return``)."""

from __future__ import annotations

import pytest
from desert_positions import cell, do, state, texts

from fi_cli.desert.engine import ACTIONS, ORDER, OVER, PEEK
from fi_cli.desert.position import to_dict
from fi_cli.desert.render import draw_position
from fi_cli.desert.tiles import STORM_CARD_INDEX, STORM_CARDS

WC, CL, EX, NAV, ARCH, MET = "water_carrier", "climber", "explorer", "navigator", "archeologist", "meteorologist"
SUN, UP = "sun_beats_down", "storm_picks_up"


def card(name: str) -> int:
    return STORM_CARD_INDEX[name]


# ----------------------------------------------------------------------------------------------- Wind Blows
def test_wind_slides_several_tiles_with_their_pawns_sand_and_part():
    # the storm on r0c2; a wind north of strength 3 slides r1c2, r2c2 and r3c2 up one cell each
    s = state([(WC, "r1c1"), (NAV, "r1c2"), (EX, "r3c2")], storm="r0c2", dug={"r3c2": "tunnel"},
              sand={"r1c2": 1, "r2c2": 2}, parts={"engine": "r2c2"}, storm_top=["wind_north_3"], level=1,
              storm_left=1, phase="storm")  # fmt: skip
    do(s, "draw_storm")
    d = to_dict(s)
    assert d["storm"] == "r3c2"
    assert [d["tiles"][c]["sand"] for c in ("r0c2", "r1c2", "r2c2")] == [2, 3, 1]
    assert d["tiles"]["r2c2"] == {"tile": "tunnel", "excavated": True, "sand": 1}
    assert [p["cell"] for p in d["players"]] == ["r1c1", "r0c2", "r2c2"]
    assert d["parts"]["engine"] == "r1c2" and d["sand_supply"] == 48 - 6


@pytest.mark.parametrize("name, storm_after, moved", [
    ("wind_north_1", "r3c2", ["r2c2"]), ("wind_south_2", "r0c2", ["r1c2", "r2c2"]),
    ("wind_east_3", "r2c0", ["r2c1", "r2c2"]), ("wind_west_2", "r2c4", ["r2c2", "r2c3"]),
])  # fmt: skip
def test_wind_directions_and_the_edge_of_the_desert(name, storm_after, moved):
    # tiles slide the card's way, the storm the other; at the edge the rest of the card does nothing
    s = state([(WC, "r0c0"), (NAV, "r4c4")], storm_top=[name], storm_left=1, phase="storm")
    do(s, "draw_storm")
    d = to_dict(s)
    assert d["storm"] == storm_after
    assert sorted(c for c, t in d["tiles"].items() if t["sand"]) == moved
    assert d["sand_supply"] == 48 - len(moved)


def test_the_sand_supply_running_out_mid_card_is_a_loss():
    s = state([(WC, "r0c0"), (NAV, "r4c4")], sand={"r0c0": 47}, storm_top=["wind_north_3"], storm_left=1,
              phase="storm")  # fmt: skip
    do(s, "draw_storm")
    assert (s.outcome, s.loss_causes, s.phase) == ("loss", ("buried",), OVER)
    assert s.supply == 0 and sum(s.sand) == 48 and s.storm == cell("r4c2")  # the second tile found no marker


# ----------------------------------------------------------------------------------------------- Storm Picks Up
def test_storm_picks_up_and_the_new_count_from_the_next_turn():
    # 4 players, mark 5 draws 3 cards; mark 6 draws 4
    players = [(WC, "r0c0"), (NAV, "r4c4"), (EX, "r0c4"), (ARCH, "r4c0")]
    s = state(players, level=5, storm_top=[UP, "wind_north_1", "wind_north_1", "wind_east_1", "wind_east_1",
                                           "wind_east_1", "wind_west_1", "wind_west_1"])  # fmt: skip
    do(s, "end_actions(p0)")
    assert s.level == 6 and s.current == 1 and len(s.stop) == 5  # 3 drawn this turn
    do(s, "end_actions(p1)")
    assert len(s.stop) == 1  # 4 drawn


def test_storm_meter_at_the_skull_is_a_loss():
    s = state([(WC, "r0c0"), (NAV, "r4c4")], level=13, storm_top=[UP], storm_left=1, phase="storm")
    do(s, "draw_storm")
    assert (s.outcome, s.loss_causes, s.level) == ("loss", ("storm",), 14)
    s = state([(WC, "r0c0"), (NAV, "r4c4")], level=12, storm_top=[UP], storm_left=1, phase="storm")
    do(s, "draw_storm")
    assert s.outcome is None and s.level == 13


# ----------------------------------------------------------------------------------------------- Sun Beats Down
def test_sun_beats_down_except_in_excavated_tunnels_blocked_ones_too():
    s = state([(WC, "r0c1"), (NAV, "r1c1"), (EX, "r3c4"), (ARCH, "r4c2")],
              dug={"r0c1": "tunnel", "r3c4": "tunnel"}, seen={"r4c2": "tunnel"}, sand={"r3c4": 3},
              storm_top=[SUN], storm_left=1, phase="storm")  # fmt: skip
    do(s, "draw_storm")
    assert s.water == [5, 3, 4, 2]  # the Archeologist's tunnel is not excavated yet


@pytest.mark.parametrize("thirst_at_zero", [False, True])
def test_thirst(thirst_at_zero):
    rules = {"thirst_at_zero": thirst_at_zero}
    s = state([(WC, "r0c1", {"water": 1}), (NAV, "r4c4")], rules=rules, storm_top=[SUN], storm_left=1, phase="storm")
    do(s, "draw_storm")
    assert s.water == [0, 3]
    assert (s.outcome, s.loss_causes) == (("loss", ("thirst",)) if thirst_at_zero else (None, ()))
    if not thirst_at_zero:  # 0 is a legal level: the next sun finds p0 with nothing to drink
        s = state([(WC, "r0c1", {"water": 0}), (NAV, "r4c4")], storm_top=[SUN], storm_left=1, phase="storm")
        do(s, "draw_storm")
        assert (s.outcome, s.loss_causes, s.water) == ("loss", ("thirst",), [0, 3])


# ----------------------------------------------------------------------------------------------- the deck
def _running_out(rules):
    # one card left on the deck; the turn draws three; the other 30 cards are in the discard pile
    return state([(WC, "r0c0"), (NAV, "r4c4")], rules=rules, storm_top=[SUN], storm_middle={}, level=2)


def test_a_reshuffle_mid_draw_leaves_out_this_turns_cards():
    for seed in range(10):
        s = _running_out({})
        s.rng.seed(seed)
        do(s, "end_actions(p0)")
        # the sun drawn first stayed out of the new deck: the deck lacks the 3 cards of this turn
        assert s.deck_size() == 28 and sum(s.sdiscard) == 3 and s.sdiscard[card(SUN)] >= 1
        assert s.sdeck[card(SUN)] + s.sdiscard[card(SUN)] == 4


def test_a_reshuffle_mid_draw_takes_this_turns_cards_under_the_variant():
    for seed in range(10):
        s = _running_out({"reshuffle_includes_this_draw": True})
        s.rng.seed(seed)
        do(s, "end_actions(p0)")
        # the sun was discarded as it was resolved and went into the new deck of 31: two drawn from it since
        assert s.deck_size() == 29 and sum(s.sdiscard) == 2


def test_cards_drawn_are_discarded_after_the_whole_draw():
    s = state([(WC, "r0c0"), (NAV, "r4c4", {"gear": {"solar_shield": 1}})],
              storm_top=["wind_north_1", "wind_north_1", "wind_north_1"])  # fmt: skip
    do(s, "end_actions(p0)", "draw_storm")
    assert to_dict(s)["storm_drawn"] == {"wind_north_1": 1} and to_dict(s)["storm_discard"] == {}
    do(s, "draw_storm", "draw_storm")
    assert to_dict(s)["storm_drawn"] == {} and to_dict(s)["storm_discard"] == {"wind_north_1": 3}


# --------------------------------------------------------------------------------------------- the Meteorologist's look
def test_meteorologist_looks_and_puts_one_card_at_the_bottom():
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=["wind_north_1", SUN, UP])
    do(s, "peek_storm(p0)")
    assert (s.phase, s.actions_left) == (PEEK, 3)
    assert [STORM_CARDS[c] for c in s.window] == ["wind_north_1", SUN, UP]
    assert texts(s) == ["keep_top(p0)", "to_bottom(p0, 0)", "to_bottom(p0, 1)", "to_bottom(p0, 2)"]
    do(s, "to_bottom(p0, 1)")
    deck = to_dict(s)["storm_deck"]
    assert (deck["top"], deck["bottom"], s.phase) == (["wind_north_1", UP], [SUN], ACTIONS)


def test_the_look_reveals_unknown_cards_to_the_team():
    s = state([(MET, "r1c1"), (CL, "r3c3")], seed=4)
    do(s, "peek_storm(p0)", "keep_top(p0)")
    deck = to_dict(s)["storm_deck"]
    assert len(deck["top"]) == 3 and sum(deck["middle"].values()) == 28
    before = deck["top"]
    do(s, "end_actions(p0)")
    assert s.deck_size() == 28  # the 3 known cards came
    assert sum(to_dict(s)["storm_discard"].values()) == 3 and sorted(to_dict(s)["storm_discard"]) == sorted(set(before))


def test_identical_cards_give_one_choice_each():
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=[SUN, SUN, UP])
    do(s, "peek_storm(p0)")
    assert texts(s) == ["keep_top(p0)", "to_bottom(p0, 0)", "to_bottom(p0, 2)"]


def test_a_short_deck_shows_what_it_has_and_an_empty_one_is_reshuffled_first():
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=[UP], storm_middle={})
    do(s, "peek_storm(p0)")
    assert [STORM_CARDS[c] for c in s.window] == [UP]
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_middle={})
    do(s, "peek_storm(p0)")
    assert len(s.window) == 3 and sum(s.sdeck) == 28 and sum(s.sdiscard) == 0


def test_top_any_order_lets_the_team_stack_the_cards():
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=[SUN, "wind_north_1", SUN, UP], level=6,
              rules={"meteorologist_peek_return": "top_any_order"})  # fmt: skip
    # 2 players, mark 6: 4 cards; only which card goes under matters, the rest is stacked afterwards
    do(s, "peek_storm(p0)")
    assert texts(s) == ["keep_top(p0)", "to_bottom(p0, 0)", "to_bottom(p0, 1)", "to_bottom(p0, 3)"]
    do(s, "to_bottom(p0, 3)")
    assert s.phase == ORDER
    assert texts(s) == ["stack(p0, sun_beats_down)", "stack(p0, wind_north_1)"]
    do(s, "stack(p0, wind_north_1)")  # the two suns are all that is left: they follow by themselves
    deck = to_dict(s)["storm_deck"]
    assert (s.phase, deck["top"], deck["bottom"]) == (ACTIONS, ["wind_north_1", SUN, SUN], [UP])


def test_top_same_order_keeps_the_order():
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=[SUN, "wind_north_1", UP])
    do(s, "peek_storm(p0)", "keep_top(p0)")
    assert to_dict(s)["storm_deck"]["top"] == [SUN, "wind_north_1", UP] and s.phase == ACTIONS


def test_cards_at_the_bottom_come_after_the_unknown_middle():
    s = state([(MET, "r1c1"), (CL, "r3c3")], storm_top=[UP], storm_middle={"wind_north_1": 1}, storm_bottom=[SUN],
              level=1)  # fmt: skip
    do(s, "end_actions(p0)")  # 2 cards: the known top, then the middle
    assert [STORM_CARDS[c] for c in s.sbottom] == [SUN] and s.level == 2
    do(s, "end_actions(p1)")  # 3 cards now: the bottom card, then a reshuffle
    assert s.sbottom == [] and s.sdrawn == [0] * 14 and s.sdiscard[card(SUN)] >= 1


def test_a_game_lost_to_the_storm_is_drawn_with_the_meter_at_the_skull():
    s = state([(WC, "r0c0"), (NAV, "r4c4")], level=13, storm_top=[UP], storm_left=1, phase="storm")
    do(s, "draw_storm")
    assert "storm meter 14/14 (the skull)" in draw_position(s) and "RESULT: loss (storm)" in draw_position(s)
