"""The Desert position format: a JSON document (``"format": "fd-position-1"``) that writes and reads any
position exactly.

It holds what the team knows and nothing else: a tile whose underside nobody has seen is ``hidden`` (or
``hidden_water`` for the 3 water-drop tiles), the gear deck is card counts, the storm deck is its known top,
a multiset of unknown order and its known bottom. The game's generator is not part of a position: applying
an action that draws cards or excavates a hidden tile needs a seed.
"""

from __future__ import annotations

from typing import Any

from ..common.documents import PositionError, Reader, parse_json, pretty_json, show
from .components import Components
from .engine import COLLECTED, NOT_FOUND, ORDER, PEEK, PHASES, GameState
from .rules import RULES_VERSION, Rules, RulesError
from .tiles import (
    CELL_INDEX,
    CELLS,
    CRASH_SITE,
    GEAR,
    GEAR_INDEX,
    HIDDEN,
    HIDDEN_WATER,
    KIND_INDEX,
    KINDS,
    LOSS_CAUSES,
    N_CELLS,
    NO_TILE,
    PARTS,
    PLAIN_KINDS,
    ROLE_INDEX,
    ROLES,
    SAND_MARKERS,
    STORM_CARD_INDEX,
    STORM_CARDS,
    TILE_COUNTS,
    WATER_KINDS,
)

FORMAT = "fd-position-1"
GAME = "desert"

__all__ = ["FORMAT", "PositionError", "dumps", "from_dict", "loads", "to_dict"]


