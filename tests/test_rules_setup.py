"""Set-up (rule 3), the water meter (rule 2), the components (rule 1) and the layouts (rule 8)."""

from __future__ import annotations

from collections import Counter

import pytest

from fi_cli.island.engine import ACTIONS
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import BUILTIN_LAYOUTS, Layout, LayoutError, get_layout
from fi_cli.island.position import to_dict
from fi_cli.island.rules import Rules, RulesError
from fi_cli.island.tiles import (
    CARDS,
    DECK_COUNTS,
    DIFFICULTIES,
    DRY,
    FLOOD_DRAWS,
    FLOODED,
    ROLE_START,
    ROLES,
    SKULL,
    TILE_INDEX,
    TILES,
    TREASURE_TILES,
    TREASURES,
    WATERS_RISE,
    parse_difficulty,
)

STANDARD = get_layout("forbidden_island")


def test_components():
    assert len(TILES) == 24 and len(set(TILES)) == 24
    assert dict(zip(CARDS, DECK_COUNTS, strict=True)) == {
        "earth_stone": 5, "statue_of_the_wind": 5, "crystal_of_fire": 5, "oceans_chalice": 5,
        "helicopter_lift": 3, "sandbags": 2, "waters_rise": 3}  # fmt: skip
    assert {TREASURES[i]: tuple(TILES[t] for t in pair) for i, pair in enumerate(TREASURE_TILES)} == {
        "earth_stone": ("temple_of_the_moon", "temple_of_the_sun"),
        "statue_of_the_wind": ("whispering_garden", "howling_garden"),
        "crystal_of_fire": ("cave_of_embers", "cave_of_shadows"),
        "oceans_chalice": ("coral_palace", "tidal_palace"),
    }
    assert {ROLES[r]: TILES[ROLE_START[r]] for r in range(6)} == {
        "pilot": "fools_landing", "engineer": "bronze_gate", "explorer": "copper_gate", "navigator": "gold_gate",
        "diver": "iron_gate", "messenger": "silver_gate"}  # fmt: skip


def test_water_meter():
    assert FLOOD_DRAWS[1:] == (2, 2, 3, 3, 3, 4, 4, 5, 5) and SKULL == 10
    assert DIFFICULTIES == {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}
    given = ("novice", "Normal", " elite ", "legendary", 1, "9", 5)
    assert [parse_difficulty(x) for x in given] == [1, 2, 3, 4, 1, 9, 5]
    for bad in (0, 10, "10", "hard", True, -1):
        with pytest.raises(ValueError, match="difficulty must be one of novice, normal, elite, legendary"):
            parse_difficulty(bad)


def test_layouts_have_24_cells_and_the_documented_shapes():
    assert STANDARD.rows() == ["..XX..", ".XXXX.", "XXXXXX", "XXXXXX", ".XXXX.", "..XX.."]
    assert get_layout("bay_of_gulls").rows() == ["...XX...", "...XX...", "X..XX..X", "XXXXXXXX", ".XXXXXX.", "...XX..."]
    assert len(BUILTIN_LAYOUTS) == 12
    for layout in BUILTIN_LAYOUTS.values():
        assert len(layout.cells) == 24
    with pytest.raises(LayoutError, match="exactly 24"):
        Layout.from_rows("small", "XXX")
    with pytest.raises(LayoutError, match="unknown layout 'nope'"):
        get_layout("nope")
    assert len(get_layout("treasure_island").components()) == 1
    assert len(Layout.from_rows("two", "XXXXXX.XXXXXX / XXXXXX.XXXXXX").components()) == 2


def _check_setup(s, setup: GameSetup) -> None:
    n = setup.players
    # 2. six flood cards drawn: exactly six tiles flooded, their cards in the discard, the rest in one pile
    flooded = sorted(t for t in range(24) if s.tiles[t] == FLOODED)
    assert len(flooded) == 6 and sorted(s.fdiscard) == flooded
    assert s.tiles.count(DRY) == 18 and len(s.fdeck) == 1 and sorted(s.fdeck[0]) == [t for t in range(24)
                                                                                      if t not in flooded]
    # 3. distinct roles, pawns on their start tiles
    assert len(set(s.roles)) == n == s.n
    assert s.pos == [ROLE_START[r] for r in s.roles]
    if setup.roles is not None:
        assert tuple(ROLES[r] for r in s.roles) == setup.roles
    # 4. two cards each, never a Waters Rise!; all other cards in the draw pile
    assert all(sum(h) == 2 and len(h) == 6 for h in s.hands)
    assert s.tdeck[WATERS_RISE] == 3 and sum(s.tdiscard) == 0
    for c in range(6):
        assert s.tdeck[c] + sum(h[c] for h in s.hands) == DECK_COUNTS[c]
    # 5.-6.
    assert s.water == setup.start_level
    assert 0 <= s.current < n and (setup.first_player is None or s.current == setup.first_player)
    assert (s.turn, s.phase, s.actions_left, s.flight_used, s.captured, s.outcome) == (1, ACTIONS, 3, False, 0, None)
    assert s.loss_causes == () and s.swimmers == []
    # tiles placed on the layout's cells, pins respected
    assert sorted(s.board.cell_of) == list(setup.layout.cells)
    for tile, cell in setup.layout.pins.items():
        assert s.board.cell_of[TILE_INDEX[tile]] == cell


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", [1, 2, 3, 4, 9])
def test_new_game_follows_the_set_up(players, level):
    for seed in range(25):
        setup = GameSetup(STANDARD, start_level=level, players=players)
        _check_setup(new_game(setup, seed), setup)


