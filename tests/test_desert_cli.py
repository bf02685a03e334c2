"""`fi play --game desert`, `fi position` on Desert files and `fi policies --game desert`, through click."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.desert.actions import action_text
from fi_cli.desert.position import loads

LAYOUTS = Path(__file__).resolve().parent.parent / "configs" / "layouts"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("difficulty", ["novice", "normal", "elite", "legendary"])
def test_play_every_player_count_and_difficulty(players, difficulty):
    res = run("play", "--game", "desert", "--players", str(players), "--difficulty", difficulty, "--seed", "5",
              "--quiet")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert res.output.startswith(("loss (", "win after")) and res.output.rstrip().endswith("parts")


def test_play_narrates_the_desert_turn_by_turn():
    res = run("play", "--game", "desert", "--players", "4", "--difficulty", "normal", "--policy", "random",
              "--seed", "7")  # fmt: skip
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.startswith("Forbidden Desert, 4 players, storm meter at mark 2 (normal), seed 7")
    for words in ("Turn 1: p", "~~~ STORM ~~~", "(crash site)", "? water", "1 sand", "sand blocked", "water 3/3",
                  "storm meter 2/15 (3 cards a turn)", "sand supply", "storm: wind_", "TUNNEL", "BURIED",
                  "Result: loss (thirst) after 10 turns"):  # fmt: skip
        assert words in out, words
    assert out.count("Turn ") == 10
    assert run("play", "--game", "desert", "--seed", "7").output == out  # the same seed, the same game


def test_play_a_board_of_pinned_tiles():
    res = run("play", "--game", "desert", "--layout", str(LAYOUTS / "desert_far_pad.yaml"), "--seed", "3")
    assert res.exit_code == 0, res.output
    first = res.output.split("Turn 2")[0]  # the Crash Site in the north-west, the Launch Pad known in the south-east
    assert "r0 |(crash site)" in first and "(launch pad)   |\n" in first


@pytest.mark.parametrize("args, words", [
    (["--layout", "skull_island"], ["unknown desert board 'skull_island'; built-in: forbidden_desert"]),
    (["--layout", str(LAYOUTS / "lagoon.yaml")], ["is a Forbidden Island layout", "not a desert board"]),
    (["--difficulty", "hard"], ["difficulty", "novice", "start mark 1-4"]),
    (["--policy", "genius"], ["unknown policy", "random"]),
    (["--roles", "pilot,climber", "--players", "2"], ["unknown role 'pilot'", "water_carrier"]),
    (["--roles", "climber,climber", "--players", "2"], ["distinct"]),
    (["--rule", "thirst_at_zero=maybe"], ["thirst_at_zero", "allowed"]),
    (["--rule", "thirst=true"], ["unknown rule variant", "jet_pack_when_buried"]),
    (["--players", "6"], ["6 is not in the range"]),
])  # fmt: skip
def test_play_bad_input_is_a_clear_error(args, words):
    res = run("play", "--game", "desert", *args)
    assert res.exit_code == 2 and "Traceback" not in res.output
    for w in words:
        assert w in res.output


def test_rules_and_roles_reach_the_game():
    res = run("play", "--game", "desert", "--players", "2", "--roles", "meteorologist,water_carrier", "--rule",
              "thirst_at_zero=true", "--seed", "3")  # fmt: skip
    assert res.exit_code == 0 and "p0 meteorologist" in res.output and "p1 water_carrier" in res.output


def test_save_positions_then_show_legal_and_apply(tmp_path):
    res = run("play", "--game", "desert", "--seed", "7", "--save-positions", str(tmp_path), "--quiet")
    assert res.exit_code == 0, res.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) > 20 and f"wrote {len(files)} positions" in res.output
    first = files[0]
    state = loads(first.read_text())
    legal = run("position", "legal", str(first))
    assert legal.exit_code == 0
    lines = legal.output.splitlines()
    assert lines == sorted(action_text(a) for a in state.legal_actions())
    shown = run("position", "show", str(first))
    assert shown.exit_code == 0 and "~~~ STORM ~~~" in shown.output and "storm meter" in shown.output
    move = next(line for line in lines if line.startswith("move("))
    applied = run("position", "apply", str(first), move)
    assert applied.exit_code == 0, applied.output
    after = json.loads(applied.output)
    assert after["game"] == "desert" and after["actions_left"] == 3
    mover = int(move[6])
    assert after["players"][mover]["cell"] == move.split(", ")[1].rstrip(")")


def test_an_excavation_applied_takes_its_luck_from_the_seed(tmp_path):
    run("play", "--game", "desert", "--seed", "7", "--save-positions", str(tmp_path), "--quiet")
    for f in sorted(tmp_path.glob("*.json")):
        excavate = [t for t in run("position", "legal", str(f)).output.splitlines() if t.startswith("excavate")]
        if excavate:
            kinds = {run("position", "apply", str(f), excavate[0], "--seed", str(seed)).output for seed in range(6)}
            assert len(kinds) > 1  # different seeds, different undersides
            return
    pytest.fail("no excavation in the saved game")


def test_position_errors_are_one_paragraph(tmp_path):
    run("play", "--game", "desert", "--seed", "7", "--save-positions", str(tmp_path), "--quiet")
    first = str(sorted(tmp_path.glob("*.json"))[0])
    bad = run("position", "apply", first, "pick_up(p0, engine)")
    assert bad.exit_code == 2 and "is not legal in the actions phase" in bad.output and "Traceback" not in bad.output
    garbage = run("position", "apply", first, "teleport(p0)")
    assert garbage.exit_code == 2 and "unknown action 'teleport'" in garbage.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "fd-position-1", "game": "desert", "rules": {}}')
    res = run("position", "show", str(broken))
    assert res.exit_code == 2 and "key 'storm': missing" in res.output and "Traceback" not in res.output
    broken.write_text('{"format": "fd-position-1", "game": "checkers"}')
    res = run("position", "legal", str(broken))
    assert res.exit_code == 2 and "'checkers' is not a game; games are: island, desert" in res.output


def test_policies_of_the_desert():
    from fi_cli.desert.policies.heuristic import HeuristicPolicy
    from fi_cli.desert.policies.search import SearchPolicy

    res = run("policies", "--game", "desert")
    n, m = len(HeuristicPolicy.PARAMETERS), len(SearchPolicy.PARAMETERS)
    assert res.exit_code == 0
    lines = [f"heuristic: {n} parameter(s)",
             "oracle: 4 parameter(s)  UNFAIR: sees the hidden decks; a measuring instrument, not a player",
             "random: no parameters", f"search: {m} parameter(s)",
             "your own: module:Class, e.g. --policy my_players:Cautious (README: Your own player)"]
    assert res.output.splitlines() == lines
    res = run("policies", "heuristic", "--game", "desert")
    assert res.exit_code == 0 and "v_pick" in res.output and "(default " in res.output
