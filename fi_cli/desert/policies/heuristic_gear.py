"""Gear for the Desert heuristic, played by rules by any holder at any decision (its own turn, another
player's, between storm cards):

- Dune Blaster: on the tile in reach whose sand is worth the most (a buried pawn, a tile to excavate, the
  supply when it runs low), when that is worth more than the card;
- Jet Pack: the current pawn flies where its turn is worth much more (a part, the tiles of its best work,
  water, the Launch Pad with a passenger), out of a deep burial, any holder flies to the Launch Pad when
  that wins the game, and between storm cards a holder on a tile with a dry pawn flies (with it) to a dug
  tunnel's shade or to a pawn with water to share, and a holder with water to give flies onto a dry pawn's tile
  (the thirst risk such a flight takes off weighs ``refuge_risk`` times more than in a turn's plan);
- Solar Shield: before the storm cards when the water it saves the pawns on its tile is worth the card, played by
  the pawn of the tile whose next turn is furthest off (a shield lasts until its user's next turn);
- Secret Water Reserve: when its water is worth the card, or a pawn on its tile would die of thirst;
- Terrascope: on a water-drop tile when the team needs water and the mirage is unknown, or on the costliest
  hidden tile once few clues are missing;
- Time Throttle: at the start of its holder's turn when two more actions are worth the card.
"""

from __future__ import annotations

from ..actions import BLAST, GIVE_GEAR, JET, NOBODY, RESERVE, SCOPE, SHIELD, THROTTLE, Action
from ..engine import ACTIONS, AROUND_SELF, COLLECTED, ORTH_SELF, STORM, GameState, holds_gear
from ..tiles import (
    CLIMBER,
    DUNE_BLASTER,
    EXPLORER,
    HIDDEN,
    HIDDEN_WATER,
    JET_PACK,
    N_CELLS,
    NAVIGATOR,
    NO_TILE,
    SECRET_WATER_RESERVE,
    SOLAR_SHIELD,
    TERRASCOPE,
    TIME_THROTTLE,
)
from .heuristic_turn import Planner
from .heuristic_view import MANHATTAN, View


def gear_play(v: View) -> Action | None:
    """A gear card worth playing now, by anyone, or None."""
    s = v.s
    holders = [h for h in range(v.n) if holds_gear(s.hands[h])]
    if not holders:
        return None
    # the rules in turn, called by name (a loop over them would call each through Python's generic calls)
    return (
        _reserve(v, holders) or _shield(v, holders) or _jet_refuge(v, holders) or _blast(v, holders)
        or _jet_win(v, holders) or _scope(v, holders)
    )  # fmt: skip


def gear_may_play(s: GameState, w: dict[str, float]) -> bool:
    """Whether a rule of ``gear_play`` (weights ``w``) can play a card at all, read off the public state alone:
    False means ``gear_play`` plays nothing. Most decisions with gear in hand play none, and then need no View."""
    phase = s.phase
    for h in range(s.n):
        hand = s.hands[h]
        if hand[SECRET_WATER_RESERVE] and (phase != ACTIONS or _reserve_may_pay(s, w, h)):
            return True
        if hand[TERRASCOPE] and phase == ACTIONS and _scope_may_look(s, w):
            return True
        if hand[JET_PACK] and s.parts.count(COLLECTED) == 4:
            return True
        if hand[SOLAR_SHIELD] and phase == STORM and not s.shields >> h & 1:
            return True
        if hand[JET_PACK] and phase == STORM:
            for q in range(s.n):
                if s.water[q] <= w["refuge_water"]:
                    return True
        if hand[DUNE_BLASTER]:
            for c in (AROUND_SELF if s.roles[h] == EXPLORER else ORTH_SELF)[s.pos[h]]:
                if s.sand[c] >= 2:
                    return True
    return False


def _reserve_may_pay(s: GameState, w: dict[str, float], h: int) -> bool:
    """Whether ``_reserve`` can find the Secret Water Reserve of holder h worth the card (outside the storm): False
    when even ``v_water`` a unit for both water to every pawn on h's tile is not worth it (no unit of water is
    worth more than ``v_water`` while ``water_ratio`` is at most 1; with other weights, do not tell)."""
    v = w["v_water"]
    if v < 0 or not 0 <= w["water_ratio"] <= 1:
        return True
    x = s.pos[h]
    most = 0.0  # added as sum() adds the gains, each at most v + v
    for q in range(s.n):
        if s.pos[q] == x:
            most += v + v
    return most > w["reserve_cost"]


def _missing(s: GameState) -> int:
    """The clue tiles not yet excavated and the Launch Pad if not yet found."""
    kind, dug = s.kind, s.dug
    left = 8
    for c in range(N_CELLS):
        if dug[c] and 6 <= kind[c] <= 13:
            left -= 1
    return left + (1 if s.launch_pad() < 0 else 0)


def _scope_may_look(s: GameState, w: dict[str, float]) -> bool:
    """Whether ``_scope`` can look at a tile at all: the driest pawn is thirsty, or few clues are missing."""
    driest = s.water[0]
    for u in s.water:
        driest = u if u < driest else driest
    return driest <= w["scope_water"] or _missing(s) <= w["scope_missing"]


