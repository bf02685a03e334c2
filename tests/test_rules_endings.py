"""The end of the game: the win, the four loss causes and their order, the turn limit (rule 7)."""

from __future__ import annotations

import pytest
from positions import do, state, texts

from fi_cli.island.actions import parse_action
from fi_cli.island.engine import ACTIONS, OVER, SWIM_PHASE, IllegalActionError, Recorder
from fi_cli.island.tiles import DRY, LOSS_CAUSES, TILE_INDEX, TREASURES

WG = "whispering_garden"


def test_loss_cause_ids_and_their_order():
    assert LOSS_CAUSES == ("treasure_lost", "fools_landing_sunk", "player_drowned", "water_level")


def _flood(players, top, **kw):
    return state(players, phase="flood", flood_left=kw.pop("flood_left", 1), flood_top=[[t] for t in top], **kw)


def test_treasure_lost_when_both_its_tiles_have_sunk():
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["temple_of_the_sun"],
               sunk=["temple_of_the_moon"], flooded=["temple_of_the_sun"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.phase, s.outcome, s.loss_cause, s.loss_causes) == (OVER, "loss", "treasure_lost", ("treasure_lost",))


def test_a_captured_treasure_cannot_be_lost():
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["temple_of_the_sun"],
               sunk=["temple_of_the_moon"], flooded=["temple_of_the_sun"], captured=["earth_stone"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.phase, s.outcome, s.loss_causes) == (ACTIONS, None, ())


def test_one_sunk_treasure_tile_is_not_a_loss():
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["temple_of_the_sun"], flooded=["temple_of_the_sun"])
    do(s, "draw_flood")
    assert (s.phase, s.outcome) == (ACTIONS, None)


def test_fools_landing_sunk():
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["fools_landing"], flooded=["fools_landing"])
    do(s, "draw_flood")
    assert (s.phase, s.outcome, s.loss_causes) == (OVER, "loss", ("fools_landing_sunk",))


def test_player_drowned():
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["watchtower"], flooded=["watchtower"],
               sunk=["observatory", "twilight_hollow"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.phase, s.outcome, s.loss_causes) == (OVER, "loss", ("player_drowned",))


def test_water_level_reaches_the_skull():
    s = state([("engineer", WG), ("messenger", "watchtower")], water=9, treasure_deck={"waters_rise": 2})
    do(s, "end_actions(p0)")
    assert (s.phase, s.outcome, s.loss_causes, s.water) == (OVER, "loss", ("water_level",), 10)