def _counts(values: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return {names[i]: v for i, v in enumerate(values) if v}


def _part_place(at: int) -> str:
    return "not_found" if at == NOT_FOUND else "collected" if at == COLLECTED else CELLS[at]


def to_dict(s: GameState) -> dict[str, Any]:
    """The position as a JSON-ready dict (no generator: nothing hidden is written). The components are written
    when they differ from the rulebook's (those that do)."""
    return {
        "format": FORMAT,
        "game": GAME,
        "rules_version": RULES_VERSION,
        "rules": s.rules.to_dict(),
        **s.comp.document(),
        "storm": CELLS[s.storm],
        "tiles": {
            CELLS[c]: {"tile": KINDS[s.kind[c]], "excavated": bool(s.dug[c]), "sand": s.sand[c]}
            for c in range(N_CELLS)
            if c != s.storm
        },  # fmt: skip
        "sand_supply": s.supply,
        **({"sand_markers": markers} if (markers := sum(s.sand) + s.supply) != SAND_MARKERS else {}),
        "parts": {PARTS[i]: _part_place(at) for i, at in enumerate(s.parts)},
        "players": [
            {
                "seat": q,
                "role": ROLES[s.roles[q]],
                "cell": CELLS[s.pos[q]],
                "water": s.water[q],
                "gear": _counts(s.hands[q], GEAR),
                "solar_shield": bool(s.shields >> q & 1),
            }
            for q in range(s.n)
        ],  # fmt: skip
        "gear_deck": _counts(s.gdeck, GEAR),
        "gear_used": _counts(s.gused, GEAR),
        "storm_level": s.level,
        "storm_deck": {
            "top": [STORM_CARDS[c] for c in reversed(s.stop)],
            "middle": _counts(s.sdeck, STORM_CARDS),
            "bottom": [STORM_CARDS[c] for c in s.sbottom],
        },
        "storm_discard": _counts(s.sdiscard, STORM_CARDS),
        "storm_drawn": _counts(s.sdrawn, STORM_CARDS),
        "current_player": s.current,
        "turn": s.turn,
        "phase": PHASES[s.phase],
        "actions_left": s.actions_left,
        "storm_cards_skipped": s.skips,
        "storm_left": s.storm_left,
        "looked_at": [STORM_CARDS[c] for c in s.window],
        "stacked": [STORM_CARDS[c] for c in s.placed],
        "outcome": s.outcome,
        "loss_causes": list(s.loss_causes),
    }


def dumps(s: GameState) -> str:
    """The position as JSON text: one key per line, each tile and each short list on one line."""
    return pretty_json(to_dict(s), flat_objects=True)


KEYS = ("format", "game", "rules_version", "rules", "components", "storm", "tiles", "sand_supply", "sand_markers",
        "parts", "players", "gear_deck", "gear_used", "storm_level", "storm_deck", "storm_discard", "storm_drawn",
        "current_player", "turn", "phase", "actions_left", "storm_cards_skipped", "storm_left", "looked_at", "stacked",
        "outcome", "loss_causes")  # fmt: skip
_TILE_KEYS = ("tile", "excavated", "sand")
_PLAYER_KEYS = ("seat", "role", "cell", "water", "gear", "solar_shield")
_DECK_KEYS = ("top", "middle", "bottom")


def from_dict(doc: Any, source: str = "position") -> GameState:
    """Read a position; every inconsistency raises PositionError naming the key."""
    r = Reader(doc, source, KEYS)
    fmt = r.get("format", str)
    if fmt != FORMAT:
        raise r.fail("format", f"expected {FORMAT!r}, got {show(fmt)}")
    if r.get("game", str) != GAME:
        raise r.fail("game", f"a {FORMAT} position is of the game {GAME!r}")
    r.get("rules_version", str, None)
    try:
        rules = Rules.from_dict(r.get("rules", dict, {}))
    except (RulesError, TypeError) as e:
        raise r.fail("rules", str(e)) from None
    s = GameState.__new__(GameState)
    s.rules = rules
    s.comp = r.components(Components)
    s.rng = None
    s.stats = None
    _read_board(s, r)
    _read_players(s, r)
    _read_decks(s, r)
    s.current = r.number("current_player", 0, s.n - 1, why=" (a seat)")
    s.turn = r.number("turn", 1, 10**9)
    s.phase = r.name("phase", r.get("phase", str), {p: i for i, p in enumerate(PHASES)}, "phase")
    most = s.comp.actions_per_turn + 2 * s.comp.time_throttle
    s.actions_left = r.number("actions_left", 0, most, why=f" ({s.comp.actions_per_turn}, and 2 more with each Time "
                                                           "Throttle)")
    s.skips = r.number("storm_cards_skipped", 0, max(s.track))
    s.storm_left = r.number("storm_left", 0, max(s.track))
    cards = {c: i for i, c in enumerate(STORM_CARDS)}
    s.window = [r.name("looked_at", c, cards, "storm card") for c in r.get("looked_at", list)]
    s.placed = [r.name("stacked", c, cards, "storm card") for c in r.get("stacked", list)]
    s.outcome = r.get("outcome", (str, type(None)))
    if s.outcome not in (None, "win", "loss"):
        raise r.fail("outcome", f'must be null, "win" or "loss", got {show(s.outcome)}')
    causes = r.names("loss_causes", {c: i for i, c in enumerate(LOSS_CAUSES)}, "loss cause")
    s.loss_causes = tuple(LOSS_CAUSES[i] for i in causes)
    _check_consistent(s, r)
    return s


def _cell(r: Reader, key: str, value: Any) -> int:
    return r.name(key, value, CELL_INDEX, "cell")


def _read_board(s: GameState, r: Reader) -> None:
    s.storm = _cell(r, "storm", r.get("storm", str))
    tiles = r.get("tiles", dict)
    expected = [CELLS[c] for c in range(N_CELLS) if c != s.storm]
    if sorted(tiles) != sorted(expected):
        raise r.fail("tiles", "must describe the 24 cells other than the storm, each once (cells r0c0 to r4c4)")
    s.kind, s.dug, s.sand = [NO_TILE] * N_CELLS, [0] * N_CELLS, [0] * N_CELLS
    # the rules' 48, or the total of a game set up with another sand supply
    markers = r.number("sand_markers", 0, 10**6, SAND_MARKERS)
    for name, tile in tiles.items():
        key = f"tiles.{name}"
        t = Reader(tile, r.source, _TILE_KEYS, key)
        c = CELL_INDEX[name]
        s.kind[c] = t.name("tile", t.get("tile", str), KIND_INDEX, "tile")
        s.dug[c] = int(t.get("excavated", bool))
        s.sand[c] = t.number("sand", 0, markers)
        if s.dug[c] and s.kind[c] >= HIDDEN_WATER:
            raise r.fail(key, "an excavated tile shows its underside: it cannot be hidden")
    s.supply = r.number("sand_supply", 0, markers)
    if sum(s.sand) + s.supply != markers:
        raise r.fail("sand_supply", f"there are {markers} sand markers; the tiles and the supply hold "
                                    f"{sum(s.sand) + s.supply}")  # fmt: skip
    if s.kind.count(CRASH_SITE) != 1:
        raise r.fail("tiles", "there is exactly one crash_site (it is recognisable desert side up)")
    for kinds, hidden in ((WATER_KINDS, HIDDEN_WATER), (PLAIN_KINDS, HIDDEN)):
        left = [TILE_COUNTS[k] - s.kind.count(k) for k in kinds]
        for k, m in zip(kinds, left, strict=True):
            if m < 0:
                raise r.fail("tiles", f"there are {TILE_COUNTS[k]} {KINDS[k]} tile(s), the position has "
                                      f"{TILE_COUNTS[k] - m}")  # fmt: skip
        if sum(left) != s.kind.count(hidden):
            total = sum(TILE_COUNTS[k] for k in kinds)
            raise r.fail("tiles", f"{total} tiles are {'/'.join(KINDS[k] for k in kinds)} or {KINDS[hidden]}, the "
                                  f"position has {total - sum(left) + s.kind.count(hidden)}")  # fmt: skip
        rest = [k for k, m in zip(kinds, left, strict=True) if m]
        if len(rest) == 1:
            raise r.fail("tiles", f"the {KINDS[hidden]} tiles can only be {KINDS[rest[0]]}: known by elimination, "
                                  f"write them as {KINDS[rest[0]]}")  # fmt: skip
    s.parts = []
    parts = r.get("parts", dict)
    if sorted(parts) != sorted(PARTS):
        raise r.fail("parts", f"must give the place of each part: {', '.join(PARTS)}")
    for name in PARTS:
        place = parts[name]
        s.parts.append(NOT_FOUND if place == "not_found" else COLLECTED if place == "collected" else
                       r.name("parts", place, CELL_INDEX, "cell (or not_found, collected)"))  # fmt: skip


def _read_players(s: GameState, r: Reader) -> None:
    players = r.get("players", list)
    if not 2 <= len(players) <= 5:
        raise r.fail("players", f"2 to 5 players, got {len(players)}")
    s.n = len(players)
    roles: list[int] = []
    s.pos, s.water, s.hands, s.shields = [], [], [], 0
    for q, pl in enumerate(players):
        pr = Reader(pl, r.source, _PLAYER_KEYS, f"players[{q}]")
        if pr.get("seat", int) != q:
            raise r.fail("players", f"players must be listed by seat 0..{s.n - 1}")
        role = pr.name("role", pr.get("role", str), ROLE_INDEX, "role")
        roles.append(role)
        s.pos.append(_cell(pr, "cell", pr.get("cell", str)))
        s.water.append(pr.number("water", 0, s.comp.canteens[role], why=f" (the {ROLES[role]}'s canteen)"))
        s.hands.append(pr.counts("gear", pr.get("gear", dict), GEAR_INDEX))
        s.shields |= int(pr.get("solar_shield", bool)) << q
    if len(set(roles)) != len(roles):
        raise r.fail("players", "each player plays a distinct role")
    s.seat(tuple(roles))
    s.track = s.comp.track(s.n)
    s.level = r.get("storm_level", int)
    if not 1 <= s.level <= len(s.track) + 1:
        raise r.fail("storm_level", f"must be a mark 1-{len(s.track) + 1} of the {s.n}-player storm meter "
                                    f"({len(s.track) + 1} is the skull), got {s.level}")  # fmt: skip


def _read_decks(s: GameState, r: Reader) -> None:
    s.gdeck = r.counts("gear_deck", r.get("gear_deck", dict), GEAR_INDEX)
    s.gused = r.counts("gear_used", r.get("gear_used", dict), GEAR_INDEX)
    deck = Reader(r.get("storm_deck", dict), r.source, _DECK_KEYS, "storm_deck")
    s.stop = [deck.name("top", c, STORM_CARD_INDEX, "storm card") for c in reversed(deck.get("top", list))]
    s.sdeck = deck.counts("middle", deck.get("middle", dict), STORM_CARD_INDEX)
    s.sbottom = [deck.name("bottom", c, STORM_CARD_INDEX, "storm card") for c in deck.get("bottom", list)]
    s.sdiscard = r.counts("storm_discard", r.get("storm_discard", dict), STORM_CARD_INDEX)
    s.sdrawn = r.counts("storm_drawn", r.get("storm_drawn", dict), STORM_CARD_INDEX)


def _check_consistent(s: GameState, r: Reader) -> None:
    """Cards conserved, pawns on tiles, a sane phase and outcome."""
    gear_counts, storm_counts = s.comp.gear_counts, s.comp.storm_counts
    for g in range(len(GEAR)):
        total = s.gdeck[g] + s.gused[g] + sum(h[g] for h in s.hands)
        if total != gear_counts[g]:
            raise r.fail("gear_deck", f"there are {gear_counts[g]} {GEAR[g]} cards; the gear deck, the used gear "
                                      f"and the players hold {total}")  # fmt: skip
    for c in range(len(STORM_CARDS)):
        total = (s.stop.count(c) + s.sdeck[c] + s.sbottom.count(c) + s.sdiscard[c] + s.sdrawn[c] + s.window.count(c)
                 + s.placed.count(c))  # fmt: skip
        if total != storm_counts[c]:
            raise r.fail("storm_deck", f"there are {storm_counts[c]} {STORM_CARDS[c]} cards; the deck, the discard, "
                                       f"the drawn and the looked-at cards hold {total}")  # fmt: skip
    for q, x in enumerate(s.pos):
        if x == s.storm:
            raise r.fail("players", f"p{q} stands on the storm cell {CELLS[x]}: pawns are always on a tile")
    if (s.phase in (PEEK, ORDER)) != bool(s.window):
        raise r.fail("looked_at", "cards are looked at exactly in the peek and order phases")
    if s.placed and s.phase != ORDER:
        raise r.fail("stacked", "cards are stacked only in the order phase")
    if (s.outcome is None) != (PHASES[s.phase] != "over"):
        raise r.fail("outcome", "a game has an outcome exactly when its phase is over")
    if bool(s.loss_causes) != (s.outcome == "loss"):
        raise r.fail("loss_causes", "a lost game has its loss causes, and only a lost game")


def loads(text: str, source: str = "position") -> GameState:
    """Read a position from JSON text."""
    return from_dict(parse_json(text, source), source)
