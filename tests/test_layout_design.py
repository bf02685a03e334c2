"""`fi layouts design`: the search keeps the candidates nearest the target, confirms on fresh games, is
reproducible whatever the workers, and Ctrl-C writes the best island so far."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.island.layout_features import layout_features
from fi_cli.sim import design as design_module
from fi_cli.sim.design import BRACKET, SEARCH_STREAM, Designer, DesignError, DesignInterrupted, DesignSpec, design
from fi_cli.sim.layout_files import load_layout
from fi_cli.sim.seeds import game_seed


class CoastPool:
    """Stands in for the game pool: an island wins (30 - coast) / 20 of its games, exactly; records the jobs."""

    def __init__(self, interrupt_after: int | None = None) -> None:
        self.jobs: list[tuple] = []
        self.calls = 0
        self.interrupt_after = interrupt_after

    def results(self, jobs):
        """For each job: the games won, and no game lengths (no target here asks for them)."""
        self.calls += 1
        if self.interrupt_after is not None and self.calls > self.interrupt_after:
            raise KeyboardInterrupt
        self.jobs += jobs
        out = []
        for scenario, _, _, start, stop in jobs:
            cells = [tuple(c) for c in scenario["layout"]["cells"]]
            rate = max(0.0, (30 - layout_features(load_cells(cells))["coast"]) / 20)
            out.append((round(rate * stop) - round(rate * start), []))
        return out

    def close(self, now=False):
        pass


def load_cells(cells):
    from fi_cli.island.layouts import Layout

    return Layout("x", tuple(cells))


@pytest.fixture
def coast_pool(monkeypatch):
    pool = CoastPool()
    monkeypatch.setattr(design_module, "GamePool", lambda workers: pool)
    return pool


def test_brackets_halve_towards_the_target_and_confirm_on_fresh_games(coast_pool):
    spec = DesignSpec(target=0.5, budget=20_000, screen=16, confirm=400, tolerance=0.03, seed=5)
    result = design(spec, workers=1)
    best = result.best
    assert result.found and best.confirmed.games == 400
    assert abs(best.confirmed.rate - 0.5) <= 0.03
    search = [j for j in coast_pool.jobs if j[2] == SEARCH_STREAM]
    confirm = [j for j in coast_pool.jobs if j[2] != SEARCH_STREAM]
    # every bracket: 16 candidates play games 0-15, 8 go on to 32, ... one to 256 (48 x 16 games in all)
    assert result.search_games == result.brackets * spec.bracket_games == sum(j[4] - j[3] for j in search)
    assert spec.bracket_games == 48 * 16 and sorted({j[4] for j in search}) == [16, 32, 64, 128, 256]
    first = search[:BRACKET]
    assert len(first) == BRACKET and all(j[3:] == (0, 16) for j in first)
    # the 8 that went on are the 8 nearest the target after 16 games
    off = {j[0]["layout"]["id"]: abs(CoastPool().results([j])[0][0] / 16 - 0.5) for j in first}
    second = [j[0]["layout"]["id"] for j in search[BRACKET:BRACKET + BRACKET // 2]]
    assert sorted(off[i] for i in second) == sorted(off.values())[:BRACKET // 2]
    # confirmation games are numbered from 0 on streams of their own, so none is a search game
    assert confirm and all(j[2].startswith("design/confirm/") and j[3] == 0 for j in confirm)
    search_seeds = {game_seed(5, SEARCH_STREAM, g) for g in range(256)}
    assert not search_seeds & {game_seed(5, confirm[-1][2], g) for g in range(400)}
    assert result.games == result.search_games + result.confirm_games <= spec.budget


def test_a_design_is_reproducible_from_its_seed(coast_pool):
    spec = DesignSpec(target=0.4, budget=6_000, screen=16, confirm=400, seed=9)
    a, b = design(spec, workers=1), design(spec, workers=1)
    assert a.best.layout == b.best.layout and a.games == b.games
    assert design(DesignSpec(target=0.4, budget=6_000, screen=16, confirm=400, seed=10), workers=1
                  ).best.layout != a.best.layout


def test_an_interrupted_design_keeps_the_best_so_far(monkeypatch):
    pool = CoastPool(interrupt_after=3)
    monkeypatch.setattr(design_module, "GamePool", lambda workers: pool)
    with pytest.raises(DesignInterrupted) as e:
        Designer(DesignSpec(target=0.5, budget=20_000, screen=16, confirm=400)).run()
    result = e.value.result
    assert result.interrupted and result.best is not None and result.best.confirmed is None
    assert result.best.games == max(j[4] for j in pool.jobs)


def test_a_budget_too_small_is_refused():
    with pytest.raises(DesignError, match="give --budget 5,072 or more"):
        DesignSpec(target=0.3, budget=5_000).check()


def test_cli_design_with_real_games_same_on_one_and_two_workers(tmp_path):
    """Random players never win: a 1% target within 2 points is met by any island (quick real games)."""
    runner = CliRunner()
    args = ["layouts", "design", "--target", "0.01", "--tolerance", "0.02", "--policy", "random", "--players", "2",
            "--budget", "600", "--screen", "8", "--confirm", "200", "--seed", "4", "--pin", "F=fools_landing"]
    r = runner.invoke(main, [*args, "--workers", "1", "--out", str(tmp_path / "one.yaml")])
    assert r.exit_code == 0, r.output
    assert "0.0% [0.0%, 1.9%] (95% Wilson) won in 200 fresh games, none of them played in the search" in r.output
    assert "Budget: 584 of 600 games (384 search in 1 bracket(s), 200 confirmation)" in r.output
    lay = load_layout(str(tmp_path / "one.yaml"))
    assert len(lay.cells) == 24 and set(lay.pins) == {"fools_landing"}
    r2 = runner.invoke(main, [*args, "--workers", "2", "--out", str(tmp_path / "two.yaml")])
    assert r2.exit_code == 0, r2.output
    assert load_layout(str(tmp_path / "two.yaml")) == lay
    again = runner.invoke(main, [*args, "--out", str(tmp_path / "one.yaml")])
    assert again.exit_code == 2 and "exists; use --overwrite" in again.output
    small = runner.invoke(main, [*args[:-2], "--budget", "100", "--out", str(tmp_path / "x.yaml")])
    assert small.exit_code == 2 and "too small" in small.output


def test_cli_ctrl_c_writes_the_best_island_so_far(monkeypatch, tmp_path):
    pool = CoastPool(interrupt_after=3)
    monkeypatch.setattr(design_module, "GamePool", lambda workers: pool)
    out = tmp_path / "best.yaml"
    r = CliRunner().invoke(main, ["layouts", "design", "--target", "0.5", "--screen", "16", "--out", str(out)])
    assert r.exit_code == 130 and "interrupted: the best island so far; written to" in r.output
    assert "Not confirmed" in out.read_text() and len(load_layout(str(out)).cells) == 24
