"""exercises/ is generated from solutions/ and must stay in sync with it."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mic_dp_helpers.checks import EXERCISES
from mic_dp_teacher.exercises import (PLACEHOLDER, exercise_file_name, generate_exercises, make_exercise_notebook,
                                     strip_solutions)

ROOT = Path(__file__).resolve().parent.parent


def test_exercises_folder_is_up_to_date():
    stale = generate_exercises(ROOT / "solutions", ROOT / "exercises", check_only=True)
    assert not stale, f"exercises/ is stale ({[p.name for p in stale]}): run `python -m mic_dp_teacher.exercises`"


def test_every_lesson_folder_has_matching_numbers():
    solutions = {p.name for p in (ROOT / "solutions").glob("*.ipynb")}
    assert all(name.endswith("_solutions.ipynb") for name in solutions), "name solution notebooks NN_topic_solutions.ipynb"
    assert {exercise_file_name(name) for name in solutions} == {p.name for p in (ROOT / "exercises").glob("*.ipynb")}
    lessons = {p.name[:2] for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert {name[:2] for name in solutions} <= lessons


@pytest.mark.parametrize("path", sorted((ROOT / "exercises").glob("*.ipynb")), ids=lambda p: p.name)
def test_exercise_notebooks_hide_solutions_and_call_every_check(path):
    notebook = nbformat.read(path, as_version=4)
    text = "\n".join(cell.source for cell in notebook.cells)
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    lesson = notebook.metadata["mic_dp"]["lesson"]
    ids = sorted(key for key, spec in EXERCISES.items() if spec.lesson == lesson)
    assert ids, f"lesson {lesson} has no registered exercises"
    for exercise_id in ids:
        assert re.search(rf'check\("{re.escape(exercise_id)}", {EXERCISES[exercise_id].answer_name}\)', text)
    assert text.count(PLACEHOLDER) >= len(ids)


def test_strip_solutions_keeps_indentation_and_code_outside_markers():
    source = "def f(x):\n    y = 1\n    # BEGIN SOLUTION\n    return x + y\n    # END SOLUTION\n\nprint('kept')"
    stripped = strip_solutions(source)
    assert stripped.splitlines() == ["def f(x):", "    y = 1", f"    {PLACEHOLDER}", "", "print('kept')"]


@pytest.mark.parametrize(
    "source, match",
    [
        ("# BEGIN SOLUTION\nx = 1", "never closed"),
        ("x = 1\n# END SOLUTION", "without a '# BEGIN SOLUTION'"),
        ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "inside another"),
    ],
)
def test_malformed_markers_are_errors(source, match):
    with pytest.raises(ValueError, match=match):
        strip_solutions(source)


def test_teacher_notes_in_markdown_are_removed():
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("Intro\n<!-- BEGIN SOLUTION -->\nSecret note\n<!-- END SOLUTION -->\nOutro")]
    )
    assert make_exercise_notebook(notebook).cells[0].source == "Intro\nOutro"


def test_generation_writes_and_removes_files(tmp_path):
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    exercises.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("def f():\n    # BEGIN SOLUTION\n    return 1\n    # END SOLUTION")])
    nbformat.write(notebook, solutions / "09_demo_solutions.ipynb")
    (exercises / "08_orphan_exercises.ipynb").write_text("{}")
    changed = generate_exercises(solutions, exercises)
    assert {p.name for p in changed} == {"09_demo_exercises.ipynb", "08_orphan_exercises.ipynb"}
    assert not (exercises / "08_orphan_exercises.ipynb").exists()
    assert generate_exercises(solutions, exercises, check_only=True) == []
    assert "return 1" not in (exercises / "09_demo_exercises.ipynb").read_text()


@pytest.mark.parametrize("bad", [None, 5, ["a.ipynb"], Path("a_solutions.ipynb")])
def test_exercise_file_name_and_strip_solutions_need_text(bad):
    with pytest.raises(TypeError, match="solution_name must be a string"):
        exercise_file_name(bad)
    with pytest.raises(TypeError, match="source must be a string"):
        strip_solutions(bad)


@pytest.mark.parametrize("bad", [None, "notebook.ipynb", {"cells": "x"}])
def test_make_exercise_notebook_needs_a_notebook(bad):
    with pytest.raises(TypeError, match="solution must be a notebook"):
        make_exercise_notebook(bad)


@pytest.mark.parametrize("kwargs, match", [
    (dict(solutions_dir=5), "solutions_dir must be a folder path"),
    (dict(exercises_dir=None), "exercises_dir must be a folder path"),
    (dict(check_only="yes"), "check_only must be True or False"),
])
def test_generate_exercises_checks_its_arguments_before_touching_files(kwargs, match):
    with pytest.raises(TypeError, match=match):
        generate_exercises(**({"check_only": True} | kwargs))
