"""Will a run fit? The disk and the time the rest of a run needs, estimated from the first chunk it plays, so that
a study of 99999999999999999999 games (a typo away from a real one) is refused in seconds instead of when its
disk is full, years later."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from .chunks import Chunk
from .tables import DATASETS, chunk_path


@dataclass(frozen=True)
class Estimate:
    games_left: int  # after the chunks already recorded
    bytes_per_game: float  # of the three datasets
    seconds_per_game: float  # of one worker
    workers: int
    free: int  # bytes free on the output's disk

    @property
    def bytes(self) -> float:
        return self.games_left * self.bytes_per_game

    @property
    def fits(self) -> bool:
        return self.bytes <= self.free

    @property
    def seconds(self) -> float:
        """Wall time with every worker busy."""
        return self.games_left * self.seconds_per_game / self.workers


def measure(out: Path, scenario_id: str, chunk: Chunk, games_left: int, workers: int) -> Estimate:
    """The estimate from a chunk just written (its three files) and the time its worker took to play it."""
    size = sum(chunk_path(out, ds, scenario_id, chunk.number).stat().st_size for ds in DATASETS)
    return Estimate(games_left, size / chunk.games, chunk.seconds / chunk.games, workers, shutil.disk_usage(out).free)


def refusal(e: Estimate, out: Path, games: int, scenarios: int, study_file: Path | None, fresh: bool) -> str:
    """One paragraph: why the run is not played, the estimate, and what to do (`fresh`: the run was new, and
    nothing of it is kept)."""
    where = f" in {study_file}" if study_file else ""
    plural = "s" * (e.workers != 1)
    return (f"{out}: this run would not fit on its disk. Its first chunk measured {e.bytes_per_game:,.0f} bytes "
            f"and {e.seconds_per_game * 1000:,.1f} ms of a worker's time per game, so the {e.games_left:,} games "
            f"left need about {size_text(e.bytes)} and {duration_text(e.seconds)} on {e.workers} worker{plural}, "
            f"and the disk has {size_text(e.free)} free. Check `games` ({games:,} per scenario x {scenarios} "
            f"scenario{'s' * (scenarios != 1)}){where} or --games; free some space or write elsewhere with --out; "
            "or add --no-space-check to play it anyway (it stops when the disk is full, keeping every finished "
            "chunk). " + ("Nothing of this run is kept." if fresh else "The chunks played are kept."))


def size_text(n: float) -> str:
    """Bytes in the largest unit that keeps a number of at least 1: '41.2 MB', '2.1e+12 TB'."""
    for unit in ("bytes", "kB", "MB", "GB"):
        if n < 1000:
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:,.1f} TB" if n < 1e6 else f"{n:.1e} TB"


def duration_text(seconds: float) -> str:
    """'45 s', '12 min', '3.2 h', '4.5 days', '1.2e+09 years'."""
    for unit, length in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            n = seconds / length
            return f"{n:.1e} {unit}" if n >= 1e6 else f"{n:,.1f} {unit}"
    return f"{seconds:.0f} s" if seconds >= 1 else "under a second"
