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

from mic_dp_helpers.grading.runner import NOTEBOOK, NOTE, PROBLEM, GradeRow

LONG_COLUMNS = ["submission", "student", "exercise", "status", "passed", "points", "max_points", "message",
                "sha256", "graded_at", "grader_version"]
# CRLF ends every line (RFC 4180): the csv module then quotes any cell holding a CR, which "\n" lines would not
LONG_HEADER = ",".join(LONG_COLUMNS) + "\r\n"
ICONS = {"passed": "✅", "wrong": "❌", "not done": "⏳", "problem": "⚠️", "note": "ℹ️"}


def exercise_column(exercise_id: str) -> str:
    """The wide CSV's header for an exercise: "ex_01.1" (a header pandas can never read as 1.1)."""
    return f"ex_{exercise_id}"


def output_paths(out: Path | str) -> dict[str, Path]:
    """Where each output goes, beside the long CSV ``out`` (e.g. gradebook.csv -> gradebook_wide.csv)."""
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


def write_cell_outputs(folder: Path, submission: str, outputs: list) -> None:
    """What each cell of ``submission`` printed (truncated by the kernel), for a teacher to look at."""
    if folder.is_symlink():
        folder.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for index, text, total in outputs:
        lines.append(f"----- cell {index} ({total} characters printed"
                     f"{', truncated' if total > len(str(text)) else ''}) -----")
        lines.append(str(text))
    (folder / f"{_safe_name(submission.replace('/', '__'))}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _fmt(points: float) -> str:
    return f"{points:g}"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value) -> str:
    """A text cell made safe for spreadsheets (OWASP CSV injection): one ``'`` before a leading = + - @ tab or CR.

    A leading ``'`` is doubled too, so :func:`csv_untext` gives back exactly the original text.
    """
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START + ("'",)) else text


def csv_untext(text: str) -> str:
    """The original text of a cell written by :func:`csv_text`."""
    return text[1:] if text.startswith("'") else text


