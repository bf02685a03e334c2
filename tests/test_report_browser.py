"""The report page in a real browser (headless Chromium), at a desktop's width (1280 px) and a phone's (390 px):
every image loads, nothing makes the page scroll sideways, and no figure is wider than the page. A screenshot
of the whole page is taken at each width (kept in $FI_SCREENSHOTS when that names a folder). Checked on a
report made here and on the example reports in reports/. Skipped only where no Chromium is installed
(`.ci/run` installs Debian's chromium)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import Browser, find_browser

from fi_cli.report.build import build_report
from fi_cli.report.synthetic import random_scenario, write_run

CHROMIUM = find_browser()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on PATH (chromium, chromium-browser or "
                                "google-chrome), so the report page is not checked in a browser; install Debian's "
                                "chromium (apt-get install chromium), as .ci/run does")
REPORTS = Path(__file__).resolve().parent.parent / "reports"
WIDTHS = {"desktop": 1280, "phone": 390}
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def browser():
    with Browser(CHROMIUM) as b:
        yield b


@pytest.fixture(scope="module")
def made_here(tmp_path_factory) -> Path:
    """A report of a long line of 24 tiles, the standard island and a block."""
    shapes = {"line": ("X" * 24,), "standard": ("..XX..", ".XXXX.", "XXXXXX", "XXXXXX", ".XXXX.", "..XX.."),
              "block": ("XXXXXX",) * 4}
    tmp = tmp_path_factory.mktemp("browser")
    scenarios = [random_scenario(f"layout={lid}", 10, layout=lid, rows=rows, seed=i, name=lid.title(),
                                 values={"layout": lid}) for i, (lid, rows) in enumerate(shapes.items())]
    run = write_run(tmp / "run", scenarios)
    build_report([run], tmp / "report", formats=("png",))
    return tmp / "report" / "index.html"


def _shots(tmp_path: Path) -> Path:
    keep = os.environ.get("FI_SCREENSHOTS")
    return Path(keep) if keep and Path(keep).is_dir() else tmp_path


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
@pytest.mark.parametrize("report", ["made here", "islands", "desert", "explore"])
def test_the_report_page_fits_the_window_and_shows_every_figure(report, width, browser, made_here, tmp_path):
    page = made_here if report == "made here" else REPORTS / report / "index.html"
    tab = browser.open(page, width)
    seen = browser.measure(tab)
    shot = browser.screenshot(tab, width, seen["height"], _shots(tmp_path) / f"{report.replace(' ', '-')}-{width}.png")
    browser.close(tab)
    assert shot.read_bytes()[:8] == PNG and shot.stat().st_size > 10_000
    assert seen["width"] == width and seen["images"] >= 8
    assert seen["broken"] == [], "images that do not load"
    assert seen["wide"] == [], "figures wider than the page"
    assert seen["scrollWidth"] <= width, f"the page scrolls sideways: {seen['overflowing']}"


def test_the_check_finds_a_broken_image_a_wide_figure_and_a_page_that_scrolls_sideways(browser, tmp_path):
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><head><meta name='viewport' content='width=device-width'></head><body>"
                    "<img alt='broken' src='data:image/png;base64,AAAA'>"
                    "<img alt='wide' style='width: 2000px' src='data:image/svg+xml,<svg xmlns=\"http://www.w3.org/2000"
                    "/svg\" width=\"10\" height=\"10\"/>'><p style='width: 3000px'>a long line</p></body></html>")
    tab = browser.open(page, 390)
    seen = browser.measure(tab)
    browser.close(tab)
    assert seen["broken"] == ["broken"] and seen["wide"][0].startswith("wide: ")
    assert seen["scrollWidth"] > 390 and any("a long line" in o for o in seen["overflowing"])
