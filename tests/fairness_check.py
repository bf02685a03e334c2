"""The fair-play check of both games, shared by tests/test_fairness.py and tests/test_desert_fairness.py.

A policy plays whole real games; a ``Witness`` in front of it writes down, at every decision, the public view it
was asked about (``<game>.view``), what it decided, and the only seed it was handed. Then a **fresh process**, which
never held anything of the real game (no generator, no seed, no frame of the game's code), builds the policy anew,
resets it with that seed and asks it every decision again, in order, on the state rebuilt from the view with
**another hidden future** (another generator, held where play holds the real one; the island's flood segments
also stored in another order). A fair policy decides from the view and its own seed only, so it decides the same;
a policy that found anything hidden, by whatever route, found something else there, or nothing, and its choices
part from the real ones. A cheat that reads a caller's frames or a module's globals in the real game is caught
this way even if it stashes what it read in its own memory: nothing of the real game crosses to the fresh process.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from fi_cli.common.play import LegalActions, choose
from fi_cli.games import module
from fi_cli.seeding import policy_seed


@dataclass(frozen=True)
class Deal:
    """A game to play: no frame of the tests holds its seed as a variable of its own (a cheat looks there)."""

    game: str
    setup: Any
    seed: int

    def __str__(self) -> str:
        return f"{getattr(self.setup.layout, 'id', self.game)}, {self.setup.players} players, seed {self.seed}"


def play(witness: Any, deal: Deal) -> None:
    """A deal played as fi plays it."""
    module(deal.game, "play").play_game(deal.setup, witness, deal.seed)


_AWAY: dict[int, random.Random] = {}


def play_with_a_registry(witness: Any, deal: Deal) -> None:
    """A loop as fi's was before issue 49: the generator put aside in a module-level dict while the policy decides
    (reachable through the globals of any function of this module)."""
    s = module(deal.game, "game").new_game(deal.setup, deal.seed)
    witness.reset(policy_seed(deal.seed))
    while s.outcome is None:
        _AWAY[id(s)], s.rng = s.rng, None
        try:
            action = witness.choose(s, LegalActions(s))
        finally:
            s.rng = _AWAY.pop(id(s))
        s.apply(action)


class Witness:
    """Plays the policy in a real game and writes down each decision's public view and the policy's choice."""

    name = "witness"

    def __init__(self, inner: Any, game: str) -> None:
        self.inner, self.view = inner, module(game, "view").to_view
        self.seeds: list[int] = []
        self.decisions: list[tuple[dict, tuple]] = []

    def reset(self, seed: int) -> None:
        self.seeds.append(seed)
        self.inner.reset(seed)

    def choose(self, state: Any, legal: Any) -> tuple:
        view = self.view(state)
        action = self.inner.choose(state, legal)
        self.decisions.append((view, action))
        return action


def ask_again(game: str, make: Callable[[], Any], seed: int, decisions: list[tuple[dict, tuple]],
              future: int) -> list[str]:
    """In the fresh process: every decision asked again of a new policy, with another hidden future each."""
    from_view, text = module(game, "view").from_view, module(game, "actions").action_text
    policy = make()
    policy.reset(seed)
    problems = []
    for k, (view, real) in enumerate(decisions):
        s = from_view(view)
        s.rng = random.Random(future * 100_003 + k)  # another future, held as play holds the real one
        if game == "island":
            for seg in s.fdeck:  # a segment stored in another order than the real game's engine left it
                random.Random(future + k).shuffle(seg)
        again = choose(policy, s, LegalActions(s))
        if again != real:
            problems.append(f"decision {k} (turn {s.turn}, {s.PHASES[s.phase]}): {text(again)} instead of "
                            f"{text(real)}")
    return problems


def fresh_processes(workers: int = 1) -> ProcessPoolExecutor:
    """Processes started clean ('spawn'): they share nothing with the one that played the real games."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def fairness_problems(pool: ProcessPoolExecutor, game: str, make: Callable[[], Any],
                      play: Callable[[Any, Any], None], games: list[Any]) -> tuple[list[str], list[Witness]]:
    """Play ``games`` (each a set-up and seed ``play(witness, game)`` knows how to play) with a new policy from
    ``make`` each (picklable: it is called again in the fresh process), and check every decision in a fresh
    process; the problems found and the witnesses (``witness.inner`` is the policy that played)."""
    jobs, witnesses = [], []
    for i, g in enumerate(games):
        witness = Witness(make(), game)
        play(witness, g)
        assert len(witness.seeds) == 1, "one game, one reset"
        witnesses.append(witness)
        jobs.append((g, pool.submit(ask_again, game, make, witness.seeds[0], witness.decisions, 7919 * (i + 1))))
    return [f"{g}: {p}" for g, job in jobs for p in job.result()], witnesses


def decisions(witnesses: list[Witness]) -> int:
    return sum(len(w.decisions) for w in witnesses)
