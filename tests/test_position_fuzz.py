"""Fuzzing the two readers of user text: position documents and the action notation.

Thousands of seeded mutations of real positions (values changed, types changed, keys deleted, junk added)
go through the reader: each either loads, and then its written form reads back to the very same position and
the engine can play on from it, or raises PositionError (exit 2 through the CLI) — never anything else.
The same for the action parser, on random text and on mutations of every action text of real games.
`python tests/test_position_fuzz.py N` runs N mutations per kind instead of the suite's few thousand.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import traceback
from typing import Any

import pytest
from click.testing import CliRunner
from test_position import _positions

from fi_cli.cli import main
from fi_cli.island.actions import ActionParseError, action_text, parse_action
from fi_cli.island.engine import OVER
from fi_cli.island.position import PositionError, dumps, from_dict, loads, to_dict
from fi_cli.island.tiles import CARDS, ROLES, TILE_STATES, TILES, TREASURES

SEED = 20260101
NAMES = list(TILES + CARDS + ROLES + TILE_STATES + TREASURES) + [
    "actions", "discard", "flood", "swim", "draw", "over", "win", "loss", "water_level", "turn_limit"]
JUNK: list[Any] = [None, True, False, 0, 1, -1, 2, 3, 5, 6, 7, 10, 11, 200, 10**20, -(10**20), 0.5, 2.0, "", " ",
                   "x", "[a,b]", "{", "p1", "é", [], {}, [[]], [{}], {"a": 1}, ["watchtower"], [0, 1], [1, 1],
                   [[0, 1]], {"watchtower": "dry"}, {"earth_stone": 2}]  # fmt: skip


def _base_documents() -> list[dict]:
    """Positions of real games in every phase, as documents."""
    docs, seen = [], set()
    for i, s in enumerate(_positions(12)):
        if i % 7 == 0 or s.phase not in seen:
            seen.add(s.phase)
            docs.append(to_dict(s))
    return docs


def _places(doc: Any, at: tuple = ()) -> list[tuple]:
    """Every path to a value inside the document."""
    out = [at] if at else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _places(v, at + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _places(v, at + (i,))
    return out


def _nearby(value: Any, rng: random.Random) -> Any:
    """A value of the same kind that a careless edit could make."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-2, -1, 1, 2, 5])
    if isinstance(value, str):
        return rng.choice(NAMES)
    if isinstance(value, list) and value:
        v = value[:]
        op = rng.randrange(3)
        if op == 0:
            v.append(rng.choice(v))
        elif op == 1:
            v.pop(rng.randrange(len(v)))
        else:
            rng.shuffle(v)
        return v
    return rng.choice(JUNK)


def mutate(doc: dict, rng: random.Random) -> dict:
    """One to three random edits of a copy of the document."""
    d = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 2, 3])):
        top = rng.choice(list(d))  # a key first, then a place inside it: every key gets its share
        at = rng.choice([(top,), *_places(d[top], (top,))])
        parent = d
        for k in at[:-1]:
            parent = parent[k]
        key = at[-1]
        op = rng.random()
        if op < 0.15:
            del parent[key]
        elif op < 0.25 and isinstance(parent, dict):
            parent[rng.choice(NAMES + ["junk"])] = rng.choice(JUNK)
        elif op < 0.6:
            parent[key] = _nearby(parent[key], rng)
        else:
            parent[key] = copy.deepcopy(rng.choice(JUNK))
    return d


def check_document(d: Any) -> bool:
    """Loads and reads back exactly (and the engine plays on), or a PositionError. True when it loaded."""
    try:
        s = from_dict(d)
    except PositionError as e:
        assert "key '" in str(e) or "a position is a JSON object" in str(e), str(e)
        return False
    written = to_dict(s)
    again = loads(dumps(s))
    assert to_dict(again) == written and json.loads(dumps(again)) == written
    legal = s.legal_actions()
    assert legal == again.legal_actions() and (legal or s.phase == OVER)
    rng = random.Random(len(legal))
    for a in rng.sample(legal, min(3, len(legal))):  # the engine accepts every position the reader accepts
        t = s.copy(random.Random(rng.random()))
        t.apply(a)
        to_dict(t)
    return True


