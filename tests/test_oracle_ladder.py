"""The clairvoyant oracle (an unfair measuring instrument) and the ladder of players on the same deals."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from fi_cli.common.play import LegalActions, choose
from fi_cli.sim.api import load_study, run_study
from fi_cli.sim.replay import replay_game
from fi_cli.sim.seeds import game_seed


def _island(players: int = 4, level: int = 2):
    from fi_cli.island.game import GameSetup, new_game
    from fi_cli.island.layouts import get_layout
    from fi_cli.island.play import play_game
    from fi_cli.island.policies import make_policy

    return GameSetup(get_layout("forbidden_island"), level, players), new_game, play_game, make_policy


def _desert(players: int = 4, level: int = 1):
    from fi_cli.desert.game import GameSetup, new_game
    from fi_cli.desert.play import play_game
    from fi_cli.desert.policies import make_policy

    return GameSetup(players=players, start_level=level), new_game, play_game, make_policy


class _Recorder:
    """Wraps a policy and keeps every action it chose, in order."""

    def __init__(self, inner):
        self.inner, self.actions = inner, []
        self.fair = getattr(inner, "fair", True)

    def reset(self, seed):
        self.inner.reset(seed)

    def solve(self, s):
        self.inner.solve(s)

    def choose(self, state, legal):
        a = self.inner.choose(state, legal)
        self.actions.append(a)
        return a


@pytest.mark.parametrize("game", ["island", "desert"])
def test_an_oracle_win_is_a_legal_game_of_the_real_rules(game):
    """Every action it plays is checked legal when replayed on a fresh game of the same seed, and the game is won
    there: the win proves the deal winnable under the real rules."""
    setup, new_game, play_game, make_policy = _island(level=3) if game == "island" else _desert()
    wins = 0
    for seed in range(40, 52):
        rec = _Recorder(make_policy("oracle", {"budget": 60}))
        outcome = play_game(setup, rec, seed).outcome
        assert (outcome == "win") == rec.inner.found
        s = new_game(setup, seed)
        for a in rec.actions:
            s.apply_checked(a)
        assert s.outcome == outcome
        wins += outcome == "win"
    assert wins >= 3  # it wins deals (these are some the heuristic loses: see the next test)


def test_the_oracle_wins_deals_the_heuristic_loses():
    setup, _, play_game, make_policy = _island(level=3)
    seeds = range(40, 64)
    heuristic = sum(play_game(setup, make_policy("heuristic"), s).outcome == "win" for s in seeds)
    oracle = sum(play_game(setup, make_policy("oracle", {"budget": 60}), s).outcome == "win" for s in seeds)
    assert oracle > heuristic


def test_a_fair_player_is_never_shown_the_real_game():
    """``solve`` (the real game, generator and all) goes only to a class that says it is unfair; a fair player that
    asks for it anyway gets nothing, and never sees a generator while deciding."""
    setup, _, play_game, make_policy = _desert()

    class Greedy:
        name = "greedy"  # no `fair = False`: a fair player

        def __init__(self):
            self.solved, self.saw = False, []
            self.inner = make_policy("heuristic")

        def reset(self, seed):
            self.inner.reset(seed)

        def solve(self, s):
            self.solved = True

        def choose(self, state, legal):
            self.saw.append(state.rng)
            return self.inner.choose(state, legal)

    p = Greedy()
    play_game(setup, p, 5)
    assert not p.solved and p.saw and all(r is None for r in p.saw)
    from fi_cli.desert.policies import is_fair

    assert is_fair("heuristic") and is_fair("search") and not is_fair("oracle")


def test_oracle_parameters_are_checked():
    from fi_cli.common.policies import PolicyError
    from fi_cli.island.policies import make_policy

    for bad in ({"budget": 0}, {"depth": 0}, {"variants": 99}, {"budget": 1.5}):
        with pytest.raises(PolicyError, match="oracle"):
            make_policy("oracle", bad)


def _ladder_study(tmp_path: Path, game: str = "island") -> Path:
    text = {
        "island": "game: {layout: forbidden_island, difficulty: elite, players: 4}\n"
                  "matrix:\n  layout: [forbidden_island, skull_island]\n  policy: [random, heuristic, "
                  "{name: oracle, budget: 40}]\n",
        "desert": "game: {name: desert, difficulty: novice, players: 4}\nmatrix:\n  policy: [heuristic, "
                  "{name: oracle, budget: 30}]\n",
    }[game]
    path = tmp_path / "ladder.yaml"
    path.write_text(f"name: ladder\ngames: 8\nseed: 3\nchunk_size: 4\n{text}")
    return path


def test_every_rung_plays_the_same_deals_and_rows_say_who_is_fair(tmp_path):
    study = load_study(_ladder_study(tmp_path))
    out = run_study(study, tmp_path / "run", workers=1, progress=False)
    g = pd.read_parquet(out / "games")
    g["scenario"] = g["scenario"].astype(str)
    for sc in study.scenarios:
        rows = g[g["scenario"] == sc.id].sort_values("game")
        assert list(rows["seed"]) == [game_seed(3, sc.deal_id, i) for i in range(8)]
        assert set(rows["fair"]) == {sc.policy != "oracle"}
    seeds = {sc.id: tuple(g[g["scenario"] == sc.id].sort_values("game")["seed"]) for sc in study.scenarios}
    by_layout: dict[str, set] = {}
    for sc in study.scenarios:
        by_layout.setdefault(sc.values["layout"], set()).add(seeds[sc.id])
    assert all(len(v) == 1 for v in by_layout.values())  # one deal set per island, whatever the player
    assert len({next(iter(v)) for v in by_layout.values()}) == 2  # and another island, other deals
    # an oracle game replays from its logged seed alone
    oracle = next(sc for sc in study.scenarios if sc.policy == "oracle")
    assert replay_game(out, oracle.id, 0).matches


def test_a_study_without_a_player_matrix_keeps_its_seeds(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: s\ngames: 2\nseed: 9\nmatrix:\n  difficulty: [novice, normal]\n")
    for sc in load_study(path).scenarios:
        assert sc.deal_id == sc.id


def test_the_ladder_section_pairs_the_rungs(tmp_path):
    from fi_cli.report import ladder
    from fi_cli.report.load import load_runs

    out = run_study(load_study(_ladder_study(tmp_path, "desert")), tmp_path / "run", workers=1, progress=False)
    data = load_runs([out])
    assert ladder.applies(data)
    t = ladder.compute(data)
    rows = t["ladder"]
    assert list(rows["rung"]) == ["heuristic", "oracle (budget=30)"]
    assert list(rows["fair"]) == [True, False]
    second = rows.iloc[1]
    # the paired counts explain the difference of the win counts exactly
    assert second["only_this"] - second["only_previous"] == second["wins"] - rows.iloc[0]["wins"]
    s = t["ladder_summary"].iloc[0]
    assert s["winnable_at_least"] == second["win_rate"]
    assert s["luck_at_most"] == pytest.approx(1 - second["win_rate"])
    assert s["value_of_information"] == pytest.approx(second["win_rate"] - rows.iloc[0]["win_rate"])
    from fi_cli.report.tables import run_summary

    assert "oracle (budget=30) (unfair)" in run_summary(out)


def test_choose_hides_the_generator_from_the_oracle_too():
    """The oracle sees the future only through ``solve``; its ``choose`` is an ordinary decision."""
    setup, new_game, _, make_policy = _island()
    s = new_game(setup, 1)
    p = make_policy("oracle", {"budget": 5})
    p.solve(s)
    seen = []

    class Peek:
        def choose(self, state, legal):
            seen.append(state.rng)
            return p.choose(state, legal)

    a = choose(Peek(), s, LegalActions(s))
    assert seen == [None] and a in s.legal_actions()
