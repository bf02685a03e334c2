"""Turn planning for the heuristic player: where to walk and what to do with the actions left.

A plan is: optional work at the start tile x (shore-ups, gifts), a walk (or the Pilot's flight) to an end
tile y, then work at y (capture, shore-ups, gifts). Every reachable y is scored by the value of the best
work that fits in the actions left, minus how far y leaves the pawn from its goals, minus the risk left on
important flooded tiles nobody stands near. The plan comes back as the whole list of actions, so the
player can follow it without planning again at every action.
"""

from __future__ import annotations

from typing import Final

from ..actions import CAPTURE, FLY, GIVE, MOVE, NAVIGATE, NO_TILE, SHORE_UP, Action
from ..tiles import ENGINEER, FLOODED, MESSENGER, NAVIGATOR, PILOT, SUNK, TREASURE_TILES
from .heuristic_eval import Context
from .heuristic_geom import AROUND, DIVE, ORTH
from .heuristic_special import find_heli, junk, keep_value  # imported once: in a function, an import is paid per call

_N: Final = 24
SHORE: Final = 0
GIFT: Final = 1
CAPT: Final = 2


def _first(o: tuple) -> float:
    return o[0]


def reach_from(ctx: Context, p: int, x: int, k: int) -> dict[int, int]:
    """Tiles pawn p reaches from x with k actions of moving -> steps."""
    nb = ctx.geo.neighbours(ctx.kinds[p])
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


def overflow_cost(ctx: Context, c: int, tr: int) -> float:
    """What c loses by discarding its cheapest card other than treasure tr (to get back to the hand limit; tr
    -1: any card)."""
    h = ctx.s.hands[c]
    return min((keep_value(ctx, c, k) for k in range(6) if h[k] and k != tr), default=0.0)


def gifts(ctx: Context, p: int) -> list[tuple[int, int, list[float]]]:
    """(receiver, treasure, values of successive cards) for the cards p could usefully give."""
    s = ctx.s
    w = ctx.w
    hand = s.hands[p]
    out = []
    # with four hands the last treasures' cards are spread wider: bringing them together late is worth more
    give = w["w_give"] * (w["w_give_late"] if s.n >= 4 and len(ctx.uncaptured) <= 2 else 1.0)
    danger = w["w_give_danger"] if s.n >= 4 else 1.0
    tiles = s.tiles
    # with four players a card given before the draw is one the giver need not discard after it (the two cards
    # drawn would overflow its hand); with two, tried too, it cost games
    w_spare = w["w_give_spare"] if s.n >= 4 else 0.0
    limit, draws, need = s.comp.hand_limit, s.comp.treasure_draws, ctx.need
    over = sum(hand) + draws - limit - junk(ctx, p) if w_spare else 0
    spare = w_spare * overflow_cost(ctx, p, -1) if over > 0 else 0.0
    w_later = w["w_give_later"]
    for tr in ctx.uncaptured:
        h = hand[tr]
        c = ctx.collector[tr]
        if not h or c == p or c < 0:
            continue
        a, z = TREASURE_TILES[tr]
        # a treasure down to one tile, or with both flooded, may be lost before its cards meet: hurry them
        g = give * danger if tiles[a] == SUNK or tiles[z] == SUNK or tiles[a] == tiles[z] == FLOODED else give
        b = s.hands[c][tr]
        room = limit + junk(ctx, c) - sum(s.hands[c])
        later: float | None = None
        vals = []
        for i in range(h):
            if b + i + 1 >= need:
                v = w["w_give_complete"] if b + i + 1 == need else 0.0
            else:
                v = g * (1.0 + 0.5 * (b + i))
            if i >= room:
                v -= w["w_overflow"] * overflow_cost(ctx, c, tr)
            elif i + 1 + draws > room and w_later:  # it fits, but the cards the receiver draws next will not
                if later is None:
                    later = w_later * overflow_cost(ctx, c, tr)
                v -= later
            if i < over:
                v += spare
            if v <= 0:
                break
            vals.append(v)
        if vals:
            out.append((c, tr, vals))
    return out


