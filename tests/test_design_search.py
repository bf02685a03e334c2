"""`fi design`: a search over component values (and/or the island's layout) for one or several targets, confirmed
on fresh games and written as a study file that plays the design again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.sim import design as design_module
from fi_cli.sim.api import load_study
from fi_cli.sim.config import Scenario
from fi_cli.sim.design import DesignError, DesignSpec, Target, base_scenario, design
from fi_cli.sim.study_files import design_study_text


class LeverPool:
    """Stands in for the game pool: the win rate is set by the components (hand limit and Waters Rise! cards)
    and the policy, the game length by the actions per turn; exact, so the search's choices can be checked."""

    def __init__(self) -> None:
        self.jobs: list[tuple] = []

    @staticmethod
    def rate(scenario: dict) -> float:
        comp = scenario.get("components", {})
        rate = 0.3 + 0.1 * (comp.get("hand_limit", 5) - 5) - 0.1 * (comp.get("waters_rise", 3) - 3)
        return min(0.95, max(0.0, rate + (0.2 if scenario["policy"]["name"] == "search" else 0.0)))

    def results(self, jobs):
        self.jobs += jobs
        out = []
        for scenario, _, _, start, stop in jobs:
            rate = self.rate(scenario)
            turns = 10 + 3 * (scenario.get("components", {}).get("actions_per_turn", 3) - 3)
            out.append((round(rate * stop) - round(rate * start), [turns] * (stop - start)))
        return out

    def close(self, now=False):
        pass


@pytest.fixture
def lever_pool(monkeypatch):
    pool = LeverPool()
    monkeypatch.setattr(design_module, "GamePool", lambda workers: pool)
    return pool


def _spec(**kw) -> DesignSpec:
    return DesignSpec(**{"budget": 30_000, "screen": 16, "confirm": 400, "seed": 3,
                         "vary": ("hand_limit", "waters_rise", "actions_per_turn", "sandbags"), **kw})


def test_a_component_design_reaches_its_target_and_is_confirmed(lever_pool):
    result = design(_spec(targets=(Target(0.6),)), workers=1)
    best = result.best
    assert result.found and abs(best.confirmed.rate - 0.6) <= 0.03
    assert LeverPool.rate({"components": best.components, "policy": {"name": "heuristic"}}) == pytest.approx(0.6)
    jobs = [j for j in lever_pool.jobs if j[0]["components"] == best.components]
    assert jobs and all(set(j[0]["components"]) <= {"hand_limit", "waters_rise", "actions_per_turn", "sandbags"}
                        for j in lever_pool.jobs)


def test_the_screen_is_wider_with_several_policies_targets():
    one = DesignSpec(targets=(Target(0.4), Target(13, 0.5, kind="turns")))
    two = DesignSpec(targets=(Target(0.3), Target(0.5, policy="search")))
    assert (one.screen, two.screen) == (64, 128)  # one policy, a length too: its figures are judged one at a time
    assert two.bracket_games == 128 * 48 * 2
    assert DesignSpec(targets=two.targets, screen=32).screen == 32  # --screen given: kept


def test_several_policies_and_a_game_length(lever_pool):
    """The heuristic at 40%, the search at 60% (0.2 above it here) and a median of 13 turns (4 actions)."""
    targets = (Target(0.4), Target(0.6, policy="search"), Target(13, 0.5, kind="turns"))
    result = design(_spec(targets=targets, budget=60_000), workers=1)
    best = result.best
    assert result.found and best.components.get("actions_per_turn") == 4
    assert set(best.confirmed.tallies) == {"heuristic", "search"}
    assert {j[0]["policy"]["name"] for j in lever_pool.jobs} == {"heuristic", "search"}
    assert result.confirm_games and result.confirm_games % (2 * 400) == 0  # each confirmation plays both policies


def test_an_island_and_its_components_together(lever_pool):
    result = design(_spec(targets=(Target(0.5),), vary=("layout", "hand_limit")), workers=1)
    layouts = {j[0]["layout"]["id"] for j in lever_pool.jobs}
    assert result.found and len(layouts) > 8 and result.best.layout.id in layouts
    assert result.best.components.get("hand_limit") == 7


def test_what_a_design_cannot_run_with():
    with pytest.raises(DesignError, match="give a target"):
        DesignSpec(vary=("hand_limit",)).check()
    with pytest.raises(DesignError, match="cannot vary 'layout' in Forbidden Desert"):
        DesignSpec(target=0.3, game="desert", vary=("layout",)).check()
    with pytest.raises(DesignError, match="cannot vary 'hand_limit' in Forbidden Desert"):
        DesignSpec(target=0.3, game="desert", vary=("hand_limit",)).check()
    with pytest.raises(DesignError, match="give --budget 16,288 or more"):  # 2 x (6,144 + 2,000): screen 128
        DesignSpec(targets=(Target(0.3), Target(0.5, policy="search")), vary=("sandbags",), budget=100).check()


