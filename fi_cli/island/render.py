"""Text drawings of a position: the island grid with tile states and pawns, the hands, the water."""

from __future__ import annotations

from .engine import PHASES, GameState
from .tiles import CARDS, FLOODED, ROLES, SUNK, TILE_TREASURE, TILES, TREASURES

SHORT = (
    "FoolsLanding", "BronzeGate", "CopperGate", "GoldGate", "IronGate", "SilverGate", "TempleMoon",
    "TempleSun", "WhisperGardn", "HowlGarden", "CaveEmbers", "CaveShadows", "CoralPalace", "TidalPalace",
    "BreakersBrdg", "CliffsAbandn", "CrimsonFrst", "DunesDecept", "LostLagoon", "MistyMarsh", "Observatory",
    "PhantomRock", "TwilightHllw", "Watchtower",
)  # fmt: skip
_MARK = "EWFO"  # treasure initials; Fools' Landing is marked H (helipad)
_W = 13


def _cell(s: GameState, tile: int) -> tuple[str, str]:
    state = s.tiles[tile]
    mark = "H" if tile == 0 else (_MARK[TILE_TREASURE[tile]] if TILE_TREASURE[tile] >= 0 else " ")
    if state == SUNK:
        return (f"{SHORT[tile]:<12}{mark}"[:_W], "~~~ sunk ~~~ ")
    pawns = "".join(f"p{q}" for q in range(s.n) if s.pos[q] == tile)
    word = "FLOOD" if state == FLOODED else "dry"
    return (f"{SHORT[tile]:<12}{mark}", f"{word:<6}{pawns:<7}"[:_W])


def draw_island(s: GameState) -> str:
    """The island as a grid of cells: name, treasure mark, state and pawns of each tile."""
    layout = s.board.layout
    lines = []
    sep = "+".join("-" * _W for _ in range(layout.width))
    blank = " " * _W
    for r in range(layout.height):
        row1, row2 = [], []
        for c in range(layout.width):
            tile = s.board.tile_at.get((r, c))
            a, b = _cell(s, tile) if tile is not None else (blank, blank)
            row1.append(a)
            row2.append(b)
        lines.append("|".join(row1).rstrip())
        lines.append("|".join(row2).rstrip())
        lines.append(sep if r < layout.height - 1 else "")
    return "\n".join(line for line in lines if line is not None).rstrip()


def describe_hands(s: GameState) -> str:
    lines = []
    for q in range(s.n):
        cards = ", ".join(
            f"{CARDS[c]} x{s.hands[q][c]}" if s.hands[q][c] > 1 else CARDS[c] for c in range(6) if s.hands[q][c]
        )
        turn = "*" if q == s.current else " "
        lines.append(f"{turn}p{q} {ROLES[s.roles[q]]:<9} on {TILES[s.pos[q]]:<20} {cards or '-'}")
    return "\n".join(lines)


def describe_status(s: GameState) -> str:
    caught = [TREASURES[i] for i in range(4) if s.captured >> i & 1]
    flood_left = sum(len(seg) for seg in s.fdeck)
    status = (
        f"turn {s.turn}  water level {s.water}  treasures: {', '.join(caught) or 'none'}  "
        f"treasure deck {sum(s.tdeck)}  flood deck {flood_left}  phase {PHASES[s.phase]}"
    )
    if s.outcome == "win":
        status += "  RESULT: win"
    elif s.outcome == "loss":
        status += f"  RESULT: loss ({', '.join(s.loss_causes)})"
    return status


def draw_position(s: GameState) -> str:
    """Island, hands and status together."""
    return f"{draw_island(s)}\n\n{describe_hands(s)}\n{describe_status(s)}"
