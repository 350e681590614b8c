"""Lesson 08's checks accept honest variants of a correct answer (float32, loops, LP solvers, other accountants)."""

from __future__ import annotations

import pytest

from mic_dp_helpers.checks import run_check
import numpy as np

from mic_dp_helpers.checks import EXERCISES
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._near_relations import check_no_near_copies
from wrong_answers import (
    COSTLY_CHECKS, lesson05_07_08_s39c, lesson05_08_s40d, lesson08, lesson08_dims, lesson08_noise, lesson08_s37,
    lesson08_s38)

HONEST_ANSWERS = {**lesson08.HONEST_ANSWERS, **lesson08_noise.HONEST_ANSWERS}
for _exercise, _answers in lesson08_s38.HONEST_ANSWERS.items():
    HONEST_ANSWERS[_exercise] = {**HONEST_ANSWERS.get(_exercise, {}), **_answers}


#: Variants whose check takes 3 to 40 s (PLD accounting at many settings): slow tests, which CI runs.
SLOW_VARIANTS = {("08.3", "PLD with the default grid"), ("08.3", "PLD on a coarse 5e-3 grid"),
                 ("08.3", "RDP with other orders")}


@pytest.mark.parametrize("exercise_id, variant", [
    pytest.param(ex, name, marks=pytest.mark.slow) if (ex, name) in SLOW_VARIANTS or ex in COSTLY_CHECKS
    else (ex, name)
    for ex, answers in HONEST_ANSWERS.items() for name in answers])
def test_an_honest_variant_passes(exercise_id, variant):
    result = run_check(exercise_id, HONEST_ANSWERS[exercise_id][variant])
    assert result.passed, result.message


def test_a_wrong_delta_term_is_not_called_inaccurate():
    """Referee s37rC (D13): ``min(1, tanh(eps/2) + delta)`` was told "right idea, not accurate enough" (its error
    is 4.6e-6 at delta 1e-5); the hint now describes its largest error, a bound larger than the exact one."""
    result = run_check("08.4", lesson08_dims.ADVANTAGES[
        "tanh(epsilon / 2) + delta (delta not shrunk by 2 / (e^epsilon + 1))"])
    assert result.status == "failed" and "not accurate enough" not in result.message
    assert "larger than the largest advantage" in result.message


def test_an_overflow_above_709_gets_an_overflow_hint():
    for name in ("(parameters) the closed form with math.exp (OverflowError above epsilon 709.78)",
                 "(parameters) the closed form with np.exp (NaN above epsilon 709.78)"):
        result = run_check("08.4", lesson08_dims.ADVANTAGES[name])
        assert result.status == "failed" and "overflows" in result.message, (name, result.message)


@pytest.mark.slow
@pytest.mark.parametrize("mistake, words", [
    ("non-private (shape): noise in blocks [z, w, -z, w] from 17 weights (referee s37rC)", "noise in every call"),
    ("non-private (data): sampling with replacement (rng.choice's default; referee s37rC)", "more than once")])
def test_08_5_hints_name_the_error(mistake, words):
    """Referee s37rC (D13): correlated coordinates were told that the same release came out again and again."""
    result = run_check("08.5", lesson08_s37.MORE_WRONG_ANSWERS["08.5"][mistake])
    assert result.status == "failed" and words in result.message and "again and again" not in result.message


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id, mistake, words", [
    ("08.2", "non-private (shape): coordinates copied in random pairs, random signs, 1e-4 sd jitter (referee s38rC)",
     "pairs of coordinates of one call"),
    ("08.2", "non-private (calls): the previous call's noise reused permuted and signed, 1e-4 sd jitter (referee "
     "s38rC)", "reused from an earlier call"),
    ("08.2", "non-private: the exact sum in 1 call of 10,000 (referee s38rC)", "no noise at all"),
    ("08.2", "non-private (data): clipped to the median gradient norm when smaller (referee s38rC)",
     "norm read from the data"),
    ("08.5", "non-private (calls): the previous call's noise reused permuted and signed every third call from 9 "
     "weights, 1e-4 sd jitter (referee s38rC)", "reused from an earlier call")])
def test_s38_hints_name_the_error(exercise_id, mistake, words):
    """Referee s38rC (D1, D2, D6, D8): near copies and rare noiseless calls passed; a clipping norm read from the
    data was told "too much noise"."""
    result = run_check(exercise_id, lesson08_s38.MORE_WRONG_ANSWERS[exercise_id][mistake])
    assert result.status == "failed" and words in result.message, result.message
    assert "too much noise" not in result.message


