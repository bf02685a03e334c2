"""Which of fi's modules run compiled, and the guard that never lets a stale compiled module run.

The install (setup.py) compiles ``MODULES`` with mypyc when it can: each game's rules engine and its
heuristic player's helpers, where a simulated game spends its time. A compiled module is an extension file
beside its source (``engine.cpython-311-x86_64-linux-gnu.so`` beside ``engine.py``), and Python's import
system prefers it. So that an edited source is never shadowed by the code compiled from its older text (in
an editable install, ``pip install -e .``), the build records the sha256 of each compiled source in
``_native.json``, and this module, imported first by ``fi_cli/__init__.py``, checks them before any of
``MODULES`` is imported. The group runs compiled only when every module has its extension file and every
source still has its recorded hash; otherwise, or when ``FI_PURE_PYTHON=1`` is set, all of ``MODULES`` load
from their sources: all or none, since a compiled engine with a pure-Python player (or the other way round)
would make two different ``GameState`` classes. Stale compiled modules are reported once on stderr.

Compiled or not, the games are the same (tests/test_native.py plays both); only the speed differs. This
module uses the standard library only: setup.py loads it on its own at build time.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping

MODULES: tuple[str, ...] = (
    "fi_cli.island.actions",
    "fi_cli.island.board",
    "fi_cli.island.engine",
    "fi_cli.island.tiles",
    "fi_cli.island.policies.features",
    "fi_cli.island.policies.heuristic_core",
    "fi_cli.island.policies.heuristic_escape",
    "fi_cli.island.policies.heuristic_eval",
    "fi_cli.island.policies.heuristic_geom",
    "fi_cli.island.policies.heuristic_special",
    "fi_cli.island.policies.heuristic_turn",
    "fi_cli.common.rollout",
    "fi_cli.common.seed_sequence",
    "fi_cli.common.play",
    "fi_cli.common.records",
    "fi_cli.island.play",
    "fi_cli.desert.actions",
    "fi_cli.desert.engine",
    "fi_cli.desert.tiles",
    "fi_cli.desert.policies.features",
    "fi_cli.desert.policies.heuristic",
    "fi_cli.desert.policies.heuristic_gear",
    "fi_cli.desert.policies.heuristic_sprint",
    "fi_cli.desert.policies.heuristic_team",
    "fi_cli.desert.policies.heuristic_turn",
    "fi_cli.desert.policies.heuristic_view",
    "fi_cli.desert.play",
)
RECORD = "_native.json"  # by setup.py beside this file: {"modules": {module: sha256 of its source}, "libraries": [...]}
EXTENSION_SUFFIXES: tuple[str, ...] = tuple(importlib.machinery.EXTENSION_SUFFIXES)
STALE_WARNING = (
    "fi: compiled modules are older than their sources; running pure Python — "
    "reinstall with pip install -e . to recompile"
)

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the directory that holds fi_cli/
_WARNED_ENV = "FI_NATIVE_STALE_WARNED"  # set once warned, so that worker processes do not repeat it

COMPILED, PURE, FORCED, STALE = "compiled", "pure", "forced", "stale"


def pure_requested(environ: Mapping[str, str]) -> bool:
    """Whether ``FI_PURE_PYTHON`` asks for pure Python (any value but empty or 0)."""
    return environ.get("FI_PURE_PYTHON", "") not in ("", "0")


def source_path(module: str, root: str = _ROOT) -> str:
    return os.path.join(root, *module.split(".")) + ".py"


def extension_files(module: str, root: str = _ROOT) -> list[str]:
    """The compiled extension files of ``module`` present beside its source."""
    base = os.path.join(root, *module.split("."))
    return [base + suffix for suffix in EXTENSION_SUFFIXES if os.path.isfile(base + suffix)]


def source_hash(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def status(root: str = _ROOT, record: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """How ``MODULES`` are to be loaded: ``compiled`` (every extension file present, every source as compiled),
    ``pure`` (nothing compiled: a pure-Python install), ``forced`` (FI_PURE_PYTHON is set) or ``stale`` (a
    source differs from what was compiled, a compiled file or the record is missing: the sources are used)."""
    environ = os.environ if environ is None else environ
    found = [bool(extension_files(m, root)) for m in MODULES]
    if not any(found):
        return PURE
    if pure_requested(environ):
        return FORCED
    if not all(found):
        return STALE
    try:
        with open(os.path.join(root, "fi_cli", RECORD) if record is None else record) as f:
            record_data = json.load(f)
        recorded = record_data["modules"]
        if any(recorded[m] != source_hash(source_path(m, root)) for m in MODULES):
            return STALE
        if any(importlib.util.find_spec(lib) is None for lib in record_data.get("libraries", ())):
            return STALE  # the group's shared library is gone (a later install did not compile)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return STALE
    return COMPILED


class _SourceFinder:
    """Finds the modules of ``MODULES`` as their ``.py`` sources, ahead of their compiled files."""

    def __init__(self, root: str) -> None:
        self.paths = {m: source_path(m, root) for m in MODULES}

    def find_spec(self, name, path=None, target=None):
        p = self.paths.get(name)
        return None if p is None else importlib.util.spec_from_file_location(name, p)


def _use(state: str, root: str = _ROOT) -> None:
    """Load ``MODULES`` as ``state`` says (before any of them is imported): from the sources unless compiled."""
    global _STATE
    _STATE = state
    if state in (FORCED, STALE):
        if state == STALE and not os.environ.get(_WARNED_ENV):
            print(STALE_WARNING, file=sys.stderr, flush=True)
            os.environ[_WARNED_ENV] = "1"
        if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, _SourceFinder(root))


def compiled() -> bool:
    """Whether the compiled modules are in use in this process (else all of ``MODULES`` run from source)."""
    return _STATE == COMPILED


def describe() -> str:
    """One line for reports and benchmarks: which code runs."""
    return {
        COMPILED: f"compiled (mypyc): {len(MODULES)} island and Desert modules",
        PURE: "pure Python (nothing compiled at install)",
        FORCED: "pure Python (FI_PURE_PYTHON is set)",
        STALE: "pure Python (compiled modules older than their sources: reinstall to recompile)",
    }[_STATE]


_STATE = PURE
if __name__ == "fi_cli.native":  # not when setup.py loads this file on its own
    _use(status())
