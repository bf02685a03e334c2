"""`fi design`: designing a game to a target with its layout and components as levers (the search), and
`fi design sensitivity`: which lever matters most."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .common import InputError, design_and_write, parse_rules, search_options
from .simulate import play_study


@click.group(invoke_without_command=True)
@click.option("--study", "study_file", type=click.Path(dir_okay=False, path_type=Path),
              help="The base: a study's scenario (its game, players, difficulty, roles, rules, components, policy).")
@click.option("--scenario", "-s", help="The base scenario of --study (its id or index) when it has several.")
@click.option("--game", type=click.Choice(["island", "desert"]), default="island", show_default=True,
              help="Without --study: the game, on its standard board ...")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True, help="... with these players")
@click.option("--difficulty", default="normal", show_default=True,
              help="... at this difficulty (or start level / storm mark) ...")
@click.option("--policy", default="heuristic", show_default=True, help="... played by this policy.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE", help="A parameter of that policy, repeatable.")
@click.option("--target", "targets", multiple=True, metavar="[POLICY=]RATE",
              help="A win rate to design for: the base policy's (0.35) or another policy's (search=0.6); repeat "
                   "for several policies.")
@click.option("--turns", type=click.FloatRange(0, min_open=True), help="A median game length (in turns) to design for.")
@click.option("--vary", "vary", multiple=True, metavar="WHAT",
              help="What may change: 'components' (every component of the game), component names, and/or 'layout' "
                   "(the island's map); comma-separated or repeated. Default: components.")
@click.option("--tolerance", type=click.FloatRange(0, 1, min_open=True), default=0.03, show_default=True,
              help="How near a target win rate the confirmed one must be.")
@click.option("--turns-tolerance", type=click.FloatRange(0, min_open=True), default=1.0, show_default=True,
              help="How near --turns the confirmed median must be.")
@click.option("--budget", type=click.IntRange(min=1), default=40_000, show_default=True,
              help="Games the whole design may play, search and confirmation together, all policies.")
@search_options
@click.option("--pin", "pins", multiple=True, metavar="MARK=TILE", help="With --vary layout: pin TILE on every island.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="The study file to write the design into.")
@click.option("--overwrite", is_flag=True, help="Replace --out (and its layout file) if they exist.")
@click.pass_context
def design(ctx: click.Context, study_file: Path | None, scenario: str | None, game: str, players: int, difficulty: str,
           policy: str, params: tuple[str, ...], targets: tuple[str, ...], turns: float | None, vary: tuple[str, ...],
           tolerance: float, turns_tolerance: float, budget: int, confirm_games: int, screen: int, seed: int,
           pins: tuple[str, ...], workers: int | None, out: Path | None, overwrite: bool) -> None:
    """Design a game to a target: search component values and/or the island's layout until the win rate of one
    or several policies (and/or the median game length) is within the tolerance, confirm it on fresh games and
    write it as a study file. `fi design sensitivity` says which lever matters most.

    The base is a study's scenario (--study) or the standard board of --game with --players, --difficulty and
    --policy. Brackets of 16 candidates (fresh designs: half of the levers moved 1-3 steps from the base, or a
    generated island; from the second bracket on, the best designs with one lever a step up or down, or one
    cell moved) play --screen games with each policy and are halved, the half nearest the targets playing
    twice the games, down to one. The best is confirmed on --confirm fresh games per policy; when every figure
    is within its tolerance the design is written. Every game seed comes from --seed, so a design is
    reproducible. Ctrl-C writes the best design so far. Exit code 0 when a design is confirmed, 1 when the
    budget ran out first (the nearest design is written all the same). `fi layouts design` is the shortcut
    for an island's map alone.

    \b
    Examples:
      fi design --game desert --difficulty normal --target 0.35 --out designs/desert35.yaml
      fi design --difficulty elite --target 0.50 --vary waters_rise,sandbags,helicopter_lift --out elite50.yaml
      fi design --study configs/sensitivity_island.yaml --target 0.4 --turns 14 --out island.yaml
      fi design --difficulty elite --target heuristic=0.4 --target search=0.55 --vary components,layout --out x.yaml
      fi design sensitivity configs/sensitivity_island.yaml --games 400
    """
    if ctx.invoked_subcommand is not None:
        return
    if not targets and turns is None:
        raise InputError("give a target: --target RATE (a win rate, e.g. 0.35; or POLICY=RATE) and/or --turns N; "
                         "see fi design --help")
    if out is None:
        raise InputError("give --out FILE: the study file the design is written into")
    _search(locals())


def _targets(given: tuple[str, ...], turns: float | None, base: Any, tolerance: float, turns_tolerance: float
            ) -> tuple:
    """--target [POLICY=]RATE and --turns as the design's Targets (a policy by name alone takes its defaults)."""
    from ..sim.design import Target

    out = []
    for text in given:
        name, sep, rate = text.rpartition("=")
        try:
            value = float(rate)
        except ValueError:
            raise InputError(f"--target {text!r}: give a win rate (0.35) or POLICY=RATE (search=0.6)") from None
        if sep:
            try:
                base.door.check_policy(name, {})
            except ValueError as e:
                raise InputError(f"--target {text!r}: {e}") from None
            out.append(Target(value, tolerance, name, {}))
        else:
            out.append(Target(value, tolerance, base.policy, dict(base.policy_params)))
    if turns is not None:
        out.append(Target(turns, turns_tolerance, base.policy, dict(base.policy_params), kind="turns"))
    return tuple(out)


