"""The compiled (mypyc) island and Desert modules play exactly the games their sources play, and a stale compiled
module never runs (see fi_cli/native.py and setup.py)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

from fi_cli import native

HERE = os.path.dirname(os.path.abspath(__file__))


def _games() -> list[tuple[str, str, object, int]]:
    """(game, policy, setup, seed) of the games compared: each game's heuristic at every player count and
    difficulty, on other islands and boards with rule variants, a few random games (the engines alone) and two
    games of the island's search player."""
    import desert_invariants
    import invariants

    from fi_cli.desert.game import GameSetup as DesertSetup
    from fi_cli.island.game import GameSetup
    from fi_cli.island.layouts import get_layout

    standard = get_layout("forbidden_island")
    games: list[tuple[str, str, object, int]] = [
        ("island", "heuristic", GameSetup(standard, start_level=level, players=players), 500 + 10 * level + players)
        for level in (1, 2, 3, 4)
        for players in (2, 3, 4)
    ]
    games += [("island", "heuristic", invariants.varied_setup(g), 700 + g) for g in range(0, 48, 3)]
    games += [("island", "random", invariants.varied_setup(g), 900 + g) for g in range(3)]
    # the search's own loop (rollout.py) and its sampled futures, with its default parameters
    games += [("island", "search", GameSetup(standard, start_level=2, players=4), seed) for seed in (31, 32)]
    games += [
        ("desert", "heuristic", DesertSetup(players=players, start_level=level), 300 + 10 * level + players)
        for level in (1, 2, 3, 4)
        for players in (2, 4, 5)
    ]
    games += [("desert", "heuristic", desert_invariants.varied_setup(g), 400 + g) for g in range(0, 24, 3)]
    games += [("desert", "random", desert_invariants.varied_setup(g), 600 + g) for g in range(3)]
    return games


def step_logs() -> list[list]:
    """Every game of ``_games()`` as a list: per turn its player, actions and what the storm or the flood did,
    then the result. Plain data, so that a pure-Python subprocess can hand it over as JSON."""
    from fi_cli.desert.play import play_game as play_desert
    from fi_cli.desert.policies import make_policy as desert_policy
    from fi_cli.island.play import play_game
    from fi_cli.island.policies import make_policy

    logs = []
    for game, policy, setup, seed in _games():
        log: list
        if game == "island":
            rec = play_game(setup, make_policy(policy), seed)
            log = [[r.turn, r.player, r.actions, r.flood_draws, r.water_level] for r in rec.turn_rows]
            log.append([rec.outcome, list(rec.loss_causes), rec.turns, [t.sunk_turn for t in rec.tile_rows]])
        else:
            d = play_desert(setup, desert_policy(policy), seed)
            log = [[r.turn, r.player, r.actions, r.storm_cards, r.water, r.sand_supply] for r in d.turn_rows]
            log.append([d.outcome, list(d.loss_causes), d.turns, [t.excavated_turn for t in d.tile_rows]])
        logs.append(log)
    return logs


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run Python code in a fresh interpreter with the tests' helpers importable and ``env`` added."""
    full = {k: v for k, v in os.environ.items() if k not in ("FI_PURE_PYTHON", "FI_NATIVE_STALE_WARNED")}
    full.update(env)
    full["PYTHONPATH"] = os.pathsep.join([HERE, full.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, check=True)


def _loaded_from_source() -> str:
    return ("import sys, importlib; print(all(importlib.import_module(m).__file__.endswith('.py') "
            "for m in fi_cli.native.MODULES))")


def _built() -> bool:
    """Whether the compiled modules are installed and match their sources (whatever FI_PURE_PYTHON says)."""
    return native.status(environ={}) == native.COMPILED


def test_compiled_and_pure_python_play_the_same_games():
    if not native.compiled():
        pytest.skip(f"the compiled modules are not in use: {native.describe()}")
    import fi_cli.desert.engine
    import fi_cli.island.engine

    for engine in (fi_cli.island.engine, fi_cli.desert.engine):
        assert not engine.__file__.endswith(".py")  # the games below are played compiled
    compiled = step_logs()
    out = _run("import json, test_native; print(json.dumps(test_native.step_logs()))", FI_PURE_PYTHON="1")
    pure = json.loads(out.stdout)
    assert len(pure) == len(compiled) == len(_games())
    for i, (a, b) in enumerate(zip(json.loads(json.dumps(compiled)), pure, strict=True)):
        assert a == b, f"game {i} of _games() differs between compiled and pure Python"


def test_the_flag_says_which_modules_are_loaded():
    from_source = [importlib.import_module(m).__file__.endswith(".py") for m in native.MODULES]
    assert from_source == [not native.compiled()] * len(native.MODULES)  # all or none


def test_fi_pure_python_loads_every_module_from_its_source():
    out = _run("import fi_cli.native; print(fi_cli.native.compiled()); " + _loaded_from_source(), FI_PURE_PYTHON="1")
    assert out.stdout.split() == ["False", "True"]
    assert out.stderr == ""  # asked for: no warning


def test_an_edited_source_is_stale_and_the_whole_group_runs_from_source(tmp_path):
    if not _built():
        pytest.skip(f"no compiled modules installed: {native.describe()}")
    # a record whose hash of one source differs stands for that source having been edited since compiling
    record = tmp_path / "record.json"
    hashes = {m: native.source_hash(native.source_path(m)) for m in native.MODULES}
    record.write_text(json.dumps({"modules": hashes}))
    assert native.status(record=str(record), environ={}) == native.COMPILED
    hashes["fi_cli.island.engine"] = "0" * 64
    record.write_text(json.dumps({"modules": hashes}))
    assert native.status(record=str(record), environ={}) == native.STALE
    assert native.status(record=str(tmp_path / "missing.json"), environ={}) == native.STALE
    assert native.status(record=str(record), environ={"FI_PURE_PYTHON": "1"}) == native.FORCED
    # what the guard does when it finds them stale, in a fresh interpreter (not this one, already loaded)
    out = _run(
        f"import fi_cli.native; fi_cli.native._use(fi_cli.native.status(record={str(record)!r})); "
        "print(fi_cli.native.compiled()); " + _loaded_from_source()
    )
    assert out.stdout.split() == ["False", "True"]
    assert out.stderr.strip() == native.STALE_WARNING


def test_nothing_compiled_is_plain_pure_python(tmp_path):
    assert native.status(root=str(tmp_path), environ={}) == native.PURE


def test_compiled_modules_import_only_at_module_level():
    """An import inside a function runs the import machinery at every call once compiled (3.5% of a search game
    went to one in the turn planner): the compiled modules import at their top only."""
    import ast

    inside = []
    for module in native.MODULES:
        path = os.path.join(os.path.dirname(HERE), *module.split(".")) + ".py"
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                imports = [node for node in ast.walk(fn) if isinstance(node, ast.Import | ast.ImportFrom)]
                inside += [f"{module}.{fn.name}"] * len(imports)
    assert not inside, f"imports inside functions of compiled modules: {inside}"
