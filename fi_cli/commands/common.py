"""Helpers shared by the commands: turning library errors into clear one-paragraph messages."""

from __future__ import annotations

import click


def parse_rules(pairs: tuple[str, ...], option: str = "--rule") -> dict:
    """`--rule flag=value` (or `--param name=value`) options -> a dict of typed values."""
    out: dict = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not name=value (e.g. helicopter_rescue=false)", param_hint=option)
        key, value = (x.strip() for x in pair.split("=", 1))
        out[key] = _typed(value)
    return out


def _typed(value: str) -> bool | int | float | str:
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


class InputError(click.ClickException):
    """Bad input from the user: printed as one paragraph, no traceback, exit code 2."""

    exit_code = 2


def fail(message: str) -> click.ClickException:
    """A domain error (bad file, value or action) as a clear message with exit code 2."""
    return InputError(message)
