"""The position format: exact round trips over positions of real games, clear errors for broken documents."""

from __future__ import annotations

import copy
import json
import random

import pytest
from invariants import eager
from positions import do, position, state

from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import BUILTIN_LAYOUTS, Layout, get_layout
from fi_cli.island.position import FORMAT, PositionError, dumps, from_dict, loads, to_dict
from fi_cli.island.rules import Rules

LAYOUTS = sorted(BUILTIN_LAYOUTS)


def _positions(games: int = 30):
    """Positions met in games played by the eager test player, across layouts, variants and phases."""
    variants = [{}, {"navigator_moves": "orthogonal", "diver_swim": "any_reachable"},
                {"helicopter_rescue": False, "helicopter_lift_group": "all", "diver_through_sea": True}]  # fmt: skip
    for g in range(games):
        pinned = Layout.from_rows("pinned", get_layout(LAYOUTS[g % len(LAYOUTS)]).rows(), pins={})
        setup = GameSetup(pinned if g % 5 == 4 else get_layout(LAYOUTS[g % len(LAYOUTS)]), start_level=1 + g % 4,
                          players=2 + g % 3, rules=Rules.from_dict(variants[g % 3]))  # fmt: skip
        s = new_game(setup, g)
        rng = random.Random(g)
        yield s
        while s.outcome is None:
            s.apply(eager(s, s.legal_actions(), rng))
            yield s


def test_round_trip_is_exact_over_positions_of_real_games():
    phases = set()
    captured = 0
    for n, s in enumerate(_positions()):
        d = to_dict(s)
        phases.add(d["phase"])
        captured = max(captured, len(d["captured"]))
        t = from_dict(d)
        assert to_dict(t) == d
        assert t.legal_actions() == s.legal_actions()
        if n % 5 == 0:
            text = dumps(s)
            assert to_dict(loads(text)) == d and json.loads(text) == d
    assert phases >= {"actions", "discard", "flood", "swim", "over"}
    assert captured >= 2  # positions after captures are among them


def test_a_position_after_a_capture_loads():
    # a capture discards its 4 cards (rule 5): they are in the discard pile, not held by the treasure
    s = state([("engineer", "temple_of_the_moon", {"earth_stone": 4}), ("messenger", "watchtower")])
    do(s, "capture(p0, earth_stone)")
    d = to_dict(s)
    assert d["captured"] == ["earth_stone"] and d["treasure_discard"] == {"earth_stone": 4}
    assert to_dict(from_dict(d)) == d


def test_a_loaded_position_plays_on_like_the_original():
    compared = 0
    for s in _positions(6):
        if s.outcome is None:
            t = from_dict(to_dict(s))
            for a in s.legal_actions()[:6]:
                x, y = s.copy(random.Random(3)), t.copy(random.Random(3))
                x.apply(a)
                y.apply(a)
                if x.tdeck == s.tdeck and sum(map(len, x.fdeck)) == sum(map(len, s.fdeck)) and x.fdeck:
                    assert to_dict(x) == to_dict(y)  # nothing drawn: the very same position
                    compared += 1
    assert compared > 100


def _broken(**changes):
    d = position([("engineer", "whispering_garden", {"earth_stone": 1}), ("messenger", "watchtower")],
                 flooded=["gold_gate"], flood_discard=["gold_gate"])  # fmt: skip
    for key, value in changes.items():
        if value is KeyError:
            del d[key]
        elif callable(value):
            value(d)
        else:
            d[key] = value
    return d


def test_the_builder_makes_a_valid_position():
    d = _broken()
    assert to_dict(from_dict(d)) == d


def _hand(d, card, n):
    d["players"][0]["hand"][card] = n


def _tile_state(d, tile, st):
    d["tiles"][tile] = st


def _drop_tile(d, tile):
    del d["tiles"][tile]


def _seat(d):
    d["players"][1]["seat"] = 5


def _role(d):
    d["players"][1]["role"] = "engineer"


def _unknown_role(d):
    d["players"][1]["role"] = "wizard"


def _pawn_tile(d):
    d["players"][1]["tile"] = "atlantis"


def _unknown_tile_in_tiles(d):
    d["tiles"]["atlantis"] = "dry"
    del d["tiles"]["watchtower"]


