"""Designing a game to a target (`fi design`, and `fi layouts design` for an island's map): a search over the
island's layout and/or the components of either game for one or several targets (the win rate of each of some
policies, the median game length), within a budget of games.

The search runs in *brackets* of successive halving. A bracket takes BRACKET candidates: fresh designs (an
island from the generator, fi_cli.island.layout_generator, each with a compactness drawn log-uniformly from
COMPACTNESS; components moved from the base's: 1 to 3 of them, each 1 to 3 steps, so that a design changes few
things) and, after the first bracket, as many local changes of the best designs found so far (one cell of the
island moved, or one component one step up or down). Each candidate plays `screen` games with each policy of
the targets; the half nearest the targets goes on with twice the games in all, and so on until one is left with
screen * BRACKET / 2 games: the bracket's winner. Every candidate plays the same search games (the same game
seeds: common random numbers, so candidates are compared on the same deals). How near a design is: the largest
of its distances to the targets, each in units of its tolerance (1 = at the edge of the tolerance).

Why successive halving rather than NTBEA: the budget of a bracket is known before it starts (48 x screen games
per policy), most of it goes to the few candidates that matter, a target is a band to land in rather than an
optimum to climb, and the same code designs a map, components or both. Local changes of the best designs give
the search NTBEA's one-step neighbourhoods; the confirmation below guards against the winner's luck.

When the best winner so far is within half the tolerance of every target, it is *confirmed* on `confirm` fresh
games per policy, seeded from another stream and checked to share no seed with the search. If every confirmed
figure is within its tolerance, the design is done; otherwise the search goes on while the budget allows a
bracket and a confirmation. All game seeds come from the design's seed through fi_cli.sim.seeds, as a study's
do, so a design is reproducible from its seed (whatever the number of workers) and never plays a benchmark seed
on purpose; Ctrl-C stops it with the best design so far.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..island.layout_generator import canonical, draw_compactness, grow, island_name, move_one_cell, place_pins
from ..island.layouts import Layout
from .config import Scenario
from .games import door
from .seeds import game_seed
from .workers import die_with_parent, worker_count

BRACKET = 16  # candidates per bracket
# Games per candidate and policy in a bracket's first round. With several policies' targets the winner is the
# candidate whose screening games were kindest to every figure at once, and its figures drifted on fresh games by
# more than the tolerance with 64 (two of two runs) but held with 128 (docs/results/log.md, 2026-12-05).
SCREEN, SCREEN_SEVERAL = 64, 128
COMPACTNESS = (0.25, 16.0)  # fresh islands: compactness log-uniform in this range
STEPS = 3  # a fresh design moves each component it changes 1 to STEPS steps from the base
TASK_GAMES = 32  # games per task sent to a worker
SEARCH_STREAM = "design/search"
LAYOUT = "layout"  # what `vary` calls the island's map (the other names are components)


class DesignError(ValueError):
    """Settings a design cannot run with (a budget too small, a target out of range, an unknown lever)."""


class DesignInterrupted(Exception):
    """Ctrl-C: `result` holds the best design so far."""

    def __init__(self, result: DesignResult) -> None:
        super().__init__("interrupted")
        self.result = result


@dataclass(frozen=True)
class Target:
    """What a design aims at: the win rate of a policy (`kind` 'win'), or the median game length in turns of
    that policy's games ('turns'), within `tolerance` of `value`."""

    value: float
    tolerance: float = 0.03
    policy: str = "heuristic"
    params: dict[str, Any] = field(default_factory=dict)
    kind: str = "win"

    @property
    def player(self) -> str:
        """The policy as it is keyed and named: 'heuristic', 'search(depth=2)'."""
        from .models import render_value

        return render_value({"name": self.policy, **self.params} if self.params else self.policy)

    def measure(self, tally: Tally) -> float:
        return tally.rate if self.kind == "win" else tally.median_turns

    def within(self, x: float) -> bool:
        return abs(x - self.value) <= self.tolerance + 1e-9  # a hair of slack for 0.27 - 0.30

    def describe(self) -> str:
        if self.kind == "win":
            return f"{100 * self.value:.1f}% ±{100 * self.tolerance:.1f} points won by {self.player}"
        return f"a median of {self.value:g} ±{self.tolerance:g} turns with {self.player}"

    def show(self, x: float) -> str:
        return f"{100 * x:.1f}%" if self.kind == "win" else f"{x:g} turns"


