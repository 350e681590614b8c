"""Verdicts the student's kernel must not be able to forge or dodge.

- The course's own helpers that an exercise forbids refuse to run inside the *kernel* while that
  exercise's check calls the student's function, exactly as the notebook's ``check()`` refuses them
  (direct hand-in, alias, wrapper, try/except, a table or guard patched beforehand, the original code put
  back during the call and left there): the verdict is "wrong" with the notebook's message.
- A time-out is reported only when a timer really ran out: raising the kernel's own ``_Timeout``, flipping
  its flag, or writing a forged reply on the pipe gives "wrong", not "problem". A forged "could not read
  the arguments" reply is "wrong" too.
"""

from __future__ import annotations

import pytest

from mic_dp_helpers.attacks import anonymity
from mic_dp_teacher import grading
from mic_dp_teacher.grading import worker
from test_grading import EXERCISES_01, IMPORTS, TIMEOUT, WRONG_01_1, _rows, _solution_cells, _write

COURSE_ANSWER = "is the course's own answer to this exercise; the exercise asks you to write it yourself"
LESSON_02 = "02_laplace_mechanism_exercises.ipynb"

FIND = "import gc, json, os, struct\n" \
       "W = [o for o in gc.get_objects() if type(o).__name__ == 'Worker'][0]\n" \
       "def forge(message):\n    data = json.dumps(message).encode()\n" \
       "    os.write(W.fd_out, struct.pack('>Q', len(data)) + data)\n"


# ------------------------------------------------------------------------- in-process, no kernel
def test_forbidden_helpers_refuse_by_identity_and_are_put_back():
    helpers = worker._ForbiddenHelpers()
    original = anonymity.uniqueness_share
    record: list[str] = []
    installed = helpers.install("01.1", record)
    try:
        with pytest.raises(RuntimeError, match="course's own answer"):
            original(None, [])  # a reference taken before the check refuses too: same function object
    finally:
        helpers.remove(installed, record)
    assert record and "mic_dp_helpers.attacks.anonymity.uniqueness_share" in record[0]
    assert anonymity.uniqueness_share is original and original.__code__ is helpers.functions[
        "mic_dp_helpers.attacks.anonymity:uniqueness_share"][1]
    assert helpers.install("03.1", []) == []  # not forbidden for another lesson's exercise


def test_forbidden_helper_put_back_by_the_student_counts_as_a_call():
    helpers = worker._ForbiddenHelpers()
    code = helpers.functions["mic_dp_helpers.attacks.anonymity:k_anonymity"][1]
    record: list[str] = []
    installed = helpers.install("01.3", record)
    anonymity.k_anonymity.__code__ = code  # the student's function undoes the stand-in, calls it...
    helpers.remove(installed, record)
    assert record and "k_anonymity" in record[0]
    assert anonymity.k_anonymity.__code__ is code


def test_a_student_raised_timeout_is_not_a_timeout():
    worker._Clock.fired = False
    with pytest.raises(worker._Timeout):
        raise worker._Timeout()
    assert not worker._Clock.fired  # only the alarm handler sets it
    with pytest.raises(worker._Timeout):
        worker._on_alarm(None, None)
    assert worker._Clock.fired
    worker._Clock.fired = False


