"""The public view of a position: all that real players see and nothing else, as plain data.

A view is a dict of ints, strings, booleans, None and lists of them, ready for JSON: what a player in a process
of its own is sent at each decision (``common.isolation``). Every field of a game's state is public (the engines
store nothing hidden: no deck order, no underside of an unexcavated tile), except the game's generator ``rng``,
where all that is still to come lives, and the data logs' recorder ``stats``; a view holds the other fields as
they are, plus what each game needs to rebuild its state (``island.view``, ``desert.view``). A state rebuilt from
a view has no generator: ``state.copy(random.Random(k))`` plays one possible future.
"""

from __future__ import annotations

from typing import Any

NOT_PUBLIC = ("rng", "stats")


def fields_of(s: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The state's fields ``names`` as plain data (a compiled state class does not list its fields: each game's
    view names them, and its tests check that a rebuilt state is the same position)."""
    return {k: _plain(getattr(s, k)) for k in names}


def state_of(cls: type, fields: dict[str, Any], tuples: tuple[str, ...]) -> Any:
    """A state of ``cls`` with these fields (``tuples``: those the engine keeps as tuples), no generator."""
    s = cls.__new__(cls)
    for k, v in fields.items():
        setattr(s, k, _nested_tuple(v) if k in tuples else _copied(v))
    s.rng = None
    s.stats = None
    return s


def _plain(v: Any) -> Any:
    if isinstance(v, list | tuple):  # the fields are flat lists of ints, or lists of them (hands, segments)
        return [_plain(x) for x in v] if v and isinstance(v[0], list | tuple) else list(v)
    return v


def _copied(v: Any) -> Any:
    if isinstance(v, list):
        return [_copied(x) for x in v] if v and isinstance(v[0], list) else v[:]
    return v


def _nested_tuple(v: Any) -> Any:
    return tuple(_nested_tuple(x) for x in v) if isinstance(v, list | tuple) else v


def as_action(v: Any) -> Any:
    """An action sent as JSON (lists) back as the engine's tuple."""
    return _nested_tuple(v)
