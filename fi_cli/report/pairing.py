"""Which scenario each scenario is compared with: like with like, against a reference chosen on purpose.

The reference is, in this order:

1. `--baseline` of `fi report`, or else the study's `baseline:` key: `KEY=VALUE[,KEY=VALUE]` compares every
   scenario with the scenario of the same run that has these matrix values and the same values for every other
   matrix key (`layout=forbidden_island`: each difficulty against the standard island at that difficulty); a
   scenario id (or key) instead compares every scenario with that one scenario;
2. the game's standard board (the standard island, the rules' desert), when the matrix plays it;
3. else the mean of the others: each scenario against the games of all the scenarios that differ from it only in
   the layout (or, without a layout in the matrix, in the first matrix key), pooled. Never an accident of order,
   such as the alphabetically first island of a folder.

The page states which one was taken, and why, in one sentence (`Pairing.description`).
"""

from __future__ import annotations

from dataclasses import dataclass

from fi_cli.sim.models import render_value

from .errors import ReportError
from .games import section
from .load import ReportData

Reference = str | tuple[str, ...] | None  # a scenario, the scenarios pooled as one reference, or none


@dataclass
class Pairing:
    baselines: dict[str, Reference]  # scenario -> what it is compared with (itself: it is a baseline)
    description: str  # for the page: what each scenario is compared with, and why that reference
    heading: str = ""  # the same in a few words, over the differences in the win-rate figure

    @property
    def single(self) -> str | None:
        """The one baseline scenario every scenario is compared with, if there is one."""
        found = set(self.baselines.values()) - {None}
        one = found.pop() if len(found) == 1 else None
        return one if isinstance(one, str) else None

    def label(self, scenario: str, labels: dict[str, str]) -> str:
        """What `scenario` is compared with, in words ('' when nothing)."""
        ref = self.baselines.get(scenario)
        if isinstance(ref, tuple):
            return f"the other {len(ref)}, pooled" if len(ref) > 1 else labels[ref[0]]
        return labels.get(ref, "") if ref else ""


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


def _known(data: ReportData) -> dict[str, list[str]]:
    """Every matrix key of the runs and its values, as the scenario ids write them, in order."""
    known: dict[str, list[str]] = {}
    for values in data.info["values"]:
        for k, v in _rendered(values).items():
            known.setdefault(k, [])
            if v not in known[k]:
                known[k].append(v)
    return known


def _fixed(data: ReportData, spec: str, where: str) -> dict[str, str]:
    """`key=value[,key=value]` -> {key: value}, checked against the matrix values there are."""
    known = _known(data)
    fixed = {}
    for pair in spec.split(","):
        key, sep, value = (x.strip() for x in pair.partition("="))
        if not sep or key not in known:
            allowed = "; ".join(f"{k}=" + "|".join(vs) for k, vs in known.items()) or "none (no matrix)"
            raise ReportError(f"unknown baseline {spec!r}{where}: give a scenario ({', '.join(data.scenarios)}) or "
                              f"matrix values KEY=VALUE; allowed: {allowed}")
        if value not in known[key]:
            raise ReportError(f"baseline {spec!r}{where}: {key} has no value {value!r}; its values are: "
                              f"{', '.join(known[key])}")
        fixed[key] = value
    return fixed


def _and(words: list[str]) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)


def _same(data: ReportData, varied: set[str], word: str = "with") -> str:
    """' with the same difficulty and players': the matrix keys held equal in a comparison."""
    held = [k for k in _known(data) if k not in varied]
    return f" {word} the same {_and(held)}" if held else ""


def _study_baseline(data: ReportData) -> tuple[str, str] | None:
    """The `baseline:` of the first run whose study names one, and the run."""
    for run in data.runs:
        spec = (run.manifest.get("study") or {}).get("baseline")
        if spec:
            return str(spec), run.name
    return None


def _by_values(data: ReportData, fixed: dict[str, str]) -> dict[str, Reference]:
    """Each scenario's baseline: the scenario of its run with the `fixed` values and its other values."""
    rows = list(data.info.itertuples())
    baselines: dict[str, Reference] = {}
    for r in rows:
        want = _rendered(r.values) | fixed
        if set(want) != set(_rendered(r.values)):  # a scenario without these matrix keys has no like
            baselines[r.scenario] = None
            continue
        baselines[r.scenario] = next((b.scenario for b in rows if b.run == r.run and _rendered(b.values) == want),
                                     None)
    return baselines


def _pooled(data: ReportData, key: str) -> dict[str, Reference]:
    """Each scenario's reference: the other scenarios of its run that differ from it only in `key`, pooled."""
    rows = list(data.info.itertuples())

    def rest(values: dict) -> dict[str, str]:
        return {k: v for k, v in _rendered(values).items() if k != key}

    return {r.scenario: tuple(b.scenario for b in rows if b.run == r.run and b.scenario != r.scenario
                              and key in b.values and rest(b.values) == rest(r.values)) or None
            for r in rows}


def _compares(baselines: dict[str, Reference]) -> bool:
    """Whether any scenario is compared with something other than itself."""
    return any(b is not None and b != s for s, b in baselines.items())


def pair_scenarios(data: ReportData, spec: str | None = None) -> Pairing:
    """Each scenario's reference (see the module docstring); ReportError on an unknown `spec` (--baseline)."""
    labels = data.labels
    source, where = "chosen with --baseline", ""
    if spec is None and (study := _study_baseline(data)):
        spec, run = study
        source, where = "the study's baseline", f" (the baseline: of the study of run {run})"
    known = _known(data)
    if spec is not None:
        if (key := _single(data, spec)) is not None:
            return Pairing({s: key for s in data.scenarios}, f"every scenario against {labels[key]} ({source})",
                           f"against {labels[key]}")
        fixed = _fixed(data, spec, where)
        baselines = _by_values(data, fixed)
        if not _compares(baselines):
            raise ReportError(f"baseline {spec!r}{where}: no scenario has a like to be compared with")
        same = _same(data, set(fixed), "and")
        return Pairing(baselines, f"each scenario against the scenario with {spec}{same} ({source})",
                       f"against the scenario with {spec}{same}")
    if not known:  # no matrix: one scenario per run, the first is the reference of all
        key = data.scenarios[0]
        return Pairing({s: key for s in data.scenarios}, f"every scenario against {labels[key]}, the first",
                       f"against {labels[key]}")
    board, board_words = section(data.game).STANDARD_LAYOUT
    played = board in known.get("layout", [])
    if played and _compares(baselines := _by_values(data, {"layout": board})):
        same = _same(data, {"layout"}, "and")
        return Pairing(baselines, f"each scenario against the scenario with layout={board}{same} ({board_words}: "
                       "the study names no baseline)", f"against the scenario with layout={board}{same}")
    key = "layout" if "layout" in known else next(iter(known))
    what = "island" if key == "layout" and data.game == "island" else "scenario"
    differ = "" if key == "layout" else f" (scenarios that differ from it only in {key})"
    why = "is not played with the same other values" if played else "is not played"
    return Pairing(_pooled(data, key), f"each {what} against all the other {what}s{_same(data, {key})}, their games "
                   f"pooled{differ}: the study names no baseline and {board_words} {why}",
                   f"against the other {what}s{_same(data, {key})}, pooled")
