"""Play deals 0..N-1 with one policy and print one JSON line: games, CPU seconds, decisions, player turns.

Run by ``speed_against.py`` with the Python of each install it compares, so it imports from ``fi_cli`` only what
has not changed since the Desert was built (new_game, GameSetup, make_policy, choose, LegalActions): the same
harness times the code of any commit since. Not meant to be run by hand (``speed.py`` is), but it can be:

    python benchmarks/timed_games.py '{"game": "desert", "policy": "heuristic", "games": 50}'
"""

from __future__ import annotations

import json
import sys
import time


def _setup(o: dict):
    if o["game"] == "desert":
        from fi_cli.desert.game import GameSetup, new_game
        from fi_cli.desert.policies import make_policy
        from fi_cli.desert.tiles import parse_difficulty

        return new_game, GameSetup(o["players"], parse_difficulty(o["difficulty"])), make_policy
    from fi_cli.island.game import GameSetup, new_game
    from fi_cli.island.layouts import get_layout
    from fi_cli.island.policies import make_policy
    from fi_cli.island.tiles import parse_difficulty

    return new_game, GameSetup(get_layout(o["layout"]), parse_difficulty(o["difficulty"]), o["players"]), make_policy


def _play(new_game, setup, policy, seeds: range) -> tuple[int, int]:
    """(decisions, player turns) of the games of ``seeds`` (the policy's own seed is the deal's)."""
    from fi_cli.common.play import LegalActions, choose

    decisions = turns = 0
    for seed in seeds:
        s = new_game(setup, seed)
        policy.reset(seed)
        while s.outcome is None:
            s.apply(choose(policy, s, LegalActions(s)))
            decisions += 1
        turns += s.turn
    return decisions, turns


def main() -> None:
    o = {"game": "desert", "players": 4, "difficulty": "novice", "layout": "forbidden_island", "params": {},
         "min_seconds": 2.0, **json.loads(sys.argv[1])}  # fmt: skip
    try:
        new_game, setup, make_policy = _setup(o)
        policy = make_policy(o["policy"], o["params"])
    except Exception as e:  # noqa: BLE001 - whatever an install of any age refuses a set-up, policy or parameter with
        sys.exit(str(e))
    if o.get("check"):  # only whether the policy and its parameters are known
        return
    t0 = time.process_time()
    for start in range(10**6, 10**6 + 200, 5):  # warm-up, on other deals: at most 200 games or a second
        _play(new_game, setup, policy, range(start, start + 5))
        if time.process_time() - t0 > 1.0:
            break
    games = decisions = turns = 0
    t0 = time.process_time()
    while not games or time.process_time() - t0 < o["min_seconds"]:  # again until the clock has run long enough
        d, t = _play(new_game, setup, policy, range(o["games"]))
        games, decisions, turns = games + o["games"], decisions + d, turns + t
    print(json.dumps({"games": games, "seconds": time.process_time() - t0, "decisions": decisions, "turns": turns}))


if __name__ == "__main__":
    main()
