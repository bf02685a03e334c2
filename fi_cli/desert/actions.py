"""Actions are small tuples; each has exactly one text form that parses back to it.

Forms (pN is the seat of a player, cells are rRcC with row 0 the north edge; an optional last pawn is the
one carried along by a Climber or a Jet Pack):

    move(p1, r2c3)                    move(p1, r2c3, p0)            (Climber carrying p0)
    remove_sand(p1, r1c3)             excavate(p1)                  pick_up(p1, engine)
    navigate(p4, p1, r0c0)            navigate(p4, p1, r0c0, p4)    (moving a Climber who carries p4)
    reduce_storm(p3)                  peek_storm(p3)                to_bottom(p3, 1)      keep_top(p3)
    stack(p3, sun_beats_down)         take_water(p4)                give_water(p0, p1)    give_gear(p0, p1, jet_pack)
    play(p0, dune_blaster, r1c2)      play(p0, jet_pack, r4c4)      play(p0, jet_pack, r4c4, p2)
    play(p0, solar_shield)            play(p0, terrascope, r3c0)    play(p0, secret_water_reserve)
    play(p0, time_throttle)           end_actions(p0)               draw_storm
"""

from __future__ import annotations

import re
from typing import Final

from .tiles import CELL_INDEX, CELLS, GEAR, GEAR_INDEX, PART_INDEX, PARTS, STORM_CARD_INDEX, STORM_CARDS

MOVE: Final = 0
REMOVE_SAND: Final = 1
EXCAVATE: Final = 2
PICK_UP: Final = 3
NAVIGATE: Final = 4
REDUCE_STORM: Final = 5
PEEK_STORM: Final = 6
TO_BOTTOM: Final = 7
KEEP_TOP: Final = 8
STACK: Final = 9
TAKE_WATER: Final = 10
GIVE_WATER: Final = 11
GIVE_GEAR: Final = 12
BLAST: Final = 13
JET: Final = 14
SHIELD: Final = 15
SCOPE: Final = 16
RESERVE: Final = 17
THROTTLE: Final = 18
END_ACTIONS: Final = 19
DRAW_STORM: Final = 20
NOBODY: Final = -1  # no pawn carried along

Action = tuple

# gear plays: the action kind of each gear card and what it takes after the player
_PLAYS = {
    BLAST: ("dune_blaster", "cell"),
    JET: ("jet_pack", "cell+pawn"),
    SHIELD: ("solar_shield", ""),
    SCOPE: ("terrascope", "cell"),
    RESERVE: ("secret_water_reserve", ""),
    THROTTLE: ("time_throttle", ""),
}
_PLAY_OF = {card: (kind, args) for kind, (card, args) in _PLAYS.items()}
_SEAT_ONLY = {REDUCE_STORM: "reduce_storm", PEEK_STORM: "peek_storm", KEEP_TOP: "keep_top", EXCAVATE: "excavate",
              TAKE_WATER: "take_water", END_ACTIONS: "end_actions"}  # fmt: skip
_SEAT_ONLY_OF = {name: kind for kind, name in _SEAT_ONLY.items()}


class ActionParseError(ValueError):
    """Text that is not an action of the notation."""


def _carried(q: int) -> str:
    return "" if q == NOBODY else f", p{q}"


def action_text(a: Action) -> str:
    """The one text form of an action."""
    k = a[0]
    if k == MOVE:
        return f"move(p{a[1]}, {CELLS[a[2]]}{_carried(a[3])})"
    if k in _SEAT_ONLY:
        return f"{_SEAT_ONLY[k]}(p{a[1]})"
    if k == REMOVE_SAND:
        return f"remove_sand(p{a[1]}, {CELLS[a[2]]})"
    if k == PICK_UP:
        return f"pick_up(p{a[1]}, {PARTS[a[2]]})"
    if k == NAVIGATE:
        return f"navigate(p{a[1]}, p{a[2]}, {CELLS[a[3]]}{_carried(a[4])})"
    if k == TO_BOTTOM:
        return f"to_bottom(p{a[1]}, {a[2]})"
    if k == STACK:
        return f"stack(p{a[1]}, {STORM_CARDS[a[2]]})"
    if k == GIVE_WATER:
        return f"give_water(p{a[1]}, p{a[2]})"
    if k == GIVE_GEAR:
        return f"give_gear(p{a[1]}, p{a[2]}, {GEAR[a[3]]})"
    if k in _PLAYS:
        card, args = _PLAYS[k]
        rest = f", {CELLS[a[2]]}" if args == "cell" else f", {CELLS[a[2]]}{_carried(a[3])}" if args else ""
        return f"play(p{a[1]}, {card}{rest})"
    if k == DRAW_STORM:
        return "draw_storm"
    raise ValueError(f"not an action: {a!r}")


