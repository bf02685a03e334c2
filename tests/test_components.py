"""The games' components as parameters (fi_cli.island.components, fi_cli.desert.components): the rulebook's
values by default, what the rules cannot bear refused naming the component, and each one read by the engine
where the rules use it."""

from __future__ import annotations

import random
from dataclasses import replace

import desert_positions as dp
import pytest
from positions import do, state, texts

from fi_cli.common.components import ComponentsError
from fi_cli.desert import position as desert_position
from fi_cli.desert.components import Components as DesertComponents
from fi_cli.desert.game import GameSetup as DesertSetup
from fi_cli.desert.game import new_game as new_desert_game
from fi_cli.desert.play import play_game as play_desert
from fi_cli.desert.tiles import CANTEEN, DIAMOND, GEAR_COUNTS, STORM_COUNTS, STORM_TRACKS
from fi_cli.island import position as island_position
from fi_cli.island.components import Components
from fi_cli.island.engine import ACTIONS, DISCARD_PHASE, OVER
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.tiles import DECK_COUNTS, FLOOD_DRAWS, FLOODED, HAND_LIMIT, SKULL, WATERS_RISE

ISLAND = get_layout("forbidden_island")


def island(**components) -> GameSetup:
    return GameSetup(layout=ISLAND, components=Components.from_dict(components))


def desert(players: int = 4, start: int = 2, **components) -> DesertSetup:
    return DesertSetup(players=players, start_level=start, components=DesertComponents.from_dict(components))


# ----------------------------------------------------------------------------------------------- the defaults
def test_the_defaults_are_the_rulebooks():
    c = Components()
    assert c.deck_counts == DECK_COUNTS and c.hand_limit == HAND_LIMIT and c.flood_draws == FLOOD_DRAWS
    assert (c.skull, c.capture_cards, c.actions_per_turn, c.treasure_draws, c.cards_dealt, c.tiles_flooded) == (
        SKULL, 4, 3, 2, 2, 6)
    d = DesertComponents()
    assert d.storm_counts == STORM_COUNTS and d.gear_counts == GEAR_COUNTS and d.canteens == CANTEEN
    assert (d.actions_per_turn, d.diamond_sand) == (4, 1) and all(d.track(n) == STORM_TRACKS[n] for n in range(2, 6))
    assert c.changed() == {} and d.changed() == {}


@pytest.mark.parametrize("kind", [Components, DesertComponents])
def test_every_default_given_is_the_rulebook_again(kind):
    given = {k: v for k, v in kind().to_dict().items() if v is not None}
    assert kind.from_dict(given) == kind() and kind.from_dict(given).changed() == {}


def test_defaults_given_play_the_same_games():
    """The rulebook's components given explicitly play exactly the games played without them."""
    explicit = {k: v for k, v in Components().to_dict().items()}
    for seed in (1, 2, 3):
        a = play_game(GameSetup(layout=ISLAND), make_policy("heuristic"), seed)
        b = play_game(island(**explicit), make_policy("heuristic"), seed)
        assert a == b
    explicit = {k: v for k, v in DesertComponents().to_dict().items() if v is not None}
    from fi_cli.desert.policies import make_policy as desert_policy

    for seed in (1, 2):
        assert play_desert(DesertSetup(), desert_policy("heuristic"), seed) == play_desert(
            desert(**explicit), desert_policy("heuristic"), seed)


# ----------------------------------------------------------------------------------------------- what is refused
@pytest.mark.parametrize("values, key, words", [
    ({"waters_rise": 0}, "waters_rise", "raise the water"),
    ({"helicopter_lift": 0}, "helicopter_lift", "Helicopter Lift"),
    ({"sandbags": -1}, "sandbags", "0-20"),
    ({"hand_limit": 0}, "hand_limit", "1-30"),
    ({"hand_limit": 3}, "capture_cards", "nobody could hold them"),
    ({"capture_cards": 6}, "capture_cards", "no treasure could be captured"),
    ({"cards_dealt": 6}, "cards_dealt", "hand limit of 5"),
    ({"tiles_flooded": 25}, "tiles_flooded", "0-24"),
    ({"actions_per_turn": 2.5}, "actions_per_turn", "whole number"),
    ({"water_meter": []}, "water_meter", "1-20 marks"),
    ({"water_meter": [2, -1]}, "water_meter", "mark 2"),
    ({"hand_limt": 6}, None, "did you mean 'hand_limit'"),
])
def test_island_components_the_rules_cannot_bear(values, key, words):
    with pytest.raises(ComponentsError) as e:
        Components.from_dict(values)
    assert e.value.key == key and words in str(e.value)


