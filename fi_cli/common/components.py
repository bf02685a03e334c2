"""A game's components as numbers a designer may change (how many Waters Rise! cards, the hand limit, the
storm meter ...): each with the rulebook's value as its default, what it is and the range the rules can bear,
validated once into a frozen object, like the rule variants.

A game declares its ``Components`` as a frozen dataclass of this base, one field per component, each with a
``Component`` in its metadata (``part(...)``). The kinds of value:

- ``count``: a whole number in [low, high];
- ``track``: a meter, the cards drawn at each mark from the bottom mark (a list of 1 to ``high_len`` numbers in
  [low, high]; the mark above the last is the skull);
- ``by_role``: a number per role (a mapping role -> number; the roles not named keep the rulebook's).

What depends on several components is checked by the game's ``check()``; what depends on the set-up too (the
players, the start of the meter) by its ``check_setup(players, start)``. Every complaint is a
``ComponentsError`` naming the component.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .policies import hint


class ComponentsError(ValueError):
    """A component's value the rules cannot bear: ``key`` is the component, ``allowed`` what it may be."""

    def __init__(self, message: str, key: str | None = None, allowed: str | None = None) -> None:
        text = f"component {key!r}: {message}" if key else message
        super().__init__(text + (f"; allowed: {allowed}" if allowed else ""))
        self.message, self.key, self.allowed = message, key, allowed


@dataclass(frozen=True)
class Component:
    """What a component is (for messages and documentation) and the values it may take."""

    what: str
    low: int
    high: int
    kind: str = "count"  # count | track | by_role
    high_len: int = 20  # a track: the most marks
    why_low: str = ""  # why the lowest value is what it is, when the rules decide it


def part(default: Any, what: str, low: int, high: int, kind: str = "count", why_low: str = "") -> Any:
    """A component field of a game's Components dataclass."""
    return field(default=default, metadata={"component": Component(what, low, high, kind, why_low=why_low)})


def derived() -> Any:
    """A field a game computes from its components (not one itself: not given, compared or listed)."""
    return field(init=False, repr=False, compare=False, default=None)


