"""Layout files: parsing, validation messages, drawing, and the `fi layouts` commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.sim.errors import LayoutFileError
from fi_cli.sim.layout_files import draw_layout, layout_from_dict, layout_to_dict, layout_warnings, load_layout

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
RING = """\
..XFXX..
.XX..XX.
XX....XX
XX....XX
.XX..XX.
..XXXX..
"""


def write(tmp_path: Path, text: str, name: str = "isle.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def ring_file(tmp_path: Path, shape: str = RING, pins: str = "pins:\n  F: fools_landing\n", extra: str = "") -> Path:
    body = "name: Ring\nshape: |\n" + "".join(f"  {r}\n" for r in shape.splitlines()) + pins + extra
    return write(tmp_path, body)


def test_example_layouts_load_and_round_trip():
    lay = load_layout("layouts/lagoon.yaml", base=CONFIGS)
    assert lay.id == "lagoon" and len(lay.cells) == 24
    assert lay.pins == {"fools_landing": (0, 3)}
    assert layout_from_dict(layout_to_dict(lay)) == lay
    assert layout_warnings(lay) == []
    twin = load_layout(str(CONFIGS / "layouts" / "twin_isles.yaml"))
    assert twin.id == "twin_isles" and len(twin.pins) == 3
    assert "2 parts" in layout_warnings(twin)[0]


def test_built_in_id_and_leading_sea_is_trimmed(tmp_path):
    assert load_layout("skull_island").id == "skull_island"
    shifted = "\n".join("  .." + r for r in RING.splitlines())
    lay = load_layout_file_text(tmp_path, shifted)
    assert min(r for r, _ in lay.cells) == 0 and min(c for _, c in lay.cells) == 0
    assert lay.pins["fools_landing"] == (0, 3)


def load_layout_file_text(tmp_path, shape):
    return load_layout(str(ring_file(tmp_path, shape)))


@pytest.mark.parametrize(
    "shape, pins, extra, expected",
    [
        (RING.replace("..XFXX..", "..XF...."), "pins:\n  F: fools_landing\n", "", "has 22 cells"),
        (RING, "pins:\n  F: fools_landng\n", "", "unknown tile"),
        (RING.replace(".XX..XX.", ".XG..XX.", 1), "pins:\n  F: fools_landing\n  G: fools_landing\n", "",
         "pinned twice"),
        (RING, "pins:\n  Q: fools_landing\n", "", "not a mark drawn in the shape"),
        (RING, "", "", "mark 'F' in the shape has no entry in pins"),
        (RING.replace(".XX..XX.", ".XF..XX.", 1), "pins:\n  F: fools_landing\n", "", "used on more than one cell"),
        (RING, "pins:\n  F: fools_landing\n", "colour: blue\n", "unknown key"),
        (RING, "pins:\n  F: fools_landing\n", "id: skull_island\n", "built-in layout"),
        (RING, "pins:\n  F: fools_landing\n", "name: Ring Two\n", "isle.yaml:11: name: given twice (first on line 1)"),
        (RING, "pins:\n  F: fools_landing\n  F: watchtower\n", "",
         "isle.yaml:11: pins.F: given twice (first on line 10)"),
    ],
)
def test_layout_file_errors(tmp_path, shape, pins, extra, expected):
    path = ring_file(tmp_path, shape, pins, extra)
    with pytest.raises(LayoutFileError) as e:
        load_layout(str(path))
    assert expected in str(e.value)
    assert str(path) in str(e.value)


def test_missing_file_and_bad_yaml(tmp_path):
    with pytest.raises(LayoutFileError, match="file not found"):
        load_layout(str(tmp_path / "nope.yaml"))
    with pytest.raises(LayoutFileError, match="not valid YAML"):
        load_layout(str(write(tmp_path, "shape: [unclosed\n")))


def test_draw_marks_pins():
    text = draw_layout(load_layout("layouts/lagoon.yaml", base=CONFIGS))
    assert "A = fools_landing" in text and ". . X A X X . ." in text


def test_cli_layouts_list_show_check(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["layouts"])
    assert r.exit_code == 0 and "skull_island" in r.output and "forbidden_island" in r.output
    r = runner.invoke(main, ["layouts", "show", "bone_island"])
    assert r.exit_code == 0 and "X X X X X X X X" in r.output
    r = runner.invoke(main, ["layouts", "check", str(CONFIGS / "layouts" / "lagoon.yaml")])
    assert r.exit_code == 0 and "ok:" in r.output
    r = runner.invoke(main, ["layouts", "check", str(CONFIGS / "layouts" / "twin_isles.yaml")])
    assert r.exit_code == 0 and "warning" in r.output and "2 parts" in r.output
    bad = ring_file(tmp_path, RING.replace("..XFXX..", "..XF...."))
    r = runner.invoke(main, ["layouts", "check", str(bad)])
    assert r.exit_code == 2 and "has 22 cells" in r.output and "Traceback" not in r.output
    r = runner.invoke(main, ["layouts", "show", "atlantis"])
    assert r.exit_code == 2 and "unknown layout 'atlantis'" in r.output


@pytest.mark.parametrize("file, drawn, legend", [
    ("lagoon.yaml", ". . X F X X . .", ["F = fools_landing"]),
    ("desert_far_pad.yaml", "C X X X X", ["C = crash_site", "L = launch_pad"]),
])
def test_layouts_show_keeps_the_files_pin_letters(file, drawn, legend):
    r = CliRunner().invoke(main, ["layouts", "show", str(CONFIGS / "layouts" / file)])
    assert r.exit_code == 0 and drawn in r.output and all(line in r.output for line in legend), r.output
    assert "A = " not in r.output
