"""Statistical checks of lessons 05-06 reject a correct answer at most once in 200 seeds (see the 02-04 file)."""

from __future__ import annotations

import pytest

from check_rates import RANDOM_EXERCISES
from test_check_false_rejection import assert_rarely_rejected


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", [ex for ex in RANDOM_EXERCISES if "05" <= ex < "07"])
def test_correct_answer_is_rarely_rejected(exercise_id):
    assert_rarely_rejected(exercise_id)
