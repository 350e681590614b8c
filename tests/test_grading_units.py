"""Pieces of the grader without a kernel: the wire format, the student-facing check line, forbidden helpers."""

from __future__ import annotations

import base64
import io
import pickle

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.accounting.ledger import PrivacyAccountant
from mic_dp_helpers.checks import _core, check, check_is_running, run_check
from mic_dp_teacher.grading import counting, wire
from mic_dp_teacher.grading.report import exercise_column, wide_table
from mic_dp_teacher.grading.notebooks import lesson_of
from mic_dp_teacher.grading.runner import GradeRow


@pytest.mark.parametrize("value", [
    None, True, 3, -(10**30), 0.1, float("nan"), float("inf"), "01.1", b"\x00raw", (1, 2.5), [1, [2, {"a": None}]],
    {("x", 1): {1, 2}}, np.float64(0.25), np.int32(7), np.bool_(True), np.arange(6).reshape(2, 3),
    np.array(["a", "bc"]), np.array([1, "mixed", None], dtype=object),
    pd.Series([1.5, 2.5], index=["a", "b"], name="s"),
    pd.DataFrame({"age": [34, 61], "zip": ["02101", "13902"], "x": [0.5, None]}, index=[10, 20]),
    pd.DataFrame({"g": pd.Categorical(["a", "b"])}).set_index(pd.MultiIndex.from_tuples([(1, "x"), (2, "y")])),
])
def test_wire_round_trip_keeps_value_and_type(value):
    back = wire.decode(wire.encode(value))
    assert type(back) is type(value)
    if isinstance(value, pd.DataFrame):
        pd.testing.assert_frame_equal(back, value, check_dtype=False, check_categorical=False)
    elif isinstance(value, pd.Series):
        pd.testing.assert_series_equal(back, value)
    elif isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and back.shape == value.shape and list(back.ravel()) == list(value.ravel())
    elif isinstance(value, float) and value != value:
        assert back != back
    else:
        assert back == value


def test_wire_course_objects_travel_by_value():
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.25, label="q")
    back = wire.decode(wire.encode(accountant))
    assert isinstance(back, PrivacyAccountant) and back.spent_epsilon == pytest.approx(0.25)
    assert back.can_spend_all([0.25, 0.5]) and not back.can_spend_all([0.25, 0.5, 1e-12])  # exact sums survive


@pytest.mark.parametrize("node", [{"t": "fraction", "n": "1", "d": "0"}, {"t": "fraction", "n": "x", "d": "2"},
                                  {"t": "fraction", "n": 1, "d": "2"}, {"t": "fraction", "n": "1" * 6000, "d": "3"}])
def test_wire_refuses_bad_fractions(node):
    with pytest.raises(wire.WireError):
        wire.decode(node)


@pytest.mark.parametrize("node", [
    {"t": "array", "b": base64.b64encode(b"not npy").decode()},
    {"t": "bytes", "v": 5},
    {"t": "list", "v": [{"t": "int", "v": 1}, "bare"]},
    {"t": "course", "cls": "os:system", "state": {"t": "dict", "v": []}},
    {"t": "course", "cls": "mic_dp_teacher.grading.runner:Settings", "state": {"t": "dict", "v": []}},
    {"t": "pickle", "v": base64.b64encode(pickle.dumps(print)).decode()},
    {"t": "objarray", "shape": [3], "v": [{"t": "none"}]},
])
def test_wire_refuses_malformed_or_unsafe_messages(node):
    with pytest.raises(wire.WireError):
        wire.decode(node)


def test_wire_never_unpickles_an_object_array():
    buffer = io.BytesIO()
    np.save(buffer, np.array([print], dtype=object), allow_pickle=True)
    with pytest.raises(wire.WireError):
        wire.decode({"t": "array", "b": base64.b64encode(buffer.getvalue()).decode()})


def test_wire_refuses_arbitrary_objects_without_a_handler():
    with pytest.raises(wire.WireError, match="cannot be sent"):
        wire.encode(object())


def test_check_prints_one_line_and_shows_nothing_more(capsys):
    result = check("00.1", lambda values, threshold: (np.asarray(values) > threshold).mean())
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith(("✅", "❌"))
    assert hasattr(result, "_ipython_display_") and result._ipython_display_() is None


def test_stale_not_implemented_says_run_the_cell_first():
    def share(values, threshold):
        raise NotImplementedError("Exercise: write your code here, then run the check below.")

    message = run_check("00.1", share).message
    assert "still raises NotImplementedError" in message and "run that cell first" in message
    assert "still raises NotImplementedError" in run_check("00.1", share, in_kernel=False).message


def test_check_is_running_names_the_exercise_only_inside_the_students_function():
    assert check_is_running() is None
    seen = []
    run_check("00.1", lambda values, threshold: seen.append(check_is_running()) or 0.5)
    assert seen and set(seen) == {"00.1"}
    assert check_is_running() is None