def _placement(d):
    d["placement"]["atlantis"] = d["placement"].pop("watchtower")


def _placement_cell(d):
    d["placement"]["watchtower"] = [9, 9]


def _flood_extra(d):
    d["flood_discard"].append("watchtower")


def _layout(d):
    d["layout"]["rows"] = ["XXX"]


@pytest.mark.parametrize("changes,key", [
    ({"format": "fi-position-0"}, "format"),
    ({"format": KeyError}, "format"),
    ({"tiles": KeyError}, "tiles"),
    ({"players": KeyError}, "players"),
    ({"water_level": KeyError}, "water_level"),
    ({"phase": KeyError}, "phase"),
    ({"water_level": 11}, "water_level"),
    ({"water_level": "2"}, "water_level"),
    ({"water_level": True}, "water_level"),
    ({"current_player": 2}, "current_player"),
    ({"actions_left": 4}, "actions_left"),
    ({"phase": "lunch"}, "phase"),
    ({"pilot_flight_used": "no"}, "pilot_flight_used"),
    ({"captured": ["gold"]}, "captured"),
    ({"rules": {"diver_swim": "fast"}}, "rules"),
    ({"rules": {"swim_speed": 1}}, "rules"),
    ({"x": lambda d: _hand(d, "earth_stone", 6)}, "treasure_deck"),
    ({"x": lambda d: _hand(d, "waters_rise", 1)}, "hand"),
    ({"x": lambda d: _hand(d, "gold", 1)}, "hand"),
    ({"x": lambda d: _hand(d, "earth_stone", -1)}, "hand"),
    ({"treasure_discard": {"sandbags": 1}}, "treasure_deck"),
    ({"treasure_deck": {"earth_stone": "4"}}, "treasure_deck"),
    ({"x": lambda d: _tile_state(d, "watchtower", "wet")}, "tiles"),
    ({"x": lambda d: _drop_tile(d, "watchtower")}, "tiles"),
    ({"x": _unknown_tile_in_tiles}, "tiles"),
    ({"x": _placement}, "placement"),
    ({"x": _placement_cell}, "placement"),
    ({"x": _seat}, "players"),
    ({"x": _role}, "players"),
    ({"x": _unknown_role}, "role"),
    ({"x": _pawn_tile}, "tile"),
    ({"x": lambda d: _tile_state(d, "watchtower", "sunk")}, "flood_deck"),
    ({"x": _flood_extra}, "flood_deck"),
    ({"flood_deck": [[]]}, "flood_deck"),
    ({"flood_discard": ["atlantis"]}, "flood_discard"),
    ({"x": _layout}, "layout"),
    ({"phase": "swim"}, "phase"),
    ({"phase": "discard"}, "discarder"),
    ({"swimmers": [7]}, "swimmers"),
    ({"players": []}, "players"),
])  # fmt: skip
def test_malformed_positions_raise_position_error_naming_the_key(changes, key):
    d = _broken(**{k: v for k, v in changes.items() if k != "x"})
    if "x" in changes:
        changes["x"](d)
    with pytest.raises(PositionError, match=f"key '{key}'"):
        from_dict(d)


def test_pawn_on_a_sunk_tile_is_refused():
    d = _broken()
    d["tiles"]["watchtower"] = "sunk"
    d["flood_deck"] = [[t for t in seg if t != "watchtower"] for seg in d["flood_deck"]]
    with pytest.raises(PositionError, match=r"key 'players': p1 stands on watchtower, which has sunk"):
        from_dict(d)


def test_not_json_and_not_an_object():
    with pytest.raises(PositionError, match=r"here.json: not valid JSON \(.* line 1, column"):
        loads("{'format': 1", source="here.json")
    with pytest.raises(PositionError, match="a position is a JSON object, got list"):
        loads("[1, 2]")
    with pytest.raises(PositionError, match=f"key 'format': expected '{FORMAT}'"):
        loads(json.dumps(_broken(format="chess")))


def test_the_source_is_named_in_errors():
    d = copy.deepcopy(_broken())
    d["water_level"] = 0
    with pytest.raises(PositionError, match=r"^saved/game\.json: key 'water_level': must be 1-10, got 0$"):
        from_dict(d, source="saved/game.json")
