"""`fi report` on Forbidden Desert runs: every figure and table, readable figures, the desert's statistics by
hand, and reports that mix the two games (a section each)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from text_layout import text_problems

from fi_cli.cli import main
from fi_cli.report.build import build_report, compute, figure_list, make_figures
from fi_cli.report.desert import stats
from fi_cli.report.desert.style import kind_colour
from fi_cli.report.errors import ReportError
from fi_cli.report.load import load_runs
from fi_cli.report.maps import no_data
from fi_cli.report.pairing import pair_scenarios
from fi_cli.report.style import contrast, text_on
from fi_cli.report.synthetic import random_scenario, write_run
from fi_cli.sim.api import load_study, run_study

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
STUDY = """\
name: dunes
games: {games}
seed: 3
game: {{name: desert}}
matrix:
  layout: [forbidden_desert, layouts/desert_far_pad.yaml]
  storm_start: {marks}
  players: {players}
"""


def desert_run(tmp: Path, games: int, marks: list[int], players: list[int], wins: float = 0.3) -> Path:
    """A desert run of random players; a share of its games then marked as won, so that every figure has won
    and lost games to draw (random players never win: this tests the drawing, not the players)."""
    (tmp / "layouts").mkdir(parents=True, exist_ok=True)
    (tmp / "layouts" / "desert_far_pad.yaml").write_text((CONFIGS / "layouts" / "desert_far_pad.yaml").read_text())
    (tmp / "study.yaml").write_text(STUDY.format(games=games, marks=marks, players=players))
    out = run_study(load_study(tmp / "study.yaml"), tmp / "runs" / "dunes", workers=1, progress=False)
    for f in (out / "games").rglob("*.parquet"):
        t = pq.read_table(f)
        won = [g % round(1 / wins) == 0 for g in t["game"].to_pylist()] if wins else [False] * t.num_rows
        outcome = ["win" if w else o for w, o in zip(won, t["outcome"].to_pylist(), strict=True)]
        cause = [None if w else c for w, c in zip(won, t["loss_cause"].to_pylist(), strict=True)]
        t = t.set_column(t.schema.get_field_index("outcome"), t.schema.field("outcome"), pa.array(outcome))
        t = t.set_column(t.schema.get_field_index("loss_cause"), t.schema.field("loss_cause"), pa.array(cause))
        pq.write_table(t, f)
    return out


@pytest.fixture(scope="module")
def dunes(tmp_path_factory) -> Path:
    return desert_run(tmp_path_factory.mktemp("dunes"), 12, [1, 6], [4])


def quick_figures(monkeypatch) -> None:
    """Tests of the pages and files skip drawing the real figures (the figure tests draw them)."""
    monkeypatch.setattr("fi_cli.report.build.make_figures",
                        lambda tables, data, pairing: {f.name: no_data(f.name) for f in figure_list(data)})


def test_every_figure_and_table_of_a_desert_report(dunes, tmp_path, monkeypatch):
    """Every figure, table and link (the figures themselves are drawn by the readability test below)."""
    quick_figures(monkeypatch)
    out = tmp_path / "report"
    report = build_report([dunes], out, formats=("png",))
    names = [f.name for f in report.sections[0].figures]
    assert names == ["boards", "loss_causes", "win_rates", "loss_stage", "survival", "storm_levels", "sand",
                     "thirst", "heat_map", "parts"]
    for name in names:
        assert (out / f"{name}.png").is_file(), name
    for table in ("outcomes", "win_rates", "loss_stage", "survival", "storm_levels", "sand", "lowest_supply",
                  "thirst", "heat_cells", "part_finds", "summary"):
        assert (out / f"{table}.csv").is_file(), table
    page = (out / "index.html").read_text()
    assert page.count("data:image/png;base64,") == len(names) and "<script" not in page
    assert page.startswith("<!DOCTYPE html>") and "<title>Forbidden Desert report: dunes</title>" in page
    md = (out / "summary.md").read_text()
    assert all((out / t).is_file() for t in re.findall(r"\]\(([^)]+)\)", md))
    storm = pd.read_csv(out / "storm_levels.csv")
    assert set(storm["outcome"]) == {"win", "loss"} and storm.loc[storm["turn"] == 0, "median"].isin([1, 6]).all()


def test_the_terminal_summary(dunes, tmp_path, monkeypatch):
    quick_figures(monkeypatch)
    r = CliRunner().invoke(main, ["report", str(dunes), "--out", str(tmp_path / "report")])
    assert r.exit_code == 0, r.output
    assert "storm at end" in r.output and "parts" in r.output and "Forbidden Desert · Novice" in r.output
    assert "Forbidden Desert · storm mark 6" in r.output and "Launch Pad far away · Novice" in r.output


@pytest.fixture(scope="module", params=[4, 12])
def desert_figures(request, dunes, tmp_path_factory):
    """The desert figures of 12 scenarios (2 boards x 3 storm starts x 2 player counts), or of the 4 of dunes."""
    run = dunes if request.param == 4 else desert_run(tmp_path_factory.mktemp("many"), 4, [1, 3, 6], [2, 5], 0.25)
    data = load_runs([run])
    pairing = pair_scenarios(data)
    return make_figures(compute(data, pairing), data, pairing)


def test_no_text_overlaps_another_in_any_desert_figure(desert_figures):
    """The readability checks of the island's figures (tests/test_report_figures.py), on the desert's: every
    figure of the section is made and drawn."""
    assert list(desert_figures) == ["boards", "loss_causes", "win_rates", "loss_stage", "survival", "storm_levels",
                                    "sand", "thirst", "heat_map", "parts"]
    problems = {name: text_problems(fig) for name, fig in desert_figures.items()}
    assert {name: p for name, p in problems.items() if p} == {}


def test_the_heat_map_marks_the_tiles_a_board_pins(desert_figures):
    """The far-pad board pins the Crash Site (r0c0) and the Launch Pad (r4c4): their codes and outlines are on
    its panels, and the rules' board (nothing pinned) has none."""
    fig = desert_figures["heat_map"]
    panels = [ax for ax in fig.axes if ax.get_title()]
    far = [ax for ax in panels if "Launch Pad far away" in ax.get_title()]
    rules = [ax for ax in panels if "Launch Pad far away" not in ax.get_title()]
    assert far and rules
    for ax in far:
        codes = {t.get_text().split("\n")[0]: t.get_position() for t in ax.texts if "\n" in t.get_text()}
        assert codes.keys() == {"CS", "LP"} and codes["CS"] == (0, 0) and codes["LP"] == (4, -4)
        assert sum(1 for p in ax.patches if not p.get_fill()) == 4  # their outlines, each on a white halo
    assert all(not any("\n" in t.get_text() for t in ax.texts) for ax in rules)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "CS: Crash Site" in legend and "LP: Launch Pad" in legend


