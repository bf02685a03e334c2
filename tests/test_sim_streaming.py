"""A study of any size: its chunks are made as they are played, the manifest records them as spans, and a run
that cannot fit on its disk is refused once its first chunk is played, with the estimate."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc

import pytest
from test_sim_run import IDS, assert_same, make_study, read_all

from fi_cli.sim import estimate
from fi_cli.sim.api import load_study, run_study
from fi_cli.sim.chunks import ChunkSet, chunks_of
from fi_cli.sim.runner import RunTooLarge, SimulationInterrupted, read_manifest

ABSURD = 99999999999999999999


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ref")
    return read_all(run_study(load_study(make_study(tmp, games=4, chunk=2)), tmp / "out", workers=1, progress=False))


def test_chunk_sets_keep_spans():
    done = ChunkSet([5, 3, 4, 9, 0])
    assert done.spans == [[0, 0], [3, 5], [9, 9]] and done.to_json() == [0, [3, 5], 9]
    done.add(1), done.add(2), done.add(8)
    assert done.to_json() == [[0, 5], [8, 9]] and len(done) == 8 and list(done) == [0, 1, 2, 3, 4, 5, 8, 9]
    assert 4 in done and 6 not in done and 10 not in done and -1 not in done
    assert ChunkSet.from_json([[0, 5], 7, 6]).to_json() == [[0, 7]]
    assert ChunkSet.from_json([2, 0, 1]).to_json() == [[0, 2]]  # a manifest before spans: plain numbers
    assert ChunkSet([0, 1, 2]).games(games=7, chunk_size=3) == 7  # the last chunk holds one game
    for bad in ("0-3", [[3, 1]], [[0, 1, 2]], [1.5], None):
        with pytest.raises(ValueError):
            ChunkSet.from_json(bad)


def test_chunks_are_made_as_they_are_played():
    chunks = chunks_of(ABSURD, 250, 3)
    assert [(c.scenario, c.number, c.start, c.stop) for c in (next(chunks) for _ in range(4))] == [
        (0, 0, 0, 250), (1, 0, 0, 250), (2, 0, 0, 250), (0, 1, 250, 500)]


def test_a_huge_study_plays_in_flat_memory_and_its_manifest_stays_small(tmp_path):
    study = load_study(make_study(tmp_path, games=10**18, chunk=1))
    out = tmp_path / "out"

    def stop_after_six(chunk, seen=[]):  # noqa: B006 - a counter across calls
        seen.append(chunk)
        if len(seen) == 6:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        with pytest.raises(SimulationInterrupted) as e:
            run_study(study, out, workers=1, progress=False, on_chunk=stop_after_six, check_space=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.games_done == 6 and e.value.games_total == 4 * 10**18
    assert peak < 50e6
    m = read_manifest(out)
    assert m["chunks_total"] == 4 * 10**18 and m["format"] == 2
    assert m["chunks_done"] == {IDS[0]: [[0, 1]], IDS[1]: [[0, 1]], IDS[2]: [0], IDS[3]: [0]}


def test_a_run_that_cannot_fit_is_refused_and_leaves_nothing(tmp_path, monkeypatch, reference):
    monkeypatch.setattr(estimate.shutil, "disk_usage", lambda path: type("Usage", (), {"free": 5000})())
    study = load_study(make_study(tmp_path, games=4, chunk=2))
    out = tmp_path / "run"
    with pytest.raises(RunTooLarge) as e:
        run_study(study, out, workers=1, progress=False)
    text = str(e.value)
    assert text.startswith(f"{out}: this run would not fit on its disk. Its first chunk measured ")
    assert "so the 14 games left need about " in text and "and the disk has 5.0 kB free" in text
    assert "--no-space-check" in text and text.endswith("Nothing of this run is kept.")
    assert not out.exists()
    run_study(study, out, workers=1, progress=False, check_space=False)  # the option plays it anyway
    assert_same(read_all(out), reference)


def test_a_resumed_run_that_cannot_fit_keeps_its_chunks(tmp_path, monkeypatch, reference):
    study = load_study(make_study(tmp_path, games=4, chunk=2))
    out = tmp_path / "run"

    def stop_after_three(chunk, seen=[]):  # noqa: B006 - a counter across calls
        seen.append(chunk)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted):
        run_study(study, out, workers=1, progress=False, on_chunk=stop_after_three)
    with monkeypatch.context() as m:
        m.setattr(estimate.shutil, "disk_usage", lambda path: type("Usage", (), {"free": 5000})())
        with pytest.raises(RunTooLarge, match="The chunks played are kept.$"):
            run_study(study, out, workers=1, progress=False, resume=True)
    assert read_manifest(out)["games_done"] == 8  # three chunks, and the first of the resumed run
    run_study(study, out, workers=1, progress=False, resume=True)
    assert_same(read_all(out), reference)


def test_an_absurd_study_ends_in_seconds_with_the_estimate(tmp_path):
    """The study of the issue, in a process whose memory is capped: exit 2, one paragraph, nothing left."""
    study = make_study(tmp_path, games=ABSURD, chunk=2)
    out = tmp_path / "out"
    cap = "import resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)); "
    r = subprocess.run([sys.executable, "-c", cap + "from fi_cli.cli import main; main()", "simulate", str(study),
                        "--out", str(out), "-w", "2", "-q"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"Error: {out}: this run would not fit on its disk.") and r.stderr.count("\n") == 1
    assert f"the {4 * ABSURD - 2:,} games left need about " in r.stderr and " TB and " in r.stderr
    assert "years on 2 workers" in r.stderr and not out.exists()


def test_sizes_and_durations_in_words():
    assert [estimate.size_text(n) for n in (12, 41_200_000, 2.1e24)] == ["12 bytes", "41.2 MB", "2.1e+12 TB"]
    assert [estimate.duration_text(s) for s in (45, 720, 3 * 3600, 4.5 * 86400)] == ["45 s", "12.0 min", "3.0 h",
                                                                                     "4.5 days"]
    assert estimate.duration_text(1e20) == "3.2e+12 years"
