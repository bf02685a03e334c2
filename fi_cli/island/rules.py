"""Rule variants of section 10 of the rules document, validated once into a frozen object."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

RULES_VERSION = "fi-rules-2"  # 2: the treasure pile reshuffles at once; variant pilot_swim_uses_flight

_CHOICES: dict[str, tuple] = {
    "navigator_moves": ("mover_abilities", "orthogonal"),
    "diver_swim": ("nearest", "any_reachable"),
    "helicopter_rescue": (True, False),
    "helicopter_lift_group": ("subset", "all"),
    "diver_through_sea": (False, True),
    "pilot_swim_uses_flight": (False, True),
}


class RulesError(ValueError):
    """An unknown variant flag or a value it does not allow."""


@dataclass(frozen=True)
class Rules:
    """The variant flags in force; defaults are the rules document's."""

    navigator_moves: str = "mover_abilities"
    diver_swim: str = "nearest"
    helicopter_rescue: bool = True
    helicopter_lift_group: str = "subset"
    diver_through_sea: bool = False
    pilot_swim_uses_flight: bool = False
    turn_limit: int = 200

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed or type(value) is not type(allowed[0]):
                raise RulesError(
                    f"rule variant {name!r} cannot be {value!r}; allowed: {', '.join(repr(a) for a in allowed)}"
                )
        if type(self.turn_limit) is not int or self.turn_limit < 1:
            raise RulesError(f"rule variant 'turn_limit' must be a positive integer, got {self.turn_limit!r}")

    @classmethod
    def from_dict(cls, values: dict | None) -> Rules:
        """Build from a mapping of flag -> value; unknown flags are errors naming the valid ones."""
        values = dict(values or {})
        known = [f.name for f in fields(cls)]
        unknown = [k for k in values if k not in known]
        if unknown:
            raise RulesError(f"unknown rule variant {unknown[0]!r}; variants are: {', '.join(known)}")
        return cls(**values)

    def to_dict(self) -> dict:
        return asdict(self)

    @staticmethod
    def allowed() -> dict[str, tuple]:
        """Each flag and its allowed values (turn_limit: any positive integer)."""
        return dict(_CHOICES)
