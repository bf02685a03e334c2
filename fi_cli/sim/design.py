"""Designing an island to a target win rate (`fi layouts design`).

The search runs in *brackets* of successive halving. A bracket takes BRACKET candidates: islands from the
generator (fi_cli.island.layout_generator, each with a compactness drawn log-uniformly from COMPACTNESS)
and, after the first bracket, as many local changes of the best islands found so far (one cell moved). Each
candidate plays `screen` games; the half closest to the target goes on with twice the games in all, and so
on until one is left with screen * BRACKET / 2 games: the bracket's winner. Every candidate plays the same
search games (the same game seeds: common random numbers, so candidates are compared on the same deals).

When the best winner so far is within half the tolerance of the target, it is *confirmed* on `confirm`
fresh games, seeded from another stream and checked to share no seed with the search. If the confirmed
rate is within the tolerance, the design is done; otherwise the search goes on while the budget allows a
bracket and a confirmation. All game seeds come from the design's seed through fi_cli.sim.seeds, as a
study's do, so a design is reproducible from its seed (whatever the number of workers) and never plays a
benchmark seed on purpose; Ctrl-C stops it with the best island so far.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..island.game import GameSetup
from ..island.layout_generator import canonical, draw_compactness, grow, island_name, move_one_cell, place_pins
from ..island.layouts import STANDARD_LAYOUT_ID, Layout, get_layout
from .config import Scenario
from .seeds import game_seed
from .workers import die_with_parent, worker_count

BRACKET = 16  # candidates per bracket
COMPACTNESS = (0.25, 16.0)  # fresh candidates: compactness log-uniform in this range
TASK_GAMES = 32  # games per task sent to a worker
SEARCH_STREAM = "design/search"


class DesignError(ValueError):
    """Settings a design cannot run with (a budget too small, a target out of range)."""


class DesignInterrupted(Exception):
    """Ctrl-C: `result` holds the best island so far."""

    def __init__(self, result: DesignResult) -> None:
        super().__init__("interrupted")
        self.result = result


@dataclass
class Candidate:
    layout: Layout
    origin: str  # how it was made, for the output
    wins: int = 0
    games: int = 0
    confirmed: Confirmation | None = None

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    def off(self, target: float) -> float:
        return abs(self.rate - target) if self.games else math.inf


@dataclass
class Confirmation:
    wins: int
    games: int
    stream: str

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson score interval."""
        from statsmodels.stats.proportion import proportion_confint

        lo, hi = proportion_confint(self.wins, self.games, alpha=0.05, method="wilson")
        return float(lo), float(hi)


@dataclass
class DesignResult:
    target: float
    tolerance: float
    best: Candidate | None  # the confirmed island nearest the target, else the best search result
    search_games: int = 0
    confirm_games: int = 0
    brackets: int = 0
    interrupted: bool = False

    @property
    def games(self) -> int:
        return self.search_games + self.confirm_games

    def within(self, rate: float) -> bool:
        """Whether a win rate is within the tolerance of the target (a hair of slack for 0.27 - 0.30)."""
        return abs(rate - self.target) <= self.tolerance + 1e-9

    @property
    def found(self) -> bool:
        c = self.best.confirmed if self.best else None
        return c is not None and self.within(c.rate)


@dataclass
class DesignSpec:
    target: float
    difficulty: int = 2  # start level
    players: int = 4
    policy: str = "heuristic"
    policy_params: dict[str, Any] = field(default_factory=dict)
    budget: int = 30_000
    tolerance: float = 0.03
    confirm: int = 2_000
    screen: int = 64
    seed: int = 1
    pins: tuple[str, ...] = ()
    connected: bool = True

    @property
    def bracket_games(self) -> int:
        """Games of one bracket: BRACKET x screen, then each of the log2(BRACKET) halvings adds BRACKET / 2 x
        screen (half the candidates double their games): 48 x screen for 16 candidates."""
        return self.screen * BRACKET * (2 + int(math.log2(BRACKET))) // 2

    def check(self) -> None:
        if not 0 < self.target < 1:
            raise DesignError(f"the target must be a win rate between 0 and 1 (e.g. 0.30), got {self.target}")
        if not 0 < self.tolerance < 1:
            raise DesignError(f"the tolerance must be between 0 and 1 (e.g. 0.03), got {self.tolerance}")
        need = self.bracket_games + self.confirm
        if self.budget < need:
            raise DesignError(f"a budget of {self.budget:,} games is too small: one bracket of {BRACKET} candidates "
                              f"needs {self.bracket_games:,} games (--screen {self.screen}) and the confirmation "
                              f"{self.confirm:,}; give --budget {need:,} or more")


