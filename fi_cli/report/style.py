"""Colours and labels shared by every figure and table, so a loss cause or a scenario looks the same
everywhere. Colours are from the Okabe-Ito palette, which colour-blind readers can tell apart."""

from __future__ import annotations

import re
from collections.abc import Sequence

ENDING_COLOURS: dict[str, str] = {
    "win": "#009E73",
    "treasure_lost": "#CC79A7",
    "fools_landing_sunk": "#E69F00",
    "player_drowned": "#56B4E9",
    "water_level": "#0072B2",
    "turn_limit": "#999999",
    "still going": "#333333",
}
ENDING_LABELS: dict[str, str] = {
    "win": "won",
    "treasure_lost": "treasure lost (both its tiles sank)",
    "fools_landing_sunk": "Fools' Landing sank",
    "player_drowned": "a player drowned",
    "water_level": "water reached the skull",
    "turn_limit": "turn limit reached",
    "still going": "still going",
}
ENDING_SHORT: dict[str, str] = {
    "win": "won",
    "treasure_lost": "treasure lost",
    "fools_landing_sunk": "Fools' Landing",
    "player_drowned": "drowned",
    "water_level": "skull",
    "turn_limit": "turn limit",
}
OUTCOME_COLOURS: dict[str, str] = {"win": "#009E73", "loss": "#D55E00"}
TREASURE_LABELS: dict[str, str] = {
    "earth_stone": "Earth Stone",
    "statue_of_the_wind": "Statue of the Wind",
    "crystal_of_fire": "Crystal of Fire",
    "oceans_chalice": "Ocean's Chalice",
}
# Okabe-Ito first, then muted extras: scenarios beyond 12 reuse colours (their labels still differ).
SCENARIO_PALETTE: tuple[str, ...] = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
    "#7F3C8D", "#11A579", "#3969AC", "#A5AA99",
)


def ending_colour(ending: str) -> str:
    return ENDING_COLOURS.get(ending, "#777777")


def ending_label(ending: str) -> str:
    return ENDING_LABELS.get(ending, ending.replace("_", " "))


def scenario_colours(scenarios: Sequence[str]) -> dict[str, str]:
    """A fixed colour per scenario, by its position in the report."""
    return {s: SCENARIO_PALETTE[i % len(SCENARIO_PALETTE)] for i, s in enumerate(scenarios)}


def tile_label(tile: str) -> str:
    return tile.replace("_", " ").replace("fools", "Fools'").capitalize().replace("fools'", "Fools'")


def wrap(label: str, width: int = 26) -> str:
    """Break a long scenario id so tick labels stay short: at commas, slashes and spaces first (ids like
    'layout=x,difficulty=y' have no spaces), then inside a still too long piece at _ - =."""
    lines: list[str] = []
    for piece in (t for t in re.split(r"(?<=[,/ ;])", str(label)) if t):
        subs = [piece] if len(piece) <= width else [t for t in re.split(r"(?<=[_\-=])", piece) if t]
        for tok in subs:
            if lines and len(lines[-1]) + len(tok) <= width:
                lines[-1] += tok
            else:
                lines.append(tok)
    return "\n".join(x.strip() for x in lines) if lines else ""


def pct(x: float, digits: int = 1) -> str:
    return "–" if x != x else f"{100 * x:.{digits}f}%"
