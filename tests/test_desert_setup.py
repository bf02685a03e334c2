"""Desert components (rule 1), the storm meter (rule 2), set-up (rule 3) and the variant flags (rule 9)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from fi_cli.desert.engine import ACTIONS, NOT_FOUND
from fi_cli.desert.game import SAND_SUPPLY, GameSetup, new_game
from fi_cli.desert.layouts import Layout, LayoutError
from fi_cli.desert.play import play_game
from fi_cli.desert.policies import make_policy
from fi_cli.desert.position import from_dict, loads, to_dict
from fi_cli.desert.rules import RULES_VERSION, Rules, RulesError
from fi_cli.desert.tiles import (
    CANTEEN,
    CELLS,
    DIFFICULTIES,
    GEAR,
    GEAR_COUNTS,
    KINDS,
    ROLES,
    STORM_CARDS,
    STORM_COUNTS,
    STORM_TRACKS,
    TILE_COUNTS,
    parse_difficulty,
)


def test_components():
    assert dict(zip(KINDS, TILE_COUNTS, strict=False)) == {
        "crash_site": 1, "launch_pad": 1, "well": 2, "mirage": 1, "tunnel": 3, "gear": 8, "propeller_row": 1,
        "propeller_column": 1, "engine_row": 1, "engine_column": 1, "solar_crystal_row": 1,
        "solar_crystal_column": 1, "navigation_deck_row": 1, "navigation_deck_column": 1}  # fmt: skip
    assert sum(TILE_COUNTS) == 24
    assert dict(zip(GEAR, GEAR_COUNTS, strict=True)) == {
        "dune_blaster": 3, "jet_pack": 3, "solar_shield": 2, "terrascope": 2, "secret_water_reserve": 1,
        "time_throttle": 1}  # fmt: skip
    storm = dict(zip(STORM_CARDS, STORM_COUNTS, strict=True))
    assert sum(storm.values()) == 31 and storm["storm_picks_up"] == 3 and storm["sun_beats_down"] == 4
    for d in ("north", "east", "south", "west"):
        assert [storm[f"wind_{d}_{k}"] for k in (1, 2, 3)] == [3, 2, 1]
    assert dict(zip(ROLES, CANTEEN, strict=True)) == {
        "archeologist": 3,
        "climber": 3,
        "explorer": 4,
        "meteorologist": 4,
        "navigator": 4,
        "water_carrier": 5,
    }


def test_storm_meter_tracks():
    assert STORM_TRACKS[2] == (2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6)
    assert STORM_TRACKS[3] == STORM_TRACKS[4] == (2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6)
    assert STORM_TRACKS[5] == (2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6)


@pytest.mark.parametrize("players, skull", [(2, 14), (3, 15), (4, 15), (5, 16)])
@pytest.mark.parametrize("difficulty, mark", [("novice", 1), ("normal", 2), ("elite", 3), ("legendary", 4)])
def test_start_mark_by_difficulty_and_cards_per_turn(players, skull, difficulty, mark):
    assert DIFFICULTIES[difficulty] == mark and parse_difficulty(difficulty) == mark
    s = new_game(GameSetup(players=players, start_level=parse_difficulty(difficulty)), 1)
    assert (s.level, s.skull(), s.storm_cards()) == (mark, skull, STORM_TRACKS[players][mark - 1])


def test_parse_difficulty():
    assert [parse_difficulty(x) for x in ("Novice", " elite ", 3, "4")] == [1, 3, 3, 4]
    for bad in ("hard", 0, 5, "5", True):
        with pytest.raises(ValueError, match="difficulty must be one of novice, normal, elite, legendary"):
            parse_difficulty(bad)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_set_up(players):
    for seed in range(20):
        s = new_game(GameSetup(players=players), seed)
        d = to_dict(s)
        assert d["storm"] == "r2c2"
        diamond = ["r0c2", "r1c1", "r1c3", "r2c0", "r2c4", "r3c1", "r3c3", "r4c2"]
        assert sorted(c for c, t in d["tiles"].items() if t["sand"]) == sorted(diamond)
        assert all(d["tiles"][c]["sand"] == 1 for c in diamond) and d["sand_supply"] == 40
        kinds = Counter(t["tile"] for t in d["tiles"].values())
        assert kinds == {"hidden": 20, "hidden_water": 3, "crash_site": 1}
        assert not any(t["excavated"] for t in d["tiles"].values())
        crash = next(c for c, t in d["tiles"].items() if t["tile"] == "crash_site")
        assert all(p["cell"] == crash for p in d["players"])
        assert all(p["water"] == CANTEEN[s.roles[q]] and p["gear"] == {} for q, p in enumerate(d["players"]))
        assert len(set(s.roles)) == players and s.parts == [NOT_FOUND] * 4
        assert d["gear_deck"] == dict(zip(GEAR, GEAR_COUNTS, strict=True))
        assert d["storm_deck"] == {"top": [], "middle": dict(zip(STORM_CARDS, STORM_COUNTS, strict=True)),
                                   "bottom": []}  # fmt: skip
        assert (s.phase, s.actions_left, s.turn) == (ACTIONS, 4, 1) and 0 <= s.current < players


def test_set_up_is_random_from_the_seed_and_replays():
    crash = Counter()
    firsts = Counter()
    for seed in range(480):
        s = new_game(GameSetup(players=3), seed)
        crash[s.pos[0]] += 1
        firsts[s.current] += 1
    assert set(crash) == set(range(25)) - {12} and max(crash.values()) < 50  # every cell but the storm's
    assert set(firsts) == {0, 1, 2}
    assert to_dict(new_game(GameSetup(), 9)) == to_dict(new_game(GameSetup(), 9))
    assert to_dict(new_game(GameSetup(), 9)) != to_dict(new_game(GameSetup(), 10))


def test_chosen_roles_and_first_player():
    s = new_game(GameSetup(players=2, roles=("climber", "water_carrier"), first_player=1), 3)
    assert [ROLES[r] for r in s.roles] == ["climber", "water_carrier"] and s.current == 1 and s.climber == 0


@pytest.mark.parametrize("kw, words", [
    ({"players": 6}, "players must be 2 to 5"),
    ({"players": 1}, "players must be 2 to 5"),
    ({"start_level": 0}, "start mark must be 1-14"),
    ({"players": 2, "start_level": 14}, "start mark must be 1-13"),
    ({"players": 2, "roles": ("climber", "pilot")}, "unknown role 'pilot'; roles are: archeologist"),
    ({"players": 2, "roles": ("climber",)}, "1 roles given for 2 players"),
    ({"players": 2, "roles": ("climber", "climber")}, "distinct role"),
    ({"players": 2, "first_player": 2}, "first player must be a seat 0-1"),
    ({"sand_supply": -1}, "the sand supply must be a number of markers, 0 or more, got -1"),
    ({"sand_supply": True}, "the sand supply must be a number of markers"),
    ({"layout": "far_pad"}, "the board must be a desert Layout"),
])  # fmt: skip
def test_bad_set_ups_are_clear_errors(kw, words):
    with pytest.raises(ValueError, match=words):
        GameSetup(**kw)


def test_rule_flags_and_their_defaults():
    assert RULES_VERSION == "fd-rules-1"
    assert Rules().to_dict() == {"thirst_at_zero": False, "launch_pad_needs_excavation": False,
                                 "meteorologist_peek_return": "top_same_order", "reshuffle_includes_this_draw": False,
                                 "jet_pack_when_buried": True}  # fmt: skip
    assert Rules.allowed()["meteorologist_peek_return"] == ("top_same_order", "top_any_order")
    assert Rules.from_dict({"thirst_at_zero": True}).thirst_at_zero is True
    with pytest.raises(RulesError, match="unknown rule variant 'thirst'; variants are: thirst_at_zero, "
                                         "launch_pad_needs_excavation, meteorologist_peek_return, "
                                         "reshuffle_includes_this_draw, jet_pack_when_buried"):  # fmt: skip
        Rules.from_dict({"thirst": True})
    with pytest.raises(RulesError, match="'meteorologist_peek_return' cannot be 'any'; allowed"):
        Rules(meteorologist_peek_return="any")
    with pytest.raises(RulesError, match="cannot be 1"):
        Rules(thirst_at_zero=1)


def test_cells_are_named_by_row_and_column():
    assert CELLS[:6] == ("r0c0", "r0c1", "r0c2", "r0c3", "r0c4", "r1c0")


# ----------------------------------------------------------------------------------------------- a designer's set-up
def test_the_sand_supply_and_the_storm_meters_start_are_parameters():
    assert SAND_SUPPLY == GameSetup().sand_supply == 40
    s = new_game(GameSetup(players=2, start_level=13, sand_supply=5), 1)
    assert (s.supply, sum(s.sand), s.level, s.storm_cards()) == (5, 8, 13, 6)
    d = to_dict(s)
    assert d["sand_supply"] == 5 and d["sand_markers"] == 13  # a position of another total says so
    assert to_dict(from_dict(d)) == d and "sand_markers" not in to_dict(new_game(GameSetup(), 1))
    with pytest.raises(Exception, match="there are 13 sand markers; the tiles and the supply hold 14"):
        from_dict({**d, "sand_supply": 6})
    rec = play_game(GameSetup(players=2, sand_supply=0), make_policy("random"), 3)
    assert rec.loss_causes == ("buried",) and rec.turn_rows[-1].sand_supply == 0  # the first wind buries


def test_pinned_tiles_lie_on_their_cells_known_to_the_team():
    far = Layout("far", pins={"r0c0": "crash_site", "r4c4": "launch_pad", "r0c4": "well"})
    for seed in range(30):
        s = new_game(GameSetup(layout=far), seed)
        d = to_dict(s)
        assert [d["tiles"][c]["tile"] for c in ("r0c0", "r4c4", "r0c4")] == ["crash_site", "launch_pad", "well"]
        kinds = Counter(t["tile"] for t in d["tiles"].values())
        assert kinds == {"hidden": 19, "hidden_water": 2, "crash_site": 1, "launch_pad": 1, "well": 1}
        assert all(p["cell"] == "r0c0" for p in d["players"]) and s.launch_pad() == 24
        assert to_dict(loads(json.dumps(d))) == d
    # the remaining tiles are the rest of the 24: a game never turns up a second Launch Pad or a third well
    for seed in range(20):
        rec = play_game(GameSetup(layout=far, start_level=1), make_policy("random"), seed)
        kinds = Counter(t.kind for t in rec.tile_rows)
        assert kinds["launch_pad"] == kinds["crash_site"] == 1 and kinds["well"] <= 2


def test_pins_that_leave_one_kind_for_the_hidden_tiles_make_them_known():
    s = new_game(GameSetup(layout=Layout("wells", pins={"r0c0": "well", "r4c4": "well"})), 2)
    assert Counter(to_dict(s)["tiles"][c]["tile"] for c in to_dict(s)["tiles"])["mirage"] == 1


@pytest.mark.parametrize("pins, words", [
    ({"r5c0": "well"}, "'r5c0' is not a cell; cells are r0c0 to r4c4"),
    ({"r2c2": "well"}, "r2c2 is the storm's cell"),
    ({"r0c0": "oasis"}, "unknown tile 'oasis' on r0c0; tiles are: crash_site, launch_pad, well"),
    ({"r0c0": "well", "r0c1": "well", "r0c2": "well"}, "well is pinned to 3 cells, but the game has 2 such tile"),
    ({"r0c0": "hidden"}, "unknown tile 'hidden'"),
])  # fmt: skip
def test_bad_boards_are_clear_errors(pins, words):
    with pytest.raises(LayoutError, match=words):
        Layout("bad", pins=pins)