def guards(ctx: Context, p: int) -> list[tuple[float, list[int], int, int]]:
    """Flooded tiles: (weight, steps from the tile for p, steps of the nearest other pawn, tile)."""
    w = ctx.w
    wg = w["w_guard"]
    if wg <= 0:
        return []
    sv = ctx.sv
    gmin = w["guard_min"]
    tiles_ = [t for t in ctx.flooded if sv[t] >= gmin]
    if not tiles_:
        return []
    s = ctx.s
    geo = ctx.geo
    out = []
    kinds = ctx.kinds
    dists = [geo.dist(kinds[q], s.pos[q]) for q in range(s.n) if q != p]  # kept while pawns stay put
    kp = kinds[p]
    for t in tiles_:
        other = 3
        for d in dists:
            dq = d[t] - 1
            if dq < other:
                other = dq if dq > 0 else 0
        if other == 0:
            continue
        out.append((wg * sv[t], geo.dist(kp, t), other, t))
    return out


def position_costs(ctx: Context, p: int) -> list[float]:
    """Goal costs of p plus a pull towards the tiles that matter (Fools' Landing, treasure tiles)."""
    gc = ctx.goal_costs(p)
    s = ctx.s
    # with more pawns, one near each tile that matters is worth more than the steps it costs
    wp = ctx.w["w_position"] + ctx.w["w_position_pawn"] * (s.n - 2)
    if wp <= 0:
        return gc
    geo = ctx.geo
    kind = ctx.kinds[p]
    imp = ctx.imp
    ikey = tuple(imp)
    both = ("gc+pos", id(gc), kind, ikey, wp)  # gc lists live in geo.cache as long as this entry
    out = geo.cache.get(both)
    if out is not None:
        return out
    key = ("pos", kind, ikey, wp)
    pull = geo.static.get(key)
    if pull is None:
        # a gentle pull: distances over the whole island (ignoring sunk tiles) are good enough here
        plain = ctx.w["w_plain"]
        static = geo.static
        terms = []
        for t in range(_N):
            if imp[t] > plain and s.tiles[t] != SUNK:
                tkey = ("pull", kind, t, imp[t], wp)
                term = static.get(tkey)
                if term is None:
                    wt = wp * imp[t]
                    d = geo.island_dist(kind if kind != DIVE else ORTH, t)
                    term = static[tkey] = [wt * (b if b < 4 else 4) for b in d]
                terms.append(term)
        pull = static[key] = list(map(sum, zip(*terms, strict=True))) if terms else [0.0] * _N
    out = [a + b for a, b in zip(gc, pull, strict=True)]
    geo.cache[both] = out
    return out


def _shore_opts(ctx: Context, tiles_: list[int], engineer: bool, at_x: bool) -> list[tuple]:
    sv = ctx.sv
    vs = sorted(((sv[t], t) for t in tiles_), reverse=True)
    if engineer:
        out = []
        for i in range(0, len(vs), 2):
            pair = vs[i : i + 2]
            out.append((sum(v for v, _ in pair), SHORE, tuple(t for _, t in pair), at_x))
        return out
    return [(v, SHORE, (t,), at_x) for v, t in vs]


