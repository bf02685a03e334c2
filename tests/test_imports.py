"""The layers of design.md, checked on the source: no two modules import each other (directly or round a
circle, counting imports for type checking), and imports point down: the games know nothing of the
simulator, the simulator nothing of the reports, nothing below the commands imports them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "fi_cli"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in ROOT.rglob("*.py")}


def _imports(name: str, top_level: bool) -> set[str]:
    """The fi_cli modules `name` imports (only at its top level, type-checking blocks included, or anywhere)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    nodes = ast.walk(tree) if not top_level else _top_level(tree.body)
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}  # `from . import sub` imports a module
    return {m for m in found if m in MODULES and m != name}


def _top_level(body: list[ast.stmt]):
    """The statements run when the module is imported (and its `if TYPE_CHECKING:` blocks)."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.Try):
            yield from _top_level(node.body + getattr(node, "orelse", []) + getattr(node, "finalbody", []))


def test_no_import_circles():
    graph = {m: _imports(m, top_level=True) for m in MODULES}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    circles = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                circles.append(path[path.index(n):] + [n])
            elif n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert circles == []


@pytest.mark.parametrize("layer, below", [
    ("fi_cli.island", ("fi_cli.sim", "fi_cli.report", "fi_cli.commands", "fi_cli.cli")),
    ("fi_cli.desert", ("fi_cli.sim", "fi_cli.report", "fi_cli.commands", "fi_cli.cli")),
    ("fi_cli.common", ("fi_cli.island", "fi_cli.desert", "fi_cli.sim", "fi_cli.report", "fi_cli.commands")),
    ("fi_cli.sim", ("fi_cli.report", "fi_cli.commands", "fi_cli.cli")),
    ("fi_cli.report", ("fi_cli.commands", "fi_cli.cli")),
])  # fmt: skip
def test_imports_point_down(layer, below):
    """Also imports inside functions: a lazy import of a higher layer is still an upward dependency."""
    wrong = {m: sorted(n for n in _imports(m, top_level=False) if n.startswith(below))
             for m in MODULES if m == layer or m.startswith(layer + ".")}
    assert {m: n for m, n in wrong.items() if n} == {}
