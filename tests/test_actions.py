"""Action notation: one text form per action, parsed back exactly; clear errors for anything else."""

from __future__ import annotations

import pytest

from fi_cli.island.actions import (
    CAPTURE,
    DISCARD,
    DRAW_FLOOD,
    END_ACTIONS,
    FLY,
    GIVE,
    HELI_PLAY,
    LIFT_OFF,
    MOVE,
    NAVIGATE,
    NO_TILE,
    SANDBAGS_PLAY,
    SHORE_UP,
    SWIM,
    ActionParseError,
    action_text,
    parse_action,
)
from fi_cli.island.tiles import TILE_INDEX as T

FORMS = [
    ((MOVE, 1, T["temple_of_the_sun"]), "move(p1, temple_of_the_sun)"),
    ((FLY, 0, T["watchtower"]), "fly(p0, watchtower)"),
    ((NAVIGATE, 3, 1, T["watchtower"]), "navigate(p3, p1, watchtower)"),
    ((SHORE_UP, 1, T["cave_of_embers"], T["coral_palace"]), "shore_up(p1, cave_of_embers+coral_palace)"),
    ((SHORE_UP, 2, T["gold_gate"], NO_TILE), "shore_up(p2, gold_gate)"),
    ((GIVE, 2, 0, 2), "give(p2, p0, crystal_of_fire)"),
    ((CAPTURE, 0, 3), "capture(p0, oceans_chalice)"),
    ((SANDBAGS_PLAY, 3, T["watchtower"]), "play(p3, sandbags, watchtower)"),
    ((HELI_PLAY, 3, 0b0011, T["watchtower"]), "play(p3, helicopter_lift, p0+p1, watchtower)"),
    ((HELI_PLAY, 1, 0b1000, T["fools_landing"]), "play(p1, helicopter_lift, p3, fools_landing)"),
    ((LIFT_OFF, 3), "play(p3, helicopter_lift, lift_off)"),
    ((END_ACTIONS, 0), "end_actions(p0)"),
    ((DISCARD, 2, 5), "discard(p2, sandbags)"),
    ((DISCARD, 2, 4), "discard(p2, helicopter_lift)"),
    ((DRAW_FLOOD,), "draw_flood"),
    ((SWIM, 1, T["watchtower"]), "swim(p1, watchtower)"),
]


@pytest.mark.parametrize("action,text", FORMS)
def test_each_form_prints_and_parses_back(action, text):
    assert action_text(action) == text
    assert parse_action(text) == action


def test_parsing_tolerates_spaces_and_orders_shore_up_pairs():
    assert parse_action("  move( p1 ,  watchtower )  ") == (MOVE, 1, T["watchtower"])
    assert parse_action("shore_up(p1, coral_palace + cave_of_embers)") == parse_action(
        "shore_up(p1, cave_of_embers+coral_palace)")  # fmt: skip
    assert parse_action("play(p3, helicopter_lift, p1+p0, watchtower)") == (HELI_PLAY, 3, 0b0011, T["watchtower"])
    assert parse_action("draw_flood()") == (DRAW_FLOOD,)


@pytest.mark.parametrize("text,message", [
    ("", "is not an action"),
    ("move p1 watchtower", "is not an action"),
    ("teleport(p1, watchtower)", "unknown action 'teleport'; actions are: move, fly"),
    ("move(p4, watchtower)", "'p4' is not a player"),
    ("move(1, watchtower)", "'1' is not a player"),
    ("move(p1, atlantis)", "'atlantis' is not a tile; tiles are: fools_landing"),
    ("move(p1)", "move takes 2 argument"),
    ("move(p1, watchtower, gold_gate)", "move takes 2 argument"),
    ("shore_up(p1, gold_gate+gold_gate)", "same tile twice"),
    ("shore_up(p1, gold_gate+iron_gate+bronze_gate)", "one or two tiles"),
    ("give(p1, p2, sandbags)", "'sandbags' is not a treasure"),
    ("capture(p1, helicopter_lift)", "is not a treasure"),
    ("discard(p1, waters_rise_x)", "is not a card"),
    ("play(p1, waters_rise, watchtower)", "only sandbags and helicopter_lift can be played"),
    ("play(p1, helicopter_lift, p0+p0, watchtower)", "named twice"),
    ("play(p1, helicopter_lift, p0)", "play takes 4 argument"),
    ("play(p1, sandbags)", "play takes a player, a card and its target"),
    ("play(p1, sandbags, watchtower, gold_gate)", "play takes 3 argument"),
    ("draw_flood(p1)", "draw_flood takes 0 argument"),
])  # fmt: skip
def test_bad_text_raises_action_parse_error(text, message):
    with pytest.raises(ActionParseError, match=message):
        parse_action(text)


def test_unknown_action_value_cannot_be_printed():
    with pytest.raises(ValueError, match="not an action"):
        action_text((99, 0))
