"""Write a small synthetic run in the exact on-disk format of `fi simulate`.

Tests and demos use it so the report can be checked without the simulator. Games are made from a short
description (outcome, loss cause, length), so a test knows every number the report should compute.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from fi_cli.island.tiles import SKULL, TILES, TREASURES

STANDARD_ROWS = ("..XX..", ".XXXX.", "XXXXXX", "XXXXXX", ".XXXX.", "..XX..")


@dataclass
class FakeGame:
    """One game to write: how it ended, after how many turns, and how the water rose."""

    outcome: str = "loss"
    loss_cause: str | None = "treasure_lost"
    turns: int = 10
    start_level: int = 2
    rises: Sequence[int] = ()  # turns (1-based) with one Waters Rise! each
    captures: dict[str, int] = field(default_factory=dict)  # treasure id -> capture turn
    sunk: dict[str, int] = field(default_factory=dict)  # tile id -> sunk turn


@dataclass
class FakeScenario:
    id: str
    games: list[FakeGame]
    layout: str = "standard"
    rows: Sequence[str] = STANDARD_ROWS
    values: dict = field(default_factory=dict)


def _cells(rows: Sequence[str]) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]


def write_run(
    path: Path,
    scenarios: Sequence[FakeScenario],
    *,
    name: str | None = None,
    rules_version: str = "fi-rules-1",
    treasures_column: bool = True,
    shuffle_tiles: bool = False,
    seed: int = 0,
) -> Path:
    """Write `path/{manifest.json,games,turns,tiles}` for the given scenarios and return `path`.

    Tiles are placed in TILES order on the layout's cells (fools_landing on the first cell), so a test
    can tell which cell a tile stood on; `shuffle_tiles` places all but fools_landing at random instead.
    `treasures_column=False` leaves capture timing to the actions text.
    """
    path = Path(path)
    rng = np.random.default_rng(seed)
    manifest = {
        "name": name or path.name,
        "study_hash": "synthetic",
        "root_seed": seed,
        "package_version": "0.1.0",
        "rules_version": rules_version,
        "scenarios": [{"id": s.id, "values": s.values or {"layout": s.layout}} for s in scenarios],
        "chunks_done": [],
    }
    path.mkdir(parents=True, exist_ok=True)
    (path / "manifest.json").write_text(json.dumps(manifest, indent=2))
    for sc in scenarios:
        games: dict[str, list] = {k: [] for k in (
            "game", "seed", "layout", "difficulty", "players", "roles", "policy", "outcome", "loss_cause",
            "turns", "final_water_level", "treasures_captured", "tiles_sunk")}
        turns: dict[str, list] = {k: [] for k in (
            "game", "turn", "player", "role", "actions", "water_level", "flood_draws", "waters_rise",
            "tiles_flooded", "tiles_sunk", "treasures_captured", "hand_sizes")}
        if treasures_column:
            turns["treasures"] = []
        tiles: dict[str, list] = {k: [] for k in ("game", "tile", "row", "col", "times_flooded", "sunk_turn")}
        cells = _cells(sc.rows)
        for g, fg in enumerate(sc.games):
            level = fg.start_level
            for t in range(1, fg.turns + 1):
                rise = sum(1 for r in fg.rises if r == t)
                level += rise
                got = sorted((tr for tr, ct in fg.captures.items() if ct <= t), key=TREASURES.index)
                actions = [f"capture(p{t % 2}, {tr})" for tr, ct in fg.captures.items() if ct == t]
                turns["game"].append(g)
                turns["turn"].append(t)
                turns["player"].append(t % 2)
                turns["role"].append(("pilot", "diver")[t % 2])
                turns["actions"].append(actions or ["move(p0, watchtower)"])
                turns["water_level"].append(level)
                turns["flood_draws"].append([str(rng.choice(TILES))])
                turns["waters_rise"].append(rise)
                turns["tiles_flooded"].append(1)
                turns["tiles_sunk"].append(sum(1 for st in fg.sunk.values() if st <= t))
                turns["treasures_captured"].append(len(got))
                if treasures_column:
                    turns["treasures"].append(got)
                turns["hand_sizes"].append([2, 2])
            placed = list(cells)
            if shuffle_tiles:
                rest = placed[1:]
                rng.shuffle(rest)
                placed = placed[:1] + rest
            for tile, (r, c) in zip(TILES, placed, strict=True):
                tiles["game"].append(g)
                tiles["tile"].append(tile)
                tiles["row"].append(r)
                tiles["col"].append(c)
                tiles["times_flooded"].append(1 if tile in fg.sunk else 0)
                tiles["sunk_turn"].append(fg.sunk.get(tile))
            games["game"].append(g)
            games["seed"].append(int(rng.integers(2**31)))
            games["layout"].append(sc.layout)
            games["difficulty"].append("normal")
            games["players"].append(2)
            games["roles"].append(["pilot", "diver"])
            games["policy"].append("random")
            games["outcome"].append(fg.outcome)
            games["loss_cause"].append(fg.loss_cause if fg.outcome == "loss" else None)
            games["turns"].append(fg.turns)
            games["final_water_level"].append(level)
            games["treasures_captured"].append(len(fg.captures))
            games["tiles_sunk"].append(len(fg.sunk))
        part = f"scenario={urllib.parse.quote(sc.id, safe='')}"
        for dataset, cols in (("games", games), ("turns", turns), ("tiles", tiles)):
            d = path / dataset / part
            d.mkdir(parents=True, exist_ok=True)
            types = {"sunk_turn": pa.int64(), "loss_cause": pa.string()}
            table = pa.table({k: pa.array(v, type=types.get(k)) for k, v in cols.items()})
            pq.write_table(table, d / "part-00000.parquet")
    return path


def random_scenario(
    id: str,
    n: int,
    *,
    win_rate: float = 0.2,
    start_level: int = 2,
    layout: str = "standard",
    rows: Sequence[str] = STANDARD_ROWS,
    seed: int = 0,
) -> FakeScenario:
    """A scenario of n plausible-looking random games (for demos and figure tests, not for statistics)."""
    rng = np.random.default_rng(seed)
    causes = ("treasure_lost", "fools_landing_sunk", "player_drowned", "water_level")
    games = []
    for _ in range(n):
        win = rng.random() < win_rate
        cause = None if win else str(rng.choice(causes, p=(0.45, 0.2, 0.15, 0.2)))
        length = int(rng.integers(25, 45) if win else rng.integers(6, 40))
        if cause == "water_level":
            rises = sorted(int(x) for x in rng.choice(np.arange(1, length + 1), SKULL - start_level))
            rises[-1] = length
        else:
            k = min(SKULL - start_level - 1, int(rng.poisson(length / 9)))
            rises = sorted(int(x) for x in rng.integers(1, length + 1, k))
        n_caps = 4 if win else int(rng.integers(0, 4))
        captures = {t: int(rng.integers(3, length + 1)) for t in rng.permutation(TREASURES)[:n_caps]}
        sunk_tiles = rng.permutation(TILES[1:])[: int(rng.integers(0, 8))]
        sunk = {str(t): int(rng.integers(1, length + 1)) for t in sunk_tiles}
        if cause == "fools_landing_sunk":
            sunk["fools_landing"] = length
        games.append(FakeGame("win" if win else "loss", cause, length, start_level, rises, captures, sunk))
    return FakeScenario(id, games, layout=layout, rows=rows)
