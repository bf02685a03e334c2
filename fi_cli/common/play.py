"""The game-independent part of playing: the lazy legal list, asking a policy, the turn-by-turn loop.

A game's state needs ``legal_actions()``, ``apply(action)``, ``outcome``, ``turn``, ``current`` and ``rng``
(its generator, the only place chance lives); its policies need ``choose(state, legal)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import Any


class LegalActions(Sequence):
    """The legal actions of a state's pending decision, listed only when first looked at.

    A policy that can decide from the state alone (a heuristic following its plan) then never pays for the
    list. The state must not change while this is in use."""

    __slots__ = ("_state", "_list")

    def __init__(self, state: Any) -> None:
        self._state = state
        self._list: list[tuple] | None = None

    @property
    def actions(self) -> list[tuple]:
        """The list itself (made now if not yet)."""
        if self._list is None:
            self._list = self._state.legal_actions()
        return self._list

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, i):  # type: ignore[override]
        return self.actions[i]

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.actions)

    def __contains__(self, a: object) -> bool:
        return a in self.actions

    def __repr__(self) -> str:
        return f"LegalActions({self.actions!r})"


class ActionTexts:
    """The text of each action played so far in this process (a game's come from a few thousand): one string an
    action, not one a move, so that a chunk's actions column holds a few thousand strings, not tens of thousands,
    and a text is made once."""

    def __init__(self, action_text: Callable[[tuple], str]) -> None:
        self.action_text = action_text
        self.texts: dict[tuple, str] = {}

    def text(self, a: tuple) -> str:
        text = self.texts.get(a)
        if text is None:
            text = self.texts[a] = self.action_text(a)
        return text


def choose(policy: Any, s: Any, legal: Sequence[tuple]) -> tuple:
    """Ask the policy for a decision with the game's generator out of its reach: what is hidden stays hidden.

    While the policy decides, the generator waits on this frame's evaluation stack, as the pending argument of
    ``_give_back``: in no variable of any frame (a policy walking ``sys._getframe().f_back`` reads only
    ``f_locals``), in no attribute of what it is handed (the state's ``rng`` is None) and in no module-level
    registry (reachable through any function's ``__globals__``). Only a walk of the garbage collector's objects
    could still find it in this process, which is why a user's player runs in a process of its own
    (``common.isolation``)."""
    if s.rng is None:  # nothing to hide (a copy, or a policy asking for a nested decision)
        return policy.choose(s, legal)
    return _give_back(s, _take_away(s), *_attempt(policy, s, legal))


def _take_away(s: Any) -> Random:
    rng, s.rng = s.rng, None
    return rng


def _attempt(policy: Any, s: Any, legal: Sequence[tuple]) -> tuple[Any, BaseException | None]:
    """The policy's decision, or what it raised (re-raised once the generator is back)."""
    try:
        return policy.choose(s, legal), None
    except BaseException as e:  # noqa: BLE001  (KeyboardInterrupt too: the state must get its generator back)
        return None, e


def _give_back(s: Any, rng: Random, action: Any, error: BaseException | None) -> Any:
    s.rng = rng
    if error is not None:
        raise error
    return action


def play_turns(
    s: Any,
    policy: Any,
    action_text: Callable[[tuple], str],
    narrate: Callable[[str], None] | None = None,
    ask: Callable[[Any, Any, Sequence[tuple]], tuple] = choose,
) -> Iterator[tuple[int, int, list[str]]]:
    """Ask the policy (through ``ask``) for every decision until the game is over, narrating each action.

    Yields ``(turn, player, actions)`` as each player's turn ends (or the game does), after which the
    state is that of the next turn's start: the caller records and narrates the turn there."""
    turn, player, actions = s.turn, s.current, []
    while not _over(s):
        a = ask(policy, s, LegalActions(s))
        text = action_text(a)
        actions.append(text)
        s.apply(a)
        if narrate:
            narrate(f"  {text}")
        if s.turn != turn or _over(s):
            yield turn, player, actions
            turn, player, actions = s.turn, s.current, []


def _over(s: Any) -> bool:
    """Whether the game is over (a call, not `s.outcome is None` in the loop: compiled, the loop would take the
    outcome it tested for the outcome's type, and fail once a move ends the game)."""
    return s.outcome is not None


def clairvoyant_search(policy: Any, s: Any) -> None:
    """Before play: show the real game (its generator included) to a policy that says it is unfair (``fair =
    False``: the oracle, a measuring instrument) so it can search the fixed future; a fair policy gets nothing."""
    if getattr(policy, "fair", True) is False:
        policy.solve(s)
