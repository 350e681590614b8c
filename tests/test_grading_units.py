"""Pieces of the grader without a kernel: the wire format, the student-facing check line, forbidden helpers."""

from __future__ import annotations

import base64
import io
import pickle

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.accounting import PrivacyAccountant
from mic_dp_helpers.checks import _core, check, check_is_running, forbidden_inside_checks, run_check
from mic_dp_helpers.grading import wire
from mic_dp_helpers.grading.report import exercise_column, wide_table
from mic_dp_helpers.grading.runner import GradeRow, lesson_of


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
    {"t": "course", "cls": "mic_dp_helpers.grading.runner:Settings", "state": {"t": "dict", "v": []}},
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


def test_forbidden_helper_refuses_only_inside_the_students_function():
    @forbidden_inside_checks("00.1")
    def course_answer(values, threshold):
        return float((np.asarray(values) > threshold).mean())

    assert course_answer([1, 2], 1.5) == 0.5  # outside a check: fine
    result = run_check("00.1", lambda values, threshold: course_answer(values, threshold))
    assert result.status == "failed" and "write it yourself" in result.message
    assert check_is_running() is None
    seen = []
    run_check("00.1", lambda values, threshold: seen.append(check_is_running()) or 0.5)
    assert seen and set(seen) == {"00.1"}


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
    from mic_dp_helpers.grading.runner import Settings

    return Settings(run_base=str(tmp_path))


def test_a_stray_untitled_notebook_is_a_note_not_a_problem(tmp_path):
    import nbformat

    from mic_dp_helpers.grading.runner import find_submissions, grade_one

    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "Untitled.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    [sub] = find_submissions(tmp_path)
    [row] = grade_one(sub, _settings(tmp_path))
    assert (row.exercise, row.status, row.points, row.max_points) == ("notebook", "note", 0, 0)
    assert "not a course notebook" in row.message and "does not count" in row.message


def test_a_folder_named_like_a_notebook_gets_a_problem_row(tmp_path):
    from mic_dp_helpers.grading.runner import find_submissions, grade_one

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

    from mic_dp_helpers.grading import report

    row = GradeRow(f"{text}/01_a.ipynb", "01.1", True, text, "passed", text, 2.0, 2.0, "ab" * 32)
    line = report.long_csv_lines([row])
    cells = next(csv_module.reader(io.StringIO(line, newline="")))
    assert all(not cell.startswith(report.FORMULA_START) for cell in cells if cell not in ("2",))
    assert cells[5:7] == ["2", "2"]  # numbers stay numbers
    back = report.row_from_dict(dict(zip(report.LONG_COLUMNS, cells)))
    assert back == row


def test_wide_csv_escapes_text_but_keeps_numbers(tmp_path):
    from mic_dp_helpers.grading import report

    path = tmp_path / "wide.csv"
    report.write_csv(path, [{"student": "=cmd|' /C calc'!A0", "ex_01.1": "-1", "score": "-1", "problems": "-x"}],
                     ["student", "ex_01.1", "score", "problems"], numeric=["ex_01.1", "score"])
    table = pd.read_csv(path)
    assert table.loc[0, "student"] == "'=cmd|' /C calc'!A0" and table.loc[0, "problems"] == "'-x"
    assert table.loc[0, "ex_01.1"] == -1 and table.loc[0, "score"] == -1
