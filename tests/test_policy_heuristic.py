"""The heuristic player: whole games without errors, obvious moves in hand-built positions, fairness."""

from __future__ import annotations

import random

import pytest
from checked_policy import CheckedPolicy
from positions import state

from fi_cli.island.actions import action_text, parse_action
from fi_cli.island.engine import ACTIONS
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import choose, play_game
from fi_cli.island.policies import PolicyError, make_policy


def _pick(s, **params) -> str:
    pol = make_policy("heuristic", params)
    pol.reset(0)
    return action_text(choose(pol, s, s.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", [1, 4])
def test_plays_whole_games(players, level):
    setup = GameSetup(get_layout("forbidden_island"), start_level=level, players=players)
    pol = CheckedPolicy(make_policy("heuristic"), action_text)
    outcomes = set()
    for seed in range(6):
        r = play_game(setup, pol, seed)
        assert r.outcome in ("win", "loss")
        assert r.outcome == "win" or r.loss_cause is not None
        outcomes.add(r.outcome)
    assert outcomes


def test_wins_games_at_novice():
    setup = GameSetup(get_layout("forbidden_island"), start_level=1, players=4)
    pol = make_policy("heuristic")
    wins = sum(play_game(setup, pol, seed).outcome == "win" for seed in range(40))
    assert wins >= 8  # about half in the benchmark; far above 0 for any broken version


def test_captures_when_it_can():
    s = state(
        [("engineer", "temple_of_the_sun", {"earth_stone": 4}), ("pilot", "fools_landing")],
        flooded=["watchtower", "coral_palace"],
        flood_discard=["watchtower", "coral_palace"],
    )
    assert _pick(s) == "capture(p0, earth_stone)"


def test_captures_before_a_helicopter_lift_to_a_team_mate():
    # p0 stands on a Crystal tile with the four Crystals and the Statue that completes p1's set: flying to p1
    # first (the lift rule that brings a card to its collector) would leave the Crystal behind; capture first
    s = state(
        [
            ("engineer", "cave_of_embers", {"crystal_of_fire": 4, "statue_of_the_wind": 1}),
            ("pilot", "fools_landing", {"statue_of_the_wind": 3}),
            ("diver", "watchtower", {"helicopter_lift": 1}),
        ]
    )
    assert _pick(s) == "capture(p0, crystal_of_fire)"
    assert _pick(s, heli_meet=0) == "capture(p0, crystal_of_fire)"


def test_walks_to_the_treasure_and_captures_in_the_same_turn():
    # coral_palace (r3 c0) is next to temple_of_the_moon (r2 c0), a tile of the Earth Stone
    s = state([("messenger", "coral_palace", {"earth_stone": 4}), ("pilot", "fools_landing")])
    first = _pick(s)
    assert first == "move(p0, temple_of_the_moon)"
    s.apply(parse_action(first))
    assert _pick(s) == "capture(p0, earth_stone)"


def test_lifts_off_when_the_team_can():
    s = state(
        [("engineer", "fools_landing"), ("pilot", "fools_landing", {"helicopter_lift": 1})],
        captured=["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"],
    )
    assert _pick(s) == "play(p1, helicopter_lift, lift_off)"


def test_flies_everyone_home_with_a_spare_helicopter():
    s = state(
        [("engineer", "watchtower", {"helicopter_lift": 1}), ("pilot", "fools_landing", {"helicopter_lift": 1})],
        captured=["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"],
    )
    a = _pick(s)
    assert a.startswith("play(") and a.endswith("p0, fools_landing)")


def test_rescues_a_pawn_that_cannot_swim():
    # the Messenger's tile (cave_of_shadows, r2 c5) sinks with both neighbours already gone
    s = state(
        [("messenger", "cave_of_shadows"), ("engineer", "watchtower", {"helicopter_lift": 1})],
        sunk=["cave_of_shadows", "cave_of_embers", "dunes_of_deception"],
        phase="swim",
        swimmers=[0],
        sinking="cave_of_shadows",
        flood_left=1,
    )
    a = _pick(s)
    assert a.startswith("play(p1, helicopter_lift, p0, ")


def _flood_step_with_sandbags(flooded: list[str], top: list[str], flood_left: int):
    """The flood step of a turn, the Engineer holding a Sandbags card."""
    return state(
        [("engineer", "watchtower", {"sandbags": 1}), ("pilot", "observatory")],
        flooded=flooded,
        flood_top=[top],
        phase="flood",
        actions_left=0,
        flood_left=flood_left,
    )


def test_sandbags_save_fools_landing_about_to_be_drawn():
    s = _flood_step_with_sandbags(["fools_landing", "misty_marsh"], ["fools_landing", "misty_marsh"], 2)
    assert _pick(s) == "play(p0, sandbags, fools_landing)"


def test_sandbags_wait_for_a_tile_worth_the_ordinary_bar():
    # both Earth Stone tiles flooded (4.5 each) and one card to draw from a top segment of two: 4.5 x 0.5 = 2.25,
    # under the bar (2.8): the card is kept for a tile more at stake; at the old bar (2) it was played
    s = _flood_step_with_sandbags(["temple_of_the_sun", "temple_of_the_moon"], ["temple_of_the_sun", "misty_marsh"], 1)
    assert _pick(s) == "draw_flood"
    assert _pick(s, sandbag_threshold=2) == "play(p0, sandbags, temple_of_the_sun)"


def _last_earth_tile_at_one_in_five(sunk_twin: bool):
    # one card left to draw from a top segment of five: a 20% chance for temple_of_the_sun, whose importance
    # times that chance (9 x 0.2) is under the ordinary Sandbags bar (2.8)
    return state(
        [("engineer", "watchtower", {"sandbags": 1}), ("pilot", "observatory")],
        flooded=["temple_of_the_sun"],
        sunk=["temple_of_the_moon"] if sunk_twin else [],
        flood_top=[["temple_of_the_sun", "misty_marsh", "coral_palace", "iron_gate", "copper_gate"]],
        phase="flood",
        actions_left=0,
        flood_left=1,
    )


def test_sandbags_save_the_last_tile_of_a_treasure_at_a_lower_bar():
    s = _last_earth_tile_at_one_in_five(sunk_twin=True)
    assert _pick(s) == "play(p0, sandbags, temple_of_the_sun)"
    assert _pick(s, sandbag_fatal=0) == "draw_flood"  # the ordinary bar alone would draw on
    assert _pick(s, sandbag_fatal=0.25) == "draw_flood"  # a 20% chance is under that bar
    # with its twin standing, the tile's sinking would not lose the game: no card is spent at 20%
    assert _pick(_last_earth_tile_at_one_in_five(sunk_twin=False)) == "draw_flood"


def _stranded_messenger_at_one_in_five(engineer_hand: dict):
    # the Messenger's tile (cave_of_shadows, r2 c5) is flooded and both its neighbours have sunk: if its card is
    # drawn (one card from a top segment of five) she drowns, unless a Helicopter Lift rescues her (the Crystal
    # of Fire is captured, so the tile is not the last of a treasure the team still needs)
    return state(
        [("messenger", "cave_of_shadows"), ("engineer", "watchtower", engineer_hand)],
        captured=["crystal_of_fire"],
        flooded=["cave_of_shadows"],
        sunk=["cave_of_embers", "dunes_of_deception"],
        flood_top=[["cave_of_shadows", "misty_marsh", "coral_palace", "iron_gate", "copper_gate"]],
        phase="flood",
        actions_left=0,
        flood_left=1,
    )


def test_sandbags_save_the_tile_of_a_pawn_that_could_swim_nowhere():
    s = _stranded_messenger_at_one_in_five({"sandbags": 1})
    assert _pick(s) == "play(p1, sandbags, cave_of_shadows)"
    assert _pick(s, sandbag_fatal=0) == "draw_flood"  # a plain tile at 20% is under the ordinary bar
    # a Helicopter Lift in hand can rescue her: no card is spent at 20%
    assert _pick(_stranded_messenger_at_one_in_five({"sandbags": 1, "helicopter_lift": 1})) == "draw_flood"


def test_draws_on_when_nothing_important_is_at_risk():
    s = state(
        [("engineer", "watchtower", {"sandbags": 1}), ("pilot", "observatory")],
        flooded=["misty_marsh"],
        flood_discard=["misty_marsh"],
        phase="flood",
        actions_left=0,
        flood_left=2,
    )
    assert _pick(s) == "draw_flood"


def test_discards_a_card_of_a_captured_treasure_first():
    s = state(
        [
            ("engineer", "watchtower", {"earth_stone": 1, "crystal_of_fire": 3, "oceans_chalice": 1, "sandbags": 1}),
            ("pilot", "observatory", {"oceans_chalice": 2}),
        ],
        captured=["earth_stone"],
        phase="discard",
        discarder=0,
        resume="actions",
    )
    # six cards: the captured treasure's card is worth nothing
    assert _pick(s) == "discard(p0, earth_stone)"


def test_a_spare_card_is_discarded_first():
    def discarded(p0_hand: dict, p1_hand: dict) -> str:
        s = state(
            [("engineer", "watchtower", p0_hand), ("pilot", "observatory", p1_hand)],
            phase="discard",
            discarder=0,
            resume="actions",
        )
        return _pick(s)

    hand = {"crystal_of_fire": 1, "oceans_chalice": 2, "statue_of_the_wind": 2, "sandbags": 1}
    # p1 holds four Crystals and will capture them: p0's Crystal is spare, the card to discard
    assert discarded(hand, {"crystal_of_fire": 4, "oceans_chalice": 1}) == "discard(p0, crystal_of_fire)"
    # with three, p1 still needs it: the Sandbags go
    assert discarded(hand, {"crystal_of_fire": 3, "oceans_chalice": 1}) == "discard(p0, sandbags)"
    # one of five Crystals in a hand is spare too
    five = {"crystal_of_fire": 5, "oceans_chalice": 1}
    assert discarded(five, {"oceans_chalice": 1}) == "discard(p0, crystal_of_fire)"


def test_a_holder_of_spare_cards_is_not_pulled_to_the_collector():
    def goals(p1_crystals: int) -> list:
        p1 = ("pilot", "observatory", {"crystal_of_fire": p1_crystals})
        s = state([("engineer", "watchtower", {"crystal_of_fire": 1}), p1])
        return _context(s).goals_of(0)

    assert goals(3)  # p1 needs p0's Crystal: p0 is drawn to it
    assert goals(4) == []  # p1 holds four: p0's Crystal is not wanted


def test_a_collector_goes_to_meet_the_other_holders_once_the_team_holds_three():
    from fi_cli.island.tiles import TILE_INDEX

    def goals(p1_crystals: int, **params) -> list:
        p0 = ("engineer", "watchtower", {"crystal_of_fire": 2})
        s = state([p0, ("pilot", "observatory", {"crystal_of_fire": p1_crystals})])
        return _context(s, **params).goals_of(0)

    observatory = (TILE_INDEX["observatory"],)
    assert goals(1) == [(0.8 * 1.0 * 0.5, observatory)]  # w_meet x meet_three x half the card held elsewhere
    assert goals(1, meet_three=0) == []
    assert goals(1, meet_three=2) == [(0.8 * 2.0 * 0.5, observatory)]


def test_gives_the_card_that_completes_a_set():
    s = state(
        [("engineer", "watchtower", {"crystal_of_fire": 1}), ("pilot", "watchtower", {"crystal_of_fire": 3})],
    )
    assert _pick(s) == "give(p0, p1, crystal_of_fire)"


def _decision_states(n: int = 40):
    out = []
    for seed in range(12):
        s = new_game(GameSetup(get_layout("forbidden_island"), start_level=1 + seed % 3, players=2 + seed % 3), seed)
        pol = make_policy("heuristic")
        pol.reset(seed)
        while s.outcome is None and len(out) < n * (seed + 1) // 12:
            legal = s.legal_actions()
            if len(legal) > 1 and s.turn > 2:
                out.append(s.copy())
            s.apply(choose(pol, s, legal))
    return out


def test_fair_same_decision_whatever_the_hidden_deck_order():
    """Same public position, different generators and different order inside the pile segments."""
    for s in _decision_states():
        a = s.copy(random.Random(1))
        b = s.copy(random.Random(2))
        rng = random.Random(3)
        for seg in b.fdeck:
            rng.shuffle(seg)
        b.fdiscard = b.fdiscard[::-1]
        pa, pb = make_policy("heuristic"), make_policy("heuristic")
        pa.reset(5)
        pb.reset(5)
        assert choose(pa, a, a.legal_actions()) == choose(pb, b, b.legal_actions())


def test_plans_are_only_followed_in_the_position_they_were_made_for():
    s = state([("messenger", "coral_palace", {"earth_stone": 4}), ("pilot", "fools_landing")])
    pol = make_policy("heuristic")
    pol.reset(0)
    assert action_text(choose(pol, s, s.legal_actions())) == "move(p0, temple_of_the_moon)"
    # a different position with the same turn, player, pawn tile and actions left: planned afresh
    t = state(
        [("messenger", "temple_of_the_moon", {"earth_stone": 3, "crystal_of_fire": 1}), ("pilot", "fools_landing")],
        actions_left=2,
    )
    assert t.phase == ACTIONS
    fresh = make_policy("heuristic")
    fresh.reset(0)
    assert choose(pol, t, t.legal_actions()) == choose(fresh, t, t.legal_actions())


def test_parameters_come_from_the_study_and_are_checked():
    pol = make_policy("heuristic", {"w_meet": 1.2, "sandbag_threshold": 3})
    assert pol.w["w_meet"] == 1.2 and pol.w["sandbag_threshold"] == 3.0
    assert set(pol.PARAMETERS) >= {"w_meet", "w_fools_landing", "keep_heli"}
    with pytest.raises(PolicyError, match="no parameter 'bogus'"):
        make_policy("heuristic", {"bogus": 1})
    with pytest.raises(PolicyError, match="must be a number"):
        make_policy("heuristic", {"w_meet": "high"})


def test_same_games_whether_the_legal_list_is_given_or_made_on_demand():
    """The heuristic decides from the state where it can; that must never differ from reading the list."""
    from invariants import varied_setup

    from fi_cli.island.engine import LegalActions

    for g in range(24):
        setup = varied_setup(g)
        games = []
        for lazy in (False, True):
            pol = make_policy("heuristic")
            pol.reset(g)
            s = new_game(setup, 700 + g)
            moves = []
            while s.outcome is None:
                a = choose(pol, s, LegalActions(s) if lazy else s.legal_actions())
                moves.append(a)
                s.apply(a)
            games.append(moves)
        assert games[0] == games[1]


@pytest.mark.parametrize("players", [2, 4])
def test_the_pull_towards_important_tiles_grows_with_the_players(players):
    """w_position is the weight at two players, w_position_pawn is added for each player beyond two."""
    setup = GameSetup(get_layout("forbidden_island"), 2, players)
    both = {"w_position": 0.25, "w_position_pawn": 0.125}
    alone = {"w_position": 0.25 + 0.125 * (players - 2), "w_position_pawn": 0.0}
    played = [play_game(setup, make_policy("heuristic", w), 31) for w in (both, alone)]
    assert [r.actions for r in played[0].turn_rows] == [r.actions for r in played[1].turn_rows]
    if players == 4:  # and the weight makes a difference at all
        other = play_game(setup, make_policy("heuristic", {"w_position": 0.25, "w_position_pawn": 0.0}), 31)
        assert [r.actions for r in other.turn_rows] != [r.actions for r in played[0].turn_rows]


def _heuristic_digest(games: int) -> str:
    import hashlib

    from invariants import varied_setup

    h = hashlib.sha256()
    pol = make_policy("heuristic")
    for g in range(games):
        record = play_game(varied_setup(g), pol, 800 + g)
        for row in record.turn_rows:
            h.update("|".join(row.actions).encode())
        h.update(record.outcome.encode())
    return h.hexdigest()[:16]


def test_golden_heuristic_games():
    """Pins every decision of 60 seeded games (islands, levels, player counts, variants): a speed-up must
    leave play unchanged, and a change of play must be deliberate (then this digest is updated with it)."""
    assert _heuristic_digest(60) == "c237be2407a4aaab"


_ALL_FOUR = ["earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice"]


def test_lifts_home_a_pawn_that_cannot_walk_there_even_with_the_last_lift():
    # the Navigator's tile (watchtower, r5 c3) has no standing neighbour: it cannot walk to Fools' Landing
    s = state(
        [("engineer", "fools_landing", {"helicopter_lift": 1}), ("navigator", "watchtower")],
        captured=_ALL_FOUR,
        sunk=["twilight_hollow", "observatory"],
    )
    assert _pick(s) == "play(p0, helicopter_lift, p1, fools_landing)"
    # a pawn that can walk home keeps the last lift for the lift-off
    t = state(
        [("engineer", "fools_landing", {"helicopter_lift": 1}), ("navigator", "observatory")],
        captured=_ALL_FOUR,
    )
    assert "helicopter_lift" not in _pick(t)
    assert _pick(s, heli_stranded=0) != "play(p0, helicopter_lift, p1, fools_landing)"


def test_with_four_treasures_a_lift_carries_home_only_a_pawn_that_cannot_walk_there():
    # two lifts in hand, two pawns away (no take-off this turn): p1 and p2 walk home, the lifts are kept
    s = state(
        [
            ("engineer", "fools_landing", {"helicopter_lift": 2}),
            ("navigator", "observatory"),
            ("messenger", "misty_marsh"),
        ],
        captured=_ALL_FOUR,
    )
    assert "helicopter_lift" not in _pick(s)
    # the messenger on watchtower (r5 c3), both neighbours sunk, cannot walk home: it is lifted
    t = state(
        [
            ("engineer", "fools_landing", {"helicopter_lift": 2}),
            ("navigator", "misty_marsh"),
            ("messenger", "watchtower"),
        ],
        captured=_ALL_FOUR,
        sunk=["twilight_hollow", "observatory"],
    )
    assert _pick(t) == "play(p0, helicopter_lift, p2, fools_landing)"


def _context(s, **params):
    from fi_cli.island.policies.heuristic_eval import Context

    pol = make_policy("heuristic", params)
    pol.geo.update(s)
    return Context(s, pol.w, pol.geo)


def test_the_collector_is_a_player_whose_turn_comes_after_the_other_holders():
    # p1 and p2 hold two Crystals each; p0 plays now, then p1, then p2: p1's cards can reach p2 before p2's
    # turn, while p2's cards reach p1 only after it has played
    players = [
        ("engineer", "watchtower"),
        ("pilot", "observatory", {"crystal_of_fire": 2}),
        ("diver", "phantom_rock", {"crystal_of_fire": 2}),
        ("explorer", "misty_marsh"),
    ]
    crystal = 2
    assert _context(state(players, current=0)).collector[crystal] == 2
    assert _context(state(players, current=0), w_order=0).collector[crystal] == 1  # the tie goes to the lower seat
    assert _context(state(players, current=2)).collector[crystal] == 1  # seen from p2's turn: p1 plays last


def test_both_tiles_of_a_treasure_flooded_matter_more_than_one():
    from fi_cli.island.tiles import TILE_INDEX

    players = [("engineer", "watchtower"), ("pilot", "observatory")]
    one = _context(state(players, flooded=["temple_of_the_moon"]))
    both = _context(state(players, flooded=["temple_of_the_moon", "temple_of_the_sun"]))
    moon = TILE_INDEX["temple_of_the_moon"]
    assert one.imp[moon] == one.w["w_treasure_twin"] < both.imp[moon] == both.w["w_treasure_pair"]


def test_late_in_the_game_a_lift_needs_a_larger_gain():
    # the last standing tile of the Crystal of Fire is flooded and out of the Engineer's reach this turn: a lift
    # there pays (at a lift cost of 4); with two treasures or fewer left the lift costs heli_late_cost more, kept
    # for the way home
    def pick(captured, **params):
        s = state(
            [("engineer", "lost_lagoon", {"helicopter_lift": 1}), ("navigator", "coral_palace")],
            captured=captured,
            flooded=["cave_of_shadows"],
            sunk=["cave_of_embers"],
        )
        return _pick(s, heli_shore_cost=4.0, **params)

    lift = "play(p0, helicopter_lift, p0, cave_of_shadows)"
    assert pick(["earth_stone"], heli_late_cost=20) == lift  # three treasures left: the extra cost does not apply
    assert pick(["earth_stone", "statue_of_the_wind"], heli_late_cost=0) == lift
    assert pick(["earth_stone", "statue_of_the_wind"], heli_late_cost=20) != lift


def test_with_one_treasure_left_two_lifts_are_kept_from_moves():
    # p1 holds the four Earth Stones on watchtower (r5 c3), five steps from temple_of_the_sun (r2 c1): a lift
    # there gains enough to be spent as a move, but with one treasure left only a third lift is spent so
    def pick(lifts):
        s = state(
            [
                ("engineer", "fools_landing", {"helicopter_lift": lifts}),
                ("messenger", "watchtower", {"earth_stone": 4}),
            ],
            captured=["statue_of_the_wind", "crystal_of_fire", "oceans_chalice"],
        )
        return _pick(s)

    assert "helicopter_lift" not in pick(2)
    assert pick(3).startswith("play(p0, helicopter_lift, p1, temple_of_the_")


def test_a_lift_that_comes_back_at_this_turns_draws_needs_a_smaller_gain():
    # the lift of the holder of the last four cards to its treasure gains between 19 and 24 here (heli_move_min 15
    # pays, 20 does not); with two cards left in the treasure draw pile, this turn's draws reshuffle the discard
    # pile, the lift with it, so the lift costs heli_reshuffle less
    def pick(deck, actions_left=3, **params):
        s = state(
            [
                ("engineer", "fools_landing", {"helicopter_lift": 3}),
                ("messenger", "watchtower", {"earth_stone": 4}),
            ],
            captured=["statue_of_the_wind", "crystal_of_fire", "oceans_chalice"],
            treasure_deck=deck,
            actions_left=actions_left,
        )
        return _pick(s, **{"heli_move_min": 20, **params})

    lift = "play(p0, helicopter_lift, p1, temple_of_the_sun)"
    assert pick(None) == "end_actions(p0)"  # a full draw pile: the lift would stay in the discard pile
    assert pick({"statue_of_the_wind": 2}) == lift
    assert pick({"statue_of_the_wind": 2}, heli_reshuffle=0) == "end_actions(p0)"
    assert pick({"statue_of_the_wind": 4}) == "end_actions(p0)"  # the reshuffle comes a turn later
    # after the turn's first action a spare move is weighed only before a reshuffle
    assert pick(None, 2, heli_move_min=5) == "end_actions(p0)"
    assert pick({"statue_of_the_wind": 2}, 2) == lift


def test_cutters_are_the_tiles_every_way_home_goes_through():
    from fi_cli.island.policies.heuristic_geom import ORTH
    from fi_cli.island.tiles import TILE_INDEX

    s = state([("engineer", "watchtower"), ("pilot", "observatory")], sunk=["twilight_hollow", "bronze_gate"])
    geo = _context(s).geo
    cut = geo.cutters(ORTH, TILE_INDEX["fools_landing"])
    names = {t: n for n, t in TILE_INDEX.items()}
    # Fools' Landing (r0 c2) keeps one neighbour, gold_gate: every way home goes through it
    assert {names[t] for t in cut[TILE_INDEX["watchtower"]]} == {"gold_gate", "observatory"}
    assert {names[t] for t in cut[TILE_INDEX["misty_marsh"]]} == {"gold_gate"}
    assert cut[TILE_INDEX["gold_gate"]] == () and cut[TILE_INDEX["fools_landing"]] == ()
    assert cut[TILE_INDEX["twilight_hollow"]] == ()  # sunk: no way to it at all


def test_a_flooded_tile_that_would_cut_a_pawn_off_matters_more_once_a_treasure_is_captured():
    from fi_cli.island.tiles import TILE_INDEX

    obs = TILE_INDEX["observatory"]

    def value(role, captured, **params):
        s = state(
            [(role, "watchtower"), ("navigator", "fools_landing")],
            captured=captured,
            flooded=["observatory"],
            sunk=["twilight_hollow"],
        )
        ctx = _context(s, **params)
        return ctx.sv[obs] / ctx.risk[obs] - ctx.imp[obs]

    assert value("engineer", ["earth_stone"]) == pytest.approx(1.0)  # w_cut_pawn
    assert value("engineer", ["earth_stone"], w_cut_pawn=2.5) == pytest.approx(2.5)
    assert value("engineer", []) == 0.0  # before the first capture the way home is not weighed
    assert value("pilot", ["earth_stone"]) == 0.0  # the Pilot flies home
    assert value("diver", ["earth_stone"]) == 0.0  # the Diver swims across


def test_late_in_the_game_a_lift_is_worth_more_kept():
    from fi_cli.island.policies.heuristic_special import keep_value
    from fi_cli.island.tiles import HELICOPTER_LIFT

    def keep(captured, **params):
        s = state([("engineer", "watchtower", {"helicopter_lift": 1}), ("pilot", "observatory")], captured=captured)
        return keep_value(_context(s, **params), 0, HELICOPTER_LIFT)

    early = keep(["earth_stone"])
    assert early == 8.0  # keep_heli: the team's only lift
    assert keep(["earth_stone", "statue_of_the_wind"]) == early + 4.0  # heli_late_cost
    assert keep(["earth_stone", "statue_of_the_wind"], heli_late_cost=0) == early


def test_stranded_pawns_gather_before_a_lift_carries_them_home():
    # twilight_hollow and watchtower (r5) are cut off from Fools' Landing once the row above them has sunk
    def pick(current, messenger_at="watchtower"):
        s = state(
            [
                ("explorer", "fools_landing", {"helicopter_lift": 2}),
                ("engineer", "twilight_hollow"),
                ("messenger", messenger_at),
            ],
            captured=_ALL_FOUR,
            sunk=["lost_lagoon", "misty_marsh", "observatory", "phantom_rock"],
            current=current,
        )
        return _pick(s)

    assert pick(1) == "move(p1, watchtower)"  # not a lift of one of them: they walk together first
    assert "helicopter_lift" not in pick(0)
    # alone on its piece of island, a stranded pawn is lifted home at once
    assert pick(0, messenger_at="fools_landing") == "play(p0, helicopter_lift, p1, fools_landing)"


def test_gifts_weigh_more_with_four_players_once_two_treasures_are_captured():
    from fi_cli.island.policies.heuristic_turn import gifts

    def values(players: int, captured: tuple[str, ...], **params) -> list[list[float]]:
        # p0 holds one Crystal, p1 (the collector) two, both on the Watchtower
        pawns = [("engineer", "watchtower", {"crystal_of_fire": 1}), ("pilot", "watchtower", {"crystal_of_fire": 2}),
                 ("diver", "phantom_rock"), ("explorer", "misty_marsh")][:players]  # fmt: skip
        return [vals for _, _, vals in gifts(_context(state(pawns, captured=captured), **params), 0)]

    two = ("earth_stone", "statue_of_the_wind")
    assert values(4, two) == [[8.0]]  # w_give x w_give_late (2) x (1 + 0.5 x the two cards the collector holds)
    assert values(4, two, w_give_late=3) == [[12.0]]
    assert values(4, two, w_give_late=1) == [[4.0]]
    assert values(4, two[:1]) == [[4.0]]  # one treasure captured: as before
    assert values(3, two) == [[4.0]]  # three players: as before


def test_gifts_weigh_more_with_four_players_for_a_treasure_that_may_sink_first():
    from fi_cli.island.policies.heuristic_turn import gifts

    def values(players: int, **tiles) -> list[list[float]]:
        # p0 holds one Crystal, p1 (the collector) two, both on the Watchtower; the Crystal's tiles as given
        pawns = [("engineer", "watchtower", {"crystal_of_fire": 1}), ("pilot", "watchtower", {"crystal_of_fire": 2}),
                 ("diver", "phantom_rock"), ("explorer", "misty_marsh")][:players]  # fmt: skip
        return [vals for _, _, vals in gifts(_context(state(pawns, **tiles)), 0)]

    assert values(4) == [[4.0]]  # w_give x (1 + 0.5 x the two cards the collector holds)
    assert values(4, flooded=["cave_of_embers"]) == [[4.0]]  # one tile flooded: not yet in danger
    assert values(4, sunk=["cave_of_embers"]) == [[6.0]]  # down to one tile: x w_give_danger (1.5)
    assert values(4, flooded=["cave_of_embers", "cave_of_shadows"]) == [[6.0]]  # both flooded
    assert values(3, sunk=["cave_of_embers"]) == [[4.0]]  # three players: as before


def test_with_four_players_a_gift_that_spares_the_giver_a_discard_after_the_draw_weighs_more():
    from fi_cli.island.policies.heuristic_special import keep_value
    from fi_cli.island.policies.heuristic_turn import gifts

    def values(players: int, hand: dict, **params) -> tuple[list[list[float]], float]:
        # p0 holds two Crystals and `hand`, p1 (the collector) two Crystals, both on the Watchtower
        pawns = [("engineer", "watchtower", {"crystal_of_fire": 2, **hand}),
                 ("pilot", "watchtower", {"crystal_of_fire": 2}),
                 ("diver", "phantom_rock"), ("explorer", "misty_marsh")][:players]  # fmt: skip
        ctx = _context(state(pawns), **params)
        cheapest = min(keep_value(ctx, 0, k) for k, n in enumerate(ctx.s.hands[0]) if n)
        return [vals for _, _, vals in gifts(ctx, 0)], cheapest

    # four cards in hand: the two drawn would make six, one to discard; the first card given spares it
    (got,), cheapest = values(4, {"earth_stone": 1, "statue_of_the_wind": 1})
    assert cheapest > 0
    assert got == [pytest.approx(4.0 + 0.3 * cheapest), 12.0]  # w_give x (1 + 0.5 x 2), then the set completed
    (got,), _ = values(4, {"earth_stone": 1, "statue_of_the_wind": 1}, w_give_spare=0.6)
    assert got == [pytest.approx(4.0 + 0.6 * cheapest), 12.0]
    assert values(4, {"earth_stone": 1})[0] == [[4.0, 12.0]]  # three cards: room for both drawn
    assert values(4, {"earth_stone": 1, "statue_of_the_wind": 1}, w_give_spare=0)[0] == [[4.0, 12.0]]
    assert values(3, {"earth_stone": 1, "statue_of_the_wind": 1})[0] == [[4.0, 12.0]]  # three players: as before
    # five cards: two to discard after the draw; both cards given spare one each
    (got,), cheapest = values(4, {"earth_stone": 1, "statue_of_the_wind": 1, "oceans_chalice": 1})
    assert got == [pytest.approx(4.0 + 0.3 * cheapest), pytest.approx(12.0 + 0.3 * cheapest)]


def test_a_gift_that_will_overflow_the_receivers_hand_at_its_next_draw_weighs_less():
    from fi_cli.island.policies.heuristic_turn import gifts, overflow_cost

    crystal = 2

    def values(players: int, receiver: dict, **params) -> tuple[list[float], float]:
        # p0 gives its Crystal to p1 (the collector: two Crystals and `receiver`), both on the Watchtower; p0's
        # other two cards leave it room for its own draws
        pawns = [("engineer", "watchtower", {"crystal_of_fire": 1, "earth_stone": 1, "statue_of_the_wind": 1}),
                 ("pilot", "watchtower", {"crystal_of_fire": 2, **receiver}),
                 ("diver", "phantom_rock"), ("explorer", "misty_marsh")][:players]  # fmt: skip
        ctx = _context(state(pawns), **params)
        (vals,) = [vals for _, tr, vals in gifts(ctx, 0) if tr == crystal]
        return vals, overflow_cost(ctx, 1, crystal)

    assert values(4, {}) == ([4.0], 0.0)  # two cards, a third given: room for its two draws (w_give x (1 + 0.5 x 2))
    got, cost = values(4, {"oceans_chalice": 1})  # three cards: the gift fits, its draws then do not
    assert cost > 0 and got == [pytest.approx(4.0 - 0.2 * cost)]
    got, cost = values(4, {"oceans_chalice": 1, "earth_stone": 1})  # four cards: likewise
    assert got == [pytest.approx(4.0 - 0.2 * cost)]
    assert values(4, {"oceans_chalice": 1}, w_give_later=0)[0] == [4.0]
    got, cost = values(3, {"oceans_chalice": 1}, w_give_later=0.5)  # every player count
    assert got == [pytest.approx(4.0 - 0.5 * cost)]
    # five cards: the gift overflows the hand at once, weighed by w_overflow instead
    got, cost = values(4, {"oceans_chalice": 1, "earth_stone": 1, "statue_of_the_wind": 1})
    assert got == [pytest.approx(4.0 - 0.4375 * cost)]


def test_heuristic_games_leave_no_cyclic_garbage():
    """Objects in a reference cycle outlive their use until the cyclic collector finds them, and its runs cost
    every player's games time (the cut-tile search was once a recursive closure, a cycle on every call): a few
    games of the island's and the Desert's heuristic leave nothing for it."""
    import gc

    from fi_cli.desert import game as desert_game
    from fi_cli.desert.play import play_game as play_desert
    from fi_cli.desert.policies import make_policy as make_desert_policy

    island = make_policy("heuristic")
    desert = make_desert_policy("heuristic")
    gc.collect()
    gc.disable()  # the collector must not run in between: what it finds at the end is what the games left
    try:
        for seed in range(3):
            play_game(GameSetup(get_layout("forbidden_island"), 2, 4), island, seed)
            play_desert(desert_game.GameSetup(players=4, start_level=1), desert, seed)
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0
