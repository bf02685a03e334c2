"""The simulator's doors into the games: one small module per game, and nothing else in `fi_cli.sim` knows a
game's rules. A door (``door("island")``, ``door("desert")``) has:

    GAME, TITLE, RULES_VERSION, Rules     the game's name, its title, its rules version, its variant flags
    GameModel, MATRIX_KEYS                the study's `game:` section and the keys a matrix may cross
    load_layout(ref, base)                a built-in board or a layout file (BUILTIN_LAYOUTS for messages)
    layout_features(layout)               what a manifest keeps of each layout (the island's features), or None
    setup_of(game, layout)                the engine's GameSetup of a validated `game:` section
    setup_to_dict(setup), setup_from_dict(d), difficulty_name(start_level)
    policy_names(), check_policy(name, params), play(setup, policy, params, seed, narrate)
    Components                            the game's components (fi_cli.<game>.components)
    SCHEMAS, log(columns, scenario, game, seed, record)   the Parquet schemas and a game's rows

The engines are imported lazily by each door (policies, play), so `fi_cli.sim` stays quick to import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow as pa
import yaml

from ...games import GAMES, module
from ..errors import LayoutFileError
from ..layout_files import layout_path
from ..tables import I32, Columns

__all__ = ["DEFAULT", "GAMES", "TITLES", "check_layout_game", "component_schemas", "door", "engine_calls",
           "layout_file_game", "log_game", "setup_args", "setup_dict"]

DEFAULT = "island"  # a study, a run or a layout file that names no game is the island's (as before the desert)
TITLES = {"island": "Forbidden Island", "desert": "Forbidden Desert"}


def door(game: str) -> ModuleType:
    """The door of ``game`` (one of GAMES)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")
    return importlib.import_module(f"{__name__}.{game}")


def layout_file_game(path: Path) -> str | None:
    """The game a layout file is for (its `game:` key; the island's when it has none), or None when the file
    cannot be read as YAML (its own loader then says why)."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    return str(data.get("game", DEFAULT)) if isinstance(data, dict) else DEFAULT


_KIND = {"island": ("layout", "it names no game"), "desert": ("board", "game: desert")}


def check_layout_game(ref: str, base: Path | None, game: str) -> None:
    """Refuse a layout file of the other game (one study plays one game) with a LayoutFileError."""
    path = layout_path(ref, base)
    other = layout_file_game(path) if path is not None else None
    if other in _KIND and other != game:
        kind, how = _KIND[other]
        raise LayoutFileError(f"is a {TITLES[other]} {kind} ({how}), not a{'n' * (game == 'island')} {game} "
                              f"{_KIND[game][0]}; one study plays one game", file=path)


def setup_dict(setup: Any, layout: dict[str, Any], difficulty: str, **own: Any) -> dict[str, Any]:
    """What a manifest and each Parquet file keep of a scenario's set-up: the `layout` (files inlined), the
    difficulty and start, the game's `own` values, then the seats and variants every game has."""
    return {"layout": layout, "difficulty": difficulty, "start_level": setup.start_level, **own,
            "players": setup.players, "roles": list(setup.roles) if setup.roles else "random",
            "first_player": "random" if setup.first_player is None else setup.first_player,
            "rules": setup.rules.to_dict()}


def setup_args(d: dict[str, Any], rules: Any, components: Any) -> dict[str, Any]:
    """The GameSetup arguments every game has, read back from `setup_dict` and a scenario's components (those
    its study changes: see config.Scenario.to_dict); `rules`, `components`: the game's Rules and Components."""
    return {"start_level": d["start_level"], "players": d["players"],
            "roles": None if d["roles"] == "random" else tuple(d["roles"]), "rules": rules.from_dict(d["rules"]),
            "first_player": None if d["first_player"] == "random" else d["first_player"],
            "components": components.from_dict(d.get("components", {}))}


def engine_calls(game: str) -> tuple[Callable[[], list[str]], Callable[..., None], Callable[..., Any]]:
    """A door's `policy_names()`, `check_policy(name, params)` and `play(setup, policy, params, seed, narrate)`
    for `game`; the engine's policies and play loop are imported when first used."""

    def policy_names() -> list[str]:
        return list(module(game, "policies").policy_names())

    def check_policy(name: str, params: dict[str, Any]) -> None:
        """Raise ValueError (the engine's PolicyError) naming the allowed policies or parameters."""
        module(game, "policies").make_policy(name, dict(params) or None)

    def play(setup: Any, policy: str, params: dict[str, Any], seed: int,
             narrate: Callable[[str], None] | None = None) -> Any:
        """Play one game; a fresh policy per game so no policy state leaks from one game to the next."""
        player = module(game, "policies").make_policy(policy, dict(params) or None)
        handed = [seed]
        del seed  # the seed travels on as an argument only: no frame above the deciding policy holds it
        return module(game, "play").play_game(setup, player, handed.pop(), narrate=narrate)

    return policy_names, check_policy, play


def component_schemas(game_door: ModuleType, names: Sequence[str]) -> dict[str, pa.Schema]:
    """A game's schemas with a games column per component `names` (`components.<name>`: a number, or a list of
    numbers for a meter and for a value per role, in the order of the game's roles): those a study changes."""
    if not names:
        return game_door.SCHEMAS
    specs = game_door.Components.specs()
    extra = [pa.field(f"components.{k}", I32 if specs[k].kind == "count" else pa.list_(I32)) for k in names]
    return {**game_door.SCHEMAS, "games": pa.schema([*game_door.SCHEMAS["games"], *extra])}


def log_game(columns: Columns, scenario: Any, game: int, seed: int, rec: Any, rules_version: str,
             own: Sequence[tuple[str, Any]], fields: Sequence[str]) -> None:
    """Append one played game of a Scenario: its games row (what every game logs, then the game's `own`
    values, the record's `fields` and the components its study changes), its turns and its tiles."""
    s = scenario.setup
    comp = s.components
    columns.add_game([
        ("scenario", scenario.id), ("game", game), ("seed", seed), ("layout", s.layout.id),
        ("difficulty", scenario.difficulty), ("players", s.players), ("roles", tuple(rec.roles)),
        ("policy", scenario.policy_label), ("fair", module(scenario.game, "policies").is_fair(scenario.policy)),
        ("rules_version", rules_version), ("loss_causes", tuple(rec.loss_causes)),
        *own, *((name, getattr(rec, name)) for name in fields),
        *((f"components.{k}", comp.effective(k, s.players)) for k in scenario.component_columns)])
    columns.add_columns("turns", scenario.id, game, rec.turn_columns)  # both records keep their rows column by
    columns.add_columns("tiles", scenario.id, game, rec.tile_columns)  # column, as the logs do