@pytest.mark.parametrize("mistake", list(lesson05_07_08_s39c.MORE_WRONG_ANSWERS["08.4"]))
def test_s39_a_wrong_delta_term_is_named(mistake):
    """Referee s39rC (D4, D5): delta halved below epsilon 1e-3 was told "the epsilon term is wrong" (with delta
    0.999999 printed as 1), delta dropped below 1e-4 "right idea, not accurate enough"."""
    result = run_check("08.4", lesson05_07_08_s39c.MORE_WRONG_ANSWERS["08.4"][mistake])
    assert result.status == "failed" and "the delta term is wrong" in result.message, result.message
    assert "epsilon term" not in result.message and "not accurate enough" not in result.message
    assert "delta=1:" not in result.message


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id, mistake", [
    (ex, name) for ex in ("08.2", "08.5") for name in lesson05_07_08_s39c.HINT_WORDS])
def test_s39_hints_say_what_was_seen(exercise_id, mistake):
    """Referee s39rC (D2, D3): a noise scale drawn per call was told "some coordinates' noise is copied from
    others", noise correlated between neighbouring coordinates "the noise of one call predicts the noise 1 call
    later"."""
    result = run_check(exercise_id, lesson05_07_08_s39c.MORE_WRONG_ANSWERS[exercise_id][mistake])
    allowed, untrue = lesson05_07_08_s39c.HINT_WORDS[mistake]
    assert result.status == "failed" and any(words in result.message for words in allowed), result.message
    lowered = result.message.lower()  # referee s40rC D3: the hint's wording changed case, the test could not fail
    assert untrue.lower() not in lowered, result.message
    if "less noise than others" in allowed:  # copies are never named alone for a scale drawn per call
        assert "copied" not in lowered or "less noise than others" in lowered, result.message


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id, mistake", [
    (ex, name) for ex in ("08.2", "08.5") for name in lesson05_08_s40d.MORE_WRONG_ANSWERS[ex]])
def test_s40_too_little_noise_is_named(exercise_id, mistake):
    """Referee s40rC (D1): noise 0.9-0.97 times too small in every call was told "copied or reused noise, or a
    noise scale that changes from call to call"."""
    result = run_check(exercise_id, lesson05_08_s40d.MORE_WRONG_ANSWERS[exercise_id][mistake])
    allowed, untrue = lesson05_08_s40d.HINT_WORDS[mistake]
    assert result.status == "failed" and any(words in result.message for words in allowed), result.message
    assert not any(words in result.message.lower() for words in untrue), result.message


@pytest.mark.parametrize("factor, shape", [(0.9, (4, 2925)), (0.9, (30_000, 3)), (0.95, (4, 20_000))])
def test_near_pairs_of_too_little_noise_are_called_too_little_noise(factor, shape):
    """Referee s40rC (D1): near pairs counted in nominal units rise when the noise is too small by one factor;
    the hint now says so, and copies (scaled alike) still get the copy hint."""
    units = factor * np.random.default_rng(40).standard_normal(shape)
    with pytest.raises(CheckFailed, match="there is too little noise: ") as failure:
        check_no_near_copies([(units, "With these:", 1e-16)])
    assert abs(float(str(failure.value).split("noise: ")[1].split()[0]) - factor) < 0.01, str(failure.value)
    check_no_near_copies([(units, "With these:", 1e-16)], scale_free=True)
    half = shape[1] // 2
    units[:, half:2 * half] = -units[:, :half] + 1e-4 * factor
    with pytest.raises(CheckFailed, match="noise is copied"):
        check_no_near_copies([(units, "With these:", 1e-16)])


@pytest.mark.parametrize("mistake", list(lesson05_08_s40d.SEEDS_084))
def test_s40_an_epsilon_term_error_is_not_called_a_delta_term_error(mistake):
    """Referee s40rC (D4): delta returned for epsilon below 1e-5 was told "the delta term is wrong. Yours is -70
    times 2 delta / (e^epsilon + 1)" at seeds 26, 42, 61 (12 of 200)."""
    for seed in lesson05_08_s40d.SEEDS_084[mistake]:
        with pytest.raises(CheckFailed) as failure:
            EXERCISES["08.4"].checker(lesson05_08_s40d.MORE_WRONG_ANSWERS["08.4"][mistake], seed=seed)
        assert "the epsilon term is wrong" in str(failure.value) and "delta term" not in str(failure.value)
