"""Grade a folder of submitted exercise notebooks.

Each submission runs in a fresh kernel with a per-cell timeout. The grader never trusts
what a notebook printed: after the student's cells, it checks that the course's check
code was not redefined or patched, then runs every exercise's check from this package on
the functions the student defined, and reads the results through its own channel.
Whatever a submission does (raise, loop, break its JSON, patch the checks), it becomes a
row in the gradebook and the next submission is graded.

Command line::

    python -m mic_dp_helpers.grading SUBMISSIONS_DIR [--out gradebook.csv] [--timeout 60]
"""

from __future__ import annotations

import argparse
import ast
import csv
import re
import secrets
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_core.utils import run_sync
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from mic_dp_helpers.checks import exercises_for_lesson

__all__ = ["GradeRow", "grade_submission", "grade_folder", "find_tampering", "main"]

NOTEBOOK = "notebook"  # the "exercise" column for rows about the whole submission
RESULT_MIME = "application/vnd.mic-dp-grade+json"
CHECK_NAMES = {"check", "run_check", "CheckFailed", "CheckResult", "EXERCISES", "exercise", "checks"}

# Run in the student's kernel before and after their cells: a fingerprint of every function and
# class of the course package, printed for the grader to compare in its own process.
FINGERPRINT_SOURCE = """
def __mic_dp_fingerprint():
    import hashlib as _h, marshal as _m, sys as _s, types as _t
    found = {}
    for _name, _module in sorted(_s.modules.items()):
        if not _name.startswith("mic_dp_helpers") or _module is None:
            continue
        found[_name] = str(id(_module))
        for _attr, _obj in sorted(vars(_module).items()):
            if isinstance(_obj, _t.FunctionType):
                found[_name + "." + _attr] = _h.sha256(_m.dumps(_obj.__code__)).hexdigest() + ":" + str(id(_obj))
            elif isinstance(_obj, type) and _obj.__module__.startswith("mic_dp_helpers"):
                found[_name + "." + _attr] = str(id(_obj))
    return found
"""
SETUP_CELL = FINGERPRINT_SOURCE + """
import mic_dp_helpers.checks, mic_dp_helpers.checks._core
from IPython.display import display as __mic_dp_display
__mic_dp_display({"%(mime)s": {"nonce": "%(nonce)s", "fingerprint": __mic_dp_fingerprint()}}, raw=True)
"""
VERIFY_CELL = FINGERPRINT_SOURCE + """
import sys as __mic_dp_sys
__mic_dp_core = __mic_dp_sys.modules["mic_dp_helpers.checks._core"]
__mic_dp_display({"%(mime)s": {"nonce": "%(nonce)s", "fingerprint": __mic_dp_fingerprint(),
    "check_rebound": "check" in globals() and globals()["check"] is not __mic_dp_core.check}}, raw=True)
"""
GRADE_CELL = """
__mic_dp_result = __mic_dp_core.run_check(%(exercise)r, globals().get(%(answer)r)).to_dict()
__mic_dp_display({"%(mime)s": {"nonce": "%(nonce)s", "result": __mic_dp_result}}, raw=True)
"""


@dataclass(frozen=True)
class GradeRow:
    """One line of the gradebook."""

    submission: str
    exercise: str
    passed: bool
    message: str


def find_tampering(notebook: nbformat.NotebookNode) -> list[str]:
    """Find code that redefines or patches the course's checks, by reading the cells (no execution).

    Returns one description per finding, e.g. "cell 7 redefines `check`".

    Examples
    --------
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("def check(*a): print('passed')")])
    >>> find_tampering(nb)
    ['cell 1 redefines `check`']
    """
    findings = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # it will fail when run, and be reported then
        for node in ast.walk(tree):
            targets: list[ast.AST] = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name in CHECK_NAMES:
                    findings.append(f"cell {number} redefines `{node.name}`")
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    source = (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                    own_name = alias.name if isinstance(node, ast.ImportFrom) else alias.name.split(".")[-1]
                    if bound in CHECK_NAMES and not (source.startswith("mic_dp_helpers") and bound == own_name):
                        findings.append(f"cell {number} binds `{bound}` to something other than the course's check")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
                if node.args and "mic_dp_helpers" in ast.unparse(node.args[0]) or (
                    node.args and ast.unparse(node.args[0]) in CHECK_NAMES
                ):
                    findings.append(f"cell {number} patches the checks with {node.func.id}()")
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name) and sub.id in CHECK_NAMES:
                        findings.append(f"cell {number} reassigns `{sub.id}`")
                    elif isinstance(sub, ast.Attribute):
                        text = ast.unparse(sub)
                        if "mic_dp_helpers" in text or text.split(".")[0] in CHECK_NAMES or sub.attr in CHECK_NAMES | {"__code__"}:
                            findings.append(f"cell {number} patches `{text}`")
    return sorted(set(findings), key=findings.index)


