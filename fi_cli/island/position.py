"""The position format: a JSON document that writes and reads any position exactly.

The draw piles are written as what the players know of them: the treasure draw pile as card counts (its
order is unknown), the flood draw pile as segments from the top, each a set of tiles in unknown order.
The game's generator is not part of a position: applying an action that draws cards needs a seed.
"""

from __future__ import annotations

from typing import Any

from ..common.documents import PositionError, Reader, parse_json, pretty_json, show
from .board import Board
from .components import Components
from .engine import ACTIONS, ALL_TREASURES, DRAW, PHASES, GameState
from .layouts import Layout, LayoutError
from .rules import RULES_VERSION, Rules, RulesError
from .tiles import (
    CARDS,
    FOOLS_LANDING,
    LOSS_CAUSES,
    ROLE_INDEX,
    ROLES,
    SUNK,
    TILE_INDEX,
    TILE_STATES,
    TILES,
    TREASURE_TILES,
    TREASURES,
    WATERS_RISE,
)

FORMAT = "fi-position-1"

__all__ = ["FORMAT", "KEYS", "PositionError", "dumps", "from_dict", "loads", "to_dict"]


def _counts(values: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return {names[i]: v for i, v in enumerate(values) if v}


def to_dict(s: GameState) -> dict[str, Any]:
    """The position as a JSON-ready dict (no generator: nothing hidden is written). The components are written
    when they differ from the rulebook's (those that do)."""
    layout = s.board.layout
    return {
        "format": FORMAT,
        "rules_version": RULES_VERSION,
        "rules": s.rules.to_dict(),
        **s.comp.document(),
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
    """The position as JSON text, one key per line, lists of plain values kept on one line."""
    return pretty_json(to_dict(s))


KEYS = ("format", "rules_version", "rules", "components", "layout", "placement", "tiles", "players", "treasure_deck",
        "treasure_discard", "flood_deck", "flood_discard", "water_level", "captured", "current_player", "turn",
        "phase", "actions_left", "pilot_flight_used", "discarder", "resume", "draws_left", "flood_left",
        "swimmers", "sinking", "outcome", "loss_causes")  # fmt: skip
_LAYOUT_KEYS = ("id", "name", "rows", "pins")
_PLAYER_KEYS = ("seat", "role", "tile", "hand")
_ENDINGS = (None, "win", "loss")
_CAUSES = LOSS_CAUSES + ("turn_limit",)  # the turn limit is the simulator's safety net, not a rule
_DECISIONS = ("actions", "discard", "flood", "swim", "over")  # the draw step is automatic: never a position
_TILE_STATE = {name: i for i, name in enumerate(TILE_STATES)}
_CARD = {c: i for i, c in enumerate(CARDS)}
_HAND_CARD = {c: i for i, c in enumerate(CARDS[:WATERS_RISE])}  # a Waters Rise! is never held
_TREASURE = {t: i for i, t in enumerate(TREASURES)}
_PHASE = {p: i for i, p in enumerate(PHASES)}
_CAUSE = {c: i for i, c in enumerate(_CAUSES)}


def from_dict(doc: Any, source: str = "position") -> GameState:
    """Read a position; a malformed or impossible one raises PositionError naming the key and the rule."""
    r = Reader(doc, source, KEYS)
    fmt = r.get("format", str)
    if fmt != FORMAT:
        raise r.fail("format", f"expected {FORMAT!r}, got {show(fmt)}")
    r.get("rules_version", str, None)
    try:
        rules = Rules.from_dict(r.get("rules", dict, {}))
    except RulesError as e:
        raise r.fail("rules", str(e)) from None
    comp = r.components(Components)
    layout = _layout(r, r.get("layout", dict))
    s = GameState.__new__(GameState)
    s.rules = rules
    s.comp = comp
    s.board = Board(layout, _placement(r, layout), rules)
    tiles_doc = r.get("tiles", dict)
    s.tiles = [0] * len(TILES)
    for name in tiles_doc:
        r.name("tiles", name, TILE_INDEX, "tile")
    for name in TILES:
        if name not in tiles_doc:
            raise r.fail("tiles", f"state of {name} is missing")
        s.tiles[TILE_INDEX[name]] = r.name("tiles", tiles_doc[name], _TILE_STATE, "tile state")
    players = r.get("players", list)
    if not 2 <= len(players) <= 4:
        raise r.fail("players", f"2 to 4 players, got {len(players)}")
    s.n = len(players)
    roles, s.pos, s.hands = [], [], []
    for q, pl in enumerate(players):
        pr = Reader(pl, source, _PLAYER_KEYS, f"players[{q}]")
        if pr.get("seat", int) != q:
            raise r.fail("players", f"players must be listed by seat 0..{s.n - 1}")
        roles.append(pr.name("role", pr.get("role", str), ROLE_INDEX, "role"))
        s.pos.append(pr.name("tile", pr.get("tile", str), TILE_INDEX, "tile"))
        s.hands.append(pr.counts("hand", pr.get("hand", dict), _HAND_CARD))
    if len(set(roles)) != len(roles):
        raise r.fail("players", "each player plays a distinct role")
    s.roles = tuple(roles)
    s.tdeck = r.counts("treasure_deck", r.get("treasure_deck", dict), _CARD)
    s.tdiscard = r.counts("treasure_discard", r.get("treasure_discard", dict), _CARD)
    s.fdeck = []
    for seg in reversed(r.get("flood_deck", list)):
        if not isinstance(seg, list) or not seg:
            raise r.fail("flood_deck", f"each segment is a non-empty list of tiles, got {show(seg)}")
        s.fdeck.append([r.name("flood_deck", t, TILE_INDEX, "tile") for t in seg])
    s.fdiscard = [r.name("flood_discard", t, TILE_INDEX, "tile") for t in r.get("flood_discard", list)]
    s.water = r.number("water_level", 1, comp.skull, why=f" ({comp.skull} is the skull)")
    s.captured = sum(1 << i for i in r.names("captured", _TREASURE, "treasure"))
    s.current = r.number("current_player", 0, s.n - 1, why=" (a seat)")
    s.turn = r.number("turn", 1, rules.turn_limit, why=f" (turns count from 1; the turn limit is {rules.turn_limit})")
    s.phase = r.name("phase", r.get("phase", str), _PHASE, "phase")
    if PHASES[s.phase] not in _DECISIONS:
        raise r.fail("phase", f"the {PHASES[s.phase]} step is automatic: a position is at a decision "
                              f"({', '.join(_DECISIONS[:-1])}) or over")
    s.actions_left = r.number("actions_left", 0, comp.actions_per_turn)
    s.flight_used = r.get("pilot_flight_used", bool)
    d = r.get("discarder", (int, type(None)), None)
    if d is not None and not 0 <= d < s.n:
        raise r.fail("discarder", f"must be a seat 0-{s.n - 1} or null, got {d}")
    s.discarder = -1 if d is None else d
    s.resume = r.name("resume", r.get("resume", str, "actions"), {"actions": ACTIONS, "draw": DRAW}, "phase to resume")
    s.draws_left = r.number("draws_left", 0, comp.treasure_draws, 0, " (treasure cards drawn per turn)")
    s.flood_left = r.number("flood_left", 0, max(comp.flood_draws), 0, " (flood cards drawn per turn)")
    s.swimmers = [r.check("swimmers", q, int, "each swimmer is a seat: ") for q in r.get("swimmers", list, [])]
    if len(set(s.swimmers)) != len(s.swimmers) or any(not 0 <= q < s.n for q in s.swimmers):
        raise r.fail("swimmers", f"must be distinct seats 0-{s.n - 1}, got {show(s.swimmers)}")
    sinking = r.get("sinking", (str, type(None)), None)
    s.sinking = -1 if sinking is None else r.name("sinking", sinking, TILE_INDEX, "tile")
    s.outcome = r.get("outcome", (str, type(None)), None)
    if s.outcome not in _ENDINGS:
        raise r.fail("outcome", f"{show(s.outcome)} is not an outcome; outcomes are: win, loss or null")
    s.loss_causes = tuple(_CAUSES[i] for i in r.names("loss_causes", _CAUSE, "loss cause", []))
    s.rng = None
    s.stats = None
    _check_possible(s, r)
    return s


def _layout(r: Reader, doc: dict) -> Layout:
    lr = Reader(doc, r.source, _LAYOUT_KEYS, "layout")
    rows = lr.get("rows", list)
    for row in rows:
        lr.check("rows", row, str, "each row is text: ")
    pins = {}
    for tile, cell in lr.get("pins", dict, {}).items():
        lr.name("pins", tile, TILE_INDEX, "tile")
        pins[tile] = lr.cell("pins", tile, cell)
    try:
        return Layout.from_rows(lr.get("id", str, "custom"), rows, name=lr.get("name", str, ""), pins=pins)
    except LayoutError as e:
        raise r.fail("layout", f"not a valid layout ({e})") from None


def _placement(r: Reader, layout: Layout) -> tuple[int, ...]:
    """The tile on each cell of the layout, in the layout's cell order."""
    cell_tile: dict[tuple[int, int], int] = {}
    for name, cell in r.get("placement", dict).items():
        t = r.name("placement", name, TILE_INDEX, "tile")
        cell_tile[r.cell("placement", name, cell)] = t
    if sorted(cell_tile) != list(layout.cells) or len(set(cell_tile.values())) != len(TILES):
        raise r.fail("placement", "must put each of the 24 tiles on a distinct cell of the layout")
    for tile, cell in layout.pins.items():
        if cell_tile.get(cell) != TILE_INDEX[tile]:
            raise r.fail("placement", f"{tile} is pinned to {list(cell)} by the layout but placed elsewhere")
    return tuple(cell_tile[c] for c in layout.cells)


def _check_possible(s: GameState, r: Reader) -> None:
    """Refuse what no game can reach, naming the rule: the cards, the piles, the pawns, the phase, the end."""
    phase = PHASES[s.phase]
    counts, limit = s.comp.deck_counts, s.comp.hand_limit
    for c in range(len(CARDS)):  # a capture discards its cards (rule 5): a captured treasure holds no cards
        held = sum(h[c] for h in s.hands) if c < WATERS_RISE else 0
        total = s.tdeck[c] + s.tdiscard[c] + held
        if total != counts[c]:
            raise r.fail("treasure_deck", f"the deck has {counts[c]} {CARDS[c]} cards ({sum(counts)} in all); "
                                          f"draw pile, discard pile and hands hold {total}")
    if not any(s.tdeck):
        raise r.fail("treasure_deck", "the draw pile is never empty: the moment its last card is drawn, the "
                                      "discard pile becomes the new draw pile (rules section 4)")
    for q, hand in enumerate(s.hands):
        if sum(hand) > limit and not (phase == "discard" and q == s.discarder):
            raise r.fail("players", f"p{q} holds {sum(hand)} cards: more than {limit} only while "
                                    f"discarding down to the hand limit (phase discard, discarder {q})")
    if phase == "discard" and (s.discarder < 0 or sum(s.hands[s.discarder]) <= limit):
        raise r.fail("discarder", f"a discard decision needs the seat of a player holding more than {limit} "
                                  "cards")
    cards = [t for seg in s.fdeck for t in seg] + s.fdiscard
    alive = sorted(t for t in range(len(TILES)) if s.tiles[t] != SUNK)
    if sorted(cards) != alive:
        raise r.fail("flood_deck", "flood draw pile and discard pile must hold exactly one card per tile that has "
                                   "not sunk (a sunk tile's card leaves the game)")
    over = s.outcome is not None
    if over != (phase == "over"):
        raise r.fail("phase", f"a game is over exactly when it has an outcome (phase {phase}, outcome "
                              f"{show(s.outcome)})")
    if bool(s.loss_causes) != (s.outcome == "loss"):
        raise r.fail("loss_causes", "a lost game has its causes, and only a lost game")
    if (s.water == s.comp.skull) != ("water_level" in s.loss_causes):
        raise r.fail("water_level", f"the water reaching the skull ({s.comp.skull}) loses the game, with the cause "
                                    "water_level; below it, the water is not a cause")
    if not over:  # a sinking that loses the game ends it at once (rules: losing), so a game going on has none
        if s.tiles[FOOLS_LANDING] == SUNK:
            raise r.fail("tiles", "fools_landing has sunk, which loses the game at once (loss cause "
                                  "fools_landing_sunk), yet the game goes on")
        for tr, (a, b) in enumerate(TREASURE_TILES):
            if not s.captured >> tr & 1 and s.tiles[a] == SUNK and s.tiles[b] == SUNK:
                raise r.fail("tiles", f"both tiles of the {TREASURES[tr]} ({TILES[a]}, {TILES[b]}) have sunk before "
                                      "it was captured, which loses the game at once (loss cause treasure_lost), "
                                      "yet the game goes on")
    if s.outcome == "win" and (s.captured != ALL_TREASURES or any(x != FOOLS_LANDING for x in s.pos)):
        raise r.fail("outcome", "a win needs the four treasures and every pawn on fools_landing")
    if s.sinking >= 0 and s.tiles[s.sinking] != SUNK:
        raise r.fail("sinking", f"{TILES[s.sinking]} is not sunk")
    if phase == "swim" and (not s.swimmers or s.sinking < 0):
        raise r.fail("phase", "a swim decision needs swimmers and the tile that sank under them")
    if s.swimmers and phase not in ("swim", "over"):
        raise r.fail("swimmers", "pawns swim only in the swim decision")
    if s.swimmers and s.sinking < 0:
        raise r.fail("sinking", "swimmers need the tile that sank under them")
    for q in s.swimmers:
        if s.pos[q] != s.sinking:
            raise r.fail("swimmers", f"p{q} is a swimmer but not on the tile that sank ({TILES[s.sinking]})")
    for q, x in enumerate(s.pos):
        if s.tiles[x] == SUNK and q not in s.swimmers and not over:
            raise r.fail("players", f"p{q} stands on {TILES[x]}, which has sunk (only a swimmer may, in the "
                                    "swim decision)")


def loads(text: str, source: str = "position") -> GameState:
    """Read a position from JSON text."""
    return from_dict(parse_json(text, source), source)
