"""What the Desert heuristic reads off the public state at a decision: beliefs about the hidden tiles and the
storm deck, the value of water, of sand markers and of excavating each tile, and distances on the board.

Nothing here looks past the public state: a hidden tile's chances come from the kinds not yet seen, the storm
deck's from the cards not yet drawn (the known top first, as a Meteorologist left it).
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Final

from ..engine import AROUND_SELF, COLLECTED, NOT_FOUND, ORTH_BITS, ORTH_SELF, STORM, GameState
from ..tiles import (
    ARCHEOLOGIST,
    AROUND,
    CLIMBER,
    CRASH_SITE,
    EXPLORER,
    GEAR_TILE,
    HIDDEN,
    HIDDEN_WATER,
    LAUNCH_PAD,
    MIRAGE,
    N_CELLS,
    NO_TILE,
    ORTH,
    PLAIN_KINDS,
    SIZE,
    STORM_PICKS_UP,
    SUN_BEATS_DOWN,
    TILE_COUNTS,
    TUNNEL,
    UPWIND,
    WELL,
    clue_part,
)

INF: Final = 99
_FAR: Final = 10**6  # a route cost beyond any board's
# static distances ignoring sand: orthogonal steps, and king steps for the Explorer
_RC = [divmod(c, SIZE) for c in range(N_CELLS)]
MANHATTAN: Final = tuple(tuple(abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in _RC) for a in _RC)
KING: Final = tuple(tuple(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for b in _RC) for a in _RC)
_CLUES = range(6, 14)


def geo(role: int) -> tuple[tuple[int, ...], ...]:
    return KING if role == EXPLORER else MANHATTAN


def rate(role: int) -> int:
    """Sand markers one removal takes."""
    return 2 if role == ARCHEOLOGIST else 1


def poisson_tail(mean: float, k: int) -> float:
    """P(X >= k) for X ~ Poisson(mean)."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    term = math.exp(-mean)
    cdf = term
    for i in range(1, k):
        term *= mean / i
        cdf += term
    return max(0.0, 1.0 - cdf)


def _fill(level: list[int], room: list[int], pool: int) -> list[int]:
    """``pool`` units handed out one at a time to the lowest ``level`` below its ``room`` (the first on a tie)."""
    if len(level) == 1:
        return [min(room[0], level[0] + pool)]
    out = level[:]
    for _ in range(pool):
        i = -1
        for j in range(len(out)):
            if out[j] < room[j] and (i < 0 or out[j] < out[i]):
                i = j
        if i < 0:
            break
        out[i] = out[i] + 1
    return out


def has(cells: list[int], c: int) -> bool:
    """Whether c is one of ``cells`` (not ``in``: compiled, that compares each as Python objects)."""
    for x in cells:
        if x == c:
            return True
    return False


def _claim(first: list[tuple[int, ...]], c: int, work: int, actions: int, claimed: float) -> float:
    """The share of a task's value left to pawn q: ``claimed`` (``w_claimed``) when a pawn whose turn comes first
    (its steps ``first``, see ``View._first_rows``) can walk to cell c and do the work there on its next turn of
    ``actions`` (it will have done it), else all of it. The work is counted at q's own rate of sand removal."""
    for steps in first:
        if steps[c] + work <= actions:
            return claimed
    return 1.0


def _anyone_else(pos: list[int], q: int, cells: int) -> bool:
    """Whether a pawn other than q stands on a cell of the bit mask ``cells``."""
    for u in range(len(pos)):
        if u != q and cells >> pos[u] & 1:
            return True
    return False


_task_value: Final = itemgetter(0)  # a task's value (a C function: a compiled key function is called generically)


class Place:
    """The value of a pawn's place worked out but for the thirst risk (see ``View.place_value``): the value before
    the risk is taken off and the terms added after it (each 0.0 where it does not apply: adding it changes no
    value)."""

    __slots__ = ("head", "pos", "share", "shade", "bury")

    def __init__(self, head: float, pos: list[int], share: float) -> None:
        self.head = head  # the value before the risk
        self.pos = pos  # the pawns' cells, the pawn on its place
        self.share = share  # then the water shared
        self.shade = 0.0  # then the water saved in the shade
        self.bury = 0.0  # then the risk of being buried

    def tail(self, total: float) -> float:
        """The place's value from ``total``, the value before the risk with the risk taken off (or not)."""
        return total + self.share + self.shade - self.bury


