"""The flood step: flooding, sinking, the flood deck, swimming for every role, helicopter rescues (rules 4.3 and 6)."""

from __future__ import annotations

import pytest
from positions import do, state, texts, tiles_in

from fi_cli.island.engine import ACTIONS, FLOOD, OVER, SWIM_PHASE
from fi_cli.island.position import to_dict
from fi_cli.island.tiles import FLOOD_DRAWS, FLOODED, SUNK, TILE_INDEX

WG = "whispering_garden"


def test_flood_draws_per_water_level_table():
    assert FLOOD_DRAWS[1:] == (2, 2, 3, 3, 3, 4, 4, 5, 5)


@pytest.mark.parametrize("level,expected", list(zip(range(1, 10), (2, 2, 3, 3, 3, 4, 4, 5, 5), strict=True)))
def test_each_level_draws_its_number_of_flood_cards(level, expected):
    s = state([("engineer", WG), ("messenger", "fools_landing")], water=level, treasure_deck={"earth_stone": 2})
    do(s, "end_actions(p0)")
    assert (s.current, s.turn) == (1, 2)
    assert len(tiles_in(s, FLOODED)) == expected and len(s.fdiscard) == expected
    assert sum(map(len, s.fdeck)) == 24 - expected


def test_a_dry_tile_floods_and_a_flooded_tile_sinks_with_its_card():
    s = state([("engineer", WG), ("messenger", "fools_landing")], flooded=["watchtower"], phase="flood",
              flood_left=2, flood_top=[["observatory"], ["watchtower"]], flood_discard=["cave_of_embers"])  # fmt: skip
    assert texts(s) == ["draw_flood"]
    do(s, "draw_flood")  # observatory: dry -> flooded; the second draw (watchtower) follows on its own
    assert tiles_in(s, FLOODED) == ["observatory"] and tiles_in(s, SUNK) == ["watchtower"]
    doc = to_dict(s)
    assert doc["flood_discard"] == ["cave_of_embers", "observatory"]
    assert len(doc["flood_deck"]) == 1 and len(doc["flood_deck"][0]) == 21 and "watchtower" not in doc["flood_deck"][0]
    assert (s.phase, s.current, s.turn) == (ACTIONS, 1, 2)


def test_flood_deck_reshuffles_its_discard_when_empty():
    # only fools_landing and watchtower are left, both cards in the discard pile, the draw pile empty
    s = state([("engineer", "fools_landing"), ("messenger", "fools_landing")],
              only=["fools_landing", "watchtower"], flooded=["watchtower"],
              flood_discard=["fools_landing", "watchtower"], phase="flood", flood_left=2)  # fmt: skip
    assert s.fdeck == []
    do(s, "draw_flood")
    assert tiles_in(s, FLOODED) == ["fools_landing"] and s.tiles[TILE_INDEX["watchtower"]] == SUNK
    assert s.fdeck == [] and s.fdiscard == [TILE_INDEX["fools_landing"]]
    assert (s.phase, s.turn, s.outcome) == (ACTIONS, 2, None)


def test_a_card_drawn_earlier_in_the_turn_can_come_back_after_a_reshuffle():
    endings = set()
    for seed in range(24):
        s = state([("engineer", "fools_landing"), ("messenger", "fools_landing")],
                  only=["fools_landing", "twilight_hollow"], flooded=["fools_landing"],
                  flood_top=[["twilight_hollow"]], flood_discard=["fools_landing"], phase="flood", flood_left=2,
                  seed=seed)  # fmt: skip
        do(s, "draw_flood")
        endings.add((s.tiles[TILE_INDEX["twilight_hollow"]], s.outcome, s.loss_cause))
    # twilight_hollow floods, goes to the discard, the discard is reshuffled and either card comes up
    assert endings == {(SUNK, None, None), (FLOODED, "loss", "fools_landing_sunk")}


