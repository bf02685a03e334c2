"""Rule variants of section 10 of the rules document, validated once into a frozen object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..common.variants import RulesError, VariantFlags

RULES_VERSION = "fi-rules-2"  # 2: the treasure pile reshuffles at once; variant pilot_swim_uses_flight

__all__ = ["RULES_VERSION", "Rules", "RulesError"]


@dataclass(frozen=True)
class Rules(VariantFlags):
    """The variant flags in force; defaults are the rules document's (``turn_limit``: any positive integer)."""

    CHOICES: ClassVar[dict[str, tuple]] = {
        "navigator_moves": ("mover_abilities", "orthogonal"),
        "diver_swim": ("nearest", "any_reachable"),
        "helicopter_rescue": (True, False),
        "helicopter_lift_group": ("subset", "all"),
        "diver_through_sea": (False, True),
        "pilot_swim_uses_flight": (False, True),
    }

    navigator_moves: str = "mover_abilities"
    diver_swim: str = "nearest"
    helicopter_rescue: bool = True
    helicopter_lift_group: str = "subset"
    diver_through_sea: bool = False
    pilot_swim_uses_flight: bool = False
    turn_limit: int = 200

    def __post_init__(self) -> None:
        super().__post_init__()
        if type(self.turn_limit) is not int or self.turn_limit < 1:
            raise RulesError(f"rule variant 'turn_limit' must be a positive integer, got {self.turn_limit!r}")
