"""Study configs: YAML -> validated `Study` -> one `Scenario` per point of the matrix.

A study file (unknown keys are errors):

    name: layouts-vs-difficulty      # label; default output runs/<name>
    description: ...                 # optional
    games: 2000                      # games per scenario
    seed: 20261129                   # root seed
    chunk_size: 250                  # optional: games per written file (the unit of resuming)
    game:
      layout: forbidden_island       # built-in id or a layout file path (relative to this file)
      difficulty: normal             # novice | normal | elite | legendary | start level 1-9
      players: 4                     # 2-4
      roles: random                  # random | list of role ids (seat order)
      first_player: random           # random | seat number 0..players-1
      rules: {}                      # variant flags of the rules document
    policy: random                   # a policy id, or {name: ..., <its parameters>}
    matrix:                          # optional: the cross product makes the scenarios
      layout: [forbidden_island, skull_island, layouts/my_island.yaml]
      difficulty: [novice, normal]
      # also: players, roles, first_player, policy, rules.<flag>
    labels:                          # optional: short names of matrix values in reports
      layout: {forbidden_island: Standard, layouts/my_island.yaml: Mine}
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..island.layouts import BUILTIN_LAYOUTS, Layout, LayoutError
from ..island.rules import Rules, RulesError
from ..island.tiles import DIFFICULTIES, ROLES, difficulty_name, parse_difficulty
from . import engine
from .errors import _UNSET, ConfigError, StudyError, key_text, line_of, read_yaml
from .layout_files import layout_from_dict, layout_to_dict, load_layout

GAME_KEYS = ("layout", "difficulty", "players", "roles", "first_player", "rules")
MATRIX_GAME_KEYS = ("layout", "difficulty", "players", "roles", "first_player")
RULE_FLAGS = tuple(Rules().to_dict())
MATRIX_KEYS = MATRIX_GAME_KEYS + ("policy",) + tuple(f"rules.{f}" for f in RULE_FLAGS)
BASE_SCENARIO_ID = "base"

StrictPosInt = Annotated[int, Field(strict=True, ge=1)]


class _Invalid(ValueError):
    """A validator's complaint with the allowed values kept apart (pydantic keeps the instance)."""

    def __init__(self, message: str, allowed: str | None = None) -> None:
        super().__init__(message)
        self.message, self.allowed = message, allowed


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GameModel(_Model):
    layout: str = "forbidden_island"
    difficulty: Any = "normal"
    players: Annotated[int, Field(strict=True, ge=2, le=4)] = 4
    roles: Any = "random"
    first_player: Any = "random"
    rules: dict[str, Any] = Field(default_factory=dict)

    @field_validator("difficulty")
    @classmethod
    def _difficulty(cls, v: Any) -> Any:
        try:
            parse_difficulty(v)
        except ValueError:
            raise _Invalid("unknown difficulty", ", ".join(DIFFICULTIES) + " or a start level 1-9") from None
        return v

    @field_validator("roles")
    @classmethod
    def _roles(cls, v: Any) -> Any:
        if v == "random":
            return v
        if not isinstance(v, list) or not v:
            raise _Invalid("must be 'random' or a list of role ids in seat order", ", ".join(ROLES))
        for r in v:
            if r not in ROLES:
                raise _Invalid(f"unknown role {r!r}", ", ".join(ROLES))
        if len(set(v)) != len(v):
            raise _Invalid("each role can be played by one player only")
        return v

    @field_validator("first_player")
    @classmethod
    def _first_player(cls, v: Any) -> Any:
        if v != "random" and (type(v) is not int or v < 0):
            raise _Invalid("must be 'random' or a seat number", "random, 0, 1, 2, 3")
        return v

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: dict[str, Any]) -> dict[str, Any]:
        try:
            Rules.from_dict(v)
        except RulesError as e:
            raise _Invalid(str(e)) from None
        return v

    def check_seats(self) -> None:
        """Roles and first player against the player count: checked per scenario, after the matrix."""
        if self.roles != "random" and len(self.roles) != self.players:
            raise _Invalid(f"{len(self.roles)} roles for {self.players} players; give one role per player")
        if self.first_player != "random" and self.first_player >= self.players:
            raise _Invalid(f"first_player {self.first_player} is not a seat of {self.players} players",
                           ", ".join(["random"] + [str(i) for i in range(self.players)]))