@dataclass
class Tally:
    """The games one policy played with a candidate: how many, how many won, and each one's length."""

    wins: int = 0
    games: int = 0
    turns: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def median_turns(self) -> float:
        return float(statistics.median(self.turns)) if self.turns else math.nan

    def add(self, won: int, turns: list[int], games: int) -> None:
        self.wins += won
        self.games += games
        self.turns += turns

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        from statsmodels.stats.proportion import proportion_confint

        lo, hi = proportion_confint(self.wins, self.games, alpha=0.05, method="wilson")
        return float(lo), float(hi)


@dataclass
class Confirmation:
    """The fresh games of a candidate's confirmation, per policy, from their own seed stream."""

    tallies: dict[str, Tally]
    stream: str
    first: str  # the policy of the first target

    @property
    def games(self) -> int:
        return self.tallies[self.first].games

    @property
    def rate(self) -> float:
        return self.tallies[self.first].rate

    @property
    def interval(self) -> tuple[float, float]:
        return self.tallies[self.first].interval


@dataclass
class Candidate:
    """A design: the island's layout (the base's unless the design moves it) and the components it changes."""

    layout: Layout
    origin: str  # how it was made, for the output
    name: str = ""
    components: dict[str, Any] = field(default_factory=dict)  # the components it sets (the base's for the rest)
    tallies: dict[str, Tally] = field(default_factory=dict)  # per policy
    confirmed: Confirmation | None = None
    first: str = ""  # the policy of the first target

    @property
    def games(self) -> int:
        """The search games of each policy."""
        return self.tallies[self.first].games if self.first in self.tallies else 0

    @property
    def rate(self) -> float:
        """The first target policy's win rate in the search."""
        return self.tallies[self.first].rate if self.games else math.nan

    def off(self, targets: tuple[Target, ...], tallies: dict[str, Tally] | None = None) -> float:
        """How far from the targets: the largest distance to one, in units of its tolerance (inf: not played)."""
        tallies = self.tallies if tallies is None else tallies
        if not self.games and tallies is self.tallies:
            return math.inf
        return max(abs(t.measure(tallies[t.player]) - t.value) / t.tolerance for t in targets)


@dataclass
class DesignResult:
    targets: tuple[Target, ...]
    best: Candidate | None  # the confirmed design nearest the targets, else the best search result
    search_games: int = 0
    confirm_games: int = 0
    brackets: int = 0
    interrupted: bool = False

    @property
    def games(self) -> int:
        return self.search_games + self.confirm_games

    @property
    def target(self) -> float:
        return self.targets[0].value

    @property
    def tolerance(self) -> float:
        return self.targets[0].tolerance

    def within(self, rate: float) -> bool:
        """Whether the first target's figure is within its tolerance."""
        return self.targets[0].within(rate)

    def confirmed_within(self, c: Confirmation) -> bool:
        return all(t.within(t.measure(c.tallies[t.player])) for t in self.targets)

    @property
    def found(self) -> bool:
        c = self.best.confirmed if self.best else None
        return c is not None and self.confirmed_within(c)


