"""Forbidden Desert's components a designer may change (rules sections 1-4); the defaults are the rulebook's.
(The sand supply, the markers left once the diamond is laid, is a key of the set-up of its own: `sand_supply`.)

The engine reads them once, at set-up, into the game's state (``GameState.comp``, the meter into ``track``):
the decks and the diamond's sand only then; the canteens and the actions of a turn where the rules use them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.components import ComponentsError, ComponentSet, derived, part
from .tiles import CANTEEN, GEAR_COUNTS, ROLES, STORM_COUNTS, STORM_TRACKS

__all__ = ["DEFAULT_COMPONENTS", "Components", "ComponentsError"]

_GEAR = " cards in the gear deck"


@dataclass(frozen=True)
class Components(ComponentSet):
    """The components in force (see the module doc); build with ``from_dict`` to have them checked."""

    ROLES = ROLES

    wind_blows_1: int = part(STORM_COUNTS[0], "Wind Blows cards of strength 1 for each of the 4 directions", 0, 10)
    wind_blows_2: int = part(STORM_COUNTS[1], "Wind Blows cards of strength 2 for each of the 4 directions", 0, 10)
    wind_blows_3: int = part(STORM_COUNTS[2], "Wind Blows cards of strength 3 for each of the 4 directions", 0, 10)
    storm_picks_up: int = part(STORM_COUNTS[12], "Storm Picks Up cards in the storm deck", 1, 10,
                               why_low=" (the cards that raise the storm meter: without one a game may never end)")
    sun_beats_down: int = part(STORM_COUNTS[13], "Sun Beats Down cards in the storm deck", 0, 10)
    dune_blaster: int = part(GEAR_COUNTS[0], "Dune Blaster" + _GEAR, 0, 12)
    jet_pack: int = part(GEAR_COUNTS[1], "Jet Pack" + _GEAR, 0, 12)
    solar_shield: int = part(GEAR_COUNTS[2], "Solar Shield" + _GEAR, 0, 12)
    terrascope: int = part(GEAR_COUNTS[3], "Terrascope" + _GEAR, 0, 12)
    secret_water_reserve: int = part(GEAR_COUNTS[4], "Secret Water Reserve" + _GEAR, 0, 12)
    time_throttle: int = part(GEAR_COUNTS[5], "Time Throttle" + _GEAR, 0, 12)
    canteens: tuple[int, ...] = part(CANTEEN, "water in each role's canteen (full at the start)", 1, 10,
                                     kind="by_role")
    actions_per_turn: int = part(4, "actions a player may take each turn", 1, 8)
    diamond_sand: int = part(1, "sand markers on each of the 8 tiles of the diamond at set-up", 0, 10)
    storm_meter: tuple[int, ...] | None = part(None, "storm cards drawn per turn at each mark of the storm meter "
                                               "from the bottom mark; the mark above the last is the skull (the "
                                               "rulebook's meter for the player count unless given)", 1, 10,
                                               kind="track", why_low=" (a mark that draws no card would stop the "
                                               "game there)")

    # what the engine reads, kept ready: the storm deck by card (tiles.STORM_CARDS) and the gear deck by card
    storm_counts: tuple[int, ...] = derived()
    gear_counts: tuple[int, ...] = derived()

    def __post_init__(self) -> None:
        wind = (self.wind_blows_1, self.wind_blows_2, self.wind_blows_3) * 4
        object.__setattr__(self, "storm_counts", (*wind, self.storm_picks_up, self.sun_beats_down))
        object.__setattr__(self, "gear_counts", (self.dune_blaster, self.jet_pack, self.solar_shield, self.terrascope,
                                                 self.secret_water_reserve, self.time_throttle))

    def track(self, players: int) -> tuple[int, ...]:
        """The storm meter in force with ``players``."""
        return self.storm_meter if self.storm_meter is not None else STORM_TRACKS[players]

    def default_track(self, players: int) -> list[int]:
        return list(STORM_TRACKS[players])

    def check_setup(self, players: int, start: int) -> None:
        track = self.track(players)
        if start > len(track):
            raise ComponentsError(f"the storm meter has {len(track)} marks, so a game cannot start at mark {start}",
                                  "storm_meter", f"a list of at least {start} marks")
        cards = sum(self.storm_counts)
        if cards < max(track):
            raise ComponentsError(f"the storm deck (wind_blows_1, _2 and _3 for each of 4 directions, storm_picks_up, "
                                  f"sun_beats_down) holds {cards} cards but the storm meter draws up to {max(track)} "
                                  "in a turn, each card once", allowed=f"a storm deck of {max(track)} cards or more")


DEFAULT_COMPONENTS = Components()
