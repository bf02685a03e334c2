"""Every number of the report's tables, as the row-by-row computation on whole tables in pandas gave them before the
report read runs chunk by chunk and kept of their turns and tiles only counts (pinned on main at 9741e12): real
island and desert runs of several chunks per scenario, a ladder of players with the oracle, runs of changed
components (other water meters, storm meters and canteens), and a synthetic run whose captures are timed from the
actions' text. The data these runs write is pinned too: recording must not change a value."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest
from test_sim_run import data_digest

from fi_cli.desert.policies.heuristic import BY_PLAYERS, DEFAULTS
from fi_cli.report import ladder, load, tally
from fi_cli.report.build import compute
from fi_cli.report.games import section
from fi_cli.report.load import load_runs
from fi_cli.report.pairing import pair_scenarios
from fi_cli.report.stats import endings_in
from fi_cli.report.synthetic import random_scenario, write_run
from fi_cli.report.tables import summary_table
from fi_cli.sim.api import load_study, run_study

# The Desert studies play the heuristic as it was when the digests were pinned (w_well_risk 0, the default until
# 2026-12-05; w_gather 1.44, w_sprint 0 and refuge_water -1, the defaults until 2026-12-06; and for these teams of
# three the general weights where a team of three has its own since 2026-12-06, BY_PLAYERS[3]): the same games;
# only the policy's parameters, written with the data, changed the data's digests. The keys are those three's
# weights had when the digests were pinned (refuge_give, refuge_water and scope_water came with three's weights
# tuned again; refuge_water is given below). Since 2026-12-07 the Navigator moving the Climber brings a rider
# along (nav_ride 1), and from 2026-12-07 (twelfth session) jets fly pawns to the Launch Pad as the current pawn's turn
# brings the rest (jet_walk 1), and from the fifteenth session a pawn takes a tile-mate's Jet Pack to fly (jet_pass 1);
# from the sixteenth, a pawn leaving the shade takes one more water (shade_gift 1), a Solar Shield is passed to
# the pawn whose next turn is furthest off (shield_pass 1) and a pawn leaving its tile takes the Dune Blaster and
# Jet Pack of a pawn staying there (gear_leave 1); they are off here. From the eighteenth session every team size
# plays the defaults' Jet Pack weights, changed then (OLD_JET: the defaults before).
OLD_JET = {"jet_cost": 8.86, "jet_tasks": 6.0}
PINNED_KEYS = sorted(set(BY_PLAYERS[3]) - {"refuge_give", "refuge_water", "scope_water"} | set(OLD_JET))
OLD_DESERT = json.dumps({"name": "heuristic", **{k: OLD_JET.get(k, DEFAULTS[k]) for k in PINNED_KEYS},
                         "w_well_risk": 0, "w_gather": 1.44, "w_sprint": 0, "refuge_water": -1,
                         "nav_ride": 0, "jet_walk": 0, "jet_pass": 0, "shade_gift": 0, "shield_pass": 0,
                         "gear_leave": 0})  # fmt: skip
STUDIES = {
    "island": """\
name: island
games: 40
seed: 5
chunk_size: 15
game: {players: 4}
policy: heuristic
matrix:
  difficulty: [novice, elite]
  layout: [forbidden_island, skull_island]
""",
    "desert": """\
name: desert
games: 30
seed: 5
chunk_size: 12
game: {name: desert, players: 3}
policy: OLD_DESERT
matrix:
  storm_start: [1, 6]
""",
    "ladder": """\
name: ladder
games: 8
seed: 3
chunk_size: 3
game: {difficulty: elite, players: 4}
matrix:
  layout: [forbidden_island, skull_island]
  policy: [random, heuristic, {name: oracle, budget: 40}]
""",
    "island_components": """\
name: island_components
games: 24
seed: 8
chunk_size: 10
game:
  players: 3
  components: {waters_rise: 4}
policy: heuristic
matrix:
  components.water_meter: [[2, 2, 3, 3, 3, 4, 4, 5, 5], [2, 3, 4, 5], [2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5]]
""",
    "desert_components": """\
name: desert_components
games: 20
seed: 8
chunk_size: 8
game:
  name: desert
  players: 3
  components: {canteens: {water_carrier: 6}}
