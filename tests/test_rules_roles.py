"""Every role ability of the role table (rules 1 and 5) and the variant ``navigator_moves`` / ``diver_through_sea``."""

from __future__ import annotations

import random

import pytest
from positions import VOLCANO_ROWS, do, hand, state, texts

from fi_cli.island.actions import parse_action
from fi_cli.island.engine import IllegalActionError
from fi_cli.island.tiles import DRY, FLOODED, TILE_INDEX

WG = "whispering_garden"


def moves(p: int, *tiles: str) -> list[str]:
    return [f"move(p{p}, {t})" for t in tiles]


# ----------------------------------------------------------------------------------------------- Explorer
def test_explorer_moves_and_shores_up_diagonally():
    # diagonals of whispering_garden: copper_gate, iron_gate (flooded), tidal_palace (flooded),
    # cliffs_of_abandon (sunk); orthogonal: gold_gate, temple_of_the_sun, howling_garden, breakers_bridge (flooded)
    s = state(
        [("explorer", WG), ("messenger", "watchtower")],
        flooded=["iron_gate", "tidal_palace", "breakers_bridge"],
        sunk=["cliffs_of_abandon"],
    )
    assert texts(s) == sorted(
        moves(0, "copper_gate", "gold_gate", "iron_gate", "temple_of_the_sun", "howling_garden", "tidal_palace",
              "breakers_bridge")
        + ["shore_up(p0, iron_gate)", "shore_up(p0, tidal_palace)", "shore_up(p0, breakers_bridge)",
           "end_actions(p0)"]
    )  # fmt: skip


def test_non_explorers_do_not_use_diagonals():
    s = state([("engineer", WG), ("messenger", "watchtower")], flooded=["iron_gate", "tidal_palace"])
    assert texts(s) == sorted(moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
                              + ["end_actions(p0)"])  # fmt: skip


# ----------------------------------------------------------------------------------------------- Pilot
PILOT_ISLAND = ["fools_landing", "gold_gate", WG, "temple_of_the_moon", "cliffs_of_abandon", "watchtower"]


def test_pilot_flies_to_any_tile_not_sunk_once_per_turn():
    s = state([("pilot", WG), ("messenger", "watchtower")], only=PILOT_ISLAND)
    assert texts(s) == sorted(
        ["move(p0, gold_gate)", "end_actions(p0)"]
        + [f"fly(p0, {t})" for t in ["fools_landing", "gold_gate", "temple_of_the_moon", "cliffs_of_abandon",
                                      "watchtower"]]
    )  # fmt: skip
    do(s, "fly(p0, temple_of_the_moon)")
    assert s.pos[0] == TILE_INDEX["temple_of_the_moon"] and s.actions_left == 2 and s.flight_used
    # the flight is used up for this turn: the Pilot has no neighbour left and no second flight
    assert texts(s) == ["end_actions(p0)"]
    with pytest.raises(IllegalActionError):
        s.apply_checked(parse_action("fly(p0, watchtower)"))


def test_pilot_flight_comes_back_next_turn():
    s = state([("pilot", WG), ("messenger", "watchtower")], only=PILOT_ISLAND, water=1,
              treasure_deck={"earth_stone": 4}, flood_top=[["cliffs_of_abandon", "fools_landing"]])  # fmt: skip
    do(s, "fly(p0, fools_landing)", "end_actions(p0)")
    assert s.current == 1 and s.turn == 2
    do(s, "end_actions(p1)")
    assert s.current == 0 and s.turn == 3 and not s.flight_used
    assert "fly(p0, watchtower)" in texts(s)


def test_pilot_with_flight_already_used_or_no_action_left():
    s = state([("pilot", WG), ("messenger", "watchtower")], only=PILOT_ISLAND, flight_used=True)
    assert texts(s) == ["end_actions(p0)", "move(p0, gold_gate)"]
    s = state([("pilot", WG), ("messenger", "watchtower")], only=PILOT_ISLAND, actions_left=0)
    assert texts(s) == ["end_actions(p0)"]


def test_only_the_pilot_flies():
    s = state([("messenger", WG), ("pilot", "watchtower")], only=PILOT_ISLAND)
    assert not [t for t in texts(s) if t.startswith("fly")]