def best_plan(
    ctx: Context,
    p: int,
    x: int,
    k: int,
    reach: dict[int, int],
    gifts_: list[tuple[int, int, list[float]]],
    guards_: list[tuple[float, list[int], int, int]],
    gc: list[float],
):
    """The best (value, end tile, steps, chosen options) of p's turn from x with k actions.

    An option is (value, SHORE|GIFT|CAPT, data, done at the start tile?)."""
    s = ctx.s
    w = ctx.w
    tiles = s.tiles
    pos = s.pos
    sv = ctx.sv
    hand = s.hands[p]
    engineer = s.roles[p] == ENGINEER
    messenger = s.roles[p] == MESSENGER
    cap_tiles = {}
    for tr in ctx.uncaptured:
        if hand[tr] >= ctx.need:
            for t in TREASURE_TILES[tr]:
                if tiles[t] != SUNK:
                    cap_tiles[t] = tr
    board = s.board
    near_of = board.around if ctx.kinds[p] == AROUND else board.orth  # shore_range without the calls
    range_x = (x,) + near_of[x]
    fl_x = [t for t in range_x if tiles[t] == FLOODED]
    x_opts = _shore_opts(ctx, fl_x, engineer, True)
    for c, tr, vals in gifts_:
        if messenger or pos[c] == x:
            x_opts.extend((v, GIFT, (c, tr), True) for v in vals)
    w_near = w["w_near"]
    w_capture = w["w_capture"]
    flooded = set(ctx.flooded)
    loc_gifts: dict[int, list[tuple]] = {}
    if not messenger:
        for c, tr, vals in gifts_:
            loc_gifts.setdefault(pos[c], []).extend((v, GIFT, (c, tr), False) for v in vals)
    x_sorted = sorted(x_opts, key=_first, reverse=True)
    # most work any end tile could add with r actions (an Engineer's action may shore two tiles): end tiles
    # that cannot beat the best so far even so are passed over, which changes no choice
    values = sorted([sv[t] for t in ctx.flooded] + [v for _, _, vals in gifts_ for v in vals], reverse=True)
    if cap_tiles:
        values.insert(0, w_capture)
    most = [0.0]
    for v in values[: 2 * k if engineer else k]:
        most.append(most[-1] + v)
    top_sv = max([sv[t] for t in ctx.flooded], default=0.0)
    best = None
    for y, d in reach.items():
        r = k - d
        if best is not None:
            bound = -gc[y] - 0.01 * d + most[min(2 * r if engineer else r, len(most) - 1)] + w_near * top_sv
            if bound + 1e-6 <= best[0] + 1e-9:
                continue
        opts: list[tuple] = x_sorted[:r] if r > 0 else []
        fl_near = [t for t in (y,) + near_of[y] if t in flooded] if flooded else ()
        if r > 0 and y != x:
            more = None
            if fl_near:
                fl_y = [t for t in fl_near if t not in fl_x]
                if fl_y:
                    more = _shore_opts(ctx, fl_y, engineer, False)
            g = loc_gifts.get(y)
            if g:
                more = g if more is None else more + g
            if more is not None:
                opts = x_opts + more
                opts.sort(key=_first, reverse=True)
                opts = opts[:r]
        if r > 0:
            tr = cap_tiles.get(y, -1)
            if tr >= 0:
                opts = opts + [(w_capture, CAPT, tr, y == x)]
                if len(opts) > r:
                    opts.sort(key=_first, reverse=True)
                    opts = opts[:r]
        val = -gc[y] - 0.01 * d
        done: tuple[int, ...] | list[int] = ()
        if opts:
            val += sum([o[0] for o in opts])
            if fl_near or guards_:
                done = [t for o in opts if o[1] == SHORE for t in o[2]]
        if flooded:
            near = 0.0
            for t in fl_near:
                if sv[t] > near and t not in done:
                    near = sv[t]
            val += w_near * near
        for wt, dt, other, t in guards_:
            if t in done:
                continue
            dy = dt[y] - 1
            if dy > 0:
                val -= wt * (dy if dy < other else other)
        if best is None or val > best[0] + 1e-9:
            best = (val, y, d, opts)
    return best


def _action_of(o: tuple, p: int) -> Action:
    if o[1] == SHORE:
        t = o[2]
        return (SHORE_UP, p, min(t), max(t)) if len(t) == 2 else (SHORE_UP, p, t[0], NO_TILE)
    if o[1] == GIFT:
        return (GIVE, p, o[2][0], o[2][1])
    return (CAPTURE, p, o[2])