def fuzz_positions(n: int, seed: int = SEED) -> tuple[int, int]:
    rng = random.Random(seed)
    docs = _base_documents()
    loaded = 0
    for i in range(n):
        d = mutate(rng.choice(docs), rng)
        try:
            loaded += check_document(d)
        except Exception:  # noqa: BLE001 - report the document that broke the reader
            raise AssertionError(f"mutation {i} broke the reader:\n{json.dumps(d)[:3000]}\n"
                                 f"{traceback.format_exc()}") from None
    return loaded, n


def _action_texts() -> list[str]:
    texts = set()
    for g, s in enumerate(_positions(6)):
        if s.outcome is None:
            texts.update(action_text(a) for a in s.legal_actions())
        if len(texts) > 3000 or g > 400:
            break
    return sorted(texts)


ALPHABET = "abcdefghijklmnopqrstuvwxyz_0123456789(),+ p\t\n)(é"


def _mutated_text(texts: list[str], rng: random.Random) -> str:
    text = rng.choice(texts)
    if rng.random() < 0.2:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(40)))
    chars = list(text)
    for _ in range(rng.randrange(4)):
        op, i = rng.randrange(5), rng.randrange(len(chars) + 1)
        if op == 4:  # blanks: harmless where a separator is
            chars.insert(i, rng.choice(" \t"))
        elif op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice(ALPHABET))
        elif op == 2:  # a word from another action or a name
            chars[i:i] = list(rng.choice(NAMES + ["p0", "p3", "p4", "lift_off", "sandbags", "+", ", "]))
        elif chars:
            j = rng.randrange(len(chars))
            chars[min(i, len(chars) - 1)], chars[j] = chars[j], chars[min(i, len(chars) - 1)]
    return "".join(chars)


def fuzz_actions(n: int, seed: int = SEED) -> tuple[int, int]:
    rng = random.Random(seed)
    texts = _action_texts()
    parsed = 0
    for _ in range(n):
        text = _mutated_text(texts, rng)
        try:
            a = parse_action(text)
        except ActionParseError:
            continue
        except Exception:  # noqa: BLE001
            raise AssertionError(f"parse_action({text!r}) broke:\n{traceback.format_exc()}") from None
        assert parse_action(action_text(a)) == a, text  # a parsed action has its one text form
        parsed += 1
    return parsed, n


def test_mutated_positions_load_exactly_or_give_a_position_error():
    loaded, n = fuzz_positions(3000)
    assert 100 < loaded < n  # both outcomes are exercised


def test_mutated_action_texts_parse_to_actions_or_give_a_parse_error():
    parsed, n = fuzz_actions(5000)
    assert 200 < parsed < n


@pytest.fixture(scope="module")
def mutated_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    rng = random.Random(SEED + 1)
    docs = _base_documents()
    files = []
    for i in range(60):
        f = d / f"{i:03d}.json"
        f.write_text(json.dumps(mutate(rng.choice(docs), rng)))
        files.append(f)
    return files


def test_through_the_cli_exit_0_or_2_never_a_traceback(mutated_files):
    rng = random.Random(SEED + 2)
    texts = _action_texts()
    codes = set()
    for f in mutated_files:
        for args in (["show", str(f)], ["legal", str(f)], ["apply", str(f), _mutated_text(texts, rng)]):
            r = CliRunner().invoke(main, ["position", *args])
            assert r.exit_code in (0, 2) and "Traceback" not in r.output, (args, r.output, r.exception)
            # a position of other rules is warned about on a line of its own, then read as usual
            said = "".join(line for line in r.output.splitlines(True) if not line.startswith("warning: "))
            assert r.exit_code == 0 or said.startswith("Error: "), r.output
            codes.add(r.exit_code)
    assert codes == {0, 2}


def test_every_real_position_loads_and_plays_on():
    for s in _positions(3):
        assert check_document(to_dict(s))


if __name__ == "__main__":  # a longer run than the suite's
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    loaded, _ = fuzz_positions(n)
    print(f"positions: {loaded} of {n} mutations loaded, the rest were refused cleanly")
    parsed, _ = fuzz_actions(n)
    print(f"actions: {parsed} of {n} texts parsed, the rest were refused cleanly")