def long_csv_lines(rows: Iterable[GradeRow]) -> str:
    """Rows of the long CSV; text cells are escaped with :func:`csv_text`, numbers are written as numbers."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_text(row.submission), csv_text(row.student), csv_text(row.exercise),
                         csv_text(row.status or ("passed" if row.passed else "wrong")), row.passed, _fmt(row.points),
                         _fmt(row.max_points), csv_text(row.message), csv_text(row.sha256), csv_text(row.graded_at),
                         csv_text(row.grader_version)])
    return buffer.getvalue()


def read_long_csv(path: Path) -> list[dict]:
    """Rows of an existing long CSV written by this grader, or [] when it is not one."""
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
    text = {key: csv_untext(value) for key, value in entry.items()}
    return GradeRow(text["submission"], text["exercise"], entry["passed"] == "True", text["message"], text["status"],
                    text["student"], float(entry["points"] or 0), float(entry["max_points"] or 0), text["sha256"],
                    text["graded_at"], text["grader_version"])


def wide_table(rows: list[GradeRow], roster: list[str] | None, exercise_ids: list[str], points: dict) -> list[dict]:
    """One dict per student: student, one column per exercise (points earned), score, max_score, problems."""
    students: dict[str, dict] = {}
    for row in rows:
        entry = students.setdefault(row.student, {"earned": {}, "problems": [], "status": {}})
        if row.exercise == NOTEBOOK:
            if row.status == PROBLEM:
                entry["problems"].append(f"{row.submission}: {row.message}")
        else:
            entry["earned"][row.exercise] = max(entry["earned"].get(row.exercise, 0.0), row.points)
            entry["status"][row.exercise] = row.status
            if row.status == PROBLEM:
                entry["problems"].append(f"{row.submission} {row.exercise}: {row.message}")
    names = list(roster) if roster else []
    names += sorted(s for s in students if s not in names)
    max_score = sum(float(points.get(e, 1.0)) for e in exercise_ids)
    table = []
    for name in names:
        entry = students.get(name)
        line = {"student": name}
        for exercise in exercise_ids:
            line[exercise_column(exercise)] = _fmt(entry["earned"].get(exercise, 0.0)) if entry else "0"
        line["score"] = _fmt(sum(entry["earned"].values())) if entry else "0"
        line["max_score"] = _fmt(max_score)
        if entry is None:
            line["problems"] = "missing"
        else:
            line["problems"] = "; ".join(entry["problems"]) or ""
            if roster and name not in roster:
                line["problems"] = ("not on the roster; " + line["problems"]).rstrip("; ")
        table.append(line)
    return table


def write_csv(path: Path, table: list[dict], columns: list[str], numeric: Iterable[str] = ()) -> None:
    """Write ``table``; every column but those in ``numeric`` is escaped with :func:`csv_text`."""
    numeric = set(numeric)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows({k: v if k in numeric else csv_text(v) for k, v in line.items()} for line in table)
    os.replace(tmp, path)


def summary_table(rows: list[GradeRow], roster: list[str] | None = None) -> str:
    """One line per student: points, how many exercises passed / wrong / not done / problem, and problems."""
    per: dict[str, dict] = {}
    for name in roster or []:
        per[name] = {"score": 0.0, "max": 0.0, "passed": 0, "wrong": 0, "not done": 0, "problem": 0, "notes": ["missing"]}
    for row in rows:
        entry = per.setdefault(row.student or row.submission,
                               {"score": 0.0, "max": 0.0, "passed": 0, "wrong": 0, "not done": 0, "problem": 0, "notes": []})
        if "missing" in entry["notes"]:
            entry["notes"].remove("missing")
        if row.exercise == NOTEBOOK:
            if row.status != NOTE:
                entry["notes"].append(row.message)
            continue
        entry["score"] += row.points
        entry["max"] += row.max_points
        entry[row.status if row.status in ("passed", "wrong", "not done", "problem") else "wrong"] += 1
    width = max([len("student"), *map(len, per)])
    header = f"{'student':<{width}}  score    passed  wrong  not done  problem  notebook problems"
    lines = [header, "-" * len(header)]
    for name, e in per.items():
        notes = "; ".join(e["notes"]) or "-"
        if len(notes) > 100:
            notes = notes[:97] + "..."
        score = f"{_fmt(e['score'])}/{_fmt(e['max'])}"
        lines.append(f"{name:<{width}}  {score:<7}  {e['passed']:>6}  {e['wrong']:>5}  {e['not done']:>8}  {e['problem']:>7}  {notes}")
    lines += ["", "passed: the check passed; wrong: the answer failed the check (hint in the message); not done: "
              "the placeholder is still there; problem: the grader could not grade it (crash, time or memory limit, "
              "invalid file), see the message."]
    return "\n".join(lines)


def _safe_name(student: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", student).strip("._") or "student"
    return cleaned[:100]


def feedback_markdown(student: str, rows: list[GradeRow]) -> str:
    """A student's feedback: each exercise's status, points and message (the check's hint). Safe to hand back."""
    lines = [f"# Feedback for {student}", ""]
    by_submission: dict[str, list[GradeRow]] = {}
    for row in rows:
        by_submission.setdefault(row.submission, []).append(row)
    total = sum(r.points for r in rows)
    possible = sum(r.max_points for r in rows)
    lines.append(f"Score: **{_fmt(total)} / {_fmt(possible)}**")
    for submission, entries in by_submission.items():
        lines += ["", f"## {Path(submission).name}", "", f"SHA-256 of the file graded: `{entries[0].sha256 or '-'}`", ""]
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
    """Write the wide CSV, the summary, the feedback files and the run record beside the long CSV ``out``."""
    paths = output_paths(out)
    for path in paths.values():  # never write through a link someone planted where an output goes
        if path.is_symlink():
            path.unlink()
    table = wide_table(rows, roster, exercise_ids, points)
    write_csv(paths["wide"], table, ["student", *map(exercise_column, exercise_ids), "score", "max_score", "problems"],
              numeric=[*map(exercise_column, exercise_ids), "score", "max_score"])
    paths["summary"].write_text(summary_table(rows, roster) + "\n", encoding="utf-8")
    paths["feedback"].mkdir(exist_ok=True)
    students: dict[str, list[GradeRow]] = {}
    for row in rows:
        students.setdefault(row.student, []).append(row)
    for student, entries in students.items():
        (paths["feedback"] / f"{_safe_name(student)}.md").write_text(feedback_markdown(student, entries), encoding="utf-8")
    paths["run"].write_text(json.dumps(run_info, indent=2) + "\n", encoding="utf-8")
    return paths