def _base(o: dict[str, Any]) -> Any:
    """The base scenario: --study's (and --scenario), else the standard board at the options' settings."""
    from pydantic import ValidationError

    from ..sim.config import Scenario, load_study
    from ..sim.errors import ConfigError
    from ..sim.games import door
    from ..sim.models import Invalid
    from ..sim.sensitivity import base_scenario as study_scenario

    if o["study_file"] is not None:
        try:
            return study_scenario(load_study(o["study_file"]), o["scenario"])
        except ConfigError as e:
            raise InputError(str(e)) from None
    game = door(o["game"])
    section = {"difficulty": int(o["difficulty"]) if o["difficulty"].isdigit() else o["difficulty"],
               "players": o["players"], **({"name": "desert"} if o["game"] == "desert" else {})}
    try:
        model = game.GameModel.model_validate(section)
        model.check_scenario()
        params = parse_rules(o["params"], "--param")
        game.check_policy(o["policy"], params)
    except ValidationError as e:
        err = e.errors()[0]
        raise InputError(f"--{err['loc'][0]} {err.get('input')!r}: {err['msg'].removeprefix('Value error, ')} "
                         f"({game.TITLE})") from None
    except (Invalid, ValueError) as e:
        raise InputError(f"{e} ({game.TITLE})") from None
    setup = game.setup_of(model, game.load_layout(model.layout, None))
    return Scenario(index=0, id="design", values={}, setup=setup, policy=o["policy"], policy_params=params,
                    game=o["game"])


def _vary(given: tuple[str, ...], components: Any) -> tuple[str, ...]:
    names = [v.strip() for text in given for v in text.split(",") if v.strip()] or ["components"]
    out: list[str] = []
    for v in names:
        out += list(components.specs()) if v == "components" else [v]
    return tuple(dict.fromkeys(out))


def _search(o: dict[str, Any]) -> None:
    import shlex
    import sys

    from ..sim.design import DesignSpec
    from .layouts import parse_pins

    out: Path = o["out"]
    layout_out = out.with_name(f"{out.stem}_layout.yaml")
    if out.exists() and not o["overwrite"]:
        raise InputError(f"{out} exists; use --overwrite to replace it or give another --out")
    base = _base(o)
    marks = parse_pins(o["pins"])
    spec = DesignSpec(base=base, vary=_vary(o["vary"], base.door.Components),
                      targets=_targets(o["targets"], o["turns"], base, o["tolerance"], o["turns_tolerance"]),
                      budget=o["budget"], confirm=o["confirm_games"], screen=o["screen"], seed=o["seed"],
                      pins=tuple(marks), tolerance=o["tolerance"])
    command = shlex.join(["fi", "design", *sys.argv[2:]]) if sys.argv[1:2] == ["design"] else "fi design"
    click.echo(f"designing {base.door.TITLE} for {'; '.join(t.describe() for t in spec.targets)}, varying "
               f"{', '.join(spec.vary)}; budget {spec.budget:,} games, seed {spec.seed}", err=True)
    design_and_write(spec, o["workers"], lambda result: write_design(result, spec, out, layout_out, marks, command))