# ----------------------------------------------------------------------------------------------- swimming
def _sinking(players, *, flooded=(WG,), top=WG, captured=("statue_of_the_wind",), **kw):
    # whispering_garden sinks; the Statue of the Wind is captured so that howling_garden may be sunk too
    kw = {"flood_left": 1, "flood_top": [[top]], **kw}
    return state(players, flooded=list(flooded), phase="flood", captured=captured, **kw)


@pytest.mark.parametrize("role", ["engineer", "navigator", "messenger"])
def test_swim_orthogonally(role):
    s = _sinking([("pilot", "fools_landing"), (role, WG)], sunk=["temple_of_the_sun"])
    do(s, "draw_flood")
    assert (s.phase, s.swimmers, s.sinking, s.decider) == (SWIM_PHASE, [1], TILE_INDEX[WG], 1)
    assert texts(s) == ["swim(p1, breakers_bridge)", "swim(p1, gold_gate)", "swim(p1, howling_garden)"]
    do(s, "swim(p1, howling_garden)")
    assert s.pos[1] == TILE_INDEX["howling_garden"] and (s.phase, s.current, s.turn) == (ACTIONS, 1, 2)


def test_explorer_swims_diagonally_too():
    s = _sinking([("pilot", "fools_landing"), ("explorer", WG)], sunk=["temple_of_the_sun"])
    do(s, "draw_flood")
    assert texts(s) == sorted(f"swim(p1, {t})" for t in ["gold_gate", "howling_garden", "breakers_bridge",
                              "copper_gate", "iron_gate", "tidal_palace", "cliffs_of_abandon"])  # fmt: skip


PILOT_ISLAND = ["fools_landing", "gold_gate", WG, "watchtower", "temple_of_the_moon"]
PILOT_ANYWHERE = sorted(f"swim(p0, {t})" for t in ["fools_landing", "gold_gate", "watchtower", "temple_of_the_moon"])


@pytest.mark.parametrize("flight_used", [False, True])
def test_pilot_swims_to_any_tile_without_using_its_flight(flight_used):
    s = _sinking([("pilot", WG), ("engineer", "fools_landing")], only=PILOT_ISLAND, flight_used=flight_used,
                 actions_left=0)  # fmt: skip
    do(s, "draw_flood")
    assert texts(s) == PILOT_ANYWHERE
    do(s, "swim(p0, watchtower)")
    assert s.pos[0] == TILE_INDEX["watchtower"] and s.current == 1


def test_pilot_swim_uses_flight_on_its_own_turn_after_flying_it_swims_like_any_pawn():
    rules = {"pilot_swim_uses_flight": True}
    s = _sinking([("pilot", WG), ("engineer", "fools_landing")], only=PILOT_ISLAND, flight_used=True,
                 actions_left=0, rules=rules)  # fmt: skip
    do(s, "draw_flood")
    assert texts(s) == ["swim(p0, gold_gate)"]  # its only orthogonal neighbour above water


@pytest.mark.parametrize("to,flight", [("temple_of_the_moon", True), ("gold_gate", False)])
def test_pilot_swim_uses_flight_on_its_own_turn_the_escape_flight_uses_it_up(to, flight):
    # the engineer's Sandbags (a flooded tile left) make the next flood card a decision, so the turn can be seen
    s = _sinking([("pilot", WG), ("engineer", "fools_landing", {"sandbags": 1})], only=PILOT_ISLAND,
                 flooded=[WG, "watchtower"], actions_left=0, rules={"pilot_swim_uses_flight": True},
                 flood_left=2, flood_top=[[WG], ["gold_gate"]])  # fmt: skip
    do(s, "draw_flood")
    assert s.phase == SWIM_PHASE and texts(s) == PILOT_ANYWHERE
    do(s, f"swim(p0, {to})")  # a swim to an orthogonal neighbour is no flight
    assert (s.phase, s.current, s.flight_used) == (FLOOD, 0, flight)


