"""Turn planning for the Desert heuristic: where the current pawn walks and what it does with its actions.

A plan is a sequence of excavations and pick-ups (each on its tile, its sand cleared first, walking there in
between; a blocked tile is cleared from a neighbour and then entered), then single actions at the last tile,
a walk to an end tile and single actions there: sand removed from the tile and its neighbours, and each role's
own work (the Water Carrier's well, the Meteorologist's storm cards, the Navigator's moves of other pawns).
A plan is scored by the value of its work plus the value of ending the turn on its end tile: how near the
next turn's work lies, the risk of dying of thirst before the next turn (sharing water, in a tunnel's shade),
of being buried, and in the end game the steps to the Launch Pad. Only the first action is taken: the next
decision plans again.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from ..actions import EXCAVATE, MOVE, NAVIGATE, NOBODY, PICK_UP, REDUCE_STORM, REMOVE_SAND, TAKE_WATER, Action
from ..engine import AROUND_BITS, AROUND_SELF, ORTH_BITS, ORTH_SELF
from ..tiles import (
    CLIMBER,
    EXPLORER,
    HIDDEN_WATER,
    METEOROLOGIST,
    MIRAGE,
    N_CELLS,
    NAVIGATOR,
    ORTH,
    WATER_CARRIER,
    WELL,
)
from .heuristic_sprint import Sprint
from .heuristic_team import navigations
from .heuristic_view import View, has, rate

# the cells in reach of each cell (itself included), as bit masks: a membership test without a tuple scan
_ORTH_SELF_BITS: Final = tuple(b | 1 << c for c, b in enumerate(ORTH_BITS))
_AROUND_SELF_BITS: Final = tuple(b | 1 << c for c, b in enumerate(AROUND_BITS))


class Work:
    """The work open at one cell for the current pawn standing there, besides sand removal: excavation and
    pick-ups after it (lumps of actions), parts to pick up and the Water Carrier's draws (single actions)."""

    __slots__ = ("own", "own_values", "lumps")

    def __init__(self) -> None:
        self.own: list[tuple[float, Action]] = []
        self.own_values: list[float] = []  # the values of ``own``, once complete
        self.lumps: list[tuple[int, float, list[Action]]] = []  # (actions, value, the actions in order)


_FAR: Final = 1 << 20  # more actions than any turn has
_NO_WORK: Final = Work()  # the work at most cells: none (shared, never changed)


_value: Final = itemgetter(0)  # an item's value (a C function: a compiled key function is called generically)


def _keep_best(top: list[float], values: list[float], m: int) -> None:
    """Add ``values`` to ``top``, the m best values seen (the best first; m >= 1). The m best of the values
    offered are those a full sort would put first, in the same order: their sum comes out the same."""
    for u in values:
        if len(top) == m:
            if u <= top[m - 1]:
                continue
            top.pop()
        i = 0
        while i < len(top) and top[i] >= u:
            i += 1
        top.insert(i, u)


def _path(prev: list[int], x: int, y: int) -> list[int]:
    """The cells of a shortest way from x to y (y last, x left out), from a ``distances`` predecessor list."""
    path = []
    c = y
    while c != x and c >= 0:
        path.append(c)
        c = prev[c]
    path.reverse()
    return path


