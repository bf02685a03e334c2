"""Components in studies: `game.components` and `matrix: components.<name>`, checked like every key (file, line,
key, value, allowed), recorded in the manifest and in each games row, named in labels when they differ from the
rulebook's; the rulebook's values given explicitly play exactly the games of today; and a fuzz test: random
values either play or are refused in one paragraph naming the key, never a crash of an engine."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from test_sim_config import BASE, study_file
from test_sim_run import ISLAND_DIGEST, data_digest, make_study

from fi_cli.cli import main
from fi_cli.desert.components import Components as DesertComponents
from fi_cli.island.components import Components
from fi_cli.report.island.stats import skulls as island_skulls
from fi_cli.report.labels import describe_scenarios
from fi_cli.report.load import load_runs
from fi_cli.sim.api import load_study, run_study
from fi_cli.sim.errors import StudyError


def _with_components(path: Path, text: str) -> Path:
    """The study file with `text` (indented YAML lines) added to its game section."""
    study = path.read_text()
    head, _, rest = study.partition("game:\n")
    path.write_text(head + "game:\n" + text + rest)
    return path


def _study(tmp_path: Path, sub: str, **kw) -> Path:
    (tmp_path / sub).mkdir()
    return make_study(tmp_path / sub, **kw)


def _defaults_yaml(kind) -> str:
    values = {k: v for k, v in kind().to_dict().items() if v is not None}
    return "  components: " + json.dumps(values) + "\n"


# ------------------------------------------------------------------------------------------- the golden check
def test_the_rulebooks_components_given_play_exactly_todays_games(tmp_path):
    """Every component given at the rulebook's value: the same study hash and, byte for byte, the data pinned
    before components existed (test_sim_run.ISLAND_DIGEST)."""
    plain = load_study(_study(tmp_path, "a"))
    given = _with_components(_study(tmp_path, "b"), _defaults_yaml(Components))
    study = load_study(given)
    assert study.hash == plain.hash and study.resolved()["scenarios"] == plain.resolved()["scenarios"]
    out = run_study(study, tmp_path / "out", workers=1, progress=False)
    assert data_digest(out, without=("fair",)) == ISLAND_DIGEST  # `fair` came with the oracle (test_sim_run)


def test_the_rulebooks_desert_components_given_play_the_same_games(tmp_path):
    plain = load_study(_study(tmp_path, "a", games=3, game="desert"))
    given = load_study(_with_components(_study(tmp_path, "b", games=3, game="desert"),
                                        _defaults_yaml(DesertComponents)))
    assert given.hash == plain.hash
    a = run_study(plain, tmp_path / "outa", workers=1, progress=False)
    b = run_study(given, tmp_path / "outb", workers=1, progress=False)
    assert data_digest(a) == data_digest(b)


# ------------------------------------------------------------------------------------------- a study with them
STUDY = BASE + """\
game:
  players: 3
  components: {waters_rise: 4}
policy: heuristic
matrix:
  components.hand_limit: [5, 6]
  components.water_meter: [[2, 2, 3, 3, 3, 4, 4, 5, 5], [2, 3, 4, 5]]
"""


def test_components_in_scenarios_manifest_rows_and_labels(tmp_path):
    study = load_study(study_file(tmp_path, STUDY))
    assert [s.id for s in study.scenarios][:2] == [
        "components.hand_limit=5,components.water_meter=2+2+3+3+3+4+4+5+5",
        "components.hand_limit=5,components.water_meter=2+3+4+5"]
    last = study.scenarios[-1].setup.components
    assert (last.waters_rise, last.hand_limit, last.water_meter, last.skull) == (4, 6, (2, 3, 4, 5), 5)
    out = run_study(study, tmp_path / "out", workers=1, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    recorded = [s["components"] for s in manifest["study"]["scenarios"]]
    assert recorded[0] == {"waters_rise": 4, "hand_limit": 5, "water_meter": [2, 2, 3, 3, 3, 4, 4, 5, 5]}
    assert recorded[3] == {"waters_rise": 4, "hand_limit": 6, "water_meter": [2, 3, 4, 5]}
    games = pd.read_parquet(out / "games")
    assert list(games.columns[-3:]) == ["components.waters_rise", "components.hand_limit", "components.water_meter"]
    last_rows = games[games["scenario"] == study.scenarios[-1].id]
    assert set(last_rows["components.hand_limit"]) == {6} and set(last_rows["components.waters_rise"]) == {4}
    assert all(list(m) == [2, 3, 4, 5] for m in last_rows["components.water_meter"])
    assert (last_rows["final_water_level"] <= 5).all()
    info = describe_scenarios([manifest], ["t"], [[s.id for s in study.scenarios]]).info
    assert list(info["label"]) == [
        "Forbidden Island · Normal · waters rise 4",
        "Forbidden Island · Normal · water meter 2,3,4,5 · waters rise 4",
        "Forbidden Island · Normal · hand limit 6 · waters rise 4",
        "Forbidden Island · Normal · hand limit 6 · water meter 2,3,4,5 · waters rise 4"]
    # the report reads the meters: its water-level figures end at each scenario's skull
    skulls = island_skulls(load_runs([out]).games)
    assert [skulls[s.id] for s in study.scenarios] == [10, 5, 10, 5]
    assert CliRunner().invoke(main, ["check", str(out)]).exit_code == 0
    r = CliRunner().invoke(main, ["replay", str(out), "-s", study.scenarios[-1].id, "-g", "1", "-q"])
    assert r.exit_code == 0, r.output


def test_a_study_of_changed_desert_components(tmp_path):
    text = ("name: t\ngames: 2\nseed: 1\ngame:\n  name: desert\n  components: {canteens: {water_carrier: 6}}\n"
            "matrix:\n  components.storm_picks_up: [3, 2]\n  components.canteens: [{}, {explorer: 5}]\n")
    study = load_study(study_file(tmp_path, text))
    assert study.scenarios[3].id == "components.storm_picks_up=2,components.canteens=(explorer=5)"
    # a matrix value is the component's whole value: the roles it does not name keep the rulebook's canteens
    assert study.scenarios[3].setup.components.canteens == (3, 3, 5, 4, 4, 5)
    out = run_study(study, tmp_path / "out", workers=1, progress=False)
    games = pd.read_parquet(out / "games")
    assert list(games.columns[-2:]) == ["components.storm_picks_up", "components.canteens"]
    manifest = json.loads((out / "manifest.json").read_text())
    info = describe_scenarios([manifest], ["t"], [[s.id for s in study.scenarios]]).info
    assert list(info["label"]) == ["Forbidden Desert · Normal", "Forbidden Desert · Normal · canteens explorer 5",
                                   "Forbidden Desert · Normal · storm picks up 2",
                                   "Forbidden Desert · Normal · storm picks up 2 · canteens explorer 5"]


# ------------------------------------------------------------------------------------------- bad values
DESERT = "name: t\ngames: 3\nseed: 1\ngame:\n  name: desert\n"
ERRORS = [
    (BASE + "game:\n  components: {waters_rise: 0}\n", "game.components.waters_rise",
     ["study.yaml:5:", "waters_rise: 0 is not a whole number 1-20 (the cards that raise the water"]),
    (BASE + "game:\n  components:\n    sandbags: -1\n", "game.components.sandbags",
     ["study.yaml:6:", "-1 is not a whole number 0-20"]),
    (BASE + "game:\n  components: {hand_limit: 0}\n", "game.components.hand_limit", ["0 is not a whole number 1-30"]),
    (BASE + "game:\n  components: {hand_limit: 3}\n", "game.components.capture_cards",
     ["4 cards for a capture but a hand limit of 3", "allowed: 1-3"]),
    (BASE + "game:\n  components: {hand_limt: 6}\n", "game.components",
     ["unknown component 'hand_limt' (did you mean 'hand_limit'?)", "allowed: waters_rise"]),
    (BASE + "game:\n  components: [hand_limit]\n", "game.components", ["must be a mapping"]),
    (BASE + "game:\n  components: {cards_dealt: 7, hand_limit: 8}\n", "game.components.cards_dealt",
     ["7 cards for each of 4 players is more than the 25 cards", "allowed: 0-6"]),
    (BASE + "game:\n  difficulty: elite\n  components: {water_meter: [2, 3]}\n", "game.components.water_meter",
     ["cannot start at level 3"]),
    (BASE + "matrix:\n  components.waters_rise: [3, 0]\n", "matrix.components.waters_rise[1]",
     ["study.yaml:5:", "0 is not a whole number 1-20"]),
    (BASE + "matrix:\n  components.hand_limit: [5, 3]\n", "matrix.components.hand_limit[1]",
     ["component 'capture_cards': 4 cards for a capture but a hand limit of 3"]),
    (BASE + "matrix:\n  components.hand_limt: [5]\n", "matrix",
     ["unknown matrix key 'components.hand_limt'", "components.hand_limit"]),
    (BASE + "matrix:\n  players: [2, 4]\ngame:\n  components: {cards_dealt: 7, hand_limit: 8}\n", "matrix",
     ["scenario 'players=4': game.components.cards_dealt: 7 cards for each of 4 players"]),
    (DESERT + "  components: {storm_picks_up: 0}\n", "game.components.storm_picks_up", ["never end"]),
    (DESERT + "  components: {canteens: {pilot: 3}}\n", "game.components.canteens", ["unknown role 'pilot'"]),
    (DESERT + "  components: {wind_blows_1: 0, wind_blows_2: 0, wind_blows_3: 0, sun_beats_down: 0}\n",
     "game.components", ["holds 3 cards but the storm meter draws up to 6"]),
    (DESERT + "  difficulty: legendary\n  components: {storm_meter: [2, 3]}\n", "game.difficulty",
     ["not below the skull", "allowed: 1-2"]),
    (DESERT + "  components: {hand_limit: 6}\n", "game.components", ["unknown component 'hand_limit'"]),
]


@pytest.mark.parametrize("text, key, fragments", ERRORS, ids=[e[1] + "/" + e[2][0][:20] for e in ERRORS])
def test_bad_components_are_refused_naming_the_key(tmp_path, text, key, fragments):
    path = study_file(tmp_path, text)
    with pytest.raises(StudyError) as e:
        load_study(path)
    msg = str(e.value)
    assert msg.startswith(str(path)) and e.value.key == key, msg
    for f in fragments:
        assert f in msg, msg


# ------------------------------------------------------------------------------------------- fuzz
_JUNK = [-3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 25, 31, 100, 2.5, True, None, "four", [], [0], [1, 2], [3] * 25,
         {"explorer": 0}, {"water_carrier": 8}, {}]


def _fuzz_value(rng: random.Random, kind, name: str):
    """Near the default most of the time (so that some sets play), anything at all sometimes."""
    default = kind().value(name)
    if rng.random() < 0.3:
        return rng.choice(_JUNK)
    if isinstance(default, int):
        return default + rng.randint(-2, 2)
    if isinstance(default, dict):
        role = rng.choice(list(default))
        return {role: default[role] + rng.randint(-3, 3)}
    track = list(default or [2, 3, 3, 4, 4, 5, 6])
    return track[: rng.randint(1, len(track))] if rng.random() < 0.5 else [x + rng.randint(-2, 1) for x in track]


@pytest.mark.parametrize("game, kind", [("island", Components), ("desert", DesertComponents)])
def test_fuzz_components_play_or_are_refused_in_one_paragraph(tmp_path, game, kind):
    """Random sets of components: each study either loads, and then plays whole games with the random player
    and the heuristic, or is refused by `fi simulate` with exit code 2 and one paragraph naming the key under
    game.components (or the matrix value): never a traceback, never a game that raises."""
    rng = random.Random(48 if game == "island" else 49)
    names = list(kind.specs())
    played = refused = 0
    for i in range(40):
        values = {name: _fuzz_value(rng, kind, name) for name in rng.sample(names, rng.randint(1, 3))}
        policy = "heuristic" if i % 4 == 0 else "random"
        section = f"  name: {game}\n  players: {rng.choice([2, 3, 4])}\n"
        text = (f"name: f{i}\ngames: 2\nseed: {i}\npolicy: {policy}\ngame:\n{section}"
                f"  components: {json.dumps(values)}\n")
        path = tmp_path / f"f{i}.yaml"
        path.write_text(text)
        r = CliRunner().invoke(main, ["simulate", str(path), "--out", str(tmp_path / f"out{i}"), "-q", "-w", "1"])
        if r.exit_code == 0:
            played += 1
            continue
        assert r.exit_code == 2 and r.exception is None or isinstance(r.exception, SystemExit), r.output
        text = r.output.strip()
        assert text.startswith(f"Error: {path}:") and "\n" not in text and "Traceback" not in text, r.output
        assert ": game.components" in text or ": game.difficulty" in text or ": game.storm_start" in text, text
        refused += 1
    assert played >= 8 and refused >= 8, (played, refused)
