"""Rule variants as a frozen object: each flag with its allowed values (the rules document's default first)."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any, ClassVar

from .choices import ChoiceError, yaml_text


class RulesError(ChoiceError):
    """An unknown variant flag or a value it does not allow."""


class VariantFlags:
    """Base of a game's frozen ``Rules`` dataclass: checks every flag against ``CHOICES`` once, when built."""

    CHOICES: ClassVar[dict[str, tuple]] = {}

    def __post_init__(self) -> None:
        for name, allowed in self.CHOICES.items():
            value = getattr(self, name)
            if value not in allowed or type(value) is not type(allowed[0]):
                raise RulesError(f"rule variant {name!r} cannot be {yaml_text(value)}", allowed)

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> Any:
        """Build from a mapping of flag -> value; unknown flags are errors naming the valid ones."""
        values = dict(values or {})
        known = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        unknown = [k for k in values if k not in known]
        if unknown:
            raise RulesError(f"unknown rule variant {unknown[0]!r}", known, "variants are")
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def allowed(cls) -> dict[str, tuple]:
        """Each flag and its allowed values."""
        return dict(cls.CHOICES)
