"""Lesson 08's checks accept honest variants of a correct answer (float32, loops, LP solvers, other accountants)."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers import COSTLY_CHECKS, lesson08, lesson08_noise

HONEST_ANSWERS = {**lesson08.HONEST_ANSWERS, **lesson08_noise.HONEST_ANSWERS}


#: Variants whose check takes 3 to 40 s (a Python loop over 1,000s of rows in every call; PLD accounting
#: at many settings): slow tests, which CI runs.
SLOW_VARIANTS = {("08.2", "a loop over rows"), ("08.3", "PLD with the default grid"), ("08.3", "PLD on a coarse 5e-3 grid"),
                 ("08.3", "RDP with other orders")}


@pytest.mark.parametrize("exercise_id, variant", [
    pytest.param(ex, name, marks=pytest.mark.slow) if (ex, name) in SLOW_VARIANTS or ex in COSTLY_CHECKS
    else (ex, name)
    for ex, answers in HONEST_ANSWERS.items() for name in answers])
def test_an_honest_variant_passes(exercise_id, variant):
    result = run_check(exercise_id, HONEST_ANSWERS[exercise_id][variant])
    assert result.passed, result.message
