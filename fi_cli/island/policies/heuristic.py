"""The ``heuristic`` player: fast, hand-crafted cooperative play for the whole game.

At each action of a turn it plans the rest of the current player's turn: every tile the pawn can reach
with the actions left (walking, the Explorer's diagonals, the Diver's crossings, the Pilot's flight),
then the best use of the remaining actions there (capture, shore-ups, card gifts), scored with a small
evaluation: shore-up value = importance of the tile x risk it sinks soon (read from the public flood
piles), plus how near each pawn is to what it wants (a capture tile when it holds four cards, the
team-mate who collects a treasure when it holds one of its cards, Fools' Landing in the endgame). Special
cards are played by rules: Helicopter Lift to lift off, to gather on Fools' Landing, to bring a card holder
to its treasure, to rescue a swimmer when swimming would be bad; Sandbags when an important flooded tile is
likely to be drawn in the current flood step, or instead of a useful discard.

Every weight is a constructor keyword (and so settable from a study YAML); ``PARAMETERS`` lists them.
The policy reads public information only and has no randomness: the same position gives the same choice.
"""

from __future__ import annotations

from ..actions import (
    CAPTURE,
    DISCARD,
    DRAW_FLOOD,
    END_ACTIONS,
    FLY,
    GIVE,
    HELI_PLAY,
    LIFT_OFF,
    MOVE,
    NAVIGATE,
    NO_TILE,
    SANDBAGS_PLAY,
    SHORE_UP,
    SWIM,
    Action,
)
from ..engine import ACTIONS, DISCARD_PHASE, FLOOD, SWIM_PHASE, GameState
from ..tiles import (
    ENGINEER,
    FLOODED,
    FOOLS_LANDING,
    HAND_LIMIT,
    HELICOPTER_LIFT,
    MESSENGER,
    NAVIGATOR,
    PILOT,
    SANDBAGS,
    SUNK,
    TREASURE_TILES,
)
from .heuristic_eval import Context
from .heuristic_geom import FAR, ORTH, Geometry

_N = 24

# name -> (default, one-line description)
_SPEC: dict[str, tuple[float, str]] = {
    "w_fools_landing": (9.0, "importance of keeping Fools' Landing dry"),
    "w_treasure_last": (9.0, "importance of the last standing tile of an uncaptured treasure"),
    "w_treasure_twin": (3.0, "importance of a tile of an uncaptured treasure whose twin still stands"),
    "w_plain": (1.0, "importance of any other tile"),
    "risk_top": (1.0, "risk factor of a flooded tile whose flood card is in the top segment of the draw pile"),
    "risk_soon": (1.0, "extra risk in proportion to the share of that segment drawn next flood step"),
    "risk_deep": (0.7, "risk factor of a flooded tile whose card is deeper in the draw pile"),
    "risk_discard": (0.3, "risk factor of a flooded tile whose card is in the flood discard pile"),
    "risk_wr": (0.6, "extra discard-pile risk times the chance of a Waters Rise! in the next two draws"),
    "w_capture": (100.0, "value of capturing a treasure"),
    "w_cap_dist": (4.0, "cost per step between a holder of four cards and its treasure's tiles"),
    "w_cap_pull": (0.3, "cost per step between the collector of a complete set and its treasure's tiles"),
    "w_meet": (0.8, "cost per step per card between a card holder and the team-mate collecting that treasure"),
    "meet_full": (1.8, "multiplier of w_meet when the team holds four or more cards of the treasure"),
    "w_end_dist": (4.0, "cost per step to Fools' Landing once all four treasures are captured"),
    "w_late_fl": (0.4, "cost per step to Fools' Landing once three treasures are captured"),
    "w_give": (1.5, "value of giving a card to the collector of its treasure (grows with their count)"),
    "w_give_complete": (12.0, "value of the gift that completes a set of four"),
    "w_overflow": (3.0, "cost of a gift that forces the receiver to discard a useful card"),
    "w_near": (0.25, "value of ending the turn next to a flooded tile (times its shore-up value)"),
    "w_guard": (0.15, "cost per step between an important flooded tile and the nearest pawn (times its value)"),
    "w_position": (0.02, "cost per step between the pawn and each important tile (times its importance)"),
    "heli_shore_min": (6.0, "shore-up value of a flooded tile that justifies flying a pawn to it"),
    "heli_shore_cost": (5.0, "cost of spending a Helicopter Lift to fly the current player somewhere"),
    "heli_last_cost": (10.0, "extra cost of spending the team's last Helicopter Lift when one treasure is left"),
    "sandbag_threshold": (2.0, "play Sandbags in a flood step when importance x draw chance reaches this"),
    "heli_capture": (1.0, "1: fly a holder of four cards to its treasure when it cannot walk there this turn"),
    "heli_meet": (1.0, "1: fly a card holder to the collector when its gifts complete a set this turn"),
    "heli_rescue_cost": (6.0, "cost of spending a Helicopter Lift to rescue a swimmer instead of swimming"),
    "w_swim_flooded": (1.0, "cost of swimming to a flooded tile (times its risk)"),
    "keep_heli": (8.0, "keep-value of the team's only Helicopter Lift card when over the hand limit"),
    "keep_heli_extra": (3.0, "keep-value of a Helicopter Lift card when the team holds another one"),
    "keep_team": (1.0, "keep-value per card of the same treasure held by the team (up to four)"),
    "keep_set": (4.0, "extra keep-value of a card of a treasure the team holds exactly four cards of"),
    "w_play_sandbags": (1.0, "weight of the best shore-up value when playing Sandbags instead of discarding"),
    "heli_move_min": (5.0, "goal gain that justifies a spare Helicopter Lift move during a turn"),
    "keep_sandbags": (4.5, "keep-value of a Sandbags card when over the hand limit"),
    "keep_base": (2.0, "keep-value of any card of an uncaptured treasure"),
    "keep_own": (1.0, "keep-value per card of the same treasure in the hand"),
    "keep_collector": (1.5, "extra keep-value when the player collects that treasure"),
    "keep_scarce": (3.0, "extra keep-value when fewer than five cards of the treasure are left outside the discard"),
}

