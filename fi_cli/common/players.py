"""Players from the user's code: a class named by its import path (``my_players:Cautious``) or by an entry point of
the ``fi.players`` group, built with the study's parameters, and every action it returns checked.

A player is any class with ``choose(state, legal) -> action`` (and, if it wants one, ``reset(seed)`` at the start of
each game); its ``__init__`` takes the parameters. It runs in a process of its own (``common.isolation``) unless
its parameters say ``isolated: false``: then it runs here, faster, and could read what is hidden if it tried.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import sys
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .policies import PolicyError

ENTRY_POINTS = "fi.players"
ISOLATED = "isolated"  # the one parameter fi reads itself: false runs the player in the game's process


class PlayerError(RuntimeError):
    """A player failed during a game: it raised, or returned an action that is malformed or not legal."""


def entry_points() -> dict[str, str]:
    """The installed players: entry point name -> import path (the modules are not imported)."""
    return dict(_entry_points(tuple(sys.path)))


@functools.lru_cache(maxsize=4)
def _entry_points(path: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Read once per Python path: a player is built for every game."""
    return tuple((ep.name, ep.value) for ep in importlib.metadata.entry_points(group=ENTRY_POINTS))


def import_path(name: str) -> str | None:
    """The import path of a user's player named ``name`` (``module:Class`` or an entry point), else None."""
    if ":" in name:
        return name
    return entry_points().get(name)


def search_here(*folders: Path) -> None:
    """Let players' modules be found in these folders (a study's, the current one) after the Python path; worker
    processes and players' own processes inherit the Python path. Nothing is imported."""
    for folder in folders:
        text = str(Path(folder).resolve())
        if text not in sys.path:
            sys.path.append(text)