@dataclass
class DesignSpec:
    """What to design: `target` (the win rate of `policy`, `fi layouts design`'s one target) or `targets`; the
    base scenario (`base`, e.g. a study's; else the standard board of `game` at `difficulty` with `players`) and
    what may change (`vary`: 'layout', the island's map, and/or component names); the budget and the search's
    settings. With several policies every candidate plays its games with each."""

    target: float | None = None
    difficulty: int = 2  # start level (the desert: the storm meter's start mark)
    players: int = 4
    policy: str = "heuristic"
    policy_params: dict[str, Any] = field(default_factory=dict)
    budget: int = 30_000
    tolerance: float = 0.03
    confirm: int = 2_000
    screen: int | None = None  # None: SCREEN, or SCREEN_SEVERAL with several policies' targets
    seed: int = 1
    pins: tuple[str, ...] = ()
    connected: bool = True
    game: str = "island"
    base: Scenario | None = None
    vary: tuple[str, ...] = (LAYOUT,)
    targets: tuple[Target, ...] = ()

    def __post_init__(self) -> None:
        if not self.targets and self.target is not None:
            self.targets = (Target(self.target, self.tolerance, self.policy, dict(self.policy_params)),)
        if self.base is not None:
            self.game = self.base.game
        if self.screen is None:
            self.screen = SCREEN_SEVERAL if len(self.policies) > 1 else SCREEN

    @property
    def policies(self) -> dict[str, Target]:
        """Each policy the targets need, with its first target (its name and parameters)."""
        out: dict[str, Target] = {}
        for t in self.targets:
            out.setdefault(t.player, t)
        return out

    @property
    def bracket_games(self) -> int:
        """Games of one bracket: BRACKET x screen, then each of the log2(BRACKET) halvings adds BRACKET / 2 x
        screen (half the candidates double their games): 48 x screen for 16 candidates, for each policy."""
        assert self.screen is not None  # set by __post_init__
        return self.screen * BRACKET * (2 + int(math.log2(BRACKET))) // 2 * len(self.policies)

    @property
    def confirm_games(self) -> int:
        return self.confirm * len(self.policies)

    def check(self) -> None:
        if not self.targets:
            raise DesignError("give a target: a win rate (e.g. 0.30) or a median game length")
        for t in self.targets:
            if t.kind == "win" and not 0 < t.value < 1:
                raise DesignError(f"a target win rate is between 0 and 1 (e.g. 0.30), got {t.value}")
            if t.kind == "turns" and not t.value > 0:
                raise DesignError(f"a target game length is a number of turns above 0, got {t.value}")
            if t.kind == "win" and not 0 < t.tolerance < 1:
                raise DesignError(f"the tolerance must be between 0 and 1 (e.g. 0.03), got {t.tolerance}")
            if t.kind == "turns" and not t.tolerance > 0:
                raise DesignError(f"the tolerance of a game length is a number of turns above 0, got {t.tolerance}")
        known = (LAYOUT,) * (self.game == "island") + tuple(door(self.game).Components.specs())
        for v in self.vary:
            if v not in known:
                raise DesignError(f"cannot vary {v!r} in {door(self.game).TITLE}; what may vary: {', '.join(known)}")
        if not self.vary:
            raise DesignError("nothing to vary: give the layout and/or components")
        need = self.bracket_games + self.confirm_games
        if self.budget < need:
            raise DesignError(f"a budget of {self.budget:,} games is too small: one bracket of {BRACKET} candidates "
                              f"needs {self.bracket_games:,} games (--screen {self.screen}) and the confirmation "
                              f"{self.confirm_games:,}; give --budget {need:,} or more")


# --- playing games ---------------------------------------------------------------------------------------

_SET_UPS: dict[str, Scenario] = {}  # candidate scenario id -> scenario (with its game set-up), per worker


def _init(pool: bool) -> None:
    if pool:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides on Ctrl-C
        die_with_parent()


def _play(task: tuple[dict, int, str, int, int]) -> tuple[int, list[int]]:
    """Play games [start, stop) of a seed stream with one candidate and one policy: the games won, their lengths."""
    scenario_dict, root, stream, start, stop = task
    key = scenario_dict["id"]  # a candidate and policy each: distinct ids
    if key not in _SET_UPS:
        if len(_SET_UPS) > 64:
            _SET_UPS.clear()
        _SET_UPS[key] = Scenario.from_dict(scenario_dict)
    sc = _SET_UPS[key]
    won, turns = 0, []
    for g in range(start, stop):
        rec = sc.door.play(sc.setup, sc.policy, sc.policy_params, game_seed(root, stream, g))
        won += rec.outcome == "win"
        turns.append(rec.turns)
    return won, turns