class StudyModel(_Model):
    name: Annotated[str, Field(strict=True)]
    description: str = ""
    games: StrictPosInt
    seed: Annotated[int, Field(strict=True, ge=0)]
    chunk_size: StrictPosInt = 250
    game: GameModel = Field(default_factory=GameModel)
    policy: Any = "random"
    matrix: dict[str, list[Any]] = Field(default_factory=dict)
    labels: dict[str, dict[Any, Any]] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        # the name is the default run directory runs/<name>: '..' or 'a/b' would write somewhere else
        if v.strip() in ("", ".", "..") or any(c in "/\\" or not c.isprintable() for c in v):
            raise _Invalid("must be a plain name (it names the run directory runs/<name>): not empty, not '.' "
                           "or '..', no '/', '\\' or control characters")
        return v

    @field_validator("policy")
    @classmethod
    def _policy(cls, v: Any) -> Any:
        parse_policy(v)
        return v

    @field_validator("matrix")
    @classmethod
    def _matrix(cls, v: dict[str, list[Any]]) -> dict[str, list[Any]]:
        for k, values in v.items():
            if k not in MATRIX_KEYS:
                raise _Invalid(f"unknown matrix key {k!r}", ", ".join(MATRIX_KEYS))
            if not values:
                raise _Invalid(f"matrix.{k} needs at least one value")
        return v


_MODEL_AT: dict[tuple, type[BaseModel]] = {(): StudyModel, ("game",): GameModel}


def parse_policy(v: Any) -> tuple[str, dict[str, Any]]:
    """`random` or `{name: heuristic, depth: 2}` -> (name, params)."""
    if isinstance(v, str) and v:
        return v, {}
    if isinstance(v, dict) and isinstance(v.get("name"), str):
        return v["name"], {k: p for k, p in v.items() if k != "name"}
    raise _Invalid("must be a policy id or a mapping {name: <policy id>, <parameter>: <value>, ...}")


@dataclass(frozen=True)
class Scenario:
    """One point of the study's matrix: everything needed to set up and play its games."""

    index: int
    id: str
    values: dict[str, Any]
    layout: Layout
    difficulty: str
    start_level: int
    players: int
    roles: tuple[str, ...] | None
    first_player: int | None
    rules: Rules
    policy: str
    policy_params: dict[str, Any] = field(default_factory=dict)

    @property
    def policy_label(self) -> str:
        return render_value({"name": self.policy, **self.policy_params} if self.policy_params else self.policy)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "id": self.id,
            "values": self.values,
            "layout": layout_to_dict(self.layout),
            "difficulty": self.difficulty,
            "start_level": self.start_level,
            "players": self.players,
            "roles": list(self.roles) if self.roles else "random",
            "first_player": "random" if self.first_player is None else self.first_player,
            "rules": self.rules.to_dict(),
            "policy": {"name": self.policy, "params": self.policy_params},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Scenario:
        return cls(
            index=d["index"],
            id=d["id"],
            values=d["values"],
            layout=layout_from_dict(d["layout"]),
            difficulty=d["difficulty"],
            start_level=d["start_level"],
            players=d["players"],
            roles=None if d["roles"] == "random" else tuple(d["roles"]),
            first_player=None if d["first_player"] == "random" else d["first_player"],
            rules=Rules.from_dict(d["rules"]),
            policy=d["policy"]["name"],
            policy_params=d["policy"]["params"],
        )


@dataclass(frozen=True)
class Study:
    """A validated study: how many games of which scenarios, from which root seed."""

    name: str
    games: int
    seed: int
    scenarios: tuple[Scenario, ...]
    chunk_size: int = 250
    description: str = ""
    path: Path | None = None
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # matrix key -> value in the id -> label

    def resolved(self) -> dict[str, Any]:
        """Everything the data depends on, with layout files inlined, and the labels: what a manifest keeps."""
        return {
            "name": self.name,
            "description": self.description,
            "games": self.games,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "scenarios": [s.to_dict() for s in self.scenarios],
            "labels": self.labels,
        }

    @property
    def hash(self) -> str:
        """Hash of what determines the data (not the name, description or labels, which only name things)."""
        data = {k: v for k, v in self.resolved().items() if k not in ("name", "description", "labels")}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def replace(self, *, games: int | None = None, seed: int | None = None) -> Study:
        """The same study with another game count or root seed (the command-line overrides)."""
        if games is not None and (type(games) is not int or games < 1):
            raise StudyError("must be a positive integer", key="games", value=games)
        if seed is not None and (type(seed) is not int or seed < 0):
            raise StudyError("must be a non-negative integer", key="seed", value=seed)
        return replace(self, games=self.games if games is None else games,
                       seed=self.seed if seed is None else seed)

    def scenario(self, ref: str | int) -> Scenario:
        """A scenario by id or index."""
        for s in self.scenarios:
            if s.id == ref or str(s.index) == str(ref):
                return s
        raise StudyError("no such scenario", key="scenario", value=ref,
                         allowed=", ".join(s.id for s in self.scenarios))

    @classmethod
    def from_resolved(cls, d: dict[str, Any], path: Path | None = None) -> Study:
        return cls(name=d["name"], description=d.get("description", ""), games=d["games"], seed=d["seed"],
                   chunk_size=d["chunk_size"], scenarios=tuple(Scenario.from_dict(s) for s in d["scenarios"]),
                   path=path, labels=d.get("labels", {}))