def load_class(ref: str) -> type:
    """Import ``module:Class`` (run in the process that plays it); PolicyError for a bad path or class."""
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr or not all(p.isidentifier() for p in module_name.split(".") + attr.split(".")):
        raise PolicyError(f"player {ref!r}: an import path is 'module:Class' (e.g. 'my_players:Cautious', the "
                          "module on the Python path or in the study's folder or the current directory)")
    try:
        obj: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and module_name.startswith(e.name):
            raise PolicyError(f"player {ref!r}: no module {e.name!r} on the Python path, in the study's folder or "
                              "in the current directory") from None
        raise PolicyError(f"player {ref!r}: importing {module_name!r} failed: {_error_text(e)}") from None
    except Exception as e:  # noqa: BLE001  (whatever the user's module raises is reported, not a traceback)
        raise PolicyError(f"player {ref!r}: importing {module_name!r} failed: {_error_text(e)}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            found = [n for n, v in vars(obj).items() if inspect.isclass(v) and callable(getattr(v, "choose", None))]
            hint = f"; classes with a choose method there: {', '.join(found)}" if found else ""
            raise PolicyError(f"player {ref!r}: {module_name!r} has no {part!r}{hint}")
        obj = getattr(obj, part)
    if not inspect.isclass(obj):
        raise PolicyError(f"player {ref!r}: {attr!r} is a {type(obj).__name__}, not a class")
    if not callable(getattr(obj, "choose", None)):
        raise PolicyError(f"player {ref!r}: class {attr!r} has no method choose(state, legal); a player picks one "
                          "of the legal actions there")
    return obj


def build(cls: type, ref: str, params: dict[str, Any]) -> Any:
    """An instance of a player's class with these parameters; PolicyError naming the ones it takes."""
    try:
        return cls(**params)
    except TypeError as e:
        if not _takes(cls, params):
            taken = [p for p in inspect.signature(cls).parameters if p not in ("self", "args", "kwargs")]
            listing = ", ".join(taken) or "none"
            raise PolicyError(f"player {ref!r} does not take the parameters given ({e}); its parameters are: "
                              f"{listing}") from None
        raise PolicyError(f"player {ref!r}: building it failed: {_error_text(e)}") from None
    except Exception as e:  # noqa: BLE001
        raise PolicyError(f"player {ref!r}: building it with {params} failed: {_error_text(e)}") from None


def _takes(cls: type, params: dict[str, Any]) -> bool:
    try:
        inspect.signature(cls).bind(**params)
    except TypeError:
        return False
    except ValueError:  # no signature to read
        return True
    return True


def split_isolated(ref: str, params: dict[str, Any] | None) -> tuple[bool, dict[str, Any]]:
    """(isolated?, the player's own parameters): ``isolated`` is fi's, true unless given as false."""
    own = dict(params or {})
    isolated = own.pop(ISOLATED, True)
    if not isinstance(isolated, bool):
        raise PolicyError(f"player {ref!r}: {ISOLATED} must be true (the default: the player runs in a process of "
                          f"its own) or false (it runs in the game's process), got {isolated!r}")
    return isolated, own


def decision_text(state: Any, decision: int) -> str:
    """Which decision of the game it is, for messages."""
    return (f"decision {decision} of the game (turn {state.turn}, {state.PHASES[state.phase]} phase, "
            f"p{state.decider} to decide)")


def checked_action(who: str, state: Any, legal: Sequence[tuple], returned: Any, decision: int,
                   parse: Any) -> tuple:
    """The action a player returned if it is one of ``legal`` (a tuple, or its text form parsed by ``parse``);
    else PlayerError naming the player, the decision and the action. The game stops there."""
    where = decision_text(state, decision)
    action = returned
    if isinstance(returned, str):
        try:
            action = parse(returned)
        except ValueError as e:
            raise PlayerError(f"player {who} returned {returned!r} at {where}: not an action ({e})") from None
    if not isinstance(action, tuple):
        raise PlayerError(f"player {who} returned {_short(returned)} at {where}: not an action; choose returns one "
                          "of the legal actions it is given (a tuple) or its text form")
    if action not in legal:
        text = type(state).action_text
        try:
            shown = text(action)
        except Exception:  # noqa: BLE001  (a tuple the engine cannot even print)
            shown = repr(action)
        examples = ", ".join(text(a) for a in list(legal)[:3])
        raise PlayerError(f"player {who} returned {shown} at {where}: not one of the {len(legal)} legal actions "
                          f"({examples}{', ...' if len(legal) > 3 else ''})")
    return action


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _error_text(e: BaseException) -> str:
    """An exception raised in the user's code as one line: its type, message and where in their code."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if "fi_cli" not in Path(f.filename).parts]
    at = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(e).__name__}: {e}{at}"


class InProcessPlayer:
    """A user's player run in the game's process (``isolated: false``): faster, every action checked."""

    def __init__(self, game: str, ref: str, params: dict[str, Any], who: str | None = None) -> None:
        from ..games import module

        self.name, self._parse = who or ref, module(game, "actions").parse_action
        self._player = build(load_class(ref), ref, params)
        self._decision = 0

    def reset(self, seed: int) -> None:
        self._decision = 0
        if hasattr(self._player, "reset"):
            _calling(self.name, "the start of the game", self._player.reset, seed)

    def choose(self, state: Any, legal: Sequence[tuple]) -> tuple:
        self._decision += 1
        returned = _calling(self.name, decision_text(state, self._decision), self._player.choose, state, legal)
        return checked_action(self.name, state, legal, returned, self._decision, self._parse)


def _calling(who: str, where: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001  (the user's code: one paragraph, not a traceback)
        raise PlayerError(f"player {who} failed at {where}: {_error_text(e)}") from None


def user_player(game: str, name: str, params: dict[str, Any] | None) -> Any:
    """The user's player ``name`` (an import path or an entry point), isolated unless told otherwise; None when
    ``name`` names no user's player."""
    ref = import_path(name)
    if ref is None:
        return None
    isolated, own = split_isolated(name, params)
    if isolated:
        from .isolation import IsolatedPlayer

        return IsolatedPlayer(game, ref, own, name)
    return InProcessPlayer(game, ref, own, name)


def known_names(shipped: Iterable[str]) -> str:
    """The players there are, for messages: the shipped ones, the installed ones, and how to name one's own."""
    installed = sorted(entry_points())
    more = f"; installed (fi.players): {', '.join(installed)}" if installed else ""
    return f"{', '.join(sorted(shipped))}{more}; or your own as module:Class"
