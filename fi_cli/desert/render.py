"""Text drawings of a Desert position: the 5x5 grid (tiles, sand, pawns, parts, the storm), the players, the
storm meter."""

from __future__ import annotations

from .engine import COLLECTED, NOT_FOUND, PHASES, GameState
from .tiles import CELLS, GEAR, PARTS, ROLES, SIZE, STORM_CARDS

_W = 15
# the label of each tile kind: excavated tiles in capitals, known but unexcavated ones in brackets
_LABEL = ("crash site", "launch pad", "well", "mirage", "tunnel", "gear",
          "prop row", "prop col", "engine row", "engine col", "crystal row", "crystal col", "nav row", "nav col",
          "? water", "?")  # fmt: skip
PART_MARK = "PESN"  # propeller, engine, solar crystal, navigation deck
LEGEND = ("CAPITALS excavated, (name) known but not excavated, ? desert side up (? water: a water drop); "
          "+P +E +S +N a part lying there")  # fmt: skip


def _cell(s: GameState, c: int) -> tuple[str, str, str]:
    parts = " ".join("+" + PART_MARK[i] for i, at in enumerate(s.parts) if at == c)
    if c == s.storm:
        return ("~~~ STORM ~~~", f"{parts} waits" if parts else "", "")
    k = s.kind[c]
    label = _LABEL[k].upper() if s.dug[c] else _LABEL[k] if k >= 14 else f"({_LABEL[k]})"
    sand = s.sand[c]
    mark = f"{sand} sand blocked" if sand >= 2 else f"{sand} sand" if sand else ""
    pawns = "".join(f"p{q}" for q in range(s.n) if s.pos[q] == c)
    return (label, mark, f"{pawns} {parts}".strip())


def draw_desert(s: GameState) -> str:
    """The desert as a grid of cells: tile, sand (and parts), pawns."""
    sep = "   +" + "+".join("-" * _W for _ in range(SIZE)) + "+"
    lines = ["    " + "".join(f"{'c' + str(k):^{_W + 1}}" for k in range(SIZE)).rstrip(), sep]
    for r in range(SIZE):
        rows = list(zip(*(_cell(s, r * SIZE + k) for k in range(SIZE)), strict=True))
        for i, row in enumerate(rows):
            head = f"r{r} " if i == 0 else "   "
            lines.append(head + "|" + "|".join(f"{x:<{_W}}"[:_W] for x in row) + "|")
        lines.append(sep)
    return "\n".join(lines)


def describe_players(s: GameState) -> str:
    lines = []
    for q in range(s.n):
        role = s.roles[q]
        gear = ", ".join(f"{GEAR[g]} x{k}" if k > 1 else GEAR[g] for g, k in enumerate(s.hands[q]) if k)
        notes = " solar shield up" if s.shields >> q & 1 else ""
        notes += " BURIED" if s.buried(q) else ""
        turn = "*" if q == s.current else " "
        lines.append(f"{turn}p{q} {ROLES[role]:<13} {CELLS[s.pos[q]]}  water {s.water[q]}/{s.comp.canteens[role]}  "
                     f"gear: {gear or '-'}{notes}")  # fmt: skip
    return "\n".join(lines)


def describe_status(s: GameState) -> str:
    found = [PARTS[i] for i, at in enumerate(s.parts) if at == COLLECTED]
    lying = [PARTS[i] for i, at in enumerate(s.parts) if at not in (NOT_FOUND, COLLECTED)]
    cards = "the skull" if s.level >= s.skull() else f"{s.storm_cards()} cards a turn"
    status = (f"turn {s.turn}  storm meter {s.level}/{s.skull()} ({cards})  "
              f"sand supply {s.supply}  parts collected: {', '.join(found) or 'none'}")  # fmt: skip
    if lying:
        status += f"  lying: {', '.join(lying)}"
    status += f"  storm deck {s.deck_size()}"
    if s.stop:
        status += f" (top: {', '.join(STORM_CARDS[c] for c in reversed(s.stop))})"
    status += f"  phase {PHASES[s.phase]}"
    if s.outcome == "win":
        status += "  RESULT: win"
    elif s.outcome == "loss":
        status += f"  RESULT: loss ({', '.join(s.loss_causes)})"
    return status


def draw_position(s: GameState) -> str:
    """Desert, players and status together."""
    looked = f"\nlooked at (top first): {', '.join(STORM_CARDS[c] for c in s.window)}" if s.window else ""
    return f"{draw_desert(s)}\n{LEGEND}\n\n{describe_players(s)}\n{describe_status(s)}{looked}"
