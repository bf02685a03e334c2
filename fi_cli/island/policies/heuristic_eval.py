"""What the heuristic player knows about a position: tile importance, sinking risk, card plans, goals.

Everything here is computed from public information only: tile states, hands, the flood piles' segments
(which cards are where, never their order), the water level and the captured treasures.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Final

from ..engine import GameState
from ..tiles import (
    DIVER,
    FLOODED,
    FOOLS_LANDING,
    HELICOPTER_LIFT,
    MESSENGER,
    PILOT,
    SUNK,
    TREASURE_TILES,
    WATERS_RISE,
)
from .heuristic_geom import AROUND, FAR, ORTH, Geometry

_N: Final = 24
_TILES: Final = range(_N)
_IS_FLOODED: Final = FLOODED.__eq__
ALL: Final = 0b1111
_ZEROS: Final = [0.0] * _N


def importances(s: GameState, w: dict[str, float]) -> list[float]:
    """How much each tile staying above water matters: Fools' Landing, the tiles of uncaptured treasures
    (the last one standing most, a flooded pair more than one of two), then any other tile."""
    tiles = s.tiles
    imp = [w["w_plain"]] * _N
    for x in range(4):
        if s.captured >> x & 1:
            continue
        a, b = TREASURE_TILES[x]
        twin = w["w_treasure_pair"] if tiles[a] == FLOODED and tiles[b] == FLOODED else w["w_treasure_twin"]
        if tiles[a] != SUNK:
            imp[a] = w["w_treasure_last"] if tiles[b] == SUNK else twin
        if tiles[b] != SUNK:
            imp[b] = w["w_treasure_last"] if tiles[a] == SUNK else twin
    imp[FOOLS_LANDING] = w["w_fools_landing"]
    return imp


def spare(hands: Sequence[Sequence[int]], p: int, x: int, need: int) -> bool:
    """Whether p's cards of treasure x are spare: another player holds the ``need`` cards of a capture of x (and
    will capture it), or p holds more than that (one of them is)."""
    return hands[p][x] > need or any(h[x] >= need for q, h in enumerate(hands) if q != p)


def tile_values(s: GameState, w: dict[str, float], geo: Geometry, imp: list[float]) -> list[float]:
    """How much each tile staying above water matters when it is flooded: its importance ``imp``, plus,
    once a treasure is captured, a weight for each pawn its sinking would cut off from Fools' Landing: that
    pawn would need a Helicopter Lift to get home, and lifts are what endgames are lost for. (Before the
    first capture the way home is far off: weighing it there gained nothing and cost time.)"""
    wp = w["w_cut_pawn"]
    if wp <= 0 or not s.captured:
        return imp
    cut = geo.cutters(ORTH, FOOLS_LANDING)  # the Explorer's diagonals are passed over: rarely the only way
    value = None
    roles = s.roles
    for q, x in enumerate(s.pos):
        if cut[x] and roles[q] != DIVER and roles[q] != PILOT:  # the Diver swims across, the Pilot flies
            if value is None:
                value = imp.copy()
            for t in cut[x]:
                value[t] += wp
    return imp if value is None else value


def _flown(steps: int) -> float:
    """What a distance costs a Pilot, who may fly anywhere once a turn."""
    return steps if steps <= 1 else 1.5 if steps < FAR else 2.0


class Context:
    """Per-decision analysis of a position, shared by all the decision rules."""

    __slots__ = (
        "s", "w", "geo", "imp", "risk", "sv", "flooded", "uncaptured", "team", "collector", "heli",
        "goals", "wants", "endgame", "top", "kinds", "_stranded", "need",
    )  # fmt: skip

    def __init__(self, s: GameState, w: dict[str, float], geo: Geometry) -> None:
        self.s = s
        self.w = w
        self.geo = geo
        self.need = s.comp.capture_cards  # the cards of a capture (four by the rulebook)
        tiles = s.tiles
        captured = s.captured
        self.endgame = captured == ALL
        self.kinds = geo.kinds(s.roles)
        unc = [x for x in range(4) if not captured >> x & 1]
        self.uncaptured = unc
        self.imp = imp = importances(s, w)
        # --- risk of each flooded tile being drawn (and so sinking) soon
        fdeck = s.fdeck
        top = fdeck[-1] if fdeck else s.fdiscard
        self.top = top
        draws = s.comp.flood_draws
        f = draws[min(s.water, len(draws) - 1)]
        risk = [0.0] * _N
        flooded = list(compress(_TILES, map(_IS_FLOODED, tiles)))
        self.flooded = flooded
        if flooded:
            in_top = set(top)
            deeper = set()
            for seg in fdeck[:-1]:
                deeper.update(seg)
            # chance that a Waters Rise! comes in the next two treasure draws
            deck = s.tdeck
            total = sum(deck)
            if total >= 2:
                p_wr = min(1.0, 2.0 * deck[WATERS_RISE] / total)
            else:
                pool = total + sum(s.tdiscard)
                p_wr = min(1.0, 2.0 * (deck[WATERS_RISE] + s.tdiscard[WATERS_RISE]) / pool) if pool else 0.3
            r_top = w["risk_top"] + w["risk_soon"] * min(1.0, f / max(1, len(top)))
            r_deep = w["risk_deep"]
            f2 = draws[min(s.water + 1, len(draws) - 1)]
            r_disc = w["risk_discard"] + w["risk_wr"] * p_wr * (0.5 + min(1.0, f2 / max(1, len(s.fdiscard))))
            for t in flooded:
                risk[t] = r_top if t in in_top else r_deep if t in deeper else r_disc
        self.risk = risk
        sv = [0.0] * _N  # only flooded tiles carry a risk
        if flooded:
            value = tile_values(s, w, geo, imp)
            for t in flooded:
                sv[t] = value[t] * risk[t]
        self.sv = sv
        # --- cards: team counts and who collects each treasure
        hands = s.hands
        n = s.n
        roles = s.roles
        team = [0] * 4
        collector = [-1] * 4
        room = [w["collector_room"] * (5 - sum(h)) for h in hands]
        w_order = w["w_order"]
        order = [(s.current + i) % n for i in range(n)]  # seats in the order they play from now on
        before = [0] * n
        for x in unc:
            held = [h[x] for h in hands]
            team[x] = sum(held)
            if not team[x]:
                continue
            # the cards of the holders who play before q (from the current player on) can reach q by its turn
            k = 0
            for q in order:
                before[q] = k
                k += held[q]
            best = -1.0
            for q in range(n):
                h = held[q]
                if h:
                    score = 2.0 * h + (0.0 if roles[q] == MESSENGER else 1.0) - 0.01 * q
                    score += room[q]
                    if w_order:
                        score += w_order * before[q]
                    if score > best:
                        best = score
                        collector[x] = q
        self.team = team
        self.collector = collector
        self.heli = sum([h[HELICOPTER_LIFT] for h in hands])
        self.goals: list[list[float] | None] = [None] * n  # goal cost tables, made when asked
        self.wants: list[list[tuple[float, tuple[int, ...]]] | None] = [None] * n  # goal lists, likewise
        self._stranded: list[int] | None = None

    # ----------------------------------------------------------------- goals of each pawn
    def goals_of(self, q: int) -> list[tuple[float, tuple[int, ...]]]:
        """(weight per step, source tiles) pairs: the pawn wants to be near one of the sources."""
        g = self.wants[q]
        if g is None:
            g = self.wants[q] = self._goals(q)
        return g

    def _goals(self, q: int) -> list[tuple[float, tuple[int, ...]]]:
        s = self.s
        w = self.w
        if self.endgame:
            mates = self.mates(q)
            if mates:  # cut off from home: gather with the team-mates cut off with it, one lift will carry all
                return [(w["w_end_dist"], (FOOLS_LANDING,)), (w["w_end_dist"], mates)]
            return [(w["w_end_dist"], (FOOLS_LANDING,))]
        goals: list[tuple[float, tuple[int, ...]]] = []
        hands = s.hands
        tiles = s.tiles
        me = s.roles[q] == MESSENGER
        need = self.need
        for x in self.uncaptured:
            h = hands[q][x]
            if not h:
                continue
            c = self.collector[x]
            if h >= need:
                srcs = tuple(t for t in TREASURE_TILES[x] if tiles[t] != SUNK)
                goals.append((w["w_cap_dist"], srcs))
            elif c != q:
                if not me and not spare(hands, q, x, need):  # cards no one needs: no pull to the collector
                    mult = w["meet_full"] if self.team[x] >= need else 1.0
                    goals.append((w["w_meet"] * h * mult, (s.pos[c],)))
            elif self.team[x] >= need - 1 and self.team[x] > h:
                # the collector goes to meet the other holders halfway, and to its treasure once they hold a set
                full = self.team[x] >= need
                mult = w["meet_full"] if full else w["meet_three"]
                others = tuple(
                    s.pos[r] for r in range(s.n) if r != q and hands[r][x] and s.roles[r] != MESSENGER
                )
                if others and mult:
                    goals.append((w["w_meet"] * mult * 0.5 * (self.team[x] - h), others))
                if full:
                    srcs = tuple(t for t in TREASURE_TILES[x] if tiles[t] != SUNK)
                    goals.append((w["w_cap_pull"], srcs))
            elif h == need - 1 and w["w_cap_pre"]:
                # a collector one card short waits near its treasure, to capture as soon as the card comes
                srcs = tuple(t for t in TREASURE_TILES[x] if tiles[t] != SUNK)
                goals.append((w["w_cap_pre"], srcs))
        ncap = 4 - len(self.uncaptured)
        if ncap >= 3:
            goals.append((w["w_late_fl"], (FOOLS_LANDING,)))
        return goals

    def stranded(self) -> list[int]:
        """The pawns that cannot walk (or dive) to Fools' Landing; the Pilot flies there (made when asked)."""
        out = self._stranded
        if out is None:
            s = self.s
            kinds = self.kinds
            dist = self.geo.dist
            out = self._stranded = [
                q for q, x in enumerate(s.pos)
                if x != FOOLS_LANDING and s.roles[q] != PILOT and dist(kinds[q], FOOLS_LANDING)[x] >= FAR
            ]  # fmt: skip
        return out

    def mates(self, q: int) -> tuple[int, ...]:
        """The tiles of the stranded team-mates that stranded pawn q can walk to (none if q is not stranded)."""
        stranded = self.stranded()
        if q not in stranded:
            return ()
        pos = self.s.pos
        d = self.geo.dist(self.kinds[q], pos[q])
        return tuple({pos[r] for r in stranded if pos[r] != pos[q] and d[pos[r]] < FAR})

    def goal_cost(self, q: int, y: int) -> float:
        """goal_costs(q)[y], the same float, without the whole table: steps are symmetric, so the steps
        from y serve when the goal tiles' own steps are not known yet."""
        g = self.goals[q]
        if g is not None:
            return g[y]
        goals = self.goals_of(q)
        if not goals:
            return 0.0
        kind = self.kinds[q]
        known = self.geo.dists[kind]
        d = None
        pilot = self.s.roles[q] == PILOT
        total = 0.0
        for wt, srcs in goals:
            if not srcs:
                b = FAR
            elif all(known[t] is not None for t in srcs):
                b = min([known[t][y] for t in srcs])  # type: ignore[index]  # all known: checked above
            else:
                if d is None:
                    d = self.geo.dist(kind, y)
                b = min([d[t] for t in srcs])
            cost: float = _flown(b) if pilot else b
            total = total + wt * cost
        return total

    def goal_costs(self, q: int) -> list[float]:
        """goal_cost(q, y) for every tile y (cached)."""
        g = self.goals[q]
        if g is not None:
            return g
        geo = self.geo
        kind = self.kinds[q]
        pilot = self.s.roles[q] == PILOT
        goals = self.goals_of(q)
        if not goals:
            total = _ZEROS
            self.goals[q] = total
            return total
        key = (kind, pilot, tuple(goals))
        cached = geo.cache.get(key)  # the same goals give the same costs until a tile sinks
        if cached is not None:
            self.goals[q] = cached
            return cached
        total = [0.0] * _N
        for wt, srcs in goals:
            best: list[int] | None
            if len(srcs) == 1:
                best = geo.dist(kind, srcs[0])
            elif not srcs:
                best = [FAR] * _N
            else:
                best = geo.cache.get((kind, srcs))
                if best is None:
                    best = geo.cache[kind, srcs] = list(map(min, *(geo.dist(kind, src) for src in srcs)))
            steps: Sequence[float] = list(map(_flown, best)) if pilot else best
            total = [a + wt * b for a, b in zip(total, steps, strict=True)]
        geo.cache[key] = total
        self.goals[q] = total
        return total

    def shore_range(self, q: int, y: int) -> tuple[int, ...]:
        """Tiles pawn q could shore up from y (its own tile and the neighbours of its way of moving)."""
        board = self.s.board
        return (y,) + (board.around[y] if self.kinds[q] == AROUND else board.orth[y])
