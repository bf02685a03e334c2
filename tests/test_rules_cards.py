"""Treasure cards: the draw step, Waters Rise!, the hand limit, Sandbags and Helicopter Lift (rules 4 and 6)."""

from __future__ import annotations

import pytest
from positions import counts, do, hand, state, texts, tiles_in

from fi_cli.island.engine import ACTIONS, DISCARD_PHASE, FLOOD, OVER
from fi_cli.island.position import to_dict
from fi_cli.island.tiles import DRY, FLOOD_DRAWS, FLOODED, SUNK, TILE_INDEX

WG = "whispering_garden"
WT = TILE_INDEX["watchtower"]


def moves(p: int, *tiles: str) -> list[str]:
    return [f"move(p{p}, {t})" for t in tiles]


# ----------------------------------------------------------------------------------------------- hand limit
def test_hand_limit_after_drawing_discard_or_play_instead():
    s = state([("engineer", WG, {"earth_stone": 2, "statue_of_the_wind": 2, "sandbags": 1}),
               ("messenger", "fools_landing")],
              flooded=["watchtower"], treasure_deck={"crystal_of_fire": 3},
              flood_top=[["cave_of_embers", "observatory"]])  # fmt: skip
    do(s, "end_actions(p0)")
    assert (s.phase, s.discarder) == (DISCARD_PHASE, 0)
    assert hand(s, 0) == {"earth_stone": 2, "statue_of_the_wind": 2, "crystal_of_fire": 1, "sandbags": 1}
    assert texts(s) == sorted(["discard(p0, earth_stone)", "discard(p0, statue_of_the_wind)",
                               "discard(p0, crystal_of_fire)", "discard(p0, sandbags)",
                               "play(p0, sandbags, watchtower)"])  # fmt: skip
    do(s, "play(p0, sandbags, watchtower)")  # playing the card gets the hand down to 5; the second draw follows
    assert s.tiles[WT] == DRY
    assert (s.phase, s.discarder) == (DISCARD_PHASE, 0) and sum(s.hands[0]) == 6
    assert texts(s) == sorted(["discard(p0, earth_stone)", "discard(p0, statue_of_the_wind)",
                               "discard(p0, crystal_of_fire)"])  # fmt: skip
    do(s, "discard(p0, crystal_of_fire)")
    assert hand(s, 0) == {"earth_stone": 2, "statue_of_the_wind": 2, "crystal_of_fire": 1}
    assert counts(s.tdiscard)["crystal_of_fire"] == 3 and counts(s.tdiscard)["sandbags"] == 2
    # then the flood step ran on its own and it is the next player's turn
    assert (s.phase, s.current, s.turn) == (ACTIONS, 1, 2)
    assert tiles_in(s, FLOODED) == ["cave_of_embers", "observatory"]


def test_hand_limit_after_receiving_a_card_play_instead_of_discarding():
    s = state([("messenger", WG, {"earth_stone": 1}),
               ("engineer", "fools_landing", {"statue_of_the_wind": 2, "crystal_of_fire": 2, "sandbags": 1})],
              flooded=["watchtower"])  # fmt: skip
    # the non-current holder's Sandbags are part of the current player's decision
    assert texts(s) == sorted(moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
                              + ["give(p0, p1, earth_stone)", "play(p1, sandbags, watchtower)",
                                 "end_actions(p0)"])  # fmt: skip
    do(s, "give(p0, p1, earth_stone)")
    assert (s.phase, s.discarder) == (DISCARD_PHASE, 1)
    assert texts(s) == sorted(["discard(p1, earth_stone)", "discard(p1, statue_of_the_wind)",
                               "discard(p1, crystal_of_fire)", "discard(p1, sandbags)",
                               "play(p1, sandbags, watchtower)"])  # fmt: skip
    do(s, "play(p1, sandbags, watchtower)")
    assert (s.phase, s.current, s.actions_left) == (ACTIONS, 0, 2)
    assert hand(s, 1) == {"earth_stone": 1, "statue_of_the_wind": 2, "crystal_of_fire": 2}
    assert texts(s) == sorted(moves(0, "gold_gate", "temple_of_the_sun", "howling_garden", "breakers_bridge")
                              + ["end_actions(p0)"])  # fmt: skip