class View:
    """The public facts and values one decision needs (``w``: the policy's weights). What is cheap is read at
    once; what only some decisions need (the odds of the hidden tiles and of the storm deck, the water a pawn
    will need, the meeting well, the ways to the Launch Pad) is worked out the first time it is asked for: a
    storm card's decision often needs none of it."""

    def __init__(self, s: GameState, w: dict[str, float]) -> None:
        self.s, self.w = s, w
        n = s.n
        self.n = n
        canteens = s.comp.canteens
        self.cap = [canteens[r] for r in s.roles]
        self.cpt = s.storm_cards()
        self.dry = 1 if s.rules.thirst_at_zero else 0  # the lowest water a pawn survives a Sun Beats Down at
        self.pad = s.launch_pad()
        self.collected = s.parts.count(COLLECTED)
        kind, dug = s.kind, s.dug
        self.tunnels: list[int] = []
        self._tunnel_bits = 0
        for c in range(N_CELLS):
            if kind[c] == TUNNEL and dug[c]:
                self.tunnels.append(c)
                self._tunnel_bits |= 1 << c
        self._no_tile_bits = -1  # the cells without a tile, a bit mask (worked out when first asked for)
        self.sand_base = w["v_sand"] * (1.0 + w["w_supply"] * max(0.0, 1.0 - s.supply / w["supply_low"]))
        self.wc = s.carrier
        self.endgame = self.collected == 4 or (self.collected + self._parts_in_reach() == 4 and self.pad >= 0)
        self._v_water = w["v_water"]
        self._water_ratio = w["water_ratio"]
        self._well_risk = w["w_well_risk"] * w["w_death"]
        # the weights of a place's value, read with its lists when a place is first asked for (``_start_places``)
        self._step = self._g_next = self._w_meet = self._w_death = self._w_share = self._w_shade = self._w_bury = 0.0
        self._tasks: list[list[tuple[float, int, int]] | None] = [None] * n  # by pawn
        self._ranked: list[list[tuple[float, int, int]] | None] = [None] * n
        self._risks: dict[int, float] = {}
        self._clusters: dict[int, float] = {}
        self._alone: dict[int, float] = {}
        self._places: list[float | None] = []  # by pawn and cell, once started
        self._place_parts: list[Place | None] = []
        self._leashes: list[tuple[int, float] | None] = [None] * n
        self._wells_alone: list[float | None] = [None] * n  # by pawn
        self._pad_costs: dict[int, list[int]] = {}
        self._routes: dict[int, list[int]] = {}
        left = s.storm_left if s.phase == STORM else max(0, self.cpt - s.skips)
        self._before = [left + (q - s.current - 1) % n * self.cpt for q in range(n)]
        # worked out when first asked for
        self._storm_known = False
        self._tiles_known = False
        self._need = -1.0
        self._wells_dug: list[int] | None = None
        self._meet = -2
        self._path: dict[int, int] | None = None
        self.top: list[int] = []
        self._segments: list[tuple[int, float]] = []
        self._p_sun = self._p_up = 0.0
        self._sand_per_card = -1.0
        self._kind_value: list[float] = []
        self._p_well = 0.0

    # ------------------------------------------------------------------ the storm deck
    def _storm(self) -> None:
        """What the coming storm cards hold. The deck is drawn as: its known top (a Meteorologist's look), a
        middle of unknown order, its known bottom, then the discard pile reshuffled (all the cards drawn till
        then: there the deck's own mix). ``_segments`` lists (cards, Sun Beats Down per card) in that order;
        the odds of a card (``p_sun``, ``p_up``, ``sand_per_card``) are those of the whole deck's mix, the
        game's long run."""
        s = self.s
        mid = sum(s.sdeck)
        self.top = s.stop[::-1]  # known top cards, the next first
        segments = [(1, float(c == SUN_BEATS_DOWN)) for c in self.top]
        if mid:
            segments.append((mid, s.sdeck[SUN_BEATS_DOWN] / mid))
        for c in s.sbottom:
            segments.append((1, float(c == SUN_BEATS_DOWN)))
        self._segments = segments
        counts = s.comp.storm_counts
        total = sum(counts)
        self._p_sun = counts[SUN_BEATS_DOWN] / total
        self._p_up = counts[STORM_PICKS_UP] / total
        self._storm_known = True

    @property
    def p_sun(self) -> float:
        if not self._storm_known:
            self._storm()
        return self._p_sun

    @property
    def p_up(self) -> float:
        if not self._storm_known:
            self._storm()
        return self._p_up

    @property
    def sand_per_card(self) -> float:
        """Sand a storm card adds on average: a wind card its strength, cut short by the edge of the board beyond
        the storm (worked out apart from ``_storm``: the water a pawn needs does not ask for it)."""
        if self._sand_per_card < 0:
            counts = self.s.comp.storm_counts
            avail = [self._upwind_tiles(d) for d in range(4)]
            cards = 0
            for c in range(12):
                cards += counts[c] * min(c % 3 + 1, avail[c // 3])
            self._sand_per_card = cards / sum(counts)
        return self._sand_per_card

    def _upwind_tiles(self, d: int) -> int:
        x, k = self.s.storm, 0
        up = UPWIND[d]
        while up[x] >= 0 and k < 3:
            x = up[x]
            k += 1
        return k

    def suns_ahead(self, cards: int) -> float:
        """Expected Sun Beats Down cards among the next ``cards`` storm cards."""
        if not self._storm_known:
            self._storm()
        suns = 0.0
        for k, rate in self._segments:
            if cards <= 0:
                return suns
            take = min(k, cards)
            suns += take * rate
            cards -= take
        return suns + cards * self._p_sun

    def cards_before_turn(self, q: int) -> int:
        """Storm cards drawn before pawn q's next turn starts (from now)."""
        return self._before[q]

    def card_harm(self) -> float:
        """What one storm card costs the team on average: sand, water, the meter."""
        water = 0.0
        for q in range(self.n):
            water += self.water_value(q, self.s.water[q] - 1, 1)
        return self.sand_per_card * self.sand_base + self.p_sun * water + self.p_up * self.w["v_level"]

    # ------------------------------------------------------------------ water
    @property
    def need(self) -> float:
        """Water a pawn in the sun drinks before the game can end: the Sun Beats Down cards among the storm cards
        drawn while the team does the work left (3 actions a tile to excavate and a part to pick up, and the
        way to the Launch Pad)."""
        if self._need < 0:
            s = self.s
            kind, dug = s.kind, s.dug
            tiles = 0
            for c in range(N_CELLS):
                if kind[c] != NO_TILE and not dug[c] and kind[c] != MIRAGE:
                    tiles += 1
            work = 3 * (tiles + 4 - self.collected) + 2 * self.n
            cards = work * max(1, self.cpt) / 4
            self._need = self.w["need_scale"] * self.suns_ahead(round(cards)) + self.dry
        return self._need

    def water_value(self, q: int, w: int, units: int) -> float:
        """Value of ``units`` more water to pawn q holding w: ``v_water`` a unit while it holds less than it will
        drink before the game can end, each unit beyond worth ``water_ratio`` times the one before; nothing
        beyond the canteen."""
        v = self._v_water
        ratio = self._water_ratio
        need = self.need
        total = 0.0
        cap = self.cap[q]
        for i in range(units):
            level = w + i
            if level >= cap:
                break
            if level < need:
                total += v
            else:
                scaled: float = v * ratio ** (level - need + 1)  # (typed: compiled, ** gives a Python object)
                total += scaled
        return total

    def death_risk(self, water: int, cards: int) -> float:
        """Chance a pawn holding ``water`` dies of thirst in the next ``cards`` storm cards (in the sun)."""
        key = water * 1024 + cards
        risk = self._risks.get(key)
        if risk is None:
            risk = self._risks[key] = poisson_tail(self.suns_ahead(cards), water + 1 - self.dry)
        return risk

    # ------------------------------------------------------------------ tiles
    def _tile_odds(self) -> None:
        s, w = self.s, self.w
        kind, dug = s.kind, s.dug
        # (a list item is added to as x[i] = x[i] + 1 here and below: compiled, x[i] += 1 is a generic Python
        # addition)
        seen = [0] * 16  # tiles of each kind on the board (the hidden ones by their look)
        found = [0] * 4  # clues of each part excavated
        for c in range(N_CELLS):
            k = kind[c]
            if k != NO_TILE:
                seen[k] = seen[k] + 1
                if dug[c] and 6 <= k <= 13:
                    found[(k - 6) >> 1] = found[(k - 6) >> 1] + 1
        hidden = seen[HIDDEN]
        gear = w["v_gear"] if sum(s.gdeck) else 0.0
        value = [0.0] * 16
        value[CRASH_SITE] = gear
        value[GEAR_TILE] = gear
        value[TUNNEL] = gear + w["v_tunnel"]
        value[LAUNCH_PAD] = w["v_launch"] if s.rules.launch_pad_needs_excavation else 0.0
        clue, pair = w["v_clue"], w["v_clue_pair"]
        for k in _CLUES:
            part = clue_part(k)
            value[k] = pair if found[part] == 1 and s.parts[part] == NOT_FOUND else clue
        if hidden:
            v = 0.0
            for k in PLAIN_KINDS:
                v += (TILE_COUNTS[k] - seen[k]) * (w["v_launch"] if k == LAUNCH_PAD else value[k])
            value[HIDDEN] = v / hidden + w["v_excavate"]
        if self.collected == 4:  # nothing left to find but the Launch Pad: else only water is worth digging for
            value = [0.0] * 16
            if not seen[LAUNCH_PAD] and hidden:
                value[HIDDEN] = w["v_launch"] + w["v_excavate"]
        self._kind_value = value
        water_hidden = seen[HIDDEN_WATER]
        self._p_well = (TILE_COUNTS[WELL] - seen[WELL]) / water_hidden if water_hidden else 0.0
        self._tiles_known = True

    @property
    def kind_value(self) -> list[float]:
        """The value of excavating a tile of each kind (HIDDEN: the average of what it may be)."""
        if not self._tiles_known:
            self._tile_odds()
        return self._kind_value

    @property
    def p_well(self) -> float:
        """The chance that a water-drop tile not yet excavated is a well."""
        if not self._tiles_known:
            self._tile_odds()
        return self._p_well

    def _parts_in_reach(self) -> int:
        n = 0
        for at in self.s.parts:
            if at >= 0:
                n += 1
        return n

    def excavate_value(self, z: int, present: list[int]) -> float:
        """Value of excavating cell z with the pawns ``present`` on it (water from a well goes to them)."""
        k = self.s.kind[z]
        if k == HIDDEN_WATER:
            return self.p_well * self.well_value(present) + self.w["v_excavate_water"]
        if k == WELL:
            return self.well_value(present)
        if k == MIRAGE:
            return 0.0
        return self.kind_value[k]

    def well_value(self, present: list[int]) -> float:
        """A well gives 2 water to each pawn on it, once: what they gain now. Without a Water Carrier every unit
        a pawn misses (away, or its canteen full) is water the team will lack later; with one nothing is lost,
        she draws the rest later (so a well is not worth digging before someone needs its water)."""
        if len(present) == 1:  # a pawn alone: remembered for the decision (every water tile nobody stands on)
            alone = self._wells_alone[present[0]]
            if alone is None:
                alone = self._wells_alone[present[0]] = self._well_value(present)
            return alone
        return self._well_value(present)

    def _well_value(self, present: list[int]) -> float:
        s = self.s
        gain = 0.0
        safer = self._well_risk
        for q in present:
            gain += self.water_value(q, s.water[q], 2)
            if safer:  # the thirst it no longer risks before its next turn (a plan's end sees the water it had)
                cards, w = self._before[q], s.water[q]
                gain += safer * (self.death_risk(w, cards) - self.death_risk(min(self.cap[q], w + 2), cards))
        if self.wc >= 0:
            return gain
        # units of the well's water nobody drinks now: the absent pawns' and what full canteens cannot hold
        waste = 2 * (self.n - len(present))
        for q in present:
            waste += 2 - min(2, self.cap[q] - s.water[q])
        return gain - self.w["w_well_waste"] * self.w["v_water"] * waste

    @property
    def wells_dug(self) -> list[int]:
        if self._wells_dug is None:
            kind, dug = self.s.kind, self.s.dug
            self._wells_dug = [c for c in range(N_CELLS) if kind[c] == WELL and dug[c]]
        return self._wells_dug

    @property
    def meet(self) -> int:
        """The well the team gathers on to excavate it together (-1: none): a known well not yet excavated, else
        the likeliest water-drop tile, nearest the team. With a Water Carrier and a well dug, she is the spring
        and there is no meeting."""
        if self._meet == -2:
            self._meet = self._meeting()
        return self._meet

    def _meeting(self) -> int:
        s = self.s
        if self.wc >= 0 and self.wells_dug:
            return -1
        kind, dug = s.kind, s.dug
        cells = [c for c in range(N_CELLS) if kind[c] == WELL and not dug[c]]
        if not cells:
            if self.p_well < 0.5:
                return -1
            cells = [c for c in range(N_CELLS) if kind[c] == HIDDEN_WATER]
        best, best_cost = -1, 0
        for c in cells:  # the least total walk of the team (and sand on it), the first cell on a tie
            cost = 2 * s.sand[c]
            for q in range(self.n):
                cost += geo(s.roles[q])[s.pos[q]][c]
            if best < 0 or cost < best_cost:
                best, best_cost = c, cost
        return best

    def _leash_of(self, q: int) -> tuple[int, float]:
        """(the cell pawn q is leashed to, the steps its water allows it from there), (-1, 0) for none: see
        ``leash``."""
        s = self.s
        if self.meet >= 0:
            target, slack = self.meet, 0
        elif self.wc >= 0 and q != self.wc:
            target, slack = s.pos[self.wc], 1
        else:
            return -1, 0.0
        suns_round = self.suns_ahead(self.n * self.cpt)
        if not suns_round:
            return -1, 0.0
        rounds = (s.water[q] + 1 - self.dry) / suns_round
        return target, 4 * max(0.0, rounds - self.w["meet_rounds"]) + slack

    def leash(self, q: int, y: int) -> float:
        """Steps pawn q ending on y would stand beyond what its water allows it from its water: the meeting
        well, or the Water Carrier once she has a well to draw from (next to her is enough); four steps a
        round for each round of water it holds beyond ``meet_rounds``."""
        leash = self._leashes[q]
        if leash is None:
            leash = self._leashes[q] = self._leash_of(q)
        target, allowed = leash
        if target < 0:
            return 0.0
        return max(0.0, geo(self.s.roles[q])[y][target] - allowed)

    @property
    def path_sand(self) -> dict[int, int]:
        """Every part collected: the blocked cells on the cheapest ways of the pawns not yet on the Launch Pad to
        it (a cell costs a step plus the sand to clear down to one marker), with how many pawns need each."""
        if self._path is None:
            self._path = self._path_sand() if self.collected == 4 and self.pad >= 0 else {}
        return self._path

    def _path_sand(self) -> dict[int, int]:
        s = self.s
        out: dict[int, int] = {}
        for q in range(self.n):
            x = s.pos[q]
            if x == self.pad or s.roles[q] == CLIMBER:
                continue
            to_pad = self._route_costs(q, self.pad)
            to_x = self._route_costs(q, x)
            for c in range(N_CELLS):
                # x to c costs what c to x costs, with entering c counted instead of entering x
                if s.sand[c] >= 2 and c != x and to_x[c] - self._enter(x) + self._enter(c) + to_pad[c] == to_pad[x]:
                    out[c] = out.get(c, 0) + 1
        return out

    def _enter(self, c: int) -> int:
        return 1 + max(0, self.s.sand[c] - 1)

    def _route_costs(self, q: int, start: int) -> list[int]:
        """The cost for pawn q to get from each cell to ``start`` (walking, clearing blocked cells on the way;
        the cost of entering ``start`` counted, not that of the cell left). Remembered for the decision by start
        and whether q walks as the Explorer (the same for the others)."""
        s = self.s
        explorer = s.roles[q] == EXPLORER
        key = start << 1 | explorer
        known = self._routes.get(key)
        if known is not None:
            return known
        near = AROUND if explorer else ORTH
        tunnels = self.tunnels
        kind = s.kind
        cost = [_FAR] * N_CELLS
        cost[start] = 0
        # Dijkstra's with a bucket of cells for each cost (costs are small whole numbers): a cell is settled when
        # its bucket comes, and skipped in the buckets of the costs it had before
        buckets: list[list[int]] = [[start]]
        d = 0
        while d < len(buckets):
            for v in buckets[d]:
                if cost[v] != d:
                    continue
                steps = near[v] + tuple(tunnels) if self._tunnel_bits >> v & 1 else near[v]
                e = d + self._enter(v)
                for u in steps:
                    if kind[u] != NO_TILE and e < cost[u]:
                        cost[u] = e
                        while len(buckets) <= e:
                            buckets.append([])
                        buckets[e].append(u)
            d += 1
        self._routes[key] = cost
        return cost

    def pad_cost(self, u: int, x: int) -> int:
        """Pawn u's actions from cell x onto the Launch Pad: its steps, and for all but the Climber the sand
        cleared to one marker from each blocked tile on the way (the pad's own included)."""
        costs = self._pad_costs.get(u)
        if costs is None:
            if self.s.roles[u] == CLIMBER:  # she walks over sand: plain steps, the same both ways
                costs = self.distances(CLIMBER, self.pad, INF)[0]
            else:
                costs = self._route_costs(u, self.pad)
            costs = self._pad_costs[u] = [min(c, INF) for c in costs]
        return costs[x]

    def turns_to_take_off(self, q: int, y: int) -> int:
        """Player turns after the current one until the last pawn reaches the Launch Pad, pawn q ending this turn
        on y and the others where they are (0: every pawn on it). Each pawn walks on its own turns, 4 actions a
        turn (the rulebook's; the components may say otherwise), in seat order after the current pawn; the
        Climber's lift, the Navigator and gear are not counted."""
        s, n = self.s, self.n
        last = 0
        for u in range(n):
            cost = self.pad_cost(u, y if u == q else s.pos[u])
            if cost > 0:
                first = (u - s.current - 1) % n + 1  # u's next turn; the current pawn's is n turns away
                last = max(last, first + n * ((cost - 1) // s.comp.actions_per_turn))
        return last

    def sand_value(self, c: int) -> list[float]:
        """Value of each marker removed from cell c, the first first (freeing a buried pawn comes first)."""
        s, w = self.s, self.w
        k = s.sand[c]
        if not k:
            return []
        base = self.sand_base
        kc = s.kind[c]
        if not s.dug[c] and kc != MIRAGE and (kc != LAUNCH_PAD or self.kind_value[LAUNCH_PAD]):
            base += w["v_sand_target"]
        if c == self.pad:
            base += w["v_sand_pad"] * self.collected
        part_here = has(s.parts, c)
        if part_here:
            base += w["v_sand_part"]
        out = [base] * k
        if k >= 2:
            stuck = 0
            for q in range(self.n):
                if s.pos[q] == c and q != s.current:
                    stuck += 1
            if c == self.pad or part_here or self._tunnel_bits >> c & 1:
                stuck += 1
            if stuck and (s.climber < 0 or s.pos[s.climber] != c):
                extra = w["v_unbury"] * stuck / (k - 1)
                for i in range(k - 1):
                    out[i] = out[i] + extra
            path = self.path_sand
            if c in path:
                for i in range(k - 1):
                    out[i] = out[i] + w["v_sand_path"] * path[c]
        return out

    def reach_cells(self, role: int, z: int) -> tuple[int, ...]:
        return AROUND_SELF[z] if role == EXPLORER else ORTH_SELF[z]

    # ------------------------------------------------------------------ moving
    def distances(self, role: int, x: int, limit: int) -> tuple[list[int], list[int]]:
        """Steps from x for a pawn of ``role`` (up to ``limit``) and the previous cell of each on a shortest
        way. A blocked tile gets a distance (entered once cleared from a neighbour) but is not walked through."""
        s = self.s
        sand = s.sand
        climb = role == CLIMBER
        near = AROUND if role == EXPLORER else ORTH
        jumps = tuple([t for t in self.tunnels if climb or sand[t] < 2])
        jump_bits = 0
        for t in jumps:
            jump_bits |= 1 << t
        if self._no_tile_bits < 0:
            self._no_tile_bits = sum([1 << c for c in range(N_CELLS) if s.kind[c] == NO_TILE])
        dist = [INF] * N_CELLS
        prev = [-1] * N_CELLS
        dist[x] = 0
        seen = self._no_tile_bits | 1 << x  # the cells given a distance, and those without a tile
        frontier = [x]
        d = 0
        while frontier and d < limit:
            d += 1
            nxt = []
            for u in frontier:
                for v in near[u] + jumps if jump_bits >> u & 1 else near[u]:
                    if not seen >> v & 1:
                        seen |= 1 << v
                        dist[v] = d
                        prev[v] = u
                        if climb or sand[v] < 2:
                            nxt.append(v)
            frontier = nxt
        return dist, prev

    def storm_side(self, c: int) -> bool:
        """Whether cell c is next to the storm (its tile is the next to slide and gain sand)."""
        return bool(ORTH_BITS[self.s.storm] >> c & 1)

    # ------------------------------------------------------------------ the value of a pawn's place
    def tasks(self, q: int) -> list[tuple[float, int, int]]:
        """(value, cell, actions spent at the cell) of the work on the board for pawn q: excavations (a well's
        water for q and the pawns already there) and parts to pick up, less what another pawn will have done
        (see ``_claim``)."""
        known = self._tasks[q]
        if known is not None:
            return known
        s, w = self.s, self.w
        r = rate(s.roles[q])
        kind, dug, sand_of, pos, parts = s.kind, s.dug, s.sand, s.pos, s.parts
        values = self.kind_value
        first = self._first_rows(q)
        actions, claimed = s.comp.actions_per_turn, w["w_claimed"]
        v_pick = w["v_pick"]
        part_cells = 0
        for at in parts:
            if at >= 0:
                part_cells |= 1 << at
        out = []
        for c in range(N_CELLS):
            k = kind[c]
            if k == NO_TILE:
                continue
            sand = sand_of[c]
            if not dug[c]:
                if k == HIDDEN_WATER or k == WELL:  # a well's water goes to the pawns on it
                    value = self.excavate_value(c, [u for u in range(self.n) if pos[u] == c or u == q])
                else:
                    value = 0.0 if k == MIRAGE else values[k]
                if value > 0:
                    work = -(-sand // r) + 1
                    out.append((value * _claim(first, c, work, actions, claimed), c, work))
            if not part_cells >> c & 1:
                continue
            for at in parts:
                if at == c:
                    work = (-(-sand // r) + 1) if not dug[c] else -(-max(0, sand - 1) // r)
                    out.append((v_pick * _claim(first, c, work + 1, actions, claimed), c, work + 1))
        out.extend(self._water_tasks(q))
        self._tasks[q] = out
        return out

    def _ranked_tasks(self, q: int) -> list[tuple[float, int, int]]:
        """``tasks(q)``, the most valuable first."""
        out = self._ranked[q]
        if out is None:
            out = self._ranked[q] = sorted(self.tasks(q), key=_task_value, reverse=True)
        return out

    def _first_rows(self, q: int) -> list[tuple[int, ...]]:
        """The steps to each cell of every pawn not buried whose turn comes before pawn q's (fewer storm cards
        before it: every mark draws some), from where it stands."""
        s = self.s
        before = self._before
        return [geo(s.roles[u])[s.pos[u]] for u in range(self.n) if before[u] < before[q] and not s.buried(u)]

    def _water_tasks(self, q: int) -> list[tuple[float, int, int]]:
        """Water the Water Carrier can hand out (next to her is near enough: -1 action): to q from her, or from
        her to each other pawn; and her own refill at a dug well."""
        wc = self.wc
        if wc < 0:
            return []
        s = self.s
        water = s.water
        out = []
        spare = water[wc] - 1 + (2 if has(self.wells_dug, s.pos[wc]) else 0)
        if q != wc:
            give = min(self.cap[q] - water[q], spare)
            if give > 0:
                out.append((self.water_value(q, water[q], give), s.pos[wc], -1))
            return out
        for u in range(self.n):
            give = min(self.cap[u] - water[u], water[wc] - 1)
            if u != wc and give > 0:
                out.append((self.water_value(u, water[u], give), s.pos[u], -1))
        refill = self.water_value(wc, water[wc], self.cap[wc] - water[wc])
        out.extend((refill, c, 1) for c in self.wells_dug)
        return out

    def _start_places(self) -> None:
        """Read what the values of places need (a storm card's decision often needs none of it)."""
        w = self.w
        self._places = [None] * (self.n * N_CELLS)
        self._place_parts = [None] * (self.n * N_CELLS)
        self._step = w["step_cost"]
        self._g_next = w["g_next"]
        self._w_meet = w["w_meet"]
        self._w_death = w["w_death"]
        self._w_share = w["w_share"]
        self._w_shade = w["w_shade"]
        self._w_bury = w["w_bury_risk"]

    def place_value(self, q: int, y: int) -> float:
        """The value of pawn q ending the current turn on cell y (its other pawns where they are)."""
        if not self._places:
            self._start_places()
        key = q * N_CELLS + y
        value = self._places[key]
        if value is None:
            part = self._place_part(q, y)
            value = self._places[key] = part.tail(part.head - self._w_death * self._moved_risk(q, y, part.pos))
        return value

    def place_bound(self, q: int, y: int) -> float:
        """``place_value(q, y)`` or more: the value without the thirst risk (the costliest part to work out, and
        a cost: ``w_death`` is not negative) until the value itself is known."""
        if not self._places:
            self._start_places()
        key = q * N_CELLS + y
        value = self._places[key]
        if value is not None:
            return value
        if self._w_death < 0:
            return self.place_value(q, y)
        part = self._place_part(q, y)
        return part.tail(part.head)

    def _place_part(self, q: int, y: int) -> Place:
        key = q * N_CELLS + y
        part = self._place_parts[key]
        if part is None:
            part = self._place_parts[key] = self._new_place_part(q, y)
        return part

    def _new_place_part(self, q: int, y: int) -> Place:
        s, w = self.s, self.w
        role = s.roles[q]
        g = geo(role)[y]
        step = self._step
        best = 0.0
        for value, c, work in self._ranked_tasks(q):
            if value <= best and step >= 0:  # no task from here on gains more than its value
                break
            u = value - step * max(0, g[c] + work)
            if u > best:
                best = u
        total = self._g_next * best
        total -= self._w_meet * self.leash(q, y)
        pad = self.pad
        if self.endgame and pad >= 0:
            total -= (w["w_gather"] if self.collected < 4 else w["w_home"]) * g[pad]
            if y == pad and self.collected == 4 and all(s.pos[u] == y for u in range(self.n) if u != q):
                total += w["v_win"]  # the team takes off
            if self.collected == 4:  # every turn of waiting for the last pawn is storm cards drawn
                total -= w["w_take_off"] * self.turns_to_take_off(q, y)
        pos = s.pos[:]
        pos[q] = y
        part = Place(total, pos, self._w_share * self.share_gain(q, y))  # (the thirst risk comes between)
        if self.shaded(y, pos):  # the water the shade saves until q's next turn
            saved = self.suns_ahead(self._before[q]) * self.water_value(q, s.water[q] - 1, 1)
            part.shade = self._w_shade * saved
        if s.sand[y] >= 1 and role != CLIMBER and self.storm_side(y):
            part.bury = self._w_bury * s.sand[y]
        return part

    def team_risk(self, pos: list[int]) -> float:
        """The chance (summed over the pawns) that a pawn dies of thirst before the next turn of the first pawn
        it shares water with, the pawns standing on ``pos``: water is shared on a tile, and the Water Carrier
        also hands the water of her tile to the pawns next to it (drawing more on her turn if she stands on a
        well); they cannot hand theirs back. A pawn in a dug tunnel or under a Solar Shield drinks nothing."""
        n, wc = self.n, self.wc
        risk = 0.0
        left = (1 << n) - 1
        if wc >= 0:
            x = pos[wc]
            near = ORTH_BITS[x]
            cl = 0
            for u in range(n):
                if pos[u] == x or near >> pos[u] & 1:
                    cl |= 1 << u
            left &= ~cl
            risk += self._cluster_risk(cl, x, pos)
        for first in range(n):  # the others by tile, in seat order of their first pawn
            if not left >> first & 1:
                continue
            x = pos[first]
            cl = 0
            for u in range(first, n):
                if left >> u & 1 and pos[u] == x:
                    cl |= 1 << u
            left &= ~cl
            risk += self._cluster_risk(cl, x, pos)
        return risk

    def _moved_risk(self, q: int, y: int, pos: list[int]) -> float:
        """``team_risk(pos)``, pawn q having moved to y. A pawn ending its turn alone (nobody else on y, nor within
        the Water Carrier's reach when either is her) is a cluster of its own and leaves the others' clusters
        as they are, summed in the same order: the risk is the same on every such tile with the same shade (and
        for the Water Carrier the same well or none), and is remembered for the decision by these."""
        wc = self.wc
        if q == wc:
            shared = ORTH_BITS[y] | 1 << y
        elif wc >= 0 and (pos[wc] == y or ORTH_BITS[pos[wc]] >> y & 1):
            return self.team_risk(pos)
        else:
            shared = 1 << y
        if _anyone_else(pos, q, shared):
            return self.team_risk(pos)
        key = q << 2 | (2 if q == wc and has(self.wells_dug, y) else 0) | (1 if self.shaded(y, pos) else 0)
        risk = self._alone.get(key)
        if risk is None:
            risk = self._alone[key] = self.team_risk(pos)
        return risk

    def _cluster_risk(self, cl: int, x: int, pos: list[int]) -> float:
        """The thirst risk of the pawns of the bit mask ``cl`` sharing the water of cell x's pawns among them (see
        team_risk). It depends on which of them stand on x, which are in the shade and whether x is the Water
        Carrier's dug well, and is remembered for the decision by these: most clusters stay the same wherever
        one pawn ends its turn, and a pawn alone is the same cluster on every tile in the sun."""
        on_x = shade = 0  # bit masks of pawns
        for u in range(self.n):
            if cl >> u & 1:
                if pos[u] == x:
                    on_x |= 1 << u
                if self.shaded(pos[u], pos):
                    shade |= 1 << u
        well = self.wc >= 0 and bool(cl >> self.wc & 1) and has(self.wells_dug, x)
        key = cl | on_x << 5 | shade << 10 | (1 << 15 if well else 0)
        risk = self._clusters.get(key)
        if risk is None:
            risk = self._clusters[key] = self._new_cluster_risk(cl, on_x, shade, well)
        return risk

    def _new_cluster_risk(self, cl: int, on_x: int, shade: int, well: bool) -> float:
        """See ``_cluster_risk``: ``on_x`` and ``shade`` the bit masks of its pawns on x and in the shade, ``well``
        whether x is the Water Carrier's dug well and she is one of them."""
        if not cl & ~shade:
            return 0.0
        water, cap, before = self.s.water, self.cap, self._before
        pool = int(self.w["wc_refill"]) if well else 0
        cards = -1  # the fewest storm cards before one of them plays
        level: list[int] = []  # the water of the exposed pawns, but those on x, whose water is the pool's
        room: list[int] = []
        for u in range(self.n):
            if cl >> u & 1:
                if on_x >> u & 1:
                    pool += water[u]
                if cards < 0 or before[u] < cards:
                    cards = before[u]
                if not shade >> u & 1:
                    level.append(0 if on_x >> u & 1 else water[u])
                    room.append(cap[u])
        total = 0.0
        for w in _fill(level, room, pool):
            total += self.death_risk(w, cards)
        return total

    def shaded(self, cell: int, pos: list[int] | None = None) -> bool:
        """Whether pawns on the cell are safe from Sun Beats Down: a dug tunnel, or a Solar Shield up there."""
        s = self.s
        if self._tunnel_bits >> cell & 1:
            return True
        if not s.shields:
            return False
        where = pos or s.pos
        for u in range(self.n):
            if s.shields >> u & 1 and where[u] == cell:
                return True
        return False

    def tile_risk(self, x: int) -> float:
        """The chance (summed over the pawns) that a pawn on cell x, sharing water there, dies of thirst before
        the first of them has its next turn, without shade."""
        s = self.s
        group = [q for q in range(self.n) if s.pos[q] == x]
        if not group:
            return 0.0
        total = 0
        for q in group:
            total += s.water[q]
        cards = min([self._before[q] for q in group])
        k = len(group)
        risk = 0.0
        for i in range(k):
            risk += self.death_risk(total // k + (1 if i < total % k else 0), cards)
        return risk

    def share_gain(self, q: int, y: int) -> float:
        """What the water shared with pawn q on y is worth (the team evens water out at once where it can): the
        receivers' gain less the givers' loss."""
        s = self.s
        pos = s.pos
        wc = self.wc
        near = ORTH_BITS[y] | 1 << y
        if q == wc:
            group = [u for u in range(self.n) if u == q or near >> pos[u] & 1]
        else:
            near_wc = wc >= 0 and near >> pos[wc] & 1
            if not near_wc and not _anyone_else(pos, q, 1 << y):  # alone: nothing shared
                return 0.0
            group = [u for u in range(self.n) if u == q or pos[u] == y or (near_wc and u == wc)]
        if len(group) < 2:
            return 0.0
        water = s.water[:]
        cap = self.cap
        gain = 0.0
        for _ in range(8):  # the balancing rule of the free actions: the fullest gives to the driest
            a = b = group[0]
            for u in group:  # the fullest (the first on a tie) and the driest (the first on a tie)
                if water[u] > water[a]:
                    a = u
                if water[u] < water[b]:
                    b = u
            if water[a] - water[b] < 2 or water[b] >= cap[b] or water[a] <= self.dry:
                break
            gain += self.water_value(b, water[b], 1) - self.water_value(a, water[a] - 1, 1)
            water[a] = water[a] - 1
            water[b] = water[b] + 1
        return gain
