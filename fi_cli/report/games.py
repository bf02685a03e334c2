"""Which game a run is of, and each game's section of a report: `report.island`, `report.desert` (its
columns, endings, tables and figures), found by name so that nothing shared imports a game's section."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from ..sim.games import DEFAULT, GAMES, TITLES

__all__ = ["GAMES", "TITLES", "game_of", "section"]


def section(game: str) -> ModuleType:
    """The report section of `game` (one of GAMES)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")
    return importlib.import_module(f"{__package__}.{game}")


def game_of(manifest: dict[str, Any]) -> str:
    """The game of a run (a run made before the desert names none: the island's)."""
    return str(manifest.get("game", DEFAULT))
