"""Desert players. A policy sees the public state (no generator: the undersides of unexcavated tiles and the
deck orders are not in it) and picks a legal action. Add a policy by adding it to ``_registry``."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ...common.policies import Policy, PolicyError, RandomPolicy, build_policy

__all__ = ["Policy", "PolicyError", "is_fair", "make_policy", "policy_names"]


@cache  # built once: the simulator makes a policy for every game
def _registry() -> dict[str, Callable[..., Policy]]:
    # a function, not a constant: policy modules (imported here) may import this package
    from .heuristic import HeuristicPolicy
    from .oracle import OraclePolicy
    from .search import SearchPolicy

    return {"random": RandomPolicy, "heuristic": HeuristicPolicy, "search": SearchPolicy, "oracle": OraclePolicy}


def policy_names() -> list[str]:
    return sorted(_registry())


def is_fair(name: str) -> bool:
    """Whether policy ``name`` decides from what real players see (False only for a clairvoyant instrument)."""
    return getattr(_registry().get(name), "fair", True)


def make_policy(name: str, params: dict[str, Any] | None = None) -> Policy:
    """Build a Desert policy by id; unknown ids or parameters raise PolicyError naming what is allowed."""
    return build_policy(_registry(), name, params, "desert")
