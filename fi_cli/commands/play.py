"""`fi play`: one game of either game, printed turn by turn."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from .common import fail, parse_components, parse_rules


@click.command()
@click.option("--game", type=click.Choice(["island", "desert"]), default="island", show_default=True,
              help="Forbidden Island or Forbidden Desert.")  # fmt: skip
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True,
              help="Number of players (island 2-4, desert 2-5).")  # fmt: skip
@click.option(
    "--difficulty", default="normal", show_default=True,
    help="novice | normal | elite | legendary; or the island's start level 1-9, the desert's start mark 1-4.",
)  # fmt: skip
@click.option("--policy", default="random", show_default=True,
              help="Player policy id (see `fi policies`), or a player of your own as module:Class.")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed: the same seed replays the same game.")
@click.option("--layout", default=None, help="A built-in layout id or a layout file (.yaml); for the desert a board "
                                             "(a file saying game: desert).  [default: forbidden_island, "
                                             "forbidden_desert]")  # fmt: skip
@click.option("--roles", default=None, help="Comma-separated role ids in seat order (default: random).")
@click.option("--rule", "rules", multiple=True, metavar="FLAG=VALUE", help="A rule variant, repeatable.")
@click.option("--component", "components", multiple=True, metavar="NAME=VALUE",
              help="A component other than the rulebook's, repeatable: hand_limit=6, water_meter=2,2,3,3, "
                   "canteens=water_carrier:6 (names: the README's Components).")
@click.option(
    "--param", "params", multiple=True, metavar="NAME=VALUE",
    help="A parameter of the policy, repeatable (`fi policies NAME` lists them).",
)  # fmt: skip
@click.option(
    "--save-positions", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Write the position before every decision as JSON into this directory.",
)  # fmt: skip
@click.option("--quiet", is_flag=True, help="Print only the result line.")
def play(game, players, difficulty, policy, seed, layout, roles, rules, components, params, save_positions, quiet
         ) -> None:
    """Play one game and print it turn by turn: the board, the players, the actions, the result.

    \b
    Examples:
      fi play --players 4 --difficulty normal --policy random --seed 7
      fi play --players 2 --difficulty elite --layout skull_island --seed 3
      fi play --layout configs/layouts/lagoon.yaml --roles pilot,diver --players 2
      fi play --policy planner --param samples=4 --seed 3
      fi play --policy my_players:Cautious --seed 3      # your own player (examples/my_players.py)
      fi play --seed 7 --save-positions positions/   # then: fi position legal positions/0005.json
      fi play --game desert --players 4 --difficulty normal --policy random --seed 7
      fi play --game desert --players 5 --roles climber,navigator,explorer,archeologist,water_carrier
      fi play --game desert --layout configs/layouts/desert_far_pad.yaml --seed 3
      fi play --component hand_limit=6 --component waters_rise=4 --policy heuristic --seed 2
      fi play --game desert --component sun_beats_down=2 --component canteens=water_carrier:6
    """
    from ..common.players import PlayerError
    from ..common.policies import PolicyError
    from ..common.variants import RulesError
    from ..games import module
    from ..sim.errors import ConfigError

    try:
        setup = _setup(game, players, difficulty, layout, tuple(r.strip() for r in roles.split(",")) if roles else None,
                       parse_rules(rules), parse_components(components))  # fmt: skip
        pol = module(game, "policies").make_policy(policy, parse_rules(params, "--param"))
    except (ConfigError, PolicyError, RulesError, ValueError) as e:
        raise fail(str(e)) from None
    narrate = None if quiet else click.echo
    play_game = module(game, "play").play_game
    player = pol if save_positions is None else _saving(pol, module(game, "position").dumps, save_positions)
    handed = [seed]
    del seed  # the seed travels on as an argument only: no frame above the deciding policy holds it
    try:
        record = play_game(setup, player, handed.pop(), narrate=narrate)
    except PlayerError as e:
        raise fail(f"{e}. The game stopped there.") from None
    if save_positions is not None:
        click.echo(f"wrote {player.count - 1} positions to {save_positions}/", err=True)
    if quiet:
        cause = f" ({', '.join(record.loss_causes)})" if record.loss_causes else ""
        found = (f"{record.treasures_captured} treasures" if game == "island"
                 else f"{record.parts_collected} parts")  # fmt: skip
        click.echo(f"{record.outcome}{cause} after {record.turns} turns, {found}")


def _setup(game: str, players: int, difficulty: str, layout: str | None, roles, rules: dict, components: dict):
    """The game's setup from the command line's values (ValueError, RulesError, ComponentsError or ConfigError if
    bad)."""
    from ..games import module

    rules_obj = module(game, "rules").Rules.from_dict(rules)
    start = module(game, "tiles").parse_difficulty(difficulty)
    from ..sim.games import door

    board = door(game).load_layout(layout or door(game).GameModel().layout, None)  # the default: the rules' board
    comp = module(game, "components").Components.from_dict(components)
    return module(game, "game").GameSetup(layout=board, start_level=start, players=players, roles=roles,
                                          rules=rules_obj, components=comp)  # fmt: skip


def _saving(pol, dumps, directory: Path):
    """A policy wrapper that writes each position it is asked about, numbered from 0001."""
    from ..sim.errors import os_error_text

    def cannot(e: OSError) -> click.ClickException:
        kept = f" (the {Saving.count - 1} positions written so far are kept)" if Saving.count > 1 else ""
        return fail(f"cannot save the positions: {os_error_text(e, directory)}. Choose another directory with "
                    f"--save-positions{kept}.")

    class Saving:
        name = pol.name
        count = 1  # the number of the next position

        def reset(self, s: int) -> None:
            pol.reset(s)

        def choose(self, state, legal):
            path = directory / f"{Saving.count:04d}.json"
            try:
                path.write_text(dumps(state))
            except OSError as e:
                with contextlib.suppress(OSError):
                    path.unlink()  # no half-written position
                raise cannot(e) from None
            Saving.count += 1
            return pol.choose(state, legal)

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise cannot(e) from None
    return Saving()
