"""Shared fixtures: the reference answers are read from solutions/, the single source."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from hypothesis import settings

# Property-based tests explore the same examples on every run, so a red CI is reproducible.
settings.register_profile("course", derandomize=True, print_blob=True)
settings.load_profile("course")

ROOT = Path(__file__).resolve().parent.parent


def solution_namespace(notebook_name: str) -> dict:
    """Execute the function definitions of a solution notebook and return its namespace."""
    notebook = nbformat.read(ROOT / "solutions" / notebook_name, as_version=4)
    namespace: dict = {}
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.lstrip().startswith(("def ", "import ", "from ")):
            exec(compile(cell.source, f"<{notebook_name}>", "exec"), namespace)
    return namespace


def course_namespaces() -> dict:
    """A copy of the namespace of every loaded course module (``mic_dp_helpers...``), by module name."""
    return {name: dict(vars(module)) for name, module in list(sys.modules.items())
            if name.startswith("mic_dp_helpers") and module is not None}


def changed_names(before: dict) -> list[str]:
    """The names of ``before`` (from :func:`course_namespaces`) now bound to another object, or gone."""
    changed = []
    for name, space in before.items():
        now = vars(sys.modules[name])
        changed += [f"{name}.{key}" for key, value in space.items()
                    if now.get(key, changed) is not value and key != "__warningregistry__"]
    return changed


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT



def first_in_default_tier(params: list) -> list:
    """``params`` for ``pytest.mark.parametrize`` with all but the first marked slow: each runs a whole check
    (seconds), so the default run tries one member of a class and CI's slow run the rest (the 5-minute budget
    of ``./course test``)."""
    return [p if i == 0 else pytest.param(*(p if isinstance(p, tuple) else (p,)), marks=pytest.mark.slow)
            for i, p in enumerate(params)]