def plan_turn(ctx: Context, heli_shore: bool) -> list[Action]:
    """The current player's actions for the rest of the turn (possibly one Helicopter Lift play first)."""
    s = ctx.s
    cap = s.capture_now()
    if cap is not None:  # capturing at once is never wrong: it frees the hand and ends a way to lose
        return [cap]
    w = ctx.w
    p = s.current
    k = s.actions_left
    pos = s.pos
    x = pos[p]
    role = s.roles[p]
    tiles = s.tiles
    reach = reach_from(ctx, p, x, k)
    flown: set[int] = set()
    if role == PILOT and not s.flight_used:
        for t in range(_N):
            if tiles[t] != SUNK and t != x and reach.get(t, 99) > 1:
                reach[t] = 1
                flown.add(t)
    sv = ctx.sv
    gifts_ = gifts(ctx, p)
    guards_ = guards(ctx, p)
    gc = position_costs(ctx, p)
    val, y, d, opts = best_plan(ctx, p, x, k, reach, gifts_, guards_, gc)
    # a Helicopter Lift to an important flooded tile out of reach this turn
    if heli_shore and ctx.heli and not ctx.endgame and not flown:
        hcost = w["heli_shore_cost"] + (w["heli_last_cost"] if ctx.heli < 2 and len(ctx.uncaptured) <= 1 else 0.0)
        hcost += w["heli_late_cost"] if len(ctx.uncaptured) <= 2 else 0.0
        for t in ctx.flooded:
            if sv[t] < w["heli_shore_min"] or t in reach:
                continue
            if any(u in reach for u in ctx.shore_range(p, t)):
                continue
            r2 = reach_from(ctx, p, t, k)
            v2, y2, _, opts2 = best_plan(ctx, p, t, k, r2, gifts_, guards_, gc)
            if v2 - hcost > val:
                a = find_heli(s, 1 << p, t)
                if a is not None:
                    return [a] + _sequence(ctx, p, t, y2, opts2, set(), gc)
    # the Navigator may do more good moving someone else
    if role == NAVIGATOR:
        used = d + len(opts)
        per = (val + gc[x]) / used if used else 0.0
        nav_best, nav_a = max(per, 0.3), None
        for q in range(s.n):  # in the order the engine lists the Navigator's moves
            if q == p:
                continue
            targets = s.navigator_targets(q)
            if targets:
                gq = ctx.goal_costs(q)
                for t in targets:
                    g = gq[pos[q]] - gq[t]
                    if g > nav_best:
                        nav_best, nav_a = g, (NAVIGATE, p, q, t)
        if nav_a is not None:
            return [nav_a]
    return _sequence(ctx, p, x, y, opts, flown, gc)


def _sequence(ctx: Context, p: int, x: int, y: int, opts: list, flown: set[int], gc: list[float]) -> list[Action]:
    """The actions of a plan: work at the start tile x, the walk (or flight) to y, work at y."""
    geo = ctx.geo
    kind = ctx.kinds[p]
    seq: list[Action] = []
    here = sorted((o for o in opts if o[3]), key=_first, reverse=True)
    there = sorted((o for o in opts if not o[3]), key=_first, reverse=True)
    seq.extend(_action_of(o, p) for o in here if o[1] == CAPT)
    seq.extend(_action_of(o, p) for o in here if o[1] != CAPT)
    if y != x:
        if y in flown:
            seq.append((FLY, p, y))
        else:
            dy = geo.dist(kind, y)
            nb = geo.neighbours(kind)
            cur = x
            while cur != y:
                step = None
                for z in nb[cur]:
                    if dy[z] == dy[cur] - 1 and (step is None or gc[z] < gc[step]):
                        step = z
                if step is None:
                    break
                seq.append((MOVE, p, step))
                cur = step
    seq.extend(_action_of(o, p) for o in there if o[1] == CAPT)
    seq.extend(_action_of(o, p) for o in there if o[1] != CAPT)
    return seq
