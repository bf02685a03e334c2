"""Report statistics checked against numbers worked out by hand on small fixed data."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fi_cli.island.tiles import TILES
from fi_cli.report import island, stats
from fi_cli.report.island import stats as island_stats
from fi_cli.report.load import load_runs
from fi_cli.report.synthetic import STANDARD_ROWS, FakeGame, FakeScenario, write_run

Z = 1.959963984540054  # two-sided 95% normal quantile


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    p = k / n
    denom = 1 + Z**2 / n
    centre = (p + Z**2 / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2)) / denom
    return centre - half, centre + half


def games_frame(rows: list[tuple[str, str, str | None, int]]) -> pd.DataFrame:
    """(scenario, outcome, loss_cause, turns) rows -> a games table as load_runs returns it."""
    df = pd.DataFrame(rows, columns=["scenario", "outcome", "loss_cause", "turns"])
    df["game"] = df.groupby("scenario").cumcount()
    df["treasures_captured"] = 0
    df["final_water_level"] = 2
    df["ending"] = df["loss_cause"].where(df["outcome"] == "loss", "win")
    return df


def scenario(name: str, wins: int, n: int, cause: str = "treasure_lost") -> list[tuple]:
    return [(name, "win", None, 30)] * wins + [(name, "loss", cause, 10)] * (n - wins)


def test_wilson_matches_formula_and_published_values():
    lo, hi = stats.wilson(3, 10)
    assert (float(lo), float(hi)) == pytest.approx(wilson_by_hand(3, 10), abs=1e-12)
    assert (float(lo), float(hi)) == pytest.approx((0.1078, 0.6032), abs=1e-4)  # textbook value
    lo, hi = stats.wilson(0, 10)
    assert float(lo) == pytest.approx(0.0, abs=1e-12) and float(hi) == pytest.approx(0.2775, abs=1e-4)
    # bounds never cross the estimate, even by a rounding error (matplotlib rejects negative error bars)
    for k, n in ((0, 500), (500, 500), (0, 3), (7, 7)):
        lo, hi = stats.wilson(k, n)
        assert float(lo) <= k / n <= float(hi)


def test_two_proportion_z_test_by_hand():
    # 45/100 against 30/100: pooled p = 0.375, every expected count >= 5, so the z-test is used.
    test, p = stats.compare_two(45, 100, 30, 100)
    se = math.sqrt(0.375 * 0.625 * (1 / 100 + 1 / 100))
    z = (0.45 - 0.30) / se
    assert test == "z"
    assert p == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-9)
    assert p == pytest.approx(0.02846, abs=1e-5)


def test_fisher_exact_by_hand_when_counts_are_small():
    # 1/10 against 6/10: expected wins 3.5 < 5, so Fisher's exact test. Hypergeometric with 7 wins among
    # 20 games, 10 per scenario: P(k) = C(7,k) C(13,10-k) / C(20,10); two-sided = sum of P(k) <= P(1).
    test, p = stats.compare_two(1, 10, 6, 10)
    probs = [math.comb(7, k) * math.comb(13, 10 - k) / math.comb(20, 10) for k in range(8)]
    assert test == "fisher"
    assert p == pytest.approx(sum(q for q in probs if q <= probs[1] * (1 + 1e-9)), rel=1e-9)
    assert p == pytest.approx(10582 / 184756, rel=1e-9)


def test_win_rates_difference_interval_and_holm_by_hand():
    g = games_frame(scenario("base", 30, 100) + scenario("b", 45, 100) + scenario("c", 1, 10))
    out = stats.win_rates(g, ["base", "b", "c"], baseline="base").set_index("scenario")
    assert out.loc["base", "test"] == "baseline" and math.isnan(out.loc["base", "p_value"])
    for s, k, n in (("base", 30, 100), ("b", 45, 100), ("c", 1, 10)):
        assert out.loc[s, "win_rate"] == pytest.approx(k / n)
        assert (out.loc[s, "ci_low"], out.loc[s, "ci_high"]) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
    # Newcombe's hybrid score interval for 0.45 - 0.30 from the two Wilson intervals.
    l1, u1 = wilson_by_hand(45, 100)
    l0, u0 = wilson_by_hand(30, 100)
    d = 0.15
    assert out.loc["b", "diff"] == pytest.approx(d)
    assert out.loc["b", "diff_low"] == pytest.approx(d - math.sqrt((0.45 - l1) ** 2 + (u0 - 0.30) ** 2), abs=1e-9)
    assert out.loc["b", "diff_high"] == pytest.approx(d + math.sqrt((u1 - 0.45) ** 2 + (0.30 - l0) ** 2), abs=1e-9)
    # c: 1/10 against 30/100, expected wins 10 * 31/110 < 5 -> Fisher, computed from the hypergeometric law.
    assert out.loc["c", "test"] == "fisher"
    probs = [math.comb(31, k) * math.comb(79, 10 - k) / math.comb(110, 10) for k in range(11)]
    p_c = sum(q for q in probs if q <= probs[1] * (1 + 1e-9))
    assert out.loc["c", "p_value"] == pytest.approx(p_c, rel=1e-9)
    # Holm over two comparisons: the smaller p is doubled, the larger kept, both made monotone.
    p_b = out.loc["b", "p_value"]
    small, large = sorted([p_b, p_c])
    holm_small = min(1.0, 2 * small)
    holm_large = min(1.0, max(holm_small, large))
    expected = {p_b: None, p_c: None}
    expected[small], expected[large] = holm_small, holm_large
    assert out.loc["b", "p_holm"] == pytest.approx(expected[p_b])
    assert out.loc["c", "p_holm"] == pytest.approx(expected[p_c])
    assert bool(out.loc["b", "significant"]) == (expected[p_b] < 0.05)


def test_win_rates_with_no_wins_anywhere():
    g = games_frame(scenario("a", 0, 20) + scenario("b", 0, 20))
    out = stats.win_rates(g, ["a", "b"], baseline="a").set_index("scenario")
    assert out.loc["b", "win_rate"] == 0 and out.loc["b", "diff"] == 0
    assert out.loc["b", "test"] == "fisher" and out.loc["b", "p_value"] == pytest.approx(1.0)
    assert not out.loc["b", "significant"]


def test_win_rates_against_a_baseline_per_scenario():
    g = games_frame(scenario("a1", 30, 100) + scenario("b1", 45, 100) + scenario("a2", 10, 100)
                    + scenario("b2", 20, 100) + scenario("c", 5, 10))
    out = stats.win_rates(g, ["a1", "b1", "a2", "b2", "c"], {"a1": "a1", "b1": "a1", "a2": "a2", "b2": "a2",
                                                              "c": None}).set_index("scenario")
    assert out["test"].tolist() == ["baseline", "z", "baseline", "z", "none"]
    assert out["baseline"].tolist() == ["a1", "a1", "a2", "a2", ""]
    assert out.loc["b2", "diff"] == pytest.approx(0.10) and math.isnan(out.loc["c", "diff"])
    alone = stats.win_rates(g[g["scenario"].isin(["a2", "b2"])], ["a2", "b2"], "a2").set_index("scenario")
    assert out.loc["b2", "p_value"] == pytest.approx(alone.loc["b2", "p_value"])  # the same test, pair by pair
    assert out.loc["b2", "p_holm"] > out.loc["b2", "p_value"]  # corrected over both comparisons


def test_unknown_baseline_names_the_scenarios():
    g = games_frame(scenario("a", 1, 5))
    with pytest.raises(stats.ReportError, match="scenarios are: a"):
        stats.win_rates(g, ["a"], baseline="nope")


def test_outcome_table_counts_and_shares():
    g = games_frame(scenario("a", 1, 4, "water_level") + [("a", "loss", "fools_landing_sunk", 5)])
    out = stats.outcome_table(g, ["a"], island.ENDINGS, [m[:2] for m in island.MEANS]).iloc[0]
    assert out["games"] == 5 and out["win"] == 1 and out["water_level"] == 3 and out["fools_landing_sunk"] == 1
    assert out["share_water_level"] == pytest.approx(0.6)
    assert "player_drowned" not in out.index  # only causes that occur
    assert out["median_turns"] == 10 and out["mean_final_water"] == 2


def test_cumulative_incidence_by_hand():
    # Four games ending at turn 3 (win), 5 (treasure lost), 5 (water), 8 (treasure lost).
    g = games_frame([("a", "win", None, 3), ("a", "loss", "treasure_lost", 5), ("a", "loss", "water_level", 5),
                     ("a", "loss", "treasure_lost", 8)])
    ci = stats.cumulative_incidence(g, ["a"], island.ENDINGS)
    at = ci.pivot(index="turn", columns="ending", values="share")
    assert list(at.index) == list(range(0, 9))
    assert at.loc[0, "still going"] == 1.0
    assert at.loc[4].to_dict() == pytest.approx(
        {"still going": 0.75, "win": 0.25, "treasure_lost": 0.0, "water_level": 0.0})
    assert at.loc[5].to_dict() == pytest.approx(
        {"still going": 0.25, "win": 0.25, "treasure_lost": 0.25, "water_level": 0.25})
    assert at.loc[8, "treasure_lost"] == 0.5 and at.loc[8, "still going"] == 0.0
    assert np.allclose(at.sum(axis=1), 1.0)  # competing causes add up
    row = ci[(ci["turn"] == 5) & (ci["ending"] == "still going")].iloc[0]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_by_hand(1, 4), abs=1e-12)


@pytest.fixture(scope="module")
def hand_run(tmp_path_factory) -> Path:
    """Three games of one scenario whose every number is known."""
    games = [
        # start 2; rises at turns 2 and 4; earth stone at 3, ocean's chalice at 5; won at turn 6
        FakeGame("win", None, 6, 2, (2, 4), {"earth_stone": 3, "oceans_chalice": 5}, {"watchtower": 4}),
        # start 2; rise at turn 1 and two at 3; lost at 3 when Fools' Landing sank
        FakeGame("loss", "fools_landing_sunk", 3, 2, (1, 3, 3), {"earth_stone": 2}, {"fools_landing": 3}),
        # start 2; never rises; both ocean tiles sink: treasure lost at 4
        FakeGame("loss", "treasure_lost", 4, 2, (), {}, {"coral_palace": 2, "tidal_palace": 4, "fools_landing": 1}),
    ]
    path = tmp_path_factory.mktemp("hand") / "hand"
    return write_run(path, [FakeScenario("s", games)])


def test_water_curves_and_level_reached_by_hand(hand_run):
    data = load_runs([hand_run])
    w = island_stats.water_curves(data.counts["water"], data.games).set_index(["outcome", "turn"])
    assert w.loc[("loss", 0), "median"] == 2  # turn 0 is the start level
    # losses at turn 1: levels 3 and 2 -> median 2.5, q10 = 2.1, q90 = 2.9 (linear interpolation)
    assert w.loc[("loss", 1), ["games", "median", "q10", "q90"]].tolist() == pytest.approx([2, 2.5, 2.1, 2.9])
    # turn 3: levels 5 (2 + 1 + 2) and 2 -> median 3.5; the game lost at turn 3 keeps its level 5 after it, so
    # both lost games stay in the curve to the horizon (the 98% quantile of the game lengths 6, 3, 4 -> turn 6)
    assert w.loc[("loss", 3), "median"] == 3.5
    assert w.loc[("loss", 4), ["games", "median"]].tolist() == [2, 3.5]
    assert w.loc[("loss", 6), ["games", "median"]].tolist() == [2, 3.5] and ("loss", 7) not in w.index
    assert w.loc[("win", 6), "median"] == 4
    levels = island_stats.level_reached(pd.read_parquet(hand_run / "turns"))
    reached = levels.set_index(["game", "level"])["turn"]
    assert reached.to_dict() == {(0, 3): 2, (0, 4): 4, (1, 3): 1, (1, 4): 3, (1, 5): 3}
    summary = island_stats.level_reached_summary(data.counts["reached"], data.games, ["s"]).set_index("level")
    assert summary.loc[3, "share_reached"] == pytest.approx(2 / 3) and summary.loc[3, "median"] == 1.5
    assert summary.loc[5, "games_reached"] == 1


# synthetic runs put the tiles in TILES order on the cells of the layout, in reading order
CELL_OF = dict(zip(TILES, [(r, c) for r, row in enumerate(STANDARD_ROWS) for c, ch in enumerate(row) if ch != "."],
                   strict=True))


def test_kaplan_meier_median_by_hand():
    # events at 3, 5, 8; censored at 5 and 10: S(3) = 4/5, S(5) = 4/5 * 3/4 = 0.6, S(8) = 0.6 * 1/2 = 0.3
    assert stats.km_median(np.array([3, 5, 5, 8, 10]), np.array([1, 1, 0, 1, 0])) == 8
    assert stats.km_median(np.array([2, 2, 9]), np.array([1, 1, 0])) == 2  # S(2) = 1/3
    assert math.isnan(stats.km_median(np.array([3, 5]), np.array([0, 0])))


def test_tile_risk_by_hand(hand_run):
    data = load_runs([hand_run])
    cells = island_stats.tile_risk_cells(data.counts["exposure"], data.counts["cell_tiles"]).set_index(["row", "col"])
    fl = cells.loc[CELL_OF["fools_landing"]]
    assert fl["pinned"] == "fools_landing"
    assert fl["share_sunk"] == pytest.approx(2 / 3) and fl["median_sunk_turn"] == 2
    # on the island 6 turns (never sank in the 6-turn win), 3 and 1 turns (sank then): 2 sinkings in 10 turns
    assert fl["turns_on_island"] == 10 and fl["hazard"] == pytest.approx(0.2)
    assert fl["km_median_turn"] == 3  # S(1) = 2/3, S(3) = 1/3
    watchtower = cells.loc[CELL_OF["watchtower"]]  # sank once, at turn 4, in games of 6, 3 and 4 turns
    # at turn 4 two tiles are on the island (the 3-turn game is over) and one sinks: S(4) = 1/2
    assert watchtower["hazard"] == pytest.approx(1 / 11) and watchtower["km_median_turn"] == 4
    assert math.isnan(cells.loc[CELL_OF["observatory"], "km_median_turn"])  # never sank
    tiles = island_stats.tile_risk_tiles(data.counts["tile_sinks"], ["s"]).set_index("tile")
    assert tiles.loc["watchtower", "sank"] == 1 and tiles.loc["observatory", "sank"] == 0
    assert (tiles.loc["coral_palace", "ci_low"], tiles.loc["coral_palace", "ci_high"]) == pytest.approx(
        wilson_by_hand(1, 3), abs=1e-12)


@pytest.mark.parametrize("treasures_column", [True, False])
def test_treasure_timing_by_hand(tmp_path, treasures_column):
    games = [
        FakeGame("win", None, 6, 2, (), {"earth_stone": 3, "oceans_chalice": 5}),
        FakeGame("loss", "water_level", 4, 2, (), {"earth_stone": 2}),
        FakeGame("loss", "treasure_lost", 4, 2, (), {}),
    ]
    run = write_run(tmp_path / "r", [FakeScenario("s", games)], treasures_column=treasures_column)
    data = load_runs([run])
    # else timed from the actions text
    assert ("treasures" in pd.read_parquet(run / "turns").columns) == treasures_column
    s = island_stats.treasure_summary(data.counts["captures"], data.games, ["s"]).set_index("treasure")
    assert s.loc["earth_stone", "captured"] == 2 and s.loc["earth_stone", "median_turn"] == 2.5
    assert s.loc["earth_stone", "share_captured_in_losses"] == 0.5
    assert s.loc["earth_stone", "share_captured_in_wins"] == 1.0
    assert s.loc["oceans_chalice", "share_captured"] == pytest.approx(1 / 3)
    assert s.loc["crystal_of_fire", "captured"] == 0 and math.isnan(s.loc["crystal_of_fire", "median_turn"])
    stage = stats.loss_stage(data.games, ["s"], "treasures_captured", 4).set_index("stage")
    assert stage["games"].tolist() == [1, 1, 1, 0, 0, 0] and list(stage.index) == list(stats.stages(4))
    assert stage.loc["lost with 0", "share_of_games"] == pytest.approx(1 / 3)
    assert stage["share_of_losses"].tolist()[1:] == [0.5, 0.5, 0.0, 0.0, 0.0]


def test_island_left_by_hand(hand_run):
    data = load_runs([hand_run])
    bands = island_stats.island_left(data.counts["left"], data.games).set_index(["state", "turn"])
    # turn 1: one tile flooded in every game (synthetic), Fools' Landing sunk in the third -> dry 23, 23, 22
    assert bands.loc[("dry", 1), ["games", "median", "q10", "q90"]].tolist() == pytest.approx([3, 23, 22.2, 23])
    assert bands.loc[("flooded", 1), "median"] == 1
    assert bands.loc[("sunk", 3), "median"] == 1  # 0, 1 (Fools' Landing) and 2 tiles sunk
    # turn 4: the game lost at turn 3 keeps its 1 sunk tile; the others have 1 (watchtower) and 3 (Fools' Landing
    # and both ocean tiles) -> all three games still count
    assert bands.loc[("sunk", 4), ["games", "median", "q90"]].tolist() == pytest.approx([3, 1, 2.6])
    assert bands.loc[("sunk", 6), "games"] == 3 and ("sunk", 7) not in bands.index


def test_treasures_by_turn_by_hand(hand_run):
    data = load_runs([hand_run])
    t = island_stats.treasures_by_turn(data.counts["treasures"], data.games).set_index("turn")
    # captures: game 0 at turns 3 and 5 (won at 6), game 1 at turn 2 (lost at 3), game 2 none (lost at 4)
    assert t["mean"].tolist() == pytest.approx([0, 0, 1 / 3, 2 / 3, 2 / 3, 1, 1]) and t["games"].eq(3).all()


def loss_cells(data) -> pd.DataFrame:
    c = data.counts
    return island_stats.loss_cells(c["involved"], c["drowned"], c["cell_tiles"], data.games)


def test_what_losses_took_by_hand(hand_run):
    data = load_runs([hand_run])
    g = data.games.set_index("game")
    assert g["lost_treasure"].isna().tolist() == [True, True, False] and g.loc[2, "lost_treasure"] == "oceans_chalice"
    cells = loss_cells(data).set_index(["row", "col"])
    share = {t: cells.loc[CELL_OF[t], "share_of_losses"] for t in
             ("fools_landing", "coral_palace", "tidal_palace", "watchtower")}
    # game 1: Fools' Landing sank; game 2: the Ocean's Chalice was lost (Fools' Landing also sank, but earlier
    # in the game: it was not what lost it)
    assert share == {"fools_landing": 0.5, "coral_palace": 0.5, "tidal_palace": 0.5, "watchtower": 0.0}
    assert cells["lost_games"].eq(2).all() and cells["drowned"].sum() == 0
    lost = island_stats.lost_treasures(data.games, ["s"]).set_index("treasure")
    assert lost["lost"].tolist() == [0, 0, 0, 1]
    ocean = lost.loc["oceans_chalice"]
    assert (ocean["share_of_games"], ocean["share_of_treasure_losses"]) == pytest.approx((1 / 3, 1))
    at = island_stats.water_at_loss(data.games, ["s"]).set_index("ending")
    # Fools' Landing at level 5 (2 + three rises), the treasure at level 2 (no rise): half the losses each
    assert at.loc["fools_landing_sunk", "final_water_level"] == 5 and at.loc["treasure_lost", "final_water_level"] == 2
    assert at["share_of_losses"].tolist() == [0.5, 0.5]


def test_a_pawn_drowned_on_a_cell_is_counted_there(tmp_path):
    games = [FakeGame("loss", "player_drowned", 5, 2, (), {}, {"watchtower": 5}, drowned_tile="watchtower"),
             FakeGame("loss", "water_level", 5, 2, (1, 2, 3, 4, 5, 5, 5, 5), {})]
    data = load_runs([write_run(tmp_path / "r", [FakeScenario("s", games)])])
    cells = loss_cells(data).set_index(["row", "col"])
    assert cells.loc[CELL_OF["watchtower"], ["involved", "drowned", "share_of_losses"]].tolist() == [1, 1, 0.5]
    assert cells["involved"].sum() == 1  # the loss to the water involves no tile


def test_a_curve_of_a_value_that_never_falls_never_falls():
    """Survivorship: two fast-rising games end at turn 2 and a slow one goes on. Over the games still being
    played the median would drop from 8 to 2 at turn 3; carried forward at their final value it stays."""
    games = pd.DataFrame({"scenario": "s", "game": [0, 1, 2], "outcome": "loss", "turns": [2, 2, 5]})
    turns = pd.DataFrame({"scenario": "s", "game": [0, 0, 1, 1, 2, 2, 2, 2, 2], "turn": [1, 2, 1, 2, 1, 2, 3, 4, 5],
                          "level": [5, 8, 5, 8, 1, 1, 2, 2, 3]})
    carried = stats.carry_forward(stats.turn_counts(turns, "level"), games, "level")
    assert carried.groupby("turn")["n"].sum().eq(3).all() and carried["turn"].max() == 5  # 3 games on turns 1-5
    assert carried[carried["turn"] == 5].set_index("level")["n"].to_dict() == {8: 2, 3: 1}  # games 0 and 1 at 8
    bands = stats.outcome_bands(stats.outcome_counts(turns, games, "level"), games, "level").set_index("turn")
    assert bands["median"].tolist() == [5, 8, 8, 8, 8] and bands["median"].is_monotonic_increasing
