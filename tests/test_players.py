"""Players of the user's own (issue 49): loaded by import path or entry point, run in a process of their own by
default, every returned action checked, clear errors; the public view they are sent."""

from __future__ import annotations

import json
import random
import textwrap

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.common.isolation import IsolatedPlayer
from fi_cli.common.players import PlayerError, PolicyError
from fi_cli.desert.game import GameSetup as DesertSetup
from fi_cli.games import module
from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.sim.config import load_study
from fi_cli.sim.runner import RunStopped, read_manifest, run_study

SETUP = GameSetup(get_layout("skull_island"), start_level=3, players=3)


def _turns(rec) -> list[list[str]]:
    return [r.actions for r in rec.turn_rows]


@pytest.mark.parametrize("isolated", [True, False])
def test_a_users_player_plays_the_games_fis_own_random_player_plays(isolated):
    for seed in (4, 5):
        mine = play_game(SETUP, make_policy("user_players:Random", {"isolated": isolated}), seed)
        ours = play_game(SETUP, make_policy("random"), seed)
        assert _turns(mine) == _turns(ours) and mine.outcome == ours.outcome
    assert isinstance(make_policy("user_players:Random"), IsolatedPlayer)  # isolated unless told otherwise


def test_a_player_may_answer_with_the_text_form_and_play_the_desert():
    setup = DesertSetup(players=3)
    texts = play_game_desert(setup, make_desert("user_players:Texts"), 9)
    assert _turns(texts) == _turns(play_game_desert(setup, make_desert("random"), 9))


def play_game_desert(setup, policy, seed):
    return module("desert", "play").play_game(setup, policy, seed)


def make_desert(name, params=None):
    return module("desert", "policies").make_policy(name, params)


@pytest.mark.parametrize("isolated", [True, False])
@pytest.mark.parametrize("name, says", [
    ("Illegal", "returned (0, 0, 99) at decision 5 of the game (turn 2, actions phase, p"),
    ("Nothing", "returned None at decision 1 of the game (turn 1, actions phase, p"),
    ("Thing", "returned <object object at"),
    ("Raises", "failed at decision 1 of the game (turn 1, actions phase, p"),
])  # fmt: skip
def test_a_player_that_fails_or_returns_a_wrong_action_stops_the_game_with_a_paragraph(isolated, name, says):
    with pytest.raises(PlayerError) as e:
        play_game(SETUP, make_policy(f"user_players:{name}", {"isolated": isolated}), 7)
    text = str(e.value)
    assert text.startswith(f"player user_players:{name} ") and says in text and "\n" not in text
    if name == "Illegal":
        assert "not one of the" in text and "legal actions (" in text
    if name == "Raises":
        assert "KeyError: 'no plan' (user_players.py:" in text


@pytest.mark.parametrize("isolated", [True, False])
@pytest.mark.parametrize("name, params, says", [
    ("user_players:", {}, "an import path is 'module:Class'"),
    ("no_such_module:X", {}, "no module 'no_such_module' on the Python path"),
    ("user_players:Nope", {}, "'user_players' has no 'Nope'; classes with a choose method there: Random, Texts,"),
    ("user_players:NoChoose", {}, "class 'NoChoose' has no method choose(state, legal)"),
    ("user_players:NOT_A_CLASS", {}, "'NOT_A_CLASS' is a int, not a class"),
    ("user_players:Random", {"depth": 2}, "does not take the parameters given"),
])  # fmt: skip
def test_a_bad_player_is_refused_with_what_is_wrong(isolated, name, params, says):
    with pytest.raises(PolicyError) as e:
        make_policy(name, {**params, "isolated": isolated})
    assert says in str(e.value)
    if "parameters given" in says:
        assert str(e.value).endswith("its parameters are: bias")


def test_isolated_must_be_true_or_false():
    with pytest.raises(PolicyError, match="isolated must be true .* or false"):
        make_policy("user_players:Random", {"isolated": "no"})


