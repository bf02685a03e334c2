"""The Desert heuristic's end game with parts still lying: the player turns the whole team needs to take off.

Once every part still to collect has been found and the Launch Pad is known, what is left is a race: each part
must be picked up by some pawn and every pawn must stand on the Launch Pad. ``Sprint`` counts the player turns
(after the current one) until the last pawn gets there, the current pawn ending its turn on a given cell, with the
lying parts shared out among the pawns in the way that ends soonest. Each pawn walks on its own turns, clearing
blocked tiles on its way (the Climber walks over them), and spends an action on each pick-up (and on the
excavation and its last marker where a part lies on a tile not yet excavated); the Climber's lift, the Navigator
and gear are not counted, and the storm is not foreseen.
"""

from __future__ import annotations

from ..tiles import CLIMBER, N_CELLS
from .heuristic_view import INF, View


class Sprint:
    """The team's turns to take off in a view whose end game has parts still lying (see the module docstring)."""

    def __init__(self, v: View) -> None:
        s = v.s
        self.v = v
        self.p = p = s.current
        self.n = n = v.n
        self.apt = s.comp.actions_per_turn
        self.cells = cells = [at for at in s.parts if at >= 0]
        k = len(cells)
        self.full = (1 << k) - 1
        # actions at a part's tile besides entering it: the pick-up, and on a tile not yet excavated its last
        # marker and the excavation
        self.extra = [1 + (0 if s.dug[a] else 1 + min(1, s.sand[a])) for a in cells]
        self.first = [(u - p - 1) % n + 1 for u in range(n)]  # the player turns until each pawn's next one
        self.to = [self._to_parts(u) for u in range(n)]
        self.onward = [self._onward(u) for u in range(n)]
        # the turns the other pawns need to pick up each set of parts and get home (the best sharing out)
        others = [0 if subset == 0 else INF * n for subset in range(self.full + 1)]
        for u in range(n):
            if u == p:
                continue
            own = [self.turns(u, self.cost(u, s.pos[u], subset)) for subset in range(self.full + 1)]
            others = [min(max(others[rest ^ mine], own[mine]) for mine in _subsets(rest))
                      for rest in range(self.full + 1)]
        self.others = others
        self.on = [0] * N_CELLS  # by cell: the bit mask of the lying parts on it
        for j, a in enumerate(cells):
            self.on[a] |= 1 << j
        self._memo = [-1] * ((self.full + 1) * N_CELLS)  # team_turns by the parts picked up and the cell

    def _to_parts(self, u: int) -> list[list[int]]:
        """Pawn u's cost from each cell onto each part's tile (cleared to one marker, as the route costs count)."""
        v, s = self.v, self.v.s
        if s.roles[u] == CLIMBER:
            return [[d + max(0, s.sand[a] - 1) for d in v.distances(CLIMBER, a, INF)[0]] for a in self.cells]
        return [v._route_costs(u, a) for a in self.cells]

    def _onward(self, u: int) -> list[list[int]]:
        """onward[subset][j]: pawn u's cost from part j's tile (picked up) through the other parts of ``subset`` (in
        the best order) onto the Launch Pad."""
        k = len(self.cells)
        to, extra = self.to[u], self.extra
        out = [[INF * 4] * k for _ in range(self.full + 1)]
        for subset in range(1, self.full + 1):
            for j in range(k):
                if not subset >> j & 1:
                    continue
                rest = subset ^ 1 << j
                if rest == 0:
                    out[subset][j] = self.v.pad_cost(u, self.cells[j])
                    continue
                out[subset][j] = min(to[i][self.cells[j]] + extra[i] + out[rest][i] for i in range(k) if rest >> i & 1)
        return out

    def cost(self, u: int, z: int, subset: int) -> int:
        """Pawn u's actions from cell z, picking up the parts of ``subset``, onto the Launch Pad."""
        if subset == 0:
            return self.v.pad_cost(u, z)
        to, onward, extra = self.to[u], self.onward[u][subset], self.extra
        best = INF * 8
        for j in range(len(extra)):
            if subset >> j & 1:
                c = to[j][z] + extra[j] + onward[j]
                if c < best:
                    best = c
        return best

    def turns(self, u: int, cost: int) -> int:
        """The player turns until pawn u, needing ``cost`` actions, stands on the Launch Pad."""
        return 0 if cost <= 0 else self.first[u] + self.n * ((cost - 1) // self.apt)

    def team_turns(self, y: int, picked: int) -> int:
        """Player turns after the current one until take-off, the current pawn ending its turn on y and the parts
        of the bit mask ``picked`` (indices into ``cells``) picked up this turn."""
        key = picked * N_CELLS + y
        known = self._memo[key]
        if known < 0:
            rest = self.full & ~picked
            p, others = self.p, self.others
            known = INF * self.n
            for mine in _subsets(rest):
                t = self.turns(p, self.cost(p, y, mine))
                t = t if t > others[rest ^ mine] else others[rest ^ mine]
                if t < known:
                    known = t
            self._memo[key] = known
        return known


def _subsets(mask: int) -> list[int]:
    """Every subset of a bit mask, itself and 0 included."""
    out = [0]
    sub = mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out
