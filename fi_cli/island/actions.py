"""Actions are small tuples; each has exactly one text form that parses back to it.

Forms (pN is the seat of a player; tiles, treasures and cards by id):

    move(p1, temple_of_the_sun)            fly(p0, watchtower)
    navigate(p3, p1, watchtower)           shore_up(p1, cave_of_embers+coral_palace)
    give(p2, p0, crystal_of_fire)          capture(p0, crystal_of_fire)
    play(p3, sandbags, watchtower)         play(p3, helicopter_lift, p0+p1, watchtower)
    play(p3, helicopter_lift, lift_off)    end_actions(p0)
    discard(p2, sandbags)                  draw_flood
    swim(p1, watchtower)
"""

from __future__ import annotations

import re
from typing import Final

from .tiles import CARD_INDEX, CARDS, TILE_INDEX, TILES, TREASURE_INDEX, TREASURES

MOVE: Final = 0
FLY: Final = 1
NAVIGATE: Final = 2
SHORE_UP: Final = 3
GIVE: Final = 4
CAPTURE: Final = 5
SANDBAGS_PLAY: Final = 6
HELI_PLAY: Final = 7
LIFT_OFF: Final = 8
END_ACTIONS: Final = 9
DISCARD: Final = 10
DRAW_FLOOD: Final = 11
SWIM: Final = 12

Action = tuple[int, ...]  # (kind, player, ...): every field an int

NO_TILE: Final = -1


class ActionParseError(ValueError):
    """Text that is not an action of the notation."""


def _pawns(mask: int) -> str:
    return "+".join(f"p{i}" for i in range(4) if mask >> i & 1)


def action_text(a: Action) -> str:
    """The one text form of an action."""
    k = a[0]
    if k == MOVE:
        return f"move(p{a[1]}, {TILES[a[2]]})"
    if k == SHORE_UP:
        tiles = TILES[a[2]] if a[3] == NO_TILE else f"{TILES[a[2]]}+{TILES[a[3]]}"
        return f"shore_up(p{a[1]}, {tiles})"
    if k == FLY:
        return f"fly(p{a[1]}, {TILES[a[2]]})"
    if k == NAVIGATE:
        return f"navigate(p{a[1]}, p{a[2]}, {TILES[a[3]]})"
    if k == GIVE:
        return f"give(p{a[1]}, p{a[2]}, {TREASURES[a[3]]})"
    if k == CAPTURE:
        return f"capture(p{a[1]}, {TREASURES[a[2]]})"
    if k == SANDBAGS_PLAY:
        return f"play(p{a[1]}, sandbags, {TILES[a[2]]})"
    if k == HELI_PLAY:
        return f"play(p{a[1]}, helicopter_lift, {_pawns(a[2])}, {TILES[a[3]]})"
    if k == LIFT_OFF:
        return f"play(p{a[1]}, helicopter_lift, lift_off)"
    if k == END_ACTIONS:
        return f"end_actions(p{a[1]})"
    if k == DISCARD:
        return f"discard(p{a[1]}, {CARDS[a[2]]})"
    if k == DRAW_FLOOD:
        return "draw_flood"
    if k == SWIM:
        return f"swim(p{a[1]}, {TILES[a[2]]})"
    raise ValueError(f"not an action: {a!r}")


_FORM = re.compile(r"^\s*([a-z_]+)\s*(?:\((.*)\))?\s*$")


def _player(s: str) -> int:
    if not re.fullmatch(r"p[0-3]", s):
        raise ActionParseError(f"{s!r} is not a player (p0 to p3)")
    return int(s[1])


def _lookup(table: dict[str, int], s: str, what: str) -> int:
    if s not in table:
        raise ActionParseError(f"{s!r} is not a {what}; {what}s are: {', '.join(table)}")
    return table[s]


def _tile(s: str) -> int:
    return _lookup(TILE_INDEX, s, "tile")


def parse_action(text: str) -> Action:
    """Parse the text form back into an action; ActionParseError says what is wrong."""
    m = _FORM.match(text)
    if not m:
        raise ActionParseError(f"{text!r} is not an action; expected a form like move(p1, watchtower)")
    name, inner = m.group(1), m.group(2)
    args = [x.strip() for x in inner.split(",")] if inner and inner.strip() else []

    def need(n: int) -> None:
        if len(args) != n:
            raise ActionParseError(f"{name} takes {n} argument(s), got {len(args)} in {text!r}")

    if name == "draw_flood":
        need(0)
        return (DRAW_FLOOD,)
    if name in ("move", "fly", "swim"):
        need(2)
        return ({"move": MOVE, "fly": FLY, "swim": SWIM}[name], _player(args[0]), _tile(args[1]))
    if name == "navigate":
        need(3)
        return (NAVIGATE, _player(args[0]), _player(args[1]), _tile(args[2]))
    if name == "shore_up":
        need(2)
        parts = args[1].split("+")
        if len(parts) > 2:
            raise ActionParseError(f"shore_up takes one or two tiles, got {args[1]!r}")
        tiles = sorted(_tile(t.strip()) for t in parts)
        if len(tiles) == 2 and tiles[0] == tiles[1]:
            raise ActionParseError(f"shore_up names the same tile twice in {text!r}")
        return (SHORE_UP, _player(args[0]), tiles[0], tiles[1] if len(tiles) == 2 else NO_TILE)
    if name == "give":
        need(3)
        return (GIVE, _player(args[0]), _player(args[1]), _lookup(TREASURE_INDEX, args[2], "treasure"))
    if name == "capture":
        need(2)
        return (CAPTURE, _player(args[0]), _lookup(TREASURE_INDEX, args[1], "treasure"))
    if name == "end_actions":
        need(1)
        return (END_ACTIONS, _player(args[0]))
    if name == "discard":
        need(2)
        return (DISCARD, _player(args[0]), _lookup(CARD_INDEX, args[1], "card"))
    if name == "play":
        if len(args) < 3:
            raise ActionParseError(f"play takes a player, a card and its target, got {text!r}")
        p = _player(args[0])
        if args[1] == "sandbags":
            need(3)
            return (SANDBAGS_PLAY, p, _tile(args[2]))
        if args[1] == "helicopter_lift":
            if len(args) == 3 and args[2] == "lift_off":
                return (LIFT_OFF, p)
            need(4)
            mask = 0
            for s in args[2].split("+"):
                bit = 1 << _player(s.strip())
                if mask & bit:
                    raise ActionParseError(f"a pawn is named twice in {text!r}")
                mask |= bit
            return (HELI_PLAY, p, mask, _tile(args[3]))
        raise ActionParseError(f"only sandbags and helicopter_lift can be played, got {args[1]!r}")
    raise ActionParseError(
        f"unknown action {name!r}; actions are: move, fly, navigate, shore_up, give, capture, play, "
        "end_actions, discard, draw_flood, swim"
    )
