"""`fi compare` (issue 49): two players on the same deals, paired; the deals of a study are the games `fi simulate`
plays for it."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.report.compare import Row, compare
from fi_cli.sim.compare import Player, study_deals
from fi_cli.sim.config import load_study
from fi_cli.sim.runner import run_study

STUDY = """\
name: pair
games: 5
seed: 77
chunk_size: 5
game: {players: 3}
policy: heuristic
matrix:
  difficulty: [novice, elite]
"""


@pytest.fixture
def study_file(tmp_path):
    path = tmp_path / "pair.yaml"
    path.write_text(STUDY)
    return path


def test_the_deals_of_a_study_are_the_games_fi_simulate_plays(study_file, tmp_path):
    study = load_study(study_file)
    result = compare(Player("random"), Player("heuristic"), study_deals(study), workers=1)
    simulated = pd.read_parquet(run_study(study, tmp_path / "run", workers=1, progress=False) / "games")
    won = {(str(r.scenario), r.game): r.outcome == "win" for r in simulated.itertuples()}
    assert [g["win_b"] for g in result.games] == [won[(g["scenario"], g["game"])] for g in result.games]
    assert [g["seed"] for g in result.games] == [int(simulated.set_index(["scenario", "game"]).seed[(g["scenario"],
                                                 g["game"])]) for g in result.games]  # fmt: skip
    novice, elite, everything = result.rows
    assert (novice.scenario, elite.scenario, everything.scenario) == ("difficulty=novice", "difficulty=elite", "all")
    assert everything.games == 10 and everything.wins_b == novice.wins_b + elite.wins_b
    assert everything.only_b == sum(g["win_b"] and not g["win_a"] for g in result.games)
    assert all(r.seconds_a > 0 and r.seconds_b > r.seconds_a for r in result.rows)


def test_a_comparison_is_the_same_whatever_the_workers(study_file):
    deals = study_deals(load_study(study_file))
    a, b = Player("heuristic"), Player("heuristic", {"w_give": 0.5})
    one, two = compare(a, b, deals, workers=1), compare(a, b, deals, workers=2)
    assert one.games == two.games and b.label == "heuristic(w_give=0.5)"


def test_the_statistics_of_a_row():
    row = Row("base", "base", games=40, wins_a=10, wins_b=26, only_a=0, only_b=16, seconds_a=0.1, seconds_b=0.2)
    assert row.p_value == pytest.approx(2 * 0.5**16)  # exact McNemar: 16 of 16 games won by B only
    lo, hi = row.interval(10)
    assert lo == pytest.approx(0.14187, abs=1e-5) and hi == pytest.approx(0.40194, abs=1e-5)  # Wilson, 10 of 40
    assert Row("base", "base", 4, 1, 1, 0, 0, 0, 0).p_value == 1.0


def test_fi_compare_prints_a_table_writes_a_figure_and_gives_json(tmp_path):
    out = tmp_path / "cmp"
    r = CliRunner().invoke(main, ["compare", "random", "heuristic", "--games", "6", "--difficulty", "novice",
                                  "--out", str(out), "--quiet", "--workers", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "A random" in r.output and "B heuristic" in r.output and "Forbidden Island · Novice · 4 players" in r.output
    assert (out / "compare.png").stat().st_size > 10_000
    assert len((out / "games.csv").read_text().splitlines()) == 7
    r = CliRunner().invoke(main, ["compare", "random", "random", "--game", "desert", "--games", "3", "--json",
                                  "--out", str(out), "--quiet", "--workers", "1"])  # fmt: skip
    doc = json.loads(r.output)
    assert doc["rows"][0]["games"] == 3 and doc["rows"][0]["only_a"] == doc["rows"][0]["only_b"] == 0
    assert doc == json.loads((out / "compare.json").read_text())


@pytest.mark.parametrize("args, says", [
    (["random", "nobody"], "unknown policy 'nobody'"),
    (["random", "heuristic", "--b-param", "nope=1"], "policy 'heuristic' has no parameter 'nope'"),
    (["random", "user_players:Illegal", "--games", "2"], "player user_players:Illegal returned (0, 0, 99) at "
                                                         "decision 5"),
    (["random", "heuristic", "--difficulty", "nightmare"], "nightmare"),
])  # fmt: skip
def test_fi_compare_says_what_is_wrong_in_one_paragraph(args, says, tmp_path):
    r = CliRunner().invoke(main, ["compare", *args, "--out", str(tmp_path), "--quiet", "--workers", "1"])
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, r.output


def test_fi_compare_has_help_with_examples():
    r = CliRunner().invoke(main, ["compare", "--help"])
    assert r.exit_code == 0 and "fi compare heuristic search --players 4 --difficulty elite" in r.output


def test_fi_compare_refuses_a_study_whose_matrix_names_the_players(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(STUDY.replace("difficulty: [novice, elite]", "policy: [random, heuristic]"))
    r = CliRunner().invoke(main, ["compare", "random", "heuristic", "--study", str(path), "--out", str(tmp_path)])
    assert r.exit_code == 2 and "matrix.policy: fi compare names the two players itself" in r.output
