"""Benchmark seed hygiene: published figures and tuning never share a game (benchmarks/seeds.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import seeds  # noqa: E402


def test_tuning_refuses_every_range_that_touches_the_benchmark_seeds():
    b = seeds.BENCHMARK
    assert seeds.tuning_range(0, b.start) == range(0, b.start)
    assert seeds.tuning_range(b.stop, 10) == range(b.stop, b.stop + 10)
    for first, games in [(b.start - 5, 6), (b.start, 1), (b.stop - 1, 3), (0, b.stop + 1)]:
        with pytest.raises(SystemExit, match="overlap the benchmark seeds"):
            seeds.tuning_range(first, games)
    assert not seeds.is_benchmark(seeds.TUNING_START)


def test_published_figures_use_benchmark_seeds_only():
    b = seeds.BENCHMARK
    assert seeds.benchmark_range(b.start, 2000) == range(b.start, b.start + 2000)
    for first, games in [(0, 2000), (b.start - 1, 2), (b.stop - 10, 11)]:
        with pytest.raises(SystemExit, match="not all benchmark seeds"):
            seeds.benchmark_range(first, games)
