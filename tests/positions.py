"""Hand-built positions for the rules tests, written in the position JSON format.

The default board is the standard island with the tiles laid in the order of ``TILES`` (reading order),
so every test can be checked against this picture (row, column):

            c0                c1                 c2                 c3                 c4              c5
    r0                                           fools_landing      bronze_gate
    r1                        copper_gate        gold_gate          iron_gate          silver_gate
    r2  temple_of_the_moon    temple_of_the_sun  whispering_garden  howling_garden     cave_of_embers  cave_of_shadows
    r3  coral_palace          tidal_palace       breakers_bridge    cliffs_of_abandon  crimson_forest  dunes_of_dec.
    r4                        lost_lagoon        misty_marsh        observatory        phantom_rock
    r5                                           twilight_hollow    watchtower

``VOLCANO_ROWS`` (a 5x5 square with a sea hole in the middle) holds the tiles the same way:

    r0  fools_landing  bronze_gate        copper_gate      gold_gate          iron_gate
    r1  silver_gate    temple_of_the_moon temple_of_the_sun whispering_garden howling_garden
    r2  cave_of_embers cave_of_shadows    (sea)            coral_palace       tidal_palace
    r3  breakers_bridge cliffs_of_abandon crimson_forest   dunes_of_deception lost_lagoon
    r4  misty_marsh    observatory        phantom_rock     twilight_hollow    watchtower

Anything not given is filled in consistently: the treasure draw pile holds every card that is not in a
hand or the treasure discard pile (or, when only the draw pile is given, the discard pile holds the rest;
the four cards of a captured treasure went to the discard pile, rule 5, so a captured treasure needs
nothing special); the flood draw pile's bottom segment holds every
flood card of a tile above water that is not in the flood discard pile or a given top segment.
"""

from __future__ import annotations

import random
from typing import Any

from fi_cli.island.actions import action_text
from fi_cli.island.engine import GameState
from fi_cli.island.position import FORMAT, from_dict
from fi_cli.island.rules import RULES_VERSION, Rules
from fi_cli.island.tiles import CARDS, DECK_COUNTS, TILES, TREASURE_TILES, TREASURES

TREASURE_PAIRS = [(TILES[a], TILES[b]) for a, b in TREASURE_TILES]

STANDARD_ROWS = ("..XX..", ".XXXX.", "XXXXXX", "XXXXXX", ".XXXX.", "..XX..")
VOLCANO_ROWS = ("XXXXX", "XXXXX", "XX.XX", "XXXXX", "XXXXX")

Player = tuple[str, str] | tuple[str, str, dict[str, int]]


def position(
    players: list[Player],
    *,
    rows: tuple[str, ...] = STANDARD_ROWS,
    flooded: tuple[str, ...] | list[str] = (),
    sunk: tuple[str, ...] | list[str] = (),
    only: tuple[str, ...] | list[str] | None = None,
    water: int = 2,
    captured: tuple[str, ...] | list[str] = (),
    current: int = 0,
    phase: str = "actions",
    actions_left: int = 3,
    flight_used: bool = False,
    discarder: int | None = None,
    resume: str = "actions",
    draws_left: int = 0,
    flood_left: int = 0,
    swimmers: list[int] | None = None,
    sinking: str | None = None,
    treasure_deck: dict[str, int] | None = None,
    treasure_discard: dict[str, int] | None = None,
    flood_top: list[list[str]] | None = None,
    flood_discard: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    turn: int = 1,
) -> dict[str, Any]:
    """A position document. ``players`` are (role, tile[, hand]) by seat; ``only`` = the tiles not sunk."""
    rows = tuple(rows)
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    assert len(cells) == len(TILES)
    sunk_set = set(sunk)
    if only is not None:
        sunk_set |= set(TILES) - set(only)
    states = {}
    for t in TILES:
        states[t] = "sunk" if t in sunk_set else "flooded" if t in flooded else "dry"
    players_doc = []
    held = {c: 0 for c in CARDS}
    for q, pl in enumerate(players):
        role, tile = pl[0], pl[1]
        hand = dict(pl[2]) if len(pl) > 2 else {}
        for c, k in hand.items():
            held[c] += k
        players_doc.append({"seat": q, "role": role, "tile": tile, "hand": {c: k for c, k in hand.items() if k}})
    tdiscard = dict(treasure_discard or {})
    if treasure_deck is not None and treasure_discard is None:
        # the given draw pile, everything else in the discard pile
        for i, c in enumerate(CARDS):
            n = DECK_COUNTS[i] - held[c] - treasure_deck.get(c, 0)
            assert n >= 0, f"too many {c} cards"
            if n:
                tdiscard[c] = n
    if treasure_deck is None:
        deck = {}
        for i, c in enumerate(CARDS):
            n = DECK_COUNTS[i] - held[c] - tdiscard.get(c, 0)
            assert n >= 0, f"too many {c} cards"
            if n:
                deck[c] = n
    else:
        deck = dict(treasure_deck)
    alive = [t for t in TILES if states[t] != "sunk"]
    fdiscard = list(flood_discard or [])
    top = [list(seg) for seg in (flood_top or [])]
    placed = set(fdiscard) | {t for seg in top for t in seg}
    rest = sorted(t for t in alive if t not in placed)
    segments = [sorted(seg) for seg in top] + ([rest] if rest else [])
    return {
        "format": FORMAT,
        "rules_version": RULES_VERSION,
        "rules": Rules.from_dict(rules or {}).to_dict(),
        "layout": {"id": "test", "name": "", "rows": list(rows), "pins": {}},
        "placement": {t: list(cell) for t, cell in zip(TILES, cells, strict=True)},
        "tiles": states,
        "players": players_doc,
        "treasure_deck": deck,
        "treasure_discard": {c: k for c, k in tdiscard.items() if k},
        "flood_deck": segments,
        "flood_discard": fdiscard,
        "water_level": water,
        # a treasure whose two tiles have sunk was captured before (else the game would be lost already)
        "captured": [t for t, pair in zip(TREASURES, TREASURE_PAIRS, strict=True)
                     if t in captured or all(states[x] == "sunk" for x in pair)],
        "current_player": current,
        "turn": turn,
        "phase": phase,
        "actions_left": actions_left,
        "pilot_flight_used": flight_used,
        "discarder": discarder,
        "resume": resume,
        "draws_left": draws_left,
        "flood_left": flood_left,
        "swimmers": list(swimmers or []),
        "sinking": sinking,
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
    from fi_cli.island.actions import parse_action

    for a in actions:
        s.apply_checked(parse_action(a))
    return s


def tiles_in(s: GameState, state_id: int) -> list[str]:
    return sorted(TILES[t] for t in range(len(TILES)) if s.tiles[t] == state_id)


def hand(s: GameState, q: int) -> dict[str, int]:
    return {CARDS[c]: k for c, k in enumerate(s.hands[q]) if k}


def counts(values: list[int]) -> dict[str, int]:
    return {CARDS[c]: k for c, k in enumerate(values) if k}
