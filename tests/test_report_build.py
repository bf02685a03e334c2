"""`fi report` end to end on tiny synthetic runs: every figure rendered, one self-contained page, edge cases."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from PIL import Image

from fi_cli.cli import main
from fi_cli.report.build import build_report, compute, default_out_dir, make_figures
from fi_cli.report.island import FIGURES
from fi_cli.report.load import load_runs
from fi_cli.report.pairing import pair_scenarios
from fi_cli.report.synthetic import FakeGame, FakeScenario, random_scenario, write_run

TABLES = ["outcomes", "win_rates", "loss_stage", "survival", "island_left", "water_levels", "water_level_reached",
          "water_at_loss", "tile_risk_cells", "tile_risk_tiles", "loss_cells", "lost_treasures", "treasure_captures",
          "summary"]


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.links += [a[k] for k in ("href", "src") if k in a]
        if "id" in a:
            self.ids.add(a["id"])


@pytest.fixture(scope="module")
def cli_report(tmp_path_factory) -> tuple[Path, str]:
    """The CLI on a tiny three-scenario run, PNG + SVG, as a user would call it."""
    base = tmp_path_factory.mktemp("cli")
    run = write_run(base / "runs" / "tiny", [
        random_scenario("standard-normal", 24, win_rate=0.3, seed=1),
        random_scenario("standard-elite", 24, win_rate=0.1, start_level=3, seed=2, difficulty="elite"),
        random_scenario("shadows", 24, win_rate=0.2, layout="island_of_shadows",
                        rows=("XXXXXX",) * 4, seed=3),
    ], shuffle_tiles=True)
    out = base / "report"
    result = CliRunner().invoke(main, ["report", str(run), "--out", str(out), "--baseline", "standard-elite"])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_cli_prints_summary_and_writes_every_file(cli_report):
    out, output = cli_report
    assert "win rate [95% CI]" in output and "compared with" in output and "water at end" in output
    assert "Compared: every scenario against standard · Elite" in output
    assert f"report: {out / 'index.html'}" in output
    for f in FIGURES:
        for ext in ("png", "svg"):
            assert (out / f"{f.name}.{ext}").stat().st_size > 1000, f"{f.name}.{ext}"
        with Image.open(out / f"{f.name}.png") as im:
            assert im.width > 600 and im.height > 250
    for t in TABLES:
        assert (out / f"{t}.csv").exists(), t
    assert (out / "summary.md").exists()


def test_the_page_is_one_self_contained_file(cli_report):
    out, _ = cli_report
    page = (out / "index.html").read_text()
    parser = Links()
    parser.feed(page)
    images = [link for link in parser.links if link.startswith("data:image/png;base64,")]
    assert len(images) == len(FIGURES)
    for link in parser.links:  # nothing outside the file: images inlined, every other link to a part of the page
        assert link.startswith("data:") or (link.startswith("#") and link[1:] in parser.ids), link
    assert "<script" not in page and "Method notes" in page and "Newcombe" in page and "Holm" in page


def test_markdown_summary_links_resolve(cli_report):
    out, _ = cli_report
    md = (out / "summary.md").read_text()
    targets = re.findall(r"\]\(([^)]+)\)", md)
    assert {f"{f.name}.png" for f in FIGURES} <= set(targets)
    assert all((out / t).is_file() for t in targets)
    assert "| scenario |" in md and "| standard · Elite |" in md and "Method notes" in md


def test_baseline_is_honoured(cli_report):
    out, _ = cli_report
    rates = pd.read_csv(out / "win_rates.csv").set_index("scenario")
    assert rates["baseline"].eq("standard-elite").all() and rates["baseline_label"].eq("standard · Elite").all()
    assert rates.loc["standard-elite", "test"] == "baseline" and rates["p_holm"].notna().sum() == 2


@pytest.mark.parametrize("case", ["single scenario, no wins", "no losses"])
def test_edge_case_reports_render(tmp_path, case):
    if case == "no losses":
        games = [FakeGame("win", None, 20 + i, 2, (5, 9), {t: 3 + i for t in
                          ("earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice")})
                 for i in range(4)]
        scenarios = [FakeScenario("a", games), FakeScenario("b", games)]
    else:
        scenarios = [random_scenario("only", 12, win_rate=0.0, seed=5)]
    run = write_run(tmp_path / "run", scenarios)
    report = build_report([run], tmp_path / "out", formats=("png",))
    for f in FIGURES:
        assert (tmp_path / "out" / f"{f.name}.png").stat().st_size > 1000
    assert report.sections[0].summary["games"].tolist() == [f"{len(s.games)}" for s in scenarios]


def test_default_out_dir_is_reports_run_name(tmp_path):
    assert default_out_dir([tmp_path / "runs" / "islands"]) == Path("reports/islands")
    assert default_out_dir([tmp_path / "a", tmp_path / "b"]) == Path("reports/a+b")


def skip_figures(monkeypatch) -> None:
    """Rendering is covered above; tests of the rest skip it to keep the test file fast."""
    monkeypatch.setattr("fi_cli.report.build.make_figures", lambda *a, **k: {})
    monkeypatch.setattr("fi_cli.report.build.figure_list", lambda data: [])


def test_several_runs_warn_on_the_terminal(tmp_path, monkeypatch):
    skip_figures(monkeypatch)
    r1 = write_run(tmp_path / "one", [random_scenario("std", 6, seed=1)], rules_version="fi-rules-1")
    r2 = write_run(tmp_path / "two", [random_scenario("std", 6, seed=2)], rules_version="fi-rules-2")
    result = CliRunner().invoke(main, ["report", str(r1), str(r2), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "warning: runs were made under different rules versions" in result.output
    assert "one: standard · Normal" in result.output and "two: standard · Normal" in result.output
    assert "Warning:" in (tmp_path / "out" / "index.html").read_text()


@pytest.mark.parametrize("setup, message", [
    ("missing", "no such run directory"),
    ("no manifest", "no manifest.json"),
    ("empty", "missing (chunk 0 of 'a' is recorded as done)"),
    ("corrupted", "cannot be read"),
    ("bad baseline", "unknown baseline 'nope': give a scenario (a) or matrix values KEY=VALUE; allowed: layout="),
])
def test_cli_errors_are_clear_messages_not_tracebacks(tmp_path, setup, message):
    run = write_run(tmp_path / "run", [FakeScenario("a", [FakeGame()])])
    args = ["report", str(run), "--out", str(tmp_path / "out")]
    if setup == "missing":
        args[1] = str(tmp_path / "nope")
    elif setup == "no manifest":
        (run / "manifest.json").unlink()
    elif setup == "empty":
        for f in (run / "games").rglob("*.parquet"):
            f.unlink()
    elif setup == "corrupted":
        next((run / "tiles").rglob("*.parquet")).write_bytes(b"garbage")
    else:
        args += ["--baseline", "nope"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2  # bad input, as in every command
    assert message in result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # a ClickException, not a crash


def test_help_has_an_example():
    result = CliRunner().invoke(main, ["report", "--help"])
    assert result.exit_code == 0 and "fi report runs/" in result.output


def test_an_incomplete_run_stops_the_report_and_partial_says_so_everywhere(tmp_path, monkeypatch):
    run = write_run(tmp_path / "run", [random_scenario("a", 5, seed=1), random_scenario("b", 5, seed=2)])
    next((run / "turns").glob("scenario=b/*.parquet")).unlink()
    args = ["report", str(run), "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "the run is incomplete or its files do not agree" in result.output
    assert "part-00000.parquet: missing (chunk 0 of 'b' is recorded as done)" in result.output
    assert "--resume" in result.output and "--partial" in result.output
    skip_figures(monkeypatch)
    result = CliRunner().invoke(main, [*args, "--partial"])
    assert result.exit_code == 0, result.output
    assert "PARTIAL: 5 of 10 games" in result.stdout
    for page in ("index.html", "summary.md"):
        assert "PARTIAL: 5 of 10 games" in (tmp_path / "out" / page).read_text()


def test_every_figure_title_of_a_partial_report_says_partial(tmp_path):
    run = write_run(tmp_path / "run", [random_scenario("a", 6, seed=1), random_scenario("b", 6, seed=2)])
    next((run / "games").glob("scenario=a/*.parquet")).write_bytes(b"broken")
    data = load_runs([run], partial=True)
    pairing = pair_scenarios(data)
    made = make_figures(compute(data, pairing), data, pairing)
    assert list(made) == [f.name for f in FIGURES]
    for name, fig in made.items():
        assert fig.get_suptitle().endswith("PARTIAL: 6 of 12 games"), name
