"""Study configs: YAML -> validated `Study` -> one `Scenario` per point of the matrix.

A study file (unknown keys are errors):

    name: layouts-vs-difficulty      # label; default output runs/<name>
    description: ...                 # optional
    games: 2000                      # games per scenario
    seed: 20261129                   # root seed
    chunk_size: 250                  # optional: games per written file (the unit of resuming)
    game:                            # the island's keys; `name: desert` plays Forbidden Desert, whose keys are
                                     # in its door (fi_cli.sim.games.desert): one study plays one game
      layout: forbidden_island       # built-in id, a layout file path (relative to this file), or a set of
                                     # layout files {dir: FOLDER} or {glob: "FOLDER/*.yaml"} (one scenario each)
      difficulty: normal             # novice | normal | elite | legendary | start level 1-9
      players: 4                     # 2-4
      roles: random                  # random | list of role ids (seat order)
      first_player: random           # random | seat number 0..players-1
      rules: {}                      # variant flags of the rules document
      components: {}                 # the game's components, e.g. {waters_rise: 4, hand_limit: 6}
    policy: random                   # a policy id, or {name: ..., <its parameters>}
    matrix:                          # optional: the cross product makes the scenarios
      layout: [forbidden_island, skull_island, layouts/my_island.yaml, {dir: generated/}]
      difficulty: [novice, normal]
      # also: players, roles, first_player, policy, rules.<flag>, components.<name>
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

from pydantic import BaseModel, Field, ValidationError, field_validator

from ..common.components import ComponentsError
from .errors import _UNSET, ConfigError, StudyError, key_text, line_of, read_yaml
from .games import DEFAULT, GAMES, TITLES, component_schemas, door
from .layout_files import is_layout_set, layout_set_files
from .models import Invalid, Model, StrictPosInt, parse_policy, render_value

__all__ = ["BASE_SCENARIO_ID", "Scenario", "Study", "load_study", "parse_policy", "render_value"]

BASE_SCENARIO_ID = "base"


class StudyModel(Model):
    name: Annotated[str, Field(strict=True)]
    description: str = ""
    games: StrictPosInt
    seed: Annotated[int, Field(strict=True, ge=0)]
    chunk_size: StrictPosInt = 250
    game: dict[str, Any] = Field(default_factory=dict)  # validated by the game's own model (its door)
    policy: Any = "random"
    matrix: dict[str, list[Any]] = Field(default_factory=dict)
    labels: dict[str, dict[Any, Any]] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        # the name is the default run directory runs/<name>: '..' or 'a/b' would write somewhere else
        if v.strip() in ("", ".", "..") or any(c in "/\\" or not c.isprintable() for c in v):
            raise Invalid("must be a plain name (it names the run directory runs/<name>): not empty, not '.' "
                          "or '..', no '/', '\\' or control characters")
        return v

    @field_validator("policy")
    @classmethod
    def _policy(cls, v: Any) -> Any:
        parse_policy(v)
        return v


def matrix_keys(door: Any) -> tuple[str, ...]:
    """The keys a matrix of this game may cross."""
    return (*door.MATRIX_KEYS, "policy", *(f"rules.{f}" for f in door.Rules().to_dict()),
            *(f"components.{c}" for c in door.Components.specs()))


def changed_components(scenarios: Any) -> tuple[str, ...]:
    """The components some scenario changes from the rulebook's, in the game's order: what the study records of
    every scenario (in its dict, its files and its games rows)."""
    changed = {k for s in scenarios for k in s.setup.components.changed()}
    return tuple(k for k in scenarios[0].door.Components.specs() if k in changed) if scenarios else ()


@dataclass(frozen=True)
class Scenario:
    """One point of the study's matrix: the game's set-up (the engine's GameSetup) and the players' policy."""

    index: int
    id: str
    values: dict[str, Any]
    setup: Any
    policy: str
    policy_params: dict[str, Any] = field(default_factory=dict)
    game: str = DEFAULT
    component_columns: tuple[str, ...] = ()  # the components its study changes (see changed_components)
    seed_stream: str = ""  # the games' seeds come from (root seed, this stream, game); '' = its id

    @property
    def stream(self) -> str:
        """What its game seeds are derived from with the root seed and the game number: its id, unless it shares
        a stream with other scenarios (a design that compares them on the same deals)."""
        return self.seed_stream or self.id

    @property
    def door(self) -> Any:
        """The game's door (fi_cli.sim.games.<game>)."""
        return door(self.game)

    @property
    def schemas(self) -> dict[str, Any]:
        """The Parquet schemas of its data: the game's, with a games column per component its study changes."""
        return component_schemas(self.door, self.component_columns)

    @property
    def layout(self) -> Any:
        return self.setup.layout

    @property
    def difficulty(self) -> str:
        return self.door.difficulty_name(self.setup.start_level)

    @property
    def policy_label(self) -> str:
        return render_value({"name": self.policy, **self.policy_params} if self.policy_params else self.policy)

    def to_dict(self) -> dict[str, Any]:
        # an island scenario names no game: its dict (and so every island file) is as it was before the desert;
        # nor, in a study of the rulebook's components, any component
        game = {} if self.game == DEFAULT else {"game": self.game}
        comp = self.setup.components
        components = {"components": {k: comp.value(k) for k in self.component_columns}} if self.component_columns \
            else {}
        stream = {"seed_stream": self.seed_stream} if self.seed_stream else {}
        return {"index": self.index, "id": self.id, "values": self.values, **game,
                **self.door.setup_to_dict(self.setup), **components,
                "policy": {"name": self.policy, "params": self.policy_params}, **stream}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Scenario:
        game = d.get("game", DEFAULT)
        return cls(index=d["index"], id=d["id"], values=d["values"], setup=door(game).setup_from_dict(d),
                   policy=d["policy"]["name"], policy_params=d["policy"]["params"], game=game,
                   component_columns=tuple(d.get("components", ())), seed_stream=d.get("seed_stream", ""))


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
    game: str = DEFAULT  # every scenario's game
    design: dict[str, Any] | None = None  # what a study made by `fi design` is (e.g. a sensitivity analysis)

    @property
    def door(self) -> Any:
        return door(self.game)

    def resolved(self) -> dict[str, Any]:
        """Everything the data depends on, with layout files inlined, the labels and (for the island) the
        features of each layout (fi_cli.island.layout_features): what a manifest keeps."""
        layouts = {s.layout.id: s.layout for s in self.scenarios}
        features = self.door.layout_features
        return {
            "game": self.game,
            "name": self.name,
            "description": self.description,
            "games": self.games,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "scenarios": [s.to_dict() for s in self.scenarios],
            "labels": self.labels,
            **({"features": {lid: features(lay) for lid, lay in layouts.items()}} if features else {}),
            **({"design": self.design} if self.design else {}),
        }

    @property
    def hash(self) -> str:
        """Hash of what determines the data (not the name, description, labels, layout features or design, which
        only name or describe things; the game is in the scenarios of any game but the island, whose hash is as
        it was before the desert)."""
        data = {k: v for k, v in self.resolved().items()
                if k not in ("name", "description", "labels", "features", "game", "design")}
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
                   path=path, labels=d.get("labels", {}), game=d.get("game", DEFAULT), design=d.get("design"))


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

    section = data.get("game")
    game = section.get("name", DEFAULT) if isinstance(section, dict) else DEFAULT
    if game not in GAMES:
        raise fail("unknown game", ("game", "name"), value=game, allowed=", ".join(GAMES))
    the_game = door(game)

    def elsewhere(key: str, keys_of: Callable[[Any], Any]) -> str:
        """' (a key of Forbidden Desert ...)' when `key` belongs to another game, else ''."""
        other = next((g for g in GAMES if g != game and key in keys_of(door(g))), None)
        return (f" ({key!r} is a key of {TITLES[other]}; this study plays {TITLES[game]}, and one study plays one "
                f"game: give game.name: {other} to play {TITLES[other]})") if other else ""

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
                hint = elsewhere(loc[-1], lambda d: d.GameModel.model_fields) if at == ("game",) else ""
                raise fail(f"unknown key{hint}", loc, allowed=", ".join(model.model_fields)) from None
            if kind == "missing":
                raise fail("missing (required)", loc) from None
            if isinstance(cause, Invalid):
                if cause.key and not value_at:  # the entry of a mapping at fault (a component)
                    loc = loc + (cause.key,)
                # for a mapping (rules) the message already names the bad entry: do not print the whole dict
                value = _UNSET if isinstance(given, dict) else given
                raise fail(cause.message, loc, value=value, allowed=cause.allowed) from None
            raise fail(err["msg"].removeprefix("Value error, "), loc, value=given) from None

    model: StudyModel = validated(StudyModel, data)
    base_game = validated(the_game.GameModel, model.game, at=("game",)).model_dump()
    base_policy = model.policy

    # Each matrix value is checked on its own first, so an error points at matrix.<key>[i].
    allowed_keys = matrix_keys(the_game)
    for key, values in model.matrix.items():
        if key in ("game", "name", "game.name"):
            raise fail("one study plays one game, so the matrix cannot vary it; make a study per game (`fi report` "
                       "takes both runs and reports each game in its own section)", ("matrix", key))
        if key not in allowed_keys:
            raise fail(f"unknown matrix key {key!r}{elsewhere(key, matrix_keys)}", ("matrix",),
                       allowed=", ".join(allowed_keys))
        if not values:
            raise fail(f"matrix.{key} needs at least one value", ("matrix",))
        for i, value in enumerate(values):
            at = ("matrix", key, i)
            if key == "policy":
                try:
                    parse_policy(value)
                except Invalid as e:
                    raise fail(e.message, at, value=value) from None
            elif key.startswith("rules."):
                flag = key.split(".", 1)[1]
                try:
                    the_game.Rules.from_dict({**base_game["rules"], flag: value})
                except ValueError as e:
                    raise fail(str(e), at) from None
            elif key.startswith("components."):
                name = key.split(".", 1)[1]
                try:
                    the_game.Components.from_dict({**base_game["components"], name: value})
                except ComponentsError as e:  # the component at fault may be another one the value clashes with
                    text = e.message if e.key == name else f"component {e.key!r}: {e.message}" if e.key else e.message
                    raise fail(text, at, allowed=e.allowed) from None
            else:
                validated(the_game.GameModel, {**base_game, key: value}, value_at=at)

    layouts: dict[str, Any] = {}

    def layout_for(ref: str, at: tuple) -> Any:
        if ref not in layouts:
            try:
                layout = the_game.load_layout(ref, base=path.parent)
            except ConfigError as e:  # name the layout file's line and where the study refers to it
                raise fail(f"layout file {ref!r} is not valid: {e}", at) from None
            except ValueError as e:
                allowed = ", ".join(the_game.BUILTIN_LAYOUTS) + ", or a layout file (.yaml)"
                raise fail(str(e), at, allowed=allowed) from None
            # the id names the scenarios and the data's layout column: two layouts must not share one
            twin = next((r for r, lay in layouts.items() if lay.id == layout.id), None)
            if twin is not None:
                raise fail(f"layout files {twin!r} and {ref!r} both have the id {layout.id!r} (a layout's id "
                           "is its file name unless the file gives one); give one of them its own id with a "
                           "line such as 'id: my_island' in the file", at)
            layouts[ref] = layout
        return layouts[ref]

    matrix = _expand_layout_sets(model.matrix, base_game["layout"], path.parent, fail)
    keys = list(matrix)
    scenarios: list[Scenario] = []
    seen_ids: dict[str, int] = {}
    checked_policies: set[str] = set()
    combos = itertools.product(*(matrix[k] for k in keys))
    for index, combo in enumerate(combos):
        settings = dict(base_game, rules=dict(base_game["rules"]), components=dict(base_game["components"]))
        policy = base_policy
        where: dict[str, tuple] = {}
        for key, (value, at) in zip(keys, combo, strict=True):
            where[key] = at
            if key == "policy":
                policy = value
            elif key.startswith(("rules.", "components.")):
                section, name = key.split(".", 1)
                settings[section][name] = value
            else:
                settings[key] = value
        layout = layout_for(settings["layout"], where.get("layout", ("game", "layout")))
        values = {}
        for key, (value, _) in zip(keys, combo, strict=True):
            values[key] = layout.id if key == "layout" else value
        sid = ",".join(f"{k}={render_value(v)}" for k, v in values.items()) or BASE_SCENARIO_ID
        if sid in seen_ids:
            raise fail(f"two scenarios get the same id {sid!r}; make the matrix values distinct",
                       ("matrix",) + tuple(keys[:1]))
        seen_ids[sid] = index
        at = ("game",) if not keys else ("matrix",)
        g = validated(the_game.GameModel, settings, at=at)
        try:
            g.check_scenario()
        except Invalid as e:
            if not keys:
                inside = (e.key,) if isinstance(e.key, str) else e.key or ()
                raise fail(e.message, at + inside, allowed=e.allowed) from None
            named = f"game.{key_text(e.key)}: " if isinstance(e.key, tuple) else ""  # a component, by name
            raise fail(f"scenario {sid!r}: {named}{e.message}", at, allowed=e.allowed) from None
        name, params = parse_policy(policy)
        label = json.dumps([name, params], sort_keys=True, default=str)
        if label not in checked_policies:
            try:
                the_game.check_policy(name, params)
            except ValueError as e:  # the names allowed when the name is wrong; its parameters are in the message
                names = the_game.policy_names()
                raise fail(str(e), where.get("policy", ("policy",)),
                           allowed=None if name in names else ", ".join(names)) from None
            checked_policies.add(label)
        try:
            setup = the_game.setup_of(g, layout)
        except ValueError as e:  # the engine's own checks of a set-up, e.g. a layout it cannot play
            raise fail(f"scenario {sid!r}: {e}", at) from None
        scenarios.append(Scenario(index=index, id=sid, values=values, setup=setup, policy=name,
                                  policy_params=params, game=game))

    labels = _labels(model.labels, {k: [v for v, _ in vs] for k, vs in matrix.items()},
                     {ref: lay.id for ref, lay in layouts.items()}, fail)
    columns = changed_components(scenarios)
    return Study(name=model.name, description=model.description, games=model.games, seed=model.seed,
                 chunk_size=model.chunk_size, scenarios=tuple(replace(s, component_columns=columns) for s in scenarios),
                 path=path, labels=labels, game=game)