def test_every_desert_background_has_a_readable_text_colour():
    import matplotlib
    import numpy as np

    backgrounds = [kind_colour(k) for k in ("crash_site", "launch_pad", "well", "mirage", "tunnel", "gear",
                                            "engine_row")] + ["#555555"]
    backgrounds += [matplotlib.colormaps["YlOrBr"](x) for x in np.linspace(0, 1, 41)]
    for bg in backgrounds:
        assert contrast(bg, text_on(bg)) >= 4.5, bg


# --- the desert's statistics by hand ------------------------------------------------------------------------

def _hand() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Two games of scenario s: game 0 lost to thirst after 2 turns (p1 ran dry on r0c1), game 1 won after 3."""
    games = pd.DataFrame({"scenario": "s", "game": [0, 1], "outcome": ["loss", "win"], "loss_cause": ["thirst", None],
                          "turns": [2, 3], "players": 2, "storm_start": [2, 3], "sand_supply": [40, 10],
                          "roles": [["explorer", "climber"], ["water_carrier", "explorer"]], "ran_dry": [[1], []]})
    turns = pd.DataFrame({
        "scenario": "s", "game": [0, 0, 1, 1, 1], "turn": [1, 2, 1, 2, 3], "storm_level": [2, 3, 3, 3, 4],
        "sand_on_tiles": [10, 12, 9, 14, 18], "sand_supply": [38, 36, 9, 4, 0],
        "water": [[3, 1], [2, 0], [4, 4], [3, 3], [2, 2]],
        "blocked": [["r1c1"], ["r1c1", "r4c4"], [], ["r1c1"], []],
        "pawn_cells": [["r0c0", "r0c0"], ["r0c0", "r0c1"], ["r3c3", "r3c3"], ["r3c3", "r3c3"], ["r2c2", "r2c2"]]})
    tiles = pd.DataFrame({"scenario": "s", "game": [0, 0, 1, 1, 1],
                          "kind": ["engine_row", "engine_column", "engine_row", "engine_column", "propeller_row"],
                          "excavated_turn": [2, None, 1, 3, 2]})
    return games, turns, tiles


def _hand_counts() -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The games of _hand, and the counts of their turns and tiles the desert's tables are made of."""
    games, turns, tiles = _hand()
    return games, stats.counts({"games": games, "turns": turns, "tiles": tiles})


def test_heat_map_cells_by_hand():
    _, c = _hand_counts()
    cells = stats.heat_cells(c["turn_rows"], c["blocked"], c["ran_dry"], ["s"]).set_index("cell")
    assert len(cells) == 25 and cells["turns"].eq(5).all()
    assert cells.loc["r1c1", "blocked_share"] == pytest.approx(3 / 5) and cells.loc["r4c4", "blocked_turns"] == 1
    assert cells["ran_dry"].sum() == 1 and cells.loc["r0c1", "ran_dry"] == 1  # p1's cell after the last turn
    assert (cells.loc["r0c1", "row"], cells.loc["r0c1", "col"]) == (0, 1)


