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
    baseline: difficulty=novice      # optional: what reports compare each scenario with (matrix values, or a
                                     # scenario id); without it the standard board when played, else the others
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from ..common.components import ComponentsError
from ..common.players import search_here
from .errors import _UNSET, ConfigError, Problems, StudyError, key_text, read_yaml
from .games import DEFAULT, GAMES, TITLES, component_schemas, door
from .layout_files import is_layout_set, layout_set_files
from .models import Invalid, Model, StrictPosInt, parse_policy, render_value
from .tables import NAME_MAX, partition_name

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
    baseline: Annotated[str, Field(strict=True)] | None = None

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


def scenario_id(values: dict[str, Any]) -> str:
    """The id of the scenario with these matrix values: 'key=value,...' in matrix order ('base' without any)."""
    return ",".join(f"{k}={render_value(v)}" for k, v in values.items()) or BASE_SCENARIO_ID


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
    seed_stream: str = ""  # the games' seeds come from (root seed, this stream, game); '' = its deal_id

    @property
    def stream(self) -> str:
        """What its game seeds are derived from with the root seed and the game number: its deal id (its id without
        the policy), unless it shares a stream with other scenarios (a design that compares them on the same deals)."""
        return self.seed_stream or self.deal_id

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

    @cached_property  # asked for every game logged
    def difficulty(self) -> str:
        return self.door.difficulty_name(self.setup.start_level)

    @cached_property  # asked for every game logged
    def deal_id(self) -> str:
        """The id its games' seeds come from: its id without the policy, so that the rungs of a policy matrix (a
        ladder of players) play the very same deals and their results pair game by game."""
        return scenario_id({k: v for k, v in self.values.items() if k != "policy"})

    @cached_property  # asked for every game logged
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
    baseline: str | None = None  # what reports compare each scenario with (report.pairing), if the study says
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
            **({"baseline": self.baseline} if self.baseline else {}),
            **({"features": {lid: features(lay) for lid, lay in layouts.items()}} if features else {}),
            **({"design": self.design} if self.design else {}),
        }

    @property
    def hash(self) -> str:
        """Hash of what determines the data (not the name, description, labels, layout features or design, which
        only name or describe things; the game is in the scenarios of any game but the island, whose hash is as
        it was before the desert)."""
        data = {k: v for k, v in self.resolved().items()
                if k not in ("name", "description", "labels", "features", "game", "baseline", "design")}
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
                   path=path, labels=d.get("labels", {}), game=d.get("game", DEFAULT), baseline=d.get("baseline"),
                   design=d.get("design"))


def load_study(path: str | Path) -> Study:
    """Read and validate a study file. Every problem found is raised at once, in file order, as one StudyError
    (`.problems`), each naming the file, the line, the key, what is wrong and what is allowed."""
    path = Path(path)
    data, lines = read_yaml(path, StudyError)
    if not isinstance(data, dict):
        raise StudyError("a study file is a mapping of keys", file=path,
                         allowed=", ".join(StudyModel.model_fields))
    return _StudyReader(path, data, Problems(StudyError, path, lines)).study()


def _reason(e: Exception) -> tuple[str, str | None]:
    """An error's message and its allowed values apart (a ChoiceError or an Invalid), else its text alone."""
    return getattr(e, "message", str(e)), getattr(e, "allowed", None)


def _sound(model: type[BaseModel], values: dict[str, Any]) -> bool:
    try:
        model.model_validate(values)
    except ValidationError:
        return False
    return True