def load_study(path: str | Path) -> Study:
    """Read and validate a study file; every problem is a StudyError naming file, key, value, allowed."""
    path = Path(path)
    data, lines = read_yaml(path, StudyError)
    if not isinstance(data, dict):
        raise StudyError("a study file is a mapping of keys", file=path,
                         allowed=", ".join(StudyModel.model_fields))

    def fail(message: str, at: tuple, value: Any = _UNSET, allowed: str | None = None) -> StudyError:
        return StudyError(message, file=path, key=key_text(at) or None, value=value, allowed=allowed,
                          line=line_of(lines, at))

    def validated(model: type[BaseModel], values: Any, at: tuple = (), value_at: tuple | None = None) -> Any:
        """Validate; report at `at` + pydantic's location, or at `value_at` (a matrix value) if given."""
        try:
            return model.model_validate(values)
        except ValidationError as e:
            err = e.errors()[0]
            loc = value_at or at + tuple(err["loc"])
            kind, given = err["type"], err.get("input", _UNSET)
            cause = err.get("ctx", {}).get("error")
            if kind == "extra_forbidden":
                known = _MODEL_AT.get(tuple(loc[len(at):-1]), model).model_fields
                raise fail("unknown key", loc, allowed=", ".join(known)) from None
            if kind == "missing":
                raise fail("missing (required)", loc) from None
            if isinstance(cause, _Invalid):
                # for a mapping (rules) the message already names the bad entry: do not print the whole dict
                value = _UNSET if isinstance(given, dict) else given
                raise fail(cause.message, loc, value=value, allowed=cause.allowed) from None
            raise fail(err["msg"].removeprefix("Value error, "), loc, value=given) from None

    model: StudyModel = validated(StudyModel, data)
    base_game = model.game.model_dump()
    base_policy = model.policy

    # Each matrix value is checked on its own first, so an error points at matrix.<key>[i].
    for key, values in model.matrix.items():
        for i, value in enumerate(values):
            at = ("matrix", key, i)
            if key == "policy":
                try:
                    parse_policy(value)
                except _Invalid as e:
                    raise fail(e.message, at, value=value) from None
            elif key.startswith("rules."):
                flag = key.split(".", 1)[1]
                try:
                    Rules.from_dict({**base_game["rules"], flag: value})
                except RulesError as e:
                    raise fail(str(e), at) from None
            else:
                validated(GameModel, {**base_game, key: value}, value_at=at)

    layouts: dict[str, Layout] = {}

    def layout_for(ref: str, at: tuple) -> Layout:
        if ref not in layouts:
            try:
                layout = load_layout(ref, base=path.parent)
            except ConfigError as e:  # name the layout file's line and where the study refers to it
                raise fail(f"layout file {ref!r} is not valid: {e}", at) from None
            except LayoutError as e:
                allowed = ", ".join(BUILTIN_LAYOUTS) + ", or a layout file (.yaml)"
                raise fail(str(e), at, allowed=allowed) from None
            # the id names the scenarios and the data's layout column: two islands must not share one
            twin = next((r for r, lay in layouts.items() if lay.id == layout.id), None)
            if twin is not None:
                raise fail(f"layout files {twin!r} and {ref!r} both have the id {layout.id!r} (a layout's id "
                           "is its file name unless the file gives one); give one of them its own id with a "
                           "line such as 'id: my_island' in the file", at)
            layouts[ref] = layout
        return layouts[ref]

    keys = list(model.matrix)
    scenarios: list[Scenario] = []
    seen_ids: dict[str, int] = {}
    checked_policies: set[str] = set()
    combos = itertools.product(*(list(enumerate(model.matrix[k])) for k in keys))
    for index, combo in enumerate(combos):
        game = dict(base_game, rules=dict(base_game["rules"]))
        policy = base_policy
        where: dict[str, tuple] = {}
        for key, (i, value) in zip(keys, combo, strict=True):
            where[key] = ("matrix", key, i)
            if key == "policy":
                policy = value
            elif key.startswith("rules."):
                game["rules"][key.split(".", 1)[1]] = value
            else:
                game[key] = value
        layout_at = where.get("layout", ("game", "layout"))
        layout = layout_for(game["layout"], layout_at)
        values = {}
        for key, (_, value) in zip(keys, combo, strict=True):
            values[key] = layout.id if key == "layout" else value
        sid = ",".join(f"{k}={render_value(v)}" for k, v in values.items()) or BASE_SCENARIO_ID
        if sid in seen_ids:
            raise fail(f"two scenarios get the same id {sid!r}; make the matrix values distinct",
                       ("matrix",) + tuple(keys[:1]))
        seen_ids[sid] = index
        g: GameModel = validated(GameModel, game, at=("game",) if not keys else ("matrix",))
        try:
            g.check_seats()
        except _Invalid as e:
            at = ("game",) if not keys else ("matrix",)
            raise fail(e.message if not keys else f"scenario {sid!r}: {e.message}", at, allowed=e.allowed) from None
        name, params = parse_policy(policy)
        policy_at = where.get("policy", ("policy",))
        label = json.dumps([name, params], sort_keys=True, default=str)
        if label not in checked_policies:
            try:
                engine.check_policy(name, params)
            except ValueError as e:
                raise fail(str(e), policy_at, allowed=", ".join(engine.policy_names())) from None
            checked_policies.add(label)
        start = parse_difficulty(g.difficulty)
        scenario = Scenario(
            index=index,
            id=sid,
            values=values,
            layout=layout,
            difficulty=difficulty_name(start),
            start_level=start,
            players=g.players,
            roles=None if g.roles == "random" else tuple(g.roles),
            first_player=None if g.first_player == "random" else g.first_player,
            rules=Rules.from_dict(g.rules),
            policy=name,
            policy_params=params,
        )
        try:
            engine.make_setup(scenario)
        except ValueError as e:  # the engine's own checks of a set-up, e.g. a layout it cannot play
            raise fail(f"scenario {sid!r}: {e}", ("game",) if not keys else ("matrix",)) from None
        scenarios.append(scenario)

    labels = _labels(model, {ref: lay.id for ref, lay in layouts.items()}, fail)
    return Study(name=model.name, description=model.description, games=model.games, seed=model.seed,
                 chunk_size=model.chunk_size, scenarios=tuple(scenarios), path=path, labels=labels)


