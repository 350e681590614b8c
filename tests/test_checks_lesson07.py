"""Lesson 07's checks accept honest variants of the answers (issue 26): other valid ways to write them."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers.lesson07 import HONEST_ANSWERS


@pytest.mark.parametrize("exercise_id, name", [(ex, name) for ex, answers in HONEST_ANSWERS.items() for name in answers])
def test_honest_variant_passes(exercise_id, name):
    result = run_check(exercise_id, HONEST_ANSWERS[exercise_id][name])
    assert result.passed, f"{exercise_id} {name}: {result.message}"
