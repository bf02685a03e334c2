"""A Desert position described by a few numbers a value model can weigh; public information only."""

from __future__ import annotations

from ..engine import COLLECTED, NOT_FOUND, GameState
from ..tiles import HIDDEN, HIDDEN_WATER, N_CELLS, SUN_BEATS_DOWN, TUNNEL, WELL
from .heuristic_view import MANHATTAN

FEATURES: tuple[str, ...] = (
    "bias",
    "collected",  # parts collected
    "on_board",  # parts found and lying on the board
    "clues",  # clue tiles excavated
    "pad_known",
    "hidden",  # tiles still face down
    "hidden_water",  # water-drop tiles still face down
    "wells",  # wells excavated
    "tunnels",  # tunnels excavated
    "supply",  # sand markers left in the supply
    "supply_short",  # how far the supply is below 12
    "blocked",  # tiles with 2+ sand
    "buried",  # pawns buried
    "cards",  # storm cards a turn
    "skull",  # marks left before the skull
    "suns",  # expected Sun Beats Down a round (the unknown deck's share times the cards a round)
    "water",  # water held, over the team's canteens
    "dry",  # pawns with no water
    "low",  # pawns with one water
    "gear",  # gear cards held
    "home",  # all parts in, pad known: steps of the pawns from the Launch Pad
    "players",
    # where the pawns stand and how the team's water meets the storm (2026-12-07): the value model saw no pawn's
    # place before the end game, and water and the storm only apart
    "min_water",  # the driest pawn's water
    "suns_short",  # suns times the pawns with one water or none
    "part_steps",  # each lying part's steps from the nearest pawn, summed
    "straggler",  # every part found and the pad known: the farthest pawn's steps from the Launch Pad
    "water_cards",  # water held a pawn times the storm cards a turn
    "shaded",  # pawns in a tunnel's shade
    "all_found",  # every part found and the pad known (only pickups and the way home are left)
    "spread",  # the pawns' steps from each other, summed over pairs, a pawn
    "left_cards",  # parts still to collect times the storm cards a turn
)


def features(s: GameState) -> list[float]:
    """The values of FEATURES for a position."""
    kind, dug, sand = s.kind, s.dug, s.sand
    collected = s.parts.count(COLLECTED)
    on_board = sum(1 for c in s.parts if c >= 0)
    clues = hidden = hidden_water = wells = tunnels = blocked = 0
    for c in range(N_CELLS):
        k = kind[c]
        if k == HIDDEN:
            hidden += 1
        elif k == HIDDEN_WATER:
            hidden += 1
            hidden_water += 1
        elif dug[c]:
            if 6 <= k <= 13:
                clues += 1
            elif k == WELL:
                wells += 1
            elif k == TUNNEL:
                tunnels += 1
        if sand[c] >= 2:
            blocked += 1
    pad = s.launch_pad()
    n = s.n
    unknown = sum(s.sdeck)
    counts = s.comp.storm_counts
    sun_share = s.sdeck[SUN_BEATS_DOWN] / unknown if unknown else counts[SUN_BEATS_DOWN] / sum(counts)
    cards = s.storm_cards()
    per_round = cards * n
    water = s.water
    full = sum(s.comp.canteens[r] for r in s.roles)
    pos = s.pos
    home = straggler = part_steps = shaded = spread = 0
    if collected == 4 and pad >= 0:
        home = sum(MANHATTAN[x][pad] for x in pos)
    found = NOT_FOUND not in s.parts and pad >= 0
    if found:
        straggler = max(MANHATTAN[x][pad] for x in pos)
    for c in s.parts:
        if c >= 0:
            part_steps += min(MANHATTAN[x][c] for x in pos)
    for a in range(n):
        x = pos[a]
        if kind[x] == TUNNEL and dug[x]:
            shaded += 1
        for b in range(a + 1, n):
            spread += MANHATTAN[x][pos[b]]
    suns = sun_share * per_round
    dry = sum(1 for w in water if w == 0)
    low = sum(1 for w in water if w == 1)
    return [
        1.0,
        float(collected),
        float(on_board),
        float(clues),
        1.0 if pad >= 0 else 0.0,
        float(hidden),
        float(hidden_water),
        float(wells),
        float(tunnels),
        float(s.supply),
        float(max(0, 12 - s.supply)),
        float(blocked),
        float(sum(1 for q in range(n) if s.buried(q))),
        float(cards),
        float(s.skull() - s.level),
        suns,
        sum(water) / full,
        float(dry),
        float(low),
        float(sum(map(sum, s.hands))),
        float(home),
        float(n),
        float(min(water)),
        suns * (dry + low),
        float(part_steps),
        float(straggler),
        sum(water) * cards / n,
        float(shaded),
        1.0 if found else 0.0,
        spread / n,
        float((4 - collected) * cards),
    ]
