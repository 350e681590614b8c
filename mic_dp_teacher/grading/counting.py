"""Which notebook counts: one per student and lesson (``POLICY``), and which lessons make the assignment."""

from __future__ import annotations

import dataclasses

from mic_dp_teacher.grading.runner import NOTEBOOK, NOTE, GradeRow

COUNTED, NOT_COUNTED = "counted: ", "not counted: "  # how the counting policy's 'note' rows begin
POLICY = ("Exactly one notebook per student and lesson counts: the lesson's exercise file at the top of the "
          "student's folder (e.g. alice/01_anonymization_fails_exercises.ipynb) if there is one, otherwise the "
          "lowest-scoring of that lesson's notebooks, so extra copies never raise a grade. The others are graded "
          "and reported with a 'note' row, for 0 of 0 points. Notebooks of lessons outside the assignment are "
          "graded and reported the same way and add no columns; max_score counts every exercise of the "
          "assignment's lessons.")
LESSON_RULE = ("the lessons given with --lessons; without it, every lesson handed in by at least half of the students "
               "(a student is a sub-folder, or a notebook file at the top of the submissions folder)")


def is_policy_row(row: GradeRow) -> bool:
    """A 'note' row written by :func:`apply_policy` (dropped when the gradebook is read back, then recomputed).

    Parameters
    ----------
    row : GradeRow
        A gradebook row.

    Returns
    -------
    bool
        Whether the row is a policy note.
    """
    return row.exercise == NOTEBOOK and row.status == NOTE and row.message.startswith((COUNTED, NOT_COUNTED))


def raw_row(row: GradeRow, points: dict) -> GradeRow:
    """``row`` as the grader first wrote it: an exercise's points follow from its status and ``points``.

    Parameters
    ----------
    row : GradeRow
        A gradebook row.
    points : dict
        Exercise id -> its points (1.0 when missing).

    Returns
    -------
    GradeRow
        A copy with ``points`` and ``max_points`` recomputed.
    """
    if row.exercise == NOTEBOOK:
        return row
    best = float(points.get(row.exercise, 1.0))
    return dataclasses.replace(row, points=best if row.status == "passed" else 0.0, max_points=best)


def assignment_lessons(found: list[tuple[str, str, str | None]], given: list[str] | None) -> dict:
    """The assignment's lessons from ``found`` = [(submission, student, lesson or None)], and how they were chosen.

    Parameters
    ----------
    found : list of tuple
        ``(submission, student, lesson or None)`` for every notebook in the folder.
    given : list of str or None
        Lessons the teacher named (``--lessons``), or None to choose them.

    Returns
    -------
    dict
        ``lessons``, ``rule``, ``chosen_by``, ``students``, ``students_per_lesson_handed_in`` and
        ``counting``.
    """
    students = {student for _, student, _ in found}
    handed_in: dict[str, set] = {}
    for _, student, lesson in found:
        if lesson:
            handed_in.setdefault(lesson, set()).add(student)
    counts = {lesson: len(who) for lesson, who in sorted(handed_in.items())}
    if given:
        lessons = sorted(set(given))
    else:
        lessons = [lesson for lesson, n in counts.items() if 2 * n >= len(students)]
    return {"lessons": lessons, "rule": LESSON_RULE, "chosen_by": "--lessons" if given else "at least half of the students",
            "students": len(students), "students_per_lesson_handed_in": counts, "counting": POLICY}