def test_several_causes_at_once_treasure_first():
    # temple_of_the_sun sinks with the Earth Stone's other tile gone and a messenger on it with nowhere to go
    s = _flood([("engineer", "watchtower"), ("messenger", "temple_of_the_sun")], ["temple_of_the_sun"],
               flooded=["temple_of_the_sun"],
               sunk=["temple_of_the_moon", "copper_gate", WG, "tidal_palace"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.outcome, s.loss_cause, s.loss_causes) == ("loss", "treasure_lost", ("treasure_lost", "player_drowned"))


def test_several_causes_at_once_fools_landing_before_drowning():
    s = _flood([("engineer", "watchtower"), ("messenger", "fools_landing")], ["fools_landing"],
               flooded=["fools_landing"], sunk=["bronze_gate", "gold_gate"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.loss_cause, s.loss_causes) == ("fools_landing_sunk", ("fools_landing_sunk", "player_drowned"))


def test_a_pawn_that_could_swim_does_not_add_a_cause_and_does_not_get_to_swim():
    s = _flood([("engineer", "watchtower"), ("messenger", "fools_landing", {"helicopter_lift": 1})],
               ["fools_landing"], flooded=["fools_landing"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.phase, s.loss_causes) == (OVER, ("fools_landing_sunk",))


def test_the_game_ends_at_once_leaving_the_other_flood_cards():
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["fools_landing", "observatory", "cave_of_embers"],
               flooded=["fools_landing"], flood_left=3)  # fmt: skip
    do(s, "draw_flood")
    assert s.outcome == "loss" and s.tiles[TILE_INDEX["observatory"]] == s.tiles[TILE_INDEX["cave_of_embers"]] == DRY
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply_checked(parse_action("draw_flood"))


def test_a_treasure_tile_sinking_under_a_pawn_that_can_swim_is_still_lost_at_once():
    s = _flood([("engineer", "watchtower"), ("messenger", "temple_of_the_sun")], ["temple_of_the_sun"],
               flooded=["temple_of_the_sun"], sunk=["temple_of_the_moon"])  # fmt: skip
    do(s, "draw_flood")
    assert (s.phase, s.loss_causes) == (OVER, ("treasure_lost",))


def test_captured_treasure_tile_sinking_under_a_pawn_means_swimming():
    s = _flood([("engineer", "watchtower"), ("messenger", "temple_of_the_sun")], ["temple_of_the_sun"],
               flooded=["temple_of_the_sun"], sunk=["temple_of_the_moon"], captured=["earth_stone"])  # fmt: skip
    do(s, "draw_flood")
    assert s.phase == SWIM_PHASE and texts(s) == ["swim(p1, copper_gate)", "swim(p1, tidal_palace)",
                                                  "swim(p1, whispering_garden)"]  # fmt: skip


def test_win_only_by_lift_off():
    all4 = ["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"]
    s = state([("engineer", "fools_landing"), ("messenger", "fools_landing", {"helicopter_lift": 1})],
              captured=all4, actions_left=0)  # fmt: skip
    # everything achieved but the lift-off: the game goes on until someone plays the card
    assert s.outcome is None and "play(p1, helicopter_lift, lift_off)" in texts(s)
    do(s, "play(p1, helicopter_lift, lift_off)")
    assert (s.outcome, s.loss_causes, s.is_over) == ("win", (), True)


@pytest.mark.parametrize("turn,over", [(4, False), (5, True)])
def test_turn_limit(turn, over):
    s = state([("engineer", WG), ("messenger", "watchtower")], turn=turn, rules={"turn_limit": 5},
              treasure_deck={"earth_stone": 2}, flood_top=[["cave_of_embers", "observatory"]])  # fmt: skip
    do(s, "end_actions(p0)")
    if over:
        assert (s.phase, s.outcome, s.loss_causes, s.turn) == (OVER, "loss", ("turn_limit",), 5)
    else:
        assert (s.phase, s.outcome, s.turn, s.current) == (ACTIONS, None, 5, 1)


# -------------------------------------------------------------- what a loss took (games.lost_treasure/drowned_tile)
def _recorded(s, *actions):
    s.stats = Recorder()
    do(s, *actions)
    return s.stats.lost_treasure, s.stats.drowned_tile


def test_the_recorder_names_the_lost_treasure_and_the_tile_a_pawn_drowned_on():
    # both at once: temple_of_the_sun sinks, the Earth Stone's other tile is gone and the messenger drowns on it
    s = _flood([("engineer", "watchtower"), ("messenger", "temple_of_the_sun")], ["temple_of_the_sun"],
               flooded=["temple_of_the_sun"],
               sunk=["temple_of_the_moon", "copper_gate", WG, "tidal_palace"])  # fmt: skip
    assert _recorded(s, "draw_flood") == (TREASURES.index("earth_stone"), TILE_INDEX["temple_of_the_sun"])
    s = _flood([("engineer", "watchtower"), ("messenger", "fools_landing")], ["fools_landing"],
               flooded=["fools_landing"], sunk=["bronze_gate", "gold_gate"])  # fmt: skip
    assert _recorded(s, "draw_flood") == (None, TILE_INDEX["fools_landing"])
    s = _flood([("engineer", WG), ("messenger", "watchtower")], ["fools_landing"], flooded=["fools_landing"])
    assert _recorded(s, "draw_flood") == (None, None)  # Fools' Landing: no treasure, nobody drowned


def test_a_pawn_left_without_rescue_in_the_swim_phase_is_recorded_on_the_sinking_tile():
    # the only Helicopter Lift rescues the diver; the messenger, who cannot swim, drowns on whispering_garden
    s = state([("pilot", "fools_landing", {"helicopter_lift": 1}), ("messenger", WG), ("diver", WG)],
              only=["fools_landing", WG, "watchtower"], flooded=[WG], phase="flood", flood_left=1,
              flood_top=[[WG]], captured=["statue_of_the_wind"])  # fmt: skip
    lost = _recorded(s, "draw_flood", "play(p0, helicopter_lift, p2, watchtower)")
    assert s.loss_causes == ("player_drowned",) and lost == (None, TILE_INDEX[WG])