@pytest.mark.parametrize("values, key, words", [
    ({"storm_picks_up": 0}, "storm_picks_up", "never end"),
    ({"sun_beats_down": -1}, "sun_beats_down", "0-10"),
    ({"canteens": {"water_carrier": 0}}, "canteens", "water_carrier"),
    ({"canteens": {"pilot": 4}}, "canteens", "unknown role 'pilot'"),
    ({"canteens": 5}, "canteens", "mapping"),
    ({"storm_meter": [2, 0, 3]}, "storm_meter", "no card"),
    ({"storm_meter": None, "jet_pack": True}, "jet_pack", "whole number"),
])
def test_desert_components_the_rules_cannot_bear(values, key, words):
    with pytest.raises(ComponentsError) as e:
        DesertComponents.from_dict(values)
    assert e.value.key == key and words in str(e.value)


def test_what_the_set_up_cannot_bear():
    with pytest.raises(ComponentsError, match="more than the 25 cards") as e:  # 4 x 5 treasures, 3 lifts, 2 bags
        island(cards_dealt=7, hand_limit=8)
    assert e.value.key == "cards_dealt"
    island(cards_dealt=6, hand_limit=8)
    with pytest.raises(ComponentsError, match="cannot start at level 4") as e:
        GameSetup(layout=ISLAND, start_level=4, components=Components.from_dict({"water_meter": [2, 3, 4]}))
    assert e.value.key == "water_meter"
    with pytest.raises(ComponentsError, match="holds 5 cards but the storm meter draws up to 6"):
        desert(wind_blows_1=0, wind_blows_2=0, wind_blows_3=0, storm_picks_up=1, sun_beats_down=4)
    with pytest.raises(ValueError, match="start mark must be 1-3"):
        desert(start=4, storm_meter=[2, 3, 4])


# ----------------------------------------------------------------------------------------------- the island's engine
def test_island_set_up_reads_the_deck_the_deal_and_the_flooding():
    setup = island(waters_rise=5, helicopter_lift=1, sandbags=0, treasure_cards=6, cards_dealt=3, tiles_flooded=11)
    for seed in range(5):
        s = new_game(setup, seed)
        assert s.tiles.count(FLOODED) == len(s.fdiscard) == 11
        assert all(sum(h) == 3 for h in s.hands)  # a hand has no place for a Waters Rise!
        total = [s.tdeck[c] + s.tdiscard[c] + sum(h[c] for h in s.hands if c < len(h)) for c in range(7)]
        assert total == [6, 6, 6, 6, 1, 0, 5] and s.tdeck[WATERS_RISE] == 5
        assert s.actions_left == 3 and s.comp is setup.components


def test_every_tile_flooded_at_set_up_the_flood_pile_is_the_discard_pile():
    s = new_game(island(tiles_flooded=24), 3)
    assert s.fdeck == [] and len(s.fdiscard) == 24
    rec = play_game(island(tiles_flooded=24), make_policy("random"), 3)
    assert rec.outcome == "loss"


def test_actions_per_turn_and_treasure_draws():
    s = state([("engineer", "whispering_garden"), ("messenger", "fools_landing")],
              treasure_deck={"crystal_of_fire": 5, "oceans_chalice": 5}, flood_top=[["watchtower", "observatory"]])
    s.comp = Components.from_dict({"actions_per_turn": 5, "treasure_draws": 3})
    do(s, "end_actions(p0)")
    assert (s.current, s.phase, s.actions_left) == (1, ACTIONS, 5)
    assert sum(s.hands[0]) == 3  # three cards drawn


