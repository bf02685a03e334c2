"""Generated islands, layout features with known answers, and studies over a folder of layouts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.island.layout_features import articulation_cells, coast_cells, layout_features
from fi_cli.island.layout_generator import canonical, generate_layouts, grow
from fi_cli.island.layouts import Layout, get_layout
from fi_cli.sim.config import load_study
from fi_cli.sim.errors import StudyError
from fi_cli.sim.layout_files import layout_file_text, load_layout

LINE = Layout.from_rows("line", ["X" * 24],
                        pins={"fools_landing": (0, 0), "temple_of_the_moon": (0, 5), "temple_of_the_sun": (0, 20)})
RING = Layout.from_rows("ring", ["XXXXXXX", "X.....X", "X.....X", "X.....X", "X.....X", "X.....X", "XXXXXXX"],
                        pins={"fools_landing": (0, 0), "temple_of_the_moon": (6, 6)})
# Two blobs of 12 and 11 cells joined by the one tile at (1, 4): it and the two cells it touches are bottlenecks.
BLOBS = Layout.from_rows("blobs", ["XXXX.XXXX", "XXXXXXXXX", "XXXX.XXX."])


def test_features_of_a_straight_line():
    f = layout_features(LINE)
    # mean distance on a path of n cells is (n + 1) / 3
    assert f["coast"] == 24 and f["diameter"] == 23 and f["mean_distance"] == pytest.approx(25 / 3)
    assert f["articulation"] == 22 and f["parts"] == 1
    assert f["landing_to_centre"] == pytest.approx(11.5)
    assert f["landing_to_temple_of_the_moon"] == 5 and f["landing_to_temple_of_the_sun"] == 20
    assert f["landing_to_treasure_tiles"] == pytest.approx(12.5)
    assert f["earth_stone_apart"] == 15 and f["treasure_tiles_apart"] == 15


def test_features_of_a_ring():
    f = layout_features(RING)
    # a cycle of 24: from any cell, two cells at each distance 1..11 and one at 12
    assert f["coast"] == 24 and f["diameter"] == 12 and f["mean_distance"] == pytest.approx(144 / 23)
    assert f["articulation"] == 0 and f["parts"] == 1
    assert f["landing_to_centre"] == pytest.approx(3 * 2 ** 0.5)  # a corner of the 7x7 square, centre (3, 3)
    assert f["landing_to_temple_of_the_moon"] == 12
    assert "earth_stone_apart" not in f and "treasure_tiles_apart" not in f  # only one tile of it is pinned


def test_features_of_two_blobs_joined_by_one_tile():
    assert articulation_cells(BLOBS.cells) == [(1, 3), (1, 4), (1, 5)]
    f = layout_features(BLOBS)
    assert f["articulation"] == 3 and f["parts"] == 1 and f["diameter"] == 10  # (0, 0) to (0, 8)
    inland = {(1, 1), (1, 2), (1, 3), (1, 5), (1, 6), (1, 7)}  # the bridge itself has sea above and below
    assert f["coast"] == 18 and set(coast_cells(BLOBS.cells)) == set(BLOBS.cells) - inland
    assert "landing_to_centre" not in f  # nothing pinned


def test_features_of_an_island_in_two_parts():
    twin = load_layout("layouts/twin_isles.yaml", base=Path(__file__).resolve().parent.parent / "configs")
    f = layout_features(twin)
    assert f["parts"] == 2 and f["articulation"] == 0 and f["diameter"] == 5  # two blocks 3 wide, 4 high
    assert f["landing_to_temple_of_the_moon"] is None  # across the strait: no walk
    assert f["earth_stone_apart"] == 1


def test_standard_island_features():
    f = layout_features(get_layout("forbidden_island"))
    assert (f["coast"], f["diameter"], f["articulation"], f["parts"]) == (12, 6, 0, 1)


def test_generation_is_deterministic_distinct_and_prefix_stable():
    a = generate_layouts(30, 5, pins=["fools_landing"])
    assert a == generate_layouts(30, 5, pins=["fools_landing"])
    assert a[:10] == generate_layouts(10, 5, pins=["fools_landing"])
    assert a != generate_layouts(30, 6, pins=["fools_landing"])
    assert len({canonical(lay.cells) for lay in a}) == 30 and len({lay.id for lay in a}) == 30
    assert all(len(lay.components()) == 1 for lay in a)
    assert all(lay.name and lay.id == lay.name.lower().replace(" ", "_") for lay in a)


def test_canonical_form_ignores_rotation_and_reflection():
    shape = ((0, 0), (0, 1), (1, 0), (2, 0))  # an L
    rotated = tuple((c, -r) for r, c in shape)
    mirrored = tuple((r, -c) for r, c in shape)
    assert canonical(shape) == canonical(rotated) == canonical(mirrored)
    assert canonical(shape) != canonical(((0, 0), (0, 1), (0, 2), (1, 1)))  # a T


@pytest.mark.parametrize("compactness, connected", [(0.0, True), (1.0, True), (8.0, True), (1.0, False)])
def test_grown_shapes_have_24_cells_and_compactness_shapes_them(compactness, connected):
    rng = np.random.default_rng(1)
    shapes = [grow(rng, compactness, connected) for _ in range(20)]
    assert all(len(set(s)) == 24 for s in shapes)
    if compactness == 0:  # a tree: never a 2x2 block
        assert not any({(r, c + 1), (r + 1, c), (r + 1, c + 1)} <= set(s) for s in shapes for r, c in s)
    if connected:
        assert all(layout_features(Layout("s", s))["parts"] == 1 for s in shapes)
    else:
        assert any(layout_features(Layout("s", s))["parts"] > 1 for s in shapes)
    coast = np.mean([layout_features(Layout("s", s))["coast"] for s in shapes])
    assert {0.0: coast > 21, 8.0: coast < 17}.get(compactness, True)


def test_written_files_read_back_as_the_same_islands(tmp_path):
    for lay in generate_layouts(5, 2, pins=["fools_landing", "temple_of_the_sun"]):
        path = tmp_path / f"{lay.id}.yaml"
        path.write_text(layout_file_text(lay, {"fools_landing": "F", "temple_of_the_sun": "S"}, comment="a\nb"))
        assert load_layout(str(path)) == lay


def test_cli_generate_writes_files_that_pass_check(tmp_path):
    runner = CliRunner()
    out = tmp_path / "gen"
    args = ["layouts", "generate", "12", "--seed", "4", "--pin", "F=fools_landing", "--compactness", "2", "--out"]
    r = runner.invoke(main, [*args, str(out)])
    assert r.exit_code == 0, r.output
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 12
    r = runner.invoke(main, ["layouts", "check", *map(str, files)])
    assert r.exit_code == 0 and r.output.count("ok:") == 12
    again = runner.invoke(main, [*args, str(tmp_path / "again")])
    assert again.exit_code == 0
    assert [f.read_text() for f in files] == [f.read_text().replace("/again", "/gen")
                                              for f in sorted((tmp_path / "again").glob("*.yaml"))]
    r = runner.invoke(main, [*args, str(out)])
    assert r.exit_code == 2 and "already holds 12 layout file(s)" in r.output
    r = runner.invoke(main, ["layouts", "show", str(files[0])])
    assert r.exit_code == 0 and "articulation" in r.output and "landing_to_centre" in r.output


@pytest.mark.parametrize("option, message", [
    (["--pin", "F"], "give MARK=TILE"), (["--pin", "X=fools_landing"], "other than X"),
    (["--pin", "F=atlantis"], "unknown tile 'atlantis'"), (["--compactness", "8..0.5"], "0 < LOW <= HIGH"),
    (["--compactness", "round"], "a number >= 0")])
def test_cli_generate_refuses_bad_options(tmp_path, option, message):
    r = CliRunner().invoke(main, ["layouts", "generate", "2", "--seed", "1", *option, "--out", str(tmp_path)])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_a_compactness_range_draws_each_islands_own():
    islands = generate_layouts(12, 3, compactness=(0.3, 12.0), description="{compactness}")
    drawn = [float(lay.description) for lay in islands]
    assert all(0.3 <= c <= 12 for c in drawn) and min(drawn) < 1 < max(drawn)


def _folder_study(tmp_path: Path, layout: str, extra: str = "") -> Path:
    for lay in generate_layouts(3, 9, pins=["fools_landing"]):
        (tmp_path / "gen").mkdir(exist_ok=True)
        (tmp_path / "gen" / f"{lay.id}.yaml").write_text(layout_file_text(lay))
    path = tmp_path / "study.yaml"
    path.write_text(f"name: s\ngames: 4\nseed: 1\ngame:\n  layout: {layout}\n{extra}")
    return path


def test_a_study_over_a_folder_or_a_glob_has_one_scenario_per_layout(tmp_path):
    study = load_study(_folder_study(tmp_path, "{dir: gen}"))
    ids = sorted(p.stem for p in (tmp_path / "gen").glob("*.yaml"))
    assert [s.id for s in study.scenarios] == [f"layout={i}" for i in ids]
    assert set(study.resolved()["features"]) == set(ids)
    assert study.resolved()["features"][ids[0]]["parts"] == 1
    glob = load_study(_folder_study(tmp_path, "{glob: \"gen/*.yaml\"}"))
    assert glob.hash == study.hash
    matrix = load_study(_folder_study(tmp_path, "skull_island",
                                      "matrix:\n  layout: [skull_island, {dir: gen}]\n  difficulty: [novice, elite]\n"))
    assert len(matrix.scenarios) == 8 and matrix.scenarios[2].id == f"layout={ids[0]},difficulty=novice"


@pytest.mark.parametrize("layout, extra, key, message", [
    ("{dir: nowhere}", "", "game.layout", "folder 'nowhere' does not exist"),
    ("{dir: empty}", "", "game.layout", "folder 'empty' holds no layout file"),
    ("{glob: \"gen/*.yml\"}", "", "game.layout", "pattern 'gen/*.yml' matches no layout file"),
    ("{folder: gen}", "", "game.layout", "{dir: FOLDER}"),
    ("skull_island", "matrix:\n  layout: [skull_island, {dir: gen}]\n", "matrix.layout[1]", "zz_bad.yaml"),
])
def test_layout_set_errors_name_the_folder_or_the_file(tmp_path, layout, extra, key, message):
    path = _folder_study(tmp_path, layout, extra)
    (tmp_path / "empty").mkdir()
    if "zz_bad" in message:
        (tmp_path / "gen" / "zz_bad.yaml").write_text("shape: |\n  XXXX\n")
    with pytest.raises(StudyError) as e:
        load_study(path)
    assert e.value.key == key and message in str(e.value)
