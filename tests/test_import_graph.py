"""The package's import graph stays a house: no cycles, no upward imports, teacher tools apart.

Every ``import`` statement in ``mic_dp_helpers`` and ``mic_dp_teacher`` is read with :mod:`ast`
(function-level imports included, since they are dependencies too) and resolved to a module of the
project. The layers, from the ground up:

0. shared modules at the root (``_validation``, ``datasets``, ``plotting``, ``environment``, ...)
1. ``mechanisms``, ``attacks``
2. ``accounting``
3. ``micdp``, ``synthetic``, ``ml``, ``scale`` (the topics of lessons 04-09)
4. ``checks`` (the exercise checks, which may use any helper)
5. ``mic_dp_teacher`` (grading and exercise generation: no lesson and no helper imports it)

A module may import its own layer or a lower one, never a higher one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("mic_dp_helpers", "mic_dp_teacher")
LAYERS = {"mechanisms": 1, "attacks": 1, "accounting": 2, "micdp": 3, "synthetic": 3, "ml": 3, "scale": 3,
          "checks": 4}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = graph.setdefault(name, set())
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            for target in targets:
                if target.split(".")[0] in PACKAGES:
                    resolved = _resolve(target, modules)
                    if resolved and resolved != name:
                        edges.add(resolved)
    return graph


def layer(module: str) -> int:
    parts = module.split(".")
    if parts[0] == "mic_dp_teacher":
        return 5
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 0


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_the_graph_is_read(graph):
    assert "mic_dp_helpers.mechanisms.noise" in graph["mic_dp_helpers.accounting.private_database"]
    assert "mic_dp_helpers.checks._core" in graph["mic_dp_helpers.checks.lesson02"]


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles(graph):
    assert _cycles(graph) == []


def test_no_upward_imports(graph):
    upward = sorted(f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
                    for a, targets in graph.items() for b in targets if layer(b) > layer(a))
    assert upward == []


def test_no_helper_imports_the_teacher_tools_or_the_checks(graph):
    bad = sorted(f"{a} -> {b}" for a, targets in graph.items() if a.startswith("mic_dp_helpers")
                 for b in targets
                 if b.startswith("mic_dp_teacher") or (b.startswith("mic_dp_helpers.checks")
                                                       and not a.startswith("mic_dp_helpers.checks")))
    assert bad == []


def test_no_lesson_imports_the_teacher_tools():
    lessons = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "exercises").glob("*.ipynb"))
    assert lessons
    assert [p.name for p in lessons if "mic_dp_teacher" in p.read_text(encoding="utf-8")] == []


def test_no_module_is_two_ideas():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 620}
    assert long == {}
