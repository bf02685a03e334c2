"""Movement geometry for the heuristic player: neighbour lists and step distances per way of moving.

Distances only change when a tile sinks. They depend on the island's shape and on which cells have sunk,
not on which tile lies where, so they are computed on cells and shared by all games on the same shape
(a module-level cache); a game's own cache translates them to tile indices. Three ways of moving: ``ORTH``
(most roles), ``AROUND`` (the Explorer, diagonals too) and ``DIVE`` (the Diver: orthogonal steps plus, in
one action, a crossing through sunk spaces; chains of flooded tiles are not modelled).
"""

from __future__ import annotations

from ..engine import GameState
from ..tiles import DIVER, EXPLORER, SUNK

ORTH, AROUND, DIVE = 0, 1, 2
FAR = 12  # stands for "unreachable by walking" in distance sums
_N = 24
_CACHE_LIMIT = 50_000

# (shape, kind, sunk cell mask) -> neighbour lists by cell; (shape, kind, mask, cell) -> distances by cell
_NEIGH: dict[tuple, list[tuple[int, ...]]] = {}
_DIST: dict[tuple, list[int]] = {}
# shape id -> cell adjacency (orth, around, dive) by cell index (dive nodes from 24 up are open sea)
_SHAPES: dict[int, tuple] = {}
_SHAPE_IDS: dict[tuple, int] = {}


def move_kind(role: int) -> int:
    return AROUND if role == EXPLORER else DIVE if role == DIVER else ORTH


class Geometry:
    """Neighbours and BFS distances of one game's board under its current sunk tiles."""

    __slots__ = ("board", "mask", "cmask", "ci", "tc", "shape", "neigh", "cneigh", "dists", "cache", "static")

    def __init__(self) -> None:
        self.board = None
        self.mask = -1
        self.cmask = 0
        self.ci: list[int] = []
        self.tc: list[int] = []
        self.shape = -1
        self.neigh: list[list[tuple[int, ...]] | None] = [None, None, None]
        self.cneigh: list[list[tuple[int, ...]] | None] = [None, None, None]
        self.dists: list[list[list[int] | None]] = [[None] * _N for _ in range(3)]
        self.cache: dict = {}  # anything else that only changes when a tile sinks
        self.static: dict = {}  # things of this board that do not depend on sunk tiles

    def update(self, s: GameState) -> None:
        tiles = s.tiles
        mask = 0
        for t in range(_N):
            if tiles[t] == SUNK:
                mask |= 1 << t
        if s.board is self.board and mask == self.mask:
            return
        if s.board is not self.board:
            self._new_board(s)
        self.mask = mask
        ci = self.ci
        self.cmask = sum(1 << ci[t] for t in range(_N) if mask >> t & 1)
        self.neigh = [None, None, None]
        self.cneigh = [None, None, None]
        self.dists = [[None] * _N for _ in range(3)]
        self.cache = {}

    def _new_board(self, s: GameState) -> None:
        board = s.board
        self.board = board
        self.static = {}
        cells = board.layout.cells
        index = {cell: i for i, cell in enumerate(cells)}
        ci = [index[board.cell_of[t]] for t in range(_N)]
        tc = [0] * _N
        for t, c in enumerate(ci):
            tc[c] = t
        self.ci, self.tc = ci, tc
        full = (cells, s.rules.diver_through_sea)
        shape = _SHAPE_IDS.get(full)
        if shape is None:
            shape = _SHAPE_IDS[full] = len(_SHAPE_IDS)  # a small int: cheap to hash in cache keys
        self.shape = shape
        if shape not in _SHAPES:

            def node(v: int) -> int:
                return ci[v] if v < _N else v

            orth = [()] * _N
            around = [()] * _N
            dive = [()] * len(board.dive)
            for t in range(_N):
                orth[ci[t]] = tuple(sorted(ci[v] for v in board.orth[t]))
                around[ci[t]] = tuple(sorted(ci[v] for v in board.around[t]))
            for u in range(len(board.dive)):
                dive[node(u)] = tuple(node(v) for v in board.dive[u])
            _SHAPES[shape] = (orth, around, dive)

    def neighbours(self, kind: int) -> list[tuple[int, ...]]:
        """Neighbours by tile index for one way of moving (sunk tiles left out)."""
        nb = self.neigh[kind]
        if nb is None:
            cnb = self._cell_neighbours(kind)
            ci, tc = self.ci, self.tc
            nb = [tuple(tc[c] for c in cnb[ci[t]]) for t in range(_N)]
            self.neigh[kind] = nb
        return nb

    def _cell_neighbours(self, kind: int) -> list[tuple[int, ...]]:
        nb = self.cneigh[kind]
        if nb is not None:
            return nb
        key = (self.shape, kind, self.cmask)
        nb = _NEIGH.get(key)
        if nb is not None:
            self.cneigh[kind] = nb
            return nb
        orth, around, dive = _SHAPES[self.shape]
        mask = self.cmask
        base = around if kind == AROUND else orth
        nb = [tuple([v for v in base[u] if not mask >> v & 1]) for u in range(_N)]
        if kind == DIVE:

            def gone(v: int) -> bool:
                return v >= _N or mask >> v & 1

            for u in range(_N):
                if mask >> u & 1:
                    continue
                extra = set(nb[u])
                seen = {u}
                stack = [v for v in dive[u] if gone(v)]
                seen.update(stack)
                while stack:
                    x = stack.pop()
                    for v in dive[x]:
                        if v in seen:
                            continue
                        seen.add(v)
                        if gone(v):
                            stack.append(v)
                        elif v != u:
                            extra.add(v)
                nb[u] = tuple(sorted(extra))
        if len(_NEIGH) > _CACHE_LIMIT:
            _NEIGH.clear()
        _NEIGH[key] = nb
        self.cneigh[kind] = nb
        return nb

    def island_dist(self, kind: int, src: int) -> list[int]:
        """Steps from ``src`` on the whole island, as if nothing had sunk (cheap: shared by all games)."""
        key = (kind, src)
        d = self.static.get(key)
        if d is None:
            csrc = self.ci[src]
            gkey = (self.shape, kind, 0, csrc)
            dc = _DIST.get(gkey)
            if dc is None:
                orth, around, _ = _SHAPES[self.shape]
                nb = around if kind == AROUND else orth
                dc = _bfs(nb, csrc)
                _DIST[gkey] = dc
            ci = self.ci
            d = self.static[key] = [dc[ci[t]] for t in range(_N)]
        return d

    def dist(self, kind: int, src: int) -> list[int]:
        """Steps from tile ``src`` to every tile (FAR when unreachable); cached."""
        d = self.dists[kind][src]
        if d is not None:
            return d
        csrc = self.ci[src]
        key = (self.shape, kind, self.cmask, csrc)
        dc = _DIST.get(key)
        if dc is None:
            dc = _bfs(self._cell_neighbours(kind), csrc)
            if len(_DIST) > _CACHE_LIMIT:
                _DIST.clear()
            _DIST[key] = dc
        ci = self.ci
        d = [dc[ci[t]] for t in range(_N)]
        self.dists[kind][src] = d
        return d


def _bfs(nb, src: int) -> list[int]:
    """Steps from cell ``src`` to every cell over the neighbour lists ``nb`` (FAR when unreachable)."""
    dc = [FAR] * _N
    dc[src] = 0
    frontier = [src]
    step = 0
    while frontier:
        step += 1
        nxt = []
        for u in frontier:
            for v in nb[u]:
                if dc[v] == FAR:
                    dc[v] = step
                    nxt.append(v)
        frontier = nxt
    return dc
