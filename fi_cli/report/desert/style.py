"""The desert's colours and labels: its parts and the tiles a board may pin (a short code
and a colour each)."""

from __future__ import annotations

PART_LABELS: dict[str, str] = {"propeller": "Propeller", "engine": "Engine", "solar_crystal": "Solar Crystal",
                               "navigation_deck": "Navigation Deck"}
STORM_COLOUR = "#555555"
_KIND_COLOURS = {"crash_site": "#D55E00", "launch_pad": "#009E73", "well": "#56B4E9", "mirage": "#F0E442",
                 "tunnel": "#999999", "gear": "#BBBBBB"}
CLUE_COLOUR = "#CC79A7"  # the row and column clues of the parts


def kind_code(kind: str) -> str:
    """A short code of a tile for the boards: its initials, 'launch_pad' -> 'LP', 'engine_column' -> 'EC'."""
    return "".join(w[0].upper() for w in kind.split("_"))


def kind_colour(kind: str) -> str:
    return _KIND_COLOURS.get(kind, CLUE_COLOUR)


def kind_label(kind: str) -> str:
    """'launch_pad' -> 'Launch Pad'."""
    return " ".join(w.capitalize() for w in kind.split("_"))
