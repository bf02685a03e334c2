"""The chunks of a study, made one at a time as they are played (a study of any size never lists them all), and
the chunks a run has done, kept as spans of consecutive numbers so that its manifest stays small however long
the run: a run of ten million games records its 40,000 chunks of a scenario in one span."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Chunk:
    scenario: int  # index into study.scenarios
    number: int
    start: int  # first game number
    stop: int
    seconds: float = field(default=0.0, compare=False)  # how long playing it took (set by whoever played it)

    @property
    def games(self) -> int:
        return self.stop - self.start


def chunk_count(games: int, chunk_size: int) -> int:
    """The chunks of each scenario."""
    return -(-games // chunk_size)


def games_in(chunks: range, games: int, chunk_size: int) -> int:
    """The games in a span of consecutive chunks (the last chunk of a scenario may be short)."""
    if not chunks:
        return 0
    return min(chunks.stop * chunk_size, games) - chunks.start * chunk_size


def chunks_of(games: int, chunk_size: int, scenarios: int) -> Iterator[Chunk]:
    """All chunks, round-robin over scenarios so a partial run has comparable data for every scenario."""
    for c in range(chunk_count(games, chunk_size)):
        for s in range(scenarios):
            yield Chunk(s, c, c * chunk_size, min((c + 1) * chunk_size, games))


class ChunkSet:
    """A set of chunk numbers as sorted, disjoint spans [first, last]; in JSON (a manifest's `chunks_done`) a
    lone chunk is its number and a span of several is [first, last]. A list of plain numbers (manifests before
    spans) reads the same."""

    def __init__(self, numbers: Iterable[int] = ()) -> None:
        self.spans: list[list[int]] = []  # [first, last], sorted, with gaps between them
        for n in numbers:
            self.add(n)

    @classmethod
    def from_json(cls, entries: Any) -> ChunkSet:
        """ValueError (saying what is wrong) when `entries` is not a list of numbers and [first, last] pairs."""
        if not isinstance(entries, list):
            raise ValueError(f"a list of chunk numbers and [first, last] spans is expected, not {entries!r}")
        done = cls()
        for e in entries:
            first, last = (e, e) if type(e) is int else e if _is_span(e) else (None, None)
            if first is None:
                raise ValueError(f"{e!r} is neither a chunk number nor a [first, last] span of chunk numbers")
            done.add_span(first, last)
        return done

    def to_json(self) -> list[int | list[int]]:
        return [first if first == last else [first, last] for first, last in self.spans]

    def add(self, n: int) -> None:
        self.add_span(n, n)

    def add_span(self, first: int, last: int) -> None:
        """Add first..last, merging with the spans it touches (chunks finish nearly in order: the spans stay few)."""
        i = bisect.bisect_left(self.spans, [first])
        if i and self.spans[i - 1][1] >= first - 1:
            i -= 1
        j = i
        while j < len(self.spans) and self.spans[j][0] <= last + 1:
            first, last = min(first, self.spans[j][0]), max(last, self.spans[j][1])
            j += 1
        self.spans[i:j] = [[first, last]]

    def __contains__(self, n: int) -> bool:
        i = bisect.bisect_right(self.spans, [n, float("inf")])
        return bool(i) and self.spans[i - 1][1] >= n

    def __iter__(self) -> Iterator[int]:
        for first, last in self.spans:
            yield from range(first, last + 1)

    def __len__(self) -> int:
        return sum(last - first + 1 for first, last in self.spans)

    def games(self, games: int, chunk_size: int) -> int:
        """The games of these chunks in a scenario of `games` games."""
        return sum(games_in(range(first, last + 1), games, chunk_size) for first, last in self.spans)


def _is_span(e: Any) -> bool:
    return isinstance(e, list) and len(e) == 2 and all(type(x) is int for x in e) and e[0] <= e[1]
