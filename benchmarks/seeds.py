"""The game-seed ranges of the benchmarks: published figures and tuning never share a game.

Every figure in README.md and docs/results/ is measured on BENCHMARK seeds. Tuning weights, training models and
trying ideas use any other seed; the scripts that tune or train refuse a benchmark seed, so no published
figure is measured on a game that chose the weights. (Before 2026-12-01 the tuning runs used seeds 1000-7999
and the figures seeds 0-1999: the overlap this module ends. Seeds below 1,000,000 are for tuning now.)
"""

from __future__ import annotations

BENCHMARK = range(1_000_000, 2_000_000)
TUNING_START = 1000  # the tuning scripts' default first seed


def benchmark_range(first: int, games: int) -> range:
    """Seeds for a published figure; SystemExit if any lies outside BENCHMARK."""
    seeds = range(first, first + games)
    if seeds.start < BENCHMARK.start or seeds.stop > BENCHMARK.stop:
        raise SystemExit(
            f"seeds {seeds.start}-{seeds.stop - 1} are not all benchmark seeds "
            f"({BENCHMARK.start}-{BENCHMARK.stop - 1}); published figures are measured there only"
        )
    return seeds


def tuning_range(first: int, games: int) -> range:
    """Seeds for tuning or training; SystemExit if any is a benchmark seed."""
    seeds = range(first, first + games)
    if seeds.start < BENCHMARK.stop and BENCHMARK.start < seeds.stop:
        raise SystemExit(
            f"seeds {seeds.start}-{seeds.stop - 1} overlap the benchmark seeds "
            f"{BENCHMARK.start}-{BENCHMARK.stop - 1}; tune and train on other seeds"
        )
    return seeds


def chosen_seeds(tuning: bool, first: int | None, games: int) -> list[int]:
    """The seeds a script that can do both plays: tuning seeds with --tuning, else benchmark seeds; ``first``
    None starts each range at its default."""
    if tuning:
        return list(tuning_range(TUNING_START if first is None else first, games))
    return list(benchmark_range(BENCHMARK.start if first is None else first, games))


def is_benchmark(seed: int) -> bool:
    return seed in BENCHMARK
