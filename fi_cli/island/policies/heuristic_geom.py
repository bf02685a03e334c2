"""Movement geometry for the heuristic player: neighbour lists and step distances per way of moving.

Distances only change when a tile sinks, so everything is cached per sunk-mask of one board. Three ways of
moving: ``ORTH`` (most roles), ``AROUND`` (the Explorer, diagonals too) and ``DIVE`` (the Diver: orthogonal
steps plus, in one action, a crossing through sunk spaces; chains of flooded tiles are not modelled).
"""

from __future__ import annotations

from ..engine import GameState
from ..tiles import DIVER, EXPLORER, SUNK

ORTH, AROUND, DIVE = 0, 1, 2
FAR = 12  # stands for "unreachable by walking" in distance sums
_N = 24


def move_kind(role: int) -> int:
    return AROUND if role == EXPLORER else DIVE if role == DIVER else ORTH


class Geometry:
    """Neighbours and BFS distances of one board under one sunk mask (rebuilt when a tile sinks)."""

    __slots__ = ("board", "mask", "neigh", "_dist")

    def __init__(self) -> None:
        self.board = None
        self.mask = -1
        self.neigh: list[list[tuple[int, ...]] | None] = [None, None, None]
        self._dist: dict[tuple[int, int], list[int]] = {}

    def update(self, s: GameState) -> None:
        tiles = s.tiles
        mask = 0
        for t in range(_N):
            if tiles[t] == SUNK:
                mask |= 1 << t
        if s.board is self.board and mask == self.mask:
            return
        self.board = s.board
        self.mask = mask
        self.neigh = [None, None, None]
        self._dist = {}

    def neighbours(self, kind: int) -> list[tuple[int, ...]]:
        nb = self.neigh[kind]
        if nb is None:
            nb = self._build(kind)
            self.neigh[kind] = nb
        return nb

    def _build(self, kind: int) -> list[tuple[int, ...]]:
        board = self.board
        mask = self.mask
        base = board.around if kind == AROUND else board.orth
        out = [tuple(v for v in base[u] if not mask >> v & 1) for u in range(_N)]
        if kind == DIVE:
            dive = board.dive

            def gone(v: int) -> bool:
                return v >= _N or mask >> v & 1

            for u in range(_N):
                if mask >> u & 1:
                    continue
                extra = set(out[u])
                seen = {u}
                stack = [v for v in dive[u] if gone(v)]
                seen.update(stack)
                while stack:
                    w = stack.pop()
                    for v in dive[w]:
                        if v in seen:
                            continue
                        seen.add(v)
                        if gone(v):
                            stack.append(v)
                        elif v != u:
                            extra.add(v)
                out[u] = tuple(sorted(extra))
        return out

    def dist(self, kind: int, src: int) -> list[int]:
        """Steps from ``src`` to every tile (FAR when unreachable); cached."""
        key = (kind, src)
        d = self._dist.get(key)
        if d is not None:
            return d
        nb = self.neighbours(kind)
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
        self._dist[key] = d
        return d
