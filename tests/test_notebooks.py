"""Structure every lesson notebook must have (nbval separately runs each one in a fresh kernel)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
LECTURES = sorted((ROOT / "notebooks").glob("*.ipynb"))
ALL_NOTEBOOKS = LECTURES + sorted((ROOT / "solutions").glob("*.ipynb")) + sorted((ROOT / "exercises").glob("*.ipynb"))
NETWORK = re.compile(r"https?://|urlopen|requests\.get|wget |curl |fetch_openml|load_dataset\(|pd\.read_csv\(['\"]http")


def _code(notebook) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_name)
def test_first_code_cell_runs_the_environment_check(path):
    first = _code(nbformat.read(path, as_version=4))[0]
    assert "check_environment(" in first


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_name)
def test_notebook_is_valid_for_its_own_nbformat_version(path):
    """Read without conversion, so that a 4.4 notebook carrying 4.5's cell ids is caught (Jupyter warns on it)."""
    nbformat.validate(nbformat.read(path, as_version=nbformat.NO_CONVERT))


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_name)
def test_notebook_code_never_reaches_the_network(path):
    code = "\n".join(_code(nbformat.read(path, as_version=4)))
    assert not NETWORK.search(code), NETWORK.search(code).group(0)


@pytest.mark.parametrize("path", LECTURES, ids=_name)
def test_lecture_has_objectives_summary_exercises_and_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    markdown = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    assert re.search(r"learning objectives|in this notebook you will", markdown, re.IGNORECASE)
    assert re.search(r"^## Summary", markdown, re.MULTILINE)
    assert re.search(r"^## Exercises", markdown, re.MULTILINE)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.get("execution_count") for cell in code_cells), "store lectures executed, top to bottom"
    counts = [cell.execution_count for cell in code_cells]
    assert counts == sorted(counts), "lecture was not executed top to bottom in one kernel"
    assert not any(o.get("output_type") == "error" for cell in code_cells for o in cell.get("outputs", []))
    assert "assert " in "\n".join(cell.source for cell in code_cells), "a lecture must check its own numbers"


@pytest.mark.parametrize("path", LECTURES, ids=_name)
def test_every_figure_has_a_takeaway(path):
    code = "\n".join(_code(nbformat.read(path, as_version=4)))
    figures = len(re.findall(r"plt\.subplots\(|plt\.figure\(", code))
    assert code.count("add_takeaway(") + code.count("show_figure(") >= figures


@pytest.mark.parametrize("path", sorted((ROOT / "solutions").glob("*.ipynb")), ids=_name)
def test_solutions_are_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata.get("mic_dp", {}).get("lesson") == path.name[:2]
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
