"""Readable figures: no two texts overlap in any figure of a 12-scenario study, nothing leaves the figure,
and every text on a colour is black or white with enough contrast."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from text_layout import text_problems

from fi_cli.island.tiles import TILES
from fi_cli.report import figures, maps, style
from fi_cli.report.build import compute, make_figures
from fi_cli.report.island import style as island_style
from fi_cli.report.load import load_runs
from fi_cli.report.pairing import pair_scenarios
from fi_cli.report.synthetic import random_scenario, write_run

BRIDGE = ("XXX...XXXX", "XXXXXXXXXX", "XXXX...XXX")  # wide: small cells, the hardest case for cell texts
SHAPES = {"forbidden_island": ("Forbidden Island", ("..XX..", ".XXXX.", "XXXXXX", "XXXXXX", ".XXXX.", "..XX..")),
          "bridge_of_horrors": ("Bridge of Horrors", BRIDGE),
          "island_of_shadows": ("Island of Shadows", ("XXXXXX",) * 4)}


@pytest.fixture(scope="module", params=[2, 12])
def figures_of(request, tmp_path_factory):
    """The figures of a study of 3 islands (one with Fools' Landing and the treasure tiles pinned) x 4
    difficulties, 30 games each; or of two of its scenarios, of different islands."""
    scenarios = []
    for i, (lid, (name, rows)) in enumerate(SHAPES.items()):
        cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
        pins = {t: cells[k] for k, t in enumerate(TILES[:14])} if lid == "bridge_of_horrors" else {}
        for j, diff in enumerate(("novice", "normal", "elite", "legendary")):
            scenarios.append(random_scenario(
                f"layout={lid},difficulty={diff}", 30, win_rate=0.45 - 0.1 * j, start_level=j + 1, layout=lid,
                rows=rows, seed=10 * i + j, name=name, difficulty=diff, pins=pins,
                values={"layout": lid, "difficulty": diff}))
    if request.param == 2:
        scenarios = [scenarios[0], scenarios[5]]
    run = write_run(tmp_path_factory.mktemp("study") / "study", scenarios, shuffle_tiles=False)
    data = load_runs([run])
    pairing = pair_scenarios(data)
    return make_figures(compute(data, pairing), data, pairing)


def test_no_text_overlaps_another_in_any_figure_at_2_and_12_scenarios(figures_of):
    """Also: no text sticks out of its figure, and no coloured text is too faint on the white page; at the
    default resolution and at 72 dpi (the explorer's example report), where glyphs come out wider."""
    problems = {name: text_problems(fig) for name, fig in figures_of.items()}
    assert {name: p for name, p in problems.items() if p} == {}
    for fig in figures_of.values():
        fig.set_dpi(72)
    problems = {name: text_problems(fig) for name, fig in figures_of.items()}
    assert {name: p for name, p in problems.items() if p} == {}


def test_the_check_finds_overlapping_and_faint_texts():
    fig = maps.no_data("a note")
    fig.text(0.5, 0.5, "a note", color="#F0E442")
    assert text_problems(fig) == ["'a note' overlaps 'a note'", "too faint on white: 'a note' in #f0e442"]


def test_every_background_of_a_text_has_a_readable_text_colour():
    backgrounds = [*style.ENDING_COLOURS.values(), *island_style.TREASURE_COLOURS.values(),
                   island_style.FOOLS_LANDING_COLOUR, style.OUTCOME_COLOURS["win"], maps.SEA_CELL, "#BBBBBB"]
    for cmap in ("YlOrRd", "Purples"):
        backgrounds += [matplotlib.colormaps[cmap](x) for x in np.linspace(0, 1, 41)]
    for bg in backgrounds:
        assert style.contrast(bg, style.text_on(bg)) >= 4.5, bg


def test_contrast_ratio_by_hand():
    assert style.contrast("black", "white") == pytest.approx(21)
    assert style.contrast("#777777", "white") == pytest.approx(4.48, abs=0.01)  # the classic 'just too light' grey
    assert style.text_on("#F0E442") == "black" and style.text_on("#0072B2") == "white"


def test_tile_codes_are_distinct():
    codes = [island_style.tile_code(t) for t in TILES]
    assert len(set(codes)) == len(TILES) and island_style.tile_code("fools_landing") == "FL"


def test_saving_a_figure_twice_gives_the_same_bytes(tmp_path):
    """No date, no random ids: a regenerated example report differs only where the data does."""
    for out in ("a", "b"):
        (tmp_path / out).mkdir()
        figures.save(maps.no_data("a note"), tmp_path / out, "note")
    for fmt in ("png", "svg"):
        assert (tmp_path / "a" / f"note.{fmt}").read_bytes() == (tmp_path / "b" / f"note.{fmt}").read_bytes()


def _markers(ax) -> list[tuple[float, str, bool]]:
    """(y, marker, filled) of every dot drawn in a panel (not the caps of error bars)."""
    out = []
    for line in ax.get_lines():
        if line.get_marker() not in ("None", None, "", " ", "|", "_") and len(line.get_ydata()):
            filled = matplotlib.colors.to_hex(line.get_markerfacecolor()) != "#ffffff"
            out += [(float(y), str(line.get_marker()), filled) for y in line.get_ydata()]
    return out


def test_win_rates_one_meaning_per_channel_and_a_baseline_is_no_result():
    """Colour is the scenario, every dot is round (shape says nothing), fill is 'significant after Holm', the
    baseline row has no dot, and an interval that excludes 0 without significance is marked and explained."""
    import pandas as pd

    from fi_cli.report.figures import Look, win_rates

    rates = pd.DataFrame({
        "scenario": ["a", "b", "c"], "games": 100, "wins": [50, 30, 40], "win_rate": [0.5, 0.3, 0.4],
        "ci_low": [0.4, 0.2, 0.3], "ci_high": [0.6, 0.4, 0.5], "baseline": "a", "baseline_label": "A",
        "diff": [0.0, -0.2, -0.1], "diff_low": [np.nan, -0.33, -0.19], "diff_high": [np.nan, -0.07, -0.01],
        "test": ["baseline", "z", "z"], "p_value": [np.nan, 0.003, 0.04], "p_holm": [np.nan, 0.006, 0.06],
        "significant": [False, True, False]})
    styles = {s: {"color": c, "linestyle": "-", "marker": m}
              for s, c, m in zip("abc", style.SCENARIO_PALETTE[:3], "osD", strict=True)}
    fig = win_rates(rates, Look(list("abc"), {"a": "A", "b": "B", "c": "C"}, styles), "against A")
    left, right = fig.axes[:2]
    assert {m for _, m, _ in _markers(left) + _markers(right)} == {"o"}
    assert sorted(_markers(right)) == [(0.0, "o", False), (1.0, "o", True)]  # c (y 0) open, b (y 1) filled, a none
    texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    assert any("p (Holm) = 0.06 \u2020" in t for t in texts) and any("0.006 *" in t for t in texts)
    assert any(t.startswith("\u2020 the interval excludes 0") for t in " ".join(texts).split("\n"))
    assert not text_problems(fig)


@pytest.mark.parametrize("name", ["survival", "island_left", "water_levels", "treasures"])
def test_curves_are_a_line_per_scenario_on_one_axis_in_the_scenarios_styles(figures_of, name):
    """One meaning per channel: in every panel each line is a scenario, drawn in the colour and line style the
    legend gives it, and the legend names only scenarios (no loss cause in a scenario's colour)."""
    from matplotlib.colors import to_hex

    fig = figures_of[name]
    (legend,) = fig.legends
    labels = [t.get_text().split("\n")[0] for t in legend.get_texts()]
    assert len(labels) in (2, 12) and all(" · " in lb for lb in labels)
    styles = [(to_hex(h.get_color()), h.get_linestyle()) for h in legend.legend_handles]
    assert len(set(styles)) == len(styles)  # each scenario told apart by colour or line style
    for ax in (a for a in fig.axes if a.get_visible()):
        drawn = [(to_hex(line.get_color()), line.get_linestyle()) for line in ax.get_lines()
                 if line.get_linestyle() != ":"]  # not the skull
        assert drawn and set(drawn) <= set(styles) and len(drawn) == len(set(drawn)), ax.get_title()


def test_cell_texts_are_8_points_and_fit_their_cells_on_islands_of_every_shape(tmp_path):
    """A line of 24 tiles, two rows of 12 and the standard island in one figure: every text in a cell is at
    least 8 points at the saved size and inside its cell, and the maps leave no wide empty margins."""
    from matplotlib.patches import Rectangle

    from fi_cli.report.island import maps as island_maps

    shapes = {"line": ("X" * 24,), "strip": ("X" * 12,) * 2, "standard": SHAPES["forbidden_island"][1]}
    run = write_run(tmp_path / "r", [random_scenario(f"layout={lid}", 12, layout=lid, rows=rows, seed=i, name=lid,
                                                     values={"layout": lid})
                                     for i, (lid, rows) in enumerate(shapes.items())])
    data = load_runs([run])
    pairing = pair_scenarios(data)
    made = make_figures(compute(data, pairing), data, pairing)
    data.layouts = {k: {**v, "pins": {"fools_landing": v["cells"][0]}} for k, v in data.layouts.items()}
    made["layouts"] = island_maps.layouts(list(data.layouts.values()))
    for name in ("risk_map", "loss_map", "layouts"):
        fig = made[name]
        assert not text_problems(fig), name
        renderer = fig.canvas.get_renderer()
        assert fig.get_figwidth() <= maps.MAX_WIDTH + 0.5
        for ax in fig.axes[:3]:
            cells = [p.get_window_extent(renderer) for p in ax.patches if isinstance(p, Rectangle) and p.get_fill()]
            texts = [t for t in ax.texts if t.get_text()]
            assert cells and texts, name
            for t in texts:
                assert t.get_fontsize() >= 8, (name, t.get_text())
                box = t.get_window_extent(renderer)
                assert any(c.x0 <= box.x0 and box.x1 <= c.x1 and c.y0 <= box.y0 and box.y1 <= c.y1 for c in cells), \
                    (name, t.get_text())
        # the panels fill the figure: the maps' cells cover most of their axes (no square panel round a line)
        ax = fig.axes[0]
        assert ax.get_window_extent(renderer).height < 2 * maps.CELL * fig.dpi, name


def test_causes_too_small_to_label_in_their_bar_are_named_beside_it():
    import pandas as pd

    from fi_cli.report.figures import Look, loss_causes

    endings = ["win", "treasure_lost", "player_drowned", "water_level"]
    shares = {"win": 0.5, "treasure_lost": 0.466, "player_drowned": 0.03, "water_level": 0.004}
    outcomes = pd.DataFrame({"scenario": ["a"], "games": [500], **{f"share_{e}": [v] for e, v in shares.items()}})
    fig = loss_causes(outcomes, endings, Look(["a"], {"a": "A"}, {"a": {"color": "#000000"}}))
    texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    assert "n = 500\ndrowned 3%, skull <1%" in texts
    assert "50%" in texts and "47%" in texts and not text_problems(fig)