def _blast(v: View, holders: list[int]) -> Action | None:
    s, w = v.s, v.w
    best = None
    for h in holders:
        if not s.hands[h][DUNE_BLASTER]:
            continue
        for c in v.reach_cells(s.roles[h], s.pos[h]):
            if s.sand[c] >= 2:
                value = sum(v.sand_value(c))
                if value > w["blast_cost"] and (best is None or value > best[0]):
                    best = (value, (BLAST, h, c))
    return best[1] if best else None


def _shield(v: View, holders: list[int]) -> Action | None:
    s, w = v.s, v.w
    if s.phase != STORM:
        return None
    for h in holders:
        if not s.hands[h][SOLAR_SHIELD] or s.shields >> h & 1:
            continue
        x = s.pos[h]
        if x in v.tunnels:
            continue
        group = [q for q in range(v.n) if s.pos[q] == x]
        user = _shield_user(v, h, group) if w["shield_pass"] else h
        suns = v.suns_ahead(v.cards_before_turn(user))
        saved = sum(v.water_value(q, s.water[q] - 1, 1) for q in group) * suns
        saved += w["w_death"] * v.tile_risk(x)
        if saved > w["shield_cost"]:
            return (SHIELD, h) if user == h else (GIVE_GEAR, h, user, SOLAR_SHIELD)
    return None


def _shield_user(v: View, h: int, group: list[int]) -> int:
    """The pawn of holder h's tile (``group``) whose next turn is furthest off, its own shield not up (h on a tie): a
    Solar Shield lasts until the start of its user's next turn, and passing it on the tile is free."""
    s = v.s
    user = h
    for q in group:
        if not s.shields >> q & 1 and v.cards_before_turn(q) > v.cards_before_turn(user):
            user = q
    return user


def _reserve(v: View, holders: list[int]) -> Action | None:
    s, w = v.s, v.w
    for h in holders:
        if not s.hands[h][SECRET_WATER_RESERVE]:
            continue
        x = s.pos[h]
        group = [q for q in range(v.n) if s.pos[q] == x]
        gain = sum(v.water_value(q, s.water[q], 2) for q in group)
        danger = s.phase == STORM and v.tile_risk(x) > 0.2
        if gain > w["reserve_cost"] or (danger and gain > 0):
            return (RESERVE, h)
    return None


def _jet_refuge(v: View, holders: list[int]) -> Action | None:
    """Between storm cards: a holder on a tile where a pawn is down to ``refuge_water`` water flies to a dug
    tunnel's shade or to a pawn with water to share (sharing is free at any time), with the pawn of its tile that
    gains most, when their places there are worth more than where they stand by more than the card."""
    s, w = v.s, v.w
    if s.phase != STORM:
        return None
    best = None
    for h in holders:
        if not s.hands[h][JET_PACK] or (s.buried(h) and not s.rules.jet_pack_when_buried):
            continue
        x = s.pos[h]
        driest = min(s.water[q] for q in range(v.n) if s.pos[q] == x)
        if v.shaded(x) or driest > w["refuge_water"]:
            if w["refuge_give"] > 0:
                best = _jet_giver(v, h, best)
            continue
        for c in range(N_CELLS):
            if c == x or s.kind[c] == NO_TILE or s.sand[c] >= 2:
                continue
            if not v.shaded(c) and not any(s.pos[u] == c and s.water[u] >= driest + 2 for u in range(v.n)):
                continue
            rider, most = jet_rider(v, h, c)
            gain = v.place_value(h, c) - v.place_value(h, x) + most - w["jet_cost"] + _risk_taken_off(v, h, rider, c)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, (JET, h, c, rider))
    return best[1] if best else None


def _risk_taken_off(v: View, h: int, rider: int, c: int) -> float:
    """The team's thirst risk that holder h's flight to cell c (``rider`` along) takes off, times ``w_death`` and
    ``refuge_risk``: counted again beyond the places' values, since a pawn dying between storm cards loses the game
    then and there, with no turn left to walk to water."""
    weight = v.w["refuge_risk"]
    if weight == 0:
        return 0.0
    pos = v.s.pos[:]
    before = v.team_risk(pos)
    pos[h] = c
    if rider != NOBODY:
        pos[rider] = c
    return weight * v.w["w_death"] * (before - v.team_risk(pos))


def jet_rider(v: View, h: int, c: int) -> tuple[int, float]:
    """The pawn of holder h's tile that gains most by flying with it to cell c, and its gain (NOBODY, 0.0: none
    gains)."""
    s = v.s
    x = s.pos[h]
    rider, most = NOBODY, 0.0
    for q in range(v.n):
        if q != h and s.pos[q] == x:
            g = v.place_value(q, c) - v.place_value(q, x)
            if g > most:
                rider, most = q, g
    return rider, most


