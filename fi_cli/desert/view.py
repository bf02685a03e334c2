"""The Desert's public view (see ``common.view``): the state's fields and the rules' flags. An unexcavated tile
nobody has seen is only "hidden" in it, as in the state: its underside is drawn when it is uncovered."""

from __future__ import annotations

from typing import Any

from ..common.view import fields_of, state_of
from .components import Components
from .engine import GameState
from .rules import Rules

# every field of engine.GameState but the generator, the recorder, the rules (written as their flags) and comp
FIELDS = ("roles", "n", "climber", "carrier", "track", "storm", "kind", "dug", "sand", "supply", "pos", "water",
          "hands", "gdeck", "gused", "parts", "level", "stop", "sdeck", "sbottom", "sdiscard", "sdrawn", "current",
          "turn", "phase", "actions_left", "skips", "storm_left", "shields", "window", "placed", "outcome",
          "loss_causes")
_TUPLES = ("roles", "track", "loss_causes")


def to_view(s: GameState) -> dict[str, Any]:
    """The public view of a Desert position: plain data, nothing hidden."""
    return {"game": "desert", "rules": s.rules.to_dict(), "components": s.comp.changed(), **fields_of(s, FIELDS)}


def from_view(view: dict[str, Any]) -> GameState:
    """The position of a view, without a generator."""
    s = state_of(GameState, {k: v for k, v in view.items() if k not in ("game", "rules", "components")}, _TUPLES)
    s.rules = Rules.from_dict(view["rules"])
    s.comp = Components.from_dict(view.get("components"))
    return s
