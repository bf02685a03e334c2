"""The Desert heuristic's decisions outside the current pawn's own plan: water shared, gear and water handed to a
pawn leaving its tile, the Navigator's moves of other pawns (the Climber with a rider), and the Meteorologist's
look at the storm deck."""

from __future__ import annotations

from ..actions import GIVE_GEAR, GIVE_WATER, JET, KEEP_TOP, MOVE, NAVIGATE, NOBODY, STACK, TO_BOTTOM, Action
from ..engine import ORTH_BITS, GameState
from ..tiles import CLIMBER, DUNE_BLASTER, JET_PACK, STORM_PICKS_UP, SUN_BEATS_DOWN, TUNNEL, wind
from .heuristic_view import View


def water_gift(s: GameState) -> Action | None:
    """Give one water where it evens out the team: from a pawn holding at least 2 more than the receiver
    (on the same tile; the Water Carrier also to the tiles next to hers), the driest receiver first."""
    pos, water, roles = s.pos, s.water, s.roles
    lo = hi = water[0]
    for u in water:
        if u < lo:
            lo = u
        elif u > hi:
            hi = u
    if hi - lo < 2:  # (nobody can give)
        return None
    keep = 1 if s.rules.thirst_at_zero else 0
    canteens = s.comp.canteens
    giver = taker = -1  # the best pair: the driest receiver, then the fullest giver (the first found on a tie)
    n, wc = s.n, s.carrier
    for a in range(n):
        wa = water[a]
        if wa <= keep:
            continue
        near = ORTH_BITS[pos[a]] if a == wc else 0
        for b in range(n):
            wb = water[b]
            if b == a or wb >= canteens[roles[b]] or wa - wb < 2:
                continue
            if pos[b] == pos[a] or near >> pos[b] & 1:
                if giver < 0 or wb < water[taker] or wb == water[taker] and wa > water[giver]:
                    giver, taker = a, b
    return (GIVE_WATER, giver, taker) if giver >= 0 else None


def leaves(s: GameState, a: Action) -> bool:
    """Whether action ``a`` takes the current pawn off its tile: its step or its flight elsewhere."""
    return (a[0] == MOVE or a[0] == JET) and a[1] == s.current and a[2] != s.pos[s.current]


def mate_holding(s: GameState, p: int, card: int) -> int:
    """The first pawn on pawn p's tile, in seat order, holding a gear card of kind ``card`` (-1: none)."""
    x = s.pos[p]
    for h in range(s.n):
        if h != p and s.pos[h] == x and s.hands[h][card]:
            return h
    return -1


def leaving_gear(s: GameState, a: Action) -> Action | None:
    """Before the current pawn's action ``a`` takes it off its tile, it takes a Dune Blaster, then a Jet Pack, of a
    pawn staying there when it holds none of that kind (passing gear is free): gear goes with the pawn off to work,
    where sand is cleared and from where flights are needed, rather than staying behind."""
    if not leaves(s, a):
        return None
    p = s.current
    for card in (DUNE_BLASTER, JET_PACK):
        if not s.hands[p][card]:
            h = mate_holding(s, p, card)
            if h >= 0:
                return (GIVE_GEAR, h, p, card)
    return None


def shade_gift(s: GameState, a: Action) -> Action | None:
    """Before the current pawn's action ``a`` takes it off its tile (a step or a flight), one water from the
    fullest pawn staying there in the shade (a dug tunnel, or another pawn's Solar Shield) that holds more than
    the leaver: in the shade it drinks nothing until it leaves itself, while the leaver walks into the sun
    (``water_gift`` evens water out only to within one). Never a gift that ``water_gift`` would hand on again."""
    p = s.current
    x = s.pos[p]
    if not leaves(s, a):
        return None
    water = s.water
    if water[p] >= s.comp.canteens[s.roles[p]]:
        return None
    shade = s.kind[x] == TUNNEL and s.dug[x]
    for u in range(s.n):
        if u != p and s.pos[u] == x and s.shields >> u & 1:
            shade = True
    if not shade:
        return None
    keep = 1 if s.rules.thirst_at_zero else 0
    giver = -1
    for u in range(s.n):
        if u != p and s.pos[u] == x and water[u] > keep and water[u] > water[p]:
            if giver < 0 or water[u] > water[giver]:
                giver = u
    if giver < 0:
        return None
    gift = (GIVE_WATER, giver, p)
    after = s.copy()
    after.apply(gift)
    return gift if water_gift(after) is None else None