# ----------------------------------------------------------------------------------------------- Engineer
def test_engineer_shores_up_one_or_two_tiles_for_one_action():
    s = state(
        [("engineer", WG), ("messenger", "watchtower")],
        flooded=["gold_gate", "temple_of_the_sun", "howling_garden", "iron_gate"],
    )
    assert texts(s) == sorted(
        moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
        + [
            "shore_up(p0, gold_gate)",
            "shore_up(p0, temple_of_the_sun)",
            "shore_up(p0, howling_garden)",
            "shore_up(p0, gold_gate+temple_of_the_sun)",
            "shore_up(p0, gold_gate+howling_garden)",
            "shore_up(p0, temple_of_the_sun+howling_garden)",
            "end_actions(p0)",
        ]
    )
    do(s, "shore_up(p0, gold_gate+howling_garden)")
    assert s.actions_left == 2
    assert [s.tiles[TILE_INDEX[t]] for t in ("gold_gate", "howling_garden", "temple_of_the_sun", "iron_gate")] == [
        DRY, DRY, FLOODED, FLOODED]  # fmt: skip


def test_engineer_pairs_print_in_the_form_that_parses_back():
    # breakers_bridge (index 14) lies south and temple_of_the_sun (index 7) west of whispering_garden
    s = state([("engineer", WG), ("messenger", "watchtower")], flooded=["breakers_bridge", "temple_of_the_sun"])
    assert "shore_up(p0, temple_of_the_sun+breakers_bridge)" in texts(s)
    for text in texts(s):
        s.copy(random.Random(0)).apply_checked(parse_action(text))  # every printed action is accepted back


def test_engineer_with_own_tile_flooded():
    s = state([("engineer", WG), ("messenger", "watchtower")], flooded=[WG, "gold_gate"])
    assert [t for t in texts(s) if t.startswith("shore")] == sorted(
        ["shore_up(p0, gold_gate)", "shore_up(p0, whispering_garden)", "shore_up(p0, gold_gate+whispering_garden)"]
    )


def test_other_roles_shore_up_one_tile_per_action():
    s = state([("messenger", WG), ("engineer", "watchtower")], flooded=["gold_gate", "howling_garden"])
    assert [t for t in texts(s) if t.startswith("shore")] == [
        "shore_up(p0, gold_gate)", "shore_up(p0, howling_garden)"]  # fmt: skip


# ----------------------------------------------------------------------------------------------- Navigator
def test_navigator_moves_an_explorer_diagonally_with_mover_abilities():
    # explorer on twilight_hollow (5,2); misty_marsh (4,2) sunk
    players = [("navigator", "fools_landing"), ("explorer", "twilight_hollow")]
    s = state(players, sunk=["misty_marsh"])
    reach = ["lost_lagoon", "observatory", "watchtower", "coral_palace", "tidal_palace", "breakers_bridge",
             "cliffs_of_abandon", "crimson_forest", "phantom_rock"]  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "bronze_gate", "gold_gate") + [f"navigate(p0, p1, {t})" for t in reach] + ["end_actions(p0)"]
    )
    s = state(players, sunk=["misty_marsh"], rules={"navigator_moves": "orthogonal"})
    assert texts(s) == sorted(
        moves(0, "bronze_gate", "gold_gate")
        + ["navigate(p0, p1, watchtower)", "navigate(p0, p1, observatory)", "end_actions(p0)"]
    )


def test_navigator_moves_a_diver_whose_first_step_may_pass_over_a_sunk_space():
    players = [("navigator", "fools_landing"), ("diver", WG)]
    s = state(players, sunk=["breakers_bridge"])
    reach = ["gold_gate", "temple_of_the_sun", "howling_garden", "tidal_palace", "cliffs_of_abandon", "misty_marsh",
             "fools_landing", "copper_gate", "iron_gate", "temple_of_the_moon", "cave_of_embers", "coral_palace",
             "lost_lagoon", "crimson_forest", "observatory", "twilight_hollow"]  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "bronze_gate", "gold_gate") + [f"navigate(p0, p1, {t})" for t in reach] + ["end_actions(p0)"]
    )
    s = state(players, sunk=["breakers_bridge"], rules={"navigator_moves": "orthogonal"})
    reach = ["gold_gate", "temple_of_the_sun", "howling_garden", "fools_landing", "copper_gate", "iron_gate",
             "temple_of_the_moon", "tidal_palace", "cave_of_embers", "cliffs_of_abandon"]  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "bronze_gate", "gold_gate") + [f"navigate(p0, p1, {t})" for t in reach] + ["end_actions(p0)"]
    )


