"""The example player of examples/my_players.py (issue 49): by import path in a study, in a process of its own,
and through `fi compare` against the heuristic."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.common.isolation import IsolatedPlayer
from fi_cli.island.policies import make_policy
from fi_cli.sim.config import load_study
from fi_cli.sim.runner import run_study

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_example_study_plays_the_example_player_by_import_path_in_its_own_process(tmp_path):
    study = load_study(EXAMPLES / "cautious.yaml").replace(games=3)
    assert isinstance(make_policy("my_players:Cautious"), IsolatedPlayer)  # found beside the study, isolated
    out = run_study(study, tmp_path / "run", workers=1, progress=False)
    games = pd.read_parquet(out / "games")
    assert sorted(set(games.policy)) == ["heuristic", "my_players:Cautious", "my_players:Cautious(shore_first=false)"]
    turns = pd.read_parquet(out / "turns")
    first = turns[turns.scenario.astype(str) == study.scenarios[0].id]  # the player with its defaults
    assert first.actions.map(lambda a: any(x.startswith(("shore_up", "capture", "give")) for x in a)).any()


def test_the_example_player_plays_the_same_games_in_the_games_process(tmp_path):
    from fi_cli.island.game import GameSetup
    from fi_cli.island.layouts import get_layout
    from fi_cli.island.play import play_game

    load_study(EXAMPLES / "cautious.yaml")  # puts the examples' folder on the path, as a study of it does
    setup = GameSetup(get_layout("forbidden_island"), 1, 4)
    for seed in (1, 2):
        isolated = play_game(setup, make_policy("my_players:Cautious"), seed)
        here = play_game(setup, make_policy("my_players:Cautious", {"isolated": False}), seed)
        assert [t.actions for t in isolated.turn_rows] == [t.actions for t in here.turn_rows]


def test_fi_compare_plays_the_example_player_against_the_heuristic(tmp_path, monkeypatch):
    monkeypatch.chdir(EXAMPLES)  # as its docstring says: run from the examples' folder
    r = CliRunner().invoke(main, ["compare", "my_players:Cautious", "heuristic", "--games", "4", "--difficulty",
                                  "novice", "--workers", "1", "--quiet", "--out", str(tmp_path)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "A my_players:Cautious" in r.output and "B heuristic" in r.output
    assert (tmp_path / "compare.png").exists()
