"""The games `fi` plays, by name. Each is a package of the same shape, so the commands treat them alike:

    game      GameSetup, new_game(setup, seed)
    engine    the state (legal_actions, apply, apply_checked, outcome, loss_causes), IllegalActionError
    actions   action_text, parse_action, ActionParseError
    position  to_dict, from_dict, dumps, loads, PositionError (the common one)
    render    draw_position
    play      play_game(setup, policy, seed, narrate) -> a record with outcome, loss_causes, turns
    policies  make_policy, policy_names
    tiles     parse_difficulty
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from .common.documents import PositionError

GAMES: tuple[str, ...] = ("island", "desert")
_BY_FORMAT = {"fi-position-1": "island", "fd-position-1": "desert"}


@cache  # asked for each game played and logged: a dict look-up, not the import machinery
def module(game: str, name: str) -> ModuleType:
    """Module ``name`` of ``game``'s package (imported when first asked for)."""
    return importlib.import_module(f"fi_cli.{game}.{name}")


def game_of(doc: Any, source: str) -> str:
    """The game a position document belongs to: its ``game`` key, else its format (island positions name no
    game)."""
    if not isinstance(doc, dict):
        return "island"  # the reader says what is wrong
    game = doc.get("game", _BY_FORMAT.get(doc.get("format"), "island"))
    if game not in GAMES:
        raise PositionError(f"{source}: key 'game': {game!r} is not a game; games are: {', '.join(GAMES)}")
    return game