policy: OLD_DESERT
matrix:
  components.storm_meter: [[1, 2, 2, 3, 3, 4, 4, 5], [2, 3, 4, 5]]
  components.canteens: [{}, {explorer: 3}]
""",
}
STUDIES = {name: text.replace("OLD_DESERT", OLD_DESERT) for name, text in STUDIES.items()}
NAMES = [*STUDIES, "actions"]


def report_tables(run: Path) -> dict[str, pd.DataFrame]:
    """Every table fi report writes of a run of one game: the section's, the summary and the ladder's."""
    data = load_runs([run])
    game = section(data.game)
    tables = compute(data, pair_scenarios(data))
    tables["summary"] = summary_table(tables["outcomes"], tables["win_rates"],
                                      endings_in(data.games, game.ENDINGS),
                                      [(column, header) for column, _, header in game.MEANS])
    if ladder.applies(data):
        tables |= ladder.compute(data)
    return tables


def table_digests(run: Path) -> dict[str, str]:
    """Each table as fi report writes it to CSV, digested."""
    return {stem: hashlib.sha256(df.to_csv(index=False, float_format="%.6g").encode()).hexdigest()[:16]
            for stem, df in sorted(report_tables(run).items())}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("same")
    out = {}
    for name, text in STUDIES.items():
        (tmp / f"{name}.yaml").write_text(text)
        out[name] = run_study(load_study(tmp / f"{name}.yaml"), tmp / name, workers=1, progress=False)
    out["actions"] = write_run(tmp / "actions", [random_scenario("a", 60, seed=1), random_scenario("b", 60, seed=2)],
                               treasures_column=False)
    return out


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("batches", ["one batch", "a batch a chunk"])
def test_every_table_has_the_numbers_of_the_whole_table_computation(runs, name, batches, monkeypatch):
    if batches == "a batch a chunk":  # counts of every chunk added up, and compacted as they come
        monkeypatch.setattr(load, "BATCH_ROWS", 1)
        monkeypatch.setattr(tally, "COMPACT_ROWS", 50)
    assert table_digests(runs[name]) == DIGESTS[name]


@pytest.mark.parametrize("name", list(STUDIES))
def test_the_data_written_is_what_main_wrote(runs, name):
    assert data_digest(runs[name]) == DATA[name]


def test_turns_are_counted_a_batch_at_a_time(runs, monkeypatch):
    """No more turns rows are held at once than a batch (and the chunk that fills it), however long the run."""
    from fi_cli.report import island

    seen = []
    real = island.counts
    monkeypatch.setattr(island, "counts", lambda frames: seen.append(len(frames["turns"])) or real(frames))
    monkeypatch.setattr(load, "BATCH_ROWS", 300)
    data = load_runs([runs["island"]])
    longest = int(data.games["turns"].max())
    assert len(seen) > 3 and max(seen) < 300 + 15 * longest  # a chunk holds 15 games
    assert sum(seen) == sum(data.games["turns"])


def test_the_report_command_gives_arrow_memory_back_unless_told_otherwise(monkeypatch):
    import pyarrow as pa

    from fi_cli.commands.common import use_system_allocator

    before = pa.default_memory_pool()
    try:
        monkeypatch.setenv("ARROW_DEFAULT_MEMORY_POOL", "jemalloc")
        use_system_allocator()
        assert pa.default_memory_pool().backend_name == before.backend_name
        monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL")
        use_system_allocator()
        assert pa.default_memory_pool().backend_name == "system"
    finally:
        pa.set_memory_pool(before)


DIGESTS: dict[str, dict[str, str]] = {
    "island": {
        "island_left": "e4df660e690a3009", "loss_cells": "eb4609470f9ab42d", "loss_stage": "8f5f4b5edec8f18c",
        "lost_treasures": "17a3517a9e4e0210", "outcomes": "671274c9eeee2416", "summary": "f87c2e373f7498e3",
        "survival": "4a6bdd1d24b33ef0", "tile_risk_cells": "8b0a9d9cc0adfc6d", "tile_risk_tiles": "6b74b8a2e4ef6733",
        "treasure_captures": "94e9526c291602cf", "treasures_by_turn": "461685c38c519849",
        "water_at_loss": "cdead6b0c9076636", "water_level_reached": "ad5a909863b2b8bf",
        "water_levels": "79f903c1e4df1ee5", "win_rates": "82c423487f1af199",
    },
    "desert": {
        "heat_cells": "ad99c3eb664300fd", "loss_stage": "2ad460d38d756228", "lowest_supply": "a4b8454a5580b9ea",
        "outcomes": "59e8d9d7c5c4268b", "part_finds": "7f09e0b63f96472d", "sand": "0ddaf0ef2eb5f227",
        "storm_levels": "22a7df76fac040dd", "summary": "8b75c008f31e5fb9", "survival": "35c10f445e249be0",
        "thirst": "592b61316c631ecc", "win_rates": "4444da8807a84616",
    },
    "ladder": {
        "island_left": "72f48d11f5aa00db", "ladder": "4d10e4dfbf779a95", "ladder_summary": "83fc9d4eb0299300",
        "loss_cells": "33bcfa93f4aeeff4", "loss_stage": "623e7c7bd5a64bac", "lost_treasures": "92f9f6941eeb2bff",
        "outcomes": "3635da760efeb917", "summary": "952b8403a8d75f42", "survival": "66f0cc7d554d28f8",
        "tile_risk_cells": "ca563d5fe497e2e7", "tile_risk_tiles": "95e897ce0d8f8434",
        "treasure_captures": "e41ae33fe653c4ac", "treasures_by_turn": "7c82401d8f2f3baf",
        "water_at_loss": "3d54f1218c6b6aed", "water_level_reached": "a1338312cb09dc00",
        "water_levels": "c4de8d6c28f59d74", "win_rates": "c20c442e54bf8e9d",
    },
    "island_components": {
        "island_left": "5c39d18135fefa85", "loss_cells": "cc46b774ba5e212a", "loss_stage": "85ce0da37f4e6633",
        "lost_treasures": "40b7e34d1a6dacc0", "outcomes": "e9b8498b58f043fb", "summary": "a8feb5b513d3a0ae",
        "survival": "67ca8e37d14f3f50", "tile_risk_cells": "1677f38bad4df213", "tile_risk_tiles": "92c29f4fda106ce1",
        "treasure_captures": "dee333ce373d3a31", "treasures_by_turn": "fcb17e34ec70cbf5",
        "water_at_loss": "7dac35609fd70cc8", "water_level_reached": "80a2f4176cae90ac",
        "water_levels": "54ef58744e987385", "win_rates": "c335f2f3ecf9846b",
    },
    "desert_components": {
        "heat_cells": "d85124e481421e4a", "loss_stage": "417e7846d9d5f83a", "lowest_supply": "5c096687492cde0f",
        "outcomes": "81457ca8afbb22ab", "part_finds": "566c0d8fa866d9b7", "sand": "c1808ed1180900dc",
        "storm_levels": "ea344885e00e072f", "summary": "7d0618c240bc1f40", "survival": "07e5b597f96839ea",
        "thirst": "047e4ceb6d962152", "win_rates": "113a2b4d46392960",
    },
    "actions": {
        "island_left": "f4a48dd599504ff8", "loss_cells": "eba99c45de01d928", "loss_stage": "30991ca64d25e603",
        "lost_treasures": "27c7c7235a5115ec", "outcomes": "6ca7c7b74ec8c2ae", "summary": "0912fdeecd1b9ac5",
        "survival": "b744998dc947b172", "tile_risk_cells": "bd199ba0e167729e", "tile_risk_tiles": "9b923028f3a7068e",
        "treasure_captures": "d3d61e95f30bea7b", "treasures_by_turn": "56238b6631a62a5e",
        "water_at_loss": "b6e71a0a1339d3d7", "water_level_reached": "3af4b1775fa4e4c1",
        "water_levels": "361662de7e1752ab", "win_rates": "8ab89413572fb5a0",
    },
}
DATA: dict[str, str] = {
    "island": "b49dcda11a5c9b417ed4bec63908972563b143203b27f82025bdf511c083d6a9",
    "desert": "696c473450ef6157468fda31fe70dd927e883888c9d8e5a2eab5badf51c88836",
    "ladder": "373fca0527e5e81de91d71e23c98e9a9383e78a821dd024188afcce3fbd8e3b6",
    "island_components": "ae52819aa306370b174796754a8ccc3fe6401025876b560695f89d2d4ed8b2f4",
    "desert_components": "4d63f2887a8905da7649adc7f0128248a924192fbb236addf46c55e983a45243",
}