def _expand_layout_sets(matrix: dict[str, list[Any]], base_layout: Any, folder: Path,
                        fail: Callable[..., StudyError]) -> dict[str, list[tuple[Any, tuple]]]:
    """The matrix as key -> [(value, where it is written)], each layout set ({dir: ...} or {glob: ...})
    replaced by its files; a set as the base game's layout becomes the first matrix key (unless the matrix
    gives the layouts)."""
    out = {key: [(v, ("matrix", key, i)) for i, v in enumerate(values)] for key, values in matrix.items()}
    if "layout" not in out and is_layout_set(base_layout):
        out = {"layout": [(base_layout, ("game", "layout"))], **out}
    if "layout" in out:
        expanded = []
        for value, at in out["layout"]:
            if not is_layout_set(value):
                expanded.append((value, at))
                continue
            try:
                expanded += [(ref, at) for ref in layout_set_files(value, folder)]
            except ValueError as e:
                raise fail(str(e), at) from None
        out["layout"] = expanded
    return out


def _labels(given: dict[str, dict[Any, Any]], matrix: dict[str, list[Any]], layout_ids: dict[str, str],
            fail: Callable[..., StudyError]) -> dict[str, dict[str, str]]:
    """`labels:` checked against the matrix (layout sets expanded): key -> {value as in the scenario ids: label}."""
    out: dict[str, dict[str, str]] = {}
    for key, names in given.items():
        if key not in matrix:
            raise fail("labels name values of matrix keys; this key is not in the matrix", ("labels", key),
                       allowed=", ".join(matrix) or "none (the study has no matrix)")
        # A value is named as the scenario ids write it; a layout also by the file the matrix gives.
        ids = {render_value(v): render_value(v) for v in matrix[key]}
        if key == "layout":
            ids |= {ref: layout_ids[ref] for ref in matrix[key]}
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
