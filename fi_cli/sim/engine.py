"""The simulator's only door into the rules engine (fi_cli.island): build a game set-up, play one game.

Imports of the engine happen here, lazily, so the rest of fi_cli.sim stays importable and testable alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import Scenario


def policy_names() -> list[str]:
    from ..island.policies import policy_names as names

    return list(names())


def check_policy(name: str, params: dict[str, Any]) -> None:
    """Raise ValueError (the engine's PolicyError) naming the allowed policies or parameters."""
    from ..island.policies import make_policy

    make_policy(name, dict(params) or None)


def make_setup(scenario: Scenario) -> Any:
    """The engine's GameSetup for a scenario; ValueError on values the engine refuses."""
    from ..island.game import GameSetup

    return GameSetup(
        layout=scenario.layout,
        start_level=scenario.start_level,
        players=scenario.players,
        roles=scenario.roles,
        rules=scenario.rules,
        first_player=scenario.first_player,
    )


def play(scenario: Scenario, setup: Any, seed: int, narrate: Callable[[str], None] | None = None) -> Any:
    """Play one game; a fresh policy per game so no policy state leaks from one game to the next."""
    from ..island.play import play_game
    from ..island.policies import make_policy

    policy = make_policy(scenario.policy, dict(scenario.policy_params) or None)
    return play_game(setup, policy, seed, narrate=narrate)
