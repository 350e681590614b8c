"""Lesson 07's statistical checks reject a correct answer rarely: at most 1 of 200 seeds (target under 1 in 1,000).

``benchmarks/check_false_rejection.py 07.1 07.3 07.4 07.5`` runs 1,000 seeds and prints the rates.
"""

from __future__ import annotations

import pytest

from check_rates import RANDOM_EXERCISES
from test_check_false_rejection import assert_rarely_rejected


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", [ex for ex in RANDOM_EXERCISES if "07" <= ex < "08"])
def test_correct_answer_is_rarely_rejected(exercise_id):
    assert_rarely_rejected(exercise_id)
