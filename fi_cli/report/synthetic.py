"""Write a small synthetic run in the exact on-disk format of `fi simulate`.

Tests and demos use it so the report can be checked without the simulator. Games are made from a short
description (outcome, loss cause, length), so a test knows every number the report should compute.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from fi_cli.island.tiles import SKULL, TILES, TREASURE_TILES, TREASURES
from fi_cli.sim.tables import chunk_path

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
    drowned_tile: str | None = None  # lost_treasure is the treasure whose two tiles are in `sunk`, if any

    @property
    def lost_treasure(self) -> str | None:
        if self.loss_cause != "treasure_lost":
            return None
        return next((t for t, pair in zip(TREASURES, TREASURE_TILES, strict=True)
                     if all(TILES[i] in self.sunk for i in pair) and t not in self.captures), None)


@dataclass
class FakeScenario:
    id: str
    games: list[FakeGame]
    layout: str = "standard"
    rows: Sequence[str] = STANDARD_ROWS
    values: dict = field(default_factory=dict)  # matrix values; default {"layout": ..., "difficulty": ...}
    name: str = ""  # the layout's name; default: its id
    difficulty: str = "normal"
    pins: dict[str, tuple[int, int]] = field(default_factory=dict)  # for the manifest: tiles are placed below

    def to_dict(self, index: int) -> dict:
        """The scenario as a manifest's resolved study holds it (the parts a report reads)."""
        cells = _cells(self.rows)
        layout = {"id": self.layout, "name": self.name or self.layout, "description": "", "rows": list(self.rows),
                  "cells": [list(c) for c in cells], "pins": {t: list(c) for t, c in self.pins.items()}}
        return {"index": index, "id": self.id, "values": self.matrix_values, "layout": layout,
                "difficulty": self.difficulty, "players": 2, "policy": {"name": "random", "params": {}}}

    @property
    def matrix_values(self) -> dict:
        return self.values or {"layout": self.layout, "difficulty": self.difficulty}


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
    labels: dict[str, dict[str, str]] | None = None,
    baseline: str | None = None,
) -> Path:
    """Write `path/{manifest.json,games,turns,tiles}` for the given scenarios and return `path`: a complete
    run of one chunk per scenario (so every scenario needs the same number of games).

    Tiles are placed in TILES order on the layout's cells (fools_landing on the first cell), so a test
    can tell which cell a tile stood on; `shuffle_tiles` places all but fools_landing at random instead.
    `treasures_column=False` leaves capture timing to the actions text; `labels` and `baseline` are the study's.
    """
    path = Path(path)
    rng = np.random.default_rng(seed)
    n_games = {len(s.games) for s in scenarios}
    if len(n_games) != 1:
        raise ValueError(f"every scenario of a run has the same number of games, not {sorted(n_games)}")
    (n,) = n_games
    manifest = {
        "format": 1,
        "name": name or path.name,
        "study_hash": "synthetic",
        "root_seed": seed,
        "package_version": "0.1.0",
        "rules_version": rules_version,
        "study_file": None,
        "games_per_scenario": n,
        "chunk_size": n,
        "scenarios": [{"id": s.id, "values": s.matrix_values, "index": i}
                      for i, s in enumerate(scenarios)],
        "chunks_total": len(scenarios),
        "chunks_done": {s.id: [0] for s in scenarios},
        "games_done": n * len(scenarios),
        "complete": True,
        "study": {"name": name or path.name, "description": "", "games": n, "seed": seed, "chunk_size": n,
                  "scenarios": [s.to_dict(i) for i, s in enumerate(scenarios)], "labels": labels or {},
                  **({"baseline": baseline} if baseline else {})},
    }
    path.mkdir(parents=True, exist_ok=True)
    (path / "manifest.json").write_text(json.dumps(manifest, indent=2))
    for sc in scenarios:
        games: dict[str, list] = {k: [] for k in (
            "game", "seed", "layout", "difficulty", "players", "roles", "policy", "outcome", "loss_cause",
            "loss_causes", "turns", "final_water_level", "treasures_captured", "tiles_sunk", "lost_treasure",
            "drowned_tile")}
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
            games["difficulty"].append(sc.difficulty)
            games["players"].append(2)
            games["roles"].append(["pilot", "diver"])
            games["policy"].append("random")
            games["outcome"].append(fg.outcome)
            games["loss_cause"].append(fg.loss_cause if fg.outcome == "loss" else None)
            causes = [fg.loss_cause] if fg.outcome == "loss" else []
            if fg.drowned_tile and "player_drowned" not in causes:
                causes.append("player_drowned")
            games["loss_causes"].append(causes)
            games["lost_treasure"].append(fg.lost_treasure)
            games["drowned_tile"].append(fg.drowned_tile)
            games["turns"].append(fg.turns)
            games["final_water_level"].append(level)
            games["treasures_captured"].append(len(fg.captures))
            games["tiles_sunk"].append(len(fg.sunk))
        types = {"sunk_turn": pa.int64(), "loss_cause": pa.string(), "lost_treasure": pa.string(),
                 "drowned_tile": pa.string(), "loss_causes": pa.list_(pa.string())}
        for dataset, cols in (("games", games), ("turns", turns), ("tiles", tiles)):
            f = chunk_path(path, dataset, sc.id, 0)
            f.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.table({k: pa.array(v, type=types.get(k)) for k, v in cols.items()}), f)
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
    **kw,
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
        drowned = None
        if cause == "fools_landing_sunk":
            sunk["fools_landing"] = length
        elif cause == "treasure_lost":
            lost = int(rng.choice([i for i, t in enumerate(TREASURES) if t not in captures]))
            sunk.update({TILES[i]: length for i in TREASURE_TILES[lost]})
        elif cause == "player_drowned":
            drowned = str(rng.choice(TILES[1:]))
            sunk[drowned] = length
        games.append(FakeGame("win" if win else "loss", cause, length, start_level, rises, captures, sunk, drowned))
    return FakeScenario(id, games, layout=layout, rows=rows, **kw)