class _StudyReader:
    """Checks a study file part by part, recording each problem and going on wherever the rest still makes
    sense: the top-level keys, the game section, each matrix value, each policy and each layout; then, when the
    game section and the matrix are sound, each scenario (what depends on several keys) and the labels."""

    def __init__(self, path: Path, data: dict[str, Any], problems: Problems) -> None:
        self.path, self.data, self.problems, self.fail = path, data, problems, problems.add
        section = data.get("game")
        self.game = section.get("name", DEFAULT) if isinstance(section, dict) else DEFAULT
        self.layouts: dict[str, Any] = {}  # reference -> layout, for the references that load
        self.policies_checked: dict[str, bool] = {}

    def study(self) -> Study:
        model = self.validated(StudyModel, self.data)
        if self.game not in GAMES:
            self.fail("unknown game", ("game", "name"), value=self.game, allowed=", ".join(GAMES))
            self.problems.check()
        self.door = door(self.game)
        bad = self.problems.top_keys()  # the rest is checked without these keys, so each problem is told once
        base = self.game_section({} if "game" in bad else self.data.get("game", {}))
        matrix = self.matrix({} if "matrix" in bad else self.data.get("matrix", {}), base)
        if "policy" not in matrix and "policy" not in bad:
            self.policy(self.data.get("policy", "random"), ("policy",))
        matrix = _expand_layout_sets(matrix, base["layout"], self.path.parent, self.fail)
        for ref, at in matrix.get("layout", [(base["layout"], ("game", "layout"))]):
            self.layout(ref, at)
        labels: dict[str, dict[str, str]] = {}
        baseline: str | None = None
        scenarios: tuple[Scenario, ...] = ()
        if not self.problems.under("game", "matrix"):
            policy = "random" if "policy" in bad else self.data.get("policy", "random")
            scenarios = self.scenarios(matrix, base, policy)
            if "labels" not in bad:
                labels = _labels(self.data.get("labels", {}), {k: [v for v, _ in vs] for k, vs in matrix.items()},
                                 {ref: lay.id for ref, lay in self.layouts.items()}, self.fail)
            if "baseline" not in bad:
                baseline = _baseline(self.data.get("baseline"), scenarios,
                                     {ref: lay.id for ref, lay in self.layouts.items()}, self.fail)
        self.problems.check()
        return Study(name=model.name, description=model.description, games=model.games, seed=model.seed,
                     chunk_size=model.chunk_size, scenarios=scenarios, path=self.path, labels=labels, game=self.game,
                     baseline=baseline)

    def elsewhere(self, key: str, keys_of: Callable[[Any], Any]) -> str:
        """' (a key of Forbidden Desert ...)' when `key` belongs to another game, else ''."""
        game = self.game
        other = next((g for g in GAMES if g != game and key in keys_of(door(g))), None)
        return (f" ({key!r} is a key of {TITLES[other]}; this study plays {TITLES[game]}, and one study plays one "
                f"game: give game.name: {other} to play {TITLES[other]})") if other else ""

    def validated(self, model: type[BaseModel], values: Any, at: tuple = (), value_at: tuple | None = None) -> Any:
        """The validated model, or None with each problem recorded at `at` + pydantic's location (or at
        `value_at`, a matrix value, if given)."""
        try:
            return model.model_validate(values)
        except ValidationError as e:
            for err in e.errors():
                loc = value_at or at + tuple(err["loc"])
                kind, given = err["type"], err.get("input", _UNSET)
                cause = err.get("ctx", {}).get("error")
                if kind == "extra_forbidden":
                    hint = self.elsewhere(loc[-1], lambda d: d.GameModel.model_fields) if at == ("game",) else ""
                    self.fail(f"unknown key{hint}", loc, allowed=", ".join(model.model_fields))
                elif kind == "missing":
                    self.fail("missing (required)", loc)
                elif isinstance(cause, Invalid):
                    if cause.key and not value_at:  # the entry of a mapping at fault (a component)
                        loc = loc + (cause.key,)
                    # for a mapping (rules) the message already names the bad entry: do not print the whole dict
                    self.fail(cause.message, loc, value=_UNSET if isinstance(given, dict) else given,
                              allowed=cause.allowed)
                else:
                    self.fail(err["msg"].removeprefix("Value error, "), loc, value=given)
            return None

    def game_section(self, section: dict[str, Any]) -> dict[str, Any]:
        """The `game:` settings; with a problem, its sound keys over the defaults (to check the matrix with)."""
        model = self.door.GameModel
        checked = self.validated(model, section, at=("game",))
        if checked is None:
            checked = model.model_validate({k: v for k, v in section.items() if _sound(model, {k: v})})
        return checked.model_dump()

    def matrix(self, matrix: dict[str, list[Any]], base: dict[str, Any]) -> dict[str, list[tuple[Any, tuple]]]:
        """Each matrix key and value checked on its own, so an error points at matrix.<key>[i]: the sound values
        as key -> [(value, where it is written)]."""
        allowed_keys = matrix_keys(self.door)
        out = {}
        for key, values in matrix.items():
            if key in ("game", "name", "game.name"):
                self.fail("one study plays one game, so the matrix cannot vary it; make a study per game (`fi "
                          "report` takes both runs and reports each game in its own section)", ("matrix", key))
            elif key not in allowed_keys:
                self.fail(f"unknown matrix key {key!r}{self.elsewhere(key, matrix_keys)}", ("matrix",),
                          allowed=", ".join(allowed_keys))
            elif not values:
                self.fail(f"matrix.{key} needs at least one value", ("matrix",))
            else:
                out[key] = [(v, ("matrix", key, i)) for i, v in enumerate(values)
                            if self.matrix_value(key, v, ("matrix", key, i), base)]
        return out

    def matrix_value(self, key: str, value: Any, at: tuple, base: dict[str, Any]) -> bool:
        if key == "policy":
            return self.policy(value, at)
        if key.startswith("rules."):
            try:
                self.door.Rules.from_dict({**base["rules"], key.split(".", 1)[1]: value})
            except ValueError as e:
                message, allowed = _reason(e)
                self.fail(message, at, allowed=allowed)
                return False
            return True
        if key.startswith("components."):
            name = key.split(".", 1)[1]
            try:
                self.door.Components.from_dict({**base["components"], name: value})
            except ComponentsError as e:  # the component at fault may be another one the value clashes with
                text = e.message if e.key == name else f"component {e.key!r}: {e.message}" if e.key else e.message
                self.fail(text, at, allowed=e.allowed)
                return False
            return True
        return self.validated(self.door.GameModel, {**base, key: value}, value_at=at) is not None

    def policy(self, value: Any, at: tuple) -> bool:
        """Whether the policy exists and takes these parameters (a problem is recorded if not)."""
        try:
            name, params = parse_policy(value)
        except Invalid as e:
            self.fail(e.message, at, value=value)
            return False
        label = json.dumps([name, params], sort_keys=True, default=str)
        if label not in self.policies_checked:
            if name not in self.door.policy_names():  # a player of the user's: its module may sit beside the study
                search_here(self.path.parent)
            try:
                self.door.check_policy(name, params)
                self.policies_checked[label] = True
            except ValueError as e:  # the policies allowed when the name is wrong, its parameters when one is
                message, allowed = _reason(e)
                self.fail(message, at, allowed=allowed)
                self.policies_checked[label] = False
        return self.policies_checked[label]

    def layout(self, ref: str, at: tuple) -> Any:
        """The layout `ref` names (loaded once), or None with the problem recorded."""
        if ref in self.layouts:
            return self.layouts[ref]
        builtin = self.door.BUILTIN_LAYOUTS
        if ref not in builtin and (self.path.parent / ref).is_dir():
            self.fail(f"{ref!r} is a folder, not a layout; to play every layout file in it (a scenario each), "
                      f"write {{dir: {ref}}}", at)
            return None
        try:
            layout = self.door.load_layout(ref, base=self.path.parent)
        except ConfigError as e:  # name the layout file's line and where the study refers to it
            self.fail(f"layout file {ref!r} is not valid: {e}", at)
            return None
        except ValueError as e:
            self.fail(_reason(e)[0], at, allowed=", ".join(builtin) + ", or a layout file (.yaml)")
            return None
        # the id names the scenarios and the data's layout column: two layouts must not share one
        twin = next((r for r, lay in self.layouts.items() if lay.id == layout.id), None)
        if twin is not None:
            self.fail(f"layout files {twin!r} and {ref!r} both have the id {layout.id!r} (a layout's id is its "
                      "file name unless the file gives one); give one of them its own id with a line such as "
                      "'id: my_island' in the file", at)
            return None
        self.layouts[ref] = layout
        return layout

    def scenarios(self, matrix: dict[str, list[tuple[Any, tuple]]], base: dict[str, Any], base_policy: Any
                  ) -> tuple[Scenario, ...]:
        """One scenario per point of the matrix, each checked for what depends on several keys."""
        keys = list(matrix)
        scenarios: list[Scenario] = []
        seen_ids: set[str] = set()
        at = ("game",) if not keys else ("matrix",)
        for index, combo in enumerate(itertools.product(*(matrix[k] for k in keys))):
            settings = dict(base, rules=dict(base["rules"]), components=dict(base["components"]))
            policy = base_policy
            for key, (value, _) in zip(keys, combo, strict=True):
                if key == "policy":
                    policy = value
                elif key.startswith(("rules.", "components.")):
                    section, name = key.split(".", 1)
                    settings[section][name] = value
                else:
                    settings[key] = value
            layout = self.layouts[settings["layout"]]
            values = {key: layout.id if key == "layout" else value for key, (value, _) in zip(keys, combo, strict=True)}
            sid = scenario_id(values)
            if sid in seen_ids:
                self.fail(f"two scenarios get the same id {sid!r}; make the matrix values distinct",
                          ("matrix",) + tuple(keys[:1]))
                continue
            seen_ids.add(sid)
            if len(partition_name(sid).encode()) > NAME_MAX:  # found before any game is played, not at the first write
                longest = max(range(len(keys)), key=lambda i: len(render_value(combo[i][0])))
                self.fail(f"scenario {sid[:60]!r}... has an id of {len(sid):,} characters, and a scenario's id names "
                          f"its directory, whose name may hold at most {NAME_MAX} bytes; give shorter matrix values "
                          "(a policy's many parameters can go in the study's `policy:`, outside the matrix)",
                          combo[longest][1])
                continue
            g = self.validated(self.door.GameModel, settings, at=at)
            if g is None:
                continue
            try:
                g.check_scenario()
                setup = self.door.setup_of(g, layout)  # the engine's own checks, e.g. a layout it cannot play
            except Invalid as e:
                if keys:
                    named = f"game.{key_text(e.key)}: " if isinstance(e.key, tuple) else ""  # a component, by name
                    self.fail(f"scenario {sid!r}: {named}{e.message}", at, allowed=e.allowed)
                else:
                    inside = (e.key,) if isinstance(e.key, str) else e.key or ()
                    self.fail(e.message, at + inside, allowed=e.allowed)
                continue
            except ValueError as e:
                self.fail(f"scenario {sid!r}: {e}", at)
                continue
            name, params = parse_policy(policy)
            scenarios.append(Scenario(index=index, id=sid, values=values, setup=setup, policy=name,
                                      policy_params=params, game=self.game))
        columns = changed_components(scenarios)
        return tuple(replace(s, component_columns=columns) for s in scenarios)


