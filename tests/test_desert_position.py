"""The Desert position format: exact round trips over positions of real games, clear errors for broken
documents."""

from __future__ import annotations

import copy
import json
import random

import pytest
from desert_invariants import eager, uniform, varied_setup
from desert_positions import position

from fi_cli.common.play import LegalActions
from fi_cli.desert.engine import ACTIONS
from fi_cli.desert.game import new_game
from fi_cli.desert.position import FORMAT, PositionError, dumps, from_dict, loads, to_dict


def _positions(games: int = 24):
    """Positions met in games of the random and eager test players, across player counts, levels, variants."""
    for g in range(games):
        s = new_game(varied_setup(g), 700 + g)
        rng = random.Random(g)
        chooser = eager if g % 2 else uniform
        yield s
        while s.outcome is None:
            s.apply(chooser(s, s.legal_actions(), rng))
            yield s


def test_round_trip_is_exact_over_positions_of_real_games():
    phases = set()
    for n, s in enumerate(_positions()):
        d = to_dict(s)
        phases.add(d["phase"])
        t = from_dict(d)
        assert to_dict(t) == d and t.legal_actions() == s.legal_actions()
        if n % 5 == 0:
            text = dumps(s)
            assert json.loads(text) == d and dumps(loads(text)) == text  # read -> write is the same text
    assert phases >= {"actions", "storm", "peek", "over"}


def test_a_loaded_position_plays_on_like_the_original():
    compared = 0
    for s in _positions(6):
        if s.outcome is None:
            t = from_dict(to_dict(s))
            for a in s.legal_actions()[:8]:
                x, y = s.copy(random.Random(3)), t.copy(random.Random(3))
                x.apply(a)
                y.apply(a)
                assert to_dict(x) == to_dict(y)
                compared += 1
    assert compared > 200


def test_the_lazy_legal_list_is_the_legal_list():
    seen = 0
    for s in _positions(10):
        legal = s.legal_actions()
        lazy = LegalActions(s)
        assert lazy._list is None and list(lazy) == legal and len(lazy) == len(legal)
        if s.phase == ACTIONS:
            own, free, gear = s.own_actions(), s.free_actions(), s.gear_actions()
            assert legal == own + free + gear + [legal[-1]]  # own actions first, end_actions last
            seen += bool(free) + bool(gear)
    assert seen > 20


def _broken(change):
    d = position([("climber", "r1c1", {"gear": {"jet_pack": 1}}), ("navigator", "r3c3")], sand={"r1c1": 2},
                 dug={"r1c1": "tunnel"})  # fmt: skip
    change(d)
    return d


def _set(path, value):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        if value is KeyError:
            del d[last]
        else:
            d[last] = value

    return change


BROKEN = [
    (_set(["tiles", "r0c1", "shade"], True), "key 'tiles.r0c1.shade': unknown key; the keys are: tile, excavated, "
                                               "sand"),
    (_set(["water"], 3), "key 'water': unknown key; the keys are: format, game"),
    (_set(["format"], "fi-position-1"), "key 'format': expected 'fd-position-1'"),
    (_set(["game"], "island"), "key 'game'"),
    (_set(["rules", "thirst"], True), "unknown rule variant 'thirst'"),
    (_set(["storm"], "r5c5"), "key 'storm': \"r5c5\" is not a cell"),
    (_set(["storm"], "r0c0"), "key 'tiles': must describe the 24 cells other than the storm"),
    (_set(["tiles", "r0c1", "tile"], "oasis"), "\"oasis\" is not a tile; tiles are: crash_site"),
    (_set(["tiles", "r0c1", "sand"], -1), "key 'tiles.r0c1.sand': must be 0 to 48, got -1"),
    (_set(["tiles", "r0c1", "excavated"], True), "an excavated tile shows its underside"),
    (_set(["tiles", "r0c1", "tile"], "crash_site"), "there is exactly one crash_site"),
    (lambda d: [d["tiles"][c].update(tile="launch_pad") for c in ("r0c1", "r0c2")],
     "there are 1 launch_pad tile(s), the position has 2"),
    (_set(["tiles", "r0c1", "tile"], "well"), "3 tiles are well/mirage or hidden_water, the position has 4"),
    (_set(["tiles", "r0c4", "tile"], "tunnel"), "3 tiles are well/mirage or hidden_water, the position has 2"),
    (_set(["sand_supply"], 40), "there are 48 sand markers; the tiles and the supply hold 42"),
    (_set(["players", 0, "cell"], "r2c2"), "p0 stands on the storm cell"),
    (_set(["players", 0, "water"], 4), "key 'players[0].water': must be 0 to 3 (the climber's canteen), got 4"),
    (lambda d: d["players"][1].update(role="climber", water=3), "each player plays a distinct role"),
    (_set(["players", 1, "seat"], 3), "players must be listed by seat"),
    (_set(["gear_deck", "jet_pack"], 3), "there are 3 jet_pack cards; the gear deck, the used gear and the "
                                          "players hold 4"),
    (_set(["storm_deck", "middle", "sun_beats_down"], 5), "there are 4 sun_beats_down cards"),
    (_set(["storm_deck", "top"], ["hurricane"]), "\"hurricane\" is not a storm card"),
    (_set(["storm_level"], 16), "key 'storm_level': must be a mark 1-14 of the 2-player storm meter"),
    (_set(["phase"], "flood"), "\"flood\" is not a phase; phases are: actions, storm, peek, order, over"),
    (_set(["phase"], "peek"), "key 'looked_at': cards are looked at exactly in the peek and order phases"),
    (_set(["outcome"], "win"), "key 'outcome': a game has an outcome exactly when its phase is over"),
    (_set(["parts", "engine"], "lost"), "key 'parts': \"lost\" is not a cell (or not_found, collected)"),
    (_set(["actions_left"], True), "key 'actions_left': expected a whole number, got true"),
    (_set(["turn"], KeyError), "key 'turn': missing"),
]  # fmt: skip


@pytest.mark.parametrize("change, words", BROKEN)
def test_broken_documents_get_one_clear_sentence(change, words):
    with pytest.raises(PositionError) as e:
        from_dict(_broken(change), "pos.json")
    msg = str(e.value)
    assert msg.startswith("pos.json: ") and words in msg and "\n" not in msg, msg


def test_the_builder_makes_a_valid_position_and_not_json_is_an_error():
    d = _broken(lambda d: None)
    assert to_dict(from_dict(copy.deepcopy(d))) == d and d["format"] == FORMAT
    with pytest.raises(PositionError, match="not valid JSON"):
        loads("{", "x.json")
    with pytest.raises(PositionError, match="a position is a JSON object"):
        loads("[1]", "x.json")


def test_every_position_of_real_games_can_be_drawn():
    from fi_cli.desert.render import draw_position

    endings = set()
    for s in _positions(40):
        text = draw_position(s)
        assert "~~~ STORM ~~~" in text and f"p{s.n - 1} " in text and "storm meter" in text
        if s.outcome:
            endings.add(s.loss_cause)
            assert "RESULT: " in text
    assert endings >= {"thirst", "storm"}
