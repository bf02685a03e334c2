"""Counts that stand in for the turns and tiles of a run: the report reads the runs chunk by chunk and keeps, of
their rows, only how many there are of each value of what it measures (how many games had water level 4 after
turn 7, ...). Every value the report shows of these rows is a count, a sum or a quantile of small integers, so
these counts give exactly the numbers the whole tables gave, in memory that does not grow with the games.

A count frame has key columns and `n`, the rows with those keys (`count_rows`); a `Tally` adds up the count
frames of many chunks; `counted_stats` gives per group the quantiles pandas gives on the rows themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

COMPACT_ROWS = 20_000  # rows of count frames kept before they are added up into one (a few ms each time)


def count_rows(df: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """How many rows of `df` have each combination of `keys` (missing values are a key too): keys and `n`."""
    keys = list(keys)
    if df.empty:
        return pd.DataFrame({**{k: df[k] if k in df else pd.Series(dtype=object) for k in keys},
                             "n": pd.Series(dtype="int64")})
    return df.groupby(keys, dropna=False, sort=False).size().rename("n").reset_index()


class Tally:
    """Count frames of the same keys, added up as they come (in memory that grows with the distinct keys, not
    with the rows counted)."""

    def __init__(self) -> None:
        self.parts: list[pd.DataFrame] = []
        self.rows = 0
        self.compacted = 0  # rows of parts[0] after the last compaction

    def add(self, counts: pd.DataFrame) -> None:
        if counts.empty:
            return
        self.parts.append(counts)
        self.rows += len(counts)
        if self.rows > COMPACT_ROWS + 2 * self.compacted:
            self.parts = [self.frame()]
            self.rows = self.compacted = len(self.parts[0])

    def frame(self) -> pd.DataFrame:
        """The counts added up, one row per distinct key (empty when nothing was added)."""
        if not self.parts:
            return pd.DataFrame({"n": pd.Series(dtype="int64")})
        if len(self.parts) == 1:
            return self.parts[0]
        counts = pd.concat(self.parts, ignore_index=True)
        keys = [c for c in counts.columns if c != "n"]
        return counts.groupby(keys, dropna=False, sort=False)["n"].sum().reset_index()


def counted_stats(counts: pd.DataFrame, groups: Sequence[str], value: str,
                  quantiles: Mapping[str, float] = {}, mean: bool = False) -> pd.DataFrame:  # noqa: B006 - read only
    """Per group (sorted by `groups`, as pandas' groupby): `games`, the rows counted; `median`, each of
    `quantiles` (name -> q, linear interpolation) and, with `mean`, the mean of `value` over the rows where it is
    not missing, as pandas computes them on the rows themselves (NaN for a group without values)."""
    groups = list(groups)
    c = counts.sort_values([*groups, value], kind="stable")
    out = c.groupby(groups, dropna=False)["n"].sum().rename("games").reset_index()
    c = c[c[value].notna()]
    group = out.reset_index().merge(c, on=groups).sort_values(["index", value], kind="stable", ignore_index=True)
    ends = np.cumsum(group["n"].to_numpy())
    starts = np.zeros(len(out), dtype="int64")
    sizes = np.zeros(len(out), dtype="int64")
    first_rows = group.drop_duplicates("index")
    per_group = group.groupby("index")["n"].sum()
    sizes[per_group.index.to_numpy()] = per_group.to_numpy()
    starts[first_rows["index"].to_numpy()] = (ends - group["n"].to_numpy())[first_rows.index.to_numpy()]
    values = group[value].to_numpy(dtype=float)

    def at(rank: np.ndarray) -> np.ndarray:
        """The value of each group's row of this rank (0-based) in sorted order (any value for an empty group)."""
        if not len(values):
            return np.full(len(out), np.nan)
        return values[np.minimum(np.searchsorted(ends, starts + rank, side="right"), len(values) - 1)]

    has = sizes > 0
    size = np.where(has, sizes, 1)
    low, high = (size - 1) // 2, size // 2
    out["median"] = np.where(has, (at(low) + at(high)) / 2, np.nan)
    for name, q in quantiles.items():
        h = q * (size - 1)
        i = np.floor(h).astype("int64")
        frac = h - i
        lo, hi = at(i), at(np.minimum(i + 1, size - 1))
        out[name] = np.where(has, np.where(frac == 0, lo, lo + (hi - lo) * frac), np.nan)
    if mean:  # (sums of small integers are exact: the mean pandas gives)
        totals = np.bincount(group["index"].to_numpy(), weights=values * group["n"].to_numpy(), minlength=len(out))
        out["mean"] = np.where(has, totals / size, np.nan)
    return out
