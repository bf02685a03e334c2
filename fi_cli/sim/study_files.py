"""Writing a scenario as a study file that `load_study` reads back to the same set-up (what `fi design` writes)."""

from __future__ import annotations

from typing import Any

import yaml

from .config import Scenario


def is_builtin(scenario: Scenario) -> bool:
    """Whether the scenario's board is one of its game's built-in ones, exactly."""
    layout = scenario.setup.layout
    return scenario.door.BUILTIN_LAYOUTS.get(layout.id) == layout


def design_study_text(scenario: Scenario, policies: list[str], games: int, seed: int, layout_file: str | None,
                      comment: str = "", name: str = "design") -> str:
    """The study of `scenario` (its game, board, difficulty, players, roles, rules, components), played by the
    first of `policies` (the others in a matrix), `games` per scenario from root `seed`; `layout_file`: the
    island's layout file beside the study, for a board that is not built in; `comment` on top as # lines;
    `name`: the study's (its run directory's)."""
    s = scenario.setup
    game_name = "desert" if scenario.game == "desert" else "island"
    if layout_file is None and not is_builtin(scenario):
        raise ValueError(f"the board {s.layout.id!r} is not a built-in one; a design can write an island's layout "
                         "file, not a desert board file: give the board again in the written study by hand")
    game: dict[str, Any] = {"name": game_name} if game_name == "desert" else {}
    game["layout"] = layout_file or s.layout.id
    difficulty = scenario.difficulty
    if game_name == "desert":
        game["storm_start"] = s.start_level
        if s.sand_supply != type(s)().sand_supply:
            game["sand_supply"] = s.sand_supply
    else:
        game["difficulty"] = int(difficulty) if difficulty.isdigit() else difficulty
    game["players"] = s.players
    game["roles"] = list(s.roles) if s.roles else "random"
    game["first_player"] = "random" if s.first_player is None else s.first_player
    rules = {k: v for k, v in s.rules.to_dict().items() if v != type(s.rules)().to_dict()[k]}
    if rules:
        game["rules"] = rules
    game["components"] = s.components.changed()
    policy: Any = {"name": scenario.policy, **scenario.policy_params} if scenario.policy_params else scenario.policy
    changes = ", ".join(s.components.label(k, v) for k, v in game["components"].items())
    study: dict[str, Any] = {"name": name, "description": f"A design of {scenario.door.TITLE}"
                             f"{': ' + changes if changes else ''}",
                             "games": games, "seed": seed, "game": game, "policy": policy}
    others = list(dict.fromkeys(policies))
    if len(others) > 1:
        study["matrix"] = {"policy": others}
    head = "".join(f"# {line}".rstrip() + "\n" for line in comment.splitlines())
    return head + yaml.safe_dump(study, sort_keys=False, default_flow_style=None, width=118)
