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
    ({"x": lambda d: _hand(d, "waters_rise", 1)}, r"players\[0\].hand"),
    ({"x": lambda d: _hand(d, "gold", 1)}, r"players\[0\].hand"),
    ({"x": lambda d: _hand(d, "earth_stone", -1)}, r"players\[0\].hand"),
    ({"treasure_discard": {"sandbags": 1}}, "treasure_deck"),
    ({"treasure_deck": {"earth_stone": "4"}}, "treasure_deck"),
    ({"x": lambda d: _tile_state(d, "watchtower", "wet")}, "tiles"),
    ({"x": lambda d: _drop_tile(d, "watchtower")}, "tiles"),
    ({"x": _unknown_tile_in_tiles}, "tiles"),
    ({"x": _placement}, "placement"),
    ({"x": _placement_cell}, "placement"),
    ({"x": _seat}, "players"),
    ({"x": _role}, "players"),
    ({"x": _unknown_role}, r"players\[1\].role"),
    ({"x": _pawn_tile}, r"players\[1\].tile"),
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


def test_both_tiles_of_a_captured_treasure_may_sink_while_the_game_goes_on():
    d = _broken(captured=["crystal_of_fire"])
    _sunk("cave_of_embers", "cave_of_shadows")(d)
    assert to_dict(from_dict(d))["tiles"]["cave_of_shadows"] == "sunk"


def test_not_json_and_not_an_object():
    with pytest.raises(PositionError, match=r"here.json: not valid JSON \(.* line 1, column"):
        loads("{'format': 1", source="here.json")
    with pytest.raises(PositionError, match=r"a position is a JSON object, got a list \[1, 2\]"):
        loads("[1, 2]")
    with pytest.raises(PositionError, match=f"key 'format': expected '{FORMAT}'"):
        loads(json.dumps(_broken(format="chess")))


def test_the_source_is_named_in_errors():
    d = copy.deepcopy(_broken())
    d["water_level"] = 0
    with pytest.raises(PositionError,
                       match=r"^saved/game\.json: key 'water_level': must be 1 to 10 \(10 is the skull\), got 0$"):
        from_dict(d, source="saved/game.json")


def _set(path: str, value):
    """A change of the document at a dotted path ('players.0.hand'), for the tables below."""
    def change(d):
        *head, last = path.split(".")
        for k in head:
            d = d[int(k)] if isinstance(d, list) else d[k]
        if isinstance(d, list):
            d[int(last)] = value
        else:
            d[last] = value
    return change


# Every wrong type is an error naming the key (these raised TypeError or AttributeError before).
WRONG_TYPES = [
    (_set("tiles.watchtower", ["dry"]), "tiles", 'is not a tile state'),
    (_set("flood_deck", [[["watchtower"]]]), "flood_deck", 'is not a tile'),
    (_set("flood_discard", [{"gold_gate": 1}]), "flood_discard", 'is not a tile'),
    (_set("captured", [["earth_stone"]]), "captured", 'is not a treasure'),
    (_set("layout.pins", ["watchtower"]), "layout.pins", 'expected an object, got ["watchtower"]'),
    (_set("layout.pins", {"watchtower": "a1"}), "layout.pins", 'must be [row, col], got "a1"'),
    (_set("layout.rows", "..XX.."), "layout.rows", "expected a list"),
    (_set("layout.rows", [1, 2]), "layout.rows", "each row is text: expected text, got 1"),
    (_set("layout.id", 7), "layout.id", "expected text, got 7"),
    (_set("players.1", ["messenger"]), r"players\[1\]", 'expected an object, got a list ["messenger"]'),
    (_set("players.0.hand", {"earth_stone": [1]}), r"players\[0\]\.hand", "count of earth_stone must be"),
    (_set("players.0.hand", ["earth_stone"]), r"players\[0\]\.hand", 'expected an object, got ["earth_stone"]'),
    (_set("players.0.role", 3), r"players\[0\]\.role", "expected text, got 3"),
    (_set("placement.watchtower", "5,3"), "placement", 'cell of watchtower must be [row, col], got "5,3"'),
    (_set("rules", ["diver_swim"]), "rules", "expected an object"),
    (_set("swimmers", ["p1"]), "swimmers", 'each swimmer is a seat: expected a whole number, got "p1"'),
    (_set("loss_causes", [1]), "loss_causes", "1 is not a loss cause"),
    (_set("discarder", "0"), "discarder", 'expected a whole number or null, got "0"'),
    (_set("sinking", 5), "sinking", "expected text or null, got 5"),
    (_set("outcome", False), "outcome", "expected text or null, got false"),
    (_set("turn", 2.0), "turn", "expected a whole number, got 2.0"),
    (_set("junk", 1), "junk", "unknown key; the keys are: format, rules_version"),
    (_set("players.0.colour", "red"), r"players\[0\]\.colour", "unknown key; the keys are: seat, role, tile, hand"),
]