def _lesson_of(path: Path, notebook: nbformat.NotebookNode | None) -> str | None:
    if notebook is not None:
        lesson = notebook.metadata.get("mic_dp", {}).get("lesson")
        if lesson:
            return str(lesson)
    match = re.match(r"(\d\d)_", path.name)
    return match.group(1) if match else None


def _grader_output(cell: nbformat.NotebookNode, nonce: str) -> dict | None:
    for output in cell.get("outputs", []):
        payload = output.get("data", {}).get(RESULT_MIME)
        if isinstance(payload, dict) and payload.get("nonce") == nonce:
            return payload
    return None


def _error_summary(cell: nbformat.NotebookNode) -> str | None:
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            value = str(output.get("evalue", "")).strip().splitlines()
            return f"{output.get('ename')}: {value[0] if value else ''}".strip()
    return None


def _fail_all(name: str, exercises, message: str) -> list[GradeRow]:
    return [GradeRow(name, spec.id, False, message) for spec in exercises]


def grade_submission(path: Path | str, *, timeout: int = 60, name: str | None = None) -> list[GradeRow]:
    """Grade one submitted notebook; never raises for a bad submission.

    Parameters
    ----------
    path : path to the .ipynb file
    timeout : int, default 60
        Seconds any one cell (a student cell or one exercise's check) may run.
    name : str, optional
        How the submission is named in the gradebook (default: the file name).
    """
    path = Path(path)
    name = name or path.name
    rows: list[GradeRow] = []
    try:
        notebook = nbformat.read(path, as_version=4)
        if not isinstance(notebook.get("cells"), list) or not all(
            isinstance(cell, dict) and cell.get("cell_type") in ("code", "markdown", "raw") and isinstance(cell.get("source"), str)
            for cell in notebook.cells
        ):
            raise ValueError("it has no list of cells with a type and source")
    except Exception as error:  # not JSON, not a notebook, unreadable
        lesson = _lesson_of(path, None)
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        rows.append(GradeRow(name, NOTEBOOK, False, f"not a valid notebook file ({type(error).__name__}: {first_line[:200]})"))
        return rows + _fail_all(name, exercises_for_lesson(lesson) if lesson else [], "not graded: the notebook file is invalid")

    lesson = _lesson_of(path, notebook)
    exercises = exercises_for_lesson(lesson) if lesson else []
    if not exercises:
        return [GradeRow(name, NOTEBOOK, False, "cannot tell which lesson this notebook belongs to; keep its file name (e.g. 01_...ipynb)")]

    tampering = find_tampering(notebook)
    if tampering:
        message = "tampering: " + "; ".join(tampering)
        return [GradeRow(name, NOTEBOOK, False, message)] + _fail_all(name, exercises, "not graded: the notebook redefines or patches the checks")

    try:
        return _execute_and_grade(notebook, name, exercises, timeout)
    except Exception as error:  # the grader must survive anything a submission does
        return [GradeRow(name, NOTEBOOK, False, f"grading stopped: {type(error).__name__}: {error}")] + _fail_all(
            name, exercises, "not graded: the submission could not be run"
        )


