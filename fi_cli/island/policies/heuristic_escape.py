"""Escape now: the heuristic player's one exact search, whether the team can lift off before the next draw.

Late in the game a win is often one turn away yet out of sight of the turn planner's scores (a Navigator that
brings the last pawn home while a Helicopter Lift fetches the others, the capture of the last treasure and
the take-off in one turn). The actions phase holds no chance, so this is a plain depth-first search over the
current player's moves, flights, Navigator moves and capture, with the team's Helicopter Lifts spent at the
end: one carries each group of pawns still away from Fools' Landing, and one more lifts the team off. It runs
only when all four treasures are captured, or the current player holds the last treasure's four cards, and a
bound on the actions still needed cuts almost every branch.
"""

from __future__ import annotations

from ..actions import CAPTURE, FLY, HELI_PLAY, LIFT_OFF, MOVE, NAVIGATE, Action
from ..engine import ACTIONS, FLOOD, GameState
from ..tiles import FOOLS_LANDING, HELICOPTER_LIFT, SUNK, TREASURE_TILES

ALL = 0b1111


def _lifts(s: GameState) -> int:
    return sum([h[HELICOPTER_LIFT] for h in s.hands])


def _missing(s: GameState) -> int:
    """The one treasure not captured yet (-1 when all four are; the first when more are missing)."""
    for x in range(4):
        if not s.captured >> x & 1:
            return x
    return -1


def _groups(s: GameState) -> dict[int, int]:
    """Tile -> the pawns (a bit mask) standing there, for the tiles other than Fools' Landing."""
    groups: dict[int, int] = {}
    for q, x in enumerate(s.pos):
        if x != FOOLS_LANDING:
            groups[x] = groups.get(x, 0) | 1 << q
    return groups


def lift_home(s: GameState) -> Action | None:
    """With all four treasures captured, the next play of a take-off the team's Helicopter Lifts make alone
    (one lift for each group of pawns away from Fools' Landing and one to lift off), or None."""
    if s.captured != ALL or s.phase not in (ACTIONS, FLOOD):
        return None
    groups = _groups(s)
    if len(groups) >= _lifts(s):
        return None
    for h in range(s.n):
        if s.hands[h][HELICOPTER_LIFT]:
            if not groups:
                return (LIFT_OFF, h)
            src = min(groups)
            return (HELI_PLAY, h, groups[src], FOOLS_LANDING)
    return None


def escape_now(s: GameState) -> Action | None:
    """The first play of a take-off the team can make before this turn's draws, or None when there is none."""
    if s.phase != ACTIONS:
        return None
    if s.captured != ALL and (s.captured.bit_count() != 3 or s.hands[s.current][_missing(s)] < s.comp.capture_cards):
        return None
    if not _lifts(s):
        return None
    now = lift_home(s)
    if now is not None:
        return now
    if not s.actions_left:
        return None
    path: list[Action] = []
    if _search(s, path, set()):
        return path[0]
    return None


def _short(s: GameState, groups: dict[int, int], lifts: int) -> bool:
    """Whether even the fewest actions the take-off could still need exceed the actions left: the capture,
    if pending, and one for every pawn the lifts (all but the one kept to lift off) cannot carry from where
    it stands."""
    sizes = sorted((m.bit_count() for m in groups.values()), reverse=True)
    carried = sum(sizes[: max(lifts - 1, 0)])
    need = (0 if s.captured == ALL else 1) + sum(sizes) - carried
    return need > s.actions_left


def _search(s: GameState, path: list[Action], seen: set) -> bool:
    groups = _groups(s)
    lifts = _lifts(s)
    if s.captured == ALL and len(groups) < lifts:
        return True
    if _short(s, groups, lifts):
        return False
    key = (tuple(s.pos), s.actions_left, s.captured, s.flight_used, lifts)  # a lift to the treasure spends one
    if key in seen:
        return False
    seen.add(key)
    for a in _candidates(s):
        nxt = s.copy()
        nxt.apply(a)
        path.append(a)
        if _search(nxt, path, seen):
            return True
        path.pop()
    return False


def _candidates(s: GameState) -> list[Action]:
    """The plays that can bring the take-off nearer: the current player's moves, Navigator moves and capture,
    the Pilot's flight home or to the last treasure, and a lift of the current player to the last treasure."""
    cap = s.capture_now()
    if cap is not None:  # it has to be made here; made first, it leaves every other play open
        return [cap]
    p = s.current
    out: list[Action] = []
    targets: tuple[int, ...] = (FOOLS_LANDING,)
    if s.captured != ALL:
        targets = tuple(t for t in TREASURE_TILES[_missing(s)] if s.tiles[t] != SUNK) + targets
    if s.actions_left:
        for a in s.own_actions():
            k = a[0]
            if k == MOVE or k == NAVIGATE or k == CAPTURE or (k == FLY and a[2] in targets):
                out.append(a)
    if s.captured != ALL and _lifts(s) >= 2:
        for h in range(s.n):
            if s.hands[h][HELICOPTER_LIFT]:
                for t in targets[:-1]:
                    a = (HELI_PLAY, h, 1 << p, t)
                    if s.pos[p] != t and s.is_heli_action(a):
                        out.append(a)
                break
    return out