def test_hand_limit_after_receiving_by_discarding():
    s = state([("messenger", WG, {"earth_stone": 1}),
               ("engineer", "fools_landing", {"statue_of_the_wind": 3, "crystal_of_fire": 2})])  # fmt: skip
    do(s, "give(p0, p1, earth_stone)")
    assert texts(s) == sorted(["discard(p1, earth_stone)", "discard(p1, statue_of_the_wind)",
                               "discard(p1, crystal_of_fire)"])  # fmt: skip
    do(s, "discard(p1, statue_of_the_wind)")
    assert hand(s, 1) == {"earth_stone": 1, "statue_of_the_wind": 2, "crystal_of_fire": 2}
    assert (s.phase, s.actions_left) == (ACTIONS, 2)


def test_five_cards_are_allowed():
    s = state([("engineer", WG, {"earth_stone": 3}), ("messenger", "fools_landing")],
              treasure_deck={"crystal_of_fire": 2}, flood_top=[["cave_of_embers", "observatory"]])  # fmt: skip
    do(s, "end_actions(p0)")
    assert (s.phase, s.current) == (ACTIONS, 1) and hand(s, 0) == {"earth_stone": 3, "crystal_of_fire": 2}


# ----------------------------------------------------------------------------------------------- Waters Rise!
FLOODED3 = ["observatory", "phantom_rock", "watchtower"]


def _before_draws(deck, *, water=2, discard=FLOODED3, **kw):
    # p1's Sandbags (with flooded tiles about) make the flood step a decision, so it can be looked at
    return state([("engineer", WG), ("messenger", "fools_landing", {"sandbags": 1})],
                 flooded=FLOODED3, flood_discard=list(discard), treasure_deck=deck, water=water, **kw)  # fmt: skip


def test_waters_rise_raises_the_water_and_puts_the_flood_discard_on_top():
    s = _before_draws({"waters_rise": 1, "earth_stone": 1})
    do(s, "end_actions(p0)")
    assert s.water == 3 and hand(s, 0) == {"earth_stone": 1}  # Waters Rise! is not kept
    # ... but discarded; the draw pile ran out, so the discard pile (with it) became the draw pile at once
    assert counts(s.tdeck)["waters_rise"] == 3 and counts(s.tdiscard) == {}
    doc = to_dict(s)
    assert doc["flood_discard"] == [] and doc["flood_deck"][0] == FLOODED3 and len(doc["flood_deck"]) == 2
    # the flood step follows the new level: 3 cards, all from the segment put back on top
    assert (s.phase, s.flood_left) == (FLOOD, 3)
    assert texts(s) == sorted(["draw_flood"] + [f"play(p1, sandbags, {t})" for t in FLOODED3])
    do(s, "draw_flood", "draw_flood", "draw_flood")
    assert tiles_in(s, SUNK) == FLOODED3 and (s.phase, s.current, s.turn) == (ACTIONS, 1, 2)


def test_double_waters_rise_raises_twice_and_shuffles_once():
    s = _before_draws({"waters_rise": 2})
    do(s, "end_actions(p0)")
    assert s.water == 4 and hand(s, 0) == {}
    doc = to_dict(s)
    assert doc["flood_deck"][0] == FLOODED3 and len(doc["flood_deck"]) == 2 and doc["flood_discard"] == []
    assert s.flood_left == FLOOD_DRAWS[4] == 3


def test_waters_rise_with_an_empty_flood_discard_only_raises_the_water():
    s = _before_draws({"waters_rise": 1, "earth_stone": 1}, discard=[])
    do(s, "end_actions(p0)")
    assert s.water == 3 and len(s.fdeck) == 1 and sum(map(len, s.fdeck)) == 24 and s.fdiscard == []