def navigations(v: View, p: int) -> list[tuple[float, Action]]:
    """The Navigator's best moves of other pawns (one per pawn, the most useful first) and their values. The
    Climber she moves carries along the pawn of her tile that gains most there (the rules allow one)."""
    s = v.s
    out = []
    for q in range(v.n):
        if q == p or s.buried(q):
            continue
        here = v.place_value(q, s.pos[q])
        best = None
        cost = v.w["nav_cost"]
        riders = _riders(v, p, q) if v.w["nav_ride"] else []
        for c in s.navigator_targets(q):
            rider, extra = _best_rider(v, riders, c)
            bound = v.place_bound(q, c) - here - cost + extra  # (the place's value in full only where it may gain most)
            if bound > 0 and (best is None or bound > best[0]):
                gain = v.place_value(q, c) - here - cost + extra
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, (NAVIGATE, p, q, c, rider))
        if best:
            out.append(best)
    return out


def _riders(v: View, p: int, q: int) -> list[tuple[int, float]]:
    """The pawns the Navigator p moving pawn q could bring along (q the Climber: the others of her tile, the
    Navigator aside, whose own ride is her turn's plan), each with the value of its place now."""
    s = v.s
    if s.roles[q] != CLIMBER:
        return []
    x = s.pos[q]
    return [(u, v.place_value(u, x)) for u in range(v.n) if u != p and u != q and s.pos[u] == x]


def _best_rider(v: View, riders: list[tuple[int, float]], c: int) -> tuple[int, float]:
    """The rider that gains most by coming along to cell c, and its gain (``NOBODY`` and 0.0 if none gains)."""
    rider, extra = NOBODY, 0.0
    for u, here in riders:
        gain = v.place_value(u, c) - here
        if gain > extra:
            rider, extra = u, gain
    return rider, extra


def card_harm(v: View, card: int) -> float:
    """What one known storm card would cost the team now."""
    s, w = v.s, v.w
    if card == SUN_BEATS_DOWN:
        exposed = [q for q in range(v.n) if s.pos[q] not in v.tunnels]
        return sum(v.water_value(q, s.water[q] - 1, 1) for q in exposed) + w["w_death"] * sum(
            1 for q in exposed if s.water[q] <= v.dry
        )
    if card == STORM_PICKS_UP:
        return w["v_level"]
    d, k = wind(card)
    return min(k, v._upwind_tiles(d)) * v.sand_base


def peek_worth(v: View) -> float:
    """What the Meteorologist's look saves at the start of her turn: the chance a Sun Beats Down lies among the
    cards she would see, times its harm (she puts it at the bottom)."""
    n = v.s.storm_cards()
    p_none = 1.0
    for i in range(n):
        p_none *= 1.0 - (v.suns_ahead(i + 1) - v.suns_ahead(i))
    return (1.0 - p_none) * card_harm(v, SUN_BEATS_DOWN)


def peek_choice(v: View) -> Action:
    """After a look: put the most harmful looked-at card at the bottom if it is worth it."""
    s = v.s
    p = s.current
    harms = [card_harm(v, c) for c in s.window]
    i = max(range(len(harms)), key=lambda j: (harms[j], -j))
    if harms[i] > v.w["bottom_min"]:
        return (TO_BOTTOM, p, i)
    return (KEEP_TOP, p)


def stack_choice(v: View) -> Action:
    """``top_any_order``: stack the least harmful card on top (the harmful ones come later)."""
    s = v.s
    card = min(s.window, key=lambda c: (card_harm(v, c), c))
    return (STACK, s.current, card)
