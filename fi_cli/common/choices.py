"""A value that is not one of the allowed ones, said once, and values spelt as a YAML file spells them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def yaml_text(value: Any, quoted: bool = True) -> str:
    """`value` as a user writes it in YAML: true, false, null; text quoted (unless `quoted` is false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return repr(value) if quoted and isinstance(value, str) else str(value)


class ChoiceError(ValueError):
    """A bad name or value. `message` says what is wrong and `allowed` (if any) lists what is right, kept apart so
    that a caller which prints its own `allowed:` (a study file's error) does not list the names twice.

    str() reads `message; <label>: a, b, c`, e.g. "unknown policy 'x'; policies are: heuristic, random"."""

    def __init__(self, message: str, allowed: Iterable[Any] | None = None, label: str = "allowed") -> None:
        self.message = message
        self.allowed = None if allowed is None else ", ".join(yaml_text(a, quoted=False) for a in allowed)
        super().__init__(message if self.allowed is None else f"{message}; {label}: {self.allowed}")
