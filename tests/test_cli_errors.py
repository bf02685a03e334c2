"""One exit code for bad input across every command: 2, with one paragraph and never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fi_cli.cli import main

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    (d / "study.yaml").write_text("name: t\ngames: 1\nseed: 1\ncolour: red\n")
    (d / "not_a_run").mkdir()
    (d / "island.yaml").write_text("shape: |\n  XXXX\n")
    (d / "garbage.json").write_text("{'format'")
    (d / "wrong.json").write_text(json.dumps({"format": "fi-position-1", "layout": {"rows": ["XX"], "pins": ["a"]}}))
    CliRunner().invoke(main, ["play", "--seed", "3", "--quiet", "--save-positions", str(d / "pos")])
    return d


# (arguments with {d} for the directory of bad files, words the message must contain)
BAD = [
    (["simulate", "{d}/study.yaml"], "unknown key"),
    (["simulate", "{d}/nope.yaml"], "file not found"),
    (["simulate", "{d}/study.yaml", "--workers", "0"], "Invalid value for '--workers'"),
    (["report", "{d}/nope"], "no such run directory"),
    (["report", "{d}/not_a_run"], "is not a run of `fi simulate`"),
    (["replay", "{d}/not_a_run", "-s", "0", "-g", "0"], "not a run directory"),
    (["replay", "{d}/nope", "-s", "0", "-g", "0"], "does not exist"),
    (["position", "show", "{d}/garbage.json"], "not valid JSON"),
    (["position", "show", "{d}/wrong.json"], "key 'layout.pins': expected an object, got [\"a\"]"),
    (["position", "legal", "{d}/nope.json"], "does not exist"),
    (["position", "apply", "{d}/pos/0001.json", "teleport(p0)"], "unknown action"),
    (["position", "apply", "{d}/pos/0001.json", "move(p0, atlantis)"], "not a tile"),
    (["layouts", "show", "atlantis"], "unknown layout"),
    (["layouts", "check", "{d}/island.yaml"], "has 4 cells"),
    (["layouts", "check", "{d}/nope.yaml"], "file not found"),
    (["policies", "telepath"], "unknown policy"),
    (["play", "--difficulty", "hard"], "difficulty"),
    (["play", "--layout", "{d}/island.yaml"], "has 4 cells"),
]


@pytest.mark.parametrize("args, words", BAD, ids=[" ".join(a[:2]) + f" ({w})" for a, w in BAD])
def test_bad_input_exits_2_with_one_paragraph(files, args, words):
    r = CliRunner().invoke(main, [a.format(d=files) for a in args])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and words in r.output, r.output
    error = r.output[r.output.index("Error: "):]
    assert "\n\n" not in error.strip(), error  # one paragraph
