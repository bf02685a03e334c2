"""`fi play`: one game, printed turn by turn."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from .common import fail, parse_rules


@click.command()
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True, help="Number of players.")
@click.option(
    "--difficulty", default="normal", show_default=True,
    help="novice | normal | elite | legendary, or a start level 1-9.",
)  # fmt: skip
@click.option("--policy", default="random", show_default=True, help="Player policy id (see `fi play --help`).")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed: the same seed replays the same game.")
@click.option(
    "--layout", default="forbidden_island", show_default=True, help="Built-in layout id or a layout file (.yaml)."
)
@click.option("--roles", default=None, help="Comma-separated role ids in seat order (default: random).")
@click.option("--rule", "rules", multiple=True, metavar="FLAG=VALUE", help="A rule variant, repeatable.")
@click.option(
    "--param", "params", multiple=True, metavar="NAME=VALUE",
    help="A parameter of the policy, repeatable (`fi policies NAME` lists them).",
)  # fmt: skip
@click.option(
    "--save-positions", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Write the position before every decision as JSON into this directory.",
)  # fmt: skip
@click.option("--quiet", is_flag=True, help="Print only the result line.")
def play(players, difficulty, policy, seed, layout, roles, rules, params, save_positions, quiet) -> None:
    """Play one game and print it turn by turn: island, hands, water, actions, result.

    \b
    Examples:
      fi play --players 4 --difficulty normal --policy random --seed 7
      fi play --players 2 --difficulty elite --layout skull_island --seed 3
      fi play --layout configs/layouts/lagoon.yaml --roles pilot,diver --players 2
      fi play --policy planner --param samples=4 --seed 3
      fi play --seed 7 --save-positions positions/   # then: fi position legal positions/0005.json
    """
    from ..island.game import GameSetup
    from ..island.policies import PolicyError, make_policy
    from ..island.rules import Rules, RulesError
    from ..island.tiles import parse_difficulty
    from ..sim.errors import ConfigError
    from ..sim.layout_files import load_layout

    try:
        setup = GameSetup(
            layout=load_layout(layout),
            start_level=parse_difficulty(difficulty),
            players=players,
            roles=tuple(r.strip() for r in roles.split(",")) if roles else None,
            rules=Rules.from_dict(parse_rules(rules)),
        )
        pol = make_policy(policy, parse_rules(params, "--param"))
    except (ConfigError, PolicyError, RulesError, ValueError) as e:
        raise fail(str(e)) from None
    narrate = None if quiet else click.echo
    if save_positions is not None:
        record = _play_saving(setup, pol, seed, save_positions, narrate)
    else:
        from ..island.play import play_game

        record = play_game(setup, pol, seed, narrate=narrate)
    if quiet:
        cause = f" ({', '.join(record.loss_causes)})" if record.loss_causes else ""
        click.echo(f"{record.outcome}{cause} after {record.turns} turns, {record.treasures_captured} treasures")


def _play_saving(setup, pol, seed, directory: Path, narrate):
    """Play with a policy wrapper that writes each position it is asked about."""
    from ..island import position
    from ..island.play import play_game
    from ..sim.errors import os_error_text

    def cannot(e: OSError) -> click.ClickException:
        kept = f" (the {Saving.count - 1} positions written so far are kept)" if Saving.count > 1 else ""
        return fail(f"cannot save the positions: {os_error_text(e, directory)}. Choose another directory with "
                    f"--save-positions{kept}.")

    class Saving:
        name = pol.name
        count = 1

        def reset(self, s: int) -> None:
            pol.reset(s)

        def choose(self, state, legal):
            path = directory / f"{Saving.count:04d}.json"
            try:
                path.write_text(position.dumps(state))
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

    record = play_game(setup, Saving(), seed, narrate=narrate)
    click.echo(f"wrote {Saving.count - 1} positions to {directory}/", err=True)
    return record
