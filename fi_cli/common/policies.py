"""What every game's players share: the policy protocol, building one by name, the random baseline."""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from .choices import ChoiceError, yaml_text


class PolicyError(ChoiceError):
    """An unknown policy or a parameter it does not take."""


class Policy(Protocol):
    name: str

    def reset(self, seed: int) -> None:
        """Start a new game; ``seed`` seeds the policy's own randomness (never the game's)."""

    def choose(self, state: Any, legal: Sequence[tuple]) -> tuple:
        """Pick one of ``legal`` (non-empty) for the pending decision of ``state``.

        ``legal`` is a list or a ``common.play.LegalActions``, which lists the actions only when first
        looked at: a policy that can decide from the state alone need not pay for the list."""


def build_policy(registry: dict[str, Callable[..., Policy]], name: str, params: dict[str, Any] | None,
                 game: str = "island") -> Policy:
    """Build policy ``name``: one of the game's registry, else a user's player (``module:Class`` or an entry point
    of ``fi.players``, see ``common.players``). Unknown ids or parameters raise PolicyError naming what is allowed
    (a policy class lists its parameters in ``PARAMETERS``)."""
    if name not in registry:
        from .players import known_names, user_player

        player = user_player(game, name, params)
        if player is not None:
            return player
        raise PolicyError(f"unknown policy {name!r}{hint(name, registry)}", [known_names(registry)], "policies are")
    cls = registry[name]
    params = dict(params or {})
    allowed = getattr(cls, "PARAMETERS", {})
    unknown = [k for k in params if k not in allowed]
    if unknown:
        raise PolicyError(f"policy {name!r} has no parameter {unknown[0]!r}{hint(unknown[0], allowed)}",
                          list(allowed) or ["none"], "its parameters are")
    try:
        return cls(**params)
    except (TypeError, ValueError) as e:
        raise PolicyError(f"policy {name!r}: {e}") from None


def hint(word: str, known: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the known name nearest a misspelt one, or '' when none is near."""
    near = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def checked_weights(defaults: dict[str, float], weights: dict[str, Any]) -> dict[str, float]:
    """A hand-crafted policy's weights: its defaults, overridden by ``weights``; ValueError for an unknown name
    or a value that is not a number."""
    w = dict(defaults)
    for k, v in weights.items():
        if k not in w:
            raise ChoiceError(f"unknown parameter {k!r}", w, "parameters are")
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ValueError(f"parameter {k!r} must be a number, got {yaml_text(v)}")
        w[k] = float(v)
    return w


class RandomPolicy:
    """The baseline of either game: a uniformly random choice among the legal actions."""

    name = "random"
    PARAMETERS: dict[str, str] = {}

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: Any, legal: Sequence[tuple]) -> tuple:
        return legal[int(self._rng.random() * len(legal))]
