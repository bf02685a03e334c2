"""Which lever matters most (`fi design sensitivity`): a study that moves each component of a base scenario one
step up and one step down, all on the same deals.

The base is a study's scenario (its only one, or one named). Each lever (a component of the game) gets two
arms, its value one step down and one step up (``ComponentSet.step``: a count +-1, a meter one mark shorter or
longer, every canteen +-1); a step the rules cannot bear (a deck without Waters Rise!, a hand limit below the
cards of a capture ...) is left out and said so. Every arm plays the same game numbers with the same seeds as
the base (one seed stream for all: common random numbers), so each arm is compared with the base pair by pair.
The study is an ordinary one: `fi simulate`'s runner plays it (workers, chunks, resume, the same data whatever
the workers), and its manifest's `design` says which arm is which lever, for `fi report`'s sensitivity section.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .config import BASE_SCENARIO_ID, Scenario, Study, changed_components
from .errors import StudyError
from .models import render_value

STREAM = "sensitivity"  # the seed stream every arm shares
KIND = "sensitivity"


def base_scenario(study: Study, ref: str | None) -> Scenario:
    """The scenario the levers move from: the study's only one, or the one named by `ref`."""
    if ref is not None:
        return study.scenario(ref)
    if len(study.scenarios) > 1:
        raise StudyError("the study has several scenarios; name the base one with --scenario", key="scenario",
                         allowed=", ".join(s.id for s in study.scenarios))
    return study.scenarios[0]


def sensitivity_study(study: Study, scenario: str | None = None, levers: list[str] | None = None,
                      games: int | None = None) -> Study:
    """The study of the base scenario and each lever one step down and up (see the module doc); `levers`: the
    components moved (all of the game's by default), `games`: per arm (the study's by default)."""
    base = base_scenario(study, scenario)
    kind = base.door.Components
    known = list(kind.specs())
    for lever in levers or ():
        if lever not in known:
            raise StudyError(f"unknown lever {lever!r}: a lever is a component of {base.door.TITLE}", key="lever",
                             allowed=", ".join(known))
    comp, players, start = base.setup.components, base.setup.players, base.setup.start_level
    arms = [replace(base, index=0, id=BASE_SCENARIO_ID, values={}, seed_stream=STREAM)]
    plan: list[dict[str, Any]] = []
    for lever in levers or known:
        entry: dict[str, Any] = {"lever": lever, "base": comp.value(lever) if getattr(comp, lever) is not None
                                 else comp.default_track(players)}
        for side, up in (("down", False), ("up", True)):
            value = comp.step(lever, up, players, start)
            entry[side] = None if value is None else {"value": value, "scenario": f"components.{lever}="
                                                      f"{render_value(value)}"}
            if value is not None:
                setup = replace(base.setup, components=kind.from_dict({**comp.changed(), lever: value}))
                arms.append(replace(base, index=len(arms), id=entry[side]["scenario"],
                                    values={f"components.{lever}": value}, setup=setup, seed_stream=STREAM))
        plan.append(entry)
    columns = changed_components(arms)
    return Study(name=f"{study.name}-sensitivity", games=games or study.games, seed=study.seed,
                 scenarios=tuple(replace(a, component_columns=columns) for a in arms), chunk_size=study.chunk_size,
                 description=f"Sensitivity of {study.name} ({base.id}): each lever one step down and up",
                 path=study.path, game=study.game,
                 design={"kind": KIND, "base": BASE_SCENARIO_ID, "base_scenario": base.id, "levers": plan})
