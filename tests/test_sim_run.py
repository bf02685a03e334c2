"""Running studies: schema, determinism across worker counts, resume after Ctrl-C or a kill, replay, API."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.island.tiles import TILES, TREASURE_TILES, TREASURES
from fi_cli.sim.api import load_run, load_study, run_study
from fi_cli.sim.games.island import SCHEMAS
from fi_cli.sim.runner import RunDirError, read_manifest
from fi_cli.sim.tables import DATASETS

LAYOUTS = Path(__file__).resolve().parent.parent / "configs" / "layouts"
STUDY = """\
name: tiny
games: {games}
seed: 11
chunk_size: {chunk}
game:
  players: 3
matrix:
  layout: [skull_island, layouts/lagoon.yaml]
  difficulty: [novice, 5]
"""
DESERT_STUDY = """\
name: tiny
games: {games}
seed: 11
chunk_size: {chunk}
game:
  name: desert
  players: 3
matrix:
  layout: [forbidden_desert, layouts/desert_far_pad.yaml]
  storm_start: [1, 6]
"""
DESERT_IDS = ["layout=forbidden_desert,storm_start=1", "layout=forbidden_desert,storm_start=6",
              "layout=far_pad,storm_start=1", "layout=far_pad,storm_start=6"]
REQUIRED = {
    "games": ["scenario", "game", "seed", "layout", "difficulty", "players", "roles", "policy", "outcome",
              "loss_cause", "turns", "final_water_level", "treasures_captured", "tiles_sunk",
              "rules_version", "loss_causes", "first_player", "lost_treasure", "drowned_tile"],
    "turns": ["scenario", "game", "turn", "player", "role", "actions", "water_level", "flood_draws", "waters_rise",
              "tiles_flooded", "tiles_sunk", "treasures_captured", "hand_sizes", "treasures"],
    "tiles": ["scenario", "game", "tile", "row", "col", "times_flooded", "sunk_turn"],
}
IDS = ["layout=skull_island,difficulty=novice", "layout=skull_island,difficulty=5",
       "layout=lagoon,difficulty=novice", "layout=lagoon,difficulty=5"]


def tiles_sunk_in(tiles: pd.DataFrame, key: tuple[str, int]) -> set[str]:
    one = tiles[(tiles["scenario"] == key[0]) & (tiles["game"] == key[1])]
    return set(one.loc[one["sunk_turn"].notna(), "tile"])


def make_study(tmp_path: Path, games: int = 6, chunk: int = 4, game: str = "island") -> Path:
    """A study of 4 scenarios (IDS, or DESERT_IDS for the desert), with a layout file."""
    (tmp_path / "layouts").mkdir(exist_ok=True)
    for name in ("lagoon.yaml", "desert_far_pad.yaml"):
        (tmp_path / "layouts" / name).write_text((LAYOUTS / name).read_text())
    p = tmp_path / "study.yaml"
    p.write_text((STUDY if game == "island" else DESERT_STUDY).format(games=games, chunk=chunk))
    return p


def read_all(out: Path) -> dict[str, pd.DataFrame]:
    """Each dataset in a canonical row order, scenario as plain text (for comparing runs)."""
    keys = {"games": ["scenario", "game"], "turns": ["scenario", "game", "turn"], "tiles": ["scenario", "game", "tile"]}
    frames = {}
    for ds in DATASETS:
        df = pd.read_parquet(out / ds)
        df["scenario"] = df["scenario"].astype(str)
        frames[ds] = df.sort_values(keys[ds]).reset_index(drop=True)
    return frames


def assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    for ds in DATASETS:
        pd.testing.assert_frame_equal(a[ds], b[ds])


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, dict[str, pd.DataFrame]]:
    """One uninterrupted single-worker run, shared by the tests that compare against it."""
    tmp = tmp_path_factory.mktemp("ref")
    out = run_study(load_study(make_study(tmp)), tmp / "out", workers=1, progress=False)
    return out, read_all(out)


def test_schema_and_manifest(reference):
    out, data = reference
    m = json.loads((out / "manifest.json").read_text())
    for ds in DATASETS:
        assert set(REQUIRED[ds]) <= set(data[ds].columns), ds
        schema = pa.parquet.read_schema(next((out / ds).rglob("*.parquet")))
        assert schema.names == SCHEMAS[ds].names
        assert schema.metadata[b"fi.study_hash"].decode() == m["study_hash"]
        assert schema.metadata[b"fi.rules_version"].decode() == m["rules_version"]
    games, turns, tiles = data["games"], data["turns"], data["tiles"]
    assert len(games) == 4 * 6 and len(tiles) == 24 * len(games)
    assert len(turns) == games["turns"].sum()  # one row per player-turn
    assert set(games["outcome"]) <= {"win", "loss"}
    assert games.loc[games.outcome == "win", "loss_cause"].isna().all()
    assert games.loc[games.outcome == "loss", "loss_cause"].notna().all()
    assert all(c in lc for c, lc in zip(games.loss_cause.dropna(), games.loss_causes[games.loss_cause.notna()],
                                        strict=True))
    assert (games["players"] == 3).all() and games["roles"].map(len).eq(3).all()
    assert set(games["difficulty"]) == {"novice", "5"}
    assert games["seed"].dtype == "int64" and games["seed"].nunique() == len(games)
    assert isinstance(turns["actions"].iloc[0][0], str) and len(turns["hand_sizes"].iloc[0]) == 3
    last = turns.groupby(["scenario", "game"]).tail(1).set_index(["scenario", "game"])
    g = games.set_index(["scenario", "game"])
    assert (last["water_level"] == g["final_water_level"]).all()
    assert (last["tiles_sunk"] == g["tiles_sunk"]).all()
    sunk = tiles.groupby(["scenario", "game"])["sunk_turn"].count()
    assert (sunk == g["tiles_sunk"]).all()
    # what a loss took: set exactly when its cause is, and the tiles named did sink in the game's last turn
    for cause, col in (("treasure_lost", "lost_treasure"), ("player_drowned", "drowned_tile")):
        assert (games[col].notna() == games["loss_causes"].map(lambda c, cause=cause: cause in c)).all(), col
    assert games["lost_treasure"].notna().any() and set(games["lost_treasure"].dropna()) <= set(TREASURES)
    at_end = tiles.merge(games[["scenario", "game", "turns", "lost_treasure", "drowned_tile"]])
    at_end = at_end[at_end["sunk_turn"] == at_end["turns"]]
    for sg, row in games.set_index(["scenario", "game"]).iterrows():
        last = set(at_end.loc[(at_end["scenario"] == sg[0]) & (at_end["game"] == sg[1]), "tile"])
        if pd.notna(row["drowned_tile"]):
            assert row["drowned_tile"] in last
        if pd.notna(row["lost_treasure"]):
            pair = {TILES[i] for i in TREASURE_TILES[TREASURES.index(row["lost_treasure"])]}
            assert pair & last and tiles_sunk_in(tiles, sg) >= pair
    for key in ("name", "study_hash", "root_seed", "package_version", "rules_version", "scenarios"):
        assert key in m
    assert [s["id"] for s in m["scenarios"]] == IDS and m["scenarios"][2]["values"] == {
        "layout": "lagoon", "difficulty": "novice"}
    assert m["complete"] and m["games_done"] == 24 and m["chunks_done"][IDS[0]] == [[0, 1]]


def test_scenario_ids_round_trip_through_pandas(reference):
    out, _ = reference
    col = pd.read_parquet(out / "games")["scenario"]
    assert sorted(set(col.astype(str))) == sorted(IDS)
    assert all(isinstance(v, str) for v in col.tolist())
    one = pd.read_parquet(next((out / "turns").glob("scenario=layout=lagoon,difficulty=5")))
    assert set(one["scenario"].astype(str)) == {"layout=lagoon,difficulty=5"}
    run = load_run(out)
    assert list(run.games["scenario"].cat.categories) == IDS
    assert len(run.read("turns", columns=["turn"], scenarios=[IDS[1]])) == (
        run.turns["scenario"] == IDS[1]).sum()


def test_same_data_whatever_the_workers_and_chunks(reference, tmp_path):
    _, ref = reference
    study = make_study(tmp_path, chunk=1)
    out = run_study(load_study(study), tmp_path / "out", workers=2, progress=False)
    assert_same(read_all(out), ref)


def test_refuses_to_overwrite_and_resume_is_a_no_op_when_complete(reference, tmp_path):
    out, ref = reference
    study = load_study(make_study(tmp_path))
    with pytest.raises(RunDirError, match="already holds this study"):
        run_study(study, out, workers=1)
    with pytest.raises(RunDirError, match="different study"):
        run_study(study.replace(seed=12), out, workers=1, resume=True)
    assert run_study(study, out, workers=1, resume=True, progress=False) == out
    assert_same(read_all(out), ref)
    (tmp_path / "junk" / "games").mkdir(parents=True)
    with pytest.raises(RunDirError, match="no manifest"):
        run_study(study, tmp_path / "junk", workers=1)
    run_study(study, tmp_path / "junk", workers=1, overwrite=True, progress=False)
    assert_same(read_all(tmp_path / "junk"), ref)


def test_resume_refuses_a_run_of_another_rules_version(reference, tmp_path):
    out, _ = reference
    old = tmp_path / "old"
    shutil.copytree(out, old)
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["rules_version"] = "fi-rules-1"
    (old / "manifest.json").write_text(json.dumps(manifest))
    study = load_study(make_study(tmp_path))
    with pytest.raises(RunDirError, match="made under the island rules 'fi-rules-1' and this fi plays 'fi-rules-2'"):
        run_study(study, old, workers=1, resume=True)
    r = CliRunner().invoke(main, ["simulate", str(make_study(tmp_path)), "--out", str(old), "--resume"])
    assert r.exit_code == 2 and "cannot be resumed" in r.output and "Traceback" not in r.output


def test_resume_after_ctrl_c(reference, tmp_path):
    """A Ctrl-C in the middle keeps finished chunks; --resume completes the same data."""
    _, ref = reference
    study = load_study(make_study(tmp_path, chunk=1))
    out = tmp_path / "out"

    def interrupt_after_three(chunk, seen=[]):  # noqa: B006 - a counter across calls
        seen.append(chunk)
        if len(seen) == 3:
            raise KeyboardInterrupt

    from fi_cli.sim.runner import SimulationInterrupted

    with pytest.raises(SimulationInterrupted) as e:
        run_study(study, out, workers=1, progress=False, on_chunk=interrupt_after_three)
    assert e.value.games_done == 3 and read_manifest(out)["complete"] is False
    assert len(pd.read_parquet(out / "games")) == 3
    run_study(study, out, workers=1, progress=False, resume=True)
    assert_same(read_all(out), ref)


def _cli(*args: str, **kw) -> subprocess.Popen:
    # as from a terminal: Ctrl-C raises KeyboardInterrupt in the child even when the tests run as a background job
    # (a non-interactive shell starts those with SIGINT ignored; the child inherits that and Python then installs
    # no handler, so the study would play to its end)
    return subprocess.Popen([sys.executable, "-c", "from fi_cli.cli import main; main()", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kw)


def _wait_for_games(out: Path, n: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + 120  # a cluster starting on a busy machine
    while time.time() < deadline and proc.poll() is None:
        m = read_manifest(out) if (out / "manifest.json").exists() else None
        if m and m["games_done"] >= n:
            return
        time.sleep(0.01)
    raise AssertionError(f"run ended or stalled before {n} games: {proc.poll()}")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_resume_after_kill(tmp_path, workers):
    """SIGKILL loses no finished chunk; --resume gives the data of an uninterrupted run."""
    study = make_study(tmp_path, games=20, chunk=1)  # many one-game chunks: time to kill it in the middle
    ref = read_all(run_study(load_study(study), tmp_path / "ref", workers=1, progress=False))
    out = tmp_path / "out"
    proc = _cli("simulate", str(study), "--out", str(out), "--workers", workers, "-q", start_new_session=True)
    _wait_for_games(out, 4, proc)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: the workers die too
    proc.wait()
    m = read_manifest(out)
    assert not m["complete"] and 4 <= m["games_done"] < 80
    r = CliRunner().invoke(main, ["simulate", str(study), "--out", str(out), "--resume", "-q", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert_same(read_all(out), ref)
    assert not list(out.rglob(".*.tmp-*"))


def test_resume_removes_temp_files_left_by_a_kill(tmp_path):
    """A kill between writing a temp file and renaming it leaves the file; --resume removes it (manifest too)."""
    study = make_study(tmp_path, games=4, chunk=2)
    out = tmp_path / "out"
    run_study(load_study(study), out, workers=1, progress=False)
    m = read_manifest(out)
    m["complete"] = False
    (out / "manifest.json").write_text(json.dumps(m))
    left = [out / ".manifest.json.tmp-999", out / "games" / f"scenario={IDS[0]}" / ".part-00001.parquet.tmp-999"]
    for f in left:
        f.write_text("half written")
    r = CliRunner().invoke(main, ["simulate", str(study), "--out", str(out), "--resume", "-q", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert not [f for f in left if f.exists()]


def test_sigint_message_tells_how_to_resume(tmp_path):
    study = make_study(tmp_path, games=400, chunk=1)
    out = tmp_path / "out"
    proc = _cli("simulate", str(study), "--out", str(out), "--workers", "1")
    _wait_for_games(out, 2, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=90)  # generous: a loaded CI machine once needed over 30 s
    assert proc.returncode == 130, err
    assert "Interrupted" in err and "--resume" in err and "Traceback" not in err
    # Ctrl-C may land between writing a chunk and recording it: that chunk is simply played again on resume.
    assert 0 <= len(pd.read_parquet(out / "games")) - read_manifest(out)["games_done"] <= 1


def test_cli_simulate_and_replay(tmp_path):
    study = make_study(tmp_path, games=3, chunk=2)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["simulate", str(study), "--out", str(out), "--games", "2", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(out / "games")) == 8
    # the closing table: one row per scenario by its short label
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["scenario", "games", "win", "rate", "[95%", "CI]", "main", "loss", "cause", "turns"]
    assert [line[:24].strip() for line in lines[2:6]] == ["Skull Island · Novice", "Skull Island · level 5",
                                                          "Lagoon · Novice", "Lagoon · level 5"]
    assert all(" 2  " in line and "%, " in line for line in lines[2:6])
    r = CliRunner().invoke(main, ["replay", str(out), "--scenario", IDS[3], "--game", "1"])
    assert r.exit_code == 0, r.output
    assert "Turn 1" in r.output and "matches the log" in r.output
    r = CliRunner().invoke(main, ["replay", str(out), "--scenario", "2", "--game", "0", "-q"])
    assert r.exit_code == 0 and "matches the log" in r.output
    r = CliRunner().invoke(main, ["replay", str(out), "--scenario", "nope", "--game", "0"])
    assert r.exit_code == 2 and "no such scenario" in r.output and IDS[0] in r.output
    r = CliRunner().invoke(main, ["replay", str(out), "--scenario", IDS[0], "--game", "5"])
    assert r.exit_code == 2 and "no such game" in r.output


def test_replay_detects_a_tampered_log(tmp_path):
    import pyarrow.parquet as pq

    out = run_study(load_study(make_study(tmp_path, games=2, chunk=2)), tmp_path / "out", workers=1, progress=False)
    f = next((out / "turns").glob("scenario=layout=lagoon,difficulty=5")) / "part-00000.parquet"
    t = pq.read_table(f)
    water = t["water_level"].to_pylist()
    water[0] += 1
    pq.write_table(t.set_column(t.schema.get_field_index("water_level"), "water_level",
                                pa.array(water, pa.int32())), f)
    r = CliRunner().invoke(main, ["replay", str(out), "-s", IDS[3], "-g", "0", "-q"])
    assert r.exit_code == 1 and "turns.water_level differs at row 0" in r.output


def test_replay_refuses_a_game_of_other_rules(tmp_path, monkeypatch):
    from fi_cli.sim.games import island

    out = run_study(load_study(make_study(tmp_path, games=1, chunk=1)), tmp_path / "out", workers=1, progress=False)
    played_under = island.RULES_VERSION
    monkeypatch.setattr(island, "RULES_VERSION", "fi-rules-99")
    r = CliRunner().invoke(main, ["replay", str(out), "-s", IDS[0], "-g", "0", "-q"])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert (f"game 0 of {IDS[0]!r} was played under the rules {played_under} and this fi plays fi-rules-99, so a "
            "replay would be another game: it is refused") in r.output


def data_digest(out: Path, without: tuple[str, ...] = ()) -> str:
    """A digest of every Parquet file of a run: its path, schema, schema metadata (all but the package
    version) and every value, the columns ``without`` left out. Independent of the pyarrow that wrote the bytes."""
    import hashlib

    import pyarrow.parquet as pq

    h = hashlib.sha256()
    for f in sorted(p for ds in DATASETS for p in (out / ds).rglob("*.parquet")):
        table = pq.read_table(f, partitioning=None)
        table = table.drop_columns([c for c in without if c in table.column_names])
        meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()
                if k != b"fi.package_version"}
        h.update(str(f.relative_to(out)).encode())
        h.update(json.dumps(meta, sort_keys=True).encode())
        h.update(table.schema.remove_metadata().to_string().encode())
        h.update(json.dumps(table.to_pydict(), sort_keys=True, default=str).encode())
    return h.hexdigest()


def test_island_data_is_unchanged(reference):
    """The island's data, byte for byte in every value and every metadata entry, as before Forbidden Desert
    joined the simulator (pinned on main before that change)."""
    out, _ = reference
    # the games' `fair` column came later (the clairvoyant oracle): every other value is as it was, and it is true
    assert data_digest(out, without=("fair",)) == ISLAND_DIGEST
    assert pd.read_parquet(out / "games", columns=["fair"])["fair"].all()


ISLAND_DIGEST = "d857c392fcb568bd4c73b3112b1a369d1c1cc45a3ee76ab50cca04e586ca9a98"


class _ShrinkingBackend:
    """Chunks finish one per wait; the window is 4, then 1 once a worker is lost with 4 chunks in flight."""

    def __init__(self) -> None:
        self.windows = iter([4])
        self.played: list[int] = []

    def window(self) -> int:
        return next(self.windows, 1)

    def submit(self, chunk):
        return chunk

    def wait(self, futures):
        first = min(futures, key=lambda c: c.number)
        return {first}, futures - {first}

    def result(self, future):
        self.played.append(future.number)
        return future

    def cancel(self, futures) -> None: ...

    def stop(self, futures, record) -> None: ...


def test_a_window_that_shrinks_below_the_chunks_in_flight_starts_none_until_they_finish():
    from fi_cli.sim.runner import Chunk, _play

    backend, recorded = _ShrinkingBackend(), []
    _play(backend, [Chunk(0, n, n, n + 1) for n in range(6)], recorded.append)
    assert backend.played == [c.number for c in recorded] == list(range(6))
