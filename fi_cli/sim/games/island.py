"""The simulator's door into Forbidden Island (`fi_cli.island`): the `game:` keys of a study, the engine's
set-up, playing a game, and what a game logs (the Parquet schemas of games, turns and tiles)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import pyarrow as pa
from pydantic import Field, field_validator

from ...island.components import Components
from ...island.game import GameSetup
from ...island.layout_features import layout_features
from ...island.layouts import BUILTIN_LAYOUTS, Layout
from ...island.rules import RULES_VERSION, Rules
from ...island.tiles import DIFFICULTIES, ROLES, difficulty_name, parse_difficulty
from ..layout_files import layout_from_dict, layout_to_dict
from ..layout_files import load_layout as load_layout_file
from ..models import GameSection, Invalid
from ..tables import I32, I64, SCENARIO, STR, STRS, Columns
from . import TITLES, check_layout_game, engine_calls, log_game, setup_args, setup_dict

GAME = "island"
TITLE = TITLES[GAME]
MATRIX_KEYS = ("layout", "difficulty", "players", "roles", "first_player")

__all__ = ["GAME", "MATRIX_KEYS", "RULES_VERSION", "SCHEMAS", "TITLE", "Components", "GameModel", "Rules",
           "check_policy", "difficulty_name", "layout_features", "load_layout", "log", "play", "policy_names",
           "setup_from_dict", "setup_of", "setup_to_dict"]


class GameModel(GameSection):
    """The study's `game:` section for the island."""

    layout: Any = "forbidden_island"
    difficulty: Any = "normal"
    players: Annotated[int, Field(strict=True, ge=2, le=4)] = 4
    roles: Any = "random"
    first_player: Any = "random"
    rules: dict[str, Any] = Field(default_factory=dict)
    components: Any = Field(default_factory=dict)
    name: Literal["island"] = "island"

    ROLE_IDS, MOST_PLAYERS, RULES, COMPONENTS, BUILTIN_LAYOUTS = ROLES, 4, Rules, Components, BUILTIN_LAYOUTS

    @field_validator("difficulty")
    @classmethod
    def _difficulty(cls, v: Any) -> Any:
        try:
            parse_difficulty(v)
        except ValueError:
            raise Invalid("unknown difficulty", ", ".join(DIFFICULTIES) + " or a start level 1-9") from None
        return v

    def check_scenario(self) -> None:
        """The seats (see GameSection), and the components against the players and the start level."""
        super().check_scenario()
        self.check_components(parse_difficulty(self.difficulty))


def load_layout(ref: str, base: Path | None) -> Layout:
    """A built-in island or a layout file (relative to `base`); a desert board is refused as such."""
    check_layout_game(ref, base, GAME)
    return load_layout_file(ref, base)


def setup_of(game: GameModel, layout: Layout) -> GameSetup:
    """The engine's set-up of a scenario (ValueError for what the engine refuses)."""
    return GameSetup(layout=layout, start_level=parse_difficulty(game.difficulty), **game.seats())


def setup_to_dict(s: GameSetup) -> dict[str, Any]:
    """What a manifest and each Parquet file keep of a scenario's set-up (layout files inlined)."""
    return setup_dict(s, layout_to_dict(s.layout), difficulty_name(s.start_level))


def setup_from_dict(d: dict[str, Any]) -> GameSetup:
    return GameSetup(layout=layout_from_dict(d["layout"]), **setup_args(d, Rules, Components))


policy_names, check_policy, play = engine_calls(GAME)

SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema([
        ("scenario", SCENARIO), ("game", I32), ("seed", I64), ("layout", STR), ("difficulty", STR),
        ("start_level", I32), ("players", I32), ("roles", STRS), ("first_player", I32), ("policy", STR),
        ("fair", pa.bool_()), ("rules_version", STR), ("outcome", STR), ("loss_cause", STR), ("loss_causes", STRS),
        ("turns", I32), ("final_water_level", I32), ("treasures_captured", I32), ("tiles_sunk", I32),
        ("lost_treasure", STR), ("drowned_tile", STR),
    ]),
    "turns": pa.schema([
        ("scenario", SCENARIO), ("game", I32), ("turn", I32), ("player", I32), ("role", STR),
        ("actions", STRS), ("water_level", I32), ("flood_draws", STRS), ("waters_rise", I32),
        ("tiles_flooded", I32), ("tiles_sunk", I32), ("treasures_captured", I32), ("treasures", STRS),
        ("hand_sizes", pa.list_(I32)),
    ]),
    "tiles": pa.schema([
        ("scenario", SCENARIO), ("game", I32), ("tile", STR), ("row", I32), ("col", I32),
        ("times_flooded", I32), ("sunk_turn", I32),
    ]),
}
# Record fields copied as they are (the rest are filled from the scenario and the game's number and seed).
_GAME_FIELDS = ("outcome", "loss_cause", "turns", "final_water_level", "treasures_captured", "tiles_sunk",
                "first_player", "lost_treasure", "drowned_tile")


def log(columns: Columns, scenario: Any, game: int, seed: int, rec: Any) -> None:
    """Append one played game (an island GameRecord) of a Scenario."""
    log_game(columns, scenario, game, seed, rec, RULES_VERSION, [("start_level", scenario.setup.start_level)],
             _GAME_FIELDS)
