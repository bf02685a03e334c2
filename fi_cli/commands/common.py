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


def parse_components(pairs: tuple[str, ...]) -> dict:
    """`--component name=value` options -> a dict: a number (hand_limit=6), a meter (water_meter=2,2,3,3) or a
    value per role (canteens=water_carrier:6,explorer:5)."""
    out: dict = {}
    for pair in pairs:
        name, sep, text = (x.strip() for x in pair.partition("="))
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not name=value (e.g. hand_limit=6, water_meter=2,2,3,3, "
                                     "canteens=water_carrier:6)", param_hint="--component")
        parts = [p.strip() for p in text.split(",")]
        if all(":" in p for p in parts):
            out[name] = {role.strip(): _typed(n) for role, _, n in (p.partition(":") for p in parts)}
        else:
            out[name] = [_typed(p) for p in parts] if len(parts) > 1 else _typed(text)
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


def search_options(command):
    """The options of a design's search that `fi design` and `fi layouts design` share."""
    for option in reversed([
        click.option("--confirm", "confirm_games", type=click.IntRange(min=100), default=2_000, show_default=True,
                     help="Fresh games (per policy) that confirm a candidate (none of them played in the search)."),
        click.option("--screen", type=click.IntRange(min=8), default=None,
                     help="Games per candidate (and policy) in the first round of a bracket (a bracket plays 48x "
                          "this).  [default: 64; 128 with several policies' targets]"),
        click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
                     help="Seed of the candidates and of every game: the same seed gives the same design."),
        click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes (default: the usable "
                                                                            "cores)."),
    ]):
        command = option(command)
    return command


def design_and_write(spec, workers: int | None, write) -> None:
    """Run a design (fi_cli.sim.design) with its progress on stderr, `write` its result (also the best so far
    after Ctrl-C), and exit 130 when interrupted, 1 when nothing was confirmed within the tolerance."""
    import sys

    from ..sim.design import DesignError, DesignInterrupted, design

    try:
        result = design(spec, workers, progress=lambda m: click.echo(m, err=True))
    except DesignError as e:
        raise InputError(str(e)) from None
    except DesignInterrupted as e:
        result = e.result
    write(result)
    if result.interrupted:
        sys.exit(130)
    if not result.found:
        sys.exit(1)


def fail(message: str) -> click.ClickException:
    """A domain error (bad file, value or action) as a clear message with exit code 2."""
    return InputError(message)


def use_system_allocator() -> None:
    """Arrow's memory from the C library's allocator, unless ARROW_DEFAULT_MEMORY_POOL chooses one: a report
    reads a run a batch of chunks at a time, and this allocator gives each batch's memory back (the default one
    keeps it: 15% more peak memory on a run of a million games)."""
    import os

    if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
        import pyarrow

        pyarrow.set_memory_pool(pyarrow.system_memory_pool())
