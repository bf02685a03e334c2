"""Study configs: matrix expansion, scenario ids, and every kind of config error (file, key, value, allowed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.island.policies.heuristic import DEFAULTS as ISLAND_WEIGHTS
from fi_cli.sim.config import load_study
from fi_cli.sim.errors import StudyError
from fi_cli.sim.seeds import game_seed

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
BASE = "name: t\ngames: 3\nseed: 1\n"


def study_file(tmp_path: Path, text: str) -> Path:
    (tmp_path / "layouts").mkdir(exist_ok=True)
    (tmp_path / "layouts" / "lagoon.yaml").write_text((CONFIGS / "layouts" / "lagoon.yaml").read_text())
    p = tmp_path / "study.yaml"
    p.write_text(text)
    return p


def test_example_studies_load():
    ex = load_study(CONFIGS / "example.yaml")
    assert [s.id for s in ex.scenarios] == [
        "layout=forbidden_island,difficulty=novice", "layout=forbidden_island,difficulty=normal",
        "layout=skull_island,difficulty=novice", "layout=skull_island,difficulty=normal",
        "layout=lagoon,difficulty=novice", "layout=lagoon,difficulty=normal",
    ]
    lagoon = ex.scenarios[4]
    assert lagoon.values == {"layout": "lagoon", "difficulty": "novice"}
    assert lagoon.layout.pins == {"fools_landing": (0, 3)} and lagoon.setup.start_level == 1
    std = load_study(CONFIGS / "standard.yaml")
    assert len(std.scenarios) == 12 and std.scenarios[0].id == "players=2,difficulty=novice"


def test_defaults_single_scenario_and_round_trip(tmp_path):
    s = load_study(study_file(tmp_path, BASE))
    (sc,) = s.scenarios
    assert sc.id == "base" and sc.setup.players == 4 and sc.setup.roles is None and sc.policy == "random"
    assert type(s).from_resolved(s.resolved()).resolved() == s.resolved()
    assert s.replace(games=10).hash != s.hash and s.replace(games=3).hash == s.hash


def test_matrix_of_everything(tmp_path):
    text = BASE + (
        "game: {players: 2, roles: [pilot, diver]}\n"
        "policy: {name: random}\n"
        "matrix:\n  rules.helicopter_rescue: [true, false]\n  first_player: [0, 1]\n  difficulty: [3]\n"
    )
    s = load_study(study_file(tmp_path, text))
    assert [x.id for x in s.scenarios][:2] == [
        "rules.helicopter_rescue=true,first_player=0,difficulty=3",
        "rules.helicopter_rescue=true,first_player=1,difficulty=3",
    ]
    assert s.scenarios[2].setup.rules.helicopter_rescue is False and s.scenarios[0].setup.roles == ("pilot", "diver")
    assert s.scenarios[0].difficulty == "elite"


def test_policy_parameters_and_example_policy_study(tmp_path):
    s = load_study(study_file(tmp_path, BASE + "matrix:\n  policy: [random, {name: heuristic, w_plain: 2}]\n"))
    assert [x.id for x in s.scenarios] == ["policy=random", "policy=heuristic(w_plain=2)"]
    assert s.scenarios[1].policy_params == {"w_plain": 2} and s.scenarios[1].policy_label == "heuristic(w_plain=2)"
    assert len(load_study(CONFIGS / "policies.yaml").scenarios) == 3


def test_labels_name_matrix_values_by_their_id_or_file_and_do_not_change_the_hash(tmp_path):
    s = load_study(study_file(tmp_path, LABELLED + "  layout: {layouts/lagoon.yaml: The Lagoon, skull_island: Skull}\n"
                                                   "  difficulty: {5: ' Level 5 '}\n"))
    assert s.labels == {"layout": {"lagoon": "The Lagoon", "skull_island": "Skull"}, "difficulty": {"5": "Level 5"}}
    assert type(s).from_resolved(s.resolved()).labels == s.labels
    assert s.hash == load_study(study_file(tmp_path, LABELLED.removesuffix("labels:\n"))).hash


def test_baseline_names_matrix_values_or_a_scenario_and_does_not_change_the_hash(tmp_path):
    plain = LABELLED.removesuffix("labels:\n")
    s = load_study(study_file(tmp_path, plain + "baseline: layout=layouts/lagoon.yaml, difficulty=5\n"))
    assert s.baseline == "layout=lagoon,difficulty=5"  # as the scenario ids write it
    assert type(s).from_resolved(s.resolved()).baseline == s.baseline
    assert s.hash == load_study(study_file(tmp_path, plain)).hash
    assert load_study(study_file(tmp_path, plain + "baseline: layout=skull_island,difficulty=novice\n")).baseline \
        == "layout=skull_island,difficulty=novice"
    with pytest.raises(StudyError) as e:
        load_study(study_file(tmp_path, plain + "baseline: layout=atlantis\n"))
    assert e.value.key == "baseline" and "study.yaml:7: baseline: not a scenario id nor matrix values" in str(e.value)
    assert "allowed: layout=skull_island|lagoon; difficulty=novice|5" in str(e.value)


def test_seeds_are_stable_and_distinct():
    a = game_seed(7, "layout=skull_island", 0)
    assert a == game_seed(7, "layout=skull_island", 0) and 0 <= a < 2**63
    assert len({game_seed(7, sid, g) for sid in ("a", "b") for g in range(100)}) == 200
    assert game_seed(8, "a", 0) != game_seed(7, "a", 0)


LABELLED = BASE + "matrix:\n  layout: [skull_island, layouts/lagoon.yaml]\n  difficulty: [novice, 5]\nlabels:\n"

# (study text, expected key, fragments the message must contain)
ERRORS = [
    ("name: t\ngames: 3\nseed: 1\nplayers: 4\n", "players", ["unknown key", "allowed: name, description, games"]),
    (BASE + "game:\n  colour: red\n", "game.colour", ["unknown key", "allowed: layout, difficulty"]),
    ("name: t\nseed: 1\n", "games", ["missing"]),
    ("name: t\ngames: many\nseed: 1\n", "games", ["valid integer", "'many'"]),
    ("name: t\ngames: 0\nseed: 1\n", "games", ["greater than or equal to 1"]),
    (BASE + "game:\n  difficulty: nightmare\n", "game.difficulty",
     ["unknown difficulty", "'nightmare'", "novice, normal, elite, legendary"]),
    (BASE + "game:\n  players: 5\n", "game.players", ["less than or equal to 4", "5"]),
    (BASE + "game:\n  roles: [pilot, wizard, diver, messenger]\n", "game.roles", ["unknown role 'wizard'", "pilot"]),
    (BASE + "game:\n  roles: [pilot, diver]\n", "game", ["2 roles for 4 players"]),
    (BASE + "game:\n  roles: [pilot, pilot, diver, messenger]\n", "game.roles", ["one player only"]),
    (BASE + "game:\n  first_player: 7\n", "game", ["not a seat"]),
    (BASE + "game:\n  rules: {flood_fast: true}\n", "game.rules", ["unknown rule variant 'flood_fast'", "diver_swim"]),
    (BASE + "game:\n  rules: {diver_swim: fastest}\n", "game.rules", ["diver_swim", "'fastest'", "nearest"]),
    (BASE + "game:\n  layout: atlantis\n", "game.layout", ["unknown layout 'atlantis'", "skull_island"]),
    (BASE + "game:\n  layout: layouts/missing.yaml\n", "game.layout", ["missing.yaml", "file not found"]),
    (BASE + "policy: genius\n", "policy", ["unknown policy 'genius'", "random"]),
    (BASE + "policy: {name: random, depth: 3}\n", "policy", ["no parameter 'depth'"]),
    (BASE + "policy: heuristc\n", "policy", ["unknown policy 'heuristc' (did you mean 'heuristic'?)"]),
    (BASE + "policy: {name: heuristic, heli_reshufle: 3}\n", "policy",
     ["no parameter 'heli_reshufle' (did you mean 'heli_reshuffle'?); allowed: w_fools_landing"]),
    (BASE + "policy: [random]\n", "policy", ["policy id"]),
    (BASE + "matrix:\n  colour: [red]\n", "matrix", ["unknown matrix key 'colour'", "layout, difficulty"]),
    (BASE + "matrix:\n  difficulty: [normal, hard]\n", "matrix.difficulty[1]", ["unknown difficulty", "'hard'"]),
    (BASE + "matrix:\n  layout: [skull_island, layouts/missing.yaml]\n", "matrix.layout[1]", ["file not found"]),
    (BASE + "matrix:\n  rules.diver_swim: [nearest, far]\n", "matrix.rules.diver_swim[1]", ["'far'"]),
    (BASE + "matrix:\n  policy: [random, genius]\n", "matrix.policy[1]", ["unknown policy 'genius'"]),
    (BASE + "matrix:\n  layout: [skull_island, skull_island]\n", "matrix.layout", ["same id"]),
    (BASE + "matrix:\n  difficulty: [novice]\n  policy: [random, {name: heuristic, "
     + ", ".join(f"{k}: 1.5" for k in ISLAND_WEIGHTS) + "}]\n", "matrix.policy[1]",
     ["scenario 'difficulty=novice,policy=heuristic(", "characters, and a scenario's id names its directory",
      "at most 255 bytes", "outside the matrix"]),
    (BASE + "matrix:\n  players: [2, 3]\ngame:\n  roles: [pilot, diver]\n", "matrix",
     ["scenario 'players=3'", "2 roles for 3 players"]),
    ("name: t\ngames: 3\ngames: 4\nseed: 1\n", "games", ["study.yaml:3: games: given twice (first on line 2)"]),
    (BASE + "game:\n  players: 2\n  difficulty: elite\n  players: 3\n", "game.players",
     ["study.yaml:7: game.players: given twice (first on line 5); give each key once"]),
    ('name: ".."\ngames: 3\nseed: 1\n', "name", ["must be a plain name", "not '.' or '..'", "(got '..')"]),
    ('name: "."\ngames: 3\nseed: 1\n', "name", ["must be a plain name"]),
    ('name: "../elsewhere"\ngames: 3\nseed: 1\n', "name", ["no '/'"]),
    ('name: "a\\\\b"\ngames: 3\nseed: 1\n', "name", ["must be a plain name"]),
    ('name: ""\ngames: 3\nseed: 1\n', "name", ["not empty"]),
    ("name: 12\ngames: 3\nseed: 1\n", "name", ["valid string"]),
    ("name: t\ngames: [3\n", None, ["not valid YAML"]),
    ("- just\n- a list\n", None, ["mapping"]),
    (LABELLED + "  players: {4: four}\n", "labels.players", ["not in the matrix", "allowed: layout, difficulty"]),
    (LABELLED + "  layout: {atlantis: A}\n", "labels.layout.atlantis",
     ["not a value of this matrix key", "allowed: skull_island, layouts/lagoon.yaml, lagoon"]),
    (LABELLED + "  difficulty: {5: ''}\n", "labels.difficulty.5", ["a label is a short text"]),
    (LABELLED + "  difficulty: {5: Hard, novice: Hard}\n", "labels.difficulty", ["share the label 'Hard'"]),
    (LABELLED + "  layout: [Skull]\n", "labels.layout", ["valid dictionary"]),
]


@pytest.mark.parametrize("text, key, fragments", ERRORS, ids=[e[1] or e[2][0] for e in ERRORS])
def test_config_errors(tmp_path, text, key, fragments):
    path = study_file(tmp_path, text)
    with pytest.raises(StudyError) as e:
        load_study(path)
    msg = str(e.value)
    assert msg.startswith(str(path)), msg
    if key:
        assert e.value.key == key, msg
    for f in fragments:
        assert f in msg, msg


def test_a_bad_policy_parameter_lists_no_policy_names(tmp_path):
    # the names are what is allowed when the policy's name is wrong, not when one of its parameters is
    path = study_file(tmp_path, BASE + "policy: {name: heuristic, escape: yes}\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    msg = str(e.value)
    assert e.value.key == "policy" and "parameter 'escape' must be a number, got true" in msg, msg
    assert "allowed: heuristic" not in msg, msg


def test_two_layout_files_with_the_same_id(tmp_path):
    path = study_file(tmp_path, BASE + "matrix:\n  layout: [layouts/lagoon.yaml, other/lagoon.yaml]\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "lagoon.yaml").write_text((CONFIGS / "layouts" / "twin_isles.yaml").read_text())
    with pytest.raises(StudyError) as e:
        load_study(path)
    assert e.value.key == "matrix.layout[1]" and e.value.line == 5
    assert ("layout files 'layouts/lagoon.yaml' and 'other/lagoon.yaml' both have the id 'lagoon' (a layout's id "
            "is its file name unless the file gives one); give one of them its own id with a line such as "
            "'id: my_island' in the file") in str(e.value)
    twins = (CONFIGS / "layouts" / "twin_isles.yaml").read_text()
    (tmp_path / "other" / "lagoon.yaml").write_text("id: twins\n" + twins)
    assert [s.id for s in load_study(path).scenarios] == ["layout=lagoon", "layout=twins"]


def test_layout_file_without_24_cells(tmp_path):
    path = study_file(tmp_path, BASE + "game:\n  layout: layouts/small.yaml\n")
    (tmp_path / "layouts" / "small.yaml").write_text("shape: |\n  XXXX\n  XXXX\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    assert e.value.key == "game.layout" and "small.yaml" in str(e.value) and "8 cells" in str(e.value)


def test_error_line_numbers(tmp_path):
    path = study_file(tmp_path, BASE + "game:\n  players: 4\n  difficulty: nightmare\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    assert e.value.line == 6 and f"{path}:6: game.difficulty" in str(e.value)


@pytest.mark.parametrize("text", [ERRORS[0][0], ERRORS[5][0], ERRORS[14][0], ERRORS[15][0]])
def test_cli_config_errors_exit_2_without_traceback(tmp_path, text):
    path = study_file(tmp_path, text)
    r = CliRunner().invoke(main, ["simulate", str(path), "--out", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 2, r.output
    assert r.output.startswith("Error: ") and str(path) in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()


def test_cli_missing_study_file(tmp_path):
    r = CliRunner().invoke(main, ["simulate", str(tmp_path / "nope.yaml")])
    assert r.exit_code == 2 and "file not found" in r.output


def test_every_problem_of_a_file_at_once_in_file_order(tmp_path):
    path = study_file(tmp_path, "colour: red\nname: t\ngames: many\nseed: 1\ngame:\n  difficulty: nightmare\n"
                                "  players: 9\n  rules: {helicopter_rescue: maybe}\npolicy: genius\nmatrix:\n"
                                "  layout: [skull_island, atlantis]\n  roles: [[pilot, wizard]]\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    found = [(p.line, p.key) for p in e.value.problems]
    assert found == [(1, "colour"), (3, "games"), (6, "game.difficulty"), (7, "game.players"), (8, "game.rules"),
                     (9, "policy"), (11, "matrix.layout[1]"), (12, "matrix.roles[0]")], str(e.value)
    lines = str(e.value).splitlines()
    heads = [f"{path}:{n}: {key}: " for n, key in found]
    assert all(line.startswith(head) for line, head in zip(lines, heads, strict=True)), lines
    assert "rule variant 'helicopter_rescue' cannot be 'maybe'; allowed: true, false" in lines[4]
    # the CLI prints them all, one a line, in one paragraph
    r = CliRunner().invoke(main, ["simulate", str(path), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and r.output.count(str(path)) == 8 and "\n\n" not in r.output.strip(), r.output


def test_problems_of_scenarios_and_labels_come_together_once_the_matrix_is_sound(tmp_path):
    path = study_file(tmp_path, BASE + "game:\n  roles: [pilot, diver]\nmatrix:\n  players: [3, 4]\n"
                                "labels:\n  players: {5: five, 3: ''}\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    messages = [p.line_text() for p in e.value.problems]
    assert len(messages) == 4, messages
    assert "scenario 'players=3': 2 roles for 3 players" in messages[0]
    assert "scenario 'players=4': 2 roles for 4 players" in messages[1]
    assert "labels.players.5: not a value" in messages[2] and "labels.players.3: a label is a short text" in messages[3]


def test_every_key_given_twice_is_named(tmp_path):
    path = study_file(tmp_path, "name: t\ngames: 3\ngames: 4\nseed: 1\nseed: 2\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    assert [(p.line, p.key) for p in e.value.problems] == [(3, "games"), (5, "seed")]


# (study text, the words of the one problem, words it must not hold)
WORDING = [
    (BASE + "policy: genius\n", "unknown policy 'genius'; allowed: heuristic, oracle, planner, random, search",
     "policies are"),
    (BASE + "game:\n  rules: {helicopter_rescue: 3}\n", "cannot be 3; allowed: true, false", "True"),
    (BASE + "game:\n  rules: {diver_swim: true}\n", "cannot be true; allowed: nearest, any_reachable", "True"),
    (BASE + "game:\n  rules: {flood: 1}\n", "unknown rule variant 'flood'; allowed: navigator_moves", "variants are"),
    (BASE + "game:\n  layout: atlantis\n", "unknown layout 'atlantis'; allowed: forbidden_island", "layouts are"),
    (BASE + "game:\n  layout: layouts\n", "'layouts' is a folder, not a layout; to play every layout file in it "
     "(a scenario each), write {dir: layouts}", "unknown layout"),
    (BASE + "matrix:\n  layout: [skull_island, layouts/]\n", "write {dir: layouts/}", "cannot read"),
    (BASE + "game:\n  name: desert\n  layout: atlantis\n", "unknown desert board 'atlantis'; allowed: forbidden_desert",
     "built-in:"),
    (BASE + "policy: {name: heuristic, escape: yes}\n", "must be a number, got true", "True"),
]


@pytest.mark.parametrize("text, words, not_words", WORDING, ids=[w[1][:30] for w in WORDING])
def test_messages_say_each_thing_once_in_yaml_words(tmp_path, text, words, not_words):
    with pytest.raises(StudyError) as e:
        load_study(study_file(tmp_path, text))
    assert len(e.value.problems) == 1 and words in str(e.value) and not_words not in str(e.value), str(e.value)


@pytest.mark.parametrize("name, why", [("My Island!.yaml", "is not lower-case letters"),
                                       ("skull_island.yaml", "is the id of a built-in layout")])
def test_an_id_made_from_the_file_name_says_so(tmp_path, name, why):
    lagoon = (CONFIGS / "layouts" / "lagoon.yaml").read_text()
    path = study_file(tmp_path, BASE + f"game:\n  layout: 'layouts/{name}'\n")
    (tmp_path / "layouts" / name).write_text("\n".join(x for x in lagoon.splitlines() if not x.startswith("id:")))
    with pytest.raises(StudyError) as e:
        load_study(path)
    made = name.removesuffix(".yaml").replace(" ", "_").lower()
    assert f"the file gives no id, and the one made from its name ({name!r} -> {made!r}) {why}" in str(e.value)
    assert "rename the file or give an id with a line such as 'id: my_layout'" in str(e.value)
