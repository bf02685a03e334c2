"""Reading and writing the JSON documents of positions: errors that name the key, compact one-key-a-line text."""

from __future__ import annotations

import json
import re
from typing import Any

_FLAT_LIST = re.compile(r"\[\s*([^\[\]{}]*?)\s*\]")
_FLAT_OBJECT = re.compile(r"\{\s*([^\[\]{}]*?)\s*\}")


class PositionError(ValueError):
    """A position document that is malformed or describes an impossible position."""


def compact_json(doc: Any, objects: bool = False) -> str:
    """JSON text with one key per line, lists (and with ``objects``, objects) holding no others on one line."""
    text = json.dumps(doc, indent=1)

    def one_line(open_: str, close: str):
        return lambda m: open_ + ", ".join(x.strip() for x in m.group(1).split(",\n") if x.strip()) + close

    text = _FLAT_LIST.sub(one_line("[", "]"), text)
    return _FLAT_OBJECT.sub(one_line("{", "}"), text) if objects else text


def parse_json(text: str, source: str) -> Any:
    """JSON text -> a document; PositionError (naming the line and column) if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError(f"{source}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None


class Reader:
    """Reads keys from a position dict, raising PositionError that names the key and what is allowed."""

    def __init__(self, doc: Any, source: str) -> None:
        if not isinstance(doc, dict):
            raise PositionError(f"{source}: a position is a JSON object, got {type(doc).__name__}")
        self.doc = doc
        self.source = source

    def fail(self, key: str, msg: str) -> PositionError:
        return PositionError(f"{self.source}: key '{key}': {msg}")

    def get(self, key: str, kind: type | tuple, default: Any = ...) -> Any:
        if key not in self.doc:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        return self.check(key, self.doc[key], kind)

    def check(self, key: str, v: Any, kind: type | tuple) -> Any:
        """``v`` (found at ``key``) if it is of ``kind``; a bool is never an int here."""
        if not isinstance(v, kind) or (isinstance(v, bool) and kind in (int, (int,))):
            want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(key, f"expected {want}, got {json.dumps(v)}")
        return v

    def name(self, key: str, value: Any, table: dict[str, int], what: str) -> int:
        if value not in table:
            raise self.fail(key, f"{json.dumps(value)} is not a {what}; {what}s are: {', '.join(table)}")
        return table[value]

    def counts(self, key: str, value: Any, table: dict[str, int], size: int, what: str = "card") -> list[int]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected an object of {what} counts, got {json.dumps(value)}")
        out = [0] * size
        for name, n in value.items():
            i = self.name(key, name, table, what)
            if i >= size:
                raise self.fail(key, f"{name} cannot be here")
            if type(n) is not int or n < 0:
                raise self.fail(key, f"count of {name} must be a non-negative integer, got {json.dumps(n)}")
            out[i] = n
        return out

    def int_in(self, key: str, lo: int, hi: int, default: Any = ...) -> int:
        v = self.get(key, int, default)
        if not lo <= v <= hi:
            raise self.fail(key, f"must be {lo}-{hi}, got {v}")
        return v
