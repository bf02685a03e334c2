"""Plain actions: moving, shoring up, the number of actions, ending the actions step (rules 4 and 5)."""

from __future__ import annotations

import pytest
from positions import do, state, texts

from fi_cli.island.actions import parse_action
from fi_cli.island.engine import ACTIONS, IllegalActionError
from fi_cli.island.tiles import DRY, FLOODED, TILE_INDEX

WG = "whispering_garden"


def test_plain_move_is_orthogonal_not_into_sunk_flooded_ok_and_shore_adjacent_or_own():
    # messenger on whispering_garden (2,2): gold_gate N, breakers_bridge S (sunk), temple_of_the_sun W
    # (flooded), howling_garden E; iron_gate (1,3) is a flooded diagonal: not reachable, not shorable.
    s = state(
        [("messenger", WG), ("engineer", "watchtower")],
        flooded=["temple_of_the_sun", "iron_gate", WG],
        sunk=["breakers_bridge"],
    )
    assert texts(s) == sorted([
        "move(p0, gold_gate)",
        "move(p0, howling_garden)",
        "move(p0, temple_of_the_sun)",
        "shore_up(p0, temple_of_the_sun)",
        "shore_up(p0, whispering_garden)",
        "end_actions(p0)",
    ])


def test_move_at_the_edge_of_the_island_and_between_sunk_spaces():
    # fools_landing (0,2): only bronze_gate and gold_gate are on the island next to it
    s = state([("engineer", "fools_landing"), ("messenger", "watchtower")])
    assert texts(s) == sorted(["move(p0, bronze_gate)", "move(p0, gold_gate)", "end_actions(p0)"])
    # every neighbour sunk: nothing but ending the actions
    s = state([("engineer", "fools_landing"), ("messenger", "watchtower")], sunk=["bronze_gate", "gold_gate"])
    assert texts(s) == ["end_actions(p0)"]


def test_a_sunk_space_cannot_be_crossed():
    # misty_marsh (4,2) is two steps below whispering_garden, past sunk breakers_bridge: not a move
    s = state([("messenger", WG), ("engineer", "watchtower")], sunk=["breakers_bridge"])
    assert "move(p0, misty_marsh)" not in texts(s)
    with pytest.raises(IllegalActionError, match=r"move\(p0, misty_marsh\) is not legal in the actions phase"):
        s.apply_checked(parse_action("move(p0, misty_marsh)"))


def test_move_and_shore_up_change_the_state_and_cost_one_action_each():
    s = state([("messenger", WG), ("engineer", "watchtower")], flooded=["gold_gate"])
    do(s, "move(p0, gold_gate)")
    assert s.pos[0] == TILE_INDEX["gold_gate"] and s.actions_left == 2
    do(s, "shore_up(p0, gold_gate)")
    assert s.tiles[TILE_INDEX["gold_gate"]] == DRY and s.actions_left == 1
    assert texts(s) == sorted([
        "move(p0, fools_landing)",
        "move(p0, copper_gate)",
        "move(p0, iron_gate)",
        "move(p0, whispering_garden)",
        "end_actions(p0)",
    ])


def _two_draws_then_next_turn(**kw):
    # The treasure pile holds two crystals only and the flood pile's top segment is twilight_hollow and
    # watchtower, so the draws and the flood are known.
    return state(
        [("messenger", WG), ("engineer", "fools_landing")],
        treasure_deck={"crystal_of_fire": 2},
        flood_top=[["twilight_hollow", "watchtower"]],
        **kw,
    )


def test_three_actions_then_the_draws_happen_on_their_own():
    s = _two_draws_then_next_turn()
    do(s, "move(p0, gold_gate)", "move(p0, whispering_garden)", "move(p0, gold_gate)")
    # no special card anywhere: after the third action the turn runs on to the next player's actions
    assert s.phase == ACTIONS and s.current == 1 and s.turn == 2 and s.actions_left == 3
    assert s.hands[0][2] == 2  # both crystals drawn
    assert s.tiles[TILE_INDEX["twilight_hollow"]] == FLOODED and s.tiles[TILE_INDEX["watchtower"]] == FLOODED
    assert sorted(s.fdiscard) == sorted([TILE_INDEX["twilight_hollow"], TILE_INDEX["watchtower"]])


@pytest.mark.parametrize("n_actions", [0, 1, 2])
def test_fewer_than_three_actions_are_allowed(n_actions):
    s = _two_draws_then_next_turn()
    for a in ["move(p0, gold_gate)", "move(p0, whispering_garden)"][:n_actions]:
        do(s, a)
    assert s.actions_left == 3 - n_actions
    do(s, "end_actions(p0)")
    assert s.current == 1 and s.turn == 2 and s.hands[0][2] == 2
    assert s.tiles[TILE_INDEX["watchtower"]] == FLOODED


def test_no_fourth_action():
    s = _two_draws_then_next_turn(actions_left=0)
    # with no special card to play the engine never stops here; a hand-built position lists only the end
    assert texts(s) == ["end_actions(p0)"]
    with pytest.raises(IllegalActionError):
        s.apply_checked(parse_action("move(p0, gold_gate)"))


def test_after_the_third_action_special_cards_can_still_be_played_before_drawing():
    s = state(
        [("messenger", WG), ("engineer", "fools_landing", {"sandbags": 1})],
        flooded=["watchtower"],
        actions_left=1,
        treasure_deck={"crystal_of_fire": 3},
        flood_top=[["cave_of_embers", "observatory"]],
    )
    do(s, "move(p0, gold_gate)")
    assert s.phase == ACTIONS and s.actions_left == 0
    assert texts(s) == sorted(["play(p1, sandbags, watchtower)", "end_actions(p0)"])
    do(s, "play(p1, sandbags, watchtower)")
    # nothing left to play: the draws and the flood follow at once
    assert s.phase == ACTIONS and s.turn == 2 and s.current == 1
    assert s.hands[0][2] == 2 and s.tdiscard[5] == 2
    assert s.tiles[TILE_INDEX["watchtower"]] == DRY and s.tiles[TILE_INDEX["observatory"]] == FLOODED


def test_actions_belong_to_the_current_player_only():
    s = state([("messenger", WG), ("engineer", "fools_landing")], current=1)
    assert texts(s) == sorted(["move(p1, bronze_gate)", "move(p1, gold_gate)", "end_actions(p1)"])
    with pytest.raises(IllegalActionError, match="decision of p1"):
        s.apply_checked(parse_action("move(p0, gold_gate)"))
