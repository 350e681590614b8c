"""Every solution notebook and every lesson notebook, graded as a homework submission.

No honest notebook may be flagged: solutions pass every exercise with no problem, and the lesson
notebooks (which define none of the answers) run cleanly and are simply "not done".
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mic_dp_helpers import grading

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpus")
    for kind in ("solutions", "notebooks"):
        for path in sorted((ROOT / kind).glob("[0-9][0-9]_*.ipynb")):
            target = folder / f"{kind}_{path.name[:2]}" / path.name
            target.parent.mkdir()
            shutil.copy(path, target)
    return grading.grade_folder(folder, timeout=120, total_timeout=600, jobs=2, progress=False)


def test_no_honest_notebook_is_flagged(corpus):
    assert corpus
    assert not [row for row in corpus if "tamper" in row.message.lower()]
    assert not [row for row in corpus if row.exercise == "notebook" and row.status == "problem"]


def test_every_solution_passes_every_exercise(corpus):
    failing = [row for row in corpus if row.student.startswith("solutions") and row.exercise != "notebook"
               and not row.passed]
    assert not failing, failing


def test_lesson_notebooks_are_not_done_not_wrong(corpus):
    lessons = [row for row in corpus if row.student.startswith("notebooks") and row.exercise != "notebook"]
    assert lessons and all(row.status in ("not done", "passed") for row in lessons), lessons
