"""What each scenario of a report is called and how it is drawn.

A scenario gets a unique key (its id, or run/id when runs share ids or rules versions differ) and a short
label for people: the layout's name, the difficulty (the desert's storm-meter start), whatever else varies
between the scenarios and the components that differ from the rulebook's, e.g. "Skull Island · Normal" or
"Forbidden Island · Normal · hand limit 6" (a study's `labels:` rename matrix values). Scenarios
that share the value of the study's first matrix key share a colour group (e.g. one colour per island, a
line style per difficulty).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from fi_cli.sim.games import door
from fi_cli.sim.models import render_value

SEP = " · "


@dataclass
class Scenarios:
    info: pd.DataFrame  # scenario (key), run, scenario_id, rules_version, values, label, layout, group, within,
    # slice (scenarios of one run with the same values but the layout) and slice_label (the label without the layout)
    keys: dict[tuple[int, str], str]  # (run index, scenario id) -> key
    layouts: dict[str, dict[str, Any]]  # layout id -> layout as the manifest stores it
    warnings: list[str]


def _difficulty(name: str, game: str) -> str:
    """'normal' -> 'Normal'; a start mark: the island's water 'level 5', the desert's 'storm mark 6'."""
    if str(name).isdigit():
        return f"storm mark {name}" if game == "desert" else f"level {name}"
    return str(name).capitalize()


# Matrix keys that set the difficulty: named by it in labels, not again as a varying key.
_DIFFICULTY_KEYS = ("difficulty", "storm_start")


def _component_text(game: str, name: str, value: Any) -> str:
    """A component in a label ('hand limit 6'), or '' when it is the rulebook's."""
    kind = door(game).Components
    try:
        given = kind.from_dict({name: value}).value(name)
    except ValueError:  # a value that needs other components changed too: not the rulebook's
        given = value
    return "" if given == kind().value(name) else kind.label(name, value)


def _default_text(key: str, value: Any, game: str) -> str:
    if key.startswith("components."):
        return _component_text(game, key.removeprefix("components."), value)
    text = render_value(value)
    if key == "players":
        return f"{text} players"
    if key == "first_player":
        return f"first player p{text}"
    if key == "sand_supply":
        return f"sand supply {text}"
    if key.startswith("rules."):
        return f"{key.removeprefix('rules.')}={text}"
    return text if key in ("roles", "policy") else f"{key}={text}"


def _keys(manifests: list[dict], run_names: list[str], present: list[list[str]]
          ) -> tuple[dict[tuple[int, str], str], bool, list[str]]:
    """A key per (run, scenario id): the id itself unless that would mix runs (then run/id)."""
    warnings = []
    seen: dict[str, int] = {}
    shared = set()
    for i, sids in enumerate(present):
        for sid in sids:
            if sid in seen and seen[sid] != i:
                shared.add(sid)
            seen.setdefault(sid, i)
    versions = [str(m.get("rules_version", "unknown")) for m in manifests]
    mixed_rules = len(set(versions)) > 1
    if mixed_rules:
        detail = ", ".join(f"{n}: {v}" for n, v in zip(run_names, versions, strict=True))
        warnings.append(f"runs were made under different rules versions ({detail}); their scenarios are kept "
                        "apart and differences between them mix rules changes with scenario changes")
    if shared:
        warnings.append(f"scenario id(s) {', '.join(sorted(shared))} appear in several runs; they are kept "
                        "apart and labelled run/scenario")
    qualify = bool(shared) or mixed_rules
    keys = {(i, sid): (f"{run_names[i]}/{sid}" if qualify else sid) for i, sids in enumerate(present) for sid in sids}
    return keys, qualify, warnings


def describe_scenarios(manifests: list[dict], names: list[str], present: list[list[str]]) -> Scenarios:
    """Keys, labels, layouts and colour groups of the scenarios `present` (per run, in manifest order)."""
    run_names = [n if names.count(n) == 1 else f"{n}#{i + 1}" for i, n in enumerate(names)]
    keys, qualify, warnings = _keys(manifests, run_names, present)
    rows, layouts = [], {}
    for i, m in enumerate(manifests):
        study = m.get("study") or {}
        resolved = {s["id"]: s for s in study.get("scenarios", [])}
        values = {str(s["id"]): s.get("values", {}) for s in m["scenarios"]}
        for sid in present[i]:
            sc = resolved.get(sid, {})
            layout = sc.get("layout") or {"id": values[sid].get("layout", "?"), "name": "", "cells": [], "pins": {}}
            layouts.setdefault(layout["id"], layout)
            rows.append({"scenario": keys[(i, sid)], "run": run_names[i], "scenario_id": sid,
                         "rules_version": str(m.get("rules_version", "unknown")), "values": values[sid],
                         "layout": layout["id"], "layout_name": layout.get("name") or layout["id"],
                         "difficulty": sc.get("difficulty", values[sid].get("difficulty", "")),
                         "game": study.get("game", "island"), "names": study.get("labels", {}), "run_index": i,
                         "components": sc.get("components", {})})
    info = pd.DataFrame(rows)
    info["label"], info["slice_label"] = _labels(info, qualify)
    info["slice"] = [f"{r}/" + ",".join(f"{k}={render_value(x)}" for k, x in v.items() if k != "layout")
                     for r, v in zip(info["run"], info["values"], strict=True)]
    # colour group: the run and the value of its first matrix key
    groups = [f"{r}/{render_value(next(iter(v.values()), ''))}" for r, v in zip(info["run_index"], info["values"],
                                                                                  strict=True)]
    info["group"] = pd.factorize(pd.Series(groups))[0]
    info["within"] = info.groupby("group").cumcount()
    return Scenarios(info.drop(columns=["names", "run_index", "game", "components"]), keys, layouts, warnings)


def _labels(info: pd.DataFrame, qualify: bool) -> tuple[list[str], list[str]]:
    """Each scenario's label, and its label without the layout (what its slice is called)."""
    varying = {k for k in {k for v in info["values"] for k in v}
               if len({render_value(v.get(k)) for v in info["values"]}) > 1} - {"layout", *_DIFFICULTY_KEYS}
    labels, slices = [], []
    for r in info.itertuples():
        names = r.names
        layout = names.get("layout", {}).get(r.layout, r.layout_name)
        key = next((k for k in _DIFFICULTY_KEYS if k in r.values), "difficulty")
        difficulty = names.get(key, {}).get(render_value(r.values.get(key, r.difficulty)),
                                            _difficulty(r.difficulty, r.game))
        parts = [layout, difficulty] + [names.get(k, {}).get(render_value(v), _default_text(k, v, r.game))
                                        for k, v in r.values.items() if k in varying]
        parts += [_component_text(r.game, k, v) for k, v in r.components.items() if f"components.{k}" not in varying]
        run = f"{r.run}: " if qualify else ""
        labels.append(run + SEP.join(p for p in parts if p))
        slices.append(run + (SEP.join(p for p in parts[1:] if p) or "all"))
    # Two scenarios may still look alike (e.g. two runs of one study): name them by their keys instead.
    twice = {lb for lb in labels if labels.count(lb) > 1}
    return [f"{lb} ({key})" if lb in twice else lb for lb, key in zip(labels, info["scenario"], strict=True)], slices
