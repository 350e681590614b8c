"""What a teacher gets: the long and wide CSVs, a summary table, per-student feedback, a run record."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from mic_dp_teacher.grading.counting import NOT_COUNTED, assignment_note
from mic_dp_teacher.grading.runner import NOTEBOOK, NOTE, PROBLEM, GradeRow

LONG_COLUMNS = ["submission", "student", "exercise", "status", "passed", "points", "max_points", "message",
                "sha256", "graded_at", "grader_version"]
# CRLF ends every line (RFC 4180): the csv module then quotes any cell holding a CR, which "\n" lines would not
LONG_HEADER = ",".join(LONG_COLUMNS) + "\r\n"
ICONS = {"passed": "✅", "wrong": "❌", "not done": "⏳", "problem": "⚠️", "note": "ℹ️"}


def exercise_column(exercise_id: str) -> str:
    """The wide CSV's header for an exercise: "ex_01.1" (a header pandas can never read as 1.1).

    Parameters
    ----------
    exercise_id : str
        The exercise id ("01.1").

    Returns
    -------
    str
        The column header.

    Examples
    --------
    >>> exercise_column("01.1")
    'ex_01.1'
    """
    return f"ex_{exercise_id}"


def output_paths(out: Path | str) -> dict[str, Path]:
    """Where each output goes, beside the long CSV ``out`` (e.g. gradebook.csv -> gradebook_wide.csv).

    Parameters
    ----------
    out : path
        The long CSV.

    Returns
    -------
    dict of str to pathlib.Path
        Output name (``"long"``, ``"wide"``, ``"summary"``, ...) -> its path.
    """
    out = Path(out)
    stem = out.with_suffix("")
    return {
        "long": out,
        "wide": Path(f"{stem}_wide.csv"),
        "summary": Path(f"{stem}_summary.txt"),
        "feedback": Path(f"{stem}_feedback"),
        "run": Path(f"{stem}_run.json"),
        "outputs": Path(f"{stem}_outputs"),
    }


def write_cell_outputs(folder: Path, submission: str, outputs: list, file_stem: str | None = None) -> None:
    """What each cell of ``submission`` printed (truncated by the kernel), for a teacher to look at.

    ``file_stem`` is the file's name without ``.txt`` (see :func:`output_file_names`).

    Parameters
    ----------
    folder : pathlib.Path
        The outputs folder (created; a link there is removed first).
    submission : str
        The submission's path.
    outputs : list
        What each cell printed.
    file_stem : str, optional
        File name without ``.txt``.
    """
    if folder.is_symlink():
        folder.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for index, text, total in outputs:
        lines.append(f"----- cell {index} ({total} characters printed"
                     f"{', truncated' if total > len(str(text)) else ''}) -----")
        lines.append(str(text))
    stem = file_stem or output_file_names([submission])[submission]
    (folder / f"{stem}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _fmt(points: float) -> str:
    return f"{points:g}"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value) -> str:
    """A text cell made safe for spreadsheets (OWASP CSV injection): one ``'`` before a leading = + - @ tab or CR.

    A leading ``'`` is doubled too, so :func:`csv_untext` gives back exactly the original text.

    Parameters
    ----------
    value : object
        The cell's value (turned into text).

    Returns
    -------
    str
        The escaped text.

    Examples
    --------
    >>> csv_text("=1+1"), csv_untext(csv_text("=1+1"))
    ("'=1+1", '=1+1')
    """
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START + ("'",)) else text


def csv_untext(text: str) -> str:
    """The original text of a cell written by :func:`csv_text`.

    Parameters
    ----------
    text : str
        A cell written by :func:`csv_text`.

    Returns
    -------
    str
        The original text.
    """
    return text[1:] if text.startswith("'") else text


def long_csv_lines(rows: Iterable[GradeRow]) -> str:
    """Rows of the long CSV; text cells are escaped with :func:`csv_text`, numbers are written as numbers.

    Parameters
    ----------
    rows : iterable of GradeRow
        The rows to write.

    Returns
    -------
    str
        CSV text, CRLF line ends, without the header.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_text(row.submission), csv_text(row.student), csv_text(row.exercise),
                         csv_text(row.status or ("passed" if row.passed else "wrong")), row.passed, _fmt(row.points),
                         _fmt(row.max_points), csv_text(row.message), csv_text(row.sha256), csv_text(row.graded_at),
                         csv_text(row.grader_version)])
    return buffer.getvalue()


