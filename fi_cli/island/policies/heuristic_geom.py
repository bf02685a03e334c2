"""Movement geometry for the heuristic player: neighbour lists and step distances per way of moving.

Distances only change when a tile sinks, so a game keeps them until the next sinking. Three ways of
moving: ``ORTH`` (most roles), ``AROUND`` (the Explorer, diagonals too) and ``DIVE`` (the Diver: orthogonal
steps plus, in one action, a crossing through sunk spaces; chains of flooded tiles are not modelled).
Neighbours are listed in the layout's cell order, so that ties between equally good steps are broken the
same way whatever tile lies where.
"""

from __future__ import annotations

from typing import Final

from ..board import Board
from ..engine import GameState
from ..tiles import DIVER, EXPLORER

ORTH: Final = 0
AROUND: Final = 1
DIVE: Final = 2
FAR: Final = 12  # stands for "unreachable by walking" in distance sums
_N: Final = 24
_KEEP: Final = 32  # sets of sunk tiles whose tables are kept
_ISLAND: dict[tuple, list[int]] = {}  # (layout cells, kind, cell) -> steps by cell on the whole island
_BY_CELL: dict[tuple, tuple] = {}  # (layout cells, nodes) -> neighbour tables by cell index, in cell order


def move_kind(role: int) -> int:
    return AROUND if role == EXPLORER else DIVE if role == DIVER else ORTH


class Geometry:
    """Neighbours and BFS distances of one game's board under its current sunk tiles."""

    __slots__ = ("board", "sunk", "rank", "base", "neigh", "dists", "cache", "static", "kept", "prev")

    def __init__(self) -> None:
        self.board: Board | None = None
        self.sunk = b""
        self.rank: list[int] = []  # node -> its place in the layout's cell order (open sea last)
        self.base: tuple = ()  # (orth, around, dive) neighbour tables of the whole island
        self.neigh: list[list[tuple[int, ...]] | None] = [None, None, None]
        self.dists: list[list[list[int] | None]] = [[None] * _N for _ in range(3)]
        self.cache: dict = {}  # anything else that only changes when a tile sinks
        self.static: dict = {}  # things of this board that do not depend on sunk tiles
        # sunk tiles -> (neigh, dists, cache) of positions left earlier: the planner's sampled futures of
        # one position all start from its sunk tiles, then part ways
        self.kept: dict[bytes, tuple] = {}
        self.prev: tuple = (b"", [None, None, None])  # the sunk tiles and neighbour lists before the last change

    def update(self, s: GameState) -> None:
        sunk = s.sunk_tiles()
        if s.board is self.board and sunk == self.sunk:
            return
        if s.board is not self.board:
            self._new_board(s)
            self.prev = (b"", [None, None, None])
        else:
            self.prev = (self.sunk, self.neigh)
            if self.sunk:
                if len(self.kept) >= _KEEP:
                    self.kept.clear()
                self.kept[self.sunk] = (self.neigh, self.dists, self.cache)
        self.sunk = sunk
        old = self.kept.pop(sunk, None)
        if old is not None:
            self.neigh, self.dists, self.cache = old
        else:
            self.neigh = [None, None, None]
            self.dists = [[None] * _N for _ in range(3)]
            self.cache = {}

    def _new_board(self, s: GameState) -> None:
        board = s.board
        self.board = board
        self.static = {}
        self.kept = {}
        cells = board.layout.cells
        index = {cell: i for i, cell in enumerate(cells)}
        cell = [index[board.cell_of[t]] for t in range(_N)]
        self.rank = cell + list(range(_N, len(board.dive)))
        # the neighbours of each cell in cell order are the same for every game on this island shape
        key = (cells, len(board.dive))
        by_cell = _BY_CELL.get(key)
        if by_cell is None:
            rank = self.rank.__getitem__
            node_of = {r: t for t, r in enumerate(self.rank)}
            by_cell = _BY_CELL[key] = tuple(
                [tuple(sorted(map(rank, table[node_of[i]]))) for i in range(len(table))]
                for table in (board.orth, board.around, board.dive)
            )  # fmt: skip
        tile_of = [0] * len(board.dive)
        for t, r in enumerate(self.rank):
            tile_of[r] = t
        self.base = tuple(
            [tuple([tile_of[r] for r in table[self.rank[u]]]) for u in range(len(table))] for table in by_cell
        )  # nodes from 24 up are open sea (the Diver's table only)

    def neighbours(self, kind: int) -> list[tuple[int, ...]]:
        """Neighbours by tile index for one way of moving (sunk tiles left out)."""
        nb = self.neigh[kind]
        if nb is not None:
            return nb
        sunk = self.sunk
        orth, around, dive = self.base
        if kind == DIVE:
            nb = list(self.neighbours(ORTH))
        else:
            base = around if kind == AROUND else orth
            old_sunk, old_neigh = self.prev
            old = old_neigh[kind]
            if old is not None and len(old_sunk) == _N and all(a <= b for a, b in zip(old_sunk, sunk, strict=True)):
                # one or two more tiles sank since the last lists: only their neighbours' lists change
                nb = list(old)
                for t in range(_N):
                    if sunk[t] and not old_sunk[t]:
                        for u in base[t]:
                            nb[u] = tuple([v for v in base[u] if not sunk[v]])
            else:
                nb = [tuple([v for v in base[u] if not sunk[v]]) for u in range(_N)] if any(sunk) else list(base)
        some_sunk = any(sunk)
        if kind == DIVE and (some_sunk or len(dive) > _N):  # open sea (variant) is crossed like sunk tiles
            # one crossing reaches every tile on the shore of a connected stretch of sunk tiles (and sea)
            comp: dict[int, int] = {}
            shores: list[set[int]] = []
            for start in range(len(dive)):
                if start in comp or not (start >= _N or sunk[start]):
                    continue
                comp[start] = len(shores)
                shore: set[int] = set()
                stack = [start]
                while stack:
                    for v in dive[stack.pop()]:
                        if v >= _N or sunk[v]:
                            if v not in comp:
                                comp[v] = len(shores)
                                stack.append(v)
                        else:
                            shore.add(v)
                shores.append(shore)
            key = self.rank.__getitem__
            for u in range(_N):
                if sunk[u]:
                    continue
                near = {comp[v] for v in dive[u] if v in comp}
                if near:
                    extra = set(nb[u])
                    for c in near:
                        extra |= shores[c]
                    extra.discard(u)
                    nb[u] = tuple(sorted(extra, key=key))
        self.neigh[kind] = nb
        return nb

    def kinds(self, roles: tuple[int, ...]) -> list[int]:
        """The way of moving of each pawn (kept for the game)."""
        key = ("kinds", roles)  # a bare roles tuple could be mistaken for island_dist's (kind, tile) key
        k = self.static.get(key)
        if k is None:
            k = self.static[key] = [move_kind(r) for r in roles]
        return k

    def island_dist(self, kind: int, src: int) -> list[int]:
        """Steps from ``src`` on the whole island, as if nothing had sunk (computed once per game)."""
        key = (kind, src)
        d = self.static.get(key)
        if d is None:
            rank = self.rank
            cells = self.board.layout.cells  # type: ignore[union-attr]  # set by update
            ckey = (cells, kind, rank[src])  # by cell: the same for every game on this island shape
            dc = _ISLAND.get(ckey)
            if dc is None:
                orth, around, _ = self.base
                dt = _bfs(around if kind == AROUND else orth, src)
                dc = [0] * _N
                for t in range(_N):
                    dc[rank[t]] = dt[t]
                if len(_ISLAND) > 10_000:
                    _ISLAND.clear()
                _ISLAND[ckey] = dc
            d = self.static[key] = [dc[rank[t]] for t in range(_N)]
        return d

    def cutters(self, kind: int, home: int) -> list[tuple[int, ...]]:
        """For each tile, the tiles whose sinking alone would leave it no way to ``home`` (kept until a tile
        sinks): a pawn there would then need a Helicopter Lift to get home."""
        key = ("cutters", kind, home)
        out = self.cache.get(key)
        if out is None:
            out = self.cache[key] = _cutters(self.neighbours(kind), home)
        return out

    def dist(self, kind: int, src: int) -> list[int]:
        """Steps from tile ``src`` to every tile (FAR when unreachable); kept until a tile sinks."""
        d = self.dists[kind][src]
        if d is None:
            if any(self.sunk) or (kind == DIVE and len(self.rank) > _N):
                d = _bfs(self.neighbours(kind), src)
            else:  # nothing sunk (and no open sea to dive across): the whole island's steps, kept by cell
                d = self.island_dist(ORTH if kind == DIVE else kind, src)
            self.dists[kind][src] = d
        return d


