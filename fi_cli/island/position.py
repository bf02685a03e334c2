"""The position format: a JSON document that writes and reads any position exactly.

The draw piles are written as what the players know of them: the treasure draw pile as card counts (its
order is unknown), the flood draw pile as segments from the top, each a set of tiles in unknown order.
The game's generator is not part of a position: applying an action that draws cards needs a seed.
"""

from __future__ import annotations

import json
from typing import Any

from ..common.documents import PositionError, Reader, compact_json, parse_json
from .board import Board
from .engine import PHASES, GameState
from .layouts import Layout, LayoutError
from .rules import RULES_VERSION, Rules, RulesError
from .tiles import CARDS, DECK_COUNTS, ROLE_INDEX, ROLES, SUNK, TILE_INDEX, TILE_STATES, TILES, TREASURES

FORMAT = "fi-position-1"

__all__ = ["FORMAT", "PositionError", "dumps", "from_dict", "loads", "to_dict"]


def _counts(values: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return {names[i]: v for i, v in enumerate(values) if v}


def to_dict(s: GameState) -> dict[str, Any]:
    """The position as a JSON-ready dict (no generator: nothing hidden is written)."""
    layout = s.board.layout
    return {
        "format": FORMAT,
        "rules_version": RULES_VERSION,
        "rules": s.rules.to_dict(),
        "layout": {
            "id": layout.id,
            "name": layout.name,
            "rows": layout.rows(),
            "pins": {t: list(c) for t, c in layout.pins.items()},
        },
        "placement": {TILES[t]: list(s.board.cell_of[t]) for t in range(len(TILES))},
        "tiles": {TILES[t]: TILE_STATES[s.tiles[t]] for t in range(len(TILES))},
        "players": [
            {"seat": q, "role": ROLES[s.roles[q]], "tile": TILES[s.pos[q]], "hand": _counts(s.hands[q], CARDS)}
            for q in range(s.n)
        ],
        "treasure_deck": _counts(s.tdeck, CARDS),
        "treasure_discard": _counts(s.tdiscard, CARDS),
        "flood_deck": [sorted(TILES[t] for t in seg) for seg in reversed(s.fdeck)],
        "flood_discard": [TILES[t] for t in s.fdiscard],
        "water_level": s.water,
        "captured": [TREASURES[i] for i in range(4) if s.captured >> i & 1],
        "current_player": s.current,
        "turn": s.turn,
        "phase": PHASES[s.phase],
        "actions_left": s.actions_left,
        "pilot_flight_used": s.flight_used,
        "discarder": s.discarder if s.discarder >= 0 else None,
        "resume": PHASES[s.resume],
        "draws_left": s.draws_left,
        "flood_left": s.flood_left,
        "swimmers": list(s.swimmers),
        "sinking": TILES[s.sinking] if s.sinking >= 0 else None,
        "outcome": s.outcome,
        "loss_causes": list(s.loss_causes),
    }


def dumps(s: GameState) -> str:
    """The position as JSON text, one key per line, short lists kept on one line."""
    return compact_json(to_dict(s))


def from_dict(doc: Any, source: str = "position") -> GameState:
    """Read a position; every inconsistency raises PositionError naming the key."""
    r = Reader(doc, source)
    fmt = r.get("format", str)
    if fmt != FORMAT:
        raise r.fail("format", f"expected {FORMAT!r}, got {fmt!r}")
    try:
        rules = Rules.from_dict(r.get("rules", dict, {}))
    except (RulesError, TypeError) as e:
        raise r.fail("rules", str(e)) from None
    lay = r.get("layout", dict)
    try:
        rows = lay["rows"]
        layout = Layout.from_rows(
            str(lay.get("id", "custom")), list(rows), name=str(lay.get("name", "")),
            pins={t: tuple(c) for t, c in (lay.get("pins") or {}).items()},
        )  # fmt: skip
    except (KeyError, TypeError, LayoutError) as e:
        raise r.fail("layout", f"not a valid layout ({e})") from None
    placement_doc = r.get("placement", dict)
    cell_tile: dict[tuple[int, int], int] = {}
    for name, cell in placement_doc.items():
        t = r.name("placement", name, TILE_INDEX, "tile")
        if not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
            raise r.fail("placement", f"cell of {name} must be [row, col], got {json.dumps(cell)}")
        cell_tile[tuple(cell)] = t
    if sorted(cell_tile) != list(layout.cells) or len(set(cell_tile.values())) != len(TILES):
        raise r.fail("placement", "must put each of the 24 tiles on a distinct cell of the layout")
    for tile, cell in layout.pins.items():
        if cell_tile.get(cell) != TILE_INDEX[tile]:
            raise r.fail("placement", f"{tile} is pinned to {list(cell)} by the layout but placed elsewhere")
    s = GameState.__new__(GameState)
    s.rules = rules
    s.board = Board(layout, tuple(cell_tile[c] for c in layout.cells), rules)
    tiles_doc = r.get("tiles", dict)
    state_index = {name: i for i, name in enumerate(TILE_STATES)}
    s.tiles = [0] * len(TILES)
    for name in TILES:
        if name not in tiles_doc:
            raise r.fail("tiles", f"state of {name} is missing")
        s.tiles[TILE_INDEX[name]] = r.name("tiles", tiles_doc[name], state_index, "tile state")
    players = r.get("players", list)
    if not 2 <= len(players) <= 4:
        raise r.fail("players", f"2 to 4 players, got {len(players)}")
    s.n = len(players)
    roles, s.pos, s.hands = [], [], []
    for q, pl in enumerate(players):
        pr = Reader(pl, f"{source}: players[{q}]")
        if pr.get("seat", int) != q:
            raise r.fail("players", f"players must be listed by seat 0..{s.n - 1}")
        roles.append(pr.name("role", pr.get("role", str), ROLE_INDEX, "role"))
        s.pos.append(pr.name("tile", pr.get("tile", str), TILE_INDEX, "tile"))
        s.hands.append(pr.counts("hand", pr.get("hand", dict), {c: i for i, c in enumerate(CARDS[:6])}, 6))
    if len(set(roles)) != len(roles):
        raise r.fail("players", "each player plays a distinct role")
    s.roles = tuple(roles)
    card_index = {c: i for i, c in enumerate(CARDS)}
    s.tdeck = r.counts("treasure_deck", r.get("treasure_deck", dict), card_index, 7)
    s.tdiscard = r.counts("treasure_discard", r.get("treasure_discard", dict), card_index, 7)
    s.fdeck = []
    for seg in reversed(r.get("flood_deck", list)):
        if not isinstance(seg, list) or not seg:
            raise r.fail("flood_deck", f"each segment is a non-empty list of tiles, got {json.dumps(seg)}")
        s.fdeck.append([r.name("flood_deck", t, TILE_INDEX, "tile") for t in seg])
    s.fdiscard = [r.name("flood_discard", t, TILE_INDEX, "tile") for t in r.get("flood_discard", list)]
    s.water = r.get("water_level", int)
    if not 1 <= s.water <= 10:
        raise r.fail("water_level", f"must be 1-10, got {s.water}")
    s.captured = 0
    for name in r.get("captured", list):
        s.captured |= 1 << r.name("captured", name, {t: i for i, t in enumerate(TREASURES)}, "treasure")
    s.current = r.get("current_player", int)
    if not 0 <= s.current < s.n:
        raise r.fail("current_player", f"must be a seat 0-{s.n - 1}, got {s.current}")
    s.turn = r.get("turn", int)
    phase_index = {p: i for i, p in enumerate(PHASES)}
    s.phase = r.name("phase", r.get("phase", str), phase_index, "phase")
    s.actions_left = r.get("actions_left", int)
    if not 0 <= s.actions_left <= 3:
        raise r.fail("actions_left", f"must be 0-3, got {s.actions_left}")
    s.flight_used = r.get("pilot_flight_used", bool)
    d = r.get("discarder", (int, type(None)), None)
    s.discarder = -1 if d is None else d
    s.resume = r.name("resume", r.get("resume", str, "actions"), phase_index, "phase")
    s.draws_left = r.get("draws_left", int, 0)
    s.flood_left = r.get("flood_left", int, 0)
    s.swimmers = list(r.get("swimmers", list, []))
    sinking = r.get("sinking", (str, type(None)), None)
    s.sinking = -1 if sinking is None else r.name("sinking", sinking, TILE_INDEX, "tile")
    s.outcome = r.get("outcome", (str, type(None)), None)
    s.loss_causes = tuple(r.get("loss_causes", list, []))
    s.rng = None
    s.stats = None
    _check_consistent(s, r)
    return s


def _check_consistent(s: GameState, r: Reader) -> None:
    """Cards conserved, flood cards exactly for the tiles above water, pawns on tiles, a sane phase."""
    for c in range(7):  # a capture discards its 4 cards (rule 5): a captured treasure holds no cards
        held = sum(h[c] for h in s.hands) if c < 6 else 0
        total = s.tdeck[c] + s.tdiscard[c] + held
        if total != DECK_COUNTS[c]:
            raise r.fail(
                "treasure_deck",
                f"there are {DECK_COUNTS[c]} {CARDS[c]} cards; deck, discard and hands hold {total}",
            )
    cards = [t for seg in s.fdeck for t in seg] + s.fdiscard
    alive = sorted(t for t in range(len(TILES)) if s.tiles[t] != SUNK)
    if sorted(cards) != alive:
        raise r.fail("flood_deck", "flood deck and discard must hold exactly one card per tile that has not sunk")
    for q, x in enumerate(s.pos):
        if s.tiles[x] == SUNK and q not in s.swimmers and s.outcome is None:
            raise r.fail("players", f"p{q} stands on {TILES[x]}, which has sunk")
    if any(type(q) is not int or not 0 <= q < s.n for q in s.swimmers):
        raise r.fail("swimmers", f"must be seats 0-{s.n - 1}")
    if PHASES[s.phase] == "swim" and (not s.swimmers or s.sinking < 0):
        raise r.fail("phase", "a swim decision needs swimmers and a sinking tile")
    if PHASES[s.phase] == "discard" and not 0 <= s.discarder < s.n:
        raise r.fail("discarder", "a discard decision needs the seat of the player over the hand limit")


def loads(text: str, source: str = "position") -> GameState:
    """Read a position from JSON text."""
    return from_dict(parse_json(text, source), source)
