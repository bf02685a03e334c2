"""The heuristic player's take-off search (heuristic_escape).

Board of the hand-built positions: tests/positions.py (the standard island, tiles in reading order)."""

from __future__ import annotations

from positions import state

from fi_cli.island.actions import LIFT_OFF, action_text
from fi_cli.island.engine import ACTIONS, OVER
from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import choose, play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.policies.heuristic_escape import escape_now, lift_home

_ALL_FOUR = ["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"]
_BUT_WIND = ["earth_stone", "crystal_of_fire", "oceans_chalice"]


def _play_turn(s, **params) -> list[str]:
    """The heuristic's plays until the game ends or the next turn begins (the draws of this one run)."""
    pol = make_policy("heuristic", params)
    pol.reset(0)
    turn, played = s.turn, []
    while s.phase != OVER and s.turn == turn and len(played) < 40:
        a = choose(pol, s, s.legal_actions())
        played.append(action_text(a))
        s.apply(a)
    return played


def _navigator_and_two_groups(actions_left: int = 3):
    # p0, the Navigator, holds the four Statues on howling_garden (r2 c3) with p1 and p3, three steps from Fools'
    # Landing; p2 stands on tidal_palace (r3 c1), four steps away (three from howling_garden); two lifts in hand.
    # The take-off this turn: capture, bring p2 home with two Navigator moves, lift the others home, lift off.
    return state(
        [
            ("navigator", "howling_garden", {"statue_of_the_wind": 4}),
            ("explorer", "howling_garden", {"helicopter_lift": 1}),
            ("diver", "tidal_palace"),
            ("engineer", "howling_garden", {"helicopter_lift": 1}),
        ],
        captured=_BUT_WIND,
        actions_left=actions_left,
    )


def test_finds_the_take_off_the_turn_holds():
    s = _navigator_and_two_groups()
    played = _play_turn(s)
    assert s.outcome == "win" and s.turn == 1, played
    assert played[0] == "capture(p0, statue_of_the_wind)"
    assert sum(a.startswith("navigate(p0, p2, ") for a in played) == 2
    assert played[-1].endswith("lift_off)")


def test_without_the_search_the_turn_ends_without_a_take_off():
    # the endgame's lift rule carries the farthest pawn (p2) home first; three pawns are then left to walk
    s = _navigator_and_two_groups()
    _play_turn(s, escape=0)
    assert s.outcome != "win"


def test_no_take_off_is_promised_an_action_short():
    # with two actions: after the capture, one Navigator move brings p2 two steps, neither home nor to the
    # others (one lift for all); two groups away need three lifts with the take-off
    assert escape_now(_navigator_and_two_groups(actions_left=2)) is None
    # nor without the card the take-off itself needs
    t = state(
        [("engineer", "gold_gate"), ("pilot", "fools_landing")],
        captured=_ALL_FOUR,
    )
    assert escape_now(t) is None


def test_walks_home_and_lifts_off():
    # gold_gate (r1 c2) is next to Fools' Landing (r0 c2)
    s = state(
        [("engineer", "gold_gate"), ("pilot", "fools_landing", {"helicopter_lift": 1})],
        captured=_ALL_FOUR,
    )
    assert action_text(escape_now(s)) == "move(p0, fools_landing)"
    assert _play_turn(s) == ["move(p0, fools_landing)", "play(p1, helicopter_lift, lift_off)"]
    assert s.outcome == "win"


def test_lifts_everyone_home_in_the_flood_step():
    # a lift for the one pawn away and one for the take-off: played in the flood step, before a draw
    s = state(
        [
            ("engineer", "fools_landing", {"helicopter_lift": 2}),
            ("pilot", "watchtower"),
            ("diver", "fools_landing"),
        ],
        captured=_ALL_FOUR,
        phase="flood",
        flood_left=2,
        actions_left=0,
    )
    assert action_text(lift_home(s)) == "play(p0, helicopter_lift, p1, fools_landing)"
    played = _play_turn(s)
    assert played == ["play(p0, helicopter_lift, p1, fools_landing)", "play(p0, helicopter_lift, lift_off)"]
    assert s.outcome == "win"
    # one lift only: it is kept for the take-off
    t = state(
        [("engineer", "fools_landing", {"helicopter_lift": 1}), ("pilot", "watchtower")],
        captured=_ALL_FOUR,
        phase="flood",
        flood_left=2,
        actions_left=0,
    )
    assert lift_home(t) is None


def test_every_take_off_found_in_real_games_is_made_that_turn():
    # the search is exact: whenever it answers, following it wins before the turn's draws
    setup = GameSetup(get_layout("forbidden_island"), start_level=2, players=4)
    found = 0

    class Spy:
        name = "spy"

        def __init__(self) -> None:
            self.inner = make_policy("heuristic", {"escape": 0})

        def reset(self, seed: int) -> None:
            self.inner.reset(seed)

        def choose(self, s, legal):
            nonlocal found
            if s.phase == ACTIONS and escape_now(s) is not None:
                found += 1
                t = s.copy()
                turn = t.turn
                while t.phase != OVER:
                    a = escape_now(t) if t.phase == ACTIONS else lift_home(t)
                    assert a is not None and t.turn == turn
                    t.apply(a)
                assert t.outcome == "win" and a[0] == LIFT_OFF
            return self.inner.choose(s, legal)

    for seed in range(40):
        play_game(setup, Spy(), seed)
    assert found >= 5
