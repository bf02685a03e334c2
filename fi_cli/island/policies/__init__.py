"""Players. A policy sees the public state (no generator: deck order is hidden) and picks a legal action."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ...common.policies import Policy, PolicyError, RandomPolicy, build_policy

__all__ = ["Policy", "PolicyError", "is_fair", "make_policy", "policy_names"]


@cache  # built once: the simulator makes a policy for every game
def _registry() -> dict[str, Callable[..., Policy]]:
    # imported here: the policy modules import this package for Policy and make_policy
    from .heuristic import HeuristicPolicy
    from .oracle import OraclePolicy
    from .planner import PlannerPolicy, SearchPolicy

    return {"random": RandomPolicy, "heuristic": HeuristicPolicy, "planner": PlannerPolicy, "search": SearchPolicy,
            "oracle": OraclePolicy}


def policy_names() -> list[str]:
    return sorted(_registry())


def is_fair(name: str) -> bool:
    """Whether policy ``name`` decides from what real players see (False only for a clairvoyant instrument)."""
    return getattr(_registry().get(name), "fair", True)


def make_policy(name: str, params: dict[str, Any] | None = None) -> Policy:
    """Build a policy by id; unknown ids or parameters raise PolicyError naming what is allowed."""
    return build_policy(_registry(), name, params, "island")
