"""The fixed components of Forbidden Island: tiles, treasures, cards, roles, the water meter."""

from __future__ import annotations

from typing import Final

TILES: Final[tuple[str, ...]] = (
    "fools_landing",
    "bronze_gate",
    "copper_gate",
    "gold_gate",
    "iron_gate",
    "silver_gate",
    "temple_of_the_moon",
    "temple_of_the_sun",
    "whispering_garden",
    "howling_garden",
    "cave_of_embers",
    "cave_of_shadows",
    "coral_palace",
    "tidal_palace",
    "breakers_bridge",
    "cliffs_of_abandon",
    "crimson_forest",
    "dunes_of_deception",
    "lost_lagoon",
    "misty_marsh",
    "observatory",
    "phantom_rock",
    "twilight_hollow",
    "watchtower",
)
TILE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(TILES)}
FOOLS_LANDING: Final = 0

TREASURES: Final[tuple[str, ...]] = ("earth_stone", "statue_of_the_wind", "crystal_of_fire", "oceans_chalice")
TREASURE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(TREASURES)}
# The two tiles of each treasure, by treasure index.
TREASURE_TILES: Final[tuple[tuple[int, int], ...]] = ((6, 7), (8, 9), (10, 11), (12, 13))
TILE_TREASURE: Final[tuple[int, ...]] = tuple(
    next((t for t, pair in enumerate(TREASURE_TILES) if i in pair), -1) for i in range(len(TILES))
)

# Treasure-deck card kinds: 0-3 are the treasures (same index as TREASURES).
HELICOPTER_LIFT: Final = 4
SANDBAGS: Final = 5
WATERS_RISE: Final = 6
CARDS: Final[tuple[str, ...]] = TREASURES + ("helicopter_lift", "sandbags", "waters_rise")
CARD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CARDS)}
DECK_COUNTS: Final[tuple[int, ...]] = (5, 5, 5, 5, 3, 2, 3)  # 28 cards
HAND_LIMIT: Final = 5

ROLES: Final[tuple[str, ...]] = ("pilot", "engineer", "explorer", "navigator", "diver", "messenger")
ROLE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(ROLES)}
PILOT: Final = 0
ENGINEER: Final = 1
EXPLORER: Final = 2
NAVIGATOR: Final = 3
DIVER: Final = 4
MESSENGER: Final = 5
ROLE_START: Final[tuple[int, ...]] = (
    TILE_INDEX["fools_landing"],
    TILE_INDEX["bronze_gate"],
    TILE_INDEX["copper_gate"],
    TILE_INDEX["gold_gate"],
    TILE_INDEX["iron_gate"],
    TILE_INDEX["silver_gate"],
)

# Flood cards drawn per turn at water levels 1..9 (index 0 unused); level 10 is the skull.
FLOOD_DRAWS: Final[tuple[int, ...]] = (0, 2, 2, 3, 3, 3, 4, 4, 5, 5)
SKULL: Final = 10
DIFFICULTIES: Final[dict[str, int]] = {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}

DRY: Final = 0
FLOODED: Final = 1
SUNK: Final = 2
TILE_STATES: Final[tuple[str, ...]] = ("dry", "flooded", "sunk")

LOSS_CAUSES: Final[tuple[str, ...]] = ("treasure_lost", "fools_landing_sunk", "player_drowned", "water_level")


def parse_difficulty(value: str | int) -> int:
    """A difficulty name or a start level 1-9 -> the starting water level."""
    if isinstance(value, bool):
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)} or a start level 1-9, got {value!r}")
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        level = int(value)
        if 1 <= level <= 9:
            return level
    elif isinstance(value, str) and value.strip().lower() in DIFFICULTIES:
        return DIFFICULTIES[value.strip().lower()]
    raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)} or a start level 1-9, got {value!r}")


def difficulty_name(level: int) -> str:
    """The difficulty name of a start level, or the level itself as text."""
    for name, lvl in DIFFICULTIES.items():
        if lvl == level:
            return name
    return str(level)
