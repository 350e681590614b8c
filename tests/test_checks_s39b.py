"""Referee s39rB (07.3, 07.4, 09.1): noise memoised per setting and reused on other data, Laplace noise clipped at
8 scales, and the true hints for clipped noise and for a stream seeded by the customer id."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers.lesson07_09_s39b import HINT_WORDS, MORE_WRONG_ANSWERS

_CASES = [(exercise_id, mistake) for exercise_id, answers in MORE_WRONG_ANSWERS.items() for mistake in answers]


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id, mistake", _CASES)
def test_s39b_answer_fails_with_a_true_hint(exercise_id, mistake):
    result = run_check(exercise_id, MORE_WRONG_ANSWERS[exercise_id][mistake])
    assert result.status == "failed", f"{mistake!r} was accepted"
    words = [word for key, word in HINT_WORDS.items() if key in mistake]
    assert all(word in result.message for word in words), result.message
    assert "lean to the" not in result.message and ("clipped" not in mistake or "stored draw" not in result.message)