def _seven_cards(d):
    d.update(position([("engineer", "whispering_garden", {"earth_stone": 4, "sandbags": 2, "helicopter_lift": 1}),
                       ("messenger", "watchtower")]))


def _swimmer_elsewhere(d):
    d.update(position([("engineer", "gold_gate"), ("messenger", "watchtower")], sunk=["gold_gate"],
                      phase="swim", swimmers=[0, 1], sinking="gold_gate", flood_left=1))


def _sunk(*tiles):
    def change(d):
        for t in tiles:
            d["tiles"][t] = "sunk"
        d["flood_deck"] = [[t for t in seg if t not in tiles] for seg in d["flood_deck"]]
        d["flood_discard"] = [t for t in d["flood_discard"] if t not in tiles]
    return change


def _captured(*names):
    return _set("captured", list(names))


# Positions no game can reach, refused with the rule they break (all loaded without a word before).
IMPOSSIBLE = [
    (_seven_cards, r"players", "p0 holds 7 cards: more than 5 only while discarding down to the hand limit"),
    (_set("water_level", 10), "water_level", "the water reaching the skull (10) loses the game"),
    (_set("outcome", "banana"), "outcome", '"banana" is not an outcome; outcomes are: win, loss or null'),
    (_swimmer_elsewhere, "swimmers", "p1 is a swimmer but not on the tile that sank (gold_gate)"),
    (lambda d: d.update(phase="over", outcome="loss", loss_causes=["player_drowned"], swimmers=[1]), "sinking",
     "swimmers need the tile that sank under them"),
    (_captured("earth_stone", "earth_stone"), "captured", "earth_stone is named twice"),
    (_captured("gold"), "captured", '"gold" is not a treasure'),
    (_set("turn", -3), "turn", "must be 1 to 200 (turns count from 1; the turn limit is 200), got -3"),
    (_set("turn", 0), "turn", "must be 1 to 200"),
    (_set("treasure_deck.earth_stone", 3), "treasure_deck",
     "the deck has 5 earth_stone cards (28 in all); draw pile, discard pile and hands hold 4"),
    (lambda d: d.update(treasure_discard={**d["treasure_deck"], "earth_stone": 4}, treasure_deck={}),
     "treasure_deck", "the draw pile is never empty: the moment its last card is drawn, the discard pile"),
    (_flood_extra, "flood_deck", "one card per tile that has not sunk (a sunk tile's card leaves the game)"),
    (lambda d: _tile_state(d, "watchtower", "sunk") or d.update(flood_deck=[
        [t for t in d["flood_deck"][0] if t != "watchtower"]]), "players",
     "p1 stands on watchtower, which has sunk (only a swimmer may, in the swim decision)"),
    (_sunk("fools_landing"), "tiles", "fools_landing has sunk, which loses the game at once"),
    (_sunk("cave_of_embers", "cave_of_shadows"), "tiles", "both tiles of the crystal_of_fire (cave_of_embers, "
     "cave_of_shadows) have sunk before it was captured, which loses the game at once"),
    (_set("phase", "draw"), "phase", "the draw step is automatic"),
    (_set("phase", "over"), "phase", "a game is over exactly when it has an outcome"),
    (_set("outcome", "loss"), "phase", "a game is over exactly when it has an outcome"),
    (lambda d: d.update(phase="over", outcome="win"), "outcome", "a win needs the four treasures"),
    (lambda d: d.update(phase="over", outcome="loss"), "loss_causes", "a lost game has its causes"),
    (_set("loss_causes", ["water_level"]), "loss_causes", "a lost game has its causes, and only a lost game"),
    (_set("swimmers", [1]), "swimmers", "pawns swim only in the swim decision"),
    (_set("sinking", "watchtower"), "sinking", "watchtower is not sunk"),
    (lambda d: d.update(phase="discard", discarder=0), "discarder", "a discard decision needs the seat of a player"),
    (_set("discarder", 2), "discarder", "must be a seat 0-1 or null, got 2"),
    (_set("resume", "flood"), "resume", '"flood" is not a phase to resume; phase to resumes are: actions, draw'),
    (_set("draws_left", 3), "draws_left", "must be 0 to 2"),
    (_set("flood_left", -1), "flood_left", "must be 0 to 5"),
]


@pytest.mark.parametrize("change, key, words", WRONG_TYPES + IMPOSSIBLE,
                         ids=[f"{k}: {w[:30]}" for _, k, w in WRONG_TYPES + IMPOSSIBLE])
def test_wrong_types_and_impossible_positions_are_errors_naming_the_key(change, key, words):
    d = _broken()
    change(d)
    with pytest.raises(PositionError, match=f"key '{key}': ") as e:
        from_dict(d)
    assert words in str(e.value)