def _bfs(nb: list[tuple[int, ...]], src: int) -> list[int]:
    """Steps from tile ``src`` to every tile over the neighbour lists ``nb`` (FAR when unreachable)."""
    d = [FAR] * _N
    d[src] = 0
    frontier = [src]
    step = 0
    while frontier:
        step += 1
        nxt = []
        for u in frontier:
            for v in nb[u]:
                if d[v] == FAR:
                    d[v] = step
                    nxt.append(v)
        frontier = nxt
    return d


def _cutters(nb: list[tuple[int, ...]], root: int) -> list[tuple[int, ...]]:
    """For each tile, the tiles every way from ``root`` to it over ``nb`` goes through (one depth-first
    search: the subtree of a child whose back edges reach no higher than its parent hangs on that parent)."""
    by: list[list[int]] = [[] for _ in range(_N)]
    _visit(nb, root, root, [-1] * _N, [], by)
    return [tuple(b) for b in by]


def _visit(nb: list[tuple[int, ...]], root: int, u: int, disc: list[int], order: list[int], by: list[list[int]]) -> int:
    """One step of ``_cutters``' search from tile u (``disc``: when each tile was found, -1 not yet; ``order``:
    the tiles in the order found, so a subtree is the run found after its top). Its lowest reach is returned. A
    function of the module's, not a closure: a recursive closure is a reference cycle, left to the garbage
    collector on every call."""
    disc[u] = low = len(order)
    order.append(u)
    for v in nb[u]:
        d = disc[v]
        if d < 0:
            lv = _visit(nb, root, v, disc, order, by)
            if lv < low:
                low = lv
            if lv >= disc[u] and u != root:
                for t in order[disc[v] :]:
                    by[t].append(u)
        elif d < low:
            low = d
    return low