def read_long_csv(path: Path) -> list[dict]:
    """Rows of an existing long CSV written by this grader, or [] when it is not one.

    Parameters
    ----------
    path : pathlib.Path
        A file that may be a long CSV of an earlier run.

    Returns
    -------
    list of dict
        One dict per row, by column name.
    """
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return []
    if not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]  # an interrupted last line is dropped (that submission is regraded)
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames != LONG_COLUMNS:
        return []
    return [row for row in reader if None not in row and all(v is not None for v in row.values())]


def row_from_dict(entry: dict) -> GradeRow:
    """A :class:`GradeRow` from one row of :func:`read_long_csv` (text cells unescaped).

    Parameters
    ----------
    entry : dict
        Column name -> cell text.

    Returns
    -------
    GradeRow
        The row.
    """
    text = {key: csv_untext(value) for key, value in entry.items()}
    return GradeRow(text["submission"], text["exercise"], entry["passed"] == "True", text["message"], text["status"],
                    text["student"], float(entry["points"] or 0), float(entry["max_points"] or 0), text["sha256"],
                    text["graded_at"], text["grader_version"])


def student_results(rows: list[GradeRow], roster: list[str] | None, exercise_ids: list[str] | None,
                    points: dict | None) -> dict[str, dict]:
    """Per student (roster first): points per exercise, score, max_score, statuses and problems.

    Only the notebooks that count (see ``counting.apply_policy``) score; the wide CSV, the summary and the
    feedback all read these numbers, so they agree. Without ``exercise_ids``, the exercises of the
    counted rows, at their ``max_points``.

    Parameters
    ----------
    rows : list of GradeRow
        The graded rows.
    roster : list of str or None
        Students to list first (and to list even without a submission).
    exercise_ids : list of str or None
        The exercises scored.
    points : dict or None
        Exercise id -> its points.

    Returns
    -------
    dict of str to dict
        Student -> ``points``, ``score``, ``max_score``, ``statuses`` and ``problems``.
    """
    not_counted = {r.submission for r in rows if r.exercise == NOTEBOOK and r.status == NOTE
                   and r.message.startswith(NOT_COUNTED)}
    if exercise_ids is None:
        counted_rows = [r for r in rows if r.exercise != NOTEBOOK and r.submission not in not_counted]
        exercise_ids = sorted({r.exercise for r in counted_rows})
        points = {r.exercise: r.max_points for r in counted_rows}
    points = points or {}
    wanted = set(exercise_ids)
    max_score = sum(float(points.get(e, 1.0)) for e in exercise_ids)
    lessons = sorted({e.split(".")[0] for e in exercise_ids})
    results: dict[str, dict] = {}
    for name in roster or []:
        results[name] = {"earned": {}, "status": {}, "problems": [], "notebook_problems": [], "rows": [],
                         "missing": True}
    for row in rows:
        entry = results.setdefault(row.student, {"earned": {}, "status": {}, "problems": [],
                                                                    "notebook_problems": [], "rows": []})
        entry["missing"] = False
        entry["rows"].append(row)
        if row.exercise == NOTEBOOK:
            if row.status == PROBLEM:
                entry["problems"].append(f"{row.submission}: {row.message}")
                entry["notebook_problems"].append(row.message)
        elif row.submission not in not_counted and row.exercise in wanted:
            entry["earned"][row.exercise] = row.points
            entry["status"][row.exercise] = row.status
            if row.status == PROBLEM:
                entry["problems"].append(f"{row.submission} {row.exercise}: {row.message}")
    for name, entry in results.items():
        entry["score"] = sum(entry["earned"].values())
        entry["max_score"] = max_score
        graded_lessons = {e.split(".")[0] for e in entry["status"]}
        entry["not_graded_lessons"] = [] if entry["missing"] else [l for l in lessons if l not in graded_lessons]
        entry["not_counted"] = sorted({r.submission for r in entry["rows"] if r.submission in not_counted})
        entry["on_roster"] = roster is None or name in roster
    return results


