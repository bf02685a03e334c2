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


def test_default_pairs_each_scenario_with_the_standard_island_at_its_difficulty(data):
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
    assert pairing.description == ("each scenario against the scenario with layout=forbidden_island and the same "
                                   "difficulty (the standard island: the study names no baseline)")
    rates = compute(data, pairing)["win_rates"].set_index("label")
    assert rates.loc["Lagoon · Normal", "baseline_label"] == "Forbidden Island · Normal"
    assert rates.loc["Lagoon · Normal", "diff"] == pytest.approx(2 / 4 - 4 / 4)  # 2 of 4 won against 4 of 4
    assert rates["test"].tolist().count("baseline") == 2


def test_the_standard_island_is_the_default_wherever_it_stands_in_the_matrix(tmp_path):
    """Not the first value of the matrix: an island listed (or sorted from a folder) before it is no reference."""
    scenarios = [FakeScenario(f"layout={lid}", games(w), layout=lid, name=lid, values={"layout": lid})
                 for lid, w in (("atoll", 1), ("forbidden_island", 3))]
    pairing = pair_scenarios(load_runs([write_run(tmp_path / "r", scenarios)]))
    assert set(pairing.baselines.values()) == {"layout=forbidden_island"}


def test_without_a_standard_island_each_island_is_compared_with_the_others_pooled(tmp_path):
    """The mean of all the other islands at the same difficulty (their games pooled), never the first island."""
    wins = {("atoll", "novice"): 1, ("bay", "novice"): 2, ("cove", "novice"): 4, ("atoll", "normal"): 0,
            ("bay", "normal"): 1, ("cove", "normal"): 3}
    scenarios = [FakeScenario(f"layout={lid},difficulty={d}", games(w), layout=lid, name=lid.title(), difficulty=d,
                              values={"layout": lid, "difficulty": d}) for (lid, d), w in wins.items()]
    data = load_runs([write_run(tmp_path / "r", scenarios)])
    pairing = pair_scenarios(data)
    assert pairing.baselines["layout=atoll,difficulty=normal"] == ("layout=bay,difficulty=normal",
                                                                   "layout=cove,difficulty=normal")
    assert pairing.description == ("each island against all the other islands with the same difficulty, their "
                                   "games pooled: the study names no baseline and the standard island is not played")
    rates = compute(data, pairing)["win_rates"].set_index("label")
    assert rates.loc["Atoll · Normal", "diff"] == pytest.approx(0 / 4 - 4 / 8)  # 0 of 4 against 1 + 3 of 8
    assert rates.loc["Cove · Novice", "diff"] == pytest.approx(4 / 4 - 3 / 8)
    assert rates.loc["Atoll · Normal", "baseline_label"] == "the other 2, pooled"
    assert rates.loc["Atoll · Normal", "baseline"] == "layout=bay,difficulty=normal + layout=cove,difficulty=normal"
    assert "baseline" not in set(rates["test"])


def test_the_studys_baseline_is_the_default_and_the_page_says_so(tmp_path):
    scenarios = [FakeScenario(f"difficulty={d}", games(w), layout="bay", name="Bay", difficulty=d,
                              values={"difficulty": d}) for d, w in (("novice", 3), ("normal", 1))]
    data = load_runs([write_run(tmp_path / "r", scenarios, baseline="difficulty=normal")])
    pairing = pair_scenarios(data)
    assert set(pairing.baselines.values()) == {"difficulty=normal"}
    assert pairing.description == "every scenario against Bay · Normal (the study's baseline)"
    assert pair_scenarios(data, "difficulty=novice").baselines["difficulty=normal"] == "difficulty=novice"


def test_pairing_by_another_matrix_value(data):
    pairing = pair_scenarios(data, "difficulty=normal")
    assert pairing.baselines["layout=skull_island,difficulty=novice"] == "layout=skull_island,difficulty=normal"
    assert pairing.baselines["layout=lagoon,difficulty=normal"] == "layout=lagoon,difficulty=normal"


def test_a_scenario_id_is_one_baseline_for_all(data):
    pairing = pair_scenarios(data, "layout=skull_island,difficulty=normal")
    assert set(pairing.baselines.values()) == {"layout=skull_island,difficulty=normal"}
    assert pairing.single == "layout=skull_island,difficulty=normal"
    assert pairing.description == "every scenario against Skull Island · Normal (chosen with --baseline)"


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
