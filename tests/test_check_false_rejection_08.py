"""Lesson 08's statistical checks (08.2, 08.5) reject a correct answer at most once in 200 seeds.

``benchmarks/check_false_rejection.py 08.2 08.5`` runs 1,000 seeds each and prints the rates.
"""

from __future__ import annotations

import pytest

from test_check_false_rejection import assert_rarely_rejected


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", ["08.2", "08.5"])
def test_correct_answer_is_rarely_rejected(exercise_id):
    assert_rarely_rejected(exercise_id)
