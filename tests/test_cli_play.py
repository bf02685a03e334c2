"""`fi play` and `fi position` through the click layer."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.island.actions import action_text
from fi_cli.island.layouts import BUILTIN_LAYOUTS
from fi_cli.island.position import loads

CUSTOM = """\
name: Test Ring
shape: |
  XXXXXX
  XX..XX
  XX..XX
  XX..XX
  XXXXXX
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("layout", sorted(BUILTIN_LAYOUTS))
def test_play_every_named_island(layout):
    res = run("play", "--layout", layout, "--seed", "3", "--players", "3", "--difficulty", "elite")
    assert res.exit_code == 0, res.output
    assert "Result: loss" in res.output or "Result: win" in res.output
    assert "Turn 1:" in res.output and "water level" in res.output


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("difficulty", ["novice", "normal", "elite", "legendary", "7"])
def test_play_every_player_count_and_difficulty(players, difficulty):
    res = run("play", "--players", str(players), "--difficulty", difficulty, "--seed", "5", "--quiet")
    assert res.exit_code == 0, res.output
    assert res.output.startswith(("loss (", "win after"))


def test_play_custom_layout_file(tmp_path):
    f = tmp_path / "ring.yaml"
    f.write_text(CUSTOM)
    res = run("play", "--layout", str(f), "--seed", "1", "--roles", "diver,explorer", "--players", "2")
    assert res.exit_code == 0, res.output
    assert "p0 diver" in res.output and "p1 explorer" in res.output


def test_same_seed_same_game():
    a = run("play", "--seed", "11")
    b = run("play", "--seed", "11")
    c = run("play", "--seed", "12")
    assert a.output == b.output
    assert a.output != c.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["--difficulty", "hard"], ["difficulty", "novice"]),
        (["--layout", "atlantis"], ["unknown layout", "skull_island"]),
        (["--policy", "genius"], ["unknown policy", "random"]),
        (["--roles", "pilot,pilot", "--players", "2"], ["distinct"]),
        (["--roles", "captain,pilot", "--players", "2"], ["unknown role", "messenger"]),
        (["--rule", "helicopter_rescue=maybe"], ["helicopter_rescue", "allowed"]),
        (["--rule", "rescue=true"], ["unknown rule variant", "diver_swim"]),
    ],
)
def test_play_bad_input_is_a_clear_error(args, words):
    res = run("play", *args)
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    for w in words:
        assert w in res.output


def test_save_positions_then_legal_and_apply(tmp_path):
    res = run("play", "--seed", "7", "--save-positions", str(tmp_path), "--quiet")
    assert res.exit_code == 0, res.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) > 5
    first = files[0]
    state = loads(first.read_text())
    legal = run("position", "legal", str(first))
    assert legal.exit_code == 0
    lines = legal.output.splitlines()
    assert lines == sorted(action_text(a) for a in state.legal_actions())
    shown = run("position", "show", str(first))
    assert shown.exit_code == 0 and "water level" in shown.output
    move = next(line for line in lines if line.startswith("move("))
    applied = run("position", "apply", str(first), move)
    assert applied.exit_code == 0, applied.output
    after = json.loads(applied.output)
    assert after["actions_left"] == 2
    mover = int(move[6])
    assert after["players"][mover]["tile"] == move.split(", ")[1].rstrip(")")


@pytest.mark.parametrize("game", ["island", "desert"])
def test_a_position_saved_under_other_rules_is_played_with_a_warning(tmp_path, game):
    run("play", "--game", game, "--seed", "7", "--save-positions", str(tmp_path), "--quiet")
    first = sorted(tmp_path.glob("*.json"))[0]
    doc = json.loads(first.read_text())
    current = doc["rules_version"]
    assert CliRunner().invoke(main, ["position", "legal", str(first)]).stderr == ""
    doc["rules_version"] = "old-rules-0"
    first.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["position", "legal", str(first)])
    assert r.exit_code == 0 and r.stdout.strip(), r.output
    assert r.stderr == (f"warning: {first} was saved under the rules old-rules-0 and this fi plays {current}: the "
                        f"position is read and played under {current}, which may differ from the game it came from\n")


def test_position_errors_are_one_paragraph(tmp_path):
    run("play", "--seed", "7", "--save-positions", str(tmp_path), "--quiet")
    first = str(sorted(tmp_path.glob("*.json"))[0])
    bad = run("position", "apply", first, "capture(p0, earth_stone)")
    assert bad.exit_code == 2 and "not legal" in bad.output and "Traceback" not in bad.output
    garbage = run("position", "apply", first, "teleport(p0)")
    assert garbage.exit_code == 2 and "unknown action" in garbage.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "fi-position-1", "rules": {}}')
    res = run("position", "show", str(broken))
    assert res.exit_code == 2 and "layout" in res.output and "Traceback" not in res.output


def test_policies_lists_every_policy_and_its_parameters():
    from fi_cli.island.policies import make_policy, policy_names

    res = run("policies")
    assert res.exit_code == 0
    for name in policy_names():
        assert res.output.count(f"{name}:") == 1
    detail = run("policies", "heuristic")
    assert detail.exit_code == 0
    assert all(f"  {k} " in detail.output for k in make_policy("heuristic").PARAMETERS)
    bad = run("policies", "telepath")
    assert bad.exit_code == 2 and "unknown policy" in bad.output


def test_play_passes_policy_parameters():
    res = run("play", "--policy", "heuristic", "--param", "w_fools_landing=20", "--seed", "4", "--quiet")
    assert res.exit_code == 0, res.output
    bad = run("play", "--policy", "heuristic", "--param", "courage=3", "--quiet")
    assert bad.exit_code == 2 and "courage" in bad.output and "Traceback" not in bad.output
    worse = run("play", "--policy", "planner", "--param", "samples=zero", "--quiet")
    assert worse.exit_code == 2 and "samples" in worse.output