def _labels(model: StudyModel, layout_ids: dict[str, str], fail: Callable[..., StudyError]
            ) -> dict[str, dict[str, str]]:
    """`labels:` checked against the matrix: key -> {value as in the scenario ids: label}."""
    out: dict[str, dict[str, str]] = {}
    for key, names in model.labels.items():
        if key not in model.matrix:
            raise fail("labels name values of matrix keys; this key is not in the matrix", ("labels", key),
                       allowed=", ".join(model.matrix) or "none (the study has no matrix)")
        # A value is named as the scenario ids write it; a layout also by the file the matrix gives.
        ids = {render_value(v): render_value(v) for v in model.matrix[key]}
        if key == "layout":
            ids |= {ref: layout_ids[ref] for ref in model.matrix[key]}
            ids |= {v: v for v in ids.values()}
        out[key] = {}
        for value, label in names.items():
            at = ("labels", key, render_value(value))
            if render_value(value) not in ids:
                raise fail("not a value of this matrix key", at, value=value, allowed=", ".join(dict.fromkeys(ids)))
            if not isinstance(label, str) or not label.strip():
                raise fail("a label is a short text", at, value=label)
            out[key][ids[render_value(value)]] = label.strip()
        twice = [lb for lb in out[key].values() if list(out[key].values()).count(lb) > 1]
        if twice:
            raise fail(f"two values share the label {twice[0]!r}; give each its own", ("labels", key))
    return out


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
