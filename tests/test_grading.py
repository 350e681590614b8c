"""The grader on crafted submissions: good, unfinished, raising, looping, invalid, tampering."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import nbformat
import pytest

from mic_dp_helpers import grading

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01_anonymization_fails.ipynb"
TIMEOUT = 20  # generous: a loaded 2-core CI machine must not time out honest cells


def _variant(tmp_path: Path, name: str, extra_cells: list[str], base: str = "solutions", insert_at: int | None = None) -> Path:
    notebook = nbformat.read(ROOT / base / LESSON, as_version=4)
    cells = [nbformat.v4.new_code_cell(source) for source in extra_cells]
    for cell in cells:
        del cell["id"]  # the stored notebooks use nbformat 4.4, which has no cell ids
    position = len(notebook.cells) if insert_at is None else insert_at
    notebook.cells[position:position] = cells
    path = tmp_path / name / LESSON
    path.parent.mkdir(parents=True)
    nbformat.write(notebook, path)
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    _variant(folder, "good", [])
    path = folder / "unfinished" / LESSON
    path.parent.mkdir()
    shutil.copy(ROOT / "exercises" / LESSON, path)
    _variant(folder, "raises", ["raise RuntimeError('oops, a bug')"], insert_at=3)
    _variant(folder, "loops", ["while True:\n    pass"], insert_at=3)
    _variant(folder, "patches_statically", ["import mic_dp_helpers.checks._core as core\ncore.run_check = lambda *a: None"])
    _variant(folder, "redefines_check", ["def check(exercise_id, answer):\n    print('✅ passed')"])
    _variant(folder, "patches_at_runtime", ["m = __import__('mic_dp_helpers.anonymity', fromlist=['x'])\nm.__dict__.update(k_anonymity=lambda df, qi: 0)"])
    _variant(folder, "kills_kernel", ["import os\nos._exit(1)"], insert_at=3)
    invalid = folder / "invalid" / LESSON
    invalid.parent.mkdir()
    invalid.write_text('{"cells": [ this is not json')
    (folder / "no_lesson.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    rows = grading.grade_folder(folder, timeout=TIMEOUT, progress=False)
    return folder, rows


def _rows(rows, submission):
    return {row.exercise: row for row in rows if row.submission.startswith(submission)}


EXERCISES_01 = {"01.1", "01.2", "01.3", "01.4"}


def test_good_submission_passes_everything(graded):
    rows = _rows(graded[1], "good")
    assert set(rows) == EXERCISES_01 and all(row.passed for row in rows.values())


def test_unfinished_submission_is_not_done(graded):
    rows = _rows(graded[1], "unfinished")
    assert set(rows) == EXERCISES_01
    assert all(not row.passed and "not done yet" in row.message for row in rows.values())


def test_raising_cell_is_reported_and_exercises_still_graded(graded):
    rows = _rows(graded[1], "raises")
    assert "RuntimeError: oops, a bug" in rows["notebook"].message
    assert all(rows[ex].passed for ex in EXERCISES_01)


def test_infinite_loop_is_stopped_by_the_timeout(graded):
    rows = _rows(graded[1], "loops")
    assert f"{TIMEOUT} s limit" in rows["notebook"].message
    assert all(rows[ex].passed for ex in EXERCISES_01)


@pytest.mark.parametrize("submission", ["patches_statically", "redefines_check", "patches_at_runtime"])
def test_tampering_is_reported_and_not_graded(graded, submission):
    rows = _rows(graded[1], submission)
    assert "tampering" in rows["notebook"].message
    assert not any(rows[ex].passed for ex in EXERCISES_01)


def test_dead_kernel_is_reported(graded):
    rows = _rows(graded[1], "kills_kernel")
    assert not rows["notebook"].passed and "notebook" in rows
    assert not any(rows[ex].passed for ex in EXERCISES_01)


def test_invalid_json_is_reported_with_every_exercise_failed(graded):
    rows = _rows(graded[1], "invalid")
    assert "not a valid notebook" in rows["notebook"].message
    assert {ex for ex in rows if ex != "notebook"} == EXERCISES_01


def test_notebook_without_lesson_is_reported(graded):
    rows = _rows(graded[1], "no_lesson")
    assert "which lesson" in rows["notebook"].message


def test_command_line_writes_gradebook_and_summary(graded, tmp_path, capsys):
    folder = tmp_path / "two"
    folder.mkdir()
    shutil.copytree(graded[0] / "good", folder / "good")
    shutil.copytree(graded[0] / "invalid", folder / "invalid")
    out = tmp_path / "gradebook.csv"
    assert grading.main([str(folder), "--out", str(out), "--timeout", str(TIMEOUT)]) == 0
    with open(out, newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == ["submission", "exercise", "passed", "message"]
    assert {(row["submission"].split("/")[0], row["passed"]) for row in table if row["exercise"] != "notebook"} == {("good", "True"), ("invalid", "False")}
    summary = capsys.readouterr().out
    assert "good" in summary and " 4/4" in summary and " 0/4" in summary


def test_static_scan_finds_common_patches():
    cells = [
        "from mic_dp_helpers.checks import check\nimport mic_dp_helpers.checks as checks",  # allowed
        "check = print",
        "import mic_dp_helpers.checks as checks\nchecks.run_check = None",
        "setattr(mic_dp_helpers.checks, 'check', print)",
        "from os import path as check",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    findings = grading.find_tampering(notebook)
    assert not any(f.startswith("cell 1 ") for f in findings)
    assert {f.split()[1] for f in findings} >= {"2", "3", "4", "5"}


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(NotADirectoryError, match="does not exist"):
        grading.grade_folder(tmp_path / "nope")