@pytest.mark.parametrize("flight_used", [False, True])
def test_pilot_swim_uses_flight_has_no_effect_on_other_players_turns(flight_used):
    # seat 1 is the current player: its turn's flight flag is not the Pilot's
    s = _sinking([("engineer", "fools_landing"), ("pilot", WG)], only=PILOT_ISLAND, flight_used=flight_used,
                 actions_left=0, rules={"pilot_swim_uses_flight": True})  # fmt: skip
    do(s, "draw_flood")
    assert texts(s) == [t.replace("p0", "p1") for t in PILOT_ANYWHERE]


def test_diver_swims_to_the_nearest_tile_or_any_reachable():
    # around whispering_garden: gold_gate, temple_of_the_sun and breakers_bridge sunk, howling_garden flooded
    kw = dict(flooded=[WG, "howling_garden"], sunk=["gold_gate", "temple_of_the_sun", "breakers_bridge"])
    s = _sinking([("pilot", "fools_landing"), ("diver", WG)], **kw)
    do(s, "draw_flood")
    assert texts(s) == ["swim(p1, howling_garden)"]
    s = _sinking([("pilot", "fools_landing"), ("diver", WG)], rules={"diver_swim": "any_reachable"}, **kw)
    do(s, "draw_flood")
    assert texts(s) == sorted(f"swim(p1, {t})" for t in [
        "fools_landing", "copper_gate", "iron_gate", "temple_of_the_moon", "tidal_palace", "howling_garden",
        "cave_of_embers", "cliffs_of_abandon", "misty_marsh"])  # fmt: skip


def test_diver_nearest_when_every_neighbour_has_sunk():
    kw = dict(flooded=[WG, "cave_of_embers"],
              sunk=["gold_gate", "temple_of_the_sun", "breakers_bridge", "howling_garden"])  # fmt: skip
    ring = ["fools_landing", "copper_gate", "iron_gate", "temple_of_the_moon", "tidal_palace", "cave_of_embers",
            "cliffs_of_abandon", "misty_marsh"]  # fmt: skip
    s = _sinking([("pilot", "fools_landing"), ("diver", WG)], **kw)
    do(s, "draw_flood")
    assert texts(s) == sorted(f"swim(p1, {t})" for t in ring)
    s = _sinking([("pilot", "fools_landing"), ("diver", WG)], rules={"diver_swim": "any_reachable"}, **kw)
    do(s, "draw_flood")
    assert texts(s) == sorted(f"swim(p1, {t})" for t in ring + ["silver_gate", "cave_of_shadows", "crimson_forest"])


def test_every_pawn_on_the_sinking_tile_swims_in_seat_order():
    s = _sinking([("pilot", "fools_landing"), ("messenger", WG), ("explorer", WG)], sunk=["temple_of_the_sun"])
    do(s, "draw_flood")
    assert s.swimmers == [1, 2]
    assert texts(s) == ["swim(p1, breakers_bridge)", "swim(p1, gold_gate)", "swim(p1, howling_garden)"]
    do(s, "swim(p1, gold_gate)")
    assert s.phase == SWIM_PHASE and s.swimmers == [2] and s.decider == 2
    assert len(texts(s)) == 7
    do(s, "swim(p2, tidal_palace)")
    assert s.phase == ACTIONS and s.pos == [0, TILE_INDEX["gold_gate"], TILE_INDEX["tidal_palace"]]


def test_swim_then_the_remaining_flood_cards():
    s = state([("pilot", "fools_landing"), ("messenger", WG)], flooded=[WG], phase="flood", flood_left=2,
              flood_top=[[WG], ["watchtower"]])  # fmt: skip
    do(s, "draw_flood", "swim(p1, gold_gate)")
    assert tiles_in(s, FLOODED) == ["watchtower"] and (s.phase, s.turn) == (ACTIONS, 2)


# ----------------------------------------------------------------------------------------------- helicopter rescue
RESCUE_ISLAND = ["fools_landing", "gold_gate", WG, "watchtower"]


