"""Checking who sits where: the roles chosen in seat order and the first player, the same in both games."""

from __future__ import annotations

from typing import Any


def check_seats(setup: Any, roles: tuple[str, ...]) -> None:
    """Validate ``setup.roles`` (None, or distinct role ids from ``roles``, one per player; stored as a tuple)
    and ``setup.first_player`` (None or a seat) of a frozen set-up; ValueError says what is wrong."""
    if setup.roles is not None:
        chosen = tuple(setup.roles)
        object.__setattr__(setup, "roles", chosen)
        bad = [r for r in chosen if r not in roles]
        if bad:
            raise ValueError(f"unknown role {bad[0]!r}; roles are: {', '.join(roles)}")
        if len(chosen) != setup.players:
            raise ValueError(f"{len(chosen)} roles given for {setup.players} players")
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"each player plays a distinct role, got {', '.join(chosen)}")
    if setup.first_player is not None and not 0 <= setup.first_player < setup.players:
        raise ValueError(f"first player must be a seat 0-{setup.players - 1}, got {setup.first_player!r}")