def test_hand_limit_and_cards_for_a_capture():
    players = [("messenger", "temple_of_the_moon", {"earth_stone": 3, "statue_of_the_wind": 2}),
               ("engineer", "fools_landing", {"crystal_of_fire": 4, "sandbags": 1})]
    s = state(players)
    assert "capture(p0, earth_stone)" not in texts(s)  # four by the rulebook
    s.comp = Components.from_dict({"capture_cards": 3, "hand_limit": 6})
    assert "capture(p0, earth_stone)" in texts(s)
    do(s, "give(p0, p1, statue_of_the_wind)")  # p1 holds 6: within a hand limit of 6
    assert s.phase == ACTIONS and sum(s.hands[1]) == 6
    do(s, "give(p0, p1, statue_of_the_wind)")  # 7: over it
    assert (s.phase, s.discarder) == (DISCARD_PHASE, 1)
    do(s, "discard(p1, crystal_of_fire)", "capture(p0, earth_stone)")
    assert s.captured == 1 and s.hands[0][0] == 0 and s.tdiscard[0] == 3  # three earth stones discarded


def test_the_water_meter():
    s = state([("engineer", "whispering_garden"), ("messenger", "fools_landing")], water=1,
              treasure_deck={"crystal_of_fire": 5, "oceans_chalice": 5})
    s.comp = Components.from_dict({"water_meter": [1, 4]})
    do(s, "end_actions(p0)")
    assert s.turn == 2 and len(s.fdiscard) == 1  # one flood card at level 1
    s = state([("engineer", "whispering_garden"), ("messenger", "fools_landing")], water=2,
              treasure_deck={"waters_rise": 1})
    s.comp = Components.from_dict({"water_meter": [1, 4]})
    do(s, "end_actions(p0)")
    assert s.phase == OVER and s.water == 3 and s.loss_causes == ("water_level",)  # 3 is the skull


def test_island_positions_keep_their_components():
    s = new_game(island(hand_limit=7, water_meter=[2, 3, 4, 5]), 5)
    doc = island_position.to_dict(s)
    assert doc["components"] == {"hand_limit": 7, "water_meter": [2, 3, 4, 5]}
    back = island_position.from_dict(doc)
    assert back.comp == s.comp and island_position.to_dict(back) == doc
    assert "components" not in island_position.to_dict(new_game(island(), 5))
    doc["components"] = {"hand_limit": 0}
    with pytest.raises(island_position.PositionError, match="components.*hand_limit.*1-30"):
        island_position.from_dict(doc)


# ----------------------------------------------------------------------------------------------- the desert's engine
def test_desert_set_up_reads_the_decks_canteens_sand_and_meter():
    setup = desert(players=3, start=3, canteens={"water_carrier": 7, "climber": 2}, jet_pack=0, time_throttle=4,
                   wind_blows_3=3, sun_beats_down=2, diamond_sand=2, storm_meter=[2, 3, 4, 5], actions_per_turn=5)
    s = new_desert_game(replace(setup, roles=("water_carrier", "climber", "explorer")), 1)
    assert s.water == [7, 2, 4] and [s.comp.canteens[r] for r in s.roles] == [7, 2, 4]
    assert s.gdeck == [3, 0, 2, 2, 1, 4] and s.sdeck == [3, 2, 3] * 4 + [3, 2]
    assert [s.sand[c] for c in DIAMOND] == [2] * 8 and s.supply == 40
    assert s.track == (2, 3, 4, 5) and s.skull() == 5 and s.storm_cards() == 4 and s.actions_left == 5


def test_desert_canteens_and_actions_in_play():
    p = dp.state([("water_carrier", "r0c0", {"water": 5}), ("archeologist", "r0c0", {"water": 3})])
    assert "give_water(p0, p1)" not in dp.texts(p)  # the Archeologist's canteen (3) is full
    p.comp = DesertComponents.from_dict({"canteens": {"archeologist": 4}})
    dp.do(p, "give_water(p0, p1)")
    assert p.water == [4, 4]
    s = new_desert_game(desert(actions_per_turn=2), 0)
    assert s.actions_left == 2
    while s.turn == 1:  # end the turn: the next one has two actions again
        acts = dp.texts(s)
        dp.do(s, next((a for a in acts if a.startswith(("end_actions", "draw_storm"))), acts[0]))
    assert (s.turn, s.actions_left) == (2, 2)