def test_navigator_moves_a_diver_over_open_sea_only_with_diver_through_sea():
    # volcano: the diver on temple_of_the_sun (1,2) sits above the sea hole (2,2)
    players = [("navigator", "watchtower"), ("diver", "temple_of_the_sun")]
    near = ["copper_gate", "temple_of_the_moon", "whispering_garden", "bronze_gate", "gold_gate", "silver_gate",
            "cave_of_shadows", "howling_garden", "coral_palace"]  # fmt: skip
    s = state(players, rows=VOLCANO_ROWS)
    assert texts(s) == sorted(moves(0, "lost_lagoon", "twilight_hollow")
                              + [f"navigate(p0, p1, {t})" for t in near] + ["end_actions(p0)"])  # fmt: skip
    s = state(players, rows=VOLCANO_ROWS, rules={"diver_through_sea": True})
    far = ["crimson_forest", "cave_of_embers", "cliffs_of_abandon", "tidal_palace", "dunes_of_deception",
           "phantom_rock"]  # fmt: skip
    assert texts(s) == sorted(moves(0, "lost_lagoon", "twilight_hollow")
                              + [f"navigate(p0, p1, {t})" for t in near + far] + ["end_actions(p0)"])  # fmt: skip


def test_navigator_never_lends_the_pilot_its_flight():
    s = state([("navigator", "watchtower"), ("pilot", "fools_landing")])
    reach = ["bronze_gate", "gold_gate", "iron_gate", "copper_gate", "whispering_garden"]
    assert texts(s) == sorted(
        moves(0, "observatory", "twilight_hollow") + [f"navigate(p0, p1, {t})" for t in reach] + ["end_actions(p0)"]
    )
    do(s, "navigate(p0, p1, whispering_garden)")
    assert s.pos[1] == TILE_INDEX[WG] and s.pos[0] == TILE_INDEX["watchtower"]
    assert s.actions_left == 2 and not s.flight_used


def test_navigator_moves_every_other_player_but_not_itself_that_way():
    s = state([("navigator", "watchtower"), ("engineer", "fools_landing"), ("messenger", "twilight_hollow")],
              sunk=["misty_marsh", "gold_gate"])  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "observatory", "twilight_hollow")
        + ["navigate(p0, p1, bronze_gate)", "navigate(p0, p1, iron_gate)"]
        + ["navigate(p0, p2, watchtower)", "navigate(p0, p2, observatory)"]
        + ["end_actions(p0)"]
    )


def test_only_the_navigator_moves_others():
    s = state([("engineer", "watchtower"), ("navigator", "fools_landing")])
    assert not [t for t in texts(s) if t.startswith("navigate")]


# ----------------------------------------------------------------------------------------------- Diver
def test_diver_swims_through_chains_of_flooded_and_sunk_tiles():
    # flooded chain howling_garden - cave_of_embers to the east; sunk breakers_bridge to the south.
    # iron_gate is dry: the Diver may stop there but not go on to bronze_gate.
    s = state([("diver", WG), ("messenger", "watchtower")],
              flooded=["howling_garden", "cave_of_embers"], sunk=["breakers_bridge"])  # fmt: skip
    reach = ["gold_gate", "temple_of_the_sun", "howling_garden", "cave_of_embers", "iron_gate", "cliffs_of_abandon",
             "silver_gate", "cave_of_shadows", "crimson_forest", "tidal_palace", "misty_marsh"]  # fmt: skip
    assert texts(s) == sorted(moves(0, *reach) + ["shore_up(p0, howling_garden)", "end_actions(p0)"])
    do(s, "move(p0, crimson_forest)")
    assert s.pos[0] == TILE_INDEX["crimson_forest"] and s.actions_left == 2


def test_diver_on_dry_ground_moves_like_anyone():
    s = state([("diver", WG), ("messenger", "watchtower")])
    assert texts(s) == sorted(moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
                              + ["end_actions(p0)"])  # fmt: skip


def test_diver_does_not_cross_open_sea_by_default():
    s = state([("diver", "temple_of_the_sun"), ("messenger", "watchtower")], rows=VOLCANO_ROWS)
    assert texts(s) == sorted(moves(0, "copper_gate", "temple_of_the_moon", "whispering_garden")
                              + ["end_actions(p0)"])  # fmt: skip
    s = state([("diver", "fools_landing"), ("messenger", "watchtower")], rows=VOLCANO_ROWS)
    assert texts(s) == sorted(moves(0, "bronze_gate", "silver_gate") + ["end_actions(p0)"])


def test_diver_crosses_open_sea_with_diver_through_sea():
    rules = {"diver_through_sea": True}
    s = state([("diver", "temple_of_the_sun"), ("messenger", "watchtower")], rows=VOLCANO_ROWS, rules=rules)
    assert texts(s) == sorted(
        moves(0, "copper_gate", "temple_of_the_moon", "whispering_garden", "cave_of_shadows", "coral_palace",
              "crimson_forest") + ["end_actions(p0)"]
    )  # fmt: skip
    # only the sea inside the island's bounding box counts (rule 8): the open sea around it is never crossed,
    # so from a corner the Diver reaches its neighbours only
    s = state([("diver", "fools_landing"), ("messenger", "watchtower")], rows=VOLCANO_ROWS, rules=rules)
    assert texts(s) == sorted(moves(0, "bronze_gate", "silver_gate") + ["end_actions(p0)"])
    # on the standard island the sea cells of the box's corners join the coast: (0,1) (0,0) (1,0) lead from
    # Fools' Landing to Copper Gate and Temple of the Moon
    s = state([("diver", "fools_landing"), ("messenger", "watchtower")], rules=rules)
    reach = ["bronze_gate", "gold_gate", "copper_gate", "temple_of_the_moon"]
    assert texts(s) == sorted(moves(0, *reach) + ["end_actions(p0)"])


