"""The grader's command line and runs of a few submissions each: roster, points, resume, --only, a killed run.

Apart from tests/test_grading.py, whose module-scoped class of crafted submissions keeps that file on one
pytest-xdist worker, so that these run beside it.
"""

from __future__ import annotations

import csv
import os
import time

import pandas as pd
import pytest

from mic_dp_teacher import grading
from mic_dp_teacher.grading import sandbox
from test_grading import EXERCISES_01, IMPORTS, ROOT, TIMEOUT, WRONG_01_1, _rows, _solution_cells, _write


def test_command_line_roster_points_resume_and_only(tmp_path, capsys):
    folder = tmp_path / "class"
    _write(folder, "ann", _solution_cells())
    _write(folder, "bob", [IMPORTS, WRONG_01_1])
    roster = tmp_path / "roster.txt"
    roster.write_text("ann\nbob\ncarl\n")
    out = tmp_path / "grades" / "book.csv"
    args = [str(folder), "--out", str(out), "--timeout", str(TIMEOUT), "--roster", str(roster), "--points", "01.1=2",
            "--jobs", "2"]
    assert grading.main(args) == 0
    wide = pd.read_csv(tmp_path / "grades" / "book_wide.csv").set_index("student")
    assert wide.loc["ann", "score"] == 5 and wide.loc["ann", "max_score"] == 5 and wide.loc["ann", "ex_01.1"] == 2
    assert wide.loc["bob", "score"] == 0 and wide.loc["carl", "problems"] == "missing"
    assert "carl" in capsys.readouterr().out
    first = out.read_text()
    stamp = out.stat().st_mtime_ns
    assert grading.main(args) == 0  # nothing new: everything is skipped
    assert out.read_text() == first
    assert "[1/" not in capsys.readouterr().err
    _write(folder, "bob", [IMPORTS, _solution_cells()[1]])  # bob fixes 01.1 and hands in again
    assert grading.main(args + ["--only", "bob"]) == 0
    with open(out, newline="") as handle:
        table = list(csv.DictReader(handle))
    bob = {row["exercise"]: row for row in table if row["student"] == "bob"}
    assert bob["01.1"]["status"] == "passed" and bob["01.1"]["points"] == "2"
    assert {row["student"] for row in table} == {"ann", "bob"} and out.stat().st_mtime_ns != stamp


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(NotADirectoryError, match="does not exist"):
        grading.grade_folder(tmp_path / "nope")


def test_a_function_changing_its_input_is_caught_as_in_class(tmp_path):
    folder = tmp_path / "class"
    _write(folder, "mutates", [IMPORTS, "def uniqueness_share(df, columns):\n    df.sort_values(columns[0], inplace=True)\n"
                               "    sizes = df.groupby(columns)[columns[0]].transform('size')\n"
                               "    return float((sizes == 1).mean())"])
    rows = _rows(grading.grade_folder(folder, timeout=TIMEOUT, progress=False, jobs=1), "mutates")
    assert rows["01.1"].status == "wrong" and "changed the table" in rows["01.1"].message


@pytest.mark.slow
def test_a_killed_run_resumes_and_loses_nothing(tmp_path):
    import signal
    import subprocess
    import sys

    folder = tmp_path / "class"
    for student in ("a1", "a2", "a3"):
        _write(folder, student, [IMPORTS, WRONG_01_1, "import time\ntime.sleep(2)"])
    out = tmp_path / "book.csv"
    command = [sys.executable, "-m", "mic_dp_teacher.grading", str(folder), "--out", str(out), "--jobs", "1",
               "--timeout", str(TIMEOUT)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or "a1/" not in out.read_text()):
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)  # the whole grader dies mid-run
    process.wait()
    first = [line for line in out.read_text().splitlines() if line.startswith("a1/")]
    assert first, "the first submission's rows were written before the kill"
    assert subprocess.run(command, env=env, capture_output=True).returncode == 0
    text = out.read_text()
    assert [line for line in text.splitlines() if line.startswith("a1/")] == first  # not graded again
    assert {line.split(",")[1] for line in text.splitlines()[1:]} == {"a1", "a2", "a3"}


@pytest.mark.slow
def test_without_namespaces_the_grader_still_grades(tmp_path, monkeypatch):
    monkeypatch.setenv("MIC_DP_GRADING_ISOLATION", "plain")
    sandbox.isolation_mode.cache_clear()
    try:
        folder = tmp_path / "class"
        _write(folder, "ann", _solution_cells())
        _write(folder, "bob", [IMPORTS, WRONG_01_1])
        rows = grading.grade_folder(folder, timeout=TIMEOUT, progress=False, jobs=2)
    finally:
        sandbox.isolation_mode.cache_clear()
    assert all(_rows(rows, "ann")[ex].passed for ex in EXERCISES_01)
    assert _rows(rows, "bob")["01.1"].status == "wrong"
