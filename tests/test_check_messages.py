"""A check's message names who stopped it: the student's line, a built-in used as the answer, or the check itself
(referee s38rD D6, D7)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from mic_dp_helpers.checks import run_check


@pytest.mark.parametrize(("exercise_id", "answer"), [
    ("02.2", max), ("02.1", np.add), ("02.2", np.sqrt), ("02.1", functools.partial(np.random.laplace, 0.0)),
])
def test_a_builtin_or_library_function_as_the_answer_is_named_not_blamed_on_the_check(exercise_id, answer):
    result = run_check(exercise_id, answer)
    assert result.status == "failed" and "a built-in or library function" in result.message
    assert "the check stopped" not in result.message and "of your code" not in result.message


def _quantile_out_of_range(value, sensitivity, epsilon, rng):
    return float(np.quantile([value], 7.0))  # raises inside NumPy's Python code


class _CallableObject:
    def __call__(self, value, sensitivity, epsilon, rng):
        raise ValueError("raised by the student's __call__")


@pytest.mark.parametrize("answer", [_quantile_out_of_range, _CallableObject()])
def test_an_error_in_a_library_called_by_the_student_points_at_the_students_line(answer):
    result = run_check("02.1", answer)
    assert result.status == "failed" and "of your code" in result.message
    line = int(result.message.split("(line ")[1].split()[0])
    assert line < 40, result.message  # a line of this file, not of numpy/lib/function_base.py (thousands)


@pytest.mark.parametrize("exercise_id", ["02.1", "02.2", "04.3", "08.4"])
def test_an_integer_too_large_for_a_float_gets_a_hint(exercise_id):
    result = run_check(exercise_id, lambda *args: 10**400)
    assert result.status == "failed" and "too large for a float" in result.message


def test_an_enormous_sigma_for_03_4_is_told_it_is_larger_than_needed():
    result = run_check("03.4", lambda k, total_epsilon, delta, sensitivity: 1e300)
    assert result.status == "failed" and "larger than needed" in result.message


class _Base:
    def __call__(self, value, sensitivity, epsilon, rng):
        raise ValueError("raised by an inherited __call__")


class _Inherits(_Base):
    pass


def _mean_of_nothing(value, sensitivity, epsilon, rng):
    import statistics

    return statistics.mean([])  # raises inside the standard library


@pytest.mark.parametrize("answer", [_Inherits(), _mean_of_nothing])
def test_an_inherited_call_or_a_standard_library_error_is_the_students_line(answer):
    """Referee s39rE D5, D6: a class that inherits __call__ is Python code; a stdlib line is not the student's."""
    result = run_check("02.1", answer)
    assert "a built-in or library function" not in result.message and "of your code" in result.message
    assert int(result.message.split("(line ")[1].split()[0]) < 100, result.message


def test_the_checks_own_crash_in_a_library_is_not_blamed_on_the_student():
    """Referee s39rE D4: an error raised in pandas called by the check itself (no line of the student's between)."""
    from mic_dp_helpers.checks._core import _error_message

    def check_frame():
        import pandas as pd

        pd.Series([1]).iloc[5]  # IndexError inside pandas, called from a frame that is not the student's

    check_frame.__code__ = check_frame.__code__.replace(co_filename="/x/mic_dp_helpers/checks/fake.py")
    try:
        check_frame()
    except IndexError as error:
        message = _error_message(error, _mean_of_nothing)
    assert message.startswith("the check stopped"), message
