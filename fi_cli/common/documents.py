"""Reading and writing the JSON documents of positions: errors that name the key, one key a line when written."""

from __future__ import annotations

import json
from typing import Any


class PositionError(ValueError):
    """A position document that is malformed or describes an impossible position."""


def pretty_json(v: Any, depth: int = 0, flat_objects: bool = False) -> str:
    """JSON text with one key per line; lists of plain values on one line (with ``flat_objects``, objects of
    plain values too)."""
    pad = " " * (depth + 1)
    if isinstance(v, dict) and v and not (flat_objects and _plain(v.values())):
        inner = ",\n".join(f"{pad}{json.dumps(k)}: {pretty_json(x, depth + 1, flat_objects)}" for k, x in v.items())
        return "{\n" + inner + "\n" + " " * depth + "}"
    if isinstance(v, list) and not _plain(v):
        return "[\n" + ",\n".join(pad + pretty_json(x, depth + 1, flat_objects) for x in v) + "\n" + " " * depth + "]"
    return json.dumps(v)


def _plain(values: Any) -> bool:
    return not any(isinstance(x, list | dict) for x in values)


def parse_json(text: str, source: str) -> Any:
    """JSON text -> a document; PositionError (naming the line and column) if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError(f"{source}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None


def show(v: Any) -> str:
    """A value as the user wrote it (JSON), cut short."""
    text = json.dumps(v, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


_KINDS = {bool: "true/false", int: "a whole number", str: "text", list: "a list", dict: "an object",
          type(None): "null", float: "a number with a fraction"}  # fmt: skip


def _kind(v: Any) -> str:
    return _KINDS.get(type(v), type(v).__name__)


class Reader:
    """Reads keys from a position dict; every problem is a PositionError naming the key and what is allowed."""

    def __init__(self, doc: Any, source: str, keys: tuple[str, ...], at: str = "") -> None:
        """`at`: the key path of `doc` inside the position ('' for the position itself)."""
        self.source, self.at = source, at
        if not isinstance(doc, dict):
            where = f"key '{at}': expected an object" if at else "a position is a JSON object"
            raise PositionError(f"{source}: {where}, got {_kind(doc)} {show(doc)}")
        unknown = [k for k in doc if k not in keys]
        if unknown:
            raise self.fail(str(unknown[0]), f"unknown key; the keys are: {', '.join(keys)}")
        self.doc = doc

    def fail(self, key: str, msg: str) -> PositionError:
        return PositionError(f"{self.source}: key '{self.at}{'.' if self.at else ''}{key}': {msg}")

    def get(self, key: str, kind: type | tuple, default: Any = ...) -> Any:
        if key not in self.doc:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        return self.check(key, self.doc[key], kind)

    def check(self, key: str, v: Any, kind: type | tuple, what: str = "") -> Any:
        """`v` if it is of `kind` (true/false is not a number here), else an error naming the key."""
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(v, kinds) or (isinstance(v, bool) and bool not in kinds):
            want = " or ".join(_KINDS[k] for k in kinds)
            raise self.fail(key, f"{what}expected {want}, got {show(v)}")
        return v

    def number(self, key: str, low: int, high: int, default: Any = ..., why: str = "") -> int:
        v = self.get(key, int, default)
        if not low <= v <= high:
            raise self.fail(key, f"must be {low} to {high}{why}, got {v}")
        return v

    def name(self, key: str, value: Any, table: dict[str, int], what: str) -> int:
        if not isinstance(value, str) or value not in table:
            raise self.fail(key, f"{show(value)} is not a {what}; {what}s are: {', '.join(table)}")
        return table[value]

    def names(self, key: str, table: dict[str, int], what: str, default: Any = ...) -> list[int]:
        """A list of distinct names."""
        given = self.get(key, list, default)
        out = [self.name(key, v, table, what) for v in given]
        twice = next((v for i, v in enumerate(given) if v in given[:i]), None)
        if twice is not None:
            raise self.fail(key, f"{twice} is named twice")
        return out

    def cell(self, key: str, tile: str, cell: Any) -> tuple[int, int]:
        if not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
            raise self.fail(key, f"cell of {tile} must be [row, col], got {show(cell)}")
        return cell[0], cell[1]

    def components(self, kind: Any) -> Any:
        """The game's components (its ``Components`` class) under 'components'; the rulebook's when absent."""
        try:
            return kind.from_dict(self.get("components", dict, {}))
        except ValueError as e:  # a ComponentsError naming the component
            raise self.fail("components", str(e)) from None

    def counts(self, key: str, value: dict, table: dict[str, int]) -> list[int]:
        out = [0] * len(table)
        for name, n in value.items():
            i = self.name(key, name, table, "card")
            if type(n) is not int or n < 0:
                raise self.fail(key, f"count of {name} must be a non-negative whole number, got {show(n)}")
            out[i] = n
        return out
