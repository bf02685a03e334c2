"""The island's public view (see ``common.view``): the state's fields, the rules' flags, the layout and the
placement of the tiles, and each flood-pile segment as a sorted list (a segment is a set of cards in unknown
order: how the engine happens to store it is not for the players)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..common.view import fields_of, state_of
from .board import Board
from .components import Components
from .engine import GameState
from .layouts import Layout
from .rules import Rules

# every field of engine.GameState but the generator, the recorder and those written apart (board, rules, comp,
# fdeck)
FIELDS = ("roles", "n", "pos", "hands", "tiles", "tdeck", "tdiscard", "fdiscard", "water", "captured", "current",
          "turn", "phase", "actions_left", "flight_used", "discarder", "resume", "draws_left", "flood_left",
          "swimmers", "sinking", "outcome", "loss_causes")
_TUPLES = ("roles", "loss_causes")


def to_view(s: GameState) -> dict[str, Any]:
    """The public view of an island position: plain data, nothing hidden."""
    return {
        "game": "island",
        "board": _board_view(s.board),
        "rules": s.rules.to_dict(),
        "components": s.comp.changed(),  # those that differ from the rulebook (plain data)
        "fdeck": [sorted(seg) for seg in s.fdeck],
        **fields_of(s, FIELDS),
    }


def from_view(view: dict[str, Any]) -> GameState:
    """The position of a view, without a generator (the board of a game is built once and shared, as in play)."""
    fields = {k: v for k, v in view.items() if k not in ("game", "board", "rules", "components")}
    s = state_of(GameState, fields, _TUPLES)
    s.comp = Components.from_dict(view.get("components"))
    s.rules, s.board = _board(json.dumps([view["board"], view["rules"]], sort_keys=True))
    return s


@lru_cache(maxsize=8)
def _board_view(board: Board) -> dict[str, Any]:
    """The layout and the tiles' placement (the same all game long: written once per board)."""
    layout = board.layout
    return {"id": layout.id, "name": layout.name, "rows": layout.rows(),
            "pins": {t: list(c) for t, c in layout.pins.items()}, "placement": list(board.placement)}


@lru_cache(maxsize=8)
def _board(key: str) -> tuple[Rules, Board]:
    board, rules = json.loads(key)
    layout = Layout.from_rows(board["id"], board["rows"], name=board["name"], pins=board["pins"])
    flags = Rules.from_dict(rules)
    return flags, Board(layout, tuple(board["placement"]), flags)
