"""Players. A policy sees the public state (no generator: deck order is hidden) and picks a legal action."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..actions import Action
from ..engine import GameState


class PolicyError(ValueError):
    """An unknown policy or a parameter it does not take."""


class Policy(Protocol):
    name: str

    def reset(self, seed: int) -> None:
        """Start a new game; ``seed`` seeds the policy's own randomness (never the game's)."""

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (non-empty) for the pending decision of ``state``.

        ``legal`` is a list or an ``engine.LegalActions``, which lists the actions only when first looked
        at: a policy that can decide from the state alone need not pay for the list."""


def _registry() -> dict[str, Callable[..., Policy]]:
    # imported here: the policy modules import this package for Policy and make_policy
    from .heuristic import HeuristicPolicy
    from .planner import PlannerPolicy
    from .random_policy import RandomPolicy

    return {"random": RandomPolicy, "heuristic": HeuristicPolicy, "planner": PlannerPolicy}


def policy_names() -> list[str]:
    return sorted(_registry())


def make_policy(name: str, params: dict[str, Any] | None = None) -> Policy:
    """Build a policy by id; unknown ids or parameters raise PolicyError naming what is allowed."""
    registry = _registry()
    if name not in registry:
        raise PolicyError(f"unknown policy {name!r}; policies are: {', '.join(sorted(registry))}")
    cls = registry[name]
    params = dict(params or {})
    allowed = getattr(cls, "PARAMETERS", {})
    unknown = [k for k in params if k not in allowed]
    if unknown:
        listing = ", ".join(allowed) if allowed else "none"
        raise PolicyError(f"policy {name!r} has no parameter {unknown[0]!r}; its parameters are: {listing}")
    try:
        return cls(**params)
    except (TypeError, ValueError) as e:
        raise PolicyError(f"policy {name!r}: {e}") from None
