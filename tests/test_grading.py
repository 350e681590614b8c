"""The grader on crafted submissions: honest ones, broken ones, hostile ones, and its outputs.

Every hostile notebook here defines a wrong answer and then tries to turn it into a pass (or to harm the
run); the verdict is computed outside its kernel, so it must stay "not passed", and the rest of the class
must be graded as if it were not there.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
import time
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import mic_dp_helpers
from mic_dp_teacher import grading
from mic_dp_teacher.grading import sandbox
from mic_dp_teacher.grading.report import csv_untext

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01_anonymization_fails_exercises.ipynb"  # what a student hands in
SOLUTION = "01_anonymization_fails_solutions.ipynb"
EXERCISES_01 = {"01.1", "01.2", "01.3", "01.4"}
TIMEOUT = 20  # a loaded 2-core CI machine must not time out honest cells
SANDBOXED = sandbox.isolation_mode() != "plain"
needs_sandbox = pytest.mark.skipif(not SANDBOXED, reason="needs namespaces (root or unprivileged user namespaces)")

WRONG_01_1 = "def uniqueness_share(df, columns):\n    return 0.5"
IMPORTS = "import numpy as np\nimport pandas as pd\nfrom mic_dp_helpers.checks import check"


def _write(folder: Path, student: str, cells: list[str], name: str = LESSON, lesson: str = "01") -> Path:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    notebook.metadata["mic_dp"] = {"lesson": lesson}
    path = folder / student / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def _solution_cells(base: str = "solutions", lesson_file: str = SOLUTION) -> list[str]:
    notebook = nbformat.read(ROOT / base / lesson_file, as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def _rows(rows, student):
    return {row.exercise: row for row in rows if row.student == student}


def _hash_tree(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


# --------------------------------------------------------------------------------- the class
@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    out = tmp_path_factory.mktemp("grades") / "gradebook.csv"
    package_hash = _hash_tree(Path(mic_dp_helpers.__file__).parent)
    solution = _solution_cells()
    _write(folder, "good", solution)
    path = folder / "unfinished" / LESSON
    path.parent.mkdir()
    path.write_bytes((ROOT / "exercises" / LESSON).read_bytes())
    _write(folder, "raises", solution[:2] + ["raise RuntimeError('oops, a bug')"] + solution[2:])
    _write(folder, "kills_kernel", [IMPORTS, "import os\nos._exit(1)", WRONG_01_1])
    (folder / "invalid").mkdir()
    (folder / "invalid" / LESSON).write_text('{"cells": [ this is not json')
    (folder / "no_lesson.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    # honest look-alikes: none of this is tampering
    _write(folder, "honest_names", solution + [
        "from mic_dp_helpers.checks import check as verify\nimport mic_dp_helpers.attacks.anonymity as anon\n"
        "kept = verify('01.1', uniqueness_share)\nshare = anon.uniqueness_share(released, ['age'])",
        "def k_anonymity_level_helper(df, qi):\n    return 1\n"
        "def equivalence_class_sizes(df, columns):  # the course helper's name, the student's own function\n"
        "    return df.groupby(columns).size()",
        "check = 3\nchecks = ['mine']\nexercise = 'my notes'\nclass Exercise:\n    pass",
    ])
    # re-runs a definition and its check, then reads the result, as lesson 00 teaches (the grader's kernel must
    # give the real result when it is read)
    _write(folder, "honest_reruns", solution + solution[1:3] + [
        "result = check('01.1', uniqueness_share)\nassert result.passed and result.status == 'passed', result.message\n"
        "assert 'passed' in str(result) and result.to_dict()['exercise'] == '01.1'"])
    # hostile: each defines a wrong 01.1 and tries to make it pass, or to harm the run
    hostile = {
        "h_display": "import IPython.display as d, builtins\n"
                     "import sys\ndef fake(*a, **k):\n    sys.__stdout__.write('✅ Exercise 01.1: passed')\n"
                     "d.display = fake\nbuiltins.display = fake\nbuiltins.print = fake",
        "h_hook": "ip = get_ipython()\ndef hook(*a, **k):\n    print('{\"01.1\": \"passed\"}', In[-1:])\n"
                  "ip.events.register('pre_run_cell', hook)\nip.events.register('post_run_cell', hook)",
        "h_registry": "import dataclasses\nfrom mic_dp_helpers.checks import _core\n"
                      "for key, spec in list(_core.EXERCISES.items()):\n"
                      "    _core.EXERCISES[key] = dataclasses.replace(spec, checker=lambda answer: None)\n"
                      "_core.run_check = lambda eid, answer, **kw: _core.CheckResult(eid, 'passed', 'passed')",
        "h_constants": "import mic_dp_helpers.checks.lesson01 as L\nL.QUASI_IDENTIFIER_SETS = ()\n"
                       "L._tables = lambda: []",
        "h_patch_libs": "import math, builtins, scipy.stats\nnp.median = lambda *a, **k: 0.0\n"
                        "scipy.stats.kstest = lambda *a, **k: (0.0, 1.0)\nmath.isclose = lambda *a, **k: True\n"
                        "builtins.abs = lambda x: 0\nbuiltins.sorted = lambda x, **k: [0]",
        "h_frames": None,  # see below
        "h_solutions": "import json, pathlib, mic_dp_helpers\n"
                       "root = pathlib.Path(mic_dp_helpers.__file__).resolve().parent.parent\n"
                       "for cell in json.load(open(root / 'solutions' / '01_anonymization_fails_solutions.ipynb'))['cells']:\n"
                       "    if cell['cell_type'] == 'code' and 'def ' in ''.join(cell['source']):\n"
                       "        exec(''.join(cell['source']))",
        "h_package": "import mic_dp_helpers.checks.lesson01 as L, pathlib\np = pathlib.Path(L.__file__)\n"
                     "p.write_text(p.read_text().replace('def check_uniqueness_share(answer) -> None:\\n', "
                     "'def check_uniqueness_share(answer) -> None:\\n    return\\n'))",
        "h_classmates": f"import pathlib\nfor p in pathlib.Path({str(folder)!r}).rglob('*.ipynb'):\n"
                        "    if 'h_classmates' not in str(p):\n        p.write_text('{}')",
        "h_daemon": "import subprocess, sys\n"
                    f"target = {str(out)!r}\n"
                    "code = 'import sys, time; time.sleep(3); open(sys.argv[1], \"w\").write(\"hacked\")'\n"
                    "subprocess.Popen([sys.executable, '-c', code, target], start_new_session=True)\n"
                    "open(target, 'a').write('hacked now')",
        "h_kill": "import os, signal\nfor target in (os.getppid(), -1, 1):\n    try:\n        os.kill(target, signal.SIGKILL)\n"
                  "    except OSError:\n        pass\n"
                  "for pid in [int(p) for p in os.listdir('/proc') if p.isdigit()]:\n    try:\n"
                  "        os.kill(pid, signal.SIGKILL) if pid != os.getpid() else None\n    except OSError:\n        pass",
    }
    frames = ("import sys\ndef uniqueness_share(df, columns):\n    frame = sys._getframe(1)\n    while frame:\n"
              "        for name in ('expected', 'reference'):\n            if name in frame.f_locals:\n"
              "                return frame.f_locals[name]\n        frame = frame.f_back\n    return 0.5")
    if not SANDBOXED:  # without namespaces these would really harm the machine running the tests
        for student in ("h_solutions", "h_package", "h_classmates", "h_daemon", "h_kill"):
            del hostile[student]
    for student, hack in hostile.items():
        if student == "h_frames":
            _write(folder, student, [IMPORTS, frames])
        else:
            _write(folder, student, [IMPORTS, WRONG_01_1, hack, "check('01.1', uniqueness_share)"])
    _write(folder, "h_private", [IMPORTS, "def averaging_attack(noisy_query, n_queries):\n"
                                 "    for _ in range(n_queries):\n        noisy_query()\n    return noisy_query._true"],
           name="03_privacy_budget_exercises.ipynb", lesson="03")
    (folder / "h_symlink").mkdir()
    os.symlink("/etc/passwd", folder / "h_symlink" / LESSON)
    os.symlink("/etc", folder / "h_symlink_dir")
    before = {p: p.read_bytes() for p in folder.rglob("*.ipynb") if not p.is_symlink()}
    rows = grading.grade_folder(folder, timeout=TIMEOUT, total_timeout=120, jobs=2, progress=False, out=out)
    finished = time.monotonic()
    return {"folder": folder, "rows": rows, "out": out, "before": before, "package_hash": package_hash,
            "finished": finished}


def test_good_submission_passes_everything(graded):
    rows = _rows(graded["rows"], "good")
    assert set(rows) == EXERCISES_01 and all(row.passed for row in rows.values()), rows


def test_unfinished_submission_is_not_done(graded):
    rows = _rows(graded["rows"], "unfinished")
    assert set(rows) == EXERCISES_01
    assert all(row.status == "not done" and "not done yet" in row.message for row in rows.values())


def test_raising_cell_is_reported_and_exercises_still_graded(graded):
    rows = _rows(graded["rows"], "raises")
    assert "RuntimeError: oops, a bug" in rows["notebook"].message
    assert all(rows[ex].passed for ex in EXERCISES_01)


def test_dead_kernel_is_reported(graded):
    rows = _rows(graded["rows"], "kills_kernel")
    assert rows["notebook"].status == "problem" and "exit code 1" in rows["notebook"].message
    assert not any(rows[ex].passed for ex in EXERCISES_01)


def test_invalid_json_is_reported_with_every_exercise_not_graded(graded):
    rows = _rows(graded["rows"], "invalid")
    assert "not a valid notebook" in rows["notebook"].message
    assert {ex for ex in rows if ex != "notebook"} == EXERCISES_01


def test_notebook_without_lesson_is_reported(graded):
    rows = _rows(graded["rows"], "no_lesson")
    assert "which lesson" in rows["notebook"].message


@pytest.mark.parametrize("student", ["good", "honest_names", "honest_reruns"])
def test_honest_look_alikes_pass_without_any_flag(graded, student):
    rows = _rows(graded["rows"], student)
    assert all(rows[ex].passed for ex in EXERCISES_01), rows
    assert not any("tamper" in row.message for row in rows.values())
    if student == "honest_names":  # `check = 3` is the student's own business; their later cells are fine
        assert "notebook" not in rows or rows["notebook"].status != "problem" or "tamper" not in rows["notebook"].message
    else:  # every cell ran without error, the one reading check()'s result included
        problems = [row for row in graded["rows"] if row.student == student and row.status == "problem"]
        assert not problems, problems


@pytest.mark.parametrize("student", ["h_display", "h_hook", "h_registry", "h_constants", "h_patch_libs", "h_frames",
                                     "h_solutions", "h_package", "h_classmates", "h_daemon", "h_kill"])
def test_hostile_notebook_cannot_pass_a_wrong_answer(graded, student):
    if student in ("h_solutions", "h_package", "h_classmates", "h_daemon", "h_kill") and not SANDBOXED:
        pytest.skip("needs namespaces")
    rows = _rows(graded["rows"], student)
    assert set(rows) >= EXERCISES_01
    assert not rows["01.1"].passed, rows["01.1"]
    assert rows["01.1"].status in ("wrong", "not done", "problem")


def test_reading_a_private_attribute_of_a_checker_object_fails(graded):
    rows = _rows(graded["rows"], "h_private")
    assert not rows["03.3"].passed and "AttributeError" in rows["03.3"].message


@needs_sandbox
def test_solutions_are_invisible_to_the_kernel(graded):
    rows = _rows(graded["rows"], "h_solutions")
    assert "FileNotFoundError" in rows["notebook"].message
    assert rows["01.1"].status == "wrong" and rows["01.2"].status == "not done"


@needs_sandbox
def test_package_on_disk_cannot_be_edited(graded):
    assert _hash_tree(Path(mic_dp_helpers.__file__).parent) == graded["package_hash"]
    rows = _rows(graded["rows"], "h_package")
    assert "Error" in rows["notebook"].message  # read-only file system or permission denied
    assert not any("tamper" in row.message for row in graded["rows"])  # nothing changed: nothing to report


@needs_sandbox
def test_classmates_notebooks_are_untouched_and_graded(graded):
    for path, data in graded["before"].items():
        assert path.read_bytes() == data, path
    assert all(_rows(graded["rows"], "good")[ex].passed for ex in EXERCISES_01)


@needs_sandbox
def test_gradebook_survives_a_daemon_and_a_killer(graded):
    time.sleep(max(0.0, graded["finished"] + 4.5 - time.monotonic()))  # the daemon would write after 3 s
    text = graded["out"].read_text()
    assert text.startswith("submission,student,exercise") and "hacked" not in text
    students = {row.student for row in graded["rows"]}
    assert {"good", "h_kill", "h_daemon", "unfinished", "raises"} <= students


def test_symlinks_are_refused_and_never_read(graded):
    rows = [row for row in graded["rows"] if row.student.startswith("h_symlink")]
    assert len(rows) == 2 and all(row.exercise == "notebook" and row.status == "problem" for row in rows)
    assert all("symbolic link" in row.message for row in rows)
    assert not any("root:" in row.message for row in graded["rows"])


def test_outputs_long_wide_summary_feedback_run(graded):
    paths = {k: Path(str(graded["out"]).replace("gradebook.csv", v)) for k, v in
             {"wide": "gradebook_wide.csv", "summary": "gradebook_summary.txt", "run": "gradebook_run.json"}.items()}
    long = pd.read_csv(graded["out"], dtype={"exercise": str})
    assert {"01.1", "03.3"} <= set(long["exercise"])
    read = long[~long["student"].str.startswith("h_symlink")]
    assert read["sha256"].str.fullmatch("[0-9a-f]{64}").all() and long["grader_version"].str.startswith(mic_dp_helpers.__version__).all()
    wide = pd.read_csv(paths["wide"])
    assert list(wide.columns[:5]) == ["student", "ex_01.1", "ex_01.2", "ex_01.3", "ex_01.4"]
    assert list(wide.columns[-3:]) == ["score", "max_score", "problems"]
    good = wide.set_index("student").loc["good"]
    assert good["score"] == 4 and good["max_score"] == 4  # lesson 03 (one student of many) is not part of it
    assert not any(c.startswith("ex_03") for c in wide.columns)
    summary = paths["summary"].read_text()
    assert "not done" in summary and "problem" in summary and "wrong" in summary
    feedback = (graded["out"].parent / "gradebook_feedback" / "h_frames.md").read_text()
    assert "Exercise 01.1" in feedback and "good" not in feedback
    printed = (graded["out"].parent / "gradebook_outputs" / "h_display__01_anonymization_fails_exercises.ipynb.txt").read_text()
    assert "----- cell 4" in printed
    run = json.loads(paths["run"].read_text())
    assert run["isolation"] in ("root", "userns", "plain") and run["submissions"]


# ------------------------------------------------------------------------------------- limits
#: The limits of the graded class below: long enough that the honest cells (importing NumPy, pandas and the
#: checks, then running them) finish on a loaded CI machine twice as slow as a laptop (a 4 s limit failed
#: there, stop 42), short enough that the sleepy notebook's ten 8 s cells (80 s) hit the total first.
CELL_LIMIT, TOTAL_LIMIT = 15, 60


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    folder = tmp_path_factory.mktemp("limits")
    right = "\n".join(_solution_cells()[:2])
    _write(folder, "memory", [right, "x = bytearray(6 * 1024**3)", "y = 1"])
    _write(folder, "output", ["print('x' * 200_000_000)", "import sys\nfor _ in range(1000):\n    sys.stdout.write('y' * 1000)"])
    _write(folder, "sleepy", ["import time\ntime.sleep(8)" for _ in range(10)])
    _write(folder, "loop", ["while True:\n    pass", "z = 2"])
    _write(folder, "stubborn", ["import signal, subprocess\nsubprocess.Popen(['sleep', '4321.5'])\n"
                                "signal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass"])
    _write(folder, "forkbomb", ["import subprocess\nprocs = []\nfor _ in range(400):\n"
                                "    procs.append(subprocess.Popen(['sleep', '60']))"])
    solution = _solution_cells()
    _write(folder, "slow_function", [solution[0], "def uniqueness_share(df, columns):\n    while True:\n        pass",
                                     solution[3]])
    _write(folder, "stubborn_function", [solution[0], "import signal\ndef uniqueness_share(df, columns):\n"
                                         "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    while True:\n        pass",
                                         solution[3]])
    rows = grading.grade_folder(folder, timeout=CELL_LIMIT, total_timeout=TOTAL_LIMIT, jobs=2, progress=False,
                                nproc=64)
    return rows


@pytest.mark.slow
def test_memory_limit_is_reported_and_the_rest_graded(limited):
    rows = _rows(limited, "memory")
    assert "out of memory" in rows["notebook"].message and "2 GB" in rows["notebook"].message
    assert rows["01.1"].passed


@pytest.mark.slow
def test_output_is_truncated_with_a_note(limited):
    notes = [row for row in limited if row.student == "output" and row.exercise == "notebook"]
    assert any("200 MB" in row.message and "kept" in row.message for row in notes)
    assert any(row.message.startswith("cell 2 printed 1 MB") for row in notes)


@pytest.mark.slow
def test_total_time_limit_stops_many_slow_cells(limited):
    rows = _rows(limited, "sleepy")
    assert f"total time limit of {TOTAL_LIMIT} s" in rows["notebook"].message
    assert all(rows[ex].status == "problem" for ex in EXERCISES_01)


@pytest.mark.slow
def test_cell_timeout_interrupts_a_loop(limited):
    rows = _rows(limited, "loop")
    assert f"cell 1 ran past the {CELL_LIMIT} s limit" in rows["notebook"].message
    assert all(rows[ex].status == "not done" for ex in EXERCISES_01)


@pytest.mark.slow
def test_a_kernel_ignoring_the_timeout_is_killed_with_its_children(limited):
    rows = _rows(limited, "stubborn")
    assert "did not stop" in rows["notebook"].message or "total time limit" in rows["notebook"].message
    leftovers = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            leftovers.append(Path(f"/proc/{pid}/cmdline").read_bytes())
        except OSError:
            pass
    if SANDBOXED:
        assert not any(b"4321.5" in cmdline for cmdline in leftovers)


@pytest.mark.slow
def test_a_function_running_too_long_in_a_check_costs_only_that_exercise(limited):
    for student in ("slow_function", "stubborn_function"):
        rows = _rows(limited, student)
        assert rows["01.1"].status == "problem" and f"{CELL_LIMIT} s limit" in rows["01.1"].message, rows["01.1"]
        assert rows["01.2"].passed, rows["01.2"]


@pytest.mark.slow
def test_process_limit_stops_a_fork_bomb(limited):
    rows = _rows(limited, "forkbomb")
    assert "cell 1 raised" in rows["notebook"].message  # BlockingIOError / OSError: Resource temporarily unavailable


# ----------------------------------------------------------------------- command line, roster, resume
# ------------------------------------------------------- which notebook counts, names, CSV injection
# (one grading run of 14 submissions, about 25 s: with the slow tests, which CI runs)
@pytest.fixture(scope="module")
def policy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("policy")
    out = tmp_path_factory.mktemp("policy_grades") / "gradebook.csv"
    cells = _solution_cells()
    right = {"01.1": cells[1], "01.2": cells[3], "01.3": cells[5], "01.4": cells[7]}
    everything = [IMPORTS, *right.values()]
    _write(folder, "dup", [IMPORTS, right["01.1"]])  # the exercise file at the top: 1 point
    _write(folder, "dup", everything, name="copy/" + LESSON)  # a better copy elsewhere must not count
    _write(folder, "lottery", everything, name="01_anonymization_fails_exercises-Copy1.ipynb")
    _write(folder, "lottery", [IMPORTS, right["01.1"]], name="old/01_mine.ipynb")  # the lowest counts: 1
    _write(folder, "extra", everything)
    seven = folder / "extra" / "07_selection_and_local_dp_exercises.ipynb"
    seven.write_bytes((ROOT / "exercises" / seven.name).read_bytes())  # an untouched other lesson
    _write(folder, "meta", everything, lesson="00")  # metadata says 00, the file name 01
    _write(folder, "stray", everything)
    (folder / "stray" / "Untitled.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    _write(folder, "zoé", everything)
    _write(folder, "zoè", [IMPORTS, right["01.1"], right["01.2"], right["01.3"]])
    _write(folder, "", everything, name='=HYPERLINK("x","y").ipynb')
    (folder / "dirnb" / LESSON).mkdir(parents=True)
    rows = grading.grade_folder(folder, timeout=TIMEOUT, total_timeout=120, jobs=2, progress=False, out=out)
    first = out.read_bytes()
    again = grading.grade_folder(folder, timeout=TIMEOUT, total_timeout=120, jobs=2, progress=False, out=out)
    return {"rows": rows, "again": again, "first": first, "out": out,
            "wide": pd.read_csv(str(out).replace(".csv", "_wide.csv")).set_index("student")}


@pytest.mark.slow
def test_one_notebook_per_lesson_counts(policy):
    wide = policy["wide"]
    assert wide.loc["dup", "score"] == 1 and wide.loc["dup", "max_score"] == 4  # the top-level file, not the copy
    assert wide.loc["lottery", "score"] == 1  # no top-level file: the lowest of the copies
    notes = [r for r in policy["rows"] if r.student == "dup" and r.status == "note"]
    assert any(r.submission == "dup/copy/" + LESSON and r.message.startswith("not counted:")
               and f"`dup/{LESSON}` counts" in r.message for r in notes)
    copy_rows = [r for r in policy["rows"] if r.submission == "dup/copy/" + LESSON and r.exercise != "notebook"]
    assert all(r.passed for r in copy_rows) and not any(r.points or r.max_points for r in copy_rows)


@pytest.mark.slow
def test_summary_feedback_long_and_wide_agree(policy):
    long = pd.read_csv(policy["out"], dtype={"exercise": str})
    summary = Path(str(policy["out"]).replace(".csv", "_summary.txt")).read_text()
    run = json.loads(Path(str(policy["out"]).replace(".csv", "_run.json")).read_text())
    feedback = policy["out"].parent / "gradebook_feedback"
    for student, line in policy["wide"].iterrows():
        mine = long[long["student"] == student]
        score, max_score = line["score"], line["max_score"]
        if student != "dirnb":  # every student but dirnb handed in lesson 01, so the long CSV adds up too
            assert (mine["points"].sum(), mine["max_points"].sum()) == (score, max_score), student
        student = csv_untext(student)  # the wide CSV escapes a name starting with =
        text = (feedback / run["feedback_files"][student]).read_text()
        assert f"# Feedback for {student}\n" in text and f"Score: **{score:g} / {max_score:g}**" in text
        assert any(row.startswith(student) and f" {score:g}/{max_score:g} " in row for row in summary.splitlines())


@pytest.mark.slow
def test_other_lessons_add_no_columns_and_metadata_does_not_move_a_notebook(policy):
    wide = policy["wide"]
    assert [c for c in wide.columns if c.startswith("ex_")] == ["ex_01.1", "ex_01.2", "ex_01.3", "ex_01.4"]
    assert (wide.loc[["extra", "meta", "stray", "zoé"], ["score", "max_score"]] == 4).all().all()
    meta = [r for r in policy["rows"] if r.student == "meta"]
    assert {r.exercise for r in meta} == EXERCISES_01 | {"notebook"}
    assert any("metadata says lesson 00; graded as lesson 01" in r.message and r.status == "note" for r in meta)
    seven = [r for r in policy["rows"] if r.submission.startswith("extra/07")]
    assert any(r.message.startswith("not counted: lesson 07 is not part") for r in seven)
    run = json.loads(Path(str(policy["out"]).replace(".csv", "_run.json")).read_text())
    assert run["assignment"]["lessons"] == ["01"] and "at least half" in run["assignment"]["rule"]


@pytest.mark.slow
def test_a_stray_notebook_is_a_note_and_a_folder_notebook_a_problem(policy):
    stray = [r for r in policy["rows"] if r.submission == "stray/Untitled.ipynb"]
    assert [(r.status, r.points) for r in stray] == [("note", 0)] and "not a course notebook" in stray[0].message
    assert policy["wide"].loc["stray", "problems"] != policy["wide"].loc["stray", "problems"]  # empty: NaN
    dirnb = [r for r in policy["rows"] if r.student == "dirnb"]
    assert [r.status for r in dirnb] == ["problem"] and "is a folder" in dirnb[0].message


@pytest.mark.slow
def test_look_alike_names_get_their_own_files(policy):
    run = json.loads(Path(str(policy["out"]).replace(".csv", "_run.json")).read_text())
    files = run["feedback_files"]
    assert files["zoé"] != files["zoè"]
    folder = policy["out"].parent
    assert "Score: **3 / 4**" in (folder / "gradebook_feedback" / files["zoè"]).read_text()
    assert "Score: **4 / 4**" in (folder / "gradebook_feedback" / files["zoé"]).read_text()
    assert len(list((folder / "gradebook_outputs").glob("zo*.txt"))) == 2


@pytest.mark.slow
def test_formula_names_are_escaped_and_a_rerun_reads_them_back(policy):
    text = policy["out"].read_text()
    wide_text = Path(str(policy["out"]).replace(".csv", "_wide.csv")).read_text()
    for table in (text, wide_text):
        cells = [cell for line in csv.reader(table.splitlines()) for cell in line]
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells)
        assert "'=HYPERLINK(" in table
    assert policy["wide"]["score"].dtype.kind in "if"
    # the re-run regrades only the refused folder (it has no SHA-256) and writes the same gradebook
    def stable(rows):
        return sorted(repr(dataclasses.replace(r, graded_at="")) for r in rows)

    assert stable(policy["again"]) == stable(policy["rows"])
    first = [line for line in policy["first"].decode().splitlines() if not line.startswith("dirnb/")]
    assert [line for line in text.splitlines() if not line.startswith("dirnb/")] == first
