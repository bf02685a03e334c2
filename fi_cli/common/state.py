"""What the states of both games share: the end of the game and the checked way to apply an action."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar


class IllegalActionError(ValueError):
    """An action that is not legal in the current position."""


class StateBase:
    """Base of a game's state. The game sets ``PHASES`` (phase names by number), ``OVER`` (the phase of a game
    that has ended) and ``action_text``; the state has ``phase``, ``turn``, ``decider``, ``loss_causes``,
    ``legal_actions()`` and ``apply()``."""

    __slots__ = ()
    PHASES: ClassVar[tuple[str, ...]]
    OVER: ClassVar[int]
    action_text: ClassVar[Callable[[tuple], str]]

    @property
    def is_over(self) -> bool:
        return self.phase == self.OVER  # type: ignore[attr-defined]

    @property
    def loss_cause(self) -> str | None:
        causes = self.loss_causes  # type: ignore[attr-defined]
        return causes[0] if causes else None

    def apply_checked(self, action: tuple) -> None:
        """Apply an action after checking it is legal; IllegalActionError names the action, whose decision it
        is, the phase and the turn."""
        text = type(self).action_text(action)
        if self.phase == self.OVER:  # type: ignore[attr-defined]
            raise IllegalActionError(f"{text} is not legal: the game is over")
        if action not in self.legal_actions():  # type: ignore[attr-defined]
            raise IllegalActionError(
                f"{text} is not legal in the {self.PHASES[self.phase]} phase "  # type: ignore[attr-defined]
                f"(decision of p{self.decider}, turn {self.turn})"  # type: ignore[attr-defined]
            )
        self.apply(action)  # type: ignore[attr-defined]
