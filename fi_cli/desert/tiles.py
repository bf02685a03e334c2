"""The fixed components of Forbidden Desert: the 5x5 grid, tiles, parts, gear, storm cards, roles, the meter."""

from __future__ import annotations

from typing import Final

# ----------------------------------------------------------------------------------------------- the grid
# Cells 0..24 in reading order: cell = 5 * row + column; north is row 0. The storm starts in the centre.
SIZE: Final = 5
N_CELLS: Final = SIZE * SIZE
CENTRE: Final = 12
CELLS: tuple[str, ...] = tuple(f"r{c // SIZE}c{c % SIZE}" for c in range(N_CELLS))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELLS)}


def _near(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for c in range(N_CELLS):
        r, k = divmod(c, SIZE)
        out.append(tuple(sorted(
            (r + dr) * SIZE + k + dk for dr, dk in steps if 0 <= r + dr < SIZE and 0 <= k + dk < SIZE
        )))  # fmt: skip
    return tuple(out)


ORTH: Final = _near(((-1, 0), (1, 0), (0, -1), (0, 1)))  # neighbours of each cell, by cell index
AROUND: Final = _near(((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)))

# Wind directions: the direction the tiles slide (the storm cell moves the other way).
DIRECTIONS: tuple[str, ...] = ("north", "east", "south", "west")
_DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))
# UPWIND[d][storm] = the cell whose tile slides into the storm under a wind towards d, -1 off the grid
UPWIND: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        (c // SIZE - dr) * SIZE + c % SIZE - dk if 0 <= c // SIZE - dr < SIZE and 0 <= c % SIZE - dk < SIZE else -1
        for c in range(N_CELLS)
    )
    for dr, dk in _DELTA
)

# ----------------------------------------------------------------------------------------------- tiles
PARTS: tuple[str, ...] = ("propeller", "engine", "solar_crystal", "navigation_deck")
PART_INDEX: dict[str, int] = {name: i for i, name in enumerate(PARTS)}
ALL_PARTS: Final = 0b1111

# What a tile is. 0-13 are undersides; a cell whose tile is still unknown to the team holds HIDDEN_WATER
# (one of the 3 water-drop tiles) or HIDDEN (one of the 20 tiles that look alike).
CRASH_SITE: Final = 0
LAUNCH_PAD: Final = 1
WELL: Final = 2
MIRAGE: Final = 3
TUNNEL: Final = 4
GEAR_TILE: Final = 5
# the clue tiles of part i: row clue 6 + 2i, column clue 7 + 2i
HIDDEN_WATER: Final = 14
HIDDEN: Final = 15
NO_TILE: Final = -1  # the storm cell
KINDS: tuple[str, ...] = (
    "crash_site", "launch_pad", "well", "mirage", "tunnel", "gear",
    *(f"{p}_{axis}" for p in PARTS for axis in ("row", "column")),
    "hidden_water", "hidden",
)  # fmt: skip
KIND_INDEX: dict[str, int] = {name: i for i, name in enumerate(KINDS)}


def row_clue(part: int) -> int:
    return 6 + 2 * part


def column_clue(part: int) -> int:
    return 7 + 2 * part


def clue_part(kind: int) -> int:
    """The part a clue tile points to, -1 for a tile that is not a clue."""
    return (kind - 6) >> 1 if 6 <= kind <= 13 else -1


# The 24 tiles by underside, and the two pools the hidden tiles are drawn from.
TILE_COUNTS: Final[tuple[int, ...]] = (1, 1, 2, 1, 3, 8, 1, 1, 1, 1, 1, 1, 1, 1)
WATER_KINDS: tuple[int, ...] = (WELL, MIRAGE)
PLAIN_KINDS: tuple[int, ...] = (LAUNCH_PAD, TUNNEL, GEAR_TILE, *range(6, 14))
POOL_OF: dict[int, tuple[int, ...]] = {HIDDEN_WATER: WATER_KINDS, HIDDEN: PLAIN_KINDS}
GIVES_GEAR: Final[tuple[bool, ...]] = tuple(k in (CRASH_SITE, TUNNEL, GEAR_TILE) for k in range(14))

# ----------------------------------------------------------------------------------------------- gear
GEAR: tuple[str, ...] = ("dune_blaster", "jet_pack", "solar_shield", "terrascope", "secret_water_reserve",
                         "time_throttle")  # fmt: skip
GEAR_INDEX: dict[str, int] = {name: i for i, name in enumerate(GEAR)}
DUNE_BLASTER: Final = 0
JET_PACK: Final = 1
SOLAR_SHIELD: Final = 2
TERRASCOPE: Final = 3
SECRET_WATER_RESERVE: Final = 4
TIME_THROTTLE: Final = 5
GEAR_COUNTS: Final[tuple[int, ...]] = (3, 3, 2, 2, 1, 1)  # 12 cards

# ----------------------------------------------------------------------------------------------- storm deck
# Wind Blows cards 0-11: direction * 3 + strength - 1; then Storm Picks Up and Sun Beats Down.
STORM_PICKS_UP: Final = 12
SUN_BEATS_DOWN: Final = 13
STORM_CARDS: tuple[str, ...] = (
    *(f"wind_{d}_{k}" for d in DIRECTIONS for k in (1, 2, 3)),
    "storm_picks_up",
    "sun_beats_down",
)
STORM_CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(STORM_CARDS)}
STORM_COUNTS: Final[tuple[int, ...]] = (3, 2, 1) * 4 + (3, 4)  # 31 cards


def wind(card: int) -> tuple[int, int]:
    """(direction, strength) of a Wind Blows card."""
    return card // 3, card % 3 + 1


# ----------------------------------------------------------------------------------------------- roles
ROLES: tuple[str, ...] = ("archeologist", "climber", "explorer", "meteorologist", "navigator", "water_carrier")
ROLE_INDEX: dict[str, int] = {name: i for i, name in enumerate(ROLES)}
ARCHEOLOGIST: Final = 0
CLIMBER: Final = 1
EXPLORER: Final = 2
METEOROLOGIST: Final = 3
NAVIGATOR: Final = 4
WATER_CARRIER: Final = 5
CANTEEN: Final[tuple[int, ...]] = (3, 3, 4, 4, 4, 5)

# ----------------------------------------------------------------------------------------------- storm meter
# Cards drawn per turn at each mark, bottom mark first; the mark above the last is the skull.
_FOUR = (2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6)
STORM_TRACKS: dict[int, tuple[int, ...]] = {
    2: (2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6),
    3: _FOUR,
    4: _FOUR,
    5: (2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6),
}
DIFFICULTIES: dict[str, int] = {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}  # the start mark

SAND_MARKERS: Final = 48
DIAMOND: Final[tuple[int, ...]] = tuple(CELL_INDEX[c] for c in ("r0c2", "r1c1", "r1c3", "r2c0", "r2c4", "r3c1", "r3c3",
                                                           "r4c2"))  # fmt: skip
ACTIONS_PER_TURN: Final = 4
LOSS_CAUSES: tuple[str, ...] = ("thirst", "buried", "storm")


def parse_difficulty(value: str | int) -> int:
    """A difficulty name (or its start mark 1-4) -> the start mark of the storm meter."""
    if not isinstance(value, bool):
        if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
            if 1 <= int(value) <= 4:
                return int(value)
        elif isinstance(value, str) and value.strip().lower() in DIFFICULTIES:
            return DIFFICULTIES[value.strip().lower()]
    raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)} or a start mark 1-4, got {value!r}")


def difficulty_name(mark: int) -> str:
    return next((name for name, m in DIFFICULTIES.items() if m == mark), str(mark))