def wide_table(rows: list[GradeRow], roster: list[str] | None, exercise_ids: list[str], points: dict) -> list[dict]:
    """One dict per student: student, one column per exercise (points earned), score, max_score, problems.

    Parameters
    ----------
    rows : list of GradeRow
        The graded rows.
    roster : list of str or None
        Students to list first.
    exercise_ids : list of str
        The exercises scored, one column each.
    points : dict
        Exercise id -> its points.

    Returns
    -------
    list of dict
        One row per student.
    """
    results = student_results(rows, roster, exercise_ids, points)
    names = list(roster) if roster else []
    names += sorted(s for s in results if s not in names)
    table = []
    for name in names:
        entry = results[name]
        line = {"student": name}
        for exercise in exercise_ids:
            line[exercise_column(exercise)] = _fmt(entry["earned"].get(exercise, 0.0))
        line["score"] = _fmt(entry["score"])
        line["max_score"] = _fmt(entry["max_score"])
        if entry["missing"]:
            line["problems"] = "missing"
        else:
            problems = [*entry["problems"], *(f"nothing graded for lesson {lesson}" for lesson in entry["not_graded_lessons"])]
            if not entry["on_roster"]:
                problems.insert(0, "not on the roster")
            line["problems"] = "; ".join(problems)
        table.append(line)
    return table


def write_csv(path: Path, table: list[dict], columns: list[str], numeric: Iterable[str] = ()) -> None:
    """Write ``table``; every column but those in ``numeric`` is escaped with :func:`csv_text`.

    Parameters
    ----------
    path : pathlib.Path
        The file to write (through a temporary file, then renamed).
    table : list of dict
        The rows.
    columns : list of str
        The header, in order.
    numeric : iterable of str, optional
        Columns written unescaped.
    """
    numeric = set(numeric)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows({k: v if k in numeric else csv_text(v) for k, v in line.items()} for line in table)
    os.replace(tmp, path)


def summary_table(rows: list[GradeRow], roster: list[str] | None = None, exercise_ids: list[str] | None = None,
                  points: dict | None = None) -> str:
    """One line per student: points, how many exercises passed / wrong / not done / problem, and problems.

    Only the notebooks that count are scored (see ``counting.apply_policy``), as in the wide CSV.

    Parameters
    ----------
    rows : list of GradeRow
        The graded rows.
    roster : list of str, optional
        Students to list first.
    exercise_ids : list of str, optional
        The exercises scored.
    points : dict, optional
        Exercise id -> its points.

    Returns
    -------
    str
        The table, one line per student.
    """
    results = student_results(rows, roster, exercise_ids, points)
    width = max([len("student"), *map(len, results)])
    header = f"{'student':<{width}}  score    passed  wrong  not done  problem  notebook problems"
    lines = [header, "-" * len(header)]
    for name, e in results.items():
        counts = Counter(status if status in ("passed", "wrong", "not done", "problem") else "wrong"
                         for status in e["status"].values())
        notes = ["missing"] if e["missing"] else [*e["notebook_problems"],
                                                  *(f"nothing graded for lesson {l}" for l in e["not_graded_lessons"])]
        if e["not_counted"]:
            notes.append(f"{len(e['not_counted'])} notebook(s) not counted")
        notes = "; ".join(notes) or "-"
        if len(notes) > 100:
            notes = notes[:97] + "..."
        score = f"{_fmt(e['score'])}/{_fmt(e['max_score'])}"
        lines.append(f"{name:<{width}}  {score:<7}  {counts['passed']:>6}  {counts['wrong']:>5}  {counts['not done']:>8}  "
                     f"{counts['problem']:>7}  {notes}")
    lines += ["", "passed: the check passed; wrong: the answer failed the check (hint in the message); not done: "
              "the placeholder is still there; problem: the grader could not grade it (crash, time or memory limit, "
              "invalid file), see the message. Only one notebook per student and lesson counts (see the 'note' rows)."]
    return "\n".join(lines)


