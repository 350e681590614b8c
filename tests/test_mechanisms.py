"""Tests of mic_dp_helpers.mechanisms.noise and the shared validators it uses.

Statistical tests use fixed seeds; tolerances are stated next to each assertion and are
several standard errors wide, so they do not fail by chance at these seeds or others.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from mic_dp_helpers._validation import as_generator, check_finite_float, check_probability
from mic_dp_helpers.mechanisms.noise import (
    gaussian_delta,
    gaussian_mechanism,
    gaussian_sigma_analytic,
    gaussian_sigma_classic,
    laplace_mechanism,
    laplace_scale,
)

# ------------------------------------------------------------------------------ as_generator


def test_as_generator_accepts_none_int_and_generator():
    assert isinstance(as_generator(None), np.random.Generator)
    assert as_generator(3).random() == as_generator(3).random()
    gen = np.random.default_rng(0)
    assert as_generator(gen) is gen
    assert isinstance(as_generator(np.int64(5)), np.random.Generator)


@pytest.mark.parametrize("bad", ["seed", 1.5, True, np.random.RandomState(0), [1, 2]])
def test_as_generator_rejects_other_types(bad):
    with pytest.raises(TypeError, match="rng must be None, a non-negative int seed or a numpy.random.Generator"):
        as_generator(bad)


def test_as_generator_rejects_negative_seed():
    with pytest.raises(ValueError, match="rng must be a non-negative integer seed, got -1"):
        as_generator(-1)


def test_new_validators():
    assert check_probability(0.0, "delta", allow_zero=True) == 0.0
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\), got 0.0"):
        check_probability(0.0, "delta")
    with pytest.raises(ValueError, match=r"total_delta must be in \[0, 1\), got 1.0"):
        check_probability(1.0, "total_delta", allow_zero=True)
    with pytest.raises(ValueError, match="lower is NaN"):
        check_finite_float(float("nan"), "lower")
    with pytest.raises(TypeError, match="upper must be a finite number, got str"):
        check_finite_float("3", "upper")


# ----------------------------------------------------------------------------------- Laplace


def test_laplace_scale():
    assert laplace_scale(1.0, 0.5) == 2.0
    assert laplace_scale(10, 2) == 5.0


def test_laplace_returns_float_for_scalars_and_arrays_for_arrays():
    assert isinstance(laplace_mechanism(3, 1.0, 1.0, rng=0), float)
    assert isinstance(laplace_mechanism(np.float32(3), 1.0, 1.0, rng=0), float)
    assert isinstance(laplace_mechanism(np.array(3.0), 1.0, 1.0, rng=0), float)
    out = laplace_mechanism([[1, 2], [3, 4]], 1.0, 1.0, rng=0)
    assert isinstance(out, np.ndarray) and out.shape == (2, 2) and out.dtype == np.float64


def test_laplace_is_reproducible_and_uses_the_given_generator():
    assert laplace_mechanism(5.0, 1.0, 1.0, rng=42) == laplace_mechanism(5.0, 1.0, 1.0, rng=42)
    gen = np.random.default_rng(42)
    first, second = laplace_mechanism(5.0, 1.0, 1.0, rng=gen), laplace_mechanism(5.0, 1.0, 1.0, rng=gen)
    assert first != second  # the caller's stream advances: no hidden re-seeding


def test_laplace_does_not_modify_its_input():
    values = np.arange(5.0)
    laplace_mechanism(values, 1.0, 1.0, rng=0)
    np.testing.assert_array_equal(values, np.arange(5.0))


def test_laplace_statistics_at_one_million_draws():
    # Laplace(b): mean 0 and mean absolute deviation b. At 1e6 draws the standard errors are
    # sqrt(2) b / 1000 for the mean and b / 1000 for the MAD, so 1% of b is > 7 standard errors.
    true_value, sensitivity, epsilon = 100.0, 2.0, 0.5
    scale = sensitivity / epsilon
    noisy = laplace_mechanism(np.full(1_000_000, true_value), sensitivity, epsilon, rng=2024)
    noise = noisy - true_value
    assert abs(noise.mean()) < 0.01 * scale
    assert abs(np.abs(noise).mean() / scale - 1) < 0.01
    assert abs(np.median(noise)) < 0.01 * scale


def test_one_million_laplace_draws_are_one_vectorized_array():
    # Benchmark-friendly sanity check (no timing): a million draws come back as one
    # contiguous float64 array of independent draws, without object dtype or reuse.
    out = laplace_mechanism(np.zeros(1_000_000), 1.0, 1.0, rng=7)
    assert isinstance(out, np.ndarray)
    assert out.shape == (1_000_000,) and out.dtype == np.float64 and out.flags.c_contiguous
    assert np.isfinite(out).all()
    assert len(np.unique(out)) > 999_000  # fresh noise for every entry


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"epsilon": 0}, ValueError, "epsilon must be > 0, got 0.0"),
        ({"epsilon": -1}, ValueError, "epsilon must be > 0, got -1.0"),
        ({"epsilon": float("nan")}, ValueError, "epsilon is NaN"),
        ({"epsilon": float("inf")}, ValueError, "epsilon must be finite"),
        ({"epsilon": "1"}, TypeError, "epsilon must be a positive number, got str"),
        ({"epsilon": True}, TypeError, "epsilon must be a positive number, got bool"),
        ({"sensitivity": -1.0}, ValueError, "sensitivity must be > 0, got -1.0"),
        ({"sensitivity": 0.0}, ValueError, "sensitivity must be > 0"),
        ({"sensitivity": None}, TypeError, "sensitivity must be a positive number, got NoneType"),
        ({"value": float("nan")}, ValueError, "value contains NaN"),
        ({"value": [1.0, float("inf")]}, ValueError, "value contains infinite values"),
        ({"value": []}, ValueError, "value is empty"),
        ({"value": "12"}, TypeError, "value must be a number or an array of numbers, got str"),
        ({"value": ["a", "b"]}, TypeError, "value must be a number or an array of numbers"),
        ({"value": True}, TypeError, "value must be numeric, got booleans"),
        ({"rng": "seed"}, TypeError, "rng must be None"),
    ],
)
def test_laplace_validation(kwargs, error, pattern):
    arguments = {"value": 1.0, "sensitivity": 1.0, "epsilon": 1.0, "rng": 0} | kwargs
    with pytest.raises(error, match=pattern):
        laplace_mechanism(**arguments)


@pytest.mark.parametrize(("sensitivity", "epsilon", "pattern"), [(-1, 1, "sensitivity"), (1, 0, "epsilon")])
def test_laplace_scale_validation(sensitivity, epsilon, pattern):
    with pytest.raises(ValueError, match=pattern):
        laplace_scale(sensitivity, epsilon)


# ---------------------------------------------------------------------------------- Gaussian


def _reference_sigma(epsilon, delta):
    """Independent check: plain bisection on sigma with the delta formula in linear space."""

    def delta_of(sigma):
        return norm.cdf(1 / (2 * sigma) - epsilon * sigma) - math.exp(epsilon) * norm.cdf(-1 / (2 * sigma) - epsilon * sigma)

    low, high = 1e-6, 1e6  # delta_of decreases in sigma
    for _ in range(200):
        mid = math.sqrt(low * high)
        low, high = (mid, high) if delta_of(mid) > delta else (low, mid)
    return high


def test_classic_sigma_formula():
    assert gaussian_sigma_classic(1.0, 0.5, 1e-5) == pytest.approx(math.sqrt(2 * math.log(1.25e5)) / 0.5, rel=1e-12)
    assert gaussian_sigma_classic(3.0, 0.5, 1e-5) == pytest.approx(3 * gaussian_sigma_classic(1.0, 0.5, 1e-5))


@pytest.mark.parametrize("epsilon", [1.0, 2.0, 50.0])
def test_classic_sigma_refuses_epsilon_at_least_one(epsilon):
    with pytest.raises(ValueError, match=r"epsilon=.*classic.*epsilon < 1.*gaussian_sigma_analytic"):
        gaussian_sigma_classic(1.0, epsilon, 1e-5)


@pytest.mark.parametrize(
    ("epsilon", "delta", "expected"),
    # Solutions of the Balle-Wang equation (sensitivity 1) to 4 significant digits, pinned so a
    # regression shows up; each is also re-derived by the independent bisection above.
    [(1.0, 1e-5, 3.731), (0.5, 1e-5, 7.032), (0.1, 1e-6, 36.30), (2.0, 1e-5, 1.994), (10.0, 1e-10, 0.6830)],
)
def test_analytic_sigma_known_values(epsilon, delta, expected):
    sigma = gaussian_sigma_analytic(1.0, epsilon, delta)
    assert sigma == pytest.approx(expected, rel=5e-4)
    assert sigma == pytest.approx(_reference_sigma(epsilon, delta), rel=1e-7)


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 0.9, 0.99])
@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-9])
def test_analytic_sigma_is_below_classic_for_small_epsilon(epsilon, delta):
    assert gaussian_sigma_analytic(1.0, epsilon, delta) < gaussian_sigma_classic(1.0, epsilon, delta)


@pytest.mark.parametrize("epsilon", [1e-3, 0.1, 1.0, 5.0, 50.0, 200.0])
@pytest.mark.parametrize("delta", [0.5, 1e-5, 1e-12, 1e-100])
def test_analytic_sigma_solves_the_delta_equation(epsilon, delta):
    # The returned sigma achieves the requested delta to 1e-9 (relative), and never more.
    sigma = gaussian_sigma_analytic(2.0, epsilon, delta)
    achieved = gaussian_delta(2.0, sigma, epsilon)
    assert achieved <= delta
    assert achieved == pytest.approx(delta, rel=1e-9)


def test_analytic_sigma_is_monotone_and_scales_with_sensitivity():
    sigmas = [gaussian_sigma_analytic(1.0, e, 1e-6) for e in (0.1, 0.5, 1.0, 5.0, 20.0)]
    assert all(a > b for a, b in zip(sigmas, sigmas[1:]))
    assert gaussian_sigma_analytic(1.0, 1.0, 1e-3) < gaussian_sigma_analytic(1.0, 1.0, 1e-9)
    assert gaussian_sigma_analytic(4.0, 1.0, 1e-5) == pytest.approx(4 * gaussian_sigma_analytic(1.0, 1.0, 1e-5), rel=1e-12)


def test_gaussian_delta_matches_linear_space_formula():
    sigma, epsilon = 2.0, 0.7
    direct = norm.cdf(1 / (2 * sigma) - epsilon * sigma) - math.exp(epsilon) * norm.cdf(-1 / (2 * sigma) - epsilon * sigma)
    assert gaussian_delta(1.0, sigma, epsilon) == pytest.approx(direct, rel=1e-12)


@pytest.mark.parametrize("calibration", ["analytic", "classic"])
def test_gaussian_mechanism_noise_has_the_calibrated_sigma(calibration):
    # 2e5 draws: the standard error of the sample sd is sigma / sqrt(4e5) = 0.16%; tolerance 1%.
    epsilon, delta = 0.5, 1e-6
    sigma = (gaussian_sigma_analytic if calibration == "analytic" else gaussian_sigma_classic)(1.0, epsilon, delta)
    noise = gaussian_mechanism(np.zeros(200_000), 1.0, epsilon, delta, rng=11, calibration=calibration)
    assert abs(noise.std() / sigma - 1) < 0.01
    assert abs(noise.mean()) < 0.01 * sigma


def test_gaussian_mechanism_types_and_reproducibility():
    assert isinstance(gaussian_mechanism(1.0, 1.0, 1.0, 1e-5, rng=0), float)
    np.testing.assert_array_equal(gaussian_mechanism([1.0, 2.0], 1.0, 2.0, 1e-5, rng=3),
                                  gaussian_mechanism([1.0, 2.0], 1.0, 2.0, 1e-5, rng=3))


@pytest.mark.parametrize(
    ("function", "args", "error", "pattern"),
    [
        (gaussian_sigma_analytic, (1.0, 0.0, 1e-5), ValueError, "epsilon must be > 0"),
        (gaussian_sigma_analytic, (1.0, float("nan"), 1e-5), ValueError, "epsilon is NaN"),
        (gaussian_sigma_analytic, (-2.0, 1.0, 1e-5), ValueError, "sensitivity must be > 0, got -2.0"),
        (gaussian_sigma_analytic, (1.0, 1.0, 0.0), ValueError, r"delta must be in \(0, 1\), got 0.0"),
        (gaussian_sigma_analytic, (1.0, 1.0, 1.0), ValueError, r"delta must be in \(0, 1\), got 1.0"),
        (gaussian_sigma_analytic, (1.0, 1.0, -1e-5), ValueError, r"delta must be in \(0, 1\)"),
        (gaussian_sigma_analytic, (1.0, 1.0, float("nan")), ValueError, "delta is NaN"),
        (gaussian_sigma_analytic, (1.0, 1.0, "1e-5"), TypeError, "delta must be a number"),
        (gaussian_sigma_classic, (1.0, 0.5, 2.0), ValueError, r"delta must be in \(0, 1\)"),
        (gaussian_sigma_classic, (0.0, 0.5, 1e-5), ValueError, "sensitivity must be > 0"),
        (gaussian_delta, (1.0, 0.0, 1.0), ValueError, "sigma must be > 0"),
        (gaussian_mechanism, (1.0, 1.0, 1.0, 1e-5, 0, "fancy"), ValueError,
         r"calibration must be one of \('analytic', 'classic'\), got 'fancy'"),
        (gaussian_mechanism, (1.0, 1.0, 1.0, 1e-5, 0, None), TypeError, "calibration must be one of"),
        (gaussian_mechanism, (1.0, 1.0, 1.5, 1e-5, 0, "classic"), ValueError, "only holds for epsilon < 1"),
        (gaussian_mechanism, (float("nan"), 1.0, 1.0, 1e-5), ValueError, "value contains NaN"),
        (gaussian_mechanism, (1.0, 1.0, 1.0, 1e-5, 2.5), TypeError, "rng must be None"),
    ],
)
def test_gaussian_validation(function, args, error, pattern):
    with pytest.raises(error, match=pattern):
        function(*args)


@pytest.mark.parametrize("value", [[True, False], pd.Series([True, False]), np.bool_(True)])
def test_booleans_in_any_container_are_refused_like_boolean_arrays(value):
    with pytest.raises(TypeError, match="got booleans"):
        laplace_mechanism(value, 1.0, 1.0, rng=0)


@pytest.mark.parametrize("value", [pd.Series(pd.to_datetime(["2024-01-01"])), np.array([1 + 2j]),
                                   pd.Series(pd.to_timedelta([1], unit="D"))])
def test_dates_durations_and_complex_numbers_are_not_numbers(value):
    with pytest.raises(TypeError, match="must be a number or an array of numbers"):
        gaussian_mechanism(value, 1.0, 1.0, 1e-5, rng=0)


@pytest.mark.parametrize("call", [
    lambda: laplace_mechanism(1.0, 1e300, 1e-300, rng=0),
    lambda: laplace_mechanism(1.0, 1e-300, 1e300, rng=0),  # the scale would round to 0: no noise at all
    lambda: gaussian_mechanism(1.0, 1e308, 1e-10, 1e-5, rng=0),
    lambda: gaussian_sigma_analytic(1e-300, 1e300, 1e-5),
    lambda: gaussian_sigma_classic(1e300, 1e-10, 1e-5),
])
def test_parameters_too_far_apart_for_floating_point_are_a_clear_error(call):
    with pytest.raises(ValueError, match="out of floating-point range"):
        call()
