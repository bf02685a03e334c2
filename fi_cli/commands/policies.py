"""`fi policies`: the players there are and the parameters each one takes."""

from __future__ import annotations

import click


@click.command()
@click.argument("name", required=False)
@click.option("--game", type=click.Choice(["island", "desert"]), default="island", show_default=True,
              help="Whose players.")  # fmt: skip
def policies(name: str | None, game: str) -> None:
    """List the player policies (fi's own and those installed under the fi.players entry points), or the
    parameters of policy NAME with their defaults.

    \b
    Examples:
      fi policies
      fi policies planner
      fi policies --game desert
      fi play --policy planner --param samples=4 --seed 3
    Parameters also go in a study: policy: {name: planner, samples: 4}
    """
    from ..common.policies import PolicyError
    from ..games import module
    from .common import fail

    make_policy = module(game, "policies").make_policy
    names = [name] if name else module(game, "policies").policy_names()
    for n in names:
        try:
            player = make_policy(n)
        except PolicyError as e:
            raise fail(str(e)) from None
        params = getattr(player, "PARAMETERS", {})
        unfair = "  UNFAIR: sees the hidden decks; a measuring instrument, not a player" if not getattr(
            player, "fair", True) else ""
        click.echo((f"{n}: {len(params)} parameter(s)" if params else f"{n}: no parameters") + unfair)
        if name:
            for key, text in params.items():
                click.echo(f"  {key:<18} {text}")
    if not name:
        from ..common.players import entry_points

        for n, ref in sorted(entry_points().items()):
            click.echo(f"{n}: installed player ({ref}), in a process of its own")
        click.echo("your own: module:Class, e.g. --policy my_players:Cautious (README: Your own player)")
