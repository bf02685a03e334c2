"""How a chunk's rows are kept before they become Arrow tables: one list per column, list-valued columns flat."""

from __future__ import annotations

import gc
import importlib
from dataclasses import asdict

import pyarrow as pa
import pytest

from fi_cli.sim.api import load_study
from fi_cli.sim.runner import play_games
from fi_cli.sim.tables import Columns, ListColumn, _array

# a small study of each game
STUDIES = {"island": "name: t\ngames: 2\nseed: 9\npolicy: heuristic\n",
           "desert": "name: t\ngames: 2\nseed: 9\ngame: {name: desert, players: 4}\npolicy: heuristic\n"}


@pytest.mark.parametrize("type_, rows", [
    (pa.list_(pa.string()), [("a", "b"), (), ["c"], ("d", "e", "f")]),
    (pa.list_(pa.int32()), [[3, 4, 1, 2], [], [0]]),
    (pa.list_(pa.string()), []),
])
def test_a_flat_list_column_is_the_array_of_its_rows(type_, rows):
    col = ListColumn()
    col.extend(rows[:1])
    col.extend(iter(rows[1:-1]))
    for row in rows[-1:]:
        col.append(iter(row))
    assert col.lengths == [len(r) for r in rows]
    made = _array(col, type_)
    assert made.equals(pa.array([list(r) for r in rows], type=type_)) and made.type == type_


@pytest.mark.parametrize("type_, values", [
    (pa.int32(), [3, -1, 0, 2**31 - 1, -2**31]),
    (pa.int64(), [2**63 - 1, 0, -5]),
    (pa.int32(), [4, None, 7]),  # a null: pyarrow's own conversion
    (pa.int32(), []),
    (pa.dictionary(pa.int32(), pa.string()), ["s=1"] * 5),
    (pa.dictionary(pa.int32(), pa.string()), ["s=1", "s=2", "s=1", "s=3"]),
    (pa.dictionary(pa.int32(), pa.string()), []),
])
def test_a_column_is_the_array_pyarrow_makes_of_its_values(type_, values):
    made = _array(values, type_)
    assert made.equals(pa.array(values, type=type_)) and made.type == type_
    col = ListColumn()  # the same values as items of a list column, rows of two
    col.extend([values[i:i + 2] for i in range(0, len(values), 2)])
    list_type = pa.list_(type_)
    made = _array(col, list_type)
    assert made.equals(pa.array([values[i:i + 2] for i in range(0, len(values), 2)], list_type))


def test_an_integer_out_of_range_is_refused_as_pyarrow_refuses_it():
    with pytest.raises(pa.ArrowInvalid):
        pa.array([2**31], pa.int32())
    with pytest.raises(pa.ArrowInvalid):
        _array([1, 2**31], pa.int32())


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_logged_rows_leave_nothing_for_the_garbage_collector(tmp_path, game):
    """A row's lists are kept flat: a chunk of games holds no container per row (which made the collector run
    every dozen games)."""
    study_file = tmp_path / "s.yaml"
    study_file.write_text(STUDIES[game])
    sc = load_study(study_file).scenarios[0]
    cols = Columns(sc.schemas)
    play_games(sc, 5, range(3), cols)
    assert cols.n_games == 3 and len(cols.data["turns"]["turn"]) > 3
    for ds, columns in cols.data.items():
        for name, values in columns.items():
            items = values.items if isinstance(values, ListColumn) else values
            assert not any(gc.is_tracked(v) for v in items), (ds, name)


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_a_record_logged_column_by_column_gives_the_rows_of_its_records(tmp_path, game):
    """Each game's record keeps its turns and tiles column by column (add_columns); its records (turn_rows,
    tile_rows, as replay and the tests read them), made into tables by pyarrow itself, are the very same tables."""
    study_file = tmp_path / "s.yaml"
    study_file.write_text(STUDIES[game])
    sc = load_study(study_file).scenarios[0]
    by_columns, records = Columns(sc.schemas), {"turns": [], "tiles": []}
    for g in range(2):
        rec = sc.door.play(sc.setup, sc.policy, sc.policy_params, 1000 + g)
        by_columns.add_columns("turns", sc.id, g, rec.turn_columns)
        by_columns.add_columns("tiles", sc.id, g, rec.tile_columns)
        for ds, rows in (("turns", rec.turn_rows), ("tiles", rec.tile_rows)):
            records[ds] += [{"scenario": sc.id, "game": g, **asdict(r)} for r in rows]
        assert [r.turn for r in rec.turn_rows] == list(range(1, rec.turns + 1))
        assert all(isinstance(r.actions, list) and r.actions for r in rec.turn_rows)
        assert len(rec.tile_rows) == 24
    tables = by_columns.tables()
    for ds in ("turns", "tiles"):
        expected = pa.Table.from_pylist(records[ds], schema=sc.schemas[ds])
        assert tables[ds].num_rows == expected.num_rows > 0 and tables[ds].equals(expected), ds


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_an_action_played_again_is_logged_with_the_same_string(tmp_path, game):
    """A chunk's actions column holds a string per distinct action, not one per move (less memory for Arrow to
    read); the texts are those of action_text."""
    actions = importlib.import_module(f"fi_cli.{game}.actions")
    study_file = tmp_path / "s.yaml"
    study_file.write_text(STUDIES[game])
    sc = load_study(study_file).scenarios[0]
    items = [t for g in range(2)
             for t in sc.door.play(sc.setup, sc.policy, sc.policy_params, 77 + g).turn_columns["actions"][0]]
    assert len({id(t) for t in items}) == len(set(items)) < len(items)
    assert all(actions.action_text(actions.parse_action(t)) == t for t in set(items))