_FORM = re.compile(r"^\s*([a-z_]+)\s*(?:\((.*)\))?\s*$")


def _player(s: str) -> int:
    if not re.fullmatch(r"p[0-4]", s):
        raise ActionParseError(f"{s!r} is not a player (p0 to p4)")
    return int(s[1])


def _lookup(table: dict[str, int], s: str, what: str) -> int:
    if s not in table:
        raise ActionParseError(f"{s!r} is not a {what}; {what}s are: {', '.join(table)}")
    return table[s]


def _cell(s: str) -> int:
    if s not in CELL_INDEX:
        raise ActionParseError(f"{s!r} is not a cell; cells are r0c0 to r4c4 (row 0 is the north edge)")
    return CELL_INDEX[s]


def parse_action(text: str) -> Action:
    """Parse the text form back into an action; ActionParseError says what is wrong."""
    m = _FORM.match(text)
    if not m:
        raise ActionParseError(f"{text!r} is not an action; expected a form like move(p1, r2c3)")
    name, inner = m.group(1), m.group(2)
    args = [x.strip() for x in inner.split(",")] if inner and inner.strip() else []

    def need(*counts: int) -> None:
        if len(args) not in counts:
            want = " or ".join(str(c) for c in counts)
            raise ActionParseError(f"{name} takes {want} argument(s), got {len(args)} in {text!r}")

    def carried(i: int) -> int:
        return _player(args[i]) if len(args) > i else NOBODY

    if name == "draw_storm":
        need(0)
        return (DRAW_STORM,)
    if name in _SEAT_ONLY_OF:
        need(1)
        return (_SEAT_ONLY_OF[name], _player(args[0]))
    if name == "move":
        need(2, 3)
        return (MOVE, _player(args[0]), _cell(args[1]), carried(2))
    if name == "remove_sand":
        need(2)
        return (REMOVE_SAND, _player(args[0]), _cell(args[1]))
    if name == "pick_up":
        need(2)
        return (PICK_UP, _player(args[0]), _lookup(PART_INDEX, args[1], "part"))
    if name == "navigate":
        need(3, 4)
        return (NAVIGATE, _player(args[0]), _player(args[1]), _cell(args[2]), carried(3))
    if name == "to_bottom":
        need(2)
        if not re.fullmatch(r"[0-5]", args[1]):
            raise ActionParseError(f"to_bottom names a looked-at card by its place from the top, 0-5, got {args[1]!r}")
        return (TO_BOTTOM, _player(args[0]), int(args[1]))
    if name == "stack":
        need(2)
        return (STACK, _player(args[0]), _lookup(STORM_CARD_INDEX, args[1], "storm card"))
    if name == "give_water":
        need(2)
        return (GIVE_WATER, _player(args[0]), _player(args[1]))
    if name == "give_gear":
        need(3)
        return (GIVE_GEAR, _player(args[0]), _player(args[1]), _lookup(GEAR_INDEX, args[2], "gear card"))
    if name == "play":
        if len(args) < 2:
            raise ActionParseError(f"play takes a player and a gear card, got {text!r}")
        p = _player(args[0])
        kind, takes = _PLAY_OF.get(args[1], (None, ""))
        if kind is None:
            _lookup(GEAR_INDEX, args[1], "gear card")
        if takes == "cell":
            need(3)
            return (kind, p, _cell(args[2]))
        if takes == "cell+pawn":
            need(3, 4)
            return (kind, p, _cell(args[2]), carried(3))
        need(2)
        return (kind, p)
    raise ActionParseError(
        f"unknown action {name!r}; actions are: move, remove_sand, excavate, pick_up, navigate, reduce_storm, "
        "peek_storm, to_bottom, keep_top, stack, take_water, give_water, give_gear, play, end_actions, draw_storm"
    )
