"""Rule variants of section 9 of the Desert rules document, validated once into a frozen object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..common.variants import RulesError, VariantFlags

RULES_VERSION = "fd-rules-1"

__all__ = ["RULES_VERSION", "Rules", "RulesError"]


@dataclass(frozen=True)
class Rules(VariantFlags):
    """The variant flags in force; defaults are the rules document's."""

    CHOICES: ClassVar[dict[str, tuple]] = {
        "thirst_at_zero": (False, True),
        "launch_pad_needs_excavation": (False, True),
        "meteorologist_peek_return": ("top_same_order", "top_any_order"),
        "reshuffle_includes_this_draw": (False, True),
        "jet_pack_when_buried": (True, False),
    }

    thirst_at_zero: bool = False
    launch_pad_needs_excavation: bool = False
    meteorologist_peek_return: str = "top_same_order"
    reshuffle_includes_this_draw: bool = False
    jet_pack_when_buried: bool = True