def _execute_and_grade(notebook, name: str, exercises, timeout: int) -> list[GradeRow]:
    rows: list[GradeRow] = []
    nonce = secrets.token_hex(12)
    fill = {"mime": RESULT_MIME, "nonce": nonce}
    student_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    setup = nbformat.v4.new_code_cell(SETUP_CELL % fill)
    verify = nbformat.v4.new_code_cell(VERIFY_CELL % fill)
    graders = [
        nbformat.v4.new_code_cell(GRADE_CELL % {**fill, "exercise": spec.id, "answer": spec.answer_name})
        for spec in exercises
    ]
    for number, cell in enumerate(student_cells):
        cell["id"] = f"student-{number}"  # notebooks saved in nbformat 4.4 have no cell ids
    run_notebook = nbformat.v4.new_notebook(cells=[setup, *student_cells, verify, *graders])
    run_notebook.metadata = notebook.metadata

    with tempfile.TemporaryDirectory(prefix="mic-dp-grade-") as workdir:
        client = NotebookClient(
            run_notebook,
            timeout=timeout,
            kernel_name="python3",
            allow_errors=True,
            interrupt_on_timeout=False,
            resources={"metadata": {"path": workdir}},
        )
        with client.setup_kernel():

            def run(cell, index: int) -> str | None:
                """Execute one cell; return None, or 'timeout' or 'dead'."""
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError:
                    run_sync(client.km.interrupt_kernel)()
                    try:  # the interrupted cell's reply must arrive, or the kernel is stuck
                        run_sync(client.kc.get_shell_msg)(timeout=10)
                    except Exception:
                        return "dead"
                    return "timeout"
                except DeadKernelError:
                    return "dead"
                return None

            if run(setup, 0) or _grader_output(setup, nonce) is None:
                raise RuntimeError("the grading kernel could not import mic_dp_helpers")
            before = _grader_output(setup, nonce)["fingerprint"]

            for index, cell in enumerate(student_cells, start=1):
                outcome = run(cell, index)
                if outcome == "dead":
                    rows.append(GradeRow(name, NOTEBOOK, False, f"cell {index} ran past the {timeout} s limit and the kernel stopped responding"))
                    return rows + _fail_all(name, exercises, "not graded: the notebook did not finish")
                if outcome == "timeout":
                    rows.append(GradeRow(name, NOTEBOOK, False, f"cell {index} ran past the {timeout} s limit (infinite loop?) and was stopped"))
                elif (error := _error_summary(cell)) is not None:
                    rows.append(GradeRow(name, NOTEBOOK, False, f"cell {index} raised {error}"))

            if run(verify, len(student_cells) + 1) or (after := _grader_output(verify, nonce)) is None:
                rows.append(GradeRow(name, NOTEBOOK, False, "tampering: the integrity check of the course's checks could not run"))
                return rows + _fail_all(name, exercises, "not graded: the checks could not be verified")
            changed = sorted(key for key in set(before) | set(after["fingerprint"]) if before.get(key) != after["fingerprint"].get(key) and key in before)
            if changed or after.get("check_rebound"):
                what = ", ".join(changed[:5]) or "the name `check` in the notebook"
                rows.append(GradeRow(name, NOTEBOOK, False, f"tampering: the notebook changed the course's checks ({what})"))
                return rows + _fail_all(name, exercises, "not graded: the notebook redefines or patches the checks")

            for offset, (spec, cell) in enumerate(zip(exercises, graders)):
                outcome = run(cell, len(student_cells) + 2 + offset)
                result = _grader_output(cell, nonce)
                if outcome == "dead":
                    rows.append(GradeRow(name, spec.id, False, f"the check ran past the {timeout} s limit and the kernel stopped responding"))
                    rows += _fail_all(name, exercises[offset + 1 :], "not graded: the kernel stopped responding")
                    break
                if outcome == "timeout":
                    rows.append(GradeRow(name, spec.id, False, f"your function ran past the {timeout} s limit during the check"))
                elif result is None:
                    rows.append(GradeRow(name, spec.id, False, f"the check could not run ({_error_summary(cell) or 'no result'})"))
                else:
                    outcome_row = result["result"]
                    rows.append(GradeRow(name, spec.id, outcome_row["status"] == "passed", outcome_row["message"]))
    return rows


def grade_folder(folder: Path | str, *, timeout: int = 60, progress: bool = True) -> list[GradeRow]:
    """Grade every ``*.ipynb`` below ``folder`` (one submission per file)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(f"submissions folder {folder} does not exist or is not a folder")
    paths = sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    rows: list[GradeRow] = []
    iterator: Iterable[Path] = paths
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(paths, desc="Grading", unit="notebook")
    for path in iterator:
        rows += grade_submission(path, timeout=timeout, name=str(path.relative_to(folder)))
    return rows


def write_gradebook(rows: Iterable[GradeRow], out: Path | str) -> None:
    """Write the gradebook CSV: submission, exercise, passed, message."""
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["submission", "exercise", "passed", "message"])
        for row in rows:
            writer.writerow([row.submission, row.exercise, row.passed, row.message])


def summary_table(rows: list[GradeRow]) -> str:
    """One line per submission: exercises passed out of graded, and any problem with the notebook."""
    submissions: dict[str, dict] = {}
    for row in rows:
        entry = submissions.setdefault(row.submission, {"passed": 0, "total": 0, "problems": []})
        if row.exercise == NOTEBOOK:
            entry["problems"].append(row.message)
        else:
            entry["total"] += 1
            entry["passed"] += row.passed
    width = max([len("submission"), *map(len, submissions)])
    lines = [f"{'submission':<{width}}  passed  problems", f"{'-' * width}  ------  --------"]
    for submission, entry in submissions.items():
        problems = "; ".join(entry["problems"]) or "-"
        if len(problems) > 100:
            problems = problems[:97] + "..."
        lines.append(f"{submission:<{width}}  {entry['passed']:>2}/{entry['total']:<3}  {problems}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mic_dp_helpers.grading", description="Grade a folder of submitted exercise notebooks.")
    parser.add_argument("submissions", help="folder of .ipynb files (sub-folders per student are fine)")
    parser.add_argument("--out", default="gradebook.csv", help="CSV file to write (default: gradebook.csv)")
    parser.add_argument("--timeout", type=int, default=60, help="seconds one cell or one check may run (default: 60)")
    args = parser.parse_args(argv)
    if args.timeout < 1:
        parser.error("--timeout must be at least 1 second")
    try:
        rows = grade_folder(args.submissions, timeout=args.timeout)
    except NotADirectoryError as error:
        parser.error(str(error))
    write_gradebook(rows, args.out)
    print(summary_table(rows))
    print(f"\nGradebook written to {args.out} ({len(rows)} rows).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
