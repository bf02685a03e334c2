"""Colours and labels shared by every figure and table, so a loss cause or a scenario looks the same
everywhere (each game's own colours, of its tiles or treasures, are in its package). Colours are from the
Okabe-Ito palette, which colour-blind readers can tell apart; text on a coloured background is black or
white, whichever contrasts more (WCAG contrast ratio, at least 4.5:1 for every colour used here)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from matplotlib.colors import to_rgb

# The endings of both games (a report section shows one game's): the island's four loss causes and its turn
# limit, the desert's three.
ENDING_COLOURS: dict[str, str] = {
    "win": "#009E73",
    "treasure_lost": "#CC79A7",
    "fools_landing_sunk": "#E69F00",
    "player_drowned": "#56B4E9",
    "water_level": "#0072B2",
    "turn_limit": "#999999",
    "thirst": "#E69F00",
    "buried": "#CC79A7",
    "storm": "#0072B2",
    "still going": "#333333",
}
ENDING_LABELS: dict[str, str] = {
    "win": "won",
    "treasure_lost": "treasure lost (both its tiles sank)",
    "fools_landing_sunk": "Fools' Landing sank",
    "player_drowned": "a player drowned",
    "water_level": "water reached the skull",
    "turn_limit": "turn limit reached",
    "thirst": "thirst (a pawn ran dry)",
    "buried": "buried (the sand ran out)",
    "storm": "the storm reached the skull",
    "still going": "still going",
}
ENDING_SHORT: dict[str, str] = {
    "win": "won",
    "treasure_lost": "treasure lost",
    "fools_landing_sunk": "Fools' Landing",
    "player_drowned": "drowned",
    "water_level": "skull",
    "turn_limit": "turn limit",
    "thirst": "thirst",
    "buried": "buried",
    "storm": "storm",
}
OUTCOME_COLOURS: dict[str, str] = {"win": "#009E73", "loss": "#D55E00"}
# One colour per value of a study's first matrix key (Okabe-Ito without its faint yellow, then a wine
# red); a line style and marker per scenario within it. Beyond 8 values colours repeat with other styles.
SCENARIO_PALETTE: tuple[str, ...] = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9", "#882255",
)
LINE_STYLES: tuple[tuple[str, str], ...] = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ((0, (5, 1, 1, 1)), "v"),
                                            ((0, (1, 3)), "P"))


def ending_colour(ending: str) -> str:
    return ENDING_COLOURS.get(ending, "#777777")


def ending_label(ending: str) -> str:
    return ENDING_LABELS.get(ending, ending.replace("_", " "))


def scenario_styles(scenarios: Sequence[str], groups: Sequence[int], within: Sequence[int]
                    ) -> dict[str, dict[str, object]]:
    """Per scenario, matplotlib keywords (color, linestyle, marker): a colour per group, a style within it."""
    n = len(SCENARIO_PALETTE)
    out = {}
    for s, g, w in zip(scenarios, groups, within, strict=True):
        line, marker = LINE_STYLES[(w + g // n) % len(LINE_STYLES)]
        out[s] = {"color": SCENARIO_PALETTE[g % n], "linestyle": line, "marker": marker}
    return out


def _luminance(colour: object) -> float:
    channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast(a: object, b: object) -> float:
    """WCAG contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_on(background: object) -> str:
    """Black or white, whichever is easier to read on `background`."""
    return "black" if contrast(background, "black") >= contrast(background, "white") else "white"


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
