"""The process of an isolated player (``common.isolation``): ``python -m fi_cli.common.player_process``.

It reads requests on stdin and answers each on stdout (the player's own prints go to stderr):

    ("player", game, "module:Class", params)  load and build the player once, to check it  -> {"ready": true}
    ("reset", seed)                           a new game: a new instance, reset with its own seed  -> {"ok": true}
    ("choose", view, legal)                   the state rebuilt from the public view; the player's choice
                                              -> {"action": ...} (or {"malformed": repr} if it is not plain data)
    ("cpu",)                                  -> {"cpu": seconds}

Whatever the player raises is answered {"error": "..."}. All this process ever holds of a game is what it is sent.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
import time
from typing import Any

from .isolation import receive, send
from .players import PolicyError, _error_text, build, load_class


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass  # stdin closes when the parent dies: the loop below ends then


def serve() -> None:
    _die_with_parent()
    requests = sys.stdin.buffer
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the player's prints go to stderr, never into the answers
    answer: dict[str, Any]
    while (data := receive(requests)) is not None:
        request = pickle.loads(data)
        kind = request[0]
        try:
            if kind == "player":
                game, ref, params = request[1:]
                try:
                    cls = load_class(ref)
                    build(cls, ref, params)
                    from ..games import module

                    from_view = module(game, "view").from_view
                    answer = {"ready": True}
                except PolicyError as e:
                    answer = {"error": str(e)}
            elif kind == "reset":
                player = build(cls, ref, params)
                if hasattr(player, "reset"):
                    player.reset(request[1])
                answer = {"ok": True}
            elif kind == "choose":
                answer = _plain_answer(player.choose(from_view(request[1]), request[2]))
            else:  # "cpu"
                answer = {"cpu": time.process_time()}
        except Exception as e:  # noqa: BLE001  (the player's failure is the answer)
            answer = {"error": _error_text(e)}
        send(answers, json.dumps(answer).encode())


def _plain_answer(action: Any) -> dict[str, Any]:
    try:
        return {"action": json.loads(json.dumps(action))}
    except (TypeError, ValueError):
        text = repr(action)
        return {"malformed": text if len(text) <= 80 else text[:77] + "..."}


if __name__ == "__main__":
    serve()