def test_a_player_installed_under_the_entry_point_group_is_found_by_its_name(tmp_path, monkeypatch):
    info = tmp_path / "cautious_players-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cautious-players\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[fi.players]\ncautious = user_players:Random\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    rec = play_game(SETUP, make_policy("cautious", {"isolated": False}), 4)
    assert _turns(rec) == _turns(play_game(SETUP, make_policy("random"), 4))
    with pytest.raises(PolicyError, match="installed \\(fi.players\\): cautious; or your own as module:Class"):
        make_policy("cautios")
    listing = CliRunner().invoke(main, ["policies"]).output
    assert "cautious: installed player (user_players:Random), in a process of its own" in listing


def _study(tmp_path, policy: str, games: int = 4) -> object:
    (tmp_path / "their_players.py").write_text(textwrap.dedent('''
        import random

        class Lucky:
            def __init__(self, luck=1):
                self.luck = luck

            def reset(self, seed):
                self.rng = random.Random(seed)

            def choose(self, state, legal):
                return legal[int(self.rng.random() * len(legal))]
    '''))
    path = tmp_path / "study.yaml"
    path.write_text(f"name: mine\ngames: {games}\nseed: 5\nchunk_size: 2\ngame: {{players: 2}}\npolicy: {policy}\n")
    return path


def test_a_study_names_a_player_by_import_path_found_beside_it(tmp_path):
    study = load_study(_study(tmp_path, '{import: "their_players:Lucky", luck: 2}'))
    assert study.scenarios[0].policy_label == "their_players:Lucky(luck=2)"
    out = run_study(study, tmp_path / "run", workers=1, progress=False)
    import pandas as pd

    games = pd.read_parquet(out / "games")
    assert len(games) == 4 and set(games.policy) == {"their_players:Lucky(luck=2)"}


def test_a_study_with_a_bad_player_is_refused_at_load(tmp_path):
    from fi_cli.sim.errors import StudyError

    with pytest.raises(StudyError) as e:
        load_study(_study(tmp_path, '{import: "their_players:Lucky", speed: 2}'))
    assert "study.yaml:6: policy: player 'their_players:Lucky' does not take" in str(e.value)


def test_a_player_failing_midway_stops_the_run_and_keeps_the_games_finished(tmp_path):
    study = load_study(_study(tmp_path, '{import: "user_players:Counts", isolated: false}', games=6))
    with pytest.raises(RunStopped) as e:
        run_study(study, tmp_path / "run", workers=1, progress=False)
    assert "the game stopped: scenario 'base', game 2: player user_players:Counts failed at the start of the " \
           "game: RuntimeError: out of ideas" in e.value.reason
    assert read_manifest(tmp_path / "run")["chunks_done"] == {"base": [0]} and e.value.games_done == 2


def test_fi_play_takes_a_players_import_path_and_says_what_went_wrong():
    r = CliRunner().invoke(main, ["play", "--policy", "user_players:Random", "--param", "bias=0.5", "--quiet"])
    assert r.exit_code == 0 and r.output.startswith(("win", "loss"))
    r = CliRunner().invoke(main, ["play", "--policy", "user_players:Illegal", "--quiet"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "player user_players:Illegal returned (0, 0, 99) at decision 5" in r.output
    assert "The game stopped there." in r.output


# --- the public view -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["island", "desert"])
def test_the_view_is_plain_data_and_rebuilds_the_very_position(game):
    g, view = module(game, "game"), module(game, "view")
    position = module(game, "position").to_dict
    setup = SETUP if game == "island" else DesertSetup(players=5)
    checked = 0
    for seed in range(12):
        s, rng = g.new_game(setup, seed), random.Random(seed)
        while s.outcome is None:
            v = view.to_view(s)
            assert json.loads(json.dumps(v)) == v  # ints, strings, lists, dicts: nothing else
            t = view.from_view(json.loads(json.dumps(v)))
            assert position(t) == position(s) and t.rng is None
            assert sorted(t.legal_actions()) == sorted(s.legal_actions())
            checked += 1
            legal = s.legal_actions()
            s.apply(legal[int(rng.random() * len(legal))])
    assert checked > 200


def test_the_island_view_does_not_say_how_a_flood_segment_is_stored():
    s = module("island", "game").new_game(SETUP, 3)
    t = s.copy()
    for seg in t.fdeck:
        seg.reverse()
    view = module("island", "view").to_view
    assert s.fdeck != t.fdeck and view(s) == view(t)
