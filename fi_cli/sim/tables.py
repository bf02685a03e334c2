"""The three datasets of a run (games, turns, tiles): rows collected column-wise, atomic writes. The schemas
are each game's (its door in `fi_cli.sim.games`).

Layout on disk: DIR/<dataset>/scenario=<url-encoded id>/part-<chunk>.parquet (hive partitions, zstd).
Each file also holds the scenario id as a dictionary-encoded string column: a plain string column would
clash with the partition key's type when pandas/pyarrow read the whole dataset.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterable
from itertools import accumulate, chain
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyarrow as pa
import pyarrow.parquet as pq

DATASETS = ("games", "turns", "tiles")
# Column types of the games' schemas (each game's door, `fi_cli.sim.games.<game>`, has its own).
SCENARIO = pa.dictionary(pa.int32(), pa.string())
STRS = pa.list_(pa.string())
I32, I64, STR = pa.int32(), pa.int64(), pa.string()


class ListColumn:
    """A list-valued column kept flat: the items of all its rows in one list, and each row's length. No container
    is kept per row, so a chunk's rows give the garbage collector nothing to track (a tuple per row made it run
    every dozen games), and Arrow takes the items as they are."""

    __slots__ = ("items", "lengths")

    def __init__(self) -> None:
        self.items: list = []
        self.lengths: list[int] = []

    def append(self, row: Iterable[Any]) -> None:
        n = len(self.items)
        self.items.extend(row)
        self.lengths.append(len(self.items) - n)

    def extend(self, rows: Iterable[Any]) -> None:
        rows = rows if isinstance(rows, (list, tuple)) else list(rows)
        self.lengths.extend(map(len, rows))
        self.items.extend(chain.from_iterable(rows))

    def add_flat(self, flat: tuple[list, list[int]]) -> None:
        """Append rows given flat: (their items in one list, each row's length)."""
        self.items.extend(flat[0])
        self.lengths.extend(flat[1])

    def __len__(self) -> int:
        return len(self.lengths)

    def array(self, type: pa.ListType) -> pa.Array:
        """The Arrow array (the very array pyarrow makes from the rows' lists)."""
        offsets = _ints(accumulate(self.lengths, initial=0), I32)
        assert offsets is not None  # lengths are small ints
        return pa.ListArray.from_arrays(offsets, _array(self.items, type.value_type), type=type)


class Columns:
    """The rows of some games, kept as one list per column (cheaper than a dict per row), a list-valued column as
    a ListColumn; `schemas` are a game's three schemas."""

    def __init__(self, schemas: dict[str, pa.Schema]) -> None:
        self.schemas = schemas
        self.data: dict[str, dict[str, Any]] = {
            ds: {f.name: ListColumn() if pa.types.is_list(f.type) else [] for f in schemas[ds]} for ds in DATASETS}
        # per dataset: the columns a game's record gives (all but scenario and game)
        self._fields = {ds: tuple(n for n in schemas[ds].names if n not in ("scenario", "game")) for ds in DATASETS}
        # per dataset and column: what appends a game's values given column by column (see add_columns)
        self._adders = {ds: {n: c.add_flat if isinstance(c, ListColumn) else c.extend for n, c in cols.items()}
                        for ds, cols in self.data.items()}
        self._appenders = {n: c.append for n, c in self.data["games"].items()}  # a games row's values
        self.n_games = 0

    def add_game(self, values: Iterable[tuple[str, Any]]) -> None:
        """Append one games row, given as (column, value) pairs."""
        add = self._appenders
        for name, value in values:
            add[name](value)
        self.n_games += 1

    def add_columns(self, dataset: str, scenario_id: str, game: int, rows: dict[str, Any]) -> None:
        """Append one game's rows of `dataset` given column by column: a list per column, a list-valued column as
        (its rows' items in one list, each row's length)."""
        cols, adders = self.data[dataset], self._adders[dataset]
        before = len(cols["scenario"])
        for name, values in rows.items():
            adders[name](values)
        n = len(cols[self._fields[dataset][0]]) - before
        cols["scenario"].extend([scenario_id] * n)
        cols["game"].extend([game] * n)

    def tables(self, metadata: dict[str, str] | None = None) -> dict[str, pa.Table]:
        out = {}
        for ds in DATASETS:
            schema = self.schemas[ds].with_metadata(metadata) if metadata else self.schemas[ds]
            out[ds] = pa.table([_array(self.data[ds][n], schema.field(n).type) for n in schema.names], schema=schema)
        return out


def _array(values: list | ListColumn, type: pa.DataType) -> pa.Array:
    """The Arrow array of a column; a dictionary column (the scenario id, the same in thousands of rows) is
    built from its codes, the very array pyarrow builds from the values, at a fraction of the cost."""
    if isinstance(values, ListColumn):
        return values.array(type)
    if pa.types.is_dictionary(type):
        if values and values.count(values[0]) == len(values):  # one value (a chunk's scenario): no look-ups
            indices, codes = pa.repeat(pa.scalar(0, type.index_type), len(values)), {values[0]: 0}
        else:
            codes = {}
            indices = _array([codes.setdefault(v, len(codes)) for v in values], type.index_type)
        return pa.DictionaryArray.from_arrays(indices, pa.array(list(codes), type.value_type))
    ints = _ints(values, type) if type in _INT_CODES else None
    return pa.array(values, type=type) if ints is None else ints


# struct's codes of Arrow's integer types, in the machine's order and sizes (Arrow's buffers are native-endian)
_INT_CODES = {I32: "i", I64: "q"}


def _ints(values: Iterable[Any], type: pa.DataType) -> pa.Array | None:
    """An integer column's Arrow array packed straight from its values (a tenth of the time of pyarrow's
    conversion of a list; the same array), or None when a value is not an int in range (a null): pyarrow's own
    conversion takes those."""
    values = values if isinstance(values, list) else list(values)
    try:
        data = struct.pack(f"{len(values)}{_INT_CODES[type]}", *values)
    except struct.error:
        return None
    return pa.Array.from_buffers(type, len(values), [None, pa.py_buffer(data)])


NAME_MAX = 255  # bytes in a file or directory name on the usual file systems


def partition_name(scenario_id: str) -> str:
    """A scenario's hive partition directory name; the id is url-encoded (pyarrow decodes it) but stays readable."""
    return f"scenario={quote(scenario_id, safe='=,+-_.()')}"


def partition_dir(out: Path, dataset: str, scenario_id: str) -> Path:
    return Path(out) / dataset / partition_name(scenario_id)


def chunk_path(out: Path, dataset: str, scenario_id: str, chunk: int) -> Path:
    return partition_dir(out, dataset, scenario_id) / f"part-{chunk:05d}.parquet"


def encode_chunk(tables: dict[str, pa.Table]) -> dict[str, bytes]:
    """A chunk's three tables as the bytes of their Parquet files (zstd)."""
    out = {}
    for ds in DATASETS:
        sink = pa.BufferOutputStream()
        pq.write_table(tables[ds], sink, compression="zstd")
        out[ds] = sink.getvalue().to_pybytes()
    return out


def write_chunk(out: Path, scenario_id: str, chunk: int, files: dict[str, bytes]) -> None:
    """Write a chunk's three files (their bytes, of encode_chunk); each appears whole or not at all (temp file,
    then rename)."""
    for ds in DATASETS:
        final = chunk_path(out, ds, scenario_id, chunk)
        final.parent.mkdir(parents=True, exist_ok=True)
        # A leading dot hides half-written files from pyarrow's dataset discovery.
        tmp = temp_path(final)
        try:
            tmp.write_bytes(files[ds])
        except OSError as e:  # named by the file it was for, not by the hidden temp file
            raise OSError(e.errno, e.strerror, str(final)) from None
        os.replace(tmp, final)


def temp_path(final: Path) -> Path:
    """Where ``final`` is written before its atomic rename (this process's own, hidden by the dot)."""
    return final.with_name(f".{final.name}.tmp-{os.getpid()}")


def stale_temp_files(out: Path) -> Iterable[Path]:
    """Temp files a killed run left anywhere in its directory (chunk files and the manifest)."""
    return Path(out).rglob(".*.tmp-*")
