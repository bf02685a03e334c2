"""`fi games` (find games to replay) and `fi export` (raw tables for spreadsheets), on small runs of both games."""

from __future__ import annotations

import importlib.util
import shlex
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from fi_cli.cli import main
from fi_cli.sim.api import load_run, load_study, run_study

# random players lose every game, heuristic ones win most at novice: both outcomes and several causes
STUDIES = {
    "island": "name: i\ngames: 5\nseed: 3\nchunk_size: 3\ngame:\n  difficulty: novice\n"
              "matrix:\n  policy: [random, heuristic]\n",
    "desert": "name: d\ngames: 6\nseed: 5\ngame:\n  name: desert\n  difficulty: novice\n  players: 3\n"
              "policy: heuristic\n",
}


@pytest.fixture(scope="module", params=sorted(STUDIES))
def run_dir(request, tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp(request.param)
    (d / "study.yaml").write_text(STUDIES[request.param])
    return run_study(load_study(d / "study.yaml"), d / "run", workers=1, progress=False)


def fi(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def listed(output: str) -> list[tuple[str, int]]:
    """(scenario, game) of each row of the table `fi games` prints."""
    rows = output.split("\n\n")[0].splitlines()[2:]
    return [(r.split()[0], int(r.split()[1])) for r in rows]


def test_games_lists_every_game_in_the_studys_order_with_its_seed_turns_and_cause(run_dir):
    games = load_run(run_dir).games
    r = fi("games", run_dir, "--limit", 0)
    assert r.exit_code == 0, r.output
    expected = games.sort_values(["scenario", "game"])
    assert listed(r.output) == list(zip(expected["scenario"].astype(str), expected["game"], strict=True))
    first = r.output.splitlines()[2].split()
    row = games[(games["scenario"] == first[0]) & (games["game"] == int(first[1]))].iloc[0]
    cause = row["loss_cause"] if isinstance(row["loss_cause"], str) else "–"
    assert first[2:] == [str(row["seed"]), str(row["turns"]), row["outcome"], cause]
    assert f"{len(games)} of {len(games)} games match." in r.output


@pytest.mark.parametrize("outcome, word", [("loss", "loss"), ("lost", "loss"), ("win", "win"), ("won", "win")])
def test_games_by_outcome(run_dir, outcome, word):
    games = load_run(run_dir).games
    want = games[games["outcome"] == word].sort_values(["scenario", "game"])
    assert len(want) > 0  # the studies have both outcomes
    r = fi("games", run_dir, "--outcome", outcome, "-n", 0)
    assert r.exit_code == 0 and listed(r.output) == list(zip(want["scenario"].astype(str), want["game"], strict=True))


def test_games_by_cause_and_scenario_with_a_limit_then_the_replay_of_the_first(run_dir):
    games = load_run(run_dir).games
    cause = games["loss_cause"].value_counts().index[0]
    scenario = games.loc[games["loss_cause"] == cause, "scenario"].iloc[0]
    want = games[(games["loss_cause"] == cause) & (games["scenario"] == scenario)].sort_values("game")
    r = fi("games", run_dir, "--cause", cause, "--scenario", scenario, "--limit", 1)
    assert r.exit_code == 0, r.output
    assert listed(r.output) == [(scenario, want["game"].iloc[0])]
    more = " (the first 1; --limit 0 lists all)" if len(want) > 1 else ""
    assert f"{len(want)} of {(games['scenario'] == scenario).sum()} games match{more}." in r.output
    command = r.output.split("Replay the first: ")[1].strip()
    assert shlex.split(command)[:2] == ["fi", "replay"]
    replayed = fi(*shlex.split(command)[1:], "-q")
    assert replayed.exit_code == 0 and "matches the log" in replayed.output


def test_games_that_none_match(run_dir):
    games = load_run(run_dir).games
    cause = games["loss_cause"].dropna().iloc[0]
    r = fi("games", run_dir, "--cause", cause, "--outcome", "win")
    assert r.exit_code == 0 and r.output == f"no game of the {len(games)} of {run_dir} matches\n"


def test_an_unknown_cause_lists_the_causes_of_the_run(run_dir):
    counts = load_run(run_dir).games["loss_cause"].value_counts()
    r = fi("games", run_dir, "--cause", "boredom")
    assert r.exit_code == 2 and "no game was lost by this cause (got 'boredom'); allowed: " in r.output
    assert ", ".join(f"{c} ({n})" for c, n in counts.items()) in r.output


COMMANDS = [["games"], ["export", "--to", "csv", "{out}"]]


@pytest.mark.parametrize("command", COMMANDS, ids=["games", "export"])
def test_an_unknown_scenario_or_run_is_a_clear_error(run_dir, tmp_path, command):
    args = [str(a).format(out=tmp_path / "out") for a in command[1:]]
    r = fi(command[0], run_dir, *args, "--scenario", "nope")
    assert r.exit_code == 2 and "no such scenario (got 'nope'); allowed: " in r.output, r.output
    assert all(str(s) in r.output for s in load_run(run_dir).games["scenario"].unique())
    r = fi(command[0], tmp_path / "nowhere", *args)
    assert r.exit_code == 2 and "nowhere: no such run directory" in r.output and "Traceback" not in r.output
    (tmp_path / "empty").mkdir()
    r = fi(command[0], tmp_path / "empty", *args)
    assert r.exit_code == 2 and "is not a run directory" in r.output
    assert not (tmp_path / "out").exists()


def test_games_of_other_rules_are_listed_but_not_offered_for_replay(run_dir, monkeypatch):
    from fi_cli.sim.games import door

    the_game = door(load_run(run_dir).game)
    played_under = the_game.RULES_VERSION
    monkeypatch.setattr(the_game, "RULES_VERSION", "rules-99")
    r = fi("games", run_dir)
    assert r.exit_code == 0 and "Replay the first" not in r.output
    assert (f"These games were played under the rules {played_under} and this fi plays rules-99: `fi replay` cannot "
            "play them again.") in r.output


def test_export_csv_writes_the_raw_tables(run_dir, tmp_path):
    run = load_run(run_dir)
    r = fi("export", run_dir, "--to", "csv", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [f"wrote {tmp_path / 'out' / ds}.csv" for ds in ("games", "turns", "tiles")]
    for ds in ("games", "turns", "tiles"):
        csv = pd.read_csv(tmp_path / "out" / f"{ds}.csv", keep_default_na=False)
        data = run.read(ds)
        assert list(csv.columns) == list(data.columns) and len(csv) == len(data)
    games = pd.read_csv(tmp_path / "out" / "games.csv", keep_default_na=False)
    first = run.games.sort_values(["scenario", "game"]).iloc[0]
    assert (games.loc[0, "scenario"], games.loc[0, "game"], games.loc[0, "seed"]) == (first["scenario"],
                                                                                     first["game"], first["seed"])
    assert games.loc[0, "roles"] == "; ".join(first["roles"])  # a list is one cell
    turns = (tmp_path / "out" / "turns.csv").read_text()
    assert ".0," not in turns.splitlines()[1]  # whole numbers stay whole though some cells are empty


def test_export_of_some_scenarios(run_dir, tmp_path):
    games = load_run(run_dir).games
    last = str(games["scenario"].cat.categories[-1])
    r = fi("export", run_dir, "--to", "csv", tmp_path, "--scenario", last)
    assert r.exit_code == 0, r.output
    exported = pd.read_csv(tmp_path / "games.csv")
    assert set(exported["scenario"]) == {last} and len(exported) == (games["scenario"] == last).sum()


def test_export_xlsx_without_openpyxl_says_how_to_get_it(run_dir, tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "openpyxl" else real(name, *a))
    r = fi("export", run_dir, "--to", "xlsx", tmp_path / "out")
    assert r.exit_code == 2 and "writing .xlsx needs the package openpyxl: pip install 'fi-cli[xlsx]'" in r.output
    assert not (tmp_path / "out").exists()


def test_export_xlsx_writes_a_sheet_per_table(run_dir, tmp_path):
    pytest.importorskip("openpyxl")
    run = load_run(run_dir)
    r = fi("export", run_dir, "--to", "xlsx", tmp_path)
    assert r.exit_code == 0, r.output
    book = pd.read_excel(tmp_path / "run.xlsx", sheet_name=None)
    assert list(book) == ["games", "turns", "tiles"]
    assert {ds: len(t) for ds, t in book.items()} == {ds: len(run.read(ds)) for ds in book}
    assert [p.name for p in tmp_path.iterdir()] == ["run.xlsx"]  # no temporary file left


@pytest.mark.parametrize("command", COMMANDS, ids=["games", "export"])
def test_a_damaged_file_is_named_without_a_traceback(run_dir, tmp_path, command):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    damaged = sorted((copy / "games").rglob("*.parquet"))[0]
    damaged.write_text("not parquet")
    r = fi(command[0], copy, *[str(a).format(out=tmp_path / "out") for a in command[1:]])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "cannot read its games data" in r.output and str(damaged.relative_to(tmp_path)) in r.output
    assert f"`fi check {copy}` lists every damaged file" in r.output
