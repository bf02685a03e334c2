"""The heuristic's movement geometry against a plain reading of the boards, for random sunk tiles."""

from __future__ import annotations

import random

import pytest

from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import BUILTIN_LAYOUTS, get_layout
from fi_cli.island.policies.heuristic_geom import AROUND, DIVE, FAR, ORTH, Geometry
from fi_cli.island.rules import Rules
from fi_cli.island.tiles import SUNK


def _crossings(board, sunk: set[int], u: int) -> set[int]:
    """Tiles a Diver on u reaches in one move through sunk tiles (and open sea): a search from u alone."""
    gone = {v for v in range(len(board.dive)) if v >= 24 or v in sunk}
    out, seen, stack = set(), {u}, [u]
    while stack:
        for v in board.dive[stack.pop()]:
            if v in seen:
                continue
            seen.add(v)
            if v in gone:
                stack.append(v)
            else:
                out.add(v)
    return out


def _steps(nb, src: int) -> list[int]:
    d = {src: 0}
    todo = [src]
    for u in todo:
        for v in nb[u]:
            if v not in d:
                d[v] = d[u] + 1
                todo.append(v)
    return [d.get(t, FAR) for t in range(24)]


@pytest.mark.parametrize("through_sea", [False, True])
def test_neighbours_and_steps_match_a_plain_search(through_sea):
    rng = random.Random(11)
    for g, name in enumerate(sorted(BUILTIN_LAYOUTS)):
        s = new_game(GameSetup(get_layout(name), rules=Rules(diver_through_sea=through_sea)), g)
        board = s.board
        cell_rank = {board.tile_at[c]: i for i, c in enumerate(board.layout.cells)}
        geo = Geometry()
        for t in rng.sample(range(24), 14):  # sink tiles one by one; check after each
            s.tiles[t] = SUNK
            geo.update(s)
            sunk = {x for x in range(24) if s.tiles[x] == SUNK}
            for kind, table in ((ORTH, board.orth), (AROUND, board.around), (DIVE, board.orth)):
                nb = geo.neighbours(kind)
                for u in range(24):
                    want = {v for v in table[u] if v not in sunk}
                    if kind == DIVE and u not in sunk:
                        want |= _crossings(board, sunk, u)
                    assert set(nb[u]) == want, (name, kind, u)
                    assert list(nb[u]) == sorted(nb[u], key=cell_rank.get)  # ties broken in cell order
                for src in rng.sample(range(24), 6):
                    if src not in sunk:
                        got = [min(x, FAR) for x in geo.dist(kind, src)]
                        want_d = [min(x, FAR) for x in _steps(nb, src)]
                        assert got == want_d, (name, kind, src)


def test_tables_of_sunk_tiles_seen_before_come_back_and_are_right():
    s = new_game(GameSetup(get_layout("forbidden_island")), 5)
    geo = Geometry()
    geo.update(s)
    before = geo.dist(ORTH, 3)
    future = s.copy()
    for t in (3, 7, 11):  # a sampled future where tiles sink ...
        future.tiles[t] = SUNK
    geo.update(future)
    assert geo.dist(ORTH, 0)[3] == FAR
    geo.update(s)  # ... then back to the position itself: its tables are the ones made for it
    assert geo.dist(ORTH, 3) is before
    fresh = Geometry()
    fresh.update(s)
    assert all(geo.dist(k, t) == fresh.dist(k, t) for k in (ORTH, AROUND, DIVE) for t in range(24))
