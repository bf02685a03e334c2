"""`fi compare`: two players on the same deals, paired."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .common import InputError, fail, parse_rules


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--a-param", "a_params", multiple=True, metavar="NAME=VALUE", help="A parameter of player A, repeatable.")
@click.option("--b-param", "b_params", multiple=True, metavar="NAME=VALUE", help="A parameter of player B, repeatable.")
@click.option("--study", type=click.Path(dir_okay=False, path_type=Path),
              help="Play the deals of this study's scenarios (its policy is replaced by A and B).")
@click.option("--game", type=click.Choice(["island", "desert"]), default="island", show_default=True,
              help="Without --study: the game.")  # fmt: skip
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True, help="Without --study.")
@click.option("--difficulty", default="normal", show_default=True,
              help="Without --study: novice | normal | elite | legendary, or a start level (island 1-9, desert 1-4).")
@click.option("--layout", default=None, help="Without --study: a layout id or file (default: the rules' board).")
@click.option("--rule", "rules", multiple=True, metavar="FLAG=VALUE", help="Without --study: a rule variant.")
@click.option("--games", "-n", type=click.IntRange(min=1), help="Deals per scenario (default: the study's, or 200).")
@click.option("--seed", type=click.IntRange(min=0),
              help="Root seed of the deals (default: the study's, or 1). The deals are those `fi simulate` plays.")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes (default: the usable cores).")
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), default=Path("runs/compare"),
              show_default=True, help="Where the figure, the JSON and the paired games (CSV) are written.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (for scripts) instead of a table.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def compare(a, b, a_params, b_params, study, game, players, difficulty, layout, rules, games, seed, workers, out,
            as_json, quiet) -> None:
    """Play two players A and B on the same deals and say which wins more, and whether it is real.

    A and B are policy ids (`fi policies`) or players of your own (module:Class); one player with two parameter
    sets works too. Both play every deal, so the comparison is paired: for each scenario, the win rates with 95%
    Wilson intervals, the games won by one player only, the exact McNemar p (two-sided) and the CPU seconds per
    game of each (a player's own process included). Writes OUT/compare.png, OUT/compare.json and OUT/games.csv.

    \b
    Examples:
      fi compare heuristic search --players 4 --difficulty elite --games 400
      fi compare search search --b-param samples=16 --games 200
      fi compare my_players:Cautious heuristic --difficulty novice --games 100
      fi compare heuristic search --study configs/islands.yaml --games 200 --workers 2
      fi compare random heuristic --game desert --difficulty novice --json
    """
    from tqdm import tqdm

    from ..common.players import PlayerError
    from ..common.policies import PolicyError
    from ..common.variants import RulesError
    from ..report.compare import compare as run
    from ..report.compare import figure, text_table
    from ..sim.compare import Player
    from ..sim.errors import ConfigError

    try:
        deals, labels, game = _deals(study, game, players, difficulty, layout, rules, games, seed)
        sides = Player(a, parse_rules(a_params, "--a-param")), Player(b, parse_rules(b_params, "--b-param"))
        door = deals[0].scenario.door
        for side in sides:  # each player checked (and a user's own process started) before any game
            door.check_policy(side.name, side.params)
    except (ConfigError, PolicyError, RulesError, ValueError) as e:
        raise InputError(str(e)) from None
    bar = tqdm(total=2 * len(deals), unit="game", desc="compare", disable=True if quiet else None, leave=False)
    try:
        result = run(*sides, deals, labels, workers, bar.update)
    except PlayerError as e:
        raise fail(f"{e}. The comparison stopped there; nothing was written.") from None
    finally:
        bar.close()
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "compare.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n")
        with (out / "games.csv").open("w") as f:
            f.write("scenario,game,seed,win_a,win_b\n")
            f.writelines(f"{g['scenario']},{g['game']},{g['seed']},{int(g['win_a'])},{int(g['win_b'])}\n"
                         for g in result.games)
        figure(result, out / "compare.png")
    except OSError as e:
        from ..sim.errors import os_error_text

        raise fail(f"cannot write the results: {os_error_text(e, out)}; choose another directory with --out") from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
        return
    click.echo(text_table(result))
    click.echo(f"\nA = {sides[0].label}, B = {sides[1].label}; {len(deals)} deals, each played by both. Win rates "
               f"with 95% Wilson intervals; McNemar p: exact, two-sided, on the games won by one only; s/game: CPU.\n"
               f"Written: {out}/compare.png, {out}/compare.json, {out}/games.csv")


def _deals(study_file, game, players, difficulty, layout, rules, games, seed):
    """The deals, their scenarios' labels and the game: a study's, or one scenario from the options."""
    from ..sim.compare import study_deals
    from ..sim.config import BASE_SCENARIO_ID, Scenario, Study, load_study

    if study_file is not None:
        study = load_study(study_file).replace(games=games, seed=seed)
        if any("policy" in sc.values for sc in study.scenarios):
            raise InputError(f"{study_file}: matrix.policy: fi compare names the two players itself; take policy "
                             "out of the study's matrix")
        return study_deals(study), {sc.id: _label(sc) for sc in study.scenarios}, study.game
    from .play import _setup

    setup = _setup(game, players, difficulty, layout, None, parse_rules(rules), {})
    scenario = Scenario(index=0, id=BASE_SCENARIO_ID, values={}, setup=setup, policy="random", game=game)
    study = Study(name="compare", games=games or 200, seed=1 if seed is None else seed, scenarios=(scenario,),
                  game=game)
    return study_deals(study), {BASE_SCENARIO_ID: _label(scenario)}, game


def _label(sc) -> str:
    """Layout · Difficulty · N players, and the scenario's id when it has one."""
    name = getattr(sc.layout, "name", "") or sc.layout.id
    text = f"{name} · {str(sc.difficulty).capitalize()} · {sc.setup.players} players"
    return text if sc.id == "base" else f"{text} ({sc.id})"
