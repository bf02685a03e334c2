"""A policy wrapper for whole-game tests of either game: every choice must be legal, made without the generator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class CheckedPolicy:
    """Wraps ``inner`` and checks that every choice is one of the legal actions (named by ``action_text`` when it
    is not) and that the state it decides on carries no generator."""

    name = "checked"

    def __init__(self, inner: Any, action_text: Callable[[tuple], str]) -> None:
        self.inner, self.action_text = inner, action_text

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def choose(self, s: Any, legal: Any) -> tuple:
        assert s.rng is None
        a = self.inner.choose(s, legal)
        assert a in legal, f"{self.action_text(a)} is not legal"
        return a
