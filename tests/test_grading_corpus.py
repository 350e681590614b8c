"""Every solution notebook and every lesson notebook, graded as a homework submission.

No honest notebook may be flagged: solutions pass every exercise with no problem, and the lesson
notebooks (which define none of the answers) run cleanly and are simply "not done". Grading the ten
lessons executes each of them once more in the grader's sandbox (about 100 s on 2 cores each), so
both are marked slow: CI runs them with ``./course test -m slow``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mic_dp_teacher import grading

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def _grade_as_submissions(kind: str, folder: Path) -> list:
    for path in sorted((ROOT / kind).glob("[0-9][0-9]_*.ipynb")):
        target = folder / f"{kind}_{path.name[:2]}" / path.name
        target.parent.mkdir()
        shutil.copy(path, target)
    return grading.grade_folder(folder, timeout=120, total_timeout=600, jobs=2, progress=False)


def _flagged(rows) -> list:
    return [row for row in rows if "tamper" in row.message.lower()
            or (row.exercise == "notebook" and row.status == "problem")]


@pytest.fixture(scope="module")
def solutions(tmp_path_factory):
    return _grade_as_submissions("solutions", tmp_path_factory.mktemp("solutions"))


def test_no_solution_notebook_is_flagged(solutions):
    assert solutions and not _flagged(solutions), _flagged(solutions)


def test_every_solution_passes_every_exercise(solutions):
    failing = [row for row in solutions if row.exercise != "notebook" and not row.passed]
    assert not failing, failing


def test_lesson_notebooks_are_not_flagged_not_done_not_wrong(tmp_path):
    lessons = _grade_as_submissions("notebooks", tmp_path)
    assert lessons and not _flagged(lessons), _flagged(lessons)
    answers = [row for row in lessons if row.exercise != "notebook"]
    wrong = [(row.submission, row.exercise, row.status, row.message) for row in answers
             if row.status not in ("not done", "passed")]
    assert answers and not wrong, wrong