def _jet_giver(v: View, h: int, best: tuple[float, Action] | None) -> tuple[float, Action] | None:
    """The flight of holder h, with water to give, onto the tile of a dry pawn out of the shade, if it beats
    ``best``: h's place there against where it stands (the team's thirst risk in it), less the card."""
    s, w = v.s, v.w
    x = s.pos[h]
    here = -1e18
    for q in range(v.n):
        c = s.pos[q]
        if c == x or s.water[q] > w["refuge_water"] or s.water[h] < s.water[q] + 2 or s.sand[c] >= 2 or v.shaded(c):
            continue
        if here == -1e18:
            here = v.place_value(h, x)
        gain = v.place_value(h, c) - here - w["jet_cost"] + _risk_taken_off(v, h, NOBODY, c)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, (JET, h, c, NOBODY))
    return best


def _jet_win(v: View, holders: list[int]) -> Action | None:
    """Every part collected: fly the pawns still away to the known, unblocked Launch Pad when the jets there
    bring all of them now, or all but those the current pawn's turn brings there too (``jet_walk``: gear is played
    at any time, and the team takes off as the last pawn arrives)."""
    s = v.s
    pad = v.pad
    if v.collected < 4 or pad < 0 or s.sand[pad] >= 2:
        return None
    away = [q for q in range(v.n) if s.pos[q] != pad]
    jets = [h for h in holders if s.hands[h][JET_PACK] and not (s.buried(h) and not s.rules.jet_pack_when_buried)]
    # each jet brings its holder and one pawn of its tile; check the away pawns can all be carried
    left = set(away)
    plan = []
    for h in jets:
        if h not in left:
            continue
        left.discard(h)
        rider = next((q for q in sorted(left) if s.pos[q] == s.pos[h]), NOBODY)
        left.discard(rider)
        plan.append((JET, h, pad, rider))
    if not plan:
        return None
    if not left or v.w["jet_walk"] and s.phase == ACTIONS and s.actions_left > 0 and _turn_takes_off(v, plan, left):
        return plan[0]
    return None


def _turn_takes_off(v: View, jets: list[Action], left: set[int]) -> bool:
    """Whether, once the ``jets`` have flown, the current pawn's turn brings the pawns still ``left`` onto the
    Launch Pad (walking on, the Navigator pulling, the Climber fetching: ``Planner.take_off``)."""
    s = v.s
    p = s.current
    role = s.roles[p]
    others = len(left) - (1 if p in left else 0)
    # (what take_off can bring besides the current pawn: nobody; the Climber one; the Navigator one an action)
    if others > (s.actions_left if role == NAVIGATOR else 1 if role == CLIMBER else 0) or s.buried(p):
        return False
    after = s.copy()
    for a in jets:
        after.apply(a)  # (gear, actions left: no storm card is drawn, no generator needed; a pawn is still away)
    return bool(Planner(View(after, v.w)).take_off())


def _scope(v: View, holders: list[int]) -> Action | None:
    s, w = v.s, v.w
    if s.phase != ACTIONS:
        return None
    h = next((h for h in holders if s.hands[h][TERRASCOPE]), -1)
    if h < 0:
        return None
    kind = s.kind
    pawns = s.pos
    thirsty = min(s.water) <= w["scope_water"]
    if thirsty and 0 < v.p_well < 1:
        cells = [c for c in range(N_CELLS) if kind[c] == HIDDEN_WATER]
        c = min(cells, key=lambda c: (min(MANHATTAN[c][y] for y in pawns), c))
        return (SCOPE, h, c)
    hidden = [c for c in range(N_CELLS) if kind[c] == HIDDEN]
    missing = _missing(s)
    if hidden and missing <= w["scope_missing"] and len(hidden) > missing:
        c = max(hidden, key=lambda c: (s.sand[c] + min(MANHATTAN[c][y] for y in pawns), -c))
        return (SCOPE, h, c)
    return None


def throttle(v: View, gain: float) -> Action | None:
    """The Time Throttle, at its holder's turn, when two more actions gain enough."""
    s = v.s
    p = s.current
    if s.hands[p][TIME_THROTTLE] and gain > v.w["throttle_cost"]:
        return (THROTTLE, p)
    return None


def jet_targets(v: View) -> list[int]:
    """Cells worth flying the current pawn to: parts to pick up, the tiles of its ``jet_tasks`` most valuable tasks
    (however far), the Launch Pad at the end, water when dry."""
    s = v.s
    p = s.current
    out = {at for at in s.parts if at >= 0 and s.kind[at] != NO_TILE}
    if v.endgame and v.pad >= 0:
        out.add(v.pad)
    if s.water[p] <= v.w["jet_water"]:
        out.update(c for c in range(N_CELLS) if s.kind[c] == HIDDEN_WATER or c in v.wells_dug or c in v.tunnels)
        out.update(s.pos[q] for q in range(v.n) if s.water[q] >= s.water[p] + 2)
    out.update(c for _, c, _ in sorted(v.tasks(p), reverse=True)[: int(v.w["jet_tasks"])])
    x = s.pos[p]
    return sorted(c for c in out if c != x and s.kind[c] != NO_TILE and s.sand[c] < 2)
