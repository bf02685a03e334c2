"""The README and the documentation site: the README's walkthrough works as written, its install and test commands
are the ones CI runs, it stays short, and every page of docs/ is in the site's navigation (which `mkdocs build
--strict` in .ci/run checks for broken links)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.sim.api import load_study

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_readme_is_short_and_ci_runs_its_commands():
    assert len(README.splitlines()) <= 300
    ci = (ROOT / ".ci" / "run").read_text()
    start = README[README.index("## Start here"):README.index("## Your own island")]
    install, test = blocks(start, "bash")
    assert install.splitlines()[1] + " > /dev/null" in ci.splitlines()  # step 1, as the README writes it
    assert test.strip() in ci.splitlines()  # step 2
    assert "mkdocs build --strict" in ci


def test_the_readme_walkthrough_plays_as_written(tmp_path):
    files = {b.splitlines()[0].split(":")[0].lstrip("# "): b for b in blocks(README, "yaml")}
    assert set(files) == {"my_island.yaml", "my_study.yaml"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    r = CliRunner().invoke(main, ["layouts", "check", str(tmp_path / "my_island.yaml")])
    assert r.exit_code == 0 and "ok: " in r.output and "1 pinned tile" in r.output, r.output
    study = load_study(tmp_path / "my_study.yaml")
    assert [s.id for s in study.scenarios] == ["layout=forbidden_island", "layout=my_island"]
    assert f"--scenario {study.scenario(1).id}" in README  # the replay command of step 5 names it


def test_every_page_is_in_the_navigation_and_every_link_of_the_readme_exists():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())

    def pages(nav: list) -> list[str]:
        return [p for item in nav for v in item.values() for p in (pages(v) if isinstance(v, list) else [v])]

    listed = pages(config["nav"])
    on_disk = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    assert sorted(listed) == on_disk
    for target in re.findall(r"\]\(((?:docs|reports)/[^)#]+)", README):
        assert (ROOT / target).is_file(), target
