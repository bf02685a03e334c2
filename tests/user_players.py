"""Players of a user's own, for tests/test_players.py (loaded by import path: ``user_players:Random`` ...)."""

from __future__ import annotations

import random

NOT_A_CLASS = 3


class Random:
    """A fair random player (the baseline's choice, so its games can be compared with fi's random policy)."""

    def __init__(self, bias: float = 0.0) -> None:
        self.bias = bias

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, legal):
        return legal[int(self.rng.random() * len(legal))]


class Texts(Random):
    """Returns the text form of its choice, which is as good as the action."""

    def choose(self, state, legal):
        return state.action_text(super().choose(state, legal))


class Illegal(Random):
    """Plays fair, then at its 5th decision returns an action that is not legal there (the game's first action
    taken again: a move to where it stands, or some such)."""

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self.seen = 0

    def choose(self, state, legal):
        self.seen += 1
        return (0, 0, 99) if self.seen == 5 else super().choose(state, legal)


class Nothing(Random):
    def choose(self, state, legal):
        return None


class Thing(Random):
    def choose(self, state, legal):
        return object()


class Raises(Random):
    def choose(self, state, legal):
        raise KeyError("no plan")


class NoChoose:
    def pick(self, state, legal):
        return legal[0]


class Counts(Random):
    """Fair, but fails at the start of its 3rd game in this process: games of a run that finished are kept."""

    games = 0

    def reset(self, seed: int) -> None:
        super().reset(seed)
        Counts.games += 1
        if Counts.games == 3:
            raise RuntimeError("out of ideas")
