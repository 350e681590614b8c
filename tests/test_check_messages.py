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
