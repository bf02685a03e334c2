"""Decisions of the heuristic player outside turn planning: special cards, discards, swimming."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..actions import DISCARD, DRAW_FLOOD, HELI_PLAY, SANDBAGS_PLAY, SWIM, Action
from ..engine import GameState
from ..tiles import (
    FLOODED,
    FOOLS_LANDING,
    HELICOPTER_LIFT,
    MESSENGER,
    PILOT,
    SANDBAGS,
    SUNK,
    TILE_TREASURE,
    TREASURE_TILES,
)
from .heuristic_eval import Context, importances, spare, tile_values
from .heuristic_geom import ORTH, Geometry

_N: Final = 24


def find_heli(s: GameState, mask: int, target: int, holder: int = -1) -> Action | None:
    """The first legal Helicopter Lift of the pawns ``mask`` to ``target`` (by ``holder``, or anyone)."""
    for h in range(s.n) if holder < 0 else (holder,):
        a = (HELI_PLAY, h, mask, target)
        if s.is_heli_action(a):
            return a
    return None


# --------------------------------------------------------------------- flood step: Sandbags
def draw_chances(s: GameState) -> dict[int, float]:
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


def loses_if_sunk(s: GameState, t: int) -> bool:
    """Whether tile t sinking loses the game at once: Fools' Landing, the last tile of an uncaptured treasure,
    or a tile holding a pawn that could swim nowhere when no Helicopter Lift is in hand to rescue it."""
    if t == FOOLS_LANDING:
        return True
    rescue = any(h[HELICOPTER_LIFT] for h in s.hands)
    if not rescue and any(x == t and not s.swim_targets(q) for q, x in enumerate(s.pos)):
        return True
    x = TILE_TREASURE[t]
    if x < 0 or s.captured >> x & 1:
        return False
    a, b = TREASURE_TILES[x]
    return s.tiles[b if t == a else a] == SUNK


def flood_decision(s: GameState, w: dict[str, float], geo: Geometry) -> Action:
    holder = -1
    for q in range(s.n):
        if s.hands[q][SANDBAGS]:
            holder = q
            break
    if holder < 0:
        return (DRAW_FLOOD,)
    tiles = s.tiles
    chance = draw_chances(s)
    candidates = sorted(t for t, p in chance.items() if tiles[t] == FLOODED and p > 0.0)
    if not candidates:
        return (DRAW_FLOOD,)
    fatal = [t for t in candidates if chance[t] >= w["sandbag_fatal"] > 0 and loses_if_sunk(s, t)]
    if fatal:  # a lower bar than importance x chance: the game, not a tile, is at stake
        a = (SANDBAGS_PLAY, holder, max(fatal, key=chance.__getitem__))
        if s.is_sandbags_action(a):
            return a
    best, best_t = 0.0, -1
    imp = importances(s, w)
    if not _may_reach(s, w, imp, chance, candidates):
        return (DRAW_FLOOD,)
    geo.update(s)
    imp = tile_values(s, w, geo, imp)
    for t in candidates:
        v = imp[t] * chance[t]
        if v > best:
            best, best_t = v, t
    if best_t >= 0 and best >= w["sandbag_threshold"]:
        a = (SANDBAGS_PLAY, holder, best_t)
        if s.is_sandbags_action(a):
            return a
    return (DRAW_FLOOD,)


def _may_reach(s: GameState, w: dict[str, float], imp: list[float], chance: dict[int, float], tiles: list[int]) -> bool:
    """Whether some tile could reach the Sandbags threshold even with every pawn it might cut off from Fools'
    Landing (an upper bound on tile_values, added the same way): when none can, the cut-off table, rebuilt
    after every sinking, is not needed."""
    threshold = w["sandbag_threshold"]
    wp = w["w_cut_pawn"]
    for t in tiles:
        v = imp[t]
        if wp > 0 and s.captured:
            for _ in s.pos:
                v += wp
        if v * chance[t] >= threshold:
            return True
    return False


# --------------------------------------------------------------------- Helicopter Lift
def best_heli_move(ctx: Context, holder: int, least: float = float("-inf")) -> tuple[float, Action] | None:
    """The Helicopter Lift move (of one pawn or a whole group) that gains most; holder -1: anyone.

    Groups that cannot gain ``least`` (their goal cost where they stand bounds the gain) are left out,
    which changes no answer of at least ``least`` and saves most of the distance work."""
    s = ctx.s
    pos = s.pos
    tiles = s.tiles
    groups: dict[int, int] = {}
    for q, x in enumerate(pos):
        groups[x] = groups.get(x, 0) | 1 << q
    alive = [t for t in range(_N) if tiles[t] != SUNK]
    masks = set(groups.values())
    masks.update(1 << q for q in range(s.n))
    wanting = 0  # pawns that want to go somewhere enough for a lift to pay (saves distance work)
    want = ctx.w["heli_move_min"] / 6.0 if holder < 0 else 0.0
    for q in range(s.n):
        goals = ctx.goals_of(q)
        if goals and sum(g[0] for g in goals) >= want:
            wanting |= 1 << q
    here: list[float | None] = [None] * s.n  # goal cost of each pawn where it stands, when needed
    best = None
    for mask in sorted(masks):
        if not mask & wanting:
            continue
        members = [q for q in range(s.n) if mask >> q & 1]
        src = pos[members[0]]
        if least > float("-inf"):
            for q in members:
                if here[q] is None:
                    here[q] = ctx.goal_cost(q, src)
            costs: list[float] = [here[q] for q in members]  # type: ignore[misc]  # all set just above
            if sum(costs) < least:
                continue
        arrs = [ctx.goal_costs(q) for q in members]
        tot = arrs[0] if len(arrs) == 1 else [sum(v) for v in zip(*arrs, strict=True)]
        t = min((u for u in alive if u != src), key=tot.__getitem__, default=-1)
        if t >= 0:
            g = tot[src] - tot[t]
            if best is None or g > best[0]:
                best = (g, mask, t)
    if best is None:
        return None
    g, mask, t = best
    a = find_heli(s, mask, t, holder)
    return (g, a) if a is not None else None


def heli_in_turn(ctx: Context) -> Action | None:
    """A Helicopter Lift worth playing now in the actions phase, or None."""
    s = ctx.s
    w = ctx.w
    geo = ctx.geo
    pos = s.pos
    if ctx.endgame:
        # only pawns that cannot walk home are lifted there (they need a lift anyway): a lift spent on a walker
        # is missed for the take-off or when a tile sinks under another pawn. The last lift goes only by
        # heli_stranded; the lifts of a take-off are heuristic_escape's.
        if ctx.heli < 2 and w["heli_stranded"] <= 0:
            return None
        gather = {pos[q] for q in range(s.n) if ctx.mates(q)}  # stranded pawns gather first: one lift for all
        home = {pos[q] for q in ctx.stranded()} - gather
        if not home:
            return None
        d = geo.dist(ORTH, FOOLS_LANDING)
        src = max(home, key=lambda t: (d[t], -t))
        mask = 0
        for q, x in enumerate(pos):
            if x == src:
                mask |= 1 << q
        return find_heli(s, mask, FOOLS_LANDING)
    p = s.current
    k = s.actions_left
    if k == 0 or s.capture_now() is not None:  # a capture at hand comes before any lift
        return None
    x = pos[p]
    hand = s.hands[p]
    kind = ctx.kinds[p]
    flight = s.roles[p] == PILOT and not s.flight_used
    if w["heli_capture"] > 0 and not flight:
        for tr in ctx.uncaptured:
            if hand[tr] >= ctx.need:
                alive = [t for t in TREASURE_TILES[tr] if s.tiles[t] != SUNK]
                if not alive or x in alive:
                    continue
                if min(geo.dist(kind, t)[x] for t in alive) <= k - 1:
                    continue
                target = max(alive, key=lambda t: (ctx.sv[t], -t))
                a = find_heli(s, 1 << p, target)
                if a is not None:
                    return a
    if w["heli_meet"] > 0 and not flight and s.roles[p] != MESSENGER:
        for tr in ctx.uncaptured:
            c = ctx.collector[tr]
            if c < 0 or c == p or not hand[tr]:
                continue
            need = ctx.need - s.hands[c][tr]
            if need > hand[tr] or need > k - 1 or need <= 0:
                continue
            if geo.dist(kind, pos[c])[x] <= k - need:
                continue
            if sum(s.hands[c]) + need > s.comp.hand_limit + junk(ctx, c):
                continue
            a = find_heli(s, 1 << p, pos[c])
            if a is not None:
                return a
    # a lift played before this turn's draws empty the treasure pile is reshuffled with the discard pile at once:
    # then a spare move costs less and is weighed at every action, not only at the turn's start
    reshuffle = w["heli_reshuffle"] > 0 and sum(s.tdeck) <= 2
    if k == s.comp.actions_per_turn or reshuffle:
        # with one treasure left two lifts are kept from moves: one to lift off, one for a pawn the last capture
        # leaves cut off from Fools' Landing (the endgame lifts no one else home)
        spare = ctx.heli - (2 if len(ctx.uncaptured) <= 1 else 0)
        if spare >= 1:
            # late in the game a lift is worth more kept, for a capture or the way home, than spent moving a pawn
            least = w["heli_move_min"] + (w["heli_late_cost"] if len(ctx.uncaptured) <= 2 else 0.0)
            if reshuffle:
                least -= w["heli_reshuffle"]
            found = best_heli_move(ctx, -1, least)
            if found is not None and found[0] >= least:
                return found[1]
    return None


# --------------------------------------------------------------------- over the hand limit
def junk(ctx: Context, q: int) -> int:
    """Cards in q's hand of treasures already captured: discarding them costs nothing."""
    h = ctx.s.hands[q]
    cap = ctx.s.captured
    return sum(h[x] for x in range(4) if cap >> x & 1)