# ----------------------------------------------------------------------------------------------- Messenger and giving
def test_messenger_gives_treasure_cards_anywhere_never_special_cards():
    s = state([("messenger", WG, {"earth_stone": 1, "crystal_of_fire": 1, "sandbags": 1}),
               ("engineer", "fools_landing"), ("explorer", WG)])  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
        + ["give(p0, p1, earth_stone)", "give(p0, p1, crystal_of_fire)", "give(p0, p2, earth_stone)",
           "give(p0, p2, crystal_of_fire)", "end_actions(p0)"]
    )  # fmt: skip
    do(s, "give(p0, p1, crystal_of_fire)")
    assert hand(s, 0) == {"earth_stone": 1, "sandbags": 1} and hand(s, 1) == {"crystal_of_fire": 1}
    assert s.actions_left == 2


def test_others_give_only_on_the_same_tile():
    s = state([("engineer", WG, {"earth_stone": 2, "sandbags": 1}), ("messenger", WG),
               ("explorer", "fools_landing", {"crystal_of_fire": 1})])  # fmt: skip
    assert texts(s) == sorted(
        moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
        + ["give(p0, p1, earth_stone)", "end_actions(p0)"]
    )
    with pytest.raises(IllegalActionError):
        s.apply_checked(parse_action("give(p0, p2, earth_stone)"))


def test_helicopter_lift_cannot_be_given():
    s = state([("messenger", "watchtower", {"helicopter_lift": 1}), ("engineer", "watchtower")])
    assert not [t for t in texts(s) if t.startswith("give")]


# ----------------------------------------------------------------------------------------------- Capture
@pytest.mark.parametrize("tile", ["temple_of_the_moon", "temple_of_the_sun"])
@pytest.mark.parametrize("flooded", [False, True])
def test_capture_on_either_tile_dry_or_flooded(tile, flooded):
    s = state([("engineer", tile, {"earth_stone": 5}), ("messenger", "watchtower")],
              flooded=[tile] if flooded else [], sunk=["coral_palace", "tidal_palace"])  # fmt: skip
    assert "capture(p0, earth_stone)" in texts(s)
    do(s, "capture(p0, earth_stone)")
    # (the ocean's chalice, whose palaces have sunk, was captured before: bit 3)
    assert s.captured == 0b1001 and hand(s, 0) == {"earth_stone": 1} and s.tdiscard[0] == 4 and s.actions_left == 2
    assert not [t for t in texts(s) if t.startswith("capture")]


def test_capture_needs_four_matching_cards_and_the_right_tile():
    three = state([("engineer", "temple_of_the_moon", {"earth_stone": 3}), ("messenger", "watchtower")])
    assert not [t for t in texts(three) if t.startswith("capture")]
    wrong = state([("engineer", "temple_of_the_moon", {"oceans_chalice": 4}), ("messenger", "watchtower")])
    assert not [t for t in texts(wrong) if t.startswith("capture")]
    elsewhere = state([("engineer", "coral_palace", {"earth_stone": 4}), ("messenger", "watchtower")])
    assert not [t for t in texts(elsewhere) if t.startswith("capture")]
    on_chalice = state([("engineer", "coral_palace", {"oceans_chalice": 4}), ("messenger", "watchtower")])
    assert [t for t in texts(on_chalice) if t.startswith("capture")] == ["capture(p0, oceans_chalice)"]
    # only the acting player's own cards count
    split = state([("engineer", "temple_of_the_moon", {"earth_stone": 2}),
                   ("messenger", "temple_of_the_moon", {"earth_stone": 2})])  # fmt: skip
    assert not [t for t in texts(split) if t.startswith("capture")]


def test_each_treasure_is_captured_once():
    s = state([("engineer", "temple_of_the_moon", {"earth_stone": 1}), ("messenger", "watchtower")],
              captured=["earth_stone"])  # fmt: skip
    s.hands[0][0] = 4  # impossible by the card count, so forced here to see the engine refuse it
    assert not [t for t in texts(s) if t.startswith("capture")]
