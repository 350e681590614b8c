"""Lesson 07's checks accept honest variants of the answers (issue 26): other valid ways to write them."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers import COSTLY_CHECKS
from wrong_answers.lesson07 import HONEST_ANSWERS


#: Variants whose check takes seconds (07.4 draws its noise in a Python loop): slow tests, which CI runs.
SLOW_VARIANTS = {("07.4", "Laplace as a difference of exponentials")}


@pytest.mark.parametrize("exercise_id, name", [
    pytest.param(ex, name, marks=pytest.mark.slow) if (ex, name) in SLOW_VARIANTS or ex in COSTLY_CHECKS
    else (ex, name)
    for ex, answers in HONEST_ANSWERS.items() for name in answers])
def test_honest_variant_passes(exercise_id, name):
    result = run_check(exercise_id, HONEST_ANSWERS[exercise_id][name])
    assert result.passed, f"{exercise_id} {name}: {result.message}"
