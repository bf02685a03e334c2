"""A position described by a few numbers a value model can weigh; public information only."""

from __future__ import annotations

from ..engine import GameState
from ..tiles import (
    FLOODED,
    FOOLS_LANDING,
    HELICOPTER_LIFT,
    SANDBAGS,
    SUNK,
    TREASURE_TILES,
    WATERS_RISE,
)

FEATURES: tuple[str, ...] = (
    "bias",
    "water",  # start-relative danger: flood cards per turn and closeness to the skull
    "flood_rate",
    "skull_near",  # 1 when one more Waters Rise! loses
    "captured",
    "fl_flooded",
    "fl_flooded_top",  # Fools' Landing flooded and its card among the next ones drawn
    "lone_treasures",  # uncaptured treasures down to one tile
    "lone_flooded",  # ... and that tile flooded
    "lone_flooded_top",  # ... and its card in the top segment of the flood pile
    "twin_flooded",  # flooded tiles of uncaptured treasures whose twin still stands
    "flooded",  # flooded tiles in all
    "sunk",
    "set_cards",  # cards held toward uncaptured treasures, at most a capture's (4) each
    "sets_ready",  # uncaptured treasures the team holds a capture's cards of
    "sets_in_hand",  # ... held by one player
    "scarce",  # uncaptured treasures with fewer than a capture's cards left outside the discard pile and captures
    "heli",
    "sandbags",
    "wr_chance",  # chance a Waters Rise! comes in the next two treasure draws
    "endgame_dist",  # with 4 treasures: pawns not yet on Fools' Landing
    "endgame_heli",  # with 4 treasures: a Helicopter Lift in hand
    "players",
)


def features(s: GameState) -> list[float]:
    """The values of FEATURES for a position."""
    tiles = s.tiles
    water = s.water
    fdeck = s.fdeck
    top = set(fdeck[-1]) if fdeck else set(s.fdiscard)
    hands = s.hands
    captured = s.captured
    n_cap = 0
    lone = lone_fl = lone_top = twin_fl = 0
    set_cards = ready = in_hand = scarce = 0
    comp = s.comp
    need = comp.capture_cards
    for x, (a, b) in enumerate(TREASURE_TILES):
        if captured >> x & 1:
            n_cap += 1
            continue
        ta, tb = tiles[a], tiles[b]
        if ta == SUNK or tb == SUNK:
            lone += 1
            last = b if ta == SUNK else a
            if tiles[last] == FLOODED:
                lone_fl += 1
                lone_top += last in top
        else:
            twin_fl += (ta == FLOODED) + (tb == FLOODED)
        held = sum(h[x] for h in hands)
        set_cards += min(held, need)
        ready += held >= need
        in_hand += any(h[x] >= need for h in hands)
        scarce += held + s.tdeck[x] < need
    fl = tiles[FOOLS_LANDING] == FLOODED
    deck = s.tdeck
    total = sum(deck)
    wr = deck[WATERS_RISE] + (s.tdiscard[WATERS_RISE] if total < 2 else 0)
    pool = total if total >= 2 else total + sum(s.tdiscard)
    endgame = captured == 0b1111
    return [
        1.0,
        water,
        comp.flood_draws[min(water, comp.skull - 1)],
        1.0 if water >= comp.skull - 1 else 0.0,
        n_cap,
        fl,
        fl and FOOLS_LANDING in top,
        lone,
        lone_fl,
        lone_top,
        twin_fl,
        tiles.count(FLOODED),
        tiles.count(SUNK),
        set_cards,
        ready,
        in_hand,
        scarce,
        sum(h[HELICOPTER_LIFT] for h in hands),
        sum(h[SANDBAGS] for h in hands),
        min(1.0, 2.0 * wr / pool) if pool else 0.0,
        sum(p != FOOLS_LANDING for p in s.pos) if endgame else 0,
        1.0 if endgame and any(h[HELICOPTER_LIFT] for h in hands) else 0.0,
        s.n,
    ]