def test_the_written_study_plays_the_design_again(tmp_path):
    base = base_scenario(DesignSpec(game="desert", difficulty=3, players=3, policy="heuristic"))
    kind = base.door.Components
    setup = replace(base.setup, components=kind.from_dict({"sun_beats_down": 2, "canteens": {"explorer": 6}}),
                    roles=("explorer", "climber", "navigator"))
    scenario = replace(base, setup=setup)
    path = tmp_path / "d.yaml"
    path.write_text(design_study_text(scenario, ["heuristic", "random"], 100, 7, None, "a comment\non two lines"))
    assert path.read_text().startswith("# a comment\n# on two lines\n")
    study = load_study(path)
    assert [s.policy for s in study.scenarios] == ["heuristic", "random"]
    again = study.scenarios[0].setup
    assert (again.components, again.players, again.start_level, again.roles) == (
        setup.components, 3, 3, ("explorer", "climber", "navigator"))


def _cli(tmp_path: Path, out: str, *extra: str):
    args = ["design", "--game", "desert", "--players", "2", "--policy", "random", "--target", "0.01", "--tolerance",
            "0.02", "--budget", "600", "--screen", "8", "--confirm", "200", "--seed", "4", "--vary",
            "sun_beats_down,storm_picks_up", "--out", str(tmp_path / out), *extra]
    return CliRunner().invoke(main, args)


def test_cli_design_with_real_games_same_on_one_and_two_workers(tmp_path):
    """Random players never win: a 1% target within 2 points is met by any design (quick real games)."""
    r = _cli(tmp_path, "one.yaml", "-w", "1")
    assert r.exit_code == 0, r.output
    assert "Confirmed: 0.0% [0.0%, 1.9%] (95% Wilson) (random) in 200 fresh games" in r.output
    assert "Budget: 584 of 600 games (384 search in 1 bracket(s), 200 confirmation)" in r.output
    assert "found; written to" in r.output
    study = load_study(tmp_path / "one.yaml")
    assert study.game == "desert" and study.scenarios[0].setup.players == 2
    changed = study.scenarios[0].setup.components.changed()
    assert changed and set(changed) <= {"sun_beats_down", "storm_picks_up"}
    r2 = _cli(tmp_path, "two.yaml", "-w", "2")
    assert r2.exit_code == 0, r2.output
    assert load_study(tmp_path / "two.yaml").scenarios[0].setup == study.scenarios[0].setup
    assert _cli(tmp_path, "one.yaml").exit_code == 2  # exists


@pytest.mark.parametrize("extra, words", [
    ([], "exists; use --overwrite"),
    (["--overwrite", "--vary", "hand_limit"], "cannot vary 'hand_limit' in Forbidden Desert"),
    (["--overwrite", "--target", "lots"], "--target 'lots': give a win rate"),
    (["--overwrite", "--target", "genius=0.3"], "unknown policy 'genius'"),
    (["--overwrite", "--budget", "100"], "too small"),
])
def test_cli_design_errors_are_one_paragraph(tmp_path, extra, words):
    (tmp_path / "x.yaml").write_text("")
    r = _cli(tmp_path, "x.yaml", *extra)
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output, r.output


def test_cli_design_needs_a_target_and_an_out(tmp_path):
    r = CliRunner().invoke(main, ["design", "--out", str(tmp_path / "x.yaml")])
    assert r.exit_code == 2 and "give a target" in r.output
    r = CliRunner().invoke(main, ["design", "--target", "0.3"])
    assert r.exit_code == 2 and "give --out FILE" in r.output
    r = CliRunner().invoke(main, ["design", "--players", "5", "--target", "0.3", "--out", str(tmp_path / "y.yaml")])
    assert r.exit_code == 2 and "--players 5" in r.output and "Forbidden Island" in r.output


def test_a_study_as_the_base(tmp_path, lever_pool):
    study = tmp_path / "s.yaml"
    study.write_text("name: s\ngames: 10\nseed: 1\ngame:\n  difficulty: elite\n  players: 3\n"
                     "  components: {sandbags: 3}\npolicy: heuristic\n")
    r = CliRunner().invoke(main, ["design", "--study", str(study), "--target", "0.5", "--vary", "hand_limit",
                                  "--screen", "16", "--confirm", "400", "--out", str(tmp_path / "d.yaml")])
    assert r.exit_code == 0, r.output
    written = load_study(tmp_path / "d.yaml").scenarios[0].setup
    assert (written.start_level, written.players, written.components.sandbags, written.components.hand_limit) == (
        3, 3, 3, 7)
    assert isinstance(base_scenario(DesignSpec(target=0.3)), Scenario)


def test_the_example_designs_and_sensitivity_studies_load():
    configs = Path(__file__).resolve().parent.parent / "configs"
    island = load_study(configs / "designs" / "island_elite_50.yaml").scenarios[0].setup
    assert (island.start_level, island.components.changed()) == (3, {"helicopter_lift": 5})
    desert = load_study(configs / "designs" / "desert_normal_35.yaml").scenarios[0].setup
    assert desert.start_level == 2
    assert desert.components.changed() == {"storm_picks_up": 1, "jet_pack": 2, "time_throttle": 0}
    ladder = load_study(configs / "designs" / "island_elite_ladder.yaml").scenarios
    assert [sc.policy for sc in ladder] == ["heuristic", "search"]  # two rungs on the same deals
    assert ladder[0].setup.components.changed() == {"cards_dealt": 5} and ladder[0].setup.start_level == 3
    for name in ("sensitivity_island", "sensitivity_desert"):
        assert len(load_study(configs / f"{name}.yaml").scenarios) == 1