def test_pins_named_roles_and_first_player_are_respected():
    pinned = Layout.from_rows("pinned", "..XX.. / .XXXX. / XXXXXX / XXXXXX / .XXXX. / ..XX..",
                              pins={"fools_landing": (2, 2), "watchtower": (0, 3)})  # fmt: skip
    setup = GameSetup(pinned, players=3, roles=("diver", "pilot", "messenger"), first_player=2)
    placements = set()
    for seed in range(30):
        s = new_game(setup, seed)
        _check_setup(s, setup)
        assert s.board.cell_of[0] == (2, 2) and s.board.cell_of[TILE_INDEX["watchtower"]] == (0, 3)
        assert s.pos == [TILE_INDEX["iron_gate"], TILE_INDEX["fools_landing"], TILE_INDEX["silver_gate"]]
        placements.add(s.board.placement)
    assert len(placements) == 30  # the other tiles are still shuffled


def test_set_up_is_random_but_reproducible():
    setup = GameSetup(STANDARD, players=4)
    assert to_dict(new_game(setup, 11)) == to_dict(new_game(setup, 11))
    games = [new_game(setup, seed) for seed in range(60)]
    assert len({g.board.placement for g in games}) == 60
    assert len({tuple(sorted(g.fdiscard)) for g in games}) == 60
    assert {g.current for g in games} == {0, 1, 2, 3}
    assert {r for g in games for r in g.roles} == set(range(6))


def test_dealing_and_initial_flooding_are_fair():
    setup = GameSetup(STANDARD, players=4)
    dealt: Counter[int] = Counter()
    flooded: Counter[int] = Counter()
    games = 1500
    for seed in range(games):
        s = new_game(setup, seed)
        for h in s.hands:
            for c in range(6):
                dealt[c] += h[c]
        flooded.update(s.fdiscard)
    cards = games * 8
    for c in range(6):  # each card of the 25 that are not Waters Rise! is equally likely
        expected = cards * DECK_COUNTS[c] / 25
        assert abs(dealt[c] - expected) < 0.12 * expected, (CARDS[c], dealt[c], expected)
    for t in range(24):
        assert abs(flooded[t] - games / 4) < 0.2 * games / 4, (TILES[t], flooded[t])


def test_game_setup_validation():
    for kw, msg in [
        ({"players": 1}, "players must be 2, 3 or 4"),
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"start_level": 0}, "start level must be 1-9"),
        ({"start_level": 10}, "start level must be 1-9"),
        ({"players": 2, "roles": ("pilot", "wizard")}, "unknown role 'wizard'"),
        ({"players": 2, "roles": ("pilot",)}, "1 roles given for 2 players"),
        ({"players": 2, "roles": ("pilot", "pilot")}, "distinct role"),
        ({"players": 2, "first_player": 2}, "first player must be a seat 0-1"),
    ]:
        with pytest.raises(ValueError, match=msg):
            GameSetup(STANDARD, **kw)


def test_rule_variants_defaults_and_validation():
    assert Rules().to_dict() == {"navigator_moves": "mover_abilities", "diver_swim": "nearest",
                                 "helicopter_rescue": True, "helicopter_lift_group": "subset",
                                 "diver_through_sea": False, "pilot_swim_uses_flight": False,
                                 "turn_limit": 200}  # fmt: skip
    with pytest.raises(RulesError, match="unknown rule variant 'diver_speed'; variants are: navigator_moves"):
        Rules.from_dict({"diver_speed": 3})
    with pytest.raises(RulesError, match="'diver_swim' cannot be 'fast'; allowed: nearest, any_reachable"):
        Rules.from_dict({"diver_swim": "fast"})
    with pytest.raises(RulesError, match="helicopter_rescue"):
        Rules.from_dict({"helicopter_rescue": 1})
    with pytest.raises(RulesError, match="'pilot_swim_uses_flight' cannot be 'yes'; allowed: false, true"):
        Rules.from_dict({"pilot_swim_uses_flight": "yes"})
    with pytest.raises(RulesError, match="turn_limit"):
        Rules.from_dict({"turn_limit": 0})