def test_callables_handed_to_the_student_run_as_checker_code():
    inner = []
    guarded = _core._Guarded(lambda callback: callback(), "03.3")
    guarded(lambda: inner.append(check_is_running()))
    assert inner == [None]


def test_exercise_ids_stay_strings():
    assert exercise_column("01.1") == "ex_01.1"
    rows = [GradeRow("a/x.ipynb", "01.1", True, "ok", "passed", "a", 1.0, 1.0)]
    table = wide_table(rows, ["a", "b"], ["01.1"], {})
    assert table[0]["ex_01.1"] == "1" and table[1]["problems"] == "missing"


def test_lesson_is_found_from_metadata_name_or_checks_called():
    assert lesson_of("x.ipynb", {"mic_dp": {"lesson": "02"}}, []) == "02"
    assert lesson_of("ann_03_privacy_budget.ipynb", {}, []) == "03"
    assert lesson_of("homework.ipynb", {}, ["check('01.2', f)"]) == "01"
    assert lesson_of("homework.ipynb", {}, ["print(1)"]) is None


def test_file_name_lesson_wins_over_the_metadata():
    assert lesson_of("01_anonymization_fails_exercises.ipynb", {"mic_dp": {"lesson": "00"}}, []) == "01"
    assert lesson_of("alice.ipynb", {"mic_dp": {"lesson": 3}}, ["check('01.2', f)"]) == "03"
    assert lesson_of("x.ipynb", {"mic_dp": {"lesson": True}}, []) is None


def _settings(tmp_path):
    from mic_dp_teacher.grading.runner import Settings

    return Settings(run_base=str(tmp_path))


def test_a_stray_untitled_notebook_is_a_note_not_a_problem(tmp_path):
    import nbformat

    from mic_dp_teacher.grading.runner import find_submissions, grade_one

    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "Untitled.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    [sub] = find_submissions(tmp_path)
    [row] = grade_one(sub, _settings(tmp_path))
    assert (row.exercise, row.status, row.points, row.max_points) == ("notebook", "note", 0, 0)
    assert "not a course notebook" in row.message and "does not count" in row.message


def test_a_folder_named_like_a_notebook_gets_a_problem_row(tmp_path):
    from mic_dp_teacher.grading.runner import find_submissions, grade_one

    inner = tmp_path / "x" / "01_anonymization_fails_exercises.ipynb"
    inner.mkdir(parents=True)
    (inner / "inner.ipynb").write_text("{}")
    [sub] = find_submissions(tmp_path)
    assert sub.name == "x/01_anonymization_fails_exercises.ipynb" and sub.student == "x"
    [row] = grade_one(sub, _settings(tmp_path))
    assert row.status == "problem" and "is a folder, not a notebook file" in row.message


@pytest.mark.parametrize("text", ['=HYPERLINK("http://evil","x")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "'quoted",
                                  "plain", "01.1", ""])
def test_csv_text_cells_are_escaped_and_read_back_unchanged(text):
    import csv as csv_module

    from mic_dp_teacher.grading import report

    row = GradeRow(f"{text}/01_a.ipynb", "01.1", True, text, "passed", text, 2.0, 2.0, "ab" * 32)
    line = report.long_csv_lines([row])
    cells = next(csv_module.reader(io.StringIO(line, newline="")))
    assert all(not cell.startswith(report.FORMULA_START) for cell in cells if cell not in ("2",))
    assert cells[5:7] == ["2", "2"]  # numbers stay numbers
    back = report.row_from_dict(dict(zip(report.LONG_COLUMNS, cells)))
    assert back == row


def test_wide_csv_escapes_text_but_keeps_numbers(tmp_path):
    from mic_dp_teacher.grading import report

    path = tmp_path / "wide.csv"
    report.write_csv(path, [{"student": "=cmd|' /C calc'!A0", "ex_01.1": "-1", "score": "-1", "problems": "-x"}],
                     ["student", "ex_01.1", "score", "problems"], numeric=["ex_01.1", "score"])
    table = pd.read_csv(path)
    assert table.loc[0, "student"] == "'=cmd|' /C calc'!A0" and table.loc[0, "problems"] == "'-x"
    assert table.loc[0, "ex_01.1"] == -1 and table.loc[0, "score"] == -1


# ----------------------------------------------------------------- which notebook counts, file names
def _graded(name, student, passed, lesson="01"):
    """Rows of one graded notebook: exercise i of the lesson passed when i is in ``passed``."""
    from mic_dp_helpers.checks import exercises_for_lesson

    return [GradeRow(name, spec.id, i in passed, "m", "passed" if i in passed else "wrong", student,
                     1.0 if i in passed else 0.0, 1.0, "s")
            for i, spec in enumerate(exercises_for_lesson(lesson), 1)]


CANONICAL = {"01": "01_anonymization_fails_exercises.ipynb", "07": "07_selection_and_local_dp_exercises.ipynb"}


