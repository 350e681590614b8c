"""Shared fixtures: the reference answers are read from solutions/, the single source."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

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
