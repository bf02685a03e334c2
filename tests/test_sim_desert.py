"""Forbidden Desert studies: the `game:` keys and every config error, the data (schema, metadata, what the rows
say), the same data whatever the workers, resume after Ctrl-C or a kill, replay, and the Python API."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from test_sim_run import DESERT_IDS, _cli, _wait_for_games, assert_same, make_study, read_all

from fi_cli.cli import main
from fi_cli.sim.api import load_run, load_study, run_study
from fi_cli.sim.errors import StudyError
from fi_cli.sim.games.desert import SCHEMAS
from fi_cli.sim.runner import RunDirError, SimulationInterrupted, read_manifest
from fi_cli.sim.tables import DATASETS

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
COLUMNS = {  # as the README documents them
    "games": ["scenario", "game", "seed", "layout", "difficulty", "storm_start", "sand_supply", "players", "roles",
              "first_player", "policy", "fair", "rules_version", "outcome", "loss_cause", "loss_causes", "turns",
              "final_storm_level", "parts_found", "parts_collected", "tiles_excavated", "sand_on_tiles", "ran_dry"],
    "turns": ["scenario", "game", "turn", "player", "role", "actions", "storm_cards", "storm_level", "sand_on_tiles",
              "sand_supply", "tiles_blocked", "blocked", "storm_cell", "tiles_excavated", "water", "pawn_cells",
              "parts_found", "parts_collected"],
    "tiles": ["scenario", "game", "tile", "kind", "row", "col", "times_moved", "peak_sand", "sand", "excavated_turn"],
}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, dict[str, pd.DataFrame]]:
    tmp = tmp_path_factory.mktemp("ref")
    out = run_study(load_study(make_study(tmp, game="desert")), tmp / "out", workers=1, progress=False)
    return out, read_all(out)


# --- the study -----------------------------------------------------------------------------------------------

def test_a_desert_study_and_its_scenarios(tmp_path):
    study = load_study(make_study(tmp_path, game="desert"))
    assert study.game == "desert" and [s.id for s in study.scenarios] == DESERT_IDS
    far = study.scenarios[3]
    assert far.game == "desert" and far.layout.pins == {"r0c0": "crash_site", "r4c4": "launch_pad"}
    assert (far.setup.players, far.setup.start_level, far.setup.sand_supply, far.difficulty) == (3, 6, 40, "6")
    assert study.scenarios[0].difficulty == "novice"
    assert type(study).from_resolved(study.resolved()).resolved() == study.resolved()
    assert far.to_dict()["game"] == "desert" and study.resolved()["game"] == "desert"
    text = "name: t\ngames: 3\nseed: 1\ngame: {name: desert}\nmatrix: {sand_supply: [40, 20], players: [2, 5]}\n"
    (tmp_path / "s.yaml").write_text(text)
    s = load_study(tmp_path / "s.yaml")
    assert [x.setup.sand_supply for x in s.scenarios] == [40, 40, 20, 20] and s.scenarios[1].setup.players == 5
    assert s.scenarios[0].difficulty == "normal" and s.scenarios[0].layout.id == "forbidden_desert"


def test_the_example_study_loads():
    study = load_study(CONFIGS / "desert.yaml")
    assert study.game == "desert" and [s.id for s in study.scenarios] == [
        "storm_start=1,sand_supply=40", "storm_start=1,sand_supply=24", "storm_start=5,sand_supply=40",
        "storm_start=5,sand_supply=24"]
    assert [s.setup.start_level for s in study.scenarios] == [1, 1, 5, 5]
    assert study.labels == {"storm_start": {"1": "storm at 1 (Novice)", "5": "storm at 5"},
                            "sand_supply": {"40": "40 sand (the rules)", "24": "24 sand"}}


def _study(tmp_path: Path, text: str) -> Path:
    (tmp_path / "layouts").mkdir(exist_ok=True)
    for name in ("lagoon.yaml", "desert_far_pad.yaml", "desert_near_pad.yaml"):
        (tmp_path / "layouts" / name).write_text((CONFIGS / "layouts" / name).read_text())
    path = tmp_path / "study.yaml"
    path.write_text(text)
    return path


BASE = "name: t\ngames: 3\nseed: 1\n"
D = BASE + "game:\n  name: desert\n"
M = D + "matrix:\n  layout: [forbidden_desert, layouts/desert_far_pad.yaml]\n  storm_start: [1, 5]\nlabels:\n"
# every error of the island's config tests (test_sim_config.ERRORS), in a desert study; then the desert's own
ERRORS = [
    (D + "players: 4\n", "players", ["unknown key", "allowed: name, description, games"]),
    (D + "  colour: red\n", "game.colour", ["unknown key", "allowed: layout, difficulty, storm_start, sand_supply"]),
    ("name: t\nseed: 1\ngame: {name: desert}\n", "games", ["missing"]),
    ("name: t\ngames: many\nseed: 1\ngame: {name: desert}\n", "games", ["valid integer", "'many'"]),
    (D + "  difficulty: nightmare\n", "game.difficulty", ["unknown difficulty", "'nightmare'", "novice, normal"]),
    (D + "  players: 6\n", "game.players", ["less than or equal to 5", "6"]),
    (D + "  roles: [climber, wizard, navigator, explorer]\n", "game.roles", ["unknown role 'wizard'", "archeologist"]),
    (D + "  roles: [climber, navigator]\n", "game", ["2 roles for 4 players"]),
    (D + "  roles: [climber, climber, navigator, explorer]\n", "game.roles", ["one player only"]),
    (D + "  first_player: 7\n", "game", ["not a seat"]),
    (D + "  rules: {sandstorm: true}\n", "game.rules", ["unknown rule variant 'sandstorm'", "thirst_at_zero"]),
    (D + "  rules: {thirst_at_zero: maybe}\n", "game.rules", ["thirst_at_zero", "'maybe'", "allowed: false, true"]),
    (D + "  layout: atlantis\n", "game.layout", ["unknown desert board 'atlantis'", "forbidden_desert"]),
    (D + "  layout: layouts/missing.yaml\n", "game.layout", ["missing.yaml", "file not found"]),
    (D + "policy: genius\n", "policy", ["unknown policy 'genius'", "random"]),
    (D + "policy: planner\n", "policy", ["unknown policy 'planner'"]),  # an island player
    (D + "policy: {name: random, depth: 3}\n", "policy", ["no parameter 'depth'"]),
    (D + "matrix:\n  colour: [red]\n", "matrix", ["unknown matrix key 'colour'", "layout, difficulty, storm_start"]),
    (D + "matrix:\n  difficulty: [normal, hard]\n", "matrix.difficulty[1]", ["unknown difficulty", "'hard'"]),
    (D + "matrix:\n  layout: [forbidden_desert, layouts/missing.yaml]\n", "matrix.layout[1]", ["file not found"]),
    (D + "matrix:\n  rules.thirst_at_zero: [true, 2]\n", "matrix.rules.thirst_at_zero[1]", ["cannot be 2"]),
    (D + "matrix:\n  policy: [random, genius]\n", "matrix.policy[1]", ["unknown policy 'genius'"]),
    (D + "matrix:\n  layout: [forbidden_desert, forbidden_desert]\n", "matrix.layout", ["same id"]),
    (D + "matrix:\n  players: [2, 3]\n  roles: [[climber, navigator]]\n", "matrix",
     ["scenario 'players=3,roles=climber+navigator'", "2 roles for 3 players"]),
    (D + "  players: 2\n  players: 3\n", "game.players", ["given twice (first on line 6)"]),
    ('name: ".."\ngames: 3\nseed: 1\ngame: {name: desert}\n', "name", ["must be a plain name"]),
    (M + "  players: {4: four}\n", "labels.players", ["not in the matrix", "allowed: layout, storm_start"]),
    (M + "  layout: {atlantis: A}\n", "labels.layout.atlantis", ["not a value of this matrix key", "far_pad"]),
    (M + "  storm_start: {5: Hard, 1: Hard}\n", "labels.storm_start", ["share the label 'Hard'"]),
    # the desert's own
    (BASE + "game:\n  name: chess\n", "game.name", ["unknown game", "'chess'", "allowed: island, desert"]),
    (D + "matrix:\n  game: [island, desert]\n", "matrix.game", ["one study plays one game"]),
    (D + "  sand_supply: -1\n", "game.sand_supply", ["greater than or equal to 0"]),
    (D + "  sand_supply: lots\n", "game.sand_supply", ["valid integer", "'lots'"]),
    (D + "  storm_start: 0\n", "game.storm_start", ["a mark of the storm meter", "13 with 2 players"]),
    (D + "  players: 2\n  storm_start: 14\n", "game.storm_start",
     ["study.yaml:7: game.storm_start: storm_start 14 is not below the skull of the 2-player", "allowed: 1-13"]),
    (D + "  difficulty: elite\n  storm_start: 5\n", "game.storm_start",
     ["difficulty (elite) and storm_start (5) both set"]),
    (D + "  players: 3\nmatrix:\n  storm_start: [1, 15]\n", "matrix", ["scenario 'storm_start=15'", "1-14"]),
    (D + "  layout: layouts/lagoon.yaml\n", "game.layout", ["is a Forbidden Island layout", "one study plays one"]),
    (BASE + "game:\n  layout: layouts/desert_far_pad.yaml\n", "game.layout", ["is a Forbidden Desert board"]),
    (BASE + "game:\n  sand_supply: 30\n", "game.sand_supply",
     ["unknown key ('sand_supply' is a key of Forbidden Desert; this study plays Forbidden Island",
      "give game.name: desert"]),
    (BASE + "matrix:\n  storm_start: [1, 2]\n", "matrix", ["unknown matrix key 'storm_start' ('storm_start' is a key "
                                                           "of Forbidden Desert"]),
]


@pytest.mark.parametrize("text, key, fragments", ERRORS, ids=[f"{i}-{e[1]}" for i, e in enumerate(ERRORS)])
def test_config_errors(tmp_path, text, key, fragments):
    path = _study(tmp_path, text)
    with pytest.raises(StudyError) as e:
        load_study(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:"), msg  # file:line
    assert e.value.key == key, msg
    for f in fragments:
        assert f in msg, msg


def test_errors_point_at_the_line_and_exit_2(tmp_path):
    path = _study(tmp_path, D + "  players: 2\n  sand_supply: -3\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    assert e.value.line == 7 and f"{path}:7: game.sand_supply" in str(e.value)
    r = CliRunner().invoke(main, ["simulate", str(path), "--out", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 2 and r.output.startswith(f"Error: {path}:7:") and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()


BOARD = ("game: desert\nshape: |\n  C X X X X\n  X X X X X\n  X X * X X\n  X X X X X\n  X X X X L\n"
         "pins:\n  C: crash_site\n")
BOARD_ERRORS = [
    (BOARD + "  L: launch_pad\n", 0, "ok: {f}: desert board 'board', 5x5 with the storm in the centre, 2 pinned"),
    (BOARD.replace("X X * X X", "X X X X X") + "  L: launch_pad\n", 2, "shape: the storm '*' stands on the centre"),
    (BOARD.replace("  X X X X L\n", "") + "  L: launch_pad\n", 2, "shape: draw the desert as 5 rows of 5 marks"),
    (BOARD, 2, "shape: mark 'L' in the shape has no entry in pins"),
    (BOARD + "  L: oasis\n", 2, ":10: pins.L: unknown tile (got 'oasis'); allowed: crash_site, launch_pad, well"),
    (BOARD + "  L: launch_pad\n  Q: well\n", 2, "pins.Q: is not a mark drawn in the shape"),
    (BOARD.replace("X X X X L", "X X X L L") + "  L: crash_site\n", 2, "crash_site is pinned to 3 cells, but the game"),
    (BOARD.replace("game: desert\n", "") + "  L: launch_pad\n", 2, "the island has 25 cells"),  # no game: an island
    (BOARD.replace("game: desert", "game: chess") + "  L: launch_pad\n", 2, ":1: game: unknown key"),
]


@pytest.mark.parametrize("text, code, words", BOARD_ERRORS)
def test_fi_layouts_checks_desert_boards(tmp_path, text, code, words):
    f = tmp_path / "board.yaml"
    f.write_text(text)
    r = CliRunner().invoke(main, ["layouts", "check", str(f)])
    assert r.exit_code == code and words.format(f=f) in r.output and "Traceback" not in r.output, r.output


def test_fi_layouts_lists_and_draws_both_kinds():
    r = CliRunner().invoke(main, ["layouts"])
    assert "forbidden_island" in r.output and "forbidden_desert" in r.output
    r = CliRunner().invoke(main, ["layouts", "show", str(CONFIGS / "layouts" / "desert_far_pad.yaml")])
    assert r.exit_code == 0 and "  C X X X X\n  X X X X X\n  X X * X X\n  X X X X X\n  X X X X L" in r.output
    assert "C = crash_site" in r.output and "L = launch_pad" in r.output  # the file's own letters


# --- the data ------------------------------------------------------------------------------------------------

def test_schema_manifest_and_what_the_rows_say(reference):
    out, data = reference
    m = json.loads((out / "manifest.json").read_text())
    assert (m["game"], m["rules_version"]) == ("desert", "fd-rules-1")
    for ds in DATASETS:
        assert list(data[ds].columns) == COLUMNS[ds] == SCHEMAS[ds].names, ds
        meta = pq.read_schema(next((out / ds).rglob("*.parquet"))).metadata
        assert meta[b"fi.game"] == b"desert" and meta[b"fi.rules_version"] == b"fd-rules-1"
        assert meta[b"fi.study_hash"].decode() == m["study_hash"]
    games, turns, tiles = data["games"], data["turns"], data["tiles"]
    assert len(games) == 24 and len(turns) == games["turns"].sum() and len(tiles) == 24 * len(games)
    assert set(games["loss_cause"].dropna()) <= {"thirst", "buried", "storm"}
    assert (games["loss_cause"].isna() == (games["outcome"] == "win")).all()
    assert games["storm_start"].tolist() == [1] * 6 + [6] * 6 + [1] * 6 + [6] * 6
    assert (games["ran_dry"].map(len) > 0).tolist() == (games["loss_cause"] == "thirst").tolist()
    last = turns.groupby(["scenario", "game"]).tail(1).set_index(["scenario", "game"])
    g = games.set_index(["scenario", "game"])
    for col, final in (("storm_level", "final_storm_level"), ("sand_on_tiles", "sand_on_tiles"),
                       ("parts_found", "parts_found"), ("tiles_excavated", "tiles_excavated")):
        assert (last[col] == g[final]).all(), col
    assert (turns["sand_on_tiles"] + turns["sand_supply"] == 48).all()
    assert (turns["water"].map(len) == 3).all() and (turns["pawn_cells"].map(len) == 3).all()
    dug = tiles.groupby(["scenario", "game"])["excavated_turn"].count()
    assert (dug == g["tiles_excavated"]).all()
    # on the far_pad board the tile that starts in the south-east corner is the Launch Pad, known from the start
    far = tiles[tiles["scenario"].str.startswith("layout=far_pad")]
    assert set(far.loc[far["tile"] == "r4c4", "kind"]) == {"launch_pad"}
    assert set(far.loc[far["tile"] == "r0c0", "kind"]) == {"crash_site"}


def test_same_data_whatever_the_workers_and_chunks(reference, tmp_path):
    _, ref = reference
    out = run_study(load_study(make_study(tmp_path, chunk=1, game="desert")), tmp_path / "out", workers=2,
                    progress=False)
    assert_same(read_all(out), ref)


def test_resume_after_ctrl_c(reference, tmp_path):
    _, ref = reference
    study = load_study(make_study(tmp_path, chunk=4, game="desert"))

    def stop_after_three(chunk, seen=[]):  # noqa: B006 - a counter across calls
        seen.append(chunk)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted):
        run_study(study, tmp_path / "out", workers=1, progress=False, on_chunk=stop_after_three)
    assert not read_manifest(tmp_path / "out")["complete"]
    run_study(study, tmp_path / "out", workers=1, progress=False, resume=True)
    assert_same(read_all(tmp_path / "out"), ref)


def test_resume_after_kill(tmp_path):
    study = make_study(tmp_path, games=16, chunk=1, game="desert")
    ref = read_all(run_study(load_study(study), tmp_path / "ref", workers=1, progress=False))
    out = tmp_path / "out"
    proc = _cli("simulate", str(study), "--out", str(out), "--workers", "2", "-q", start_new_session=True)
    _wait_for_games(out, 4, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not read_manifest(out)["complete"]
    r = CliRunner().invoke(main, ["simulate", str(study), "--out", str(out), "--resume", "-q", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert_same(read_all(out), ref)


def test_a_run_of_the_other_game_is_not_resumed(reference, tmp_path):
    out, _ = reference
    island = load_study(make_study(tmp_path))
    with pytest.raises(RunDirError, match="holds a run of Forbidden Desert and this study plays Forbidden Island"):
        run_study(island, out, workers=1, resume=True)


def test_replay_and_a_tampered_log(reference, tmp_path):
    out, _ = reference
    r = CliRunner().invoke(main, ["replay", str(out), "--scenario", DESERT_IDS[3], "--game", "5"])
    assert r.exit_code == 0 and "Forbidden Desert, 3 players" in r.output and "matches the log" in r.output
    import shutil

    copy = Path(shutil.copytree(out, tmp_path / "copy"))
    f = next((copy / "tiles").glob(f"scenario={DESERT_IDS[0]}")) / "part-00000.parquet"
    t = pq.read_table(f)
    peak = t["peak_sand"].to_pylist()
    peak[0] += 1
    pq.write_table(t.set_column(t.schema.get_field_index("peak_sand"), "peak_sand", pa.array(peak, pa.int32())), f)
    r = CliRunner().invoke(main, ["replay", str(copy), "-s", DESERT_IDS[0], "-g", "0", "-q"])
    assert r.exit_code == 1 and "tiles.peak_sand differs at row 0" in r.output


def test_python_api(reference):
    out, ref = reference
    run = load_run(out)
    assert run.game == "desert" and "desert" in repr(run)
    assert list(run.games["scenario"].cat.categories) == DESERT_IDS
    water = run.read("turns", columns=["scenario", "game", "turn", "water"], scenarios=[DESERT_IDS[1]])
    assert len(water) == (ref["turns"]["scenario"] == DESERT_IDS[1]).sum()
    assert run.study.game == "desert" and run.study.scenarios[2].layout.id == "far_pad"
