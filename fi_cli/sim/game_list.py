"""Finding games in a run by scenario, outcome and loss cause, to replay them (`fi games`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .api import Run
from .errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ["scenario", "game", "seed", "turns", "outcome", "loss_cause"]
OUTCOMES = ("win", "loss")


@dataclass
class GameList:
    """The games that match (at most `limit` of them, in the study's order), and how many match in all."""

    games: pd.DataFrame
    matched: int
    total: int  # the games of the run (those written so far)


def find_games(run: Run, scenario: str | None = None, outcome: str | None = None, cause: str | None = None,
               limit: int | None = None) -> GameList:
    """The games of `run` of one scenario (id or index), outcome and loss cause (each optional). An unknown
    scenario or a cause no game of the run was lost by is a ConfigError listing what the run has."""
    if outcome is not None and outcome not in OUTCOMES:
        raise ConfigError("unknown outcome", file=run.path, value=outcome, allowed=", ".join(OUTCOMES))
    ids = [run.study.scenario(scenario).id] if scenario is not None else None
    games = run.read("games", columns=COLUMNS, scenarios=ids)
    total = len(games)
    if cause is not None:
        causes = games["loss_cause"].value_counts()
        if cause not in causes.index:
            where = f"of scenario {ids[0]!r} " if ids else ""
            found = ", ".join(f"{c} ({n})" for c, n in causes.items()) or "none (no game was lost)"
            raise ConfigError(f"no game {where}was lost by this cause", file=run.path, value=cause, allowed=found)
        games = games[games["loss_cause"] == cause]
    if outcome is not None:
        games = games[games["outcome"] == outcome]
    games = games.sort_values(["scenario", "game"], kind="stable")
    return GameList(games.head(limit) if limit else games, matched=len(games), total=total)
