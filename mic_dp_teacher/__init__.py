"""Tools for teachers: grading submitted notebooks and generating the exercise notebooks.

Nothing in :mod:`mic_dp_helpers` imports this package; lessons never need it.

- ``python -m mic_dp_teacher.grading SUBMISSIONS_DIR``: grade a folder of submissions.
- ``python -m mic_dp_teacher.exercises``: regenerate ``exercises/`` from ``solutions/``.
"""