# --- playing games ---------------------------------------------------------------------------------------

_SET_UPS: dict[str, Scenario] = {}  # layout id -> scenario (with its game set-up), per worker


def _init(pool: bool) -> None:
    if pool:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides on Ctrl-C
        die_with_parent()


def _wins(task: tuple[dict, int, str, int, int]) -> int:
    """Play games [start, stop) of a seed stream on one layout; the number won."""
    scenario_dict, root, stream, start, stop = task
    key = scenario_dict["layout"]["id"]  # candidates have distinct ids
    if key not in _SET_UPS:
        if len(_SET_UPS) > 64:
            _SET_UPS.clear()
        _SET_UPS[key] = Scenario.from_dict(scenario_dict)
    sc = _SET_UPS[key]
    return sum(sc.door.play(sc.setup, sc.policy, sc.policy_params, game_seed(root, stream, g)).outcome == "win"
               for g in range(start, stop))


class GamePool:
    """Plays batches of games on worker processes (or in this process with one worker)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        if workers > 1:
            ctx = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init, initargs=(True,))

    def wins(self, jobs: list[tuple[dict, int, str, int, int]]) -> list[int]:
        """For each job (scenario dict, root seed, stream, start, stop): the games won."""
        tasks = [(i, (sc, root, stream, a, min(a + TASK_GAMES, stop)))
                 for i, (sc, root, stream, start, stop) in enumerate(jobs) for a in range(start, stop, TASK_GAMES)]
        results = map(_wins, (t for _, t in tasks)) if self.pool is None else \
            self.pool.map(_wins, (t for _, t in tasks))
        out = [0] * len(jobs)
        for (i, _), won in zip(tasks, results, strict=True):
            out[i] += won
        return out

    def close(self, now: bool = False) -> None:
        if self.pool is not None:
            if now:
                for proc in list(getattr(self.pool, "_processes", {}).values()):  # no public API before 3.14
                    proc.terminate()
            self.pool.shutdown(wait=not now, cancel_futures=True)


# --- the search ------------------------------------------------------------------------------------------

class Designer:
    def __init__(self, spec: DesignSpec, workers: int | None = None,
                 progress: Callable[[str], None] | None = None) -> None:
        spec.check()
        self.spec = spec
        self.workers = worker_count(workers, 10**6)[0]
        self.say = progress or (lambda _: None)
        self.rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(0,)))
        setup = GameSetup(layout=get_layout(STANDARD_LAYOUT_ID), start_level=spec.difficulty, players=spec.players)
        self.template = Scenario(index=0, id="design", values={}, setup=setup, policy=spec.policy,
                                 policy_params=dict(spec.policy_params))
        self.seen: set = set()
        self.names: set[str] = set()
        self.elites: list[Candidate] = []  # bracket winners, nearest the target first
        self.result = DesignResult(spec.target, spec.tolerance, None)
        self.current: list[Candidate] = []  # the bracket being played
        self.search_upto = 0  # search games are numbers 0 .. search_upto - 1 of SEARCH_STREAM
        self.confirmations = 0

    # candidates
    def _key(self, cells: tuple, pins: dict) -> Any:
        return canonical(cells) if not pins else (cells, tuple(sorted(pins.items())))

    def _candidate(self, cells: tuple, pins: dict, origin: str) -> Candidate | None:
        key = self._key(cells, pins)
        if key in self.seen:
            return None
        self.seen.add(key)
        lid, name = island_name(self.rng, self.names)
        self.names.add(lid)
        return Candidate(Layout(id=lid, cells=cells, pins=pins, name=name), origin)

    def fresh(self, n: int) -> list[Candidate]:
        out: list[Candidate] = []
        for _ in range(50 * n):
            if len(out) == n:
                break
            compactness = draw_compactness(self.rng, COMPACTNESS)
            cells = grow(self.rng, compactness, self.spec.connected)
            pins = place_pins(self.rng, cells, list(self.spec.pins))
            c = self._candidate(cells, pins, f"generated, compactness {compactness:.2f}")
            if c:
                out.append(c)
        return out

    def moved(self, n: int) -> list[Candidate]:
        parents = self.elites[:3]
        out: list[Candidate] = []
        for i in range(50 * n):
            if len(out) == n or not parents:
                break
            parent = parents[i % len(parents)]
            made = move_one_cell(self.rng, parent.layout, self.spec.connected)
            c = self._candidate(*made, f"one cell of {parent.layout.name} moved") if made else None
            if c:
                out.append(c)
        return out

    # games
    def _scenario(self, c: Candidate) -> dict:
        return replace(self.template, setup=replace(self.template.setup, layout=c.layout)).to_dict()

    def play(self, pool: GamePool, cands: list[Candidate], upto: int) -> None:
        """Each candidate plays the search games it has not played yet, up to game number `upto`."""
        jobs = [(self._scenario(c), self.spec.seed, SEARCH_STREAM, c.games, upto) for c in cands if c.games < upto]
        todo = [c for c in cands if c.games < upto]
        for c, won in zip(todo, pool.wins(jobs), strict=True):
            self.result.search_games += upto - c.games
            c.wins += won
            c.games = upto
        self.search_upto = max(self.search_upto, upto)

    def bracket(self, pool: GamePool) -> Candidate | None:
        """One bracket of successive halving; its winner (None if no new island could be made)."""
        half = BRACKET // 2 if self.elites else 0
        cands = self.moved(half)
        cands += self.fresh(BRACKET - len(cands))
        if not cands:
            return None
        self.current = cands
        n = self.spec.screen
        alive = cands
        while True:
            self.play(pool, alive, n)
            if len(alive) == 1:
                return alive[0]
            alive = sorted(alive, key=lambda c: c.off(self.spec.target))[:len(alive) // 2]
            n *= 2

    def confirm(self, pool: GamePool, c: Candidate) -> Confirmation:
        """`confirm` fresh games on a stream of their own (never a search game: checked)."""
        self.confirmations += 1
        stream = f"design/confirm/{self.confirmations}"
        seeds = {game_seed(self.spec.seed, stream, g) for g in range(self.spec.confirm)}
        search = {game_seed(self.spec.seed, SEARCH_STREAM, g) for g in range(self.search_upto)}
        if seeds & search:  # about 2^-63 per pair: never, but the output says "fresh", so it is checked
            raise RuntimeError("a confirmation seed equals a search seed")
        (won,) = pool.wins([(self._scenario(c), self.spec.seed, stream, 0, self.spec.confirm)])
        self.result.confirm_games += self.spec.confirm
        c.confirmed = Confirmation(won, self.spec.confirm, stream)
        return c.confirmed

    def _best(self) -> Candidate | None:
        """The confirmed island nearest the target; else the best bracket winner (or candidate) so far."""
        t = self.spec.target
        confirmed = [c for c in self.elites if c.confirmed]
        if confirmed:
            return min(confirmed, key=lambda c: abs(c.confirmed.rate - t))
        played = [c for c in self.elites or self.current if c.games]
        return min(played, key=lambda c: (-c.games, c.off(t))) if played else None

    def _describe(self, c: Candidate) -> str:
        if c.confirmed:
            return f"{c.layout.name} {100 * c.confirmed.rate:.1f}% on {c.confirmed.games:,} confirmation games"
        return f"{c.layout.name} {100 * c.rate:.1f}% on {c.games:,} search games"

    def run(self) -> DesignResult:
        spec, t = self.spec, self.spec.target
        pool = GamePool(self.workers)
        try:
            while not self.result.found:
                unconfirmed = [c for c in self.elites if not c.confirmed]
                budget_left = spec.budget - self.result.games
                best = unconfirmed[0] if unconfirmed else None
                can_search = budget_left >= spec.bracket_games + spec.confirm
                if best and (best.off(t) <= spec.tolerance / 2 or not can_search) and budget_left >= spec.confirm:
                    conf = self.confirm(pool, best)
                    lo, hi = conf.interval
                    self.say(f"confirmation of {best.layout.name}: {100 * conf.rate:.1f}% [{100 * lo:.1f}, "
                             f"{100 * hi:.1f}] on {conf.games:,} fresh games, "
                             f"{'within' if self.result.within(conf.rate) else 'outside'} the tolerance "
                             f"| {self.result.games:,} of {spec.budget:,} games used")
                    self.result.best = self._best()
                    continue
                if not can_search:
                    break
                winner = self.bracket(pool)
                if winner is None:
                    break
                self.result.brackets += 1
                self.elites = sorted([*self.elites, winner], key=lambda c: c.off(t))
                self.result.best = self._best()
                self.say(f"bracket {self.result.brackets}: {self._describe(winner)} ({winner.origin}); best so far "
                         f"{self._describe(self.result.best)} | {self.result.games:,} of {spec.budget:,} games used")
        except KeyboardInterrupt:
            pool.close(now=True)
            self.result.best, self.result.interrupted = self._best(), True
            raise DesignInterrupted(self.result) from None
        pool.close()
        self.result.best = self._best()
        return self.result


def design(spec: DesignSpec, workers: int | None = None, progress: Callable[[str], None] | None = None
           ) -> DesignResult:
    """Search for an island whose win rate is within spec.tolerance of spec.target (see the module doc)."""
    return Designer(spec, workers, progress).run()