def keep_value(ctx: Context, p: int, c: int) -> float:
    w = ctx.w
    s = ctx.s
    if c == HELICOPTER_LIFT:
        if ctx.endgame and ctx.heli < 2:
            return 100.0
        # late in the game a lift is worth more kept, for a capture or the way home (as in heli_in_turn)
        late = w["heli_late_cost"] if len(ctx.uncaptured) <= 2 else 0.0
        return late + (w["keep_heli"] if ctx.heli < 2 else w["keep_heli_extra"])
    if c == SANDBAGS:
        return w["keep_sandbags"]
    need = ctx.need
    if s.captured >> c & 1 or spare(s.hands, p, c, need):  # a spare card costs nothing to discard, like a captured one
        return 0.0
    team = ctx.team[c]
    v = w["keep_base"] + w["keep_own"] * s.hands[p][c] + w["keep_team"] * min(team, need)
    if team >= need:
        v += w["keep_set"] if team == need else -w["keep_team"] * (team - need)
    if ctx.collector[c] == p:
        v += w["keep_collector"]
    if team + s.tdeck[c] <= need:
        v += w["keep_scarce"]
    return v


def discard_decision(ctx: Context, legal: Sequence[Action]) -> Action:
    s = ctx.s
    w = ctx.w
    p = s.discarder
    best_cost, best_a = None, None
    flooded_best = max((ctx.sv[t] for t in ctx.flooded), default=0.0)
    for a in s.discards() + s.sandbags_actions(p):  # of the legal list, what is weighed here (not the lifts)
        if a[0] == DISCARD:
            cost = keep_value(ctx, p, a[2])
        elif a[0] == SANDBAGS_PLAY:
            if ctx.sv[a[2]] < flooded_best:
                continue
            cost = keep_value(ctx, p, SANDBAGS) - w["w_play_sandbags"] * flooded_best
        else:
            continue
        if best_cost is None or cost < best_cost:
            best_cost, best_a = cost, a
    if s.hands[p][HELICOPTER_LIFT]:
        keep = keep_value(ctx, p, HELICOPTER_LIFT)
        # a lift is played only if it gains more than this: the search need not look at the moves that cannot
        found = best_heli_move(ctx, p, float("-inf") if best_cost is None else keep - best_cost)
        if found is not None:
            cost = keep - found[0]
            if best_cost is None or cost < best_cost:
                best_cost, best_a = cost, found[1]
    return best_a if best_a is not None else legal[0]


# --------------------------------------------------------------------- swimming
def swim_decision(ctx: Context, legal: Sequence[Action]) -> Action:
    s = ctx.s
    w = ctx.w
    q = s.swimmers[0]
    tiles = s.tiles
    gq = ctx.goal_costs(q)
    best_v, best_a = None, None
    for a in legal:
        if a[0] == SWIM:
            t = a[2]
            v = -gq[t]
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
    members = [r for r in range(s.n) if group >> r & 1]
    arrs = [ctx.goal_costs(r) for r in members]
    for a in legal:
        if a[0] == HELI_PLAY and a[2] == group:
            t = a[3]
            v = -sum(g[t] for g in arrs) - cost
            if tiles[t] == FLOODED:
                v -= w["w_swim_flooded"] * ctx.risk[t]
            if best_v is None or v > best_v:
                best_v, best_a = v, a
    return best_a if best_a is not None else legal[0]
