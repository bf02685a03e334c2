"""The explorer section of a report: island table and ranks, the model against a game-level fit, readable
figures, and the page."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from text_layout import text_problems

from fi_cli.island.layout_features import layout_features
from fi_cli.island.layout_generator import generate_layouts
from fi_cli.report.build import DETAIL_SHOWN, build_report, detail_scenarios, look_of
from fi_cli.report.island import explorer, make_explorer_figures
from fi_cli.report.load import load_runs
from fi_cli.report.stats import win_rates
from fi_cli.report.synthetic import FakeGame, FakeScenario, random_scenario, write_run

LAYOUTS = generate_layouts(14, 3, pins=["fools_landing", "temple_of_the_moon", "temple_of_the_sun"])


def _counted(lay, wins: int, games: int, difficulty: str = "normal") -> FakeScenario:
    won = [FakeGame("win", None, 20, captures={"earth_stone": 5}) for _ in range(wins)]
    lost = [FakeGame("loss", "water_level", 12, rises=(3, 6, 9, 12)) for _ in range(games - wins)]
    return FakeScenario(f"layout={lay.id},difficulty={difficulty}", won + lost, layout=lay.id, rows=lay.rows(),
                        name=lay.name, difficulty=difficulty, pins=lay.pins,
                        values={"layout": lay.id, "difficulty": difficulty})


@pytest.fixture(scope="module")
def coast_run(tmp_path_factory):
    """14 islands at two difficulties, 100 games each; wins fall with the coast (known counts)."""
    scenarios = []
    for difficulty, shift in (("normal", 0), ("elite", -12)):
        for lay in LAYOUTS:
            coast = layout_features(lay)["coast"]
            scenarios.append(_counted(lay, 40 + shift - 2 * (coast - 15) + (lay.id < "m") * 3, 100, difficulty))
    return write_run(tmp_path_factory.mktemp("explore") / "explore", scenarios)


@pytest.fixture(scope="module")
def explored(coast_run):
    data = load_runs([coast_run])
    assert explorer.applies(data)
    return data, explorer.explore(data, win_rates(data.games, data.scenarios, data.scenarios[0]))


def test_island_table_ranks_within_each_slice(explored):
    _, ex = explored
    isl = ex.islands
    assert ex.slices == ["Normal", "Elite"] and len(isl) == 28
    for s in ex.slices:
        d = isl[isl["slice_label"] == s]
        assert list(d["rank"]) == list(range(1, 15))
        assert d["win_rate"].is_monotonic_increasing
        assert (d["ci_low"] <= d["win_rate"]).all() and (d["win_rate"] <= d["ci_high"]).all()
    top = isl[(isl["slice_label"] == "Normal") & (isl["rank"] == 1)].iloc[0]
    assert top["wins"] == min(40 - 2 * (layout_features(lay)["coast"] - 15) + (lay.id < "m") * 3 for lay in LAYOUTS)
    assert {"coast", "articulation", "landing_to_centre", "earth_stone_apart"} <= set(isl.columns)


def test_model_matches_a_game_level_logistic_regression_and_finds_the_coast(explored):
    _, ex = explored
    isl = ex.islands
    assert "parts" not in ex.features and any("parts is left out" in n for n in ex.notes)
    # The same model on one row per game: the same coefficients (the counts are a sufficient statistic).
    games = isl.loc[isl.index.repeat(isl["games"])].copy()
    games["win"] = np.concatenate([[1] * w + [0] * (n - w) for w, n in zip(isl["wins"], isl["games"], strict=True)])
    x = pd.DataFrame({"const": 1.0, "elite": (games["slice_label"] == "Elite").astype(float)})
    for f in ex.features:
        x[f] = (games[f] - isl[f].mean()) / isl[f].std(ddof=0)
    per_game = sm.Logit(games["win"].to_numpy(), x.to_numpy()).fit(disp=0)
    assert ex.model["coef"].to_numpy() == pytest.approx(per_game.params[2:], abs=1e-5)
    coast = ex.model.set_index("feature").loc["coast"]
    assert coast["coef"] < 0 and coast["ci_high"] < 0 and coast["ci_high_alone"] < 0  # more coast, fewer wins
    alone = sm.Logit(games["win"].to_numpy(), x[["const", "elite", "coast"]].to_numpy()).fit(disp=0)
    assert coast["coef_alone"] == pytest.approx(alone.params[2], abs=1e-5)
    assert 0 < ex.fit["deviance_explained"] <= 1 and ex.fit["islands"] == 14
    assert any(s.startswith("coast (") and "fewer wins" in s for s in explorer.model_sentences(ex))


def test_explorer_figures_are_readable(explored):
    data, ex = explored
    problems = {name: text_problems(fig) for name, fig in make_explorer_figures(ex, data).items()}
    assert {name: p for name, p in problems.items() if p} == {}


@pytest.fixture(scope="module")
def one_slice(tmp_path_factory):
    """Ten islands, one difficulty, a few random games each."""
    lays = generate_layouts(10, 4, pins=["fools_landing"], compactness=3)
    return write_run(tmp_path_factory.mktemp("one") / "one", [
        random_scenario(f"layout={lay.id}", 12, win_rate=0.1 + 0.05 * i, layout=lay.id, rows=lay.rows(), seed=i,
                        name=lay.name, pins=lay.pins, values={"layout": lay.id}) for i, lay in enumerate(lays)])


def test_explorer_figures_of_one_slice_are_readable(one_slice):
    data = load_runs([one_slice])
    ex = explorer.explore(data, win_rates(data.games, data.scenarios, data.scenarios[0]))
    assert ex.slices == ["Normal"] and not ex.model.empty
    problems = {name: text_problems(fig) for name, fig in make_explorer_figures(ex, data).items()}
    assert {name: p for name, p in problems.items() if p} == {}


def test_the_page_has_the_explorer_section_and_draws_the_extremes_of_many_scenarios(tmp_path):
    lays = generate_layouts(26, 5, pins=["fools_landing"], compactness=(0.5, 8.0))
    run = write_run(tmp_path / "many", [
        random_scenario(f"layout={lay.id}", 8, win_rate=0.02 + 0.02 * i, layout=lay.id, rows=lay.rows(), seed=i,
                        name=lay.name, pins=lay.pins, values={"layout": lay.id}) for i, lay in enumerate(lays)])
    report = build_report([run], tmp_path / "report", formats=("png",))
    page = (tmp_path / "report" / "index.html").read_text()
    assert "Explorer: what makes an island hard" in page and "cluster-robust by island" in page
    assert "<h3 id='ranking'>Ranking</h3>" in page and all(lay.name in page for lay in lays)
    for name in ("explorer_features", "explorer_model", "explorer_extremes", "explorer_ranking"):
        assert f"id='{name}'" in page and (tmp_path / "report" / f"{name}.png").exists()
    sec = report.sections[0]
    assert pd.read_csv(tmp_path / "report" / "explorer_model.csv")["feature"].tolist() == explorer.explore(
        sec.data, sec.tables["win_rates"]).features
    assert "## Explorer: what makes an island hard" in (tmp_path / "report" / "summary.md").read_text()
    assert len(pd.read_csv(tmp_path / "report" / "outcomes.csv")) == 26  # every scenario in the tables
    assert len(sec.data.scenarios) == 26 and DETAIL_SHOWN == 4
    look = look_of(sec.data, detail_scenarios(sec.tables["win_rates"]))
    assert len({look.colour(s) for s in look.scenarios}) == 2 * DETAIL_SHOWN  # no colour twice in a figure


def test_a_report_of_few_layouts_has_no_explorer_section(tmp_path):
    run = write_run(tmp_path / "few", [random_scenario("a", 10, seed=1), random_scenario("b", 10, seed=2)])
    assert not explorer.applies(load_runs([run]))


def test_many_scenarios_are_drawn_by_their_extremes():
    rates = pd.DataFrame({"scenario": [f"s{i}" for i in range(30)], "win_rate": np.r_[np.linspace(0.5, 0.2, 30)]})
    shown = detail_scenarios(rates)
    assert len(shown) == 2 * DETAIL_SHOWN and shown == [f"s{i}" for i in (*range(4), *range(26, 30))]
    assert detail_scenarios(rates.head(24)) == [f"s{i}" for i in range(24)]
