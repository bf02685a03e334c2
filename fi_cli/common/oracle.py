"""The clairvoyant ``oracle``, both games: a measuring instrument, not a fair player.

It sees what players never see: the game's own generator, and so the order of every deck and (in the Desert)
the undersides of the tiles. With the future fixed, the game is a puzzle, and the oracle searches it for a win:
at each turn the heuristic and its weight variants each play the turn on a copy of the real game (the real
generator copied too) and the heuristic plays on to the end; a continuation that wins ends the search (the deal is
proved winnable), else the turn whose position ``depth`` turns later the learned value model rates best is kept
and the search goes on from there, until ``budget`` continuations have been played (then the heuristic plays the
rest). A win it finds is a legal game under the real rules from the deal's seed (it is played again through the
ordinary play loop, every action checked legal), so its win rate is a lower bound on the share of winnable deals.

It is unfair on purpose: ``fair = False`` on the class, ``fair = false`` in every games row it writes, and it never
stands among the fair players' strength. The play loop never gives a fair player what ``solve`` gets.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .play import LegalActions


def _twin(s: Any) -> Any:
    """A copy of state ``s`` with a copy of its generator: the same future, drawn in the same order."""
    rng = random.Random()
    rng.setstate(s.rng.getstate())
    return s.copy(rng)


class OracleBase:
    """A game's oracle: ``make(weights)`` builds its heuristic, ``variants`` are weight changes proposing other turns,
    ``value(state)`` rates a position (P(win)). ``solve`` is called with the real game before play starts (see
    ``fi_cli.sim.games.engine_calls``); ``choose`` then plays the actions found, each checked legal."""

    name = "oracle"
    fair = False
    PARAMETERS: dict[str, str] = {
        "budget": "continuations (whole games of the heuristic) the search may play per deal (default 20000)",
        "depth": "turns after a candidate turn at which a lost continuation's position is rated (default 2)",
        "variants": "weight variants of the heuristic that propose turns besides it (default: all of the game's)",
        "beam": "positions kept at each turn of the search, the best rated first (default 32; 1: greedy)",
    }
    make: Callable[..., Any]
    variants: Sequence[dict[str, float]] = ()
    value: Callable[[Any], float]

    def __init__(self, budget: int = 20000, depth: int = 2, variants: int | None = None, beam: int = 32) -> None:
        for key, v, least in (("budget", budget, 1), ("depth", depth, 1), ("variants", variants, 0), ("beam", beam, 1)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < least):
                raise ValueError(f"{key} must be a whole number of at least {least}, got {v!r}")
        n = len(self.variants) if variants is None else variants
        if n > len(self.variants):
            raise ValueError(f"variants must be at most {len(self.variants)}, got {n}")
        self.budget, self.depth, self.beam = budget, depth, beam
        self.players = [type(self).make()] + [type(self).make(**w) for w in self.variants[:n]]
        self._script: list[tuple] = []
        self.found = False  # whether the last solve proved a win
        self.continuations = 0  # how many the last solve played

    def reset(self, seed: int) -> None:
        """Nothing to forget: the actions to play come from ``solve``, called for each deal."""

    def solve(self, game: Any) -> None:
        """Search the real game (``game`` with its generator; left untouched) for a win; remember its actions."""
        self.continuations = 0
        self.found = False
        beam: list[tuple[Any, list[tuple]]] = [(_twin(game), [])]
        longest: tuple[int, list[tuple]] = (-1, [])  # the game that lasted longest, played if nothing wins
        while beam and self.continuations < self.budget:
            children: list[tuple[float, int, Any, list[tuple]]] = []
            for s, line in beam:
                seen: set[tuple] = set()
                for player in self.players:
                    if self.continuations >= self.budget:
                        break
                    t = _twin(s)
                    turn = _play(t, player, lambda st, at=t.turn: st.turn == at)
                    if tuple(turn) in seen:  # another weight setting proposed the same turn: the same future
                        continue
                    seen.add(tuple(turn))
                    after = _twin(t) if t.outcome is None else None
                    rest, score = self._continue(t, s.turn + self.depth)
                    if t.outcome == "win":
                        self._script, self.found = line + turn + rest, True
                        return
                    if t.turn > longest[0]:
                        longest = (t.turn, line + turn + rest)
                    if after is not None:
                        children.append((score, after.turn, after, line + turn))
            children.sort(key=lambda c: c[:2], reverse=True)  # stable: the heuristic's turn first on a tie
            beam = [(c[2], c[3]) for c in children[: self.beam]]
        if beam:  # the budget is spent: the heuristic plays the rest of the best line
            s, line = beam[0]
            line = line + _play(s, self.players[0], lambda st: True)
            self._script, self.found = line, s.outcome == "win"
        else:
            self._script = longest[1]

    def _continue(self, t: Any, rate_at: int) -> tuple[list[tuple], float]:
        """Play the heuristic on ``t`` to the end; its actions and the value of the position at turn ``rate_at``
        (a lost game before then: 0)."""
        self.continuations += 1
        score = 0.0 if t.outcome is not None else None
        base = self.players[0]
        base.reset(0)
        acts: list[tuple] = []
        while t.outcome is None:
            if score is None and t.turn >= rate_at:
                score = type(self).value(t)
            a = base.choose(t, LegalActions(t))
            acts.append(a)
            t.apply(a)
        return acts, score if score is not None else 0.0

    def choose(self, state: Any, legal: Sequence[tuple]) -> tuple:
        if not self._script:
            raise RuntimeError("the oracle has no action left: solve() was not called for this deal")
        a = self._script.pop(0)
        if a not in legal:  # the search and the real game drew differently: a bug, never a silent wrong game
            raise RuntimeError(f"the oracle's action {a!r} is not legal in the real game (turn {state.turn})")
        return a


def _play(s: Any, player: Any, going: Callable[[Any], bool]) -> list[tuple]:
    """Let ``player`` decide on ``s`` while ``going(s)`` and the game is not over; the actions taken."""
    player.reset(0)
    acts: list[tuple] = []
    while s.outcome is None and going(s):
        a = player.choose(s, LegalActions(s))
        acts.append(a)
        s.apply(a)
    return acts