def write_design(result: Any, spec: Any, out: Path, layout_out: Path, marks: dict[str, str], command: str) -> None:
    """Print the outcome of a design and write it as a study file (and its island as a layout file when the
    design moved it or the base's is not built in), with the measurements as comments."""
    from .. import __version__
    from ..sim.design import LAYOUT, base_scenario, candidate_scenario
    from ..sim.errors import os_error_text
    from ..sim.study_files import design_study_text, is_builtin

    best = result.best
    if best is None:
        click.echo("stopped before any design was played; nothing written", err=True)
        return
    conf = best.confirmed
    lines = [f"Designed by: {command}", f"Target: {'; '.join(t.describe() for t in spec.targets)} (seed {spec.seed})."]
    for t in spec.targets:
        lines.append(f"Search: {t.show(t.measure(best.tallies[t.player]))} ({t.player}) in {best.games:,} games.")
        if conf:
            tally = conf.tallies[t.player]
            shown = t.show(t.measure(tally))
            if t.kind == "win":
                lo, hi = tally.interval
                shown += f" [{100 * lo:.1f}%, {100 * hi:.1f}%] (95% Wilson)"
            lines.append(f"Confirmed: {shown} ({t.player}) in {tally.games:,} fresh games, none of them played in the "
                         f"search (seed stream {conf.stream}): {'within' if t.within(t.measure(tally)) else 'outside'}"
                         f" the tolerance.")
    if not conf:
        lines.append("Not confirmed: the design was stopped before a confirmation; the figures above are the "
                     "search's, which favour designs that happened to come near the target.")
    template = base_scenario(spec)
    base = template.setup.components
    changes = [base.label(k, v) for k, v in best.components.items() if v != base.value(k)]
    changes += [f"the island {best.layout.name}"] if LAYOUT in spec.vary else []
    lines.append(f"Changes from the base: {', '.join(changes) or 'none'} ({best.origin}).")
    lines.append(f"Budget: {result.games:,} of {spec.budget:,} games ({result.search_games:,} search in "
                 f"{result.brackets} bracket(s), {result.confirm_games:,} confirmation); fi {__version__}.")
    scenario = candidate_scenario(template, best, spec.targets[0])
    island = scenario.game == "island" and (LAYOUT in spec.vary or not is_builtin(scenario))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if island:
            from ..sim.layout_files import layout_file_text

            layout_out.write_text(layout_file_text(scenario.setup.layout, marks or None,
                                                   comment=f"The island of {out.name}."), encoding="utf-8")
        text = design_study_text(scenario, [t.policy for t in spec.targets], spec.confirm, spec.seed,
                                 layout_out.name if island else None, "\n".join(lines), out.stem)
        out.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as e:
        raise InputError(f"cannot write the design: {os_error_text(e, out) if isinstance(e, OSError) else e}"
                         ) from None
    click.echo("\n".join(lines[1:]))
    state = "interrupted: the best design so far" if result.interrupted else \
        "found" if result.found else "budget spent without a confirmed design within the tolerance: the nearest"
    click.echo(f"{state}; written to {out}" + (f" and {layout_out}" if island else ""))


@design.command()
@click.argument("study_file", metavar="STUDY.yaml", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--scenario", "-s", help="The base scenario (its id or index) when the study has several.")
@click.option("--lever", "-l", "levers", multiple=True,
              help="A component to move (repeat for several; default: every component of the game).")
@click.option("--games", "-n", type=click.IntRange(min=1), help="Games per arm (default: the study's).")
@click.option("--seed", type=click.IntRange(min=0), help="Root seed (overrides the study).")
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path),
              help="Output directory (default: runs/<study name>-sensitivity).")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes (default: the usable cores).")
@click.option("--resume", is_flag=True, help="Complete an interrupted run in --out.")
@click.option("--overwrite", is_flag=True, help="Replace whatever run is in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar; only the table.")
def sensitivity(study_file: Path, scenario: str | None, levers: tuple[str, ...], games: int | None, seed: int | None,
                out: Path | None, workers: int | None, resume: bool, overwrite: bool, quiet: bool) -> None:
    """Which lever matters most: each component one step down and one step up from a base scenario.

    The base is the study's scenario (or --scenario). Every arm plays the same games (the same seeds) as the
    base, and is compared with it game by game: the change of the win rate (95% Newcombe interval for paired
    data, exact McNemar test) and of the mean game length (paired t interval), p-values Holm-corrected over
    the arms. A step the rules cannot bear (no Waters Rise! left, a hand limit below a capture) is left out.
    The run is an ordinary one (DIR/games ..., resumable); `fi report DIR` adds the tornado figure and the
    tables of the section "Which lever matters most". Prints the table, most important lever first.

    \b
    Examples:
      fi design sensitivity configs/sensitivity_island.yaml --games 400
      fi design sensitivity configs/sensitivity_desert.yaml --games 400 --out runs/desert-levers
      fi design sensitivity configs/example.yaml --scenario 1 --lever hand_limit --lever waters_rise
      fi report runs/sensitivity_island-sensitivity
    """
    from ..report.load import load_runs
    from ..report.sensitivity import analyse, design_of, not_played, top_levers, view
    from ..report.tables import to_text
    from ..sim.config import load_study
    from ..sim.errors import ConfigError
    from ..sim.sensitivity import sensitivity_study

    try:
        study = sensitivity_study(load_study(study_file).replace(seed=seed), scenario, list(levers) or None, games)
    except ConfigError as e:
        raise InputError(str(e)) from None
    out = out or Path("runs") / study.name
    again = ["fi", "design", "sensitivity", str(study_file)]
    again += [f"--{k}={v}" for k, v in (("scenario", scenario), ("games", games), ("seed", seed)) if v is not None]
    again += [f"--lever={lever}" for lever in levers]
    play_study(study, out, again, workers=workers, resume=resume, overwrite=overwrite, quiet=quiet)
    data = load_runs([out])
    plan = design_of(data)
    table = analyse(data.games, plan)
    click.echo(to_text(view(table)))
    click.echo(f"\nBase: {study.design['base_scenario']} of {study_file}, {study.games:,} games per arm on the same "
               f"deals. Most important: {', '.join(top_levers(table))}.")
    skipped = not_played(plan)
    if skipped:
        click.echo(f"Left out (the rules cannot bear them): {', '.join(skipped)}.")
    click.echo(f"Win rates with 95% Wilson intervals; against the base: paired Newcombe intervals, exact McNemar "
               f"tests and paired t intervals, Holm-corrected. Tornado figure: fi report {out}")
