"""A user's player in a process of its own: it is sent the public view of each position, the legal actions and its
own seed, and nothing else, so that no introspection can find what is hidden (there is nothing of the game in
that process: no state, no generator, no seed, no frame of the game's code).

The process (``python -m fi_cli.common.player_process``, started with a clean command line) is sent pickles of
plain data on its stdin and answers in JSON on its stdout (what it prints goes to stderr): an answer is never
unpickled here, where it could run code in the game's process. One process per player and parameters serves
every game this process plays; each game gets a new instance of the player.
"""

from __future__ import annotations

import atexit
import json
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .players import PlayerError, PolicyError, checked_action, decision_text
from .view import as_action

_HEAD = struct.Struct("<I")


def send(stream: IO[bytes], data: bytes) -> None:
    stream.write(_HEAD.pack(len(data)) + data)
    stream.flush()


def receive(stream: IO[bytes], most: int = 1 << 32) -> bytes | None:
    """The next message, or None when the other side has closed (or announces more than ``most`` bytes)."""
    head = stream.read(_HEAD.size)
    if len(head) < _HEAD.size:
        return None
    (n,) = _HEAD.unpack(head)
    data = stream.read(n) if n <= most else b""
    return data if len(data) == n else None


class _Process:
    """The player's process: one request, one answer."""

    def __init__(self, game: str, ref: str, params: dict[str, Any], who: str) -> None:
        self.who = who
        env = dict(os.environ)
        # the Python path of this process (fi itself, the folders players are looked for in); the rest of the
        # environment as it is (nothing of a game is in it)
        env["PYTHONPATH"] = os.pathsep.join(_python_path())
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "fi_cli.common.player_process"], env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
        except OSError as e:
            raise PolicyError(f"player {who}: cannot start its process: {e}") from None
        answer = self.ask(("player", game, ref, params))
        if "error" in answer:
            self.close()
            raise PolicyError(answer["error"])

    def ask(self, message: tuple) -> dict[str, Any]:
        try:
            send(self.proc.stdin, pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))  # type: ignore[arg-type]
            data = receive(self.proc.stdout, most=1 << 20)  # type: ignore[arg-type]  # an answer is small
        except (OSError, ValueError):
            data = None
        if data is None:
            code = self.proc.poll()
            raise PlayerError(f"player {self.who}: its process ended"
                              f"{f' (exit code {code})' if code is not None else ''}; what it printed is above")
        try:
            answer = json.loads(data)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise PlayerError(f"player {self.who}: its process answered something that is not fi's")
        return answer

    def close(self) -> None:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def _python_path() -> list[str]:
    """This process's Python path but the interpreter's own folders (the player's process has those)."""
    import fi_cli

    own = [Path(p).resolve() for p in {sys.prefix, sys.base_prefix, sys.exec_prefix}]
    found = [str(Path(fi_cli.__file__).resolve().parent.parent)]
    for p in sys.path:
        if p and Path(p).is_dir() and not any(Path(p).resolve().is_relative_to(o) for o in own) and p not in found:
            found.append(p)
    return found


_PROCESSES: dict[str, _Process] = {}  # by player and parameters: one process serves all the games played here


def _process(game: str, ref: str, params: dict[str, Any], who: str) -> _Process:
    key = json.dumps([game, ref, params], sort_keys=True, default=repr)
    proc = _PROCESSES.get(key)
    if proc is None or proc.proc.poll() is not None:
        proc = _PROCESSES[key] = _Process(game, ref, params, who)
    return proc


def players_cpu() -> float:
    """The CPU seconds the players' processes started here have used so far (those still running)."""
    return sum(float(p.ask(("cpu",)).get("cpu", 0.0)) for p in _PROCESSES.values() if p.proc.poll() is None)


@atexit.register
def _close_all() -> None:
    for proc in _PROCESSES.values():
        proc.close()
    _PROCESSES.clear()


class IsolatedPlayer:
    """A user's player in its own process, as a policy of this one: each decision sends the public view and the
    legal actions, and the action that comes back is checked."""

    def __init__(self, game: str, ref: str, params: dict[str, Any], who: str | None = None) -> None:
        from ..games import module

        self.name = who or ref
        self._view = module(game, "view").to_view
        self._parse = module(game, "actions").parse_action
        self._proc = _process(game, ref, params, self.name)
        self._decision = 0

    def reset(self, seed: int) -> None:
        self._decision = 0
        self._answer(("reset", seed), "the start of the game")

    def choose(self, state: Any, legal: Sequence[tuple]) -> tuple:
        self._decision += 1
        actions = list(legal)
        answer = self._answer(("choose", self._view(state), actions), lambda: decision_text(state, self._decision))
        if "action" not in answer:
            raise PlayerError(f"player {self.name} returned {answer.get('malformed', '?')} at "
                              f"{decision_text(state, self._decision)}: not an action; choose returns one of the "
                              "legal actions it is given (a tuple) or its text form")
        returned = answer["action"]
        returned = as_action(returned) if isinstance(returned, list) else returned
        return checked_action(self.name, state, actions, returned, self._decision, self._parse)

    def _answer(self, message: tuple, where: Any) -> dict[str, Any]:
        answer = self._proc.ask(message)
        if "error" in answer:
            at = where() if callable(where) else where
            raise PlayerError(f"player {self.name} failed at {at}: {answer['error']}")
        return answer

