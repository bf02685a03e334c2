"""Reading runs: the on-disk format, several runs, and every broken input giving a clear ReportError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fi_cli.report import island, stats
from fi_cli.report.build import compute
from fi_cli.report.errors import ReportError
from fi_cli.report.load import load_runs
from fi_cli.report.pairing import pair_scenarios
from fi_cli.report.synthetic import FakeGame, FakeScenario, write_run


def small(id: str, wins: int = 1, losses: int = 2) -> FakeScenario:
    games = [FakeGame("win", None, 8, 2, (3,), {"earth_stone": 4})] * wins
    games += [FakeGame("loss", "treasure_lost", 5, 2, (2,), {}, {"coral_palace": 3, "tidal_palace": 5})] * losses
    return FakeScenario(id, games)


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return write_run(tmp_path / "r1", [small("std normal/4p"), small("b")])


def test_reads_partitions_with_encoded_ids_as_plain_strings(run):
    assert (run / "games" / "scenario=std%20normal%2F4p").is_dir()
    data = load_runs([run])
    assert data.scenarios == ["std normal/4p", "b"]  # manifest order
    for df in (data.games, data.counts["water"], data.counts["exposure"]):  # (counts of turns and of tiles)
        assert pd.api.types.is_string_dtype(df["scenario"]) and not isinstance(df["scenario"].dtype,
                                                                                pd.CategoricalDtype)
        assert set(df["scenario"]) == {"std normal/4p", "b"}
    assert len(data.games) == 6 and data.warnings == []
    assert data.games["ending"].tolist().count("win") == 2


def test_shared_scenario_ids_are_kept_apart_and_warned(tmp_path):
    r1 = write_run(tmp_path / "one", [small("std")])
    r2 = write_run(tmp_path / "two", [small("std", wins=0, losses=3), small("other")], seed=1)
    data = load_runs([r1, r2])
    assert data.scenarios == ["one/std", "two/std", "two/other"]
    assert any("appear in several runs" in w for w in data.warnings)
    assert data.games.groupby("scenario").size().to_dict() == {"one/std": 3, "two/std": 3, "two/other": 3}
    assert data.games.groupby("scenario")["outcome"].apply(lambda o: (o == "win").sum()).to_dict() == {
        "one/std": 1, "two/std": 0, "two/other": 1}
    assert pair_scenarios(data, "one/std").single == "one/std"
    with pytest.raises(ReportError, match="several runs"):
        pair_scenarios(data, "std")  # ambiguous bare id
    assert pair_scenarios(data, "other").single == "two/other"  # unique bare id is fine


def test_different_rules_versions_warn_and_stay_apart(tmp_path):
    r1 = write_run(tmp_path / "old", [small("a")], rules_version="fi-rules-1")
    r2 = write_run(tmp_path / "new", [small("b")], rules_version="fi-rules-2")
    data = load_runs([r1, r2])
    assert data.scenarios == ["old/a", "new/b"]
    assert any("different rules versions" in w and "fi-rules-2" in w for w in data.warnings)
    assert data.info.set_index("scenario")["rules_version"].to_dict() == {"old/a": "fi-rules-1",
                                                                           "new/b": "fi-rules-2"}


def test_distinct_runs_with_same_rules_keep_plain_ids(tmp_path):
    data = load_runs([write_run(tmp_path / "x", [small("a")]), write_run(tmp_path / "y", [small("b")])])
    assert data.scenarios == ["a", "b"] and data.warnings == []


def test_single_scenario_no_wins_and_no_losses_compute(tmp_path):
    for name, sc in (("nowin", small("a", wins=0, losses=3)), ("noloss", small("a", wins=3, losses=0))):
        data = load_runs([write_run(tmp_path / name, [sc])])
        tables = compute(data, data.scenarios[0])
        rates = tables["win_rates"].iloc[0]
        assert rates["test"] == "baseline" and rates["games"] == 3
        assert rates["win_rate"] == (0.0 if name == "nowin" else 1.0)
        assert set(tables["water_levels"]["outcome"]) == {"loss" if name == "nowin" else "win"}
        stages = tables["loss_stage"].set_index("stage")
        assert stages.loc["won", "games"] == (0 if name == "nowin" else 3)
        if name == "noloss":
            assert stages["share_of_losses"].isna().all() and tables["water_at_loss"].empty


def test_a_scenario_not_played_yet_stops_the_report_or_is_left_out_of_a_partial_one(run):
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["scenarios"].append({"id": "pending", "values": {}})
    manifest["chunks_done"]["pending"] = []
    manifest["complete"] = False
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ReportError) as e:
        load_runs([run])
    assert f"{run}: incomplete: 6 of 9 games are recorded as played" in str(e.value)
    assert f"fi simulate STUDY.yaml --out {run} --games 3 --seed 0 --resume" in str(e.value)
    assert "--partial to report on the 6 of 9 games" in str(e.value)
    data = load_runs([run], partial=True)
    assert "pending" not in data.scenarios and data.partial_note == "PARTIAL: 6 of 9 games"
    assert any("'pending'" in w and "no sound chunk" in w for w in data.warnings)


def test_missing_run_dir(tmp_path):
    with pytest.raises(ReportError, match="no such run directory"):
        load_runs([tmp_path / "nope"])


def test_missing_manifest(run):
    (run / "manifest.json").unlink()
    with pytest.raises(ReportError, match=r"r1: is not a run of `fi simulate` \(no manifest\.json\)"):
        load_runs([run])


def test_manifest_not_json(run):
    (run / "manifest.json").write_text("{not json")
    with pytest.raises(ReportError, match="not valid JSON"):
        load_runs([run])


def test_empty_dataset(run):
    shutil.rmtree(run / "games")
    (run / "games").mkdir()
    with pytest.raises(ReportError, match=r"games/scenario=b/part-00000\.parquet: missing \(chunk 0 of 'b'"):
        load_runs([run])


def test_dataset_with_zero_rows(run):
    for part in (run / "games").iterdir():
        f = part / "part-00000.parquet"
        pq.write_table(pq.read_table(f).slice(0, 0), f)
    with pytest.raises(ReportError, match="holds 0 game rows, expected games 0 to 2"):
        load_runs([run])


def test_missing_dataset_dir(run):
    shutil.rmtree(run / "tiles")
    with pytest.raises(ReportError, match=r"tiles/scenario=b/part-00000\.parquet: missing"):
        load_runs([run])


def test_corrupted_parquet_file_is_named(run):
    bad = run / "turns" / "scenario=b" / "part-00000.parquet"
    bad.write_bytes(b"PAR1 this is not parquet at all")
    with pytest.raises(ReportError, match=r"scenario=b/part-00000\.parquet: cannot be read"):
        load_runs([run])


def test_a_deleted_part_file_stops_the_report_and_partial_leaves_its_chunk_out(run):
    (run / "tiles" / "scenario=b" / "part-00000.parquet").unlink()
    with pytest.raises(ReportError, match="incomplete or its files do not agree"):
        load_runs([run])
    data = load_runs([run], partial=True)
    assert data.scenarios == ["std normal/4p"] and data.partial_note == "PARTIAL: 3 of 6 games"
    for df in (data.games, *(c for c in data.counts.values() if len(c))):  # the whole chunk is left out
        assert set(df["scenario"]) == {"std normal/4p"}


def test_an_unlisted_chunk_is_not_read(run):
    extra = run / "games" / "scenario=b" / "part-00001.parquet"
    shutil.copy(run / "games" / "scenario=b" / "part-00000.parquet", extra)
    with pytest.raises(ReportError, match=r"part-00001\.parquet: not recorded as done in the manifest"):
        load_runs([run])
    data = load_runs([run], partial=True)
    assert len(data.games) == 6 and not data.partial  # every game of the study is there, the extra file unread


def test_missing_column_is_named(run):
    f = run / "games" / "scenario=b" / "part-00000.parquet"
    pq.write_table(pq.read_table(f).drop_columns(["outcome"]), f)
    with pytest.raises(ReportError, match="missing column.*outcome"):
        load_runs([run])


def test_bad_outcome_values(run):
    f = run / "games" / "scenario=b" / "part-00000.parquet"
    t = pq.read_table(f)
    t = t.set_column(t.schema.get_field_index("outcome"), "outcome", pa.array(["draw"] * t.num_rows))
    pq.write_table(t, f)
    with pytest.raises(ReportError, match="outcome must be 'win' or 'loss'"):
        load_runs([run])


def test_temporary_files_are_ignored(run):
    tmp = run / "games" / "scenario=b" / ".part-00001.parquet"
    tmp.write_bytes(b"half written")
    assert len(load_runs([run]).games) == 6


def test_all_null_loss_cause_partition_merges_with_strings(tmp_path):
    # A partition of wins only stores loss_cause as a null-typed column; it must merge with string ones.
    run = write_run(tmp_path / "r", [small("wins", wins=2, losses=0), small("losses", wins=0, losses=2)])
    f = run / "games" / "scenario=wins" / "part-00000.parquet"
    t = pq.read_table(f)
    t = t.set_column(t.schema.get_field_index("loss_cause"), "loss_cause", pa.nulls(t.num_rows))
    pq.write_table(t, f)
    data = load_runs([run])
    assert stats.outcome_table(data.games, data.scenarios, island.ENDINGS).set_index("scenario")["win"].to_dict() == {
        "wins": 2, "losses": 0}