DEFAULTS: dict[str, float] = {k: v[0] for k, v in _SPEC.items()}


class HeuristicPolicy:
    """Hand-crafted turn planner with weights as parameters; see the module docstring."""

    name = "heuristic"
    PARAMETERS: dict[str, str] = {k: f"{v[1]} (default {v[0]:g})" for k, v in _SPEC.items()}

    def __init__(self, **weights: float) -> None:
        w = dict(DEFAULTS)
        for k, v in weights.items():
            if k not in w:
                raise ValueError(f"unknown parameter {k!r}; parameters are: {', '.join(w)}")
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise ValueError(f"parameter {k!r} must be a number, got {v!r}")
            w[k] = float(v)
        self.w = w
        self.geo = Geometry()

    def reset(self, seed: int) -> None:
        self.geo = Geometry()

    # ----------------------------------------------------------------- dispatch
    def choose(self, state: GameState, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if state.captured == 0b1111 and all(x == FOOLS_LANDING for x in state.pos):
            for a in legal:
                if a[0] == LIFT_OFF:
                    return a
        ph = state.phase
        if ph == FLOOD:
            return self._flood(state, legal)
        if ph == ACTIONS and state.actions_left == 0 and state.captured != 0b1111:
            return (END_ACTIONS, state.current)
        self.geo.update(state)
        ctx = Context(state, self.w, self.geo)
        if ph == ACTIONS:
            return self._actions(ctx, legal)
        if ph == DISCARD_PHASE:
            return self._discard(ctx, legal)
        if ph == SWIM_PHASE:
            return self._swim(ctx, legal)
        return legal[0]

    # ----------------------------------------------------------------- flood step: Sandbags
    def _flood(self, s: GameState, legal: list[Action]) -> Action:
        holder = -1
        for q in range(s.n):
            if s.hands[q][SANDBAGS]:
                holder = q
                break
        if holder < 0:
            return (DRAW_FLOOD,)
        tiles = s.tiles
        w = self.w
        chance = _draw_chances(s)
        best, best_t = 0.0, -1
        for t, p in chance.items():
            if tiles[t] != FLOODED or p <= 0.0:
                continue
            v = _importance(s, t, w) * p
            if v > best:
                best, best_t = v, t
        if best_t >= 0 and best >= w["sandbag_threshold"]:
            a = (SANDBAGS_PLAY, holder, best_t)
            if a in legal:
                return a
        return (DRAW_FLOOD,)

    # ----------------------------------------------------------------- actions phase
    def _actions(self, ctx: Context, legal: list[Action]) -> Action:
        s = ctx.s
        if ctx.heli:
            a = self._heli_in_turn(ctx, legal)
            if a is not None:
                return a
        if s.actions_left == 0:
            return (END_ACTIONS, s.current)
        return self._plan(ctx, legal)

    def _heli_in_turn(self, ctx: Context, legal: list[Action]) -> Action | None:
        s = ctx.s
        w = self.w
        pos = s.pos
        if ctx.endgame:
            if ctx.heli < 2:
                return None
            groups: dict[int, int] = {}
            for q, x in enumerate(pos):
                if x != FOOLS_LANDING:
                    groups[x] = groups.get(x, 0) | 1 << q
            if not groups:
                return None
            d = self.geo.dist(ORTH, FOOLS_LANDING)
            src = max(groups, key=lambda t: (d[t], -t))
            return _find_heli(legal, groups[src], FOOLS_LANDING)
        p = s.current
        k = s.actions_left
        if k == 0:
            return None
        x = pos[p]
        hand = s.hands[p]
        kind = ctx.kinds[p]
        flight = s.roles[p] == PILOT and not s.flight_used
        if w["heli_capture"] > 0 and not flight:
            for tr in ctx.uncaptured:
                if hand[tr] >= 4:
                    alive = [t for t in TREASURE_TILES[tr] if s.tiles[t] != SUNK]
                    if not alive or x in alive:
                        continue
                    if min(self.geo.dist(kind, t)[x] for t in alive) <= k - 1:
                        continue
                    target = max(alive, key=lambda t: (ctx.sv[t], -t))
                    a = _find_heli(legal, 1 << p, target)
                    if a is not None:
                        return a
        if w["heli_meet"] > 0 and not flight and s.roles[p] != MESSENGER:
            for tr in ctx.uncaptured:
                c = ctx.collector[tr]
                if c < 0 or c == p or not hand[tr]:
                    continue
                need = 4 - s.hands[c][tr]
                if need > hand[tr] or need > k - 1 or need <= 0:
                    continue
                if self.geo.dist(kind, pos[c])[x] <= k - need:
                    continue
                if sum(s.hands[c]) + need > HAND_LIMIT + _junk(ctx, c):
                    continue
                a = _find_heli(legal, 1 << p, pos[c])
                if a is not None:
                    return a
        if k == 3:
            spare = ctx.heli - (1 if len(ctx.uncaptured) <= 1 else 0)
            if spare >= 1:
                best_g, best_a = w["heli_move_min"], None
                for a in legal:
                    if a[0] == HELI_PLAY:
                        g = self._heli_gain(ctx, a)
                        if g > best_g:
                            best_g, best_a = g, a
                if best_a is not None:
                    return best_a
        return None

    def _plan(self, ctx: Context, legal: list[Action]) -> Action:
        s = ctx.s
        w = self.w
        p = s.current
        k = s.actions_left
        pos = s.pos
        x = pos[p]
        role = s.roles[p]
        tiles = s.tiles
        geo = self.geo
        kind = ctx.kinds[p]
        own = _own_prefix(legal)
        flown: set[int] = set()
        reach = self._reach(ctx, p, x, k)
        if role == PILOT and not s.flight_used:
            for t in range(_N):
                if tiles[t] != SUNK and t != x and reach.get(t, 99) > 1:
                    reach[t] = 1
                    flown.add(t)
        sv = ctx.sv
        messenger = role == MESSENGER
        gifts = self._gifts(ctx, p)
        guards = self._guards(ctx, p)
        val, y, d, opts = self._best_plan(ctx, p, x, k, reach, gifts, guards)
        # a Helicopter Lift to an important flooded tile out of reach this turn
        if ctx.heli and not ctx.endgame and not flown:
            hcost = w["heli_shore_cost"] + (w["heli_last_cost"] if ctx.heli < 2 and len(ctx.uncaptured) <= 1 else 0.0)
            for t in ctx.flooded:
                if sv[t] < w["heli_shore_min"] or t in reach:
                    continue
                if any(u in reach for u in ctx.shore_range(p, t)):
                    continue
                r2 = self._reach(ctx, p, t, k)
                v2 = self._best_plan(ctx, p, t, k, r2, gifts, guards)[0] - hcost
                if v2 > val:
                    a = _find_heli(legal, 1 << p, t)
                    if a is not None:
                        return a
        range_x = ctx.shore_range(p, x)
        # the Navigator may do more good moving someone else
        if role == NAVIGATOR:
            used = d + len(opts)
            base = -ctx.goal_cost(p, x)
            per = (val - base) / used if used else 0.0
            nav_best, nav_a = max(per, 0.3), None
            for a in own:
                if a[0] == NAVIGATE:
                    q = a[2]
                    g = ctx.goal_cost(q, pos[q]) - ctx.goal_cost(q, a[3])
                    if g > nav_best:
                        nav_best, nav_a = g, a
            if nav_a is not None:
                return nav_a
        # first the things that can only (or also) be done here, best first
        here = []
        for o in opts:
            kind_o = o[1]
            if kind_o == 2:
                if y == x:
                    here.append(o)
            elif kind_o == 1:
                if messenger or pos[o[2][0]] == x:
                    here.append(o)
            elif any(t in range_x for t in o[2]):
                here.append(o)
        if here and (y == x or len(here) > 0):
            here.sort(key=_first, reverse=True)
            o = here[0]
            if o[1] == 2:
                a = (CAPTURE, p, o[2])
                if a in legal:
                    return a
            elif o[1] == 1:
                a = (GIVE, p, o[2][0], o[2][1])
                if a in legal:
                    return a
            else:
                a = _best_shore(own, sv, p)
                if a is not None:
                    return a
        if y != x:
            if y in flown:
                a = (FLY, p, y)
                if a in legal:
                    return a
            dy = geo.dist(kind, y)
            gc = ctx.goal_costs(p)
            best_m, best_key = None, None
            for a in own:
                if a[0] == MOVE or (a[0] == FLY and y in flown):
                    z = a[2]
                    key = (dy[z], gc[z], z)
                    if best_key is None or key < best_key:
                        best_m, best_key = a, key
            if best_m is not None and best_key[0] < dy[x]:
                return best_m
        return (END_ACTIONS, p)

    def _reach(self, ctx: Context, p: int, x: int, k: int) -> dict[int, int]:
        """Tiles pawn p reaches from x with k actions of moving -> steps."""
        nb = self.geo.neighbours(ctx.kinds[p])
        reach = {x: 0}
        frontier = [x]
        for step in range(1, k + 1):
            nxt = []
            for u in frontier:
                for v in nb[u]:
                    if v not in reach:
                        reach[v] = step
                        nxt.append(v)
            frontier = nxt
        return reach

    def _position_costs(self, ctx: Context, p: int) -> list[float]:
        """Goal costs of p plus a pull towards the tiles that matter (Fools' Landing, treasure tiles)."""
        gc = ctx.goal_costs(p)
        wp = self.w["w_position"]
        if wp <= 0:
            return gc
        s = ctx.s
        geo = self.geo
        kind = ctx.kinds[p]
        imp = ctx.imp
        plain = self.w["w_plain"]
        out = gc[:]
        for t in range(_N):
            if imp[t] > plain and s.tiles[t] != SUNK:
                d = geo.dist(kind, t)
                wt = wp * imp[t]
                out = [a + wt * (b if b < 4 else 4) for a, b in zip(out, d, strict=True)]
        return out

    def _gifts(self, ctx: Context, p: int) -> list[tuple[int, int, list[float]]]:
        """(receiver, treasure, values of successive cards) for the cards p could usefully give."""
        s = ctx.s
        w = self.w
        hand = s.hands[p]
        gifts = []
        for tr in ctx.uncaptured:
            h = hand[tr]
            c = ctx.collector[tr]
            if not h or c == p or c < 0:
                continue
            b = s.hands[c][tr]
            room = HAND_LIMIT + _junk(ctx, c) - sum(s.hands[c])
            vals = []
            for i in range(h):
                if b + i + 1 >= 4:
                    v = w["w_give_complete"] if b + i + 1 == 4 else 0.0
                else:
                    v = w["w_give"] * (1.0 + 0.5 * (b + i))
                if i >= room:
                    v -= w["w_overflow"]
                if v <= 0:
                    break
                vals.append(v)
            if vals:
                gifts.append((c, tr, vals))
        return gifts

    def _guards(self, ctx: Context, p: int) -> list[tuple[float, list[int], int, int]]:
        """Important flooded tiles: (weight, steps from the tile for p, steps of the nearest other pawn, tile)."""
        w = self.w
        wg = w["w_guard"]
        if wg <= 0:
            return []
        s = ctx.s
        geo = self.geo
        out = []
        for t in ctx.flooded:
            other = 3
            for q in range(s.n):
                if q != p:
                    dq = geo.dist(ctx.kinds[q], t)[s.pos[q]] - 1
                    if dq < other:
                        other = max(0, dq)
            if other == 0:
                continue
            out.append((wg * ctx.sv[t], geo.dist(ctx.kinds[p], t), other, t))
        return out

    def _best_plan(self, ctx, p, x, k, reach, gifts, guards):
        """The best (value, end tile, steps, chosen options) of p's turn from x with k actions."""
        s = ctx.s
        w = self.w
        tiles = s.tiles
        pos = s.pos
        sv = ctx.sv
        hand = s.hands[p]
        engineer = s.roles[p] == ENGINEER
        messenger = s.roles[p] == MESSENGER
        cap_tiles = {}
        for tr in ctx.uncaptured:
            if hand[tr] >= 4:
                for t in TREASURE_TILES[tr]:
                    if tiles[t] != SUNK:
                        cap_tiles[t] = tr
        fl_x = [t for t in ctx.shore_range(p, x) if tiles[t] == FLOODED]
        gc = self._position_costs(ctx, p)
        w_near = w["w_near"]
        best = None
        for y, d in reach.items():
            r = k - d
            opts: list[tuple[float, int, object]] = []
            if r > 0:
                if y == x:
                    fl = fl_x
                else:
                    fl = fl_x + [t for t in ctx.shore_range(p, y) if tiles[t] == FLOODED and t not in fl_x]
                if fl:
                    vs = sorted(((sv[t], t) for t in fl), reverse=True)
                    if engineer:
                        for i in range(0, len(vs), 2):
                            pair = vs[i : i + 2]
                            opts.append((sum(v for v, _ in pair), 0, tuple(t for _, t in pair)))
                    else:
                        opts.extend((v, 0, (t,)) for v, t in vs)
                for c, tr, vals in gifts:
                    if messenger or pos[c] == y:
                        opts.extend((v, 1, (c, tr)) for v in vals)
                tr = cap_tiles.get(y, -1)
                if tr >= 0:
                    opts.append((w["w_capture"], 2, tr))
                if len(opts) > r:
                    opts.sort(key=_first, reverse=True)
                    opts = opts[:r]
            val = sum(o[0] for o in opts) - gc[y] - 0.01 * d
            done = [t for o in opts if o[1] == 0 for t in o[2]]
            near = 0.0
            for t in ctx.shore_range(p, y):
                if tiles[t] == FLOODED and t not in done and sv[t] > near:
                    near = sv[t]
            val += w_near * near
            for wt, dt, other, t in guards:
                if t in done:
                    continue
                dy = dt[y] - 1
                val -= wt * min(dy if dy > 0 else 0, other)
            if best is None or val > best[0] + 1e-9:
                best = (val, y, d, opts)
        return best

    # ----------------------------------------------------------------- over the hand limit
    def _discard(self, ctx: Context, legal: list[Action]) -> Action:
        s = ctx.s
        w = self.w
        p = s.discarder
        best_cost, best_a = None, None
        flooded_best = max((ctx.sv[t] for t in ctx.flooded), default=0.0)
        heli_gain, heli_a = None, None
        for a in legal:
            if a[0] == DISCARD:
                cost = self._keep_value(ctx, p, a[2])
            elif a[0] == SANDBAGS_PLAY:
                if ctx.sv[a[2]] < flooded_best:
                    continue
                cost = self._keep_value(ctx, p, SANDBAGS) - w["w_play_sandbags"] * flooded_best
            elif a[0] == HELI_PLAY:
                g = self._heli_gain(ctx, a)
                if heli_gain is None or g > heli_gain:
                    heli_gain, heli_a = g, a
                continue
            else:
                continue
            if best_cost is None or cost < best_cost:
                best_cost, best_a = cost, a
        if heli_a is not None:
            cost = self._keep_value(ctx, p, HELICOPTER_LIFT) - heli_gain
            if best_cost is None or cost < best_cost:
                best_cost, best_a = cost, heli_a
        return best_a if best_a is not None else legal[0]

    def _heli_gain(self, ctx: Context, a: Action) -> float:
        """How much a Helicopter Lift move brings the lifted pawns nearer to what they want."""
        mask, t = a[2], a[3]
        pos = ctx.s.pos
        g = 0.0
        for q in range(ctx.s.n):
            if mask >> q & 1:
                gc = ctx.goal_costs(q)
                g += gc[pos[q]] - gc[t]
        return g

    def _keep_value(self, ctx: Context, p: int, c: int) -> float:
        w = self.w
        s = ctx.s
        if c == HELICOPTER_LIFT:
            if ctx.endgame and ctx.heli < 2:
                return 100.0
            return w["keep_heli"] if ctx.heli < 2 else w["keep_heli_extra"]
        if c == SANDBAGS:
            return w["keep_sandbags"]
        if s.captured >> c & 1:
            return 0.0
        team = ctx.team[c]
        v = w["keep_base"] + w["keep_own"] * s.hands[p][c] + w["keep_team"] * min(team, 4)
        if team >= 4:
            v += w["keep_set"] if team == 4 else -w["keep_team"] * (team - 4)
        if ctx.collector[c] == p:
            v += w["keep_collector"]
        if team + s.tdeck[c] <= 4:
            v += w["keep_scarce"]
        return v

    # ----------------------------------------------------------------- swimming
    def _swim(self, ctx: Context, legal: list[Action]) -> Action:
        s = ctx.s
        w = self.w
        q = s.swimmers[0]
        tiles = s.tiles
        best_v, best_a = None, None
        for a in legal:
            if a[0] == SWIM:
                t = a[2]
                v = -ctx.goal_cost(q, t)
                if tiles[t] == FLOODED:
                    v -= w["w_swim_flooded"] * ctx.risk[t]
                if best_v is None or v > best_v:
                    best_v, best_a = v, a
        # a Helicopter Lift rescue of everyone on the sinking tile
        group = 0
        for r, x in enumerate(s.pos):
            if x == s.sinking:
                group |= 1 << r
        cost = w["heli_rescue_cost"] + (100.0 if ctx.endgame and ctx.heli < 2 else 0.0)
        for a in legal:
            if a[0] == HELI_PLAY and a[2] == group:
                t = a[3]
                v = -sum(ctx.goal_cost(r, t) for r in range(s.n) if group >> r & 1) - cost
                if tiles[t] == FLOODED:
                    v -= w["w_swim_flooded"] * ctx.risk[t]
                if best_v is None or v > best_v:
                    best_v, best_a = v, a
        return best_a if best_a is not None else legal[0]


# --------------------------------------------------------------------- helpers
def _first(o: tuple) -> float:
    return o[0]


def _junk(ctx: Context, q: int) -> int:
    """Cards in q's hand of treasures already captured: discarding them costs nothing."""
    h = ctx.s.hands[q]
    cap = ctx.s.captured
    return sum(h[x] for x in range(4) if cap >> x & 1)


_SPECIAL_KINDS = (SANDBAGS_PLAY, HELI_PLAY, LIFT_OFF, END_ACTIONS)


def _own_prefix(legal: list[Action]) -> list[Action]:
    """The current player's own actions: the legal list starts with them, special plays come after."""
    for i, a in enumerate(legal):
        if a[0] in _SPECIAL_KINDS:
            return legal[:i]
    return legal


def _find_heli(legal: list[Action], mask: int, target: int) -> Action | None:
    for a in legal:
        if a[0] == HELI_PLAY and a[2] == mask and a[3] == target:
            return a
    return None


def _best_shore(legal: list[Action], sv: list[float], p: int) -> Action | None:
    best_v, best_a = -1.0, None
    for a in legal:
        if a[0] == SHORE_UP:
            v = sv[a[2]] + (sv[a[3]] if a[3] != NO_TILE else 0.0)
            if v > best_v:
                best_v, best_a = v, a
    return best_a


def _importance(s: GameState, t: int, w: dict[str, float]) -> float:
    if t == FOOLS_LANDING:
        return w["w_fools_landing"]
    for tr in range(4):
        pair = TREASURE_TILES[tr]
        if t in pair:
            if s.captured >> tr & 1:
                return w["w_plain"]
            twin = pair[1] if pair[0] == t else pair[0]
            return w["w_treasure_last"] if s.tiles[twin] == SUNK else w["w_treasure_twin"]
    return w["w_plain"]


def _draw_chances(s: GameState) -> dict[int, float]:
    """Chance that each tile's flood card is drawn in what is left of the current flood step."""
    left = s.flood_left
    out: dict[int, float] = {}
    for seg in reversed(s.fdeck):
        if left <= 0:
            break
        p = min(1.0, left / len(seg))
        for t in seg:
            out[t] = p
        left -= len(seg)
    if left > 0 and s.fdiscard:
        p = min(1.0, left / len(s.fdiscard))
        for t in s.fdiscard:
            out.setdefault(t, p)
    return out


__all__ = ["DEFAULTS", "FAR", "HeuristicPolicy"]
