"""Referees s39rB and s40rB (07.3, 07.4, 09.1): noise memoised per setting and reused on other data, Laplace noise
clipped at 8 scales, the plain argmax when the best is near-certain, the exact mean on large data, kept days memoised
per customer and bound; the true hints for clipped or skipped noise, subtracted Gumbel noise, a stream seeded by the
customer id or by few seeds; and referee s40rB's honest answers."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
from wrong_answers import fresh_module, lesson07_09_s39b, lesson07_09_s40b

_CASES = [pytest.param(module, exercise_id, mistake, id=f"{module.__name__[-4:]}-{exercise_id}-{mistake}")
          for module in (lesson07_09_s39b, lesson07_09_s40b)
          for exercise_id, answers in module.MORE_WRONG_ANSWERS.items() for mistake in answers]


@pytest.mark.slow
@pytest.mark.parametrize("module, exercise_id, mistake", _CASES)
def test_s39b_answer_fails_with_a_true_hint(module, exercise_id, mistake):
    result = run_check(exercise_id, fresh_module(module).MORE_WRONG_ANSWERS[exercise_id][mistake])
    assert result.status == "failed", f"{mistake!r} was accepted"
    assert all(word in result.message for key, word in module.HINT_WORDS.items() if key in mistake), result.message
    untrue = getattr(module, "UNTRUE_WORDS", {})
    assert not any(word in result.message for key, word in untrue.items() if key in mistake), result.message
    assert "lean to the" not in result.message and ("clipped" not in mistake or "stored draw" not in result.message)


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id, name", [
    (exercise_id, name) for exercise_id, answers in lesson07_09_s40b.HONEST.items() for name in answers])
def test_s40b_honest_answer_passes(exercise_id, name):
    result = run_check(exercise_id, lesson07_09_s40b.HONEST[exercise_id][name])
    assert result.status == "passed", f"{name!r}: {result.message}"