class GamePool:
    """Plays batches of games on worker processes (or in this process with one worker)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        if workers > 1:
            ctx = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init, initargs=(True,))

    def results(self, jobs: list[tuple[dict, int, str, int, int]]) -> list[tuple[int, list[int]]]:
        """For each job (scenario dict, root seed, stream, start, stop): the games won and their lengths."""
        tasks = [(i, (sc, root, stream, a, min(a + TASK_GAMES, stop)))
                 for i, (sc, root, stream, start, stop) in enumerate(jobs) for a in range(start, stop, TASK_GAMES)]
        results = map(_play, (t for _, t in tasks)) if self.pool is None else \
            self.pool.map(_play, (t for _, t in tasks))
        out: list[tuple[int, list[int]]] = [(0, []) for _ in jobs]
        for (i, _), (won, turns) in zip(tasks, results, strict=True):
            out[i] = (out[i][0] + won, out[i][1] + turns)
        return out

    def close(self, now: bool = False) -> None:
        if self.pool is not None:
            if now:
                for proc in list(getattr(self.pool, "_processes", {}).values()):  # no public API before 3.14
                    proc.terminate()
            self.pool.shutdown(wait=not now, cancel_futures=True)


def base_scenario(spec: DesignSpec) -> Scenario:
    """The scenario a design starts from: the spec's `base`, else the standard board at its settings."""
    if spec.base is not None:
        return spec.base
    game = door(spec.game)
    model = game.GameModel(difficulty=spec.difficulty, players=spec.players) if spec.game == "island" else \
        game.GameModel(storm_start=spec.difficulty, players=spec.players)
    setup = game.setup_of(model, game.load_layout(model.layout, None))
    return Scenario(index=0, id="design", values={}, setup=setup, policy=spec.policy,
                    policy_params=dict(spec.policy_params), game=spec.game)


def candidate_scenario(template: Scenario, c: Candidate, target: Target) -> Scenario:
    """A candidate's scenario: the base `template` with its layout and components, played by `target`'s policy."""
    components = template.door.Components.from_dict(c.components)
    setup = replace(template.setup, layout=c.layout, components=components)
    return replace(template, id=f"{c.name}/{target.player}", setup=setup, policy=target.policy,
                   policy_params=dict(target.params), component_columns=tuple(components.changed()))


# --- the search ------------------------------------------------------------------------------------------

