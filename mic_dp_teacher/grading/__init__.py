"""Grade a folder of submitted exercise notebooks, without trusting them.

A student's code never runs in the process that decides its verdict: each submission runs in a
sandboxed kernel (:mod:`~mic_dp_teacher.grading.sandbox`), and the course's checks run in the grader,
reaching the student's functions across the process boundary with plain data
(:mod:`~mic_dp_teacher.grading.wire`). See the README's "For teachers" section for what this guarantees.

Command line::

    python -m mic_dp_teacher.grading SUBMISSIONS_DIR [--out gradebook.csv] [--jobs N] [--timeout 60]
        [--total-timeout 300] [--memory-gb 2] [--roster roster.txt] [--points 01.1=2] [--lessons 01,02] [--only STUDENT]
"""

from __future__ import annotations

__all__ = ["GradeRow", "NOTEBOOK", "grade_submission", "grade_folder", "write_gradebook", "summary_table", "main"]


def __getattr__(name):  # lazy, so the sandboxed kernel importing a submodule does not load the checks
    if name in __all__:
        from mic_dp_teacher.grading import cli

        return getattr(cli, name)
    raise AttributeError(name)
