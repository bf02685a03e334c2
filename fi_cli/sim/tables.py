"""The three datasets of a run (games, turns, tiles): their schemas, rows collected column-wise, atomic writes.

Layout on disk: DIR/<dataset>/scenario=<url-encoded id>/part-<chunk>.parquet (hive partitions, zstd).
Each file also holds the scenario id as a dictionary-encoded string column: a plain string column would
clash with the partition key's type when pandas/pyarrow read the whole dataset.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyarrow as pa
import pyarrow.parquet as pq

DATASETS = ("games", "turns", "tiles")
_SCENARIO = pa.dictionary(pa.int32(), pa.string())
_STRS = pa.list_(pa.string())
_I32, _I64, _STR = pa.int32(), pa.int64(), pa.string()

SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema([
        ("scenario", _SCENARIO), ("game", _I32), ("seed", _I64), ("layout", _STR), ("difficulty", _STR),
        ("start_level", _I32), ("players", _I32), ("roles", _STRS), ("first_player", _I32), ("policy", _STR),
        ("rules_version", _STR), ("outcome", _STR), ("loss_cause", _STR), ("loss_causes", _STRS),
        ("turns", _I32), ("final_water_level", _I32), ("treasures_captured", _I32), ("tiles_sunk", _I32),
        ("lost_treasure", _STR), ("drowned_tile", _STR),
    ]),
    "turns": pa.schema([
        ("scenario", _SCENARIO), ("game", _I32), ("turn", _I32), ("player", _I32), ("role", _STR),
        ("actions", _STRS), ("water_level", _I32), ("flood_draws", _STRS), ("waters_rise", _I32),
        ("tiles_flooded", _I32), ("tiles_sunk", _I32), ("treasures_captured", _I32), ("treasures", _STRS),
        ("hand_sizes", pa.list_(_I32)),
    ]),
    "tiles": pa.schema([
        ("scenario", _SCENARIO), ("game", _I32), ("tile", _STR), ("row", _I32), ("col", _I32),
        ("times_flooded", _I32), ("sunk_turn", _I32),
    ]),
}
# Record fields copied as they are (the rest are filled from the scenario and the game's number and seed).
_GAME_FIELDS = ("outcome", "loss_cause", "turns", "final_water_level", "treasures_captured", "tiles_sunk",
                "first_player", "lost_treasure", "drowned_tile")
_TURN_FIELDS = tuple(n for n in SCHEMAS["turns"].names if n not in ("scenario", "game"))
_TILE_FIELDS = tuple(n for n in SCHEMAS["tiles"].names if n not in ("scenario", "game"))
# List-valued fields are kept as tuples: a tuple of strings or ints drops out of the garbage collector's
# sight, a list does not, and rescanning a chunk's worth of lists made logging cost 4x as much as needed.
_LIST_FIELDS = frozenset(f.name for ds in SCHEMAS.values() for f in ds if pa.types.is_list(f.type))


class Columns:
    """The rows of some games, kept as one list per column (cheaper than a dict per row)."""

    def __init__(self) -> None:
        self.data: dict[str, dict[str, list]] = {ds: {n: [] for n in SCHEMAS[ds].names} for ds in DATASETS}
        self.n_games = 0

    def add(self, scenario: Any, game: int, seed: int, rec: Any, rules_version: str) -> None:
        """Append one played game (a GameRecord) of a Scenario."""
        g = self.data["games"]
        for name, value in (
            ("scenario", scenario.id), ("game", game), ("seed", seed), ("layout", scenario.layout.id),
            ("difficulty", scenario.difficulty), ("start_level", scenario.start_level),
            ("players", scenario.players), ("roles", tuple(rec.roles)), ("policy", scenario.policy_label),
            ("rules_version", rules_version), ("loss_causes", tuple(rec.loss_causes)),
        ):
            g[name].append(value)
        for name in _GAME_FIELDS:
            g[name].append(getattr(rec, name))
        for ds, rows, fields in (("turns", rec.turn_rows, _TURN_FIELDS), ("tiles", rec.tile_rows, _TILE_FIELDS)):
            cols = self.data[ds]
            cols["scenario"].extend([scenario.id] * len(rows))
            cols["game"].extend([game] * len(rows))
            for name in fields:
                if name in _LIST_FIELDS:
                    cols[name].extend([tuple(getattr(r, name)) for r in rows])
                else:
                    cols[name].extend([getattr(r, name) for r in rows])
        self.n_games += 1

    def tables(self, metadata: dict[str, str] | None = None) -> dict[str, pa.Table]:
        out = {}
        for ds in DATASETS:
            schema = SCHEMAS[ds].with_metadata(metadata) if metadata else SCHEMAS[ds]
            out[ds] = pa.table([pa.array(self.data[ds][n], type=schema.field(n).type) for n in schema.names],
                               schema=schema)
        return out


def partition_dir(out: Path, dataset: str, scenario_id: str) -> Path:
    """Hive partition directory; the id is url-encoded (pyarrow decodes it) but stays readable."""
    return Path(out) / dataset / f"scenario={quote(scenario_id, safe='=,+-_.()')}"


def chunk_path(out: Path, dataset: str, scenario_id: str, chunk: int) -> Path:
    return partition_dir(out, dataset, scenario_id) / f"part-{chunk:05d}.parquet"


def write_chunk(out: Path, scenario_id: str, chunk: int, tables: dict[str, pa.Table]) -> None:
    """Write a chunk's three files; each appears whole or not at all (temp file, then rename)."""
    for ds in DATASETS:
        final = chunk_path(out, ds, scenario_id, chunk)
        final.parent.mkdir(parents=True, exist_ok=True)
        # A leading dot hides half-written files from pyarrow's dataset discovery.
        tmp = temp_path(final)
        pq.write_table(tables[ds], tmp, compression="zstd")
        os.replace(tmp, final)


def temp_path(final: Path) -> Path:
    """Where ``final`` is written before its atomic rename (this process's own, hidden by the dot)."""
    return final.with_name(f".{final.name}.tmp-{os.getpid()}")


def stale_temp_files(out: Path) -> Iterable[Path]:
    """Temp files a killed run left anywhere in its directory (chunk files and the manifest)."""
    return Path(out).rglob(".*.tmp-*")