@pytest.mark.parametrize("level", range(1, 9))
def test_flood_draws_follow_the_new_level(level):
    s = _before_draws({"waters_rise": 1, "earth_stone": 1}, water=level)
    do(s, "end_actions(p0)")
    assert s.water == level + 1 and s.flood_left == FLOOD_DRAWS[level + 1]


def test_treasure_deck_reshuffle_takes_the_waters_rise_cards_back():
    # one card left; the discard pile holds an Earth Stone, the Lifts, the Sandbags and the 3 Waters Rise!
    rose = set()
    for seed in range(40):
        s = state([("engineer", WG, {"earth_stone": 3}), ("messenger", "fools_landing", {"statue_of_the_wind": 5}),
                   ("pilot", "fools_landing", {"crystal_of_fire": 5}), ("diver", "watchtower", {"oceans_chalice": 5})],
                  treasure_deck={"earth_stone": 1}, flooded=["observatory"], flood_discard=["observatory"],
                  seed=seed)  # fmt: skip
        assert counts(s.tdiscard) == {"earth_stone": 1, "helicopter_lift": 3, "sandbags": 2, "waters_rise": 3}
        do(s, "end_actions(p0)")
        n = s.water - 2
        rose.add(n)
        # the discard became the draw pile; a Waters Rise! drawn from it starts the new discard pile
        assert sum(s.tdeck) == 8 and s.tdiscard[6] == n and s.tdeck[6] == 3 - n and sum(s.tdiscard) == n
        assert sum(s.hands[0]) == 3 + 2 - n
    assert rose == {0, 1}


@pytest.mark.parametrize("rid", ["discard(p0, earth_stone)", "play(p0, sandbags, watchtower)"])
def test_the_last_card_drawn_reshuffles_the_discard_at_once_later_discards_start_the_new_pile(rid):
    # rule 4.2: the pile is reshuffled as soon as its last card is drawn, not when the next card is needed
    s = state([("engineer", WG, {"earth_stone": 2, "statue_of_the_wind": 2, "sandbags": 1}),
               ("messenger", "fools_landing")],
              flooded=["watchtower"], treasure_deck={"crystal_of_fire": 1},
              flood_top=[["cave_of_embers", "observatory"]])  # fmt: skip
    old_discard = counts(s.tdiscard)
    do(s, "end_actions(p0)")
    # the last card went to the hand (6 cards): the new draw pile is exactly the old discard pile
    assert (s.phase, s.discarder, s.draws_left) == (DISCARD_PHASE, 0, 1)
    assert counts(s.tdeck) == old_discard and counts(s.tdiscard) == {}
    do(s, rid)
    card = rid.split(", ")[1].rstrip(")")
    # the card got rid of starts the new discard pile; the second draw came from the new draw pile
    assert counts(s.tdiscard).get(card) == 1 and sum(s.tdeck) == sum(old_discard.values()) - 1
    assert sum(s.tdiscard) == 1 + (s.water - 2)  # plus a Waters Rise! if the second card was one


def test_a_waters_rise_drawn_last_is_resolved_and_discarded_before_the_reshuffle():
    s = _before_draws({"waters_rise": 1}, flood_top=None)
    assert counts(s.tdiscard)["waters_rise"] == 2
    do(s, "end_actions(p0)")
    # the water rose, the Waters Rise! went to the discard pile, then that pile became the draw pile
    assert s.water >= 3 and to_dict(s)["flood_deck"][0] == FLOODED3
    assert s.tdeck[6] + s.tdiscard[6] == 3 and sum(s.tdeck) + sum(s.tdiscard) == 28 - sum(map(sum, s.hands))
    # the second card came from the new pile: at most one card in the new discard pile (a second Waters Rise!)
    assert sum(s.tdiscard) == s.water - 3


@pytest.mark.parametrize("seed", range(6))
def test_reshuffle_when_the_draw_pile_runs_out_between_the_two_draws(seed):
    # one card left; the discard holds the rest: the second card comes from the reshuffled discard
    s = state([("engineer", WG), ("messenger", "fools_landing")], treasure_deck={"earth_stone": 1},
              flood_top=[["cave_of_embers", "observatory"]], seed=seed)  # fmt: skip
    assert sum(s.tdiscard) == 27
    do(s, "end_actions(p0)")
    rose = s.water - 2  # 1 if the second card was a Waters Rise!
    assert s.hands[0][0] >= 1 and sum(s.hands[0]) == 2 - rose
    assert sum(s.tdeck) == 26 and counts(s.tdiscard) == ({"waters_rise": 1} if rose else {})


