"""Helpers shared by the commands: turning library errors into clear one-paragraph messages."""

from __future__ import annotations

import click


def parse_rules(pairs: tuple[str, ...]) -> dict:
    """`--rule flag=value` options -> a dict of typed variant values."""
    out: dict = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not flag=value (e.g. helicopter_rescue=false)", param_hint="--rule")
        key, value = (x.strip() for x in pair.split("=", 1))
        low = value.lower()
        out[key] = True if low == "true" else False if low == "false" else int(value) if value.isdigit() else value
    return out


class InputError(click.ClickException):
    """Bad input from the user: printed as one paragraph, no traceback, exit code 2."""

    exit_code = 2


def fail(message: str) -> click.ClickException:
    """A domain error (bad file, value or action) as a clear message with exit code 2."""
    return InputError(message)
