"""How a report names its scenarios (short labels) and which scenario each one is compared with."""

from __future__ import annotations

from pathlib import Path

import pytest

from fi_cli.report.build import compute
from fi_cli.report.errors import ReportError
from fi_cli.report.load import load_runs
from fi_cli.report.pairing import pair_scenarios
from fi_cli.report.synthetic import FakeGame, FakeScenario, write_run

LAYOUTS = {"forbidden_island": "Forbidden Island", "skull_island": "Skull Island", "lagoon": "Lagoon"}


def games(wins: int, n: int = 4) -> list[FakeGame]:
    return [FakeGame("win", None, 8)] * wins + [FakeGame("loss", "water_level", 6)] * (n - wins)


def matrix_run(path: Path, extra: dict | None = None, **kw) -> Path:
    """layout x difficulty (x whatever `extra` adds), the ids written as fi simulate writes them."""
    scenarios = []
    for i, (lid, name) in enumerate(LAYOUTS.items()):
        for j, diff in enumerate(("novice", "normal")):
            values = {"layout": lid, "difficulty": diff, **(extra or {})}
            sid = ",".join(f"{k}={v}" for k, v in values.items())
            scenarios.append(FakeScenario(sid, games(3 - i + j % 2), layout=lid, name=name, difficulty=diff,
                                          values=values))
    return write_run(path, scenarios, **kw)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return load_runs([matrix_run(tmp_path_factory.mktemp("m") / "islands")])


def test_labels_are_the_layout_name_and_the_difficulty(data):
    assert list(data.labels.values()) == ["Forbidden Island · Novice", "Forbidden Island · Normal",
                                          "Skull Island · Novice", "Skull Island · Normal", "Lagoon · Novice",
                                          "Lagoon · Normal"]
    assert data.info["group"].tolist() == [0, 0, 1, 1, 2, 2]  # a colour per island
    assert data.info["within"].tolist() == [0, 1, 0, 1, 0, 1]  # a line style per difficulty


def test_labels_show_what_else_varies_and_the_study_can_rename_values(tmp_path):
    run = write_run(tmp_path / "r", [
        FakeScenario(f"players={p},difficulty=5", games(1), layout="bay", name="Bay of Gulls", difficulty="5",
                     values={"players": p, "difficulty": 5, "policy": "random"}) for p in (2, 4)],
        labels={"players": {"2": "duo"}})
    assert list(load_runs([run]).labels.values()) == ["Bay of Gulls · level 5 · duo",
                                                      "Bay of Gulls · level 5 · 4 players"]


def test_labels_of_several_runs_name_the_run_when_ids_clash(tmp_path):
    one = matrix_run(tmp_path / "one")
    two = matrix_run(tmp_path / "two", seed=1)
    labels = load_runs([one, two]).labels
    assert labels["one/layout=lagoon,difficulty=normal"] == "one: Lagoon · Normal"
    assert labels["two/layout=lagoon,difficulty=normal"] == "two: Lagoon · Normal"


def test_default_pairs_each_scenario_with_the_first_island_at_its_difficulty(data):
    pairing = pair_scenarios(data)
    base = {s: pairing.baselines[s] for s in data.scenarios}
    assert base == {
        "layout=forbidden_island,difficulty=novice": "layout=forbidden_island,difficulty=novice",
        "layout=forbidden_island,difficulty=normal": "layout=forbidden_island,difficulty=normal",
        "layout=skull_island,difficulty=novice": "layout=forbidden_island,difficulty=novice",
        "layout=skull_island,difficulty=normal": "layout=forbidden_island,difficulty=normal",
        "layout=lagoon,difficulty=novice": "layout=forbidden_island,difficulty=novice",
        "layout=lagoon,difficulty=normal": "layout=forbidden_island,difficulty=normal",
    }
    assert pairing.single is None
    assert pairing.description == ("each scenario against the scenario with layout=forbidden_island and every "
                                   "other matrix value the same")
    rates = compute(data, pairing)["win_rates"].set_index("label")
    assert rates.loc["Lagoon · Normal", "baseline_label"] == "Forbidden Island · Normal"
    assert rates.loc["Lagoon · Normal", "diff"] == pytest.approx(2 / 4 - 4 / 4)  # 2 of 4 won against 4 of 4
    assert rates["test"].tolist().count("baseline") == 2


def test_pairing_by_another_matrix_value(data):
    pairing = pair_scenarios(data, "difficulty=normal")
    assert pairing.baselines["layout=skull_island,difficulty=novice"] == "layout=skull_island,difficulty=normal"
    assert pairing.baselines["layout=lagoon,difficulty=normal"] == "layout=lagoon,difficulty=normal"


def test_a_scenario_id_is_one_baseline_for_all(data):
    pairing = pair_scenarios(data, "layout=skull_island,difficulty=normal")
    assert set(pairing.baselines.values()) == {"layout=skull_island,difficulty=normal"}
    assert pairing.single == "layout=skull_island,difficulty=normal"
    assert pairing.description == "every scenario against Skull Island · Normal"


def test_values_fixed_together_and_scenarios_without_a_like(tmp_path):
    data = load_runs([matrix_run(tmp_path / "p", extra={"players": 4})])
    pairing = pair_scenarios(data, "layout=lagoon,players=4")
    assert pairing.baselines["layout=skull_island,difficulty=novice,players=4"] == (
        "layout=lagoon,difficulty=novice,players=4")


@pytest.mark.parametrize("spec, message", [
    ("colour=red", "unknown baseline 'colour=red': give a scenario"),
    ("colour=red", "allowed: layout=forbidden_island|skull_island|lagoon; difficulty=novice|normal"),
    ("layout=atlantis", "layout has no value 'atlantis'; its values are: forbidden_island, skull_island, lagoon"),
    ("lagoon", "unknown baseline 'lagoon'"),
])
def test_unknown_baselines_name_what_is_allowed(data, spec, message):
    with pytest.raises(ReportError) as e:
        pair_scenarios(data, spec)
    assert message in str(e.value)