def test_waters_rise_to_the_skull_loses_at_once():
    s = _before_draws({"waters_rise": 1, "earth_stone": 1}, water=9)
    do(s, "end_actions(p0)")
    assert (s.phase, s.outcome, s.loss_causes, s.water) == (OVER, "loss", ("water_level",), 10)
    assert s.legal_actions() == []


# ----------------------------------------------------------------------------------------------- Sandbags
def test_sandbags_dry_any_flooded_tile_on_the_island():
    s = state([("engineer", "fools_landing"), ("messenger", "fools_landing", {"sandbags": 1})],
              flooded=["watchtower", "cave_of_shadows", "temple_of_the_moon"], actions_left=0)  # fmt: skip
    assert texts(s) == sorted(["play(p1, sandbags, watchtower)", "play(p1, sandbags, cave_of_shadows)",
                               "play(p1, sandbags, temple_of_the_moon)", "end_actions(p0)"])  # fmt: skip
    assert texts(state([("engineer", "fools_landing"), ("messenger", "fools_landing", {"sandbags": 1})],
                       actions_left=0)) == ["end_actions(p0)"]  # fmt: skip


def test_special_cards_between_flood_draws():
    s = state([("engineer", WG), ("messenger", "fools_landing", {"sandbags": 1})], flooded=["watchtower"],
              phase="flood", flood_left=2, flood_top=[["observatory"]])  # fmt: skip
    assert texts(s) == ["draw_flood", "play(p1, sandbags, watchtower)"]
    do(s, "draw_flood")
    assert s.tiles[TILE_INDEX["observatory"]] == FLOODED and (s.phase, s.flood_left) == (FLOOD, 1)
    # a tile flooded by the card just drawn can still be saved
    assert texts(s) == ["draw_flood", "play(p1, sandbags, observatory)", "play(p1, sandbags, watchtower)"]
    do(s, "play(p1, sandbags, observatory)")
    # nothing left to play: the last flood card is drawn on its own (observatory's card is in the discard)
    assert s.tiles[TILE_INDEX["observatory"]] == DRY and (s.phase, s.current, s.turn) == (ACTIONS, 1, 2)


def test_sandbags_cannot_save_a_flooded_tile_whose_card_is_drawn():
    s = state([("engineer", WG), ("messenger", "fools_landing", {"sandbags": 1})], flooded=["watchtower"],
              phase="flood", flood_left=1, flood_top=[["watchtower"]])  # fmt: skip
    do(s, "draw_flood")
    assert s.tiles[WT] == SUNK and WT not in s.fdiscard and all(WT not in seg for seg in s.fdeck)
    assert hand(s, 1) == {"sandbags": 1} and (s.current, s.turn) == (1, 2)


# ----------------------------------------------------------------------------------------------- Helicopter Lift
HELI_ISLAND = ["fools_landing", "gold_gate", WG, "watchtower"]


def test_helicopter_lift_moves_any_group_of_pawns_from_one_tile():
    players = [("engineer", "gold_gate"), ("messenger", "gold_gate"), ("pilot", "watchtower", {"helicopter_lift": 1})]
    s = state(players, only=HELI_ISLAND, actions_left=0)
    heli = "play(p2, helicopter_lift, {}, {})"
    assert texts(s) == sorted(
        [heli.format(g, t) for g in ("p0+p1", "p0", "p1") for t in ("fools_landing", WG, "watchtower")]
        + [heli.format("p2", t) for t in ("fools_landing", "gold_gate", WG)]
        + ["end_actions(p0)"]
    )
    s = state(players, only=HELI_ISLAND, actions_left=0, rules={"helicopter_lift_group": "all"})
    assert texts(s) == sorted(
        [heli.format("p0+p1", t) for t in ("fools_landing", WG, "watchtower")]
        + [heli.format("p2", t) for t in ("fools_landing", "gold_gate", WG)]
        + ["end_actions(p0)"]
    )