def _policy(rows, found, given=None):
    from mic_dp_teacher.grading import report

    lessons = counting.assignment_lessons(found, given)["lessons"]
    return counting.apply_policy(rows, found, lessons, CANONICAL), lessons


def test_the_top_level_exercise_file_counts_and_a_better_copy_does_not():
    from mic_dp_teacher.grading import report

    top, copy = "h/01_anonymization_fails_exercises.ipynb", "h/copy/01_anonymization_fails_exercises.ipynb"
    rows, lessons = _policy(_graded(top, "h", {1, 2}) + _graded(copy, "h", {3, 4}),
                            [(top, "h", "01"), (copy, "h", "01")])
    result = report.student_results(rows, None, ["01.1", "01.2", "01.3", "01.4"], {})["h"]
    assert result["score"] == 2 and result["max_score"] == 4 and result["not_counted"] == [copy]
    notes = {r.submission: r.message for r in rows if r.status == "note"}
    assert notes[copy].startswith("not counted:") and f"`{top}` counts" in notes[copy]
    assert notes[top].startswith("counted:")
    assert sum(r.points for r in rows) == 2 and sum(r.max_points for r in rows) == 4  # the long CSV agrees


def test_without_a_top_level_exercise_file_the_lowest_score_counts():
    from mic_dp_teacher.grading import report

    a, b = "h/01_anonymization_fails_exercises-Copy1.ipynb", "h/old/01_mine.ipynb"
    rows, _ = _policy(_graded(a, "h", {1, 2, 3, 4}) + _graded(b, "h", {1}), [(a, "h", "01"), (b, "h", "01")])
    assert report.student_results(rows, None, ["01.1", "01.2", "01.3", "01.4"], {})["h"]["score"] == 1
    assert "lowest-scoring" in next(r.message for r in rows if r.submission == a and r.status == "note")


def test_lessons_handed_in_by_fewer_than_half_add_no_columns_and_no_points():
    from mic_dp_teacher.grading import report

    found, rows = [], []
    for student in ("a", "b", "c"):
        name = f"{student}/01_anonymization_fails_exercises.ipynb"
        found.append((name, student, "01"))
        rows += _graded(name, student, {1, 2, 3, 4})
    extra = "c/07_selection_and_local_dp_exercises.ipynb"
    found.append((extra, "c", "07"))
    rows += _graded(extra, "c", {1}, lesson="07")
    policed, lessons = _policy(rows, found)
    assert lessons == ["01"]
    table = wide_table(policed, None, ["01.1", "01.2", "01.3", "01.4"], {})
    assert [(line["score"], line["max_score"]) for line in table] == [("4", "4")] * 3
    note = next(r.message for r in policed if r.submission == extra and r.status == "note")
    assert note.startswith("not counted: lesson 07 is not part of this assignment")
    _, given = _policy(rows, found, ["01", "07"])  # --lessons 01,07 counts lesson 07 for everyone
    assert given == ["01", "07"]
    info = counting.assignment_lessons(found, None)
    assert info["students_per_lesson_handed_in"] == {"01": 3, "07": 1} and "at least half" in info["rule"]


def test_summary_feedback_and_wide_agree_and_resume_recomputes_the_policy():
    from mic_dp_teacher.grading import report

    top, copy = "h/01_anonymization_fails_exercises.ipynb", "h/01_anonymization_fails_exercises-Copy1.ipynb"
    found = [(top, "h", "01"), (copy, "h", "01")]
    raw = _graded(top, "h", {1, 2, 3, 4}) + _graded(copy, "h", set())
    rows, _ = _policy(raw, found)
    ids = ["01.1", "01.2", "01.3", "01.4"]
    assert "4/4" in report.summary_table(rows, None, ids, {}).splitlines()[2]
    assert "Score: **4 / 4**" in report.feedback_markdown("h", rows, report.student_results(rows, None, ids, {})["h"])
    assert wide_table(rows, None, ids, {})[0]["score"] == "4"
    back = [counting.raw_row(r, {}) for r in rows if not counting.is_policy_row(r)]  # what a resumed run starts from
    assert sorted(back, key=repr) == sorted(raw, key=repr)


def test_file_names_are_unique_and_stable():
    from mic_dp_teacher.grading import report

    names = report.unique_file_names(["zoé", "zoè", "alice", "Alice", "bob", "a/b"])
    assert len({n.casefold() for n in names.values()}) == 6
    assert names["bob"] == "bob" and names["zoé"].startswith("zo-") and names["zoé"] != names["zoè"]
    assert report.unique_file_names(["zoé"])["zoé"] == names["zoé"]  # the same student, the same file
    outputs = report.output_file_names(["a/b.ipynb", "a__b.ipynb", "ann/01_x.ipynb"])
    assert outputs["ann/01_x.ipynb"] == "ann__01_x.ipynb" and outputs["a/b.ipynb"] != outputs["a__b.ipynb"]
