"""The simulator's doors into the games: one small module per game, and nothing else in `fi_cli.sim` knows a
game's rules. A door (``door("island")``, ``door("desert")``) has:

    GAME, TITLE, RULES_VERSION, Rules     the game's name, its title, its rules version, its variant flags
    GameModel, MATRIX_KEYS                the study's `game:` section and the keys a matrix may cross
    load_layout(ref, base)                a built-in board or a layout file (BUILTIN_LAYOUTS for messages)
    setup_of(game, layout)                the engine's GameSetup of a validated `game:` section
    setup_to_dict(setup), setup_from_dict(d), difficulty_name(start_level)
    policy_names(), check_policy(name, params), play(setup, policy, params, seed, narrate)
    SCHEMAS, log(columns, scenario, game, seed, record)   the Parquet schemas and a game's rows

The engines are imported lazily by each door (policies, play), so `fi_cli.sim` stays quick to import.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import yaml

GAMES: tuple[str, ...] = ("island", "desert")
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
