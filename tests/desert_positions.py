"""Hand-built Desert positions for the rules tests, written in the position JSON format.

The default board: the storm in the centre (r2c2), the Crash Site on r0c0, the 3 water-drop tiles on r0c4,
r4c0 and r4c4, every other tile desert side up (``hidden``), no sand (all 48 markers in the supply):

          c0            c1      c2      c3      c4
    r0    crash_site    ?       ?       ?       ? water
    r1    ?             ?       ?       ?       ?
    r2    ?             ?       STORM   ?       ?
    r3    ?             ?       ?       ?       ?
    r4    ? water       ?       ?       ?       ? water

``dug`` puts excavated tiles on cells, ``seen`` tiles known but not excavated (a Terrascope's look); a well
or mirage placed there takes the place of a water-drop tile (``water`` names the water-drop cells); hidden tiles
that can only be one kind are written as that kind (known by elimination, as the engine keeps them). Anything
not given is filled in consistently: the gear deck holds every gear card not held or used, the storm deck's
middle every storm card not elsewhere. A given gear deck (or storm deck middle) without the used gear (or the
storm discard) puts every other card there.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from fi_cli.desert.actions import action_text, parse_action
from fi_cli.desert.engine import GameState
from fi_cli.desert.position import FORMAT, from_dict
from fi_cli.desert.rules import RULES_VERSION, Rules
from fi_cli.desert.tiles import (
    CANTEEN,
    CELLS,
    GEAR,
    GEAR_COUNTS,
    KIND_INDEX,
    KINDS,
    PARTS,
    PLAIN_KINDS,
    ROLE_INDEX,
    STORM_CARDS,
    STORM_COUNTS,
    TILE_COUNTS,
)

PLAIN = tuple(KINDS[k] for k in PLAIN_KINDS)

Player = tuple[str, str] | tuple[str, str, dict[str, Any]]


def _rest(total: tuple[int, ...], names: tuple[str, ...], *taken: dict[str, int]) -> dict[str, int]:
    out = {}
    for i, name in enumerate(names):
        k = total[i] - sum(t.get(name, 0) for t in taken)
        assert k >= 0, f"too many {name}"
        if k:
            out[name] = k
    return out


def _eliminate(tiles: dict[str, dict]) -> None:
    """Hidden tiles whose pool holds one kind only are known (as the engine keeps them)."""
    for hidden, pool in (("hidden_water", ("well", "mirage")), ("hidden", PLAIN)):
        left = Counter({k: TILE_COUNTS[KIND_INDEX[k]] for k in pool})
        left.subtract(t["tile"] for t in tiles.values())
        rest = [k for k in pool if left[k] > 0]
        if len(rest) == 1:
            for t in tiles.values():
                if t["tile"] == hidden:
                    t["tile"] = rest[0]


def _tally(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def position(
    players: list[Player],
    *,
    storm: str = "r2c2",
    crash: str = "r0c0",
    water: tuple[str, ...] = ("r0c4", "r4c0", "r4c4"),
    dug: dict[str, str] | None = None,
    seen: dict[str, str] | None = None,
    sand: dict[str, int] | None = None,
    parts: dict[str, str] | None = None,
    level: int = 2,
    current: int = 0,
    phase: str = "actions",
    actions_left: int = 4,
    skipped: int = 0,
    storm_left: int = 0,
    storm_top: list[str] | None = None,
    storm_middle: dict[str, int] | None = None,
    storm_bottom: list[str] | None = None,
    storm_discard: dict[str, int] | None = None,
    storm_drawn: dict[str, int] | None = None,
    looked_at: list[str] | None = None,
    stacked: list[str] | None = None,
    gear_deck: dict[str, int] | None = None,
    gear_used: dict[str, int] | None = None,
    rules: dict[str, Any] | None = None,
    turn: int = 1,
) -> dict[str, Any]:
    """A position document. ``players`` are (role, cell[, {"water": n, "gear": {...}, "shield": bool}])."""
    dug, seen, sand = dict(dug or {}), dict(seen or {}), dict(sand or {})
    tiles = {}
    for c in CELLS:
        if c == storm:
            continue
        if c in dug:
            kind, excavated = dug[c], True
        elif c in seen:
            kind, excavated = seen[c], False
        elif c == crash:
            kind, excavated = "crash_site", False
        elif c in water:
            kind, excavated = "hidden_water", False
        else:
            kind, excavated = "hidden", False
        tiles[c] = {"tile": kind, "excavated": excavated, "sand": sand.get(c, 0)}
    # a well or mirage put elsewhere takes the place of the last water-drop tile(s)
    placed_water = sum(1 for c, t in tiles.items() if t["tile"] in ("well", "mirage") and c not in water)
    for c in reversed(water):
        if placed_water and tiles.get(c, {}).get("tile") == "hidden_water":
            tiles[c]["tile"] = "hidden"
            placed_water -= 1
    _eliminate(tiles)
    players_doc = []
    held: dict[str, int] = {}
    for q, pl in enumerate(players):
        extra = dict(pl[2]) if len(pl) > 2 else {}
        gear = extra.get("gear", {})
        for g, k in gear.items():
            held[g] = held.get(g, 0) + k
        players_doc.append(
            {
                "seat": q,
                "role": pl[0],
                "cell": pl[1],
                "water": extra.get("water", CANTEEN[ROLE_INDEX[pl[0]]]),
                "gear": {g: k for g, k in gear.items() if k},
                "solar_shield": extra.get("shield", False),
            }
        )
    used = dict(gear_used or {})
    gdeck = gear_deck if gear_deck is not None else _rest(GEAR_COUNTS, GEAR, held, used)
    if gear_deck is not None and gear_used is None:  # the given gear deck, every other card used
        used = _rest(GEAR_COUNTS, GEAR, held, gear_deck)
    top, bottom = list(storm_top or []), list(storm_bottom or [])
    discard, drawn = dict(storm_discard or {}), dict(storm_drawn or {})
    window, placed = list(looked_at or []), list(stacked or [])
    middle = storm_middle if storm_middle is not None else _rest(
        STORM_COUNTS, STORM_CARDS, _tally(top + bottom + window + placed), discard, drawn)  # fmt: skip
    if storm_middle is not None and storm_discard is None:  # the given middle, everything else discarded
        discard = _rest(STORM_COUNTS, STORM_CARDS, _tally(top + bottom + window + placed), middle, drawn)
    return {
        "format": FORMAT,
        "game": "desert",
        "rules_version": RULES_VERSION,
        "rules": Rules.from_dict(rules or {}).to_dict(),
        "storm": storm,
        "tiles": tiles,
        "sand_supply": 48 - sum(sand.values()),
        "parts": {p: (parts or {}).get(p, "not_found") for p in PARTS},
        "players": players_doc,
        "gear_deck": gdeck,
        "gear_used": used,
        "storm_level": level,
        "storm_deck": {"top": top, "middle": middle, "bottom": bottom},
        "storm_discard": discard,
        "storm_drawn": drawn,
        "current_player": current,
        "turn": turn,
        "phase": phase,
        "actions_left": actions_left,
        "storm_cards_skipped": skipped,
        "storm_left": storm_left,
        "looked_at": window,
        "stacked": placed,
        "outcome": None,
        "loss_causes": [],
    }


def state(players: list[Player], seed: int = 0, **kw: Any) -> GameState:
    """The position as a live state whose draws come from ``random.Random(seed)``."""
    s = from_dict(position(players, **kw))
    s.rng = random.Random(seed)
    return s


def texts(s: GameState) -> list[str]:
    """The legal actions as sorted texts (duplicates kept, so a duplicate shows up in a comparison)."""
    return sorted(action_text(a) for a in s.legal_actions())


def do(s: GameState, *actions: str) -> GameState:
    """Apply actions given as text, each checked for legality."""
    for a in actions:
        s.apply_checked(parse_action(a))
    return s


def cell(name: str) -> int:
    return CELLS.index(name)


def moves(p: int, *cells: str) -> list[str]:
    return [f"move(p{p}, {c})" for c in cells]


def unblocked_cells(s: GameState, but: tuple[str, ...] = ()) -> list[str]:
    """Every cell with an unblocked tile, except ``but``: the Jet Pack's destinations."""
    return [CELLS[c] for c in range(25) if c != s.storm and s.sand[c] < 2 and CELLS[c] not in but]
