"""The simulator's door into Forbidden Desert (`fi_cli.desert`): the `game:` keys of a study, the engine's
set-up, playing a game, and what a game logs (the Parquet schemas of games, turns and tiles)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import pyarrow as pa
from pydantic import Field, field_validator

from ...desert.components import Components
from ...desert.game import SAND_SUPPLY, GameSetup
from ...desert.layouts import BUILTIN_LAYOUTS, Layout
from ...desert.rules import RULES_VERSION, Rules
from ...desert.tiles import DIFFICULTIES, ROLES, STORM_TRACKS, difficulty_name, parse_difficulty
from ..models import GameSection, Invalid
from ..tables import I32, I64, SCENARIO, STR, STRS, Columns
from . import TITLES, check_layout_game, engine_calls, log_game, setup_args, setup_dict
from .desert_boards import load_board

GAME = "desert"
TITLE = TITLES[GAME]
MATRIX_KEYS = ("layout", "difficulty", "storm_start", "sand_supply", "players", "roles", "first_player")
layout_features = None  # what a manifest keeps of each board beyond its pins: nothing yet

__all__ = ["GAME", "MATRIX_KEYS", "RULES_VERSION", "SCHEMAS", "TITLE", "Components", "GameModel", "Rules",
           "check_policy", "difficulty_name", "layout_features", "load_layout", "log", "play", "policy_names",
           "setup_from_dict", "setup_of", "setup_to_dict"]


class GameModel(GameSection):
    """The study's `game:` section for the desert (`name: desert`)."""

    layout: Any = "forbidden_desert"
    difficulty: Any = None  # normal, unless storm_start sets the mark
    storm_start: Any = None
    sand_supply: Annotated[int, Field(strict=True, ge=0)] = SAND_SUPPLY
    players: Annotated[int, Field(strict=True, ge=2, le=5)] = 4
    roles: Any = "random"
    first_player: Any = "random"
    rules: dict[str, Any] = Field(default_factory=dict)
    components: Any = Field(default_factory=dict)
    name: Literal["desert"] = "desert"

    ROLE_IDS, MOST_PLAYERS, RULES, COMPONENTS, BUILTIN_LAYOUTS = ROLES, 5, Rules, Components, BUILTIN_LAYOUTS

    @field_validator("difficulty")
    @classmethod
    def _difficulty(cls, v: Any) -> Any:
        try:
            if v is not None:
                parse_difficulty(v)
        except ValueError:
            raise Invalid("unknown difficulty", ", ".join(DIFFICULTIES) + " or a start mark 1-4 (storm_start sets "
                          "any other mark)") from None
        return v

    @field_validator("storm_start")
    @classmethod
    def _storm_start(cls, v: Any) -> Any:
        if v is not None and (type(v) is not int or v < 1):
            raise Invalid("must be a mark of the storm meter, 1 or more", "1 to the last mark below the skull: "
                          "13 with 2 players, 14 with 3-4, 15 with 5")
        return v

    @property
    def start_mark(self) -> int:
        return self.storm_start if self.storm_start is not None else parse_difficulty(self.difficulty or "normal")

    def check_scenario(self) -> None:
        """The seats (see GameSection), the start mark of the storm meter against the player count and the
        components against both."""
        super().check_scenario()
        if self.storm_start is not None and self.difficulty is not None:
            raise Invalid(f"difficulty ({self.difficulty}) and storm_start ({self.storm_start}) both set the storm "
                          "meter's start mark; give one of them", key="storm_start")
        meter = Components.from_dict(self.components).storm_meter
        top = len(meter) if meter is not None else len(STORM_TRACKS[self.players])
        if self.start_mark > top:
            which = f"the {top}-mark storm meter of components.storm_meter" if meter is not None else \
                f"the {self.players}-player storm meter"
            raise Invalid(f"storm_start {self.start_mark} is not below the skull of {which}", f"1-{top}",
                          key="storm_start" if self.storm_start else "difficulty")
        self.check_components(self.start_mark)


def load_layout(ref: str, base: Path | None) -> Layout:
    """A built-in board (forbidden_desert) or a board file (relative to `base`); an island is refused as such."""
    check_layout_game(ref, base, GAME)
    return load_board(ref, base)


def setup_of(game: GameModel, layout: Layout) -> GameSetup:
    """The engine's set-up of a scenario (ValueError for what the engine refuses)."""
    return GameSetup(start_level=game.start_mark, sand_supply=game.sand_supply, layout=layout, **game.seats())


def setup_to_dict(s: GameSetup) -> dict[str, Any]:
    """What a manifest and each Parquet file keep of a scenario's set-up (board files inlined)."""
    return setup_dict(s, s.layout.to_dict(), difficulty_name(s.start_level), sand_supply=s.sand_supply)


def setup_from_dict(d: dict[str, Any]) -> GameSetup:
    return GameSetup(sand_supply=d["sand_supply"], layout=Layout.from_dict(d["layout"]),
                     **setup_args(d, Rules, Components))


policy_names, check_policy, play = engine_calls(GAME)

SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema([
        ("scenario", SCENARIO), ("game", I32), ("seed", I64), ("layout", STR), ("difficulty", STR),
        ("storm_start", I32), ("sand_supply", I32), ("players", I32), ("roles", STRS), ("first_player", I32),
        ("policy", STR), ("fair", pa.bool_()), ("rules_version", STR), ("outcome", STR), ("loss_cause", STR),
        ("loss_causes", STRS),
        ("turns", I32), ("final_storm_level", I32), ("parts_found", I32), ("parts_collected", I32),
        ("tiles_excavated", I32), ("sand_on_tiles", I32), ("ran_dry", pa.list_(I32)),
    ]),
    "turns": pa.schema([
        ("scenario", SCENARIO), ("game", I32), ("turn", I32), ("player", I32), ("role", STR), ("actions", STRS),
        ("storm_cards", STRS), ("storm_level", I32), ("sand_on_tiles", I32), ("sand_supply", I32),
        ("tiles_blocked", I32), ("blocked", STRS), ("storm_cell", STR), ("tiles_excavated", I32),
        ("water", pa.list_(I32)), ("pawn_cells", STRS), ("parts_found", I32), ("parts_collected", I32),
    ]),
    "tiles": pa.schema([
        ("scenario", SCENARIO), ("game", I32), ("tile", STR), ("kind", STR), ("row", I32), ("col", I32),
        ("times_moved", I32), ("peak_sand", I32), ("sand", I32), ("excavated_turn", I32),
    ]),
}
_GAME_FIELDS = ("outcome", "loss_cause", "turns", "final_storm_level", "parts_found", "parts_collected",
                "tiles_excavated", "sand_on_tiles", "first_player")


def log(columns: Columns, scenario: Any, game: int, seed: int, rec: Any) -> None:
    """Append one played game (a desert GameRecord) of a Scenario."""
    s = scenario.setup
    log_game(columns, scenario, game, seed, rec, RULES_VERSION, [
        ("storm_start", s.start_level), ("sand_supply", s.sand_supply), ("ran_dry", tuple(rec.ran_dry))],
        _GAME_FIELDS)
