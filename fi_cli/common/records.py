"""A game's log rows kept column by column, as the logs keep them, and turned back into records when wanted.

A game's record (each game's ``play.GameRecord``, a ColumnRecord) keeps its turns and tiles as a dict of columns:
a list per column, a list-valued column as (its rows' items in one list, each row's length). That is what the logs
append (``Columns.add_columns``), without a record per row; replay and the tests read the rows as records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def column_rows(column: Any) -> list:
    """A column as one value per row (a list-valued column as a list per row)."""
    if not isinstance(column, tuple):
        return column
    items, lengths = column
    rows, at = [], 0
    for n in lengths:
        rows.append(items[at:at + n])
        at += n
    return rows


def records(kind: Any, columns: dict[str, Any]) -> list:
    """The rows of ``columns`` as records of ``kind`` (a dataclass whose fields are the columns' names)."""
    names = list(columns)
    return [kind(**dict(zip(names, row, strict=True))) for row in zip(*map(column_rows, columns.values()), strict=True)]


@dataclass
class ColumnRecord:
    """A played game whose turns and tiles rows are kept column by column (cheaper than a record per row); its
    game's subclass says which records ``turn_rows`` and ``tile_rows`` are (``row_kinds``)."""

    turn_columns: dict[str, Any] = field(default_factory=dict, kw_only=True)
    tile_columns: dict[str, Any] = field(default_factory=dict, kw_only=True)

    def row_kinds(self) -> tuple[Any, Any]:
        """The dataclasses of a turns row and of a tiles row."""
        raise NotImplementedError

    @property
    def turn_rows(self) -> list:
        return records(self.row_kinds()[0], self.turn_columns)

    @property
    def tile_rows(self) -> list:
        return records(self.row_kinds()[1], self.tile_columns)


class TurnColumns:
    """The turns of a game as they are played, column by column: what every game logs of a turn (its number, the
    player, their role, the actions' texts); each game's play module adds its own columns in a subclass."""

    def __init__(self) -> None:
        self.turn: list[int] = []
        self.player: list[int] = []
        self.role: list[str] = []
        self.actions: list[str] = []
        self.n_actions: list[int] = []

    def add_turn(self, turn: int, player: int, role: str, actions: list[str]) -> None:
        self.turn.append(turn)
        self.player.append(player)
        self.role.append(role)
        self.actions.extend(actions)
        self.n_actions.append(len(actions))

    def columns(self) -> dict[str, Any]:
        """The columns, in the order of the logs' schemas: a subclass adds its own after these."""
        return {"turn": self.turn, "player": self.player, "role": self.role, "actions": (self.actions, self.n_actions)}