def assignment_note(assignment: dict) -> str:
    """What the summary says first when the assignment, chosen without ``--lessons``, is empty or leaves a lesson out.

    Parameters
    ----------
    assignment : from :func:`assignment_lessons`, with ``"command"`` (the grading command, without --lessons)

    Returns
    -------
    str
        "" when the teacher chose the lessons or every lesson handed in is in the assignment; else a paragraph
        naming the lessons handed in (with how many students) and the command that chooses them.
    """
    if not assignment or assignment.get("chosen_by") == "--lessons":
        return ""
    counts = assignment.get("students_per_lesson_handed_in", {})
    chosen = assignment.get("lessons", [])
    left_out = {lesson: n for lesson, n in counts.items() if lesson not in chosen}
    if not left_out:
        return ""
    listing = ", ".join(f"{lesson} ({n} student{'s' * (n != 1)})" for lesson, n in sorted(left_out.items()))
    students = assignment.get("students", 0)
    if not chosen:
        head = (f"WARNING: no lesson was handed in by at least half of the {students} students, so this run's "
                f"assignment is empty and nothing scores (every score is 0/0). Lessons handed in: {listing}.")
    else:
        head = (f"NOTE: the assignment is lesson {', '.join(chosen)} (handed in by at least half of the {students} "
                f"students). Handed in but left out, graded for information only (0 of 0 points): {listing}.")
    command = assignment.get("command", "python -m mic_dp_teacher.grading SUBMISSIONS --out gradebook.csv")
    every, first = ",".join(sorted(counts)), sorted(counts)[0]
    return (f"{head}\nChoose the assignment's lessons with --lessons and run again (notebooks already graded are not "
            f"run again). Every lesson handed in, each student scored on all of them:\n  {command} --lessons {every}\n"
            f"One lesson (e.g. {first}), for a class that handed in different lessons: one gradebook per lesson, "
            f"--out changed:\n  {command} --lessons {first}\n")


def apply_policy(rows: list[GradeRow], found: list[tuple[str, str, str | None]], lessons: list[str],
                 canonical: dict[str, str]) -> list[GradeRow]:
    """``rows`` with the counting policy applied (see ``POLICY``): the rows of every notebook that does not count
    get 0 points of 0 and a 'note' row saying so and naming the one that counts; the one that counts, when it
    had rivals, gets a 'note' row too.

    ``found`` = [(submission, student, lesson or None)] for every notebook in the folder; ``canonical`` maps a
    lesson to its exercise file's name.

    Parameters
    ----------
    rows : list of GradeRow
        The graded rows.
    found : list of tuple
        ``(submission, student, lesson or None)`` for every notebook in the folder.
    lessons : list of str
        The assignment's lessons.
    canonical : dict of str to str
        Lesson -> its exercise file's name.

    Returns
    -------
    list of GradeRow
        The rows, re-scored, with the 'note' rows added.
    """
    graded = {}
    scores: dict[str, float] = {}
    for row in rows:
        graded.setdefault(row.submission, row)
        if row.exercise != NOTEBOOK:
            scores[row.submission] = scores.get(row.submission, 0.0) + row.points
    groups: dict[tuple[str, str], list[str]] = {}
    for name, student, lesson in found:
        if lesson and name in graded:
            groups.setdefault((student, lesson), []).append(name)
    notes: dict[str, str] = {}
    for (student, lesson), names in groups.items():
        if lesson not in lessons:
            for name in names:
                notes[name] = (f"{NOT_COUNTED}lesson {lesson} is not part of this assignment (lessons "
                               f"{', '.join(lessons) or 'none'}); graded for information only, 0 of 0 points")
            continue
        if len(names) == 1:
            continue
        top = [n for n in names if lesson in canonical and n == f"{student}/{canonical[lesson]}"]
        if len(top) == 1:
            chosen, why = top[0], "the lesson's exercise file at the top of the student's folder"
        else:
            chosen = min(names, key=lambda n: (scores.get(n, 0.0), n))
            why = ("no single exercise file at the top of the student's folder, so the lowest-scoring one: "
                   "extra copies never raise a grade")
        others = [n for n in names if n != chosen]
        notes[chosen] = (f"{COUNTED}this notebook counts for lesson {lesson} ({why}); only one notebook per lesson "
                         f"counts, not: {', '.join(f'`{n}`' for n in others)}")
        for name in others:
            notes[name] = (f"{NOT_COUNTED}only one notebook per lesson counts and `{chosen}` counts for lesson "
                           f"{lesson} ({why}); this one is graded for information only, 0 of 0 points")
    result = []
    for row in rows:
        if row.submission in notes and notes[row.submission].startswith(NOT_COUNTED) and row.exercise != NOTEBOOK:
            row = dataclasses.replace(row, points=0.0, max_points=0.0)
        result.append(row)
    for name, message in notes.items():
        first = graded[name]
        result.append(GradeRow(name, NOTEBOOK, False, message, NOTE, first.student, 0.0, 0.0, first.sha256,
                               first.graded_at, first.grader_version))
    return result
