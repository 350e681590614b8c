"""Hints of 02.1 and 02.4 that name the actual error (referee s39rA D8), and the grid-anchoring test (D2) on
synthetic releases: noise rounded before adding is caught, a correct or a post-processed release is not."""

from __future__ import annotations

import numpy as np
import pytest

from mic_dp_helpers.checks import run_check
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._grid_anchor import check_not_anchored


def _mixture(low, high):
    def laplace_mechanism(value, sensitivity, epsilon, rng):  # mean |noise| b, variance above Laplace's
        scale = sensitivity / epsilon * (low if rng.random() < 0.5 else high)
        return float(value + rng.laplace(0.0, scale))
    return laplace_mechanism


def _sum_mixture(values, lower, upper, epsilon, rng):
    scale = max(abs(lower), abs(upper)) / epsilon * (0.5 if rng.random() < 0.5 else 1.5)
    return float(np.clip(values, lower, upper).sum()) + rng.laplace(0.0, scale)


def _float32_release(value, sensitivity, epsilon, rng):
    return np.float32(value + rng.laplace(0.0, sensitivity / epsilon))


@pytest.mark.parametrize(("exercise_id", "answer"), [("02.1", _mixture(0.5, 1.5)), ("02.1", _mixture(0.6, 1.4)),
                                                     ("02.4", _sum_mixture)])
def test_a_scale_mixture_is_told_the_scale_varies_not_that_it_adds_too_much_noise(exercise_id, answer):
    result = run_check(exercise_id, answer)
    assert result.status == "failed" and "varies from call to call" in result.message
    assert "more noise than needed" not in result.message


@pytest.mark.slow
def test_a_float32_release_is_told_float32_not_too_much_noise():
    result = run_check("02.1", _float32_release)
    assert result.status == "failed" and "float32" in result.message and "Too much noise" not in result.message


def _anchored(value, scale, share, rng, n=2000):
    step = scale * share
    return value + np.round(rng.laplace(0.0, scale, n) / step) * step


@pytest.mark.parametrize(("value", "scale", "share"), [(16.73519284, 1.0, 1e-6), (1234.5678912, 0.01, 1e-3),
                                                       (-7.19934e8, 4.9e5, 1e-6), (3.31234567, 2.0, 3e-7),
                                                       (0.0123456789, 1e-5, 0.1)])
def test_noise_rounded_before_it_is_added_is_caught(value, scale, share):
    releases = _anchored(value, scale, share, np.random.default_rng(1))
    with pytest.raises(CheckFailed, match="true answer plus a multiple"):
        check_not_anchored(releases, np.full(releases.shape, value), "x", scale)


@pytest.mark.parametrize("seed", range(20))
def test_a_correct_or_post_processed_release_is_not_called_anchored(seed):
    rng = np.random.default_rng(seed)
    value, scale = 10.0 ** rng.uniform(-3, 9) * rng.choice([-1, 1]), 10.0 ** rng.uniform(-4, 4)
    centres = np.full(2000, value)
    for releases in (value + rng.laplace(0.0, scale, 2000), np.round(value + rng.laplace(0.0, scale, 2000), 2),
                     (value + rng.laplace(0.0, scale, 2000)).astype(np.float32).astype(float),
                     np.round((value + rng.laplace(0.0, scale, 2000)) / (scale * 1e-3)) * (scale * 1e-3)):
        check_not_anchored(releases, centres, "x", scale)