def test_helicopter_lift_play_moves_the_pawns_and_discards_the_card():
    players = [("engineer", "gold_gate"), ("messenger", "gold_gate"), ("pilot", "watchtower", {"helicopter_lift": 1})]
    s = state(players, only=HELI_ISLAND, treasure_deck={"earth_stone": 2})
    do(s, "play(p2, helicopter_lift, p1, watchtower)")
    assert s.pos == [TILE_INDEX["gold_gate"], WT, WT] and s.actions_left == 3  # not an action
    assert hand(s, 2) == {} and counts(s.tdiscard)["helicopter_lift"] == 3


def test_lift_off_wins_with_all_treasures_and_everyone_on_fools_landing():
    players = [("engineer", "fools_landing"), ("messenger", "fools_landing", {"helicopter_lift": 1})]
    all4 = ["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"]
    only = ["fools_landing", "bronze_gate", "gold_gate"]
    s = state(players, only=only, captured=all4, flooded=["fools_landing"])
    heli = "play(p1, helicopter_lift, {}, {})"
    assert texts(s) == sorted(
        moves(0, "bronze_gate", "gold_gate")
        + ["shore_up(p0, fools_landing)", "play(p1, helicopter_lift, lift_off)", "end_actions(p0)"]
        + [heli.format(g, t) for g in ("p0+p1", "p0", "p1") for t in ("bronze_gate", "gold_gate")]
    )
    do(s, "play(p1, helicopter_lift, lift_off)")
    assert (s.phase, s.outcome, s.loss_causes, s.loss_cause) == (OVER, "win", (), None)
    assert s.legal_actions() == []


def test_no_lift_off_without_all_four_treasures_or_with_a_pawn_elsewhere():
    three = ["earth_stone", "statue_of_the_wind", "crystal_of_fire"]
    s = state([("engineer", "fools_landing"), ("messenger", "fools_landing", {"helicopter_lift": 1})],
              captured=three)  # fmt: skip
    assert "play(p1, helicopter_lift, lift_off)" not in texts(s)
    all4 = three + ["oceans_chalice"]
    s = state([("engineer", "fools_landing"), ("messenger", "gold_gate", {"helicopter_lift": 1})], captured=all4)
    assert "play(p1, helicopter_lift, lift_off)" not in texts(s)
    # moving the last pawn there makes it possible
    do(s, "play(p1, helicopter_lift, p1, fools_landing)")
    assert s.phase == ACTIONS and "lift_off" not in " ".join(texts(s))  # the only Lift is spent


def test_lift_off_between_flood_draws_by_a_non_current_player():
    all4 = ["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"]
    s = state([("engineer", "fools_landing"), ("messenger", "fools_landing", {"helicopter_lift": 1})],
              only=["fools_landing", "gold_gate"], captured=all4, phase="flood", flood_left=2)  # fmt: skip
    assert texts(s) == sorted(["draw_flood", "play(p1, helicopter_lift, lift_off)",
                               "play(p1, helicopter_lift, p0+p1, gold_gate)",
                               "play(p1, helicopter_lift, p0, gold_gate)",
                               "play(p1, helicopter_lift, p1, gold_gate)"])  # fmt: skip
    do(s, "play(p1, helicopter_lift, lift_off)")
    assert s.outcome == "win"


def test_special_cards_in_a_discard_decision_belong_to_the_discarder_only():
    s = state([("engineer", WG, {"earth_stone": 5}), ("messenger", "fools_landing", {"sandbags": 1})],
              flooded=["watchtower"], treasure_deck={"crystal_of_fire": 2})  # fmt: skip
    do(s, "end_actions(p0)")
    assert s.phase == DISCARD_PHASE
    assert texts(s) == ["discard(p0, crystal_of_fire)", "discard(p0, earth_stone)"]
