"""Two players on the same deals: the playing (``report.compare`` says which wins more, and whether it is real).

Both players play every deal (a scenario's set-up and a game seed: the same island, tiles, cards and roles, and
the same draws as long as the same actions are taken). The deals of a study are the games ``fi simulate`` plays
for it (game seeds from its root seed, each scenario's id and the game number); its ``policy`` is replaced by the
two players.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .config import Scenario, Study
from .models import render_value
from .seeds import game_seed
from .workers import worker_count


@dataclass(frozen=True)
class Player:
    """A policy id or a user's player (``module:Class``) with its parameters."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return render_value({"name": self.name, **self.params} if self.params else self.name)


@dataclass(frozen=True)
class Deal:
    scenario: Scenario
    game: int
    seed: int


Played = tuple[list[bool], float]  # whether the player won each deal, and its CPU seconds in all


def study_deals(study: Study) -> list[Deal]:
    """Every game of a study, scenario by scenario, with the seeds ``fi simulate`` gives them."""
    return [Deal(sc, g, game_seed(study.seed, sc.stream, g)) for sc in study.scenarios for g in range(study.games)]


def _play_part(game: str, player: Player, deals: list[tuple[dict[str, Any], int]]) -> Played:
    """In a worker: play these deals (resolved scenarios and seeds); the wins and the CPU seconds used."""
    from ..common.isolation import players_cpu

    results = []
    c0, k0 = time.process_time(), players_cpu()
    for scenario, seed in deals:
        sc = Scenario.from_dict(scenario)
        results.append(sc.door.play(sc.setup, player.name, player.params, seed).outcome == "win")
    return results, time.process_time() - c0 + players_cpu() - k0


def _parts(deals: Sequence[Deal], size: int) -> Iterator[list[Deal]]:
    for i in range(0, len(deals), size):
        yield list(deals[i:i + size])


def play_deals(player: Player, deals: Sequence[Deal], workers: int | None = None,
               progress: Callable[[int], None] | None = None) -> Played:
    """Whether ``player`` won each deal, and its CPU seconds in all, on ``workers`` processes (1: this one)."""
    with _pool(workers, len(deals)) as pool:
        return _played(player, deals, pool, progress)


@contextmanager
def _pool(workers: int | None, deals: int) -> Iterator[ProcessPoolExecutor | None]:
    n, _ = worker_count(workers, deals)
    if n == 1:
        yield None
        return
    with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


def _played(player: Player, deals: Sequence[Deal], pool: ProcessPoolExecutor | None,
            progress: Callable[[int], None] | None) -> Played:
    game = deals[0].scenario.game
    n = pool._max_workers if pool is not None else 1  # noqa: SLF001
    size = max(1, min(25, len(deals) // (4 * n)))  # parts small enough to keep every worker busy to the end
    jobs = [(game, player, [(d.scenario.to_dict(), d.seed) for d in part]) for part in _parts(deals, size)]
    results = (_play_part(*job) for job in jobs) if pool is None else pool.map(_play_part, *zip(*jobs, strict=True))
    wins: list[bool] = []
    cpu = 0.0
    for w, c in results:
        wins += w
        cpu += c
        if progress:
            progress(len(w))
    return wins, cpu


def play_both(a: Player, b: Player, deals: Sequence[Deal], workers: int | None = None,
              progress: Callable[[int], None] | None = None) -> tuple[Played, Played]:
    """Both players on every deal, on one set of worker processes. Raises PlayerError when a user's player fails."""
    with _pool(workers, len(deals)) as pool:
        return _played(a, deals, pool, progress), _played(b, deals, pool, progress)


__all__ = ["Deal", "Played", "Player", "play_both", "play_deals", "study_deals"]