def test_parts_are_found_when_both_clues_are_dug_by_hand():
    games, c = _hand_counts()
    parts = stats.part_timing(c["finds"], games, ["s"]).set_index("part")
    assert parts.loc["engine", "found"] == 1 and parts.loc["engine", "median_turn"] == 3  # game 1 only
    assert parts.loc["engine", "share_found_in_wins"] == 1 and parts.loc["engine", "share_found_in_losses"] == 0
    assert parts.loc["propeller", "found"] == 0 and parts.loc["solar_crystal", "share_found"] == 0


def test_curves_start_at_the_set_up_by_hand():
    games, c = _hand_counts()
    thirst = stats.thirst_curves(c["thirst"], games).set_index(["water", "turn"])
    # game 0's thirstiest pawn has 1 water after turn 1 and 0 after turn 2; game 1's never less than 2: a share of
    # both games, to the horizon (turn 3: the 98% quantile of the lengths 2 and 3, rounded up)
    assert thirst.loc[1, "count"].tolist() == [0, 1, 1, 1] and thirst.loc[0, "count"].tolist() == [0, 0, 1, 1]
    assert thirst.loc[(0, 3), "share"] == 0.5 and thirst["games"].eq(2).all()
    storm = stats.storm_curves(c["storm"], games).set_index(["outcome", "turn"])["median"]
    assert storm[("loss", 0)] == 2 and storm[("win", 0)] == 3 and storm[("win", 3)] == 4
    sand = stats.sand_curves(c["sand"], games).set_index(["where", "turn"])["median"]
    assert sand[("on the board", 0)] == 8 and sand[("in the supply", 0)] == 25  # 40 and 10 at the start
    more = games.assign(**{"components.diamond_sand": [3, 3]})  # a study with 3 markers on each diamond tile
    c3 = stats.counts({"games": more, "turns": _hand()[1], "tiles": _hand()[2]})
    assert stats.sand_curves(c3["sand"], more).set_index(["where", "turn"])["median"][("on the board", 0)] == 24
    low = stats.lowest_supply(c["lowest"], ["s"]).iloc[0]
    assert (low["median_lowest"], low["share_5_or_fewer"], low["share_buried"]) == (18, 0.5, 0)
    players = pd.DataFrame({"scenario": ["two", "five"], "players": [2, 5]})
    assert stats.skulls(players) == {"two": 14, "five": 16}
    meters = players.assign(**{"components.storm_meter": [[2, 3, 4], [2, 3, 4]]})  # a meter the study set
    assert stats.skulls(meters) == {"two": 4, "five": 4}


# --- reports of both games ----------------------------------------------------------------------------------

def test_a_report_of_both_games_has_a_section_for_each(dunes, tmp_path, monkeypatch):
    quick_figures(monkeypatch)
    island = write_run(tmp_path / "isles", [random_scenario("std", 12, seed=1),
                                            random_scenario("elite", 12, seed=2, difficulty="elite")])
    out = tmp_path / "both"
    r = CliRunner().invoke(main, ["report", str(island), str(dunes), "--out", str(out),
                                  "--baseline", "storm_start=6"])
    assert r.exit_code == 0, r.output
    assert "\nForbidden Island\n" in r.stdout and "\nForbidden Desert\n" in r.stdout
    assert "--baseline storm_start=6: not in the island runs" in r.output  # the island keeps its default
    for name in ("island_win_rates.png", "island_risk_map.png", "island_summary.csv", "desert_storm_levels.png",
                 "desert_heat_map.png", "desert_summary.csv", "desert_win_rates.csv"):
        assert (out / name).is_file(), name
    assert not (out / "win_rates.png").exists()  # nothing of one game overwrites the other's
    page = (out / "index.html").read_text()
    assert "<h2 id='island' class='game'>Forbidden Island</h2>" in page
    assert "<h2 id='desert' class='game'>Forbidden Desert</h2>" in page
    assert page.index("id='island'") < page.index("id='island_risk_map'") < page.index("id='desert'") \
        < page.index("id='desert_heat_map'")
    assert "Forbidden Island and Forbidden Desert report: isles + dunes" in page
    rates = pd.read_csv(out / "desert_win_rates.csv")
    assert set(rates.loc[rates["test"] == "baseline", "scenario"].str.contains("storm_start=6")) == {True}
    md = (out / "summary.md").read_text()
    assert "## Forbidden Island" in md and "## Forbidden Desert" in md and "### Sand on the board" in md
    with pytest.raises(ReportError, match="runs of desert and island"):
        load_runs([island, dunes])


def test_fi_simulate_ends_with_the_desert_table(tmp_path):
    (tmp_path / "s.yaml").write_text("name: s\ngames: 4\nseed: 1\ngame: {name: desert, players: 2}\n"
                                     "matrix: {sand_supply: [40, 10]}\n")
    r = CliRunner().invoke(main, ["simulate", str(tmp_path / "s.yaml"), "--out", str(tmp_path / "out"), "-w", "1"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[2].startswith("Forbidden Desert · Normal · sand supply 40") and " 4  " in lines[2]
    assert lines[3].startswith("Forbidden Desert · Normal · sand supply 10")