class Designer:
    def __init__(self, spec: DesignSpec, workers: int | None = None,
                 progress: Callable[[str], None] | None = None) -> None:
        spec.check()
        self.spec = spec
        self.targets = spec.targets
        self.first = spec.targets[0].player
        self.workers = worker_count(workers, 10**6)[0]
        self.say = progress or (lambda _: None)
        self.rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(0,)))
        self.template = base_scenario(spec)
        self.kind = self.template.door.Components
        self.levers = [v for v in spec.vary if v != LAYOUT]
        self.seen: set = set()
        self.names: set[str] = set()
        self.elites: list[Candidate] = []  # bracket winners, nearest the targets first
        self.result = DesignResult(spec.targets, None)
        self.current: list[Candidate] = []  # the bracket being played
        self.search_upto = 0  # search games are numbers 0 .. search_upto - 1 of SEARCH_STREAM
        self.confirmations = 0

    # candidates
    def _key(self, layout: Any, components: dict) -> Any:
        """What tells designs apart: the island's shape up to symmetry (its cells, when tiles are pinned) when the
        design moves it, and the components."""
        shape = None
        if LAYOUT in self.spec.vary:
            shape = canonical(layout.cells) if not layout.pins else (layout.cells, tuple(sorted(layout.pins.items())))
        return shape, repr(sorted(components.items()))

    def _candidate(self, layout: Any, origin: str, components: dict[str, Any], named: bool) -> Candidate | None:
        """A new candidate (None if that design was made before); `named`: a new island gets a name of its own."""
        key = self._key(layout, components)
        if key in self.seen:
            return None
        self.seen.add(key)
        if named:
            lid, name = island_name(self.rng, self.names)
            self.names.add(lid)
            layout = Layout(id=lid, cells=layout.cells, pins=dict(layout.pins), name=name)
        n = len(self.seen)
        return Candidate(layout, origin, name=layout.name if named else f"design {n}", components=components,
                         first=self.first)

    def _grown(self) -> tuple[Layout, str]:
        compactness = draw_compactness(self.rng, COMPACTNESS)
        cells = grow(self.rng, compactness, self.spec.connected)
        pins = place_pins(self.rng, cells, list(self.spec.pins))
        return Layout(id="new", cells=cells, pins=pins), f"generated, compactness {compactness:.2f}"

    def _valid(self, components: dict[str, Any]) -> bool:
        """Whether the rules can bear these components with the base's players and start."""
        setup = self.template.setup
        try:
            self.kind.from_dict(components).check_setup(setup.players, setup.start_level)
        except ValueError:
            return False
        return True

    def _moved_components(self) -> tuple[dict[str, Any], str]:
        """The base's components with 1-STEPS levers moved 1-STEPS steps each (within the rules)."""
        comp = self.template.setup.components
        values = comp.changed()
        moved = []
        k = min(len(self.levers), int(self.rng.integers(1, STEPS + 1)))
        for i in sorted(self.rng.choice(len(self.levers), size=k, replace=False)):
            lever = self.levers[int(i)]
            up = bool(self.rng.random() < 0.5)
            for _ in range(int(self.rng.integers(1, STEPS + 1))):
                current = self.kind.from_dict(values)
                setup = self.template.setup
                value = current.step(lever, up, setup.players, setup.start_level)
                if value is None:
                    break
                values[lever] = value
            moved.append(lever)
        return values, "components " + (", ".join(moved) if moved else "as the base")

    def fresh(self, n: int) -> list[Candidate]:
        out: list[Candidate] = []
        varies_layout = LAYOUT in self.spec.vary
        for _ in range(50 * n):
            if len(out) == n:
                break
            layout, origin = self._grown() if varies_layout else (self.template.setup.layout, "")
            components = self.template.setup.components.changed()
            if self.levers:
                components, moved = self._moved_components()
                origin = f"{origin}; {moved}" if origin else moved
                if not self._valid(components):
                    continue
            c = self._candidate(layout, origin, components, varies_layout)
            if c:
                out.append(c)
        return out

    def _step(self, parent: Candidate) -> tuple[dict[str, Any], str] | None:
        """One lever of a parent one step up or down, within the rules (None when that step is not allowed)."""
        lever = self.levers[int(self.rng.integers(len(self.levers)))]
        up = bool(self.rng.random() < 0.5)
        setup = self.template.setup
        value = self.kind.from_dict(parent.components).step(lever, up, setup.players, setup.start_level)
        if value is None:
            return None
        return {**parent.components, lever: value}, f"{lever} of {parent.name} one step {'up' if up else 'down'}"

    def moved(self, n: int) -> list[Candidate]:
        parents = self.elites[:3]
        out: list[Candidate] = []
        varies_layout = LAYOUT in self.spec.vary
        for i in range(50 * n):
            if len(out) == n or not parents:
                break
            parent = parents[i % len(parents)]
            if varies_layout and (not self.levers or self.rng.random() < 0.5):
                made = move_one_cell(self.rng, parent.layout, self.spec.connected)
                c = self._candidate(Layout(id="new", cells=made[0], pins=made[1]),
                                    f"one cell of {parent.layout.name} moved", dict(parent.components),
                                    True) if made else None
            else:
                stepped = self._step(parent)
                c = self._candidate(parent.layout, stepped[1], stepped[0], False) if stepped else None
            if c:
                out.append(c)
        return out

    # games
    def scenario(self, c: Candidate, target: Target | None = None) -> Scenario:
        """The candidate's scenario with the policy of `target` (the first target's by default)."""
        return candidate_scenario(self.template, c, target or self.targets[0])

    def _jobs(self, c: Candidate, stream: str, start: int, stop: int) -> list[tuple]:
        return [(self.scenario(c, t).to_dict(), self.spec.seed, stream, start, stop)
                for t in self.spec.policies.values()]

    def play(self, pool: GamePool, cands: list[Candidate], upto: int) -> None:
        """Each candidate plays the search games it has not played yet, up to game number `upto`, with each policy."""
        todo = [c for c in cands if c.games < upto]
        jobs = [job for c in todo for job in self._jobs(c, SEARCH_STREAM, c.games, upto)]
        results = iter(pool.results(jobs))
        for c in todo:
            played = upto - c.games
            for player in self.spec.policies:
                won, turns = next(results)
                c.tallies.setdefault(player, Tally()).add(won, turns, played)
                self.result.search_games += played
        self.search_upto = max(self.search_upto, upto)

    def bracket(self, pool: GamePool) -> Candidate | None:
        """One bracket of successive halving; its winner (None if no new design could be made)."""
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
            alive = sorted(alive, key=lambda c: c.off(self.targets))[:len(alive) // 2]
            n *= 2

    def confirm(self, pool: GamePool, c: Candidate) -> Confirmation:
        """`confirm` fresh games per policy on a stream of their own (never a search game: checked)."""
        self.confirmations += 1
        stream = f"design/confirm/{self.confirmations}"
        seeds = {game_seed(self.spec.seed, stream, g) for g in range(self.spec.confirm)}
        search = {game_seed(self.spec.seed, SEARCH_STREAM, g) for g in range(self.search_upto)}
        if seeds & search:  # about 2^-63 per pair: never, but the output says "fresh", so it is checked
            raise RuntimeError("a confirmation seed equals a search seed")
        results = pool.results(self._jobs(c, stream, 0, self.spec.confirm))
        tallies = {player: Tally(won, self.spec.confirm, turns)
                   for player, (won, turns) in zip(self.spec.policies, results, strict=True)}
        self.result.confirm_games += self.spec.confirm_games
        c.confirmed = Confirmation(tallies, stream, self.first)
        return c.confirmed

    def _best(self) -> Candidate | None:
        """The confirmed design nearest the targets; else the best bracket winner (or candidate) so far."""
        confirmed = [c for c in self.elites if c.confirmed]
        if confirmed:
            return min(confirmed, key=lambda c: c.off(self.targets, c.confirmed.tallies))
        played = [c for c in self.elites or self.current if c.games]
        return min(played, key=lambda c: (-c.games, c.off(self.targets))) if played else None

    def describe(self, c: Candidate) -> str:
        """A candidate and how near it came: on its confirmation if it has one, else in the search."""
        tallies, what = (c.confirmed.tallies, "confirmation") if c.confirmed else (c.tallies, "search")
        figures = ", ".join(t.show(t.measure(tallies[t.player])) + (f" ({t.player})" if len(self.targets) > 1 else "")
                            for t in self.targets)
        return f"{c.name} {figures} on {tallies[self.first].games:,} {what} games"

    def run(self) -> DesignResult:
        spec = self.spec
        pool = GamePool(self.workers)
        try:
            while not self.result.found:
                unconfirmed = [c for c in self.elites if not c.confirmed]
                budget_left = spec.budget - self.result.games
                best = unconfirmed[0] if unconfirmed else None
                can_search = budget_left >= spec.bracket_games + spec.confirm_games
                if best and (best.off(self.targets) <= 0.5 or not can_search) and budget_left >= spec.confirm_games:
                    conf = self.confirm(pool, best)
                    within = self.result.confirmed_within(conf)
                    if len(self.targets) == 1 and self.targets[0].kind == "win":
                        lo, hi = conf.interval
                        figures = f"{100 * conf.rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                    else:
                        figures = self.describe(best).split(" on ")[0].removeprefix(best.name + " ")
                    self.say(f"confirmation of {best.name}: {figures} on {conf.games:,} fresh games, "
                             f"{'within' if within else 'outside'} the tolerance "
                             f"| {self.result.games:,} of {spec.budget:,} games used")
                    self.result.best = self._best()
                    continue
                if not can_search:
                    break
                winner = self.bracket(pool)
                if winner is None:
                    break
                self.result.brackets += 1
                self.elites = sorted([*self.elites, winner], key=lambda c: c.off(self.targets))
                self.result.best = self._best()
                self.say(f"bracket {self.result.brackets}: {self.describe(winner)} ({winner.origin}); best so far "
                         f"{self.describe(self.result.best)} | {self.result.games:,} of {spec.budget:,} games used")
        except KeyboardInterrupt:
            pool.close(now=True)
            self.result.best, self.result.interrupted = self._best(), True
            raise DesignInterrupted(self.result) from None
        pool.close()
        self.result.best = self._best()
        return self.result


def design(spec: DesignSpec, workers: int | None = None, progress: Callable[[str], None] | None = None
           ) -> DesignResult:
    """Search for a design within the tolerances of spec's targets (see the module doc)."""
    return Designer(spec, workers, progress).run()
