"""Building blocks of a study file's schema, shared by the study (`config`) and each game's section of it
(`games.<game>`): the strict pydantic model, a validator's complaint, policy values and how a matrix value
is written in scenario ids."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

StrictPosInt = Annotated[int, Field(strict=True, ge=1)]


class Invalid(ValueError):
    """A validator's complaint with the allowed values kept apart (pydantic keeps the instance)."""

    def __init__(self, message: str, allowed: str | None = None) -> None:
        super().__init__(message)
        self.message, self.allowed = message, allowed


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def parse_policy(v: Any) -> tuple[str, dict[str, Any]]:
    """`random` or `{name: heuristic, depth: 2}` -> (name, params)."""
    if isinstance(v, str) and v:
        return v, {}
    if isinstance(v, dict) and isinstance(v.get("name"), str):
        return v["name"], {k: p for k, p in v.items() if k != "name"}
    raise Invalid("must be a policy id or a mapping {name: <policy id>, <parameter>: <value>, ...}")


def render_value(value: Any) -> str:
    """A matrix value as text for scenario ids: true, 3, pilot+diver, heuristic(depth=2)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "+".join(render_value(v) for v in value)
    if isinstance(value, dict):
        name, params = parse_policy(value)
        return f"{name}(" + ";".join(f"{k}={render_value(v)}" for k, v in params.items()) + ")" if params else name
    return str(value)


def check_roles(v: Any, roles: tuple[str, ...]) -> Any:
    """`random` or a list of distinct role ids of the game (in seat order)."""
    if v == "random":
        return v
    if not isinstance(v, list) or not v:
        raise Invalid("must be 'random' or a list of role ids in seat order", ", ".join(roles))
    for r in v:
        if r not in roles:
            raise Invalid(f"unknown role {r!r}", ", ".join(roles))
    if len(set(v)) != len(v):
        raise Invalid("each role can be played by one player only")
    return v


def check_first_player(v: Any, most: int) -> Any:
    if v != "random" and (type(v) is not int or v < 0):
        raise Invalid("must be 'random' or a seat number", ", ".join(["random", *map(str, range(most))]))
    return v


def check_seats(players: int, roles: Any, first_player: Any) -> None:
    """Roles and first player against the player count: checked per scenario, after the matrix."""
    if roles != "random" and len(roles) != players:
        raise Invalid(f"{len(roles)} roles for {players} players; give one role per player")
    if first_player != "random" and first_player >= players:
        raise Invalid(f"first_player {first_player} is not a seat of {players} players",
                      ", ".join(["random"] + [str(i) for i in range(players)]))
