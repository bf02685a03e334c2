"""Forbidden Island's components a designer may change (rules sections 1-4); the defaults are the rulebook's.

The engine reads them once, at set-up, into the game's state (``GameState.comp``): the deck's composition,
the deal and the first flooding only then; the hand limit, the cards for a capture, the actions and treasure
draws of a turn and the water meter at the few places the rules use them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.components import ComponentsError, ComponentSet, derived, part

__all__ = ["DEFAULT_COMPONENTS", "Components", "ComponentsError"]

_WATER_METER = (2, 2, 3, 3, 3, 4, 4, 5, 5)  # flood cards per turn at water levels 1-9; 10 is the skull


@dataclass(frozen=True)
class Components(ComponentSet):
    """The components in force (see the module doc); build with ``from_dict`` to have them checked."""

    waters_rise: int = part(3, "Waters Rise! cards in the treasure deck", 1, 20,
                            why_low=" (the cards that raise the water: a deck without one never ends a game)")
    helicopter_lift: int = part(3, "Helicopter Lift cards in the treasure deck", 1, 20,
                                why_low=" (the team leaves the island by Helicopter Lift)")
    sandbags: int = part(2, "Sandbags cards in the treasure deck", 0, 20)
    treasure_cards: int = part(5, "treasure cards of each treasure in the treasure deck", 1, 20)
    capture_cards: int = part(4, "matching treasure cards discarded to capture a treasure", 1, 20)
    hand_limit: int = part(5, "cards a player may hold", 1, 30)
    actions_per_turn: int = part(3, "actions a player may take each turn", 1, 8)
    treasure_draws: int = part(2, "treasure cards drawn after the actions", 1, 8,
                               why_low=" (the draws are what bring Waters Rise! cards)")
    cards_dealt: int = part(2, "treasure cards dealt to each player at set-up", 0, 20)
    tiles_flooded: int = part(6, "tiles flooded at set-up", 0, 24)
    water_meter: tuple[int, ...] = part(_WATER_METER, "flood cards drawn per turn at each water level from level 1; "
                                        "the level above the last is the skull", 0, 24, kind="track")

    # what the engine reads at each turn, kept ready: flood cards by water level (index 0 unused), the skull
    flood_draws: tuple[int, ...] = derived()
    skull: int = derived()

    def __post_init__(self) -> None:
        object.__setattr__(self, "flood_draws", (0, *self.water_meter))
        object.__setattr__(self, "skull", len(self.water_meter) + 1)

    @property
    def deck_counts(self) -> tuple[int, ...]:
        """The treasure deck by card kind (the four treasures, Helicopter Lift, Sandbags, Waters Rise!)."""
        return (self.treasure_cards,) * 4 + (self.helicopter_lift, self.sandbags, self.waters_rise)

    def dealable(self) -> int:
        """The cards a set-up deal draws from: every card but the Waters Rise! (never dealt)."""
        return sum(self.deck_counts) - self.waters_rise

    def check(self) -> None:
        if self.capture_cards > self.treasure_cards:
            raise ComponentsError(f"{self.capture_cards} cards for a capture but only {self.treasure_cards} "
                                  "cards of each treasure (treasure_cards): no treasure could be captured",
                                  "capture_cards", f"1-{self.treasure_cards}")
        if self.capture_cards > self.hand_limit:
            raise ComponentsError(f"{self.capture_cards} cards for a capture but a hand limit of {self.hand_limit}: "
                                  "nobody could hold them", "capture_cards", f"1-{self.hand_limit}")
        if self.cards_dealt > self.hand_limit:
            raise ComponentsError(f"{self.cards_dealt} cards dealt to each player but a hand limit of "
                                  f"{self.hand_limit}", "cards_dealt", f"0-{self.hand_limit}")

    def check_setup(self, players: int, start: int) -> None:
        if players * self.cards_dealt > self.dealable():
            raise ComponentsError(f"{self.cards_dealt} cards for each of {players} players is more than the "
                                  f"{self.dealable()} cards of the deck that may be dealt (Waters Rise! never is)",
                                  "cards_dealt", f"0-{self.dealable() // players}")
        if start >= self.skull:
            raise ComponentsError(f"the water meter has {len(self.water_meter)} levels, so the skull is level "
                                  f"{self.skull} and a game cannot start at level {start}", "water_meter",
                                  f"a list of at least {start} marks")

    def default_track(self, players: int) -> list[int]:
        return list(_WATER_METER)


DEFAULT_COMPONENTS = Components()
