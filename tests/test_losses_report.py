"""benchmarks/losses.py: the loss table by progress for either game, the Desert's open endings, and a clear error
for a difficulty the game does not have."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fi_cli.island.actions import parse_action
from fi_cli.island.tiles import TREASURES

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))
import losses  # noqa: E402
from positions import state  # noqa: E402


def test_desert_summary_counts_each_loss_where_it_belongs(capsys):
    games = [
        losses.Game("win", 4, 3, True),
        losses.Game("thirst", 4, 1, True),  # lost with the parts in hand and the Launch Pad known
        losses.Game("buried", 3, None, True),  # every part found, one not yet picked up
        losses.Game("buried", 3, None, False),
        losses.Game("thirst", 1, None, False),
    ]
    s = losses.report("desert", games)
    assert s["wins"] == 0.2
    assert s["lost after all four parts were collected"] == 0.2
    assert s["lost with three parts collected"] == 0.4
    assert s["a pawn died of thirst"] == 0.4
    assert s["lost with every part found and the Launch Pad known"] == 0.4
    out = capsys.readouterr().out
    assert "| buried | 0.0% | 0.0% | 0.0% | 40.0% | 0.0% | 40.0% |" in out
    assert "2 games collected all four parts; 1 of them were lost after that" in out


def test_island_summary_keeps_its_treasures():
    games = [losses.Game("win", 4, 2, True), losses.Game("water_level", 4, 0, True)]
    s = losses.report("island", games)
    assert s == {
        "wins": 0.5,
        "lost after all four treasures were captured": 0.5,
        "lost with three treasures captured": 0.0,
        "water reached the skull": 0.5,
    }


def test_a_difficulty_of_the_other_game_is_refused():
    r = subprocess.run([sys.executable, "losses.py", "--game", "desert", "--difficulty", "7", "--games", "1"],
                       cwd=BENCH, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "start mark 1-4, got '7'" in r.stderr


def test_endgames_are_read_by_what_the_team_held_at_the_fourth(capsys):
    games = [
        losses.Game("win", 4, 2, True, 0),
        losses.Game("fools_landing_sunk", 4, 1, True, 0),
        losses.Game("win", 4, 1, True, 1),
        losses.Game("win", 4, 0, True, 3),  # two or more lifts counted together
        losses.Game("treasure_lost", 3, None, False),
    ]
    losses.report("island", games)
    out = capsys.readouterr().out
    assert "by the Helicopter Lifts in hand then: 0: 1/2 won, 1: 1/1 won, 2+: 1/1 won" in out


@pytest.mark.parametrize(("game", "players", "seeds", "most"), [("island", 4, 12, 3), ("desert", 2, 6, 5)])
def test_the_watch_notes_what_the_team_held_at_the_first_decision_with_all_four(game, players, seeds, most):
    # tuning seeds the heuristic plays to a fourth capture (or part) at Novice; at most 3 lifts, or a canteen of 5
    games = losses._play((game, "heuristic", {}, players, 1, range(700_000, 700_000 + seeds)))
    four = [g for g in games if g.after is not None]
    assert four and all(g.held is not None and 0 <= g.held <= most for g in four)
    assert len({g.held for g in four}) > 1  # read from each game, not a constant
    assert all(g.held is None for g in games if g.after is None)
    # the stranded pawns are read on the island only, at the same decision
    assert all((g.stranded is not None) == (game == "island" and g.after is not None) for g in games)


def test_pawns_that_cannot_walk_home_are_counted_by_their_way_of_moving():
    # the watchtower (r5c3) cut off by its two sunk neighbours, the twilight hollow and the observatory: an
    # Engineer there cannot walk to Fools' Landing; the Explorer steps out diagonally, the Diver swims, the
    # Pilot flies; a pawn on Fools' Landing is home
    sunk = ("twilight_hollow", "observatory")
    stranded = [
        len(losses._stranded(state([(role, "watchtower"), ("messenger", "fools_landing")], sunk=sunk)))
        for role in ("engineer", "explorer", "diver", "pilot")
    ]
    assert stranded == [1, 0, 0, 0]
    s = state([("engineer", "watchtower"), ("navigator", "watchtower"), ("pilot", "copper_gate")], sunk=sunk)
    assert losses._stranded(s) == [0, 1]


def test_endgames_are_read_by_the_pawns_stranded_at_the_fourth(capsys):
    games = [
        losses.Game("win", 4, 2, True, 1, 0),
        losses.Game("fools_landing_sunk", 4, 1, True, 0, 1),
        losses.Game("win", 4, 1, True, 1, 1),
        losses.Game("water_level", 4, 0, True, 1, 3),  # two or more counted together
    ]
    losses.report("island", games)
    out = capsys.readouterr().out
    assert "could not walk to Fools' Landing then (the Pilot flies): 0: 1/1 won, 1: 1/2 won, 2+: 0/1 won" in out


def test_endgames_are_read_by_a_capturer_lifted_away_and_by_the_tiles_sunk(capsys):
    games = [
        losses.Game("win", 4, 2, True, 1, 1, True, 11),
        losses.Game("fools_landing_sunk", 4, 1, True, 0, 1, True, 12),
        losses.Game("win", 4, 1, True, 1, 0, False, 15),
        losses.Game("water_level", 4, 0, True, 1, 2, False, 16),
        losses.Game("treasure_lost", 3, None, False),  # never four: read by neither
    ]
    losses.report("island", games)
    out = capsys.readouterr().out
    assert "carried to its treasure by a Helicopter Lift: no: 1/2 won, yes: 1/2 won" in out
    assert "by the tiles sunk then: 0-11: 1/1 won, 12-15: 1/2 won, 16+: 0/1 won" in out


class _Script:
    """A stand-in policy that plays the given actions in turn."""

    def __init__(self, *actions: str) -> None:
        self.actions = [parse_action(a) for a in actions]

    def reset(self, seed: int) -> None:
        pass

    def choose(self, state, legal):
        return self.actions.pop(0)


CUT_OFF = ("twilight_hollow", "observatory")  # the watchtower's two neighbours: a walker there cannot get home


@pytest.mark.parametrize(
    ("actions", "lifted"),
    [
        (("play(p1, helicopter_lift, p0, watchtower)", "capture(p0, earth_stone)"), True),
        (("play(p1, helicopter_lift, p0, watchtower)", "move(p0, watchtower)", "capture(p0, earth_stone)"), False),
        (("play(p1, helicopter_lift, p1, watchtower)", "capture(p0, earth_stone)"), False),  # another pawn lifted
        (("play(p1, helicopter_lift, p0+p1, watchtower)", "capture(p1, earth_stone)"), False),  # p1 can get home
    ],
)
def test_the_watch_knows_whether_the_fourth_capturer_came_by_a_lift_to_where_it_is_stranded(actions, lifted):
    # the watch reads the actions the policy chose; the positions it is shown only need the last one to hold
    # all four treasures, with p0 (an Engineer) cut off on the watchtower and p1 (a Pilot) beside it
    watch = losses._Watch(_Script(*actions, "end_actions(p0)"), "island")
    before = state([("engineer", "watchtower"), ("pilot", "watchtower")], sunk=CUT_OFF)
    for _ in actions:
        watch.choose(before, [])
    assert watch.held is None
    four = state([("engineer", "watchtower"), ("pilot", "watchtower")], sunk=CUT_OFF, captured=TREASURES)
    watch.choose(four, [])
    assert (watch.stranded, watch.lifted, watch.sunk) == (1, lifted, 2)


def test_thirst_losses_are_read_by_a_pawn_alone_dry_beside_the_others_water(capsys):
    assert losses._alone([3, 1, 4, 2]) == 9  # one pawn at 1: the water of the other three
    assert losses._alone([0, 5]) == 5
    assert losses._alone([1, 0, 4]) is None  # two dry: not alone
    assert losses._alone([2, 2, 3]) is None  # nobody dry
    games = [
        losses.Game("thirst", 2, None, False, alone=9),
        losses.Game("thirst", 1, None, False, alone=6),
        losses.Game("thirst", 1, None, False),  # two dry together
        losses.Game("buried", 1, None, False, alone=8),  # not a thirst loss: not counted
    ]
    s = losses.report("desert", games)
    assert s["lost to thirst, one pawn alone dry"] == 0.5
    out = capsys.readouterr().out
    assert "one pawn alone at 0-1 water at the last decision: 2 of 3 thirst losses (50.0% of all games); " \
        "the others held 7.5 water then, on average" in out


def test_the_watch_reads_the_water_of_the_last_decision():
    # tuning seeds the heuristic loses at 4 players Elite: each game read from its own last decision
    games = losses._play(("desert", "heuristic", {}, 4, 3, range(700_000, 700_008)))
    assert any(g.end != "win" for g in games)
    # the three others at 2 or more each, and within their canteens (the largest are of 5, 4 and 4)
    assert all(g.alone is None or 6 <= g.alone <= 13 for g in games)
    assert len({g.alone for g in games}) > 1