class Planner:
    """Plans the current player's turn in a view."""

    def __init__(self, view: View) -> None:
        self.v = view
        s = view.s
        self.s = s
        self.p = s.current
        self.role = s.roles[self.p]
        self.rate = rate(self.role)
        self._common = sorted(self._role_items(), key=_value, reverse=True)
        self._common_values = [u for u, _ in self._common]
        self._reach_bits = _AROUND_SELF_BITS if self.role == EXPLORER else _ORTH_SELF_BITS
        self._reach = AROUND_SELF if self.role == EXPLORER else ORTH_SELF
        # remembered for the decision in lists indexed by cell * stride + sand (a cell's sand taken as at most
        # what it holds), or by cell: quicker than a dict
        most = 0
        for sand in s.sand:  # (not max(): compiled, that is a generic Python call)
            most = sand if sand > most else most
        self._stride = most + 1
        keys = N_CELLS * self._stride
        self._sand_vals: list[list[float] | None] = [None] * keys
        self._works: list[Work | None] = [None] * keys
        self._sands: list[list[tuple[float, Action]] | None] = [None] * keys
        self._dists: list[tuple[list[int], list[int]] | None] = [None] * N_CELLS
        self._dist_limits = [-1] * N_CELLS  # the steps each of them searched up to
        # the best plan from (tiles done, cell, actions): (value, the tile of its first lump or -1, the lump's index)
        self._memo: dict[int, tuple[float, int, int]] = {}
        self._finals: dict[int, int] = {}  # the end tile of the best plan's end, by the same key
        # the end game with parts still lying: the whole team's turns to take off are a cost of the plan's end
        self._w_sprint = view.w["w_sprint"]
        endgame = view.endgame and view.pad >= 0 and view.collected < 4
        self._sprint = Sprint(view) if endgame and self._w_sprint else None

    # ------------------------------------------------------------------ work at a cell
    def _role_items(self) -> list[tuple[float, Action]]:
        """Work that does not depend on where the pawn stands: the Meteorologist's and the Navigator's."""
        v, s, p = self.v, self.s, self.p
        items: list[tuple[float, Action]] = []
        if self.role == METEOROLOGIST:
            harm = v.card_harm() * v.w["w_reduce"]
            items += [(harm, (REDUCE_STORM, p))] * max(0, s.storm_cards() - s.skips)
        elif self.role == NAVIGATOR:
            items += navigations(v, p)
        return items

    def work(self, z: int, sand_z: int) -> Work:
        """The work at cell z for the current pawn standing there (z's sand taken as ``sand_z``)."""
        v, s, p = self.v, self.s, self.p
        if s.dug[z]:
            if not has(s.parts, z) and not (self.role == WATER_CARRIER and s.kind[z] == WELL):
                return _NO_WORK
        elif s.kind[z] == MIRAGE:
            return _NO_WORK
        out = Work()
        if s.dug[z]:
            if sand_z < 2:
                for i, at in enumerate(s.parts):
                    if at == z:
                        out.own.append((v.w["v_pick"], (PICK_UP, p, i)))
            if self.role == WATER_CARRIER and s.kind[z] == WELL and (sand_z < 2 or s.climber >= 0):
                out.own.extend(self._well_draws(z))
        elif s.kind[z] != MIRAGE:
            present = [q for q in range(v.n) if s.pos[q] == z]
            if p not in present:
                present.append(p)
            value = v.excavate_value(z, present)
            if value > 0:
                markers = self._sand_items(z, sand_z)
                acts = [a for _, a in markers]
                acts.append((EXCAVATE, p))
                cleared = 0.0  # added as sum() adds them
                for u, _ in markers:
                    cleared += u
                value += cleared
                out.lumps.append((len(acts), value, acts))
                if self.role == NAVIGATOR and self._well_odds(z) and s.sand[z] < 2:
                    out.lumps.extend(self._pulls_onto_well(z, present, markers))
                for i, at in enumerate(s.parts):
                    if at == z:
                        acts = acts + [(PICK_UP, p, i)]
                        value += v.w["v_pick"]
                        out.lumps.append((len(acts), value, acts))
        out.own_values = [u for u, _ in out.own]
        return out

    def _least_lump(self, z: int, sand_z: int) -> int:
        """The fewest actions of a lump of ``work(z, sand_z)``: its sand cleared and the excavation (more than any
        board's actions on an excavated tile, which has none)."""
        return _FAR if self.s.dug[z] else -(-sand_z // self.rate) + 1

    def _pulls_onto_well(
        self, z: int, present: list[int], markers: list[tuple[float, Action]]
    ) -> list[tuple[int, float, list[Action]]]:
        """The Navigator excavating the water tile z first pulls onto it the pawns that would gain from a well's
        water there (a well's 2 water go only to the pawns on it), the most thirsty first: one lump for each
        number of pawns pulled. A pulled pawn's change of place counts ``w_pull_place`` of its value."""
        v, s, p = self.v, self.s, self.p
        place = v.w["w_pull_place"]
        cost = v.w["nav_cost"]
        gains = []
        for q in range(v.n):
            if q in present or s.buried(q) or z not in s.navigator_targets(q):
                continue
            moved = place * (v.place_value(q, z) - v.place_value(q, s.pos[q]))
            gain = v.water_value(q, s.water[q], 2) + moved
            if gain > cost:
                gains.append((gain, moved, q))
        gains.sort(reverse=True)
        on = list(present)
        acts = [a for _, a in markers]
        value = sum(u for u, _ in markers)
        out = []
        for _, moved, q in gains:
            on.append(q)
            acts = acts + [(NAVIGATE, p, q, z, NOBODY)]
            value += moved - cost
            out.append((len(acts) + 1, value + v.excavate_value(z, on), acts + [(EXCAVATE, p)]))
        return out

    def _sand_items(self, c: int, sand: int) -> list[tuple[float, Action]]:
        """Removing the top ``sand`` markers of cell c (the cell holds more if others were cleared already), one
        item an action, the most valuable first."""
        key = c * self._stride + sand
        items = self._sands[key]
        if items is None:
            vals = self.v.sand_value(c)[self.s.sand[c] - sand :] if sand else []
            r, act = self.rate, (REMOVE_SAND, self.p, c)
            items = self._sands[key] = []
            i = 0
            while i < len(vals):  # (not a range with a step: compiled, that is a generic Python call)
                u = 0.0  # the markers one action removes, added as sum() adds them
                for j in range(i, i + r):
                    if j < len(vals):
                        u += vals[j]
                items.append((u, act))
                i += r
        return items

    def _well_draws(self, z: int) -> list[tuple[float, Action]]:
        """The Water Carrier's draws at a well (each up to 2 water, within her canteen), each followed by the
        water she hands to the driest pawns on her tile or next to it; water she keeps counts ``wc_far`` of
        its value to the driest pawn out of her reach (she carries it to them later)."""
        v, s, p = self.v, self.s, self.p
        near = [q for q in range(v.n) if q != p and (s.pos[q] == z or s.pos[q] in ORTH[z])]
        away = [q for q in range(v.n) if q != p and q not in near]
        far = v.w["wc_far"]
        water = s.water[:]
        cap = v.cap[p]
        out = []
        for _ in range(3):
            if water[p] >= cap:
                break
            drawn = min(2, cap - water[p])
            water[p] = water[p] + drawn  # (not +=: compiled, that is a generic Python addition on a list item)
            value = 0.0
            for _ in range(drawn):
                b = min(near, key=lambda q: (water[q] - v.cap[q] >= 0, water[q], q), default=-1)
                if b >= 0 and water[b] < v.cap[b] and water[p] - water[b] >= 2:
                    value += v.water_value(b, water[b], 1)
                    water[b] = water[b] + 1
                    water[p] = water[p] - 1
            # what she keeps: for herself, or for the driest pawn she will meet later
            keep = max([v.water_value(p, water[p] - drawn, drawn)]
                       + [far * v.water_value(q, water[q], drawn) for q in away])  # fmt: skip
            value += keep
            if value <= 0:
                break
            out.append((value, (TAKE_WATER, p)))
        return out

    # ------------------------------------------------------------------ the plan
    def plan(self) -> list[Action]:
        """The actions of the best plan for the actions left (empty: nothing worth doing)."""
        s, p = self.s, self.p
        if s.actions_left <= 0:
            return []
        if s.buried(p):  # the only action: dig itself out
            return [(REMOVE_SAND, p, s.pos[p])]
        return self.take_off() or self.best(s.pos[p], s.actions_left)[1]

    def take_off(self) -> list[Action]:
        """The shortest way to take off this turn, when the current pawn can bring it about (all parts
        collected): walk onto the Launch Pad when the others are there; as the Navigator, also pull the others
        onto it first; as the Climber, also fetch the one pawn still away and carry it there. Else nothing."""
        s, v, p = self.s, self.v, self.p
        pad = v.pad
        if v.collected < 4 or pad < 0:
            return []
        away = [q for q in range(v.n) if q != p and s.pos[q] != pad]
        x, k = s.pos[p], s.actions_left
        if away and self.role == NAVIGATOR:
            if len(away) > k or s.sand[pad] >= 2 or any(s.buried(q) or pad not in s.navigator_targets(q) for q in away):
                return []
            pulls: list[Action] = [(NAVIGATE, p, q, pad, NOBODY) for q in away]
            if x == pad:
                return pulls
            walk = self._onto_pad(k - len(pulls))
            return pulls + walk if walk else []
        if len(away) == 1 and self.role == CLIMBER and s.sand[pad] < 2:
            return self._fetch(away[0])
        return [] if away else self._onto_pad(k)

    def _onto_pad(self, k: int) -> list[Action]:
        """The current pawn's walk onto the Launch Pad within k actions (clearing it to one marker first), or
        nothing."""
        s, pad = self.s, self.v.pad
        x = s.pos[self.p]
        if k <= 0 or x == pad:
            return []
        dist, prev = self._distances(x, k)
        clear = [] if self.role == CLIMBER else self._sand_items(pad, s.sand[pad])[: max(0, s.sand[pad] - 1)]
        if dist[pad] + len(clear) > k:
            return []
        return self._walk(prev, x, pad, [a for _, a in clear])

    def _fetch(self, u: int) -> list[Action]:
        """The Climber walks to pawn u and carries it onto the unblocked Launch Pad within her actions, or
        nothing."""
        s, v, p = self.s, self.v, self.p
        x, y, k = s.pos[p], s.pos[u], s.actions_left
        there, prev = self._distances(x, k)
        back, prev_back = v.distances(CLIMBER, y, k)
        if there[y] + back[v.pad] > k:
            return []
        acts = [(MOVE, p, c, NOBODY) for c in _path(prev, x, y)]
        return acts + [(MOVE, p, c, u) for c in _path(prev_back, y, v.pad)]

    def best(self, x: int, k: int) -> tuple[float, list[Action]]:
        """The value and actions of the best plan of k actions for the current pawn standing on x."""
        return self._search(x, k, 0), self._plan_of(x, k, 0)

    def best_value(self, x: int, k: int) -> float:
        """The value of the best plan of k actions for the current pawn standing on x."""
        return self._search(x, k, 0)

    def _search(self, x: int, k: int, done: int) -> float:
        """The value of the best plan from x with k actions, the tiles of the bit mask ``done`` excavated (or
        picked up) already. Only the values are compared here; ``_plan_of`` lists the best plan's actions."""
        key = done << 9 | x << 4 | k
        known = self._memo.get(key)
        if known is not None:
            return known[0]
        best, first, index = self._final(x, k, done), -1, -1
        if k > 0:  # (no lump without an action)
            dist = self._distances(x, k)[0]
            sand = self.s.sand
            for t in range(N_CELLS):
                d = dist[t]
                if d >= k or done >> t & 1 or d + self._least_lump(t, sand[t]) > k:
                    continue  # (its work is not worked out where no lump fits)
                lumps = self._work_at(t, sand[t]).lumps
                if not lumps:
                    continue
                carried = self._carried_water(x, t) if self.role == CLIMBER and t != x else 0.0
                for i, (cost, value, acts) in enumerate(lumps):
                    if d + cost > k:
                        continue
                    if carried and (EXCAVATE, self.p) in acts:
                        value += carried
                    total = value + self._search(t, k - d - cost, done | 1 << t)
                    if total > best:
                        best, first, index = total, t, i
        self._memo[key] = (best, first, index)
        return best

    def _plan_of(self, x: int, k: int, done: int) -> list[Action]:
        """The actions of the best plan ``_search`` found from (x, k, done)."""
        _, t, i = self._memo[done << 9 | x << 4 | k]
        if t < 0:
            return self._final_plan(x, k, done, self._finals[done << 9 | x << 4 | k])
        cost, _, acts = self._work_at(t, self.s.sand[t]).lumps[i]
        dist, prev = self._distances(x, k)
        return self._walk(prev, x, t, acts) + self._plan_of(t, k - dist[t] - cost, done | 1 << t)

    def _final(self, x: int, k: int, done: int) -> float:
        """The end of a plan: single actions (sand in reach of x before the walk, in reach of y after it, and the
        work that can be done anywhere), a walk to an end tile y. Each marker is counted once. The end tiles are
        compared by their values alone; ``_final_plan`` lists the actions of the best one."""
        sprint = self._sprint
        got = 0  # the lying parts the plan picks up before its end tile (on its excavated tiles, and on x)
        on: list[int] = []
        if sprint is not None:
            for j, a in enumerate(sprint.cells):
                if done >> a & 1 or a == x and k > 0:
                    got |= 1 << j
            on = sprint.on
        if k == 0:  # no action left: the plan ends on x, its value is x's place alone (as the loop below finds)
            total = 0.0 + self._place(x)
            if sprint is not None:
                total -= self._w_sprint * sprint.team_turns(x, got)
            best_value, best_y = (total, x) if total > -1e18 else (-1e18, -1)
            self._finals[done << 9 | x << 4 | k] = best_y
            return best_value
        s = self.s
        dist = self._distances(x, k)[0]
        climb = self.role == CLIMBER
        reach = self._reach
        near_x = reach[x]
        own_x = self._own_values(x, 0 if done >> x & 1 else s.sand[x])
        common = self._common_values
        sand = s.sand
        # the k best single actions open before the walk to any end tile out of reach of x's neighbourhood
        near_x_bits = self._reach_bits[x]
        before = common[:k]
        if k > 0:
            for c in near_x:
                if sand[c] and not done >> c & 1:
                    _keep_best(before, self._sand_values(c, sand[c]), k)
            _keep_best(before, own_x, k)
        best_value, best_y = -1e18, -1
        for y in range(N_CELLS):
            d = dist[y]
            if d > k:
                continue
            sand_y = 0 if done >> y & 1 else sand[y]
            entry_value = 0.0
            if y != x and sand_y >= 2 and not climb:  # clear it to one marker from the cell before, then step in
                cleared = self._sand_items(y, sand_y)[: -(-(sand_y - 1) // self.rate)]
                for u, _ in cleared:
                    entry_value += u
                sand_y = max(0, sand_y - len(cleared) * self.rate)
                d += len(cleared)
                if d > k:
                    continue
            m = k - d
            if m > 0:  # the m most valuable single actions
                in_y = self._reach_bits[y]
                if in_y & near_x_bits:  # the markers in reach of both are counted after the walk
                    best = common[:m]
                    for c in near_x:
                        if not in_y >> c & 1 and sand[c] and not done >> c & 1:
                            _keep_best(best, self._sand_values(c, sand[c]), m)
                    _keep_best(best, own_x, m)
                else:  # the m best of the k best (the same values in the same order)
                    best = before[:m]
                for c in reach[y]:
                    sand_c = sand_y if c == y else 0 if done >> c & 1 else sand[c]
                    if sand_c:
                        _keep_best(best, self._sand_values(c, sand_c), m)
                if y != x:
                    _keep_best(best, self._own_values(y, sand_y), m)
                base = 0.0
                for u in best:
                    base += u
                base += entry_value
            else:
                base = entry_value
            # y's place is worked out in full only where a bound of it makes y the best end tile so far
            if base + self.v.place_bound(self.p, y) > best_value:
                total = base + self._place(y)
                if sprint is not None:
                    ends = got | on[y] if m > 0 and (s.dug[y] or done >> y & 1) else got
                    total -= self._w_sprint * sprint.team_turns(y, ends)
                if total > best_value:
                    best_value, best_y = total, y
        self._finals[done << 9 | x << 4 | k] = best_y
        return best_value

    def _final_plan(self, x: int, k: int, done: int, y: int) -> list[Action]:
        """The actions of the end of a plan (see ``_final``) that ends on y."""
        s = self.s
        dist, prev = self._distances(x, k)
        near_x = self._reach[x]
        own_x = self._work_at(x, 0 if done >> x & 1 else s.sand[x]).own
        d = dist[y]
        sand_y = 0 if done >> y & 1 else s.sand[y]
        enter: list[Action] = []
        if y != x and sand_y >= 2 and self.role != CLIMBER:
            cleared = self._sand_items(y, sand_y)[: -(-(sand_y - 1) // self.rate)]
            enter = [a for _, a in cleared]
            sand_y = max(0, sand_y - len(enter) * self.rate)
            d += len(enter)
        near_y = self._reach[y]
        before = [c for c in near_x if c not in near_y]
        pool = list(self._common)
        for c in before:
            pool.extend(self._sand_items(c, 0 if done >> c & 1 else s.sand[c]))
        for c in near_y:
            pool.extend(self._sand_items(c, sand_y if c == y else 0 if done >> c & 1 else s.sand[c]))
        pool.extend(own_x)
        if y != x:
            pool.extend(self._work_at(y, sand_y).own)
        pool.sort(key=_value, reverse=True)
        chosen = pool[: k - d]
        if y == x:
            return [a for _, a in chosen]
        first = [a for u, a in chosen if a[0] == REMOVE_SAND and a[2] in before or (u, a) in own_x]
        then = [a for u, a in chosen if not (a[0] == REMOVE_SAND and a[2] in before or (u, a) in own_x)]
        return first + self._walk(prev, x, y, enter) + then

    def _sand_values(self, c: int, sand: int) -> list[float]:
        """The values of ``_sand_items(c, sand)`` (the best first)."""
        key = c * self._stride + sand
        vals = self._sand_vals[key]
        if vals is None:
            vals = self._sand_vals[key] = [u for u, _ in self._sand_items(c, sand)]
        return vals

    def _distances(self, x: int, k: int) -> tuple[list[int], list[int]]:
        """The current pawn's steps from x up to k at least, and the previous cell of each (``View.distances``).
        A search up to more steps serves: it finds the same steps and ways up to k, and more than k beyond."""
        found = self._dists[x]
        if found is None or self._dist_limits[x] < k:
            found = self._dists[x] = self.v.distances(self.role, x, k)
            self._dist_limits[x] = k
        return found

    def _place(self, y: int) -> float:
        return self.v.place_value(self.p, y)

    def _own_values(self, z: int, sand_z: int) -> list[float]:
        """``_work_at(z, sand_z).own_values``, without working out the excavation of a tile not yet excavated
        (where there is no other work)."""
        return self._work_at(z, sand_z).own_values if self.s.dug[z] else _NO_WORK.own_values

    def _work_at(self, z: int, sand_z: int) -> Work:
        key = z * self._stride + sand_z
        found = self._works[key]
        if found is None:
            found = self._works[key] = self.work(z, sand_z)
        return found

    def _well_odds(self, y: int) -> float:
        """The chance that excavating cell y gives well water (0 but for a water tile not yet excavated)."""
        k = self.s.kind[y]
        return 1.0 if k == WELL else self.v.p_well if k == HIDDEN_WATER else 0.0

    def _well_ride(self, q: int, y: int) -> float:
        """What pawn q, carried by the Climber onto the water tile y that she excavates, gains from a well's water
        there (``w_carry`` of it; nothing if y is no water tile)."""
        v = self.v
        return v.w["w_carry"] * self._well_odds(y) * v.water_value(q, self.s.water[q], 2)

    def _carried_water(self, x: int, y: int) -> float:
        """What the pawn the Climber would carry from x to the water tile y she excavates gains from its water."""
        if not self._well_odds(y):
            return 0.0
        rider = self._rider(x, y, True)
        return 0.0 if rider == NOBODY else self._well_ride(rider, y)

    def _rider(self, x: int, y: int, excavates: bool = False) -> int:
        """The pawn of x the Climber carries to y: the one that gains most by ending its turn there, and by drinking
        the water of a well she ``excavates`` there (none if no one gains)."""
        v, s = self.v, self.s
        best, rider = 0.0, NOBODY
        for q in range(v.n):
            if q != self.p and s.pos[q] == x:
                gain = v.place_value(q, y) - v.place_value(q, x)
                if excavates:
                    gain += self._well_ride(q, y)
                if gain > best:
                    best, rider = gain, q
        return rider

    def _walk(self, prev: list[int], x: int, y: int, then: list[Action]) -> list[Action]:
        """Walk from x to y, then ``then``; sand removed from a blocked y is removed before stepping in."""
        p = self.p
        path = _path(prev, x, y)
        rider = self._rider(x, y, (EXCAVATE, p) in then) if path and self.role == CLIMBER else NOBODY
        acts: list[Action] = [(MOVE, p, c, rider) for c in path]
        if path and self.s.sand[y] >= 2 and self.role != CLIMBER:
            clear = [a for a in then if a[0] == REMOVE_SAND and a[2] == y]
            rest = [a for a in then if not (a[0] == REMOVE_SAND and a[2] == y)]
            return acts[:-1] + clear + acts[-1:] + rest
        return acts + then
