"""The island's colours and labels: its treasures, Fools' Landing, and the codes of
tiles on the maps."""

from __future__ import annotations

from ...island.tiles import TILES, TREASURE_TILES, TREASURES

TREASURE_LABELS: dict[str, str] = {
    "earth_stone": "Earth Stone",
    "statue_of_the_wind": "Statue of the Wind",
    "crystal_of_fire": "Crystal of Fire",
    "oceans_chalice": "Ocean's Chalice",
}
TREASURE_COLOURS: dict[str, str] = {
    "earth_stone": "#E69F00", "statue_of_the_wind": "#56B4E9", "crystal_of_fire": "#D55E00",
    "oceans_chalice": "#0072B2",
}
FOOLS_LANDING_COLOUR = "#CC79A7"


def tile_code(tile: str) -> str:
    """Two-letter code of a tile for maps: the initials of its words, 'Fools' Landing' -> 'FL'."""
    return "".join(w[0].upper() for w in tile.split("_") if w not in ("of", "the"))


def tile_colour(tile: str) -> str | None:
    """The colour of a key tile: its treasure's, or Fools' Landing's; None for the others."""
    if tile == TILES[0]:
        return FOOLS_LANDING_COLOUR
    for treasure, pair in zip(TREASURES, TREASURE_TILES, strict=True):
        if tile in (TILES[i] for i in pair):
            return TREASURE_COLOURS[treasure]
    return None


def tile_label(tile: str) -> str:
    """'temple_of_the_moon' -> 'Temple of the Moon', 'fools_landing' -> "Fools' Landing"."""
    words = ["Fools'" if w == "fools" else w if w in ("of", "the") else w.capitalize() for w in tile.split("_")]
    return " ".join(words)
