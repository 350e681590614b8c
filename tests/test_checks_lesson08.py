"""Lesson 08's checks accept honest variants of a correct answer (float32, loops, LP solvers, other accountants)."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers.lesson08 import HONEST_ANSWERS


#: Variants that run the check for 40 s (a Python loop over 1,000s of rows in every call): slow tests.
SLOW_VARIANTS = {("08.2", "a loop over rows")}


@pytest.mark.parametrize("exercise_id, variant", [
    pytest.param(ex, name, marks=pytest.mark.slow) if (ex, name) in SLOW_VARIANTS else (ex, name)
    for ex, answers in HONEST_ANSWERS.items() for name in answers])
def test_an_honest_variant_passes(exercise_id, variant):
    result = run_check(exercise_id, HONEST_ANSWERS[exercise_id][variant])
    assert result.passed, result.message