def _expand_layout_sets(matrix: dict[str, list[tuple[Any, tuple]]], base_layout: Any, folder: Path,
                        fail: Callable[..., None]) -> dict[str, list[tuple[Any, tuple]]]:
    """The matrix (key -> [(value, where it is written)]) with each layout set ({dir: ...} or {glob: ...})
    replaced by its files; a set as the base game's layout becomes the first matrix key (unless the matrix
    gives the layouts). A set that holds no file is recorded with `fail`."""
    out = dict(matrix)
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
                fail(str(e), at)
        out["layout"] = expanded
    return out


def _labels(given: dict[str, dict[Any, Any]], matrix: dict[str, list[Any]], layout_ids: dict[str, str],
            fail: Callable[..., None]) -> dict[str, dict[str, str]]:
    """`labels:` checked against the matrix (layout sets expanded): key -> {value as in the scenario ids: label}."""
    out: dict[str, dict[str, str]] = {}
    for key, names in given.items():
        if key not in matrix:
            fail("labels name values of matrix keys; this key is not in the matrix", ("labels", key),
                 allowed=", ".join(matrix) or "none (the study has no matrix)")
            continue
        # A value is named as the scenario ids write it; a layout also by the file the matrix gives.
        ids = {render_value(v): render_value(v) for v in matrix[key]}
        if key == "layout":
            ids |= {ref: layout_ids[ref] for ref in matrix[key]}
            ids |= {v: v for v in ids.values()}
        out[key] = {}
        for value, label in names.items():
            at = ("labels", key, render_value(value))
            if render_value(value) not in ids:
                fail("not a value of this matrix key", at, value=value, allowed=", ".join(dict.fromkeys(ids)))
            elif not isinstance(label, str) or not label.strip():
                fail("a label is a short text", at, value=label)
            else:
                out[key][ids[render_value(value)]] = label.strip()
        twice = [lb for lb in out[key].values() if list(out[key].values()).count(lb) > 1]
        if twice:
            fail(f"two values share the label {twice[0]!r}; give each its own", ("labels", key))
    return out


def _baseline(given: str | None, scenarios: Sequence[Scenario], layout_ids: dict[str, str],
              fail: Callable[..., None]) -> str | None:
    """`baseline:` checked against the scenarios: a scenario id, or KEY=VALUE pairs of the matrix (a layout also
    by its file, as the matrix gives it); kept as the scenario ids write it."""
    if given is None or given in {s.id for s in scenarios}:
        return given
    known: dict[str, list[str]] = {}
    for s in scenarios:
        for k, v in s.values.items():
            known[k] = list(dict.fromkeys([*known.get(k, []), render_value(v)]))
    allowed = "; ".join(f"{k}=" + "|".join(vs) for k, vs in known.items())
    pairs = []
    for pair in given.split(","):
        key, sep, value = (x.strip() for x in pair.partition("="))
        value = layout_ids.get(value, value) if key == "layout" else value
        if not sep or key not in known or value not in known[key]:
            fail("not a scenario id nor matrix values KEY=VALUE of this study", ("baseline",), value=given,
                 allowed=allowed or "a scenario id (the study has no matrix)")
            return None
        pairs.append(f"{key}={value}")
    return ",".join(pairs)
