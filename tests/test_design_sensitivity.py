"""`fi design sensitivity`: each lever one step down and up from a base scenario, on the same deals, ranked by
its effect on the win rate (paired Newcombe interval, exact McNemar test, Holm) and on the game length."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import confint_proportions_2indep
from test_report_desert import quick_figures
from test_sim_config import BASE, study_file

from fi_cli.cli import main
from fi_cli.report.build import build_report
from fi_cli.report.sensitivity import analyse, mcnemar_exact, newcombe_paired, top_levers
from fi_cli.sim.api import load_study
from fi_cli.sim.errors import StudyError
from fi_cli.sim.sensitivity import STREAM, sensitivity_study


# ------------------------------------------------------------------------------------------- the statistics
def test_newcombe_paired_without_correlation_is_newcombes_unpaired_interval():
    """With no correlation between the pairs (ad = bc) the paired interval is the hybrid score interval of two
    independent proportions (Newcombe's method 10 of his unpaired paper), as statsmodels computes it."""
    lo, hi = newcombe_paired(12, 18, 8, 12)  # 12 x 12 = 18 x 8: phi = 0; rates 30/50 and 20/50
    ref = confint_proportions_2indep(30, 50, 20, 50, method="newcomb", compare="diff")
    assert (lo, hi) == pytest.approx(tuple(map(float, ref)), abs=1e-9)


def test_newcombe_paired_is_narrower_when_the_pairs_agree():
    agree = newcombe_paired(20, 10, 0, 20)  # the same rates as above (0.6, 0.4), strongly correlated pairs
    apart = newcombe_paired(12, 18, 8, 12)
    assert agree[0] < 0.2 < agree[1] and agree[1] - agree[0] < 0.6 * (apart[1] - apart[0])
    lo, hi = newcombe_paired(15, 0, 0, 5)  # every pair agrees: no difference, and little room for one
    assert lo < 0 < hi and hi - lo < 0.2


@pytest.mark.parametrize("b, c", [(0, 0), (3, 0), (7, 2), (20, 31)])
def test_exact_mcnemar(b, c):
    expected = 1.0 if b + c == 0 else mcnemar([[5, b], [c, 5]], exact=True).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected)


def _games(arms: dict[str, list[tuple[bool, int]]]) -> pd.DataFrame:
    rows = [{"scenario_id": sid, "game": g, "outcome": "win" if won else "loss", "turns": turns}
            for sid, games in arms.items() for g, (won, turns) in enumerate(games)]
    return pd.DataFrame(rows)


def test_analyse_pairs_each_arm_with_the_base_game_by_game():
    base = [(True, 10)] * 20 + [(False, 8)] * 20
    up = [(True, 11)] * 20 + [(True, 9)] * 10 + [(False, 9)] * 10  # 10 games won by the arm only
    down = [(False, 7)] * 5 + [(True, 10)] * 15 + [(False, 8)] * 20  # 5 won by the base only
    same = list(base)
    design = {"base": "base", "levers": [
        {"lever": "a", "base": 3, "down": {"value": 2, "scenario": "a=2"}, "up": {"value": 4, "scenario": "a=4"}},
        {"lever": "b", "base": 1, "down": None, "up": {"value": 2, "scenario": "b=2"}}]}
    t = analyse(_games({"base": base, "a=2": down, "a=4": up, "b=2": same}), design).set_index("scenario")
    assert (t.loc["a=4", "only_arm"], t.loc["a=4", "only_base"], t.loc["a=4", "diff"]) == (10, 0, 0.25)
    assert (t.loc["a=2", "only_arm"], t.loc["a=2", "only_base"], t.loc["a=2", "diff"]) == (0, 5, -0.125)
    assert t.loc["b=2", "diff"] == 0 and t.loc["b=2", "p_value"] == 1 and t.loc["b=2", "turns_diff"] == 0
    assert t.loc["a=4", "turns_diff"] == pytest.approx(1.0)
    assert t.loc["a=4", "p_value"] == pytest.approx(2 * 0.5 ** 10)
    holm = sorted(t["p_holm"])
    assert holm[0] == pytest.approx(3 * 2 * 0.5 ** 10)  # Holm over the three arms
    assert list(t.sort_values("rank")["lever"].drop_duplicates()) == ["a", "b"] and set(t["rank"]) == {1, 2}
    assert top_levers(analyse(_games({"base": base, "a=2": down, "a=4": up, "b=2": same}), design))[0] == \
        "a (down -12.5 / up +25.0 points)"


