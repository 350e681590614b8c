"""Shared fixtures: the reference answers are read from solutions/, the single source."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT

