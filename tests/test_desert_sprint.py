"""The Desert heuristic's end game with parts still lying (heuristic_sprint): the player turns the whole team needs
to pick them up and take off, worked out by hand on an excavated board, and the plans it changes."""

from __future__ import annotations

from desert_positions import state
from test_desert_policy_heuristic import ALL_PARTS, ARCH, NAV, turn

from fi_cli.desert.policies.heuristic import DEFAULTS
from fi_cli.desert.policies.heuristic_sprint import Sprint
from fi_cli.desert.policies.heuristic_view import View
from fi_cli.desert.tiles import CELLS

C = {name: i for i, name in enumerate(CELLS)}
# every tile excavated and no sand: the storm on r2c2 (a hole to walk round), the Launch Pad on r4c3, tunnels on
# r3c3, r3c4 and r4c2 (a pawn in one steps to any other)
DUG = {"r0c1": "gear", "r0c2": "gear", "r0c3": "gear", "r0c4": "well", "r1c0": "gear", "r1c1": "gear",
       "r1c2": "gear", "r1c3": "gear", "r1c4": "propeller_row", "r2c0": "propeller_column", "r2c1": "engine_row",
       "r2c3": "engine_column", "r2c4": "solar_crystal_row", "r3c0": "solar_crystal_column",
       "r3c1": "navigation_deck_row", "r3c2": "navigation_deck_column", "r3c3": "tunnel", "r3c4": "tunnel",
       "r4c0": "well", "r4c1": "gear", "r4c2": "tunnel", "r4c3": "launch_pad", "r4c4": "mirage"}  # fmt: skip


def sprint(players, **kw) -> Sprint:
    return Sprint(View(state(players, dug=DUG, **kw), DEFAULTS))


def test_the_team_turns_share_the_lying_parts_out_in_the_way_that_ends_soonest():
    # the engine lies on r0c4; the Archeologist (p0, her turn) on r0c0, 4 steps from it and 7 from the Launch Pad
    # (r4c3) where the Navigator (p1) stands, 5 steps from the engine. 4 actions a turn, 2 players.
    sp = sprint([(ARCH, "r0c0"), (NAV, "r4c3")], parts={**ALL_PARTS, "engine": "r0c4"})
    assert sp.cells == [C["r0c4"]] and sp.extra == [1]  # an excavated tile: the pick-up only
    assert sp.first == [2, 1]  # the current pawn's next turn is 2 player turns away, the Navigator's 1
    # the Navigator alone: home already (0), or 5 steps, the pick-up and 5 back = 11 actions: turns 1, 3 and 5
    assert sp.others == [0, 5]
    # p0 ends on r0c0: fetching it herself, 4 + 1 + 5 = 10 actions (her turns 2, 4, 6), else 7 steps home (turns 2
    # and 4) while the Navigator fetches it (5): 5
    assert sp.team_turns(C["r0c0"], 0) == 5
    # p0 ends on the engine's tile: it, and 5 steps home (turns 2 and 4)
    assert sp.team_turns(C["r0c4"], 0) == 4
    assert sp.team_turns(C["r0c4"], 1) == 4  # picked up this turn: the same walk home
    assert sp.team_turns(C["r4c3"], 1) == 0  # picked up, and on the Launch Pad with the Navigator: take-off
    assert sp.team_turns(C["r4c3"], 0) == 5  # home without it: the Navigator fetches it


def test_a_part_on_a_tile_not_yet_excavated_costs_its_last_marker_and_the_excavation():
    dug = {c: k for c, k in DUG.items() if c != "r0c4"}
    s = state([(ARCH, "r0c0"), (NAV, "r4c3")], dug=dug, sand={"r0c4": 2}, parts={**ALL_PARTS, "engine": "r0c4"})
    sp = Sprint(View(s, DEFAULTS))
    assert sp.extra == [3]  # the pick-up, the last marker (entering clears it to one) and the excavation
    # the Navigator: 4 steps and a marker to enter (5), 3 there, 5 back = 13 actions: turns 1, 3, 5, 7
    assert sp.others == [0, 7]


def test_a_pawn_heads_home_when_a_team_mate_picks_up_the_last_part_sooner():
    # the engine lies on r2c3, on the way home of the Navigator (p1, r1c3), whose turn comes next: 1 step, the
    # pick-up and 2 steps onto the Launch Pad (r4c3). The Archeologist (p0, r1c2) can pick it up too, but then
    # not reach the Launch Pad this turn: the team takes off on the Navigator's turn (1) if she walks home now,
    # on her next turn (2) if she picks it up. A player turn costs w_sprint: at 20 that outweighs the value of a
    # pick-up (v_pick 13.2) and she walks home; at 0 she picks it up (the default 5 is a lighter nudge)
    def position():
        return state([(ARCH, "r1c2"), (NAV, "r1c3")], dug=DUG, parts={**ALL_PARTS, "engine": "r2c3"})

    assert "pick_up(p0, engine)" in turn(position(), w_sprint=0)
    assert turn(position(), w_sprint=20) == ["move(p0, r1c3)", "move(p0, r2c3)", "move(p0, r3c3)", "move(p0, r4c3)"]
