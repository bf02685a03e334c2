"""Which scenario each scenario is compared with: like with like.

`--baseline layout=forbidden_island` compares every scenario with the scenario of the same run that has
the same values for every other matrix key and layout=forbidden_island (each difficulty against the
standard island at that difficulty). Several fixed values are given with commas
(`layout=forbidden_island,players=4`). The default fixes the first value of the first matrix key. A
scenario id (or key) instead compares every scenario with that one scenario, as a single baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

from fi_cli.sim.models import render_value

from .errors import ReportError
from .load import ReportData


@dataclass
class Pairing:
    baselines: dict[str, str | None]  # scenario -> the scenario it is compared with (itself: a baseline)
    description: str  # for the page: how the pairs were made

    @property
    def single(self) -> str | None:
        """The one baseline every scenario is compared with, if there is one."""
        found = set(self.baselines.values()) - {None}
        return found.pop() if len(found) == 1 else None


def _rendered(values: dict) -> dict[str, str]:
    return {k: render_value(v) for k, v in values.items()}


def _single(data: ReportData, ref: str) -> str | None:
    """The scenario key named by `ref` (a key, or a scenario id found in one run only)."""
    if ref in data.scenarios:
        return ref
    matches = data.info.loc[data.info["scenario_id"] == ref, "scenario"].tolist()
    if len(matches) > 1:
        raise ReportError(f"baseline {ref!r} is in several runs; give one of: {', '.join(matches)}")
    return matches[0] if matches else None


def _fixed(data: ReportData, spec: str) -> dict[str, str]:
    """`key=value[,key=value]` -> {key: value}, checked against the matrix values there are."""
    known: dict[str, list[str]] = {}
    for values in data.info["values"]:
        for k, v in _rendered(values).items():
            known.setdefault(k, [])
            if v not in known[k]:
                known[k].append(v)
    fixed = {}
    for pair in spec.split(","):
        key, sep, value = (x.strip() for x in pair.partition("="))
        if not sep or key not in known:
            allowed = "; ".join(f"{k}=" + "|".join(vs) for k, vs in known.items()) or "none (no matrix)"
            raise ReportError(f"unknown baseline {spec!r}: give a scenario ({', '.join(data.scenarios)}) or matrix "
                              f"values KEY=VALUE; allowed: {allowed}")
        if value not in known[key]:
            raise ReportError(f"baseline {spec!r}: {key} has no value {value!r}; its values are: "
                              f"{', '.join(known[key])}")
        fixed[key] = value
    return fixed


def pair_scenarios(data: ReportData, spec: str | None = None) -> Pairing:
    """Each scenario's baseline (see the module docstring); ReportError on an unknown one."""
    labels = data.labels
    if spec is not None and (key := _single(data, spec)) is not None:
        return Pairing({s: key for s in data.scenarios}, f"every scenario against {labels[key]}")
    given = spec is not None
    if spec is None:
        first = _rendered(data.info["values"].iloc[0])
        if not first:  # no matrix: the first scenario is the baseline of all
            key = data.scenarios[0]
            return Pairing({s: key for s in data.scenarios}, f"every scenario against {labels[key]}")
        k = next(iter(first))
        spec = f"{k}={first[k]}"
    fixed = _fixed(data, spec)
    rows = list(data.info.itertuples())
    baselines: dict[str, str | None] = {}
    for r in rows:
        want = _rendered(r.values) | fixed
        if set(want) != set(_rendered(r.values)):  # a scenario without these matrix keys has no like
            baselines[r.scenario] = None
            continue
        baselines[r.scenario] = next((b.scenario for b in rows if b.run == r.run and _rendered(b.values) == want),
                                     None)
    if given and all(b is None or b == s for s, b in baselines.items()):
        raise ReportError(f"baseline {spec!r}: no scenario has a like to be compared with")
    others = "every other matrix value" if len(data.info["values"].iloc[0]) > len(fixed) else "the same run"
    return Pairing(baselines, f"each scenario against the scenario with {spec} and {others} the same")