def test_desert_positions_keep_their_components():
    s = new_desert_game(desert(players=2, start=1, storm_meter=[3, 3], canteens={"navigator": 6}), 2)
    doc = desert_position.to_dict(s)
    assert set(doc["components"]) == {"storm_meter", "canteens"}
    back = desert_position.from_dict(doc)
    assert back.comp == s.comp and back.track == (3, 3) and desert_position.to_dict(back) == doc


def test_changed_components_play_whole_games_of_both_players():
    """Not a strength figure: every set of changed components plays to an end with the random player and the
    heuristic (the fuzz test of the simulator plays many more)."""
    rng = random.Random(4)
    from fi_cli.desert.policies import make_policy as desert_policy

    for policy in ("random", "heuristic"):
        for _ in range(3):
            rec = play_game(island(capture_cards=3, hand_limit=4, actions_per_turn=2, water_meter=[1, 2, 3, 4, 5, 6]),
                            make_policy(policy), rng.randrange(10**6))
            assert rec.outcome in ("win", "loss")
            rec = play_desert(desert(storm_picks_up=1, canteens={"explorer": 1}, storm_meter=[2, 2, 6]),
                              desert_policy(policy), rng.randrange(10**6))
            assert rec.outcome in ("win", "loss")


def test_labels_and_steps():
    c = Components()
    assert Components.label("hand_limit", 6) == "hand limit 6"
    assert Components.label("water_meter", [1, 2]) == "water meter 1,2"
    assert DesertComponents.label("canteens", DesertComponents.from_dict({"canteens": {"explorer": 5}}).value(
        "canteens")) == "canteens explorer 5"
    assert c.step("waters_rise", True, 4, 2) == 4 and c.step("waters_rise", False, 4, 2) == 2
    assert Components.from_dict({"waters_rise": 1}).step("waters_rise", False, 4, 2) is None
    assert c.step("capture_cards", True, 4, 2) == 5 and c.step("hand_limit", False, 4, 2) == 4
    assert Components.from_dict({"hand_limit": 4}).step("hand_limit", False, 4, 2) is None  # below a capture
    assert c.step("water_meter", True, 4, 2) == [2, 2, 3, 3, 3, 4, 4, 5, 5, 5]
    assert Components.from_dict({"water_meter": [2, 2]}).step("water_meter", False, 4, 2) is None  # skull at 2
    d = DesertComponents()
    assert d.step("storm_meter", False, 2, 2) == list(STORM_TRACKS[2][:-1])
    assert d.step("canteens", True, 4, 2) == {"archeologist": 4, "climber": 4, "explorer": 5, "meteorologist": 5,
                                              "navigator": 5, "water_carrier": 6}


def test_fi_play_takes_components():
    from click.testing import CliRunner

    from fi_cli.cli import main
    from fi_cli.commands.common import parse_components

    assert parse_components(("hand_limit=6", "water_meter=2,3, 4", "canteens=water_carrier:6,explorer:5")) == {
        "hand_limit": 6, "water_meter": [2, 3, 4], "canteens": {"water_carrier": 6, "explorer": 5}}
    r = CliRunner().invoke(main, ["play", "--component", "water_meter=1,1", "--seed", "3", "--quiet"])
    assert r.exit_code == 0 and r.output.startswith(("win", "loss")), r.output
    r = CliRunner().invoke(main, ["play", "--game", "desert", "--component", "storm_picks_up=0", "--quiet"])
    assert r.exit_code == 2 and "component 'storm_picks_up': 0 is not a whole number 1-10" in r.output
    r = CliRunner().invoke(main, ["play", "--component", "hand_limit", "--quiet"])
    assert r.exit_code == 2 and "is not name=value" in r.output