def test_helicopter_rescue_is_offered_to_any_holder_by_default():
    players = [("pilot", "fools_landing"), ("messenger", WG), ("engineer", "watchtower", {"helicopter_lift": 1})]
    s = _sinking(players, only=RESCUE_ISLAND)
    do(s, "draw_flood")
    assert texts(s) == sorted(["swim(p1, gold_gate)"] + [f"play(p2, helicopter_lift, p1, {t})" for t in
                                                          ("fools_landing", "gold_gate", "watchtower")])  # fmt: skip
    do(s, "play(p2, helicopter_lift, p1, watchtower)")
    assert s.pos[1] == TILE_INDEX["watchtower"] and s.hands[2][4] == 0 and s.tdiscard[4] == 1
    assert (s.phase, s.turn) == (ACTIONS, 2)


def test_helicopter_rescue_of_a_group():
    players = [("pilot", "fools_landing", {"helicopter_lift": 1}), ("messenger", WG), ("engineer", WG)]
    heli = "play(p0, helicopter_lift, {}, {})"
    s = _sinking(players, only=RESCUE_ISLAND)
    do(s, "draw_flood")
    assert texts(s) == sorted(["swim(p1, gold_gate)"] + [heli.format(g, t) for g in ("p1+p2", "p1", "p2")
                                                          for t in ("fools_landing", "gold_gate", "watchtower")])
    s = _sinking(players, only=RESCUE_ISLAND, rules={"helicopter_lift_group": "all"})
    do(s, "draw_flood")
    assert texts(s) == sorted(["swim(p1, gold_gate)"] + [heli.format("p1+p2", t)
                                                          for t in ("fools_landing", "gold_gate", "watchtower")])
    do(s, "play(p0, helicopter_lift, p1+p2, fools_landing)")
    assert s.pos == [0, 0, 0] and s.swimmers == [] and s.phase == ACTIONS


def test_no_helicopter_rescue_in_the_variant_without_it():
    players = [("pilot", "fools_landing"), ("messenger", WG), ("engineer", "watchtower", {"helicopter_lift": 1})]
    s = _sinking(players, only=RESCUE_ISLAND, rules={"helicopter_rescue": False})
    do(s, "draw_flood")
    assert texts(s) == ["swim(p1, gold_gate)"]


def test_helicopter_rescue_saves_a_pawn_that_cannot_swim():
    players = [("pilot", "fools_landing"), ("messenger", WG), ("engineer", "watchtower", {"helicopter_lift": 1})]
    only = ["fools_landing", WG, "watchtower"]
    s = _sinking(players, only=only)
    do(s, "draw_flood")
    assert texts(s) == ["play(p2, helicopter_lift, p1, fools_landing)", "play(p2, helicopter_lift, p1, watchtower)"]
    s = _sinking(players, only=only, rules={"helicopter_rescue": False})
    do(s, "draw_flood")
    assert (s.phase, s.outcome, s.loss_causes) == (OVER, "loss", ("player_drowned",))


def test_a_pawn_with_nowhere_to_swim_drowns():
    s = _sinking([("pilot", "fools_landing"), ("explorer", WG)], only=["fools_landing", WG, "watchtower"])
    do(s, "draw_flood")
    assert (s.phase, s.outcome, s.loss_cause) == (OVER, "loss", "player_drowned")


def test_the_flood_step_is_a_decision_only_when_a_special_card_could_be_played():
    s = state([("pilot", "fools_landing"), ("messenger", WG, {"sandbags": 1})], phase="flood", flood_left=2,
              flood_top=[["watchtower", "observatory"]])  # fmt: skip
    assert s.phase == FLOOD
    do(s, "draw_flood")  # now a tile is flooded: the Sandbags could be played before the next card
    assert (s.phase, s.flood_left) == (FLOOD, 1) and len(texts(s)) == 2