class ComponentSet:
    """Base of a game's frozen ``Components`` dataclass (see the module doc)."""

    ROLES: ClassVar[tuple[str, ...]] = ()  # the role ids a by_role component is given by

    # ----------------------------------------------------------------- the components
    @classmethod
    def specs(cls) -> dict[str, Component]:
        """Each component and what it may be, in the order of the documentation."""
        return {f.name: f.metadata["component"] for f in fields(cls) if "component" in f.metadata}  # type: ignore

    @classmethod
    def defaults(cls) -> ComponentSet:
        return cls()

    @classmethod
    def allowed(cls, name: str) -> str:
        """What a component may be, as text for a message."""
        spec = cls.specs()[name]
        span = f"{spec.low}-{spec.high}"
        if spec.kind == "track":
            return f"a list of 1-{spec.high_len} numbers {span}, the cards drawn at each mark from the bottom"
        if spec.kind == "by_role":
            return f"a mapping role -> {span} of some of {', '.join(cls.ROLES)}"
        return f"a whole number {span}"

    # ----------------------------------------------------------------- reading and writing
    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> Any:
        """Build from a mapping name -> value (the rulebook's for the others); ComponentsError names the
        first unknown name or bad value."""
        values = dict(values or {})
        specs = cls.specs()
        for name in values:
            if name not in specs:
                raise ComponentsError(f"unknown component {name!r}{hint(name, specs)}", allowed=", ".join(specs))
        given = {name: cls._read(name, spec, values[name]) for name, spec in specs.items() if name in values}
        made = cls(**given)
        made.check()
        return made

    @classmethod
    def _read(cls, name: str, spec: Component, v: Any) -> Any:
        """One value, checked against its kind and range, as the dataclass keeps it (tuples, not lists)."""
        allowed = cls.allowed(name)

        def number(x: Any, what: str = "") -> int:
            if type(x) is not int or not spec.low <= x <= spec.high:
                raise ComponentsError(f"{what}{x!r} is not a whole number {spec.low}-{spec.high}{spec.why_low}", name,
                                      None if spec.kind == "count" else allowed)
            return x

        if spec.kind == "track":
            if v is None and getattr(cls(), name) is None:  # left to the rulebook, which sets it by the set-up
                return None
            if not isinstance(v, list | tuple) or not 1 <= len(v) <= spec.high_len:
                raise ComponentsError(f"must be a list of 1-{spec.high_len} marks, got {v!r}", name, allowed)
            return tuple(number(x, f"mark {i + 1} ") for i, x in enumerate(v))
        if spec.kind == "by_role":
            if not isinstance(v, dict):
                raise ComponentsError(f"must be a mapping role -> number, got {v!r}", name, allowed)
            out = dict(zip(cls.ROLES, getattr(cls(), name), strict=True))
            for role, x in v.items():
                if role not in out:
                    raise ComponentsError(f"unknown role {role!r}{hint(str(role), cls.ROLES)}", name, allowed)
                out[role] = number(x, f"{role} ")
            return tuple(out.values())
        return number(v)

    def value(self, name: str) -> Any:
        """A component's value as a study file writes it (lists for tracks, a mapping for by_role)."""
        v = getattr(self, name)
        kind = self.specs()[name].kind
        if kind == "by_role":
            return dict(zip(self.ROLES, v, strict=True))
        return list(v) if kind == "track" and v is not None else v

    def effective(self, name: str, players: int) -> Any:
        """The value in force with ``players``: a number, or a tuple (a track left to the rulebook is its)."""
        v = getattr(self, name)
        return tuple(self.default_track(players)) if v is None else v

    def to_dict(self) -> dict[str, Any]:
        return {name: self.value(name) for name in self.specs()}

    def changed(self) -> dict[str, Any]:
        """The components that differ from the rulebook's (what a scenario records)."""
        base = self.defaults()
        return {name: self.value(name) for name in self.specs() if getattr(self, name) != getattr(base, name)}

    def document(self) -> dict[str, Any]:
        """What a position document writes of the components: {'components': the changed ones}, or nothing."""
        changed = self.changed()
        return {"components": changed} if changed else {}

    def check(self) -> None:
        """What several components must agree on (the game's rules); ComponentsError names one of them."""

    def check_setup(self, players: int, start: int) -> None:
        """What the components and the set-up must agree on; ComponentsError names the component."""

    # ----------------------------------------------------------------- for designers
    @classmethod
    def label(cls, name: str, value: Any) -> str:
        """A component's value in a scenario's label: 'hand limit 6', 'canteens water_carrier 6'."""
        words = name.replace("_", " ")
        if isinstance(value, dict):  # the roles that differ from the rulebook's
            base = cls().value(name)
            return f"{words} " + " ".join(f"{k} {v}" for k, v in value.items() if base.get(k) != v)
        if isinstance(value, list | tuple):
            return f"{words} " + ",".join(map(str, value))
        return f"{words} {value}"

    def step(self, name: str, up: bool, players: int, start: int) -> Any:
        """The value one step up or down from this one, as a study file writes it, or None if the rules cannot
        bear it (with this set-up): a count +-1; a track one mark longer (its last mark again) or shorter; every
        role +-1."""
        spec = self.specs()[name]
        v = self.value(name)
        if spec.kind == "track":
            v = v if v is not None else self.default_track(players)
            new: Any = v + v[-1:] if up else v[:-1]
        elif spec.kind == "by_role":
            new = {role: x + (1 if up else -1) for role, x in v.items()}
        else:
            new = v + (1 if up else -1)
        try:
            type(self).from_dict({**self.changed(), name: new}).check_setup(players, start)
        except ComponentsError:
            return None
        return new

    def default_track(self, players: int) -> list[int]:
        """A track left to the rulebook (None) as the list it stands for with ``players`` (a game that has one
        overrides this)."""
        raise NotImplementedError