# ------------------------------------------------------------------------------- graded notebooks
@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verdicts")
    solution = _solution_cells()
    # the red-team's hand-in: the course's helpers as the answers
    _write(folder, "h_helpers", [IMPORTS, "from mic_dp_helpers.attacks.anonymity import uniqueness_share",
                                 "from mic_dp_helpers.attacks.anonymity import matching_records\n"
                                 "def linkage_candidates(released, age, zip_code, salary_low, salary_high):\n"
                                 "    m = matching_records(released, age=age, zip_code=zip_code)\n"
                                 "    return m[m['salary'].between(salary_low, salary_high)]",
                                 "from mic_dp_helpers.attacks.anonymity import k_anonymity as k_anonymity_level",
                                 "from mic_dp_helpers.attacks.anonymity import homogeneity_exposure"])
    # ... and ways around a guard that lives in the kernel
    _write(folder, "h_helpers_tricks", [
        IMPORTS,
        # the table and the guard the notebook's check uses are emptied first
        "from mic_dp_helpers.checks import _core as _guard\nimport contextlib\n_guard.FORBIDDEN.clear()\n"
        "_guard.forbidden_helpers = lambda targets, record: contextlib.nullcontext()\n"
        "import mic_dp_helpers.attacks.anonymity as A\ndef uniqueness_share(df, columns):\n    return A.uniqueness_share(df, columns)",
        # the original code is put back while the check runs (and left there)
        "import mic_dp_helpers.attacks.anonymity as A\nsaved = A.matching_records.__code__\n"
        "def linkage_candidates(released, age, zip_code, salary_low, salary_high):\n"
        "    A.matching_records.__code__, A.matching_records.__kwdefaults__ = saved, None\n"
        "    m = A.matching_records(released, age=age, zip_code=zip_code)\n"
        "    return m[m['salary'].between(salary_low, salary_high)]",
        # the refusal is swallowed and the student's own code answers
        "def _own_k(df, quasi_identifiers):\n    return int(df.groupby(list(quasi_identifiers)).size().min())",
        "from mic_dp_helpers.attacks.anonymity import k_anonymity\ndef k_anonymity_level(df, quasi_identifiers):\n"
        "    try:\n        return k_anonymity(df, quasi_identifiers)\n    except Exception:\n"
        "        return _own_k(df, quasi_identifiers)",
    ])
    _write(folder, "h_helpers_02", [
        "from mic_dp_helpers.mechanisms.noise import laplace_mechanism",
        "import numpy as np\ndef dp_bounded_sum(values, lower, upper, epsilon, rng):\n"
        "    clipped = np.clip(np.asarray(values, dtype=float), lower, upper)\n"
        "    return laplace_mechanism(float(clipped.sum()), max(abs(lower), abs(upper)), epsilon, rng)",
    ], name=LESSON_02, lesson="02")
    # honest: the course's helpers used outside the checks, and an answer of one's own
    _write(folder, "honest_helpers", solution + [
        "import mic_dp_helpers.attacks.anonymity as A\nfrom mic_dp_helpers.attacks.anonymity import uniqueness_share as course_share\n"
        "mine = uniqueness_share(released, ['age'])\nassert abs(course_share(released, ['age']) - mine) < 1e-12\n"
        "assert A.k_anonymity(released, ['age']) >= 1"])
    # fake time-outs and fake grader limitations
    _write(folder, "h_raise_timeout", [IMPORTS, "import gc\nT = [o for o in gc.get_objects() if isinstance(o, type) "
                                       "and o.__name__ == '_Timeout'][0]\ndef uniqueness_share(df, columns):\n    raise T()",
                                       "raise T()"])
    _write(folder, "h_flag_timeout", [IMPORTS, "import gc\nT = [o for o in gc.get_objects() if isinstance(o, type) "
                                      "and o.__name__ == '_Timeout'][0]\nC = [o for o in gc.get_objects() if "
                                      "isinstance(o, type) and o.__name__ == '_Clock'][0]\n"
                                      "def uniqueness_share(df, columns):\n    C.fired = True\n    raise T()"])
    _write(folder, "h_forged_timeout", [IMPORTS, FIND + "def uniqueness_share(df, columns):\n"
                                        "    forge({'op': 'result', 'timeout': True})\n    return 0.5"])
    _write(folder, "h_forged_bad_request", [IMPORTS, FIND + "def uniqueness_share(df, columns):\n"
                                            "    forge({'op': 'result', 'bad_request': 'cannot read'})\n    return 0.5"])
    _write(folder, "h_broken_reader", [IMPORTS, WRONG_01_1, "from mic_dp_teacher.grading import wire\n"
                                       "def refuse(*a, **k):\n    raise ValueError('cannot read')\nwire.decode = refuse"])
    return grading.grade_folder(folder, timeout=TIMEOUT, total_timeout=120, jobs=2, progress=False)


@pytest.mark.slow
def test_course_helpers_handed_in_are_wrong_with_the_notebooks_message(graded):
    rows = _rows(graded, "h_helpers")
    helper = {"01.1": "uniqueness_share", "01.2": "matching_records", "01.3": "k_anonymity", "01.4": "homogeneity_exposure"}
    for exercise in EXERCISES_01:
        assert rows[exercise].status == "wrong", rows[exercise]
        assert rows[exercise].message.startswith(f"not right yet. Hint: mic_dp_helpers.attacks.anonymity.{helper[exercise]} "
                                                 f"{COURSE_ANSWER} (do not call it"), rows[exercise]


@pytest.mark.slow
def test_course_helpers_stay_forbidden_whatever_the_notebook_patched(graded):
    rows = _rows(graded, "h_helpers_tricks")
    for exercise in ("01.1", "01.2", "01.3"):
        assert rows[exercise].status == "wrong" and COURSE_ANSWER in rows[exercise].message, rows[exercise]


@pytest.mark.slow
def test_course_mechanism_in_lesson_02_is_wrong(graded):
    rows = _rows(graded, "h_helpers_02")
    assert rows["02.1"].status == "wrong" and "mechanisms.noise.laplace_mechanism " + COURSE_ANSWER in rows["02.1"].message
    assert rows["02.4"].status == "wrong" and "mechanisms.noise.laplace_mechanism " + COURSE_ANSWER in rows["02.4"].message, \
        rows["02.4"]


@pytest.mark.slow
def test_course_helpers_outside_the_checks_are_fine(graded):
    rows = _rows(graded, "honest_helpers")
    assert all(rows[exercise].passed for exercise in EXERCISES_01), rows
    assert "notebook" not in rows or rows["notebook"].status != "problem", rows["notebook"]


@pytest.mark.slow
@pytest.mark.parametrize("student", ["h_raise_timeout", "h_flag_timeout", "h_forged_timeout"])
def test_a_fake_timeout_is_wrong_not_a_problem(graded, student):
    row = _rows(graded, student)["01.1"]
    assert row.status == "wrong" and "limit during the check" not in row.message, row
    assert "_Timeout" in row.message or "fake time-out" in row.message, row


@pytest.mark.slow
def test_a_timeout_raised_in_a_cell_is_reported_as_raised(graded):
    notebook = _rows(graded, "h_raise_timeout")["notebook"]
    assert "cell 3 raised _Timeout" in notebook.message and "ran past" not in notebook.message, notebook


@pytest.mark.slow
@pytest.mark.parametrize("student", ["h_forged_bad_request", "h_broken_reader"])
def test_a_fake_unreadable_request_is_wrong_not_a_grader_limitation(graded, student):
    row = _rows(graded, student)["01.1"]
    assert row.status == "wrong" and "could not run this check" not in row.message, row