# ------------------------------------------------------------------------------------------- the study
def test_the_arms_move_one_lever_each_on_the_same_deals(tmp_path):
    base = load_study(study_file(tmp_path, BASE + "game:\n  components: {waters_rise: 1}\n"))
    study = sensitivity_study(base, levers=["waters_rise", "hand_limit", "water_meter"], games=4)
    ids = [s.id for s in study.scenarios]
    assert ids == ["base", "components.waters_rise=2", "components.hand_limit=4", "components.hand_limit=6",
                   "components.water_meter=2+2+3+3+3+4+4+5", "components.water_meter=2+2+3+3+3+4+4+5+5+5"]
    assert {s.stream for s in study.scenarios} == {STREAM} and study.games == 4
    assert all(s.setup.components.waters_rise == (2 if s.id.startswith("components.waters") else 1)
               for s in study.scenarios)
    assert study.scenarios[2].setup.components.hand_limit == 4 and study.scenarios[0].values == {}
    levers = study.design["levers"]
    assert levers[0]["down"] is None and levers[0]["up"]["value"] == 2  # no deck without a Waters Rise!
    assert study.hash != load_study(base.path).hash
    with pytest.raises(StudyError, match="unknown lever 'hand'"):
        sensitivity_study(base, levers=["hand"])
    several = load_study(study_file(tmp_path, BASE + "matrix:\n  difficulty: [novice, elite]\n"))
    with pytest.raises(StudyError, match="several scenarios"):
        sensitivity_study(several)
    assert sensitivity_study(several, "difficulty=elite", ["sandbags"]).scenarios[0].setup.start_level == 3


def test_fi_design_sensitivity_end_to_end(tmp_path, monkeypatch):
    path = study_file(tmp_path, "name: s\ngames: 12\nseed: 5\ngame:\n  players: 2\npolicy: heuristic\n")
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["design", "sensitivity", str(path), "--lever", "capture_cards", "--lever",
                                  "sandbags", "--out", str(out), "-q", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert "capture_cards" in r.output and "Most important: capture_cards" in r.output
    games = pd.read_parquet(out / "games")
    seeds = games.pivot(index="game", columns="scenario", values="seed")
    assert (seeds.nunique(axis=1) == 1).all()  # every arm played game g with the same seed
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["study"]["design"]["kind"] == "sensitivity" and len(manifest["scenarios"]) == 5
    assert CliRunner().invoke(main, ["replay", str(out), "-s", "components.sandbags=3", "-g", "4", "-q"]).exit_code == 0
    quick_figures(monkeypatch)  # the standard figures are tested elsewhere; the tornado is drawn
    report = build_report([out], tmp_path / "rep", formats=("png",), dpi=40)
    part = report.sections[0].parts[-1]
    assert part.anchor == "sensitivity" and "sensitivity" in part.tables
    assert (tmp_path / "rep" / "sensitivity_tornado.png").exists()
    assert np.isfinite(pd.read_csv(tmp_path / "rep" / "sensitivity.csv")["diff_low"]).all()
    again = CliRunner().invoke(main, ["design", "sensitivity", str(path), "--lever", "nope", "-q"])
    assert again.exit_code == 2 and "unknown lever 'nope'" in again.output and "Traceback" not in again.output
