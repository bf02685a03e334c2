"""Building blocks of a study file's schema, shared by the study (`config`) and each game's section of it
(`games.<game>`): the strict pydantic model, a validator's complaint, policy values and how a matrix value
is written in scenario ids."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..common.components import ComponentsError
from ..common.variants import RulesError
from .layout_files import check_layout_set

StrictPosInt = Annotated[int, Field(strict=True, ge=1)]


class Invalid(ValueError):
    """A validator's complaint with the allowed values kept apart (pydantic keeps the instance), and the key
    at fault when a check of several keys knows it."""

    def __init__(self, message: str, allowed: str | None = None, key: str | tuple[str, ...] | None = None) -> None:
        super().__init__(message)
        self.message, self.allowed, self.key = message, allowed, key


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def parse_policy(v: Any) -> tuple[str, dict[str, Any]]:
    """`random`, `{name: heuristic, depth: 2}` or a player of the user's `{import: "my_players:Cautious", x: 1}`
    -> (name, params); a user's player is named by its import path."""
    if isinstance(v, str) and v:
        return v, {}
    if isinstance(v, dict) and ("name" in v) + ("import" in v) == 1:
        key = "name" if "name" in v else "import"
        if isinstance(v[key], str) and (key == "name" or ":" in v[key]):
            return v[key], {k: p for k, p in v.items() if k != key}
    raise Invalid("must be a policy id, a mapping {name: <policy id>, <parameter>: <value>, ...} or a player of your "
                  "own {import: 'module:Class', <parameter>: <value>, ...}")


def render_value(value: Any) -> str:
    """A matrix value as text for scenario ids: true, 3, pilot+diver, heuristic(depth=2)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "+".join(render_value(v) for v in value)
    if isinstance(value, dict) and "name" not in value:  # a component given by role: (water_carrier=6)
        return "(" + ";".join(f"{k}={render_value(v)}" for k, v in value.items()) + ")"
    if isinstance(value, dict):
        name, params = parse_policy(value)
        return f"{name}(" + ";".join(f"{k}={render_value(v)}" for k, v in params.items()) + ")" if params else name
    return str(value)


class GameSection(Model):
    """What the `game:` sections of both games check alike (each game's model declares the fields, in the order
    of its documentation, and its ROLE_IDS, MOST_PLAYERS, RULES and COMPONENTS)."""

    ROLE_IDS: ClassVar[tuple[str, ...]] = ()
    MOST_PLAYERS: ClassVar[int] = 4
    RULES: ClassVar[Any] = None
    COMPONENTS: ClassVar[Any] = None  # the game's Components (fi_cli.<game>.components)
    BUILTIN_LAYOUTS: ClassVar[Any] = ()
    if TYPE_CHECKING:  # the fields each game declares
        players: int
        roles: Any
        first_player: Any
        rules: dict[str, Any]
        components: dict[str, Any]

    @field_validator("layout", check_fields=False)
    @classmethod
    def _layout(cls, v: Any) -> Any:
        """A built-in id, a layout file, or a set of layout files ({dir: ...}, {glob: ...}: a scenario each)."""
        if isinstance(v, dict):
            try:
                check_layout_set(v)
            except ValueError as e:
                raise Invalid(str(e)) from None
        elif not isinstance(v, str) or not v:
            raise Invalid("must be a built-in layout id, a layout file (.yaml) or a set of layout files "
                          "{dir: FOLDER} or {glob: PATTERN}", ", ".join(cls.BUILTIN_LAYOUTS))
        return v

    @field_validator("roles", check_fields=False)
    @classmethod
    def _roles(cls, v: Any) -> Any:
        """`random` or a list of distinct role ids of the game (in seat order)."""
        if v == "random":
            return v
        if not isinstance(v, list) or not v:
            raise Invalid("must be 'random' or a list of role ids in seat order", ", ".join(cls.ROLE_IDS))
        for r in v:
            if r not in cls.ROLE_IDS:
                raise Invalid(f"unknown role {r!r}", ", ".join(cls.ROLE_IDS))
        if len(set(v)) != len(v):
            raise Invalid("each role can be played by one player only")
        return v

    @field_validator("first_player", check_fields=False)
    @classmethod
    def _first_player(cls, v: Any) -> Any:
        if v != "random" and (type(v) is not int or v < 0):
            raise Invalid("must be 'random' or a seat number",
                          ", ".join(["random", *map(str, range(cls.MOST_PLAYERS))]))
        return v

    @field_validator("rules", check_fields=False)
    @classmethod
    def _rules(cls, v: dict[str, Any]) -> dict[str, Any]:
        try:
            cls.RULES.from_dict(v)
        except RulesError as e:
            raise Invalid(e.message, e.allowed) from None
        return v

    @field_validator("components", check_fields=False)
    @classmethod
    def _components(cls, v: Any) -> Any:
        """A mapping component -> value, each checked against what the rules can bear (the game's Components)."""
        if not isinstance(v, dict):
            raise Invalid("must be a mapping of components to values, e.g. {hand_limit: 6}",
                          ", ".join(cls.COMPONENTS.specs()))
        try:
            cls.COMPONENTS.from_dict(v)
        except ComponentsError as e:
            raise Invalid(e.message, e.allowed, e.key) from None
        return v

    def seats(self) -> dict[str, Any]:
        """The engine's set-up arguments of every game: players, roles, first player, variant flags, components."""
        roles, first = self.roles, self.first_player
        return {"players": self.players, "roles": None if roles == "random" else tuple(roles),
                "first_player": None if first == "random" else first, "rules": self.RULES.from_dict(self.rules),
                "components": self.COMPONENTS.from_dict(self.components)}

    def check_components(self, start: int) -> None:
        """The components against the set-up (the players, the meter's start mark)."""
        try:
            self.COMPONENTS.from_dict(self.components).check_setup(self.players, start)
        except ComponentsError as e:
            raise Invalid(e.message, e.allowed, ("components", e.key) if e.key else "components") from None

    def check_scenario(self) -> None:
        """What depends on several keys (the matrix may set each), checked per scenario after the matrix: the
        roles and the first player against the player count."""
        players, roles, first = self.players, self.roles, self.first_player
        if roles != "random" and len(roles) != players:
            raise Invalid(f"{len(roles)} roles for {players} players; give one role per player")
        if first != "random" and first >= players:
            raise Invalid(f"first_player {first} is not a seat of {players} players",
                          ", ".join(["random"] + [str(i) for i in range(players)]))