def _safe_name(student: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", student).strip("._") or "student"
    return cleaned[:100]


def unique_file_names(keys: Iterable[str], shown=lambda key: key) -> dict[str, str]:
    """{key: a file name stem} that no two keys share (not even up to case) and that stays the same across runs.

    A key whose ``shown`` text is already a safe name keeps it (``alice``); any other, or one whose safe
    name another key would share, gets its safe name plus a short hash of the key (``zo-1a2b3c4d`` for "zoé").

    Parameters
    ----------
    keys : iterable of str
        The names to give files.
    shown : callable, optional
        Turns a key into the text its name starts from.

    Returns
    -------
    dict of str to str
        Key -> file name stem.
    """
    keys = sorted(set(keys))
    plain = {key: _safe_name(shown(key)) for key in keys}
    shared = Counter(name.casefold() for name in plain.values())
    names: dict[str, str] = {}
    used: set[str] = set()
    for key in keys:
        name = plain[key]
        if name != shown(key) or shared[name.casefold()] > 1:
            digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
            length = 8
            name = f"{plain[key][:90]}-{digest[:length]}"
            while name.casefold() in used and length < len(digest):
                length *= 2
                name = f"{plain[key][:90]}-{digest[:length]}"
        used.add(name.casefold())
        names[key] = name
    return names


def output_file_names(submissions: Iterable[str]) -> dict[str, str]:
    """{submission: stem of its file in ``*_outputs/``}, e.g. "ann/01_x.ipynb" -> "ann__01_x.ipynb".

    Parameters
    ----------
    submissions : iterable of str
        Submission paths, relative to the submissions folder.

    Returns
    -------
    dict of str to str
        Submission -> unique file name stem.
    """
    return unique_file_names(submissions, shown=lambda name: name.replace("/", "__"))


def feedback_markdown(student: str, rows: list[GradeRow], result: dict | None = None) -> str:
    """A student's feedback: each exercise's status, points and message (the check's hint). Safe to hand back.

    ``result`` is the student's entry of :func:`student_results` (the score the wide CSV gives).

    Parameters
    ----------
    student : str
        The student's name.
    rows : list of GradeRow
        The gradebook's rows (of every student).
    result : dict, optional
        The student's entry of :func:`student_results`; computed from ``rows`` when missing.

    Returns
    -------
    str
        Markdown text.
    """
    result = result or student_results(rows, None, None, None)[student]
    lines = [f"# Feedback for {student}", ""]
    by_submission: dict[str, list[GradeRow]] = {}
    for row in rows:
        by_submission.setdefault(row.submission, []).append(row)
    lines.append(f"Score: **{_fmt(result['score'])} / {_fmt(result['max_score'])}**")
    for lesson in result["not_graded_lessons"]:
        lines += ["", f"Nothing was graded for lesson {lesson}: no notebook of it was found, or it could not be graded."]
    for submission, entries in by_submission.items():
        counted = "" if submission not in result["not_counted"] else " (not counted)"
        shown = submission.split("/", 1)[1] if submission.startswith(f"{student}/") else submission
        lines += ["", f"## {shown}{counted}", "", f"SHA-256 of the file graded: `{entries[0].sha256 or '-'}`", ""]
        for row in entries:
            message = row.message.replace("\n", " ").replace("|", "\\|")
            if row.exercise == NOTEBOOK:
                lines.append(f"- {ICONS.get(row.status, '')} Notebook: {message}")
            else:
                lines.append(f"- {ICONS.get(row.status, '')} Exercise {row.exercise} ({row.status}, "
                             f"{_fmt(row.points)}/{_fmt(row.max_points)}): {message}")
    return "\n".join(lines) + "\n"


def write_outputs(rows: list[GradeRow], out: Path, *, roster: list[str] | None, exercise_ids: list[str], points: dict,
                  run_info: dict) -> dict[str, Path]:
    """Write the wide CSV, the summary, the feedback files and the run record beside the long CSV ``out``.

    Parameters
    ----------
    rows : list of GradeRow
        The graded rows.
    out : pathlib.Path
        The long CSV.
    roster : list of str or None
        Students to list first.
    exercise_ids : list of str
        The exercises scored.
    points : dict
        Exercise id -> its points.
    run_info : dict
        What the run record (``*_run.json``) holds.

    Returns
    -------
    dict of str to pathlib.Path
        Output name -> its path (see :func:`output_paths`).
    """
    paths = output_paths(out)
    for path in paths.values():  # never write through a link someone planted where an output goes
        if path.is_symlink():
            path.unlink()
    table = wide_table(rows, roster, exercise_ids, points)
    write_csv(paths["wide"], table, ["student", *map(exercise_column, exercise_ids), "score", "max_score", "problems"],
              numeric=[*map(exercise_column, exercise_ids), "score", "max_score"])
    note = assignment_note(run_info.get("assignment") or {})
    paths["summary"].write_text((note + "\n" if note else "") + summary_table(rows, roster, exercise_ids, points) + "\n",
                                encoding="utf-8")
    paths["feedback"].mkdir(exist_ok=True)
    results = student_results(rows, roster, exercise_ids, points)
    students: dict[str, list[GradeRow]] = {}
    for row in rows:
        students.setdefault(row.student, []).append(row)
    files = unique_file_names(students)
    for student, entries in students.items():
        (paths["feedback"] / f"{files[student]}.md").write_text(feedback_markdown(student, entries, results[student]),
                                                                encoding="utf-8")
    run_info = {**run_info, "feedback_files": {student: f"{files[student]}.md" for student in students}}
    paths["run"].write_text(json.dumps(run_info, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return paths
