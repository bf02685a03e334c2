"""Cheats planted in the fairness tests: each is the island's heuristic plus one way of reading what is hidden,
through a route the issue found open (issue 49): a caller's ``seed`` (rebuild the game), a caller's real state
(simulate the future from it), a generator reachable through a function's ``__globals__``; and the storage order
of a flood segment. Each saves the flood card it "knows" comes first if it can. ``used`` counts the decisions at
which the route gave it something; the tests show each route is shut in play (``used`` stays 0) and that the
fairness check catches each cheat where the route is open.

Also ``Spy``, a player that looks everywhere (every object of the garbage collector, every frame of every thread)
for a generator, a seed or the command line, for the test of isolated players.
"""

from __future__ import annotations

import gc
import json
import random
import re
import sys
from typing import Any

from fi_cli.island.actions import DRAW_FLOOD, END_ACTIONS, SANDBAGS_PLAY, SHORE_UP
from fi_cli.island.engine import OVER, GameState, Recorder
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.policies.heuristic import HeuristicPolicy
from fi_cli.island.view import to_view


def _clone(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def flood_ahead(state: GameState, rng: random.Random) -> list[int]:
    """The tiles the flood draws of this turn and the next would hit, in order, if ``rng`` were the game's."""
    future = state.copy(_clone(rng))
    future.stats = Recorder()
    while future.phase != OVER and future.turn <= state.turn + 1:
        legal = future.legal_actions()
        ends = [a for a in legal if a[0] in (END_ACTIONS, DRAW_FLOOD)]
        future.apply(ends[0] if ends else legal[0])
    return future.stats.flood_draws


def _save_first(legal, doomed: list[int], fair: tuple) -> tuple:
    """Shore up (or sandbag) the first tile the cheat 'knows' is drawn, if it can; else play fair."""
    for t in doomed:
        for a in legal:
            if a[0] in (SHORE_UP, SANDBAGS_PLAY) and a[2] == t:
                return a
    return fair


def _callers() -> list[Any]:
    """The frames above the policy's choose, nearest first (the cheat's own frames and the heuristic's skipped)."""
    frames, frame = [], sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename != __file__:
            frames.append(frame)
        frame = frame.f_back
    return frames


class _Cheat(HeuristicPolicy):
    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        self.setup, self.used = setup, 0


class ReadsACallersSeed(_Cheat):
    """Looks for the game's seed among its callers' local variables (any int that sets up this very game),
    rebuilds the game from it and replays the game's actions: the rebuilt game's generator is the real one."""

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self.seed, self.moves = None, []

    def choose(self, state, legal):
        fair = super().choose(state, legal)
        if self.seed is None and not self.moves:
            start = to_view(state)
            ints = {v for f in _callers() for v in f.f_locals.values() if type(v) is int and v > 1}
            self.seed = next((x for x in sorted(ints) if to_view(new_game(self.setup, x)) == start), None)
        action = fair
        if self.seed is not None:
            game = new_game(self.setup, self.seed)
            for a in self.moves:
                game.apply(a)
            if to_view(game) == to_view(state):
                self.used += 1
                action = _save_first(legal, flood_ahead(state, game.rng), fair)
        self.moves.append(action)
        return action


class SimulatesACallersState(_Cheat):
    """Looks for the real state, generator and all, among its callers' local variables and plays the future on a
    copy of it."""

    def choose(self, state, legal):
        fair = super().choose(state, legal)
        for frame in _callers():
            for v in frame.f_locals.values():
                if isinstance(v, GameState) and v.rng is not None:
                    self.used += 1
                    return _save_first(legal, flood_ahead(v, v.rng), fair)
        return fair


class ReadsGlobals(_Cheat):
    """Looks for the generator in the globals of every function it can reach (those of its callers' frames and the
    methods of what it is handed): a generator, or a registry holding one."""

    def choose(self, state, legal):
        fair = super().choose(state, legal)
        spaces = [f.f_globals for f in _callers()]
        spaces += [m.__globals__ for t in (type(state), type(legal)) for m in vars(t).values()
                   if hasattr(m, "__globals__")]
        for space in spaces:
            for v in list(space.values()):
                found = [v] if type(v) is random.Random else (
                    [x for x in v.values() if type(x) is random.Random] if isinstance(v, dict) else [])
                if found:
                    self.used += 1
                    return _save_first(legal, flood_ahead(state, found[0]), fair)
        return fair


class ReadsTheStorageOrder(_Cheat):
    """Takes the order in which a flood-pile segment happens to be stored for the order of the draws."""

    def choose(self, state, legal):
        drawn_first = state.fdeck[-1][::-1] if state.fdeck else []  # as if the last one stored came first
        self.used += bool(drawn_first)
        return _save_first(legal, drawn_first, super().choose(state, legal))


class FrameWatch:
    """A player (``planted_cheats:FrameWatch``, run in the game's process) that notes, at each decision, every local
    variable of the frames above it holding a generator, a state with its generator, or one of ``seeds``; it writes
    them to ``report`` (one line each, ``function() variable``), then plays at random with its own seed."""

    def __init__(self, report: str, seeds: int | list[int]) -> None:
        self.report, self.seeds = report, {seeds} if isinstance(seeds, int) else set(seeds)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, legal):
        found = set()
        for frame in _callers():
            for name, v in frame.f_locals.items():
                if (isinstance(v, random.Random) and v is not self.rng) or (
                        isinstance(v, GameState) and v.rng is not None) or (type(v) is int and v in self.seeds):
                    found.add(f"{frame.f_code.co_name}() {name}\n")
        with open(self.report, "a") as f:
            f.writelines(sorted(found) or ["-\n"])
        return legal[int(self.rng.random() * len(legal))]


# --- the spy of the isolation test ---------------------------------------------------------------------------------

DIGITS = re.compile(r"\d{6,}")


class Spy:
    """A user's player (``planted_cheats:Spy``) that, at every decision, searches its whole process: every object
    the garbage collector knows, every frame of every thread, ``sys.argv``. It writes what it found to ``report``
    (one JSON line a decision): the next draws of every generator (a copy of it), every large int and every long
    run of digits in a string (a seed). Then it plays at random with its own seed."""

    def __init__(self, report: str) -> None:
        self.report = report

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, legal):
        randoms, numbers = [], set()

        def look(v: Any) -> None:
            if isinstance(v, random.Random) and not isinstance(v, random.SystemRandom):  # that one has no state
                randoms.append([round(x, 12) for x in (lambda r: [r.random() for _ in range(4)])(_clone(v))])
            elif type(v) is int and abs(v) >= 10**6:
                numbers.add(v)
            elif isinstance(v, str | bytes) and len(v) < 10_000:
                numbers.update(int(d) for d in DIGITS.findall(v if isinstance(v, str) else v.decode("latin-1")))

        objects = gc.get_objects()
        for o in objects:
            look(o)
            if isinstance(o, dict):
                for k, v in list(o.items()):
                    look(k)
                    look(v)
            elif isinstance(o, list | tuple | set | frozenset):
                for v in list(o):
                    look(v)
        frames = 0
        for top in sys._current_frames().values():
            frame = top
            while frame is not None:
                frames += 1
                for v in list(frame.f_locals.values()):
                    look(v)
                frame = frame.f_back
        for arg in sys.argv:
            look(arg)
        with open(self.report, "a") as f:
            f.write(json.dumps({"objects": len(objects), "frames": frames, "randoms": randoms,
                                "numbers": sorted(numbers)}) + "\n")
        return legal[int(self.rng.random() * len(legal))]
