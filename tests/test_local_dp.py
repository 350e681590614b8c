"""Tests of local DP: randomized response, k-RR and unary encoding (unbiasedness, standard errors, privacy)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.local import (
    generalized_randomized_response,
    grr_estimate,
    grr_probabilities,
    randomized_response,
    rr_estimate,
    rr_keep_probability,
    rr_standard_error,
    unary_encoding,
    unary_estimate,
    unary_probabilities,
)

SEEDS = (0, 1)


def test_keep_probability_gives_ratio_e_epsilon():
    for epsilon in (0.1, 1.0, math.log(3), 5.0):
        p = rr_keep_probability(epsilon)
        assert math.isclose(p / (1 - p), math.exp(epsilon))
    assert math.isclose(rr_keep_probability(math.log(3)), 0.75)


@pytest.mark.parametrize("seed", SEEDS)
def test_reports_keep_the_truth_at_the_right_rate(seed):
    truth = np.random.default_rng(seed).random(200_000) < 0.3
    reports = randomized_response(truth, 1.0, rng=seed + 100)  # a stream independent of the truth's
    p = rr_keep_probability(1.0)
    kept = float(np.mean(reports == truth))
    assert abs(kept - p) < 5 * math.sqrt(p * (1 - p) / truth.size)
    # Flips are independent of the answer: the same rate for yes and for no.
    assert abs(np.mean(reports[truth] == 1) - np.mean(reports[~truth] == 0)) < 0.01


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 3.0])
def test_rr_estimate_is_unbiased_and_its_se_is_right(epsilon):
    rng = np.random.default_rng(11)
    n, share, trials = 2000, 0.3, 3000
    truth = np.arange(n) < share * n
    estimates = np.array([rr_estimate(randomized_response(truth, epsilon, rng), epsilon).value for _ in range(trials)])
    se = rr_standard_error(n, epsilon)
    assert abs(estimates.mean() - share) < 5 * se / math.sqrt(trials)
    assert abs(estimates.std() / se - 1) < 0.06  # relative SE of a sd from 3000 draws is ~1.3%
    assert rr_estimate(randomized_response(truth, epsilon, rng), epsilon).standard_error == se


def test_local_error_is_much_larger_than_central():
    n, epsilon = 10_000, 1.0
    central = math.sqrt(2) / (epsilon * n)  # Laplace count of sensitivity 1, divided by public n
    assert rr_standard_error(n, epsilon) > 30 * central


@pytest.mark.parametrize("seed", SEEDS)
def test_grr_estimates_are_unbiased(seed):
    rng = np.random.default_rng(seed)
    k, epsilon = 6, 2.0
    freq = np.array([0.4, 0.25, 0.15, 0.1, 0.06, 0.04])
    x = rng.choice(k, 50_000, p=freq)
    truth = np.bincount(x, minlength=k) / x.size
    est = grr_estimate(generalized_randomized_response(x, k, epsilon, rng), k, epsilon)
    assert np.all(np.abs(est.value - truth) < 5 * est.standard_error)
    assert math.isclose(est.value.sum(), 1.0)


def test_frequency_standard_errors_match_repeated_runs():
    rng = np.random.default_rng(8)
    k, epsilon, x = 4, 1.0, np.repeat([0, 1, 2, 3], [500, 300, 150, 50])
    truth = np.bincount(x, minlength=k) / x.size
    for encode, estimate in [(lambda: generalized_randomized_response(x, k, epsilon, rng), lambda r: grr_estimate(r, k, epsilon)),
                             (lambda: unary_encoding(x, k, epsilon, rng), lambda r: unary_estimate(r, epsilon))]:
        runs = [estimate(encode()) for _ in range(2000)]
        values = np.array([r.value for r in runs])
        mean_se = np.array([r.standard_error for r in runs]).mean(axis=0)
        assert np.all(np.abs(values.mean(axis=0) - truth) < 5 * mean_se / math.sqrt(2000))
        assert np.all(np.abs(values.std(axis=0) / mean_se - 1) < 0.1)


@pytest.mark.parametrize("optimized", [False, True])
def test_unary_estimates_are_unbiased(optimized):
    rng = np.random.default_rng(5)
    k, epsilon = 8, 1.0
    x = rng.choice(k, 40_000, p=np.linspace(1, 3, k) / np.linspace(1, 3, k).sum())
    truth = np.bincount(x, minlength=k) / x.size
    est = unary_estimate(unary_encoding(x, k, epsilon, rng, optimized=optimized), epsilon, optimized=optimized)
    assert np.all(np.abs(est.value - truth) < 5 * est.standard_error)


def test_oue_beats_k_rr_for_many_categories():
    k, epsilon = 64, 1.0
    p, q = grr_probabilities(k, epsilon)
    grr_var = q * (1 - q) / (p - q) ** 2
    p, q = unary_probabilities(epsilon, optimized=True)
    oue_var = q * (1 - q) / (p - q) ** 2
    assert oue_var < grr_var / 5


def test_other_categories_are_uniform_in_k_rr():
    reports = generalized_randomized_response(np.zeros(300_000, int), 4, 0.5, rng=2)
    counts = np.bincount(reports, minlength=4)[1:]
    assert np.ptp(counts) < 5 * math.sqrt(counts.mean())


# ---------------------------------------------------------------------- privacy, by the audit
def _one_person(randomizer):
    def mechanism(value, size, rng):
        return randomizer(np.full(size, value), rng)
    return mechanism


@pytest.mark.parametrize("seed", SEEDS)
def test_randomized_response_passes_the_audit_and_is_tight(seed):
    mechanism = _one_person(lambda x, rng: randomized_response(x, 1.0, rng).astype(float))
    result = audit_epsilon(mechanism, True, False, n_samples=100_000, rng=seed)
    assert 0.9 < result.epsilon_lower_bound <= 1.0, result


@pytest.mark.parametrize("seed", SEEDS)
def test_k_rr_passes_the_audit(seed):
    mechanism = _one_person(lambda x, rng: generalized_randomized_response(x, 5, 1.0, rng).astype(float))
    result = audit_epsilon(mechanism, 0, 3, n_samples=100_000, rng=seed)
    assert 0.8 < result.epsilon_lower_bound <= 1.0, result


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("optimized", [False, True])
def test_unary_encoding_passes_the_audit(seed, optimized):
    mechanism = _one_person(lambda x, rng: unary_encoding(x, 3, 1.0, rng, optimized=optimized).astype(float))
    assert not audit_epsilon(mechanism, 0, 1, n_samples=100_000, rng=seed).refutes(1.0)


@pytest.mark.parametrize("seed", SEEDS)
def test_unary_encoding_with_epsilon_per_bit_is_caught(seed):
    # A classic mistake: keep each bit with e^eps / (1 + e^eps), forgetting that two bits change.
    mechanism = _one_person(lambda x, rng: unary_encoding(x, 3, 2.0, rng).astype(float))
    assert audit_epsilon(mechanism, 0, 1, n_samples=100_000, rng=seed).refutes(1.0)


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize("call, match", [
    (lambda: randomized_response([0, 2], 1.0), "0 and 1"),
    (lambda: randomized_response([], 1.0), "empty"),
    (lambda: randomized_response("yes", 1.0), "string"),
    (lambda: randomized_response([True], 0.0), "epsilon"),
    (lambda: generalized_randomized_response([0, 5], 5, 1.0), "0..k-1"),
    (lambda: generalized_randomized_response([0.5], 5, 1.0), "whole numbers"),
    (lambda: generalized_randomized_response([0], 1, 1.0), "k must be"),
    (lambda: unary_estimate(np.zeros(3), 1.0), "reports must be an"),
    (lambda: rr_standard_error(0, 1.0), "n must be"),
    (lambda: unary_probabilities(1.0, optimized="no"), "optimized"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_docstring_examples_run():
    import doctest

    from mic_dp_helpers.mechanisms import local as local_dp

    assert doctest.testmod(local_dp, optionflags=doctest.ELLIPSIS).failed == 0


# ------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("bad", ["100", True, None, object()])
def test_rr_standard_error_rejects_non_numeric_n(bad):
    with pytest.raises(TypeError, match="n must be a number of people"):
        rr_standard_error(bad, 1.0)


@pytest.mark.parametrize("bad", [[], np.array([])])
def test_rr_standard_error_rejects_empty_n(bad):
    with pytest.raises(ValueError, match="n is empty"):
        rr_standard_error(bad, 1.0)


def test_huge_epsilon_gives_probabilities_not_overflow():
    # The rarer outcome keeps at least one step of the 2**-53 grid: never a coin that cannot flip.
    assert grr_probabilities(3, 1e6) == (1.0 - 2.0**-53, 2.0**-54)
    assert unary_probabilities(1e6, optimized=True) == (0.5, 2.0**-53)
    p, q = grr_probabilities(3, 700.5)
    assert 0.0 < q and p < 1.0
    estimate = grr_estimate([0, 1, 2], 3, 1e6)
    assert np.allclose(estimate.value, 1 / 3)


def _ratio_at_most_e_epsilon(numerator: float, denominator: float, epsilon: float) -> bool:
    """numerator / denominator <= e^epsilon, decided in 60-digit decimal arithmetic (the floats are exact)."""
    from decimal import Decimal, localcontext

    with localcontext() as context:
        context.prec = 60
        return Decimal(numerator) / Decimal(denominator) <= Decimal(repr(epsilon)).exp()


EPSILONS_FP = [1e-12, 1e-6, 0.01, 0.5, 1.0, 3.0, 10.0, 20.0, 36.0, 36.8, 40.0, 73.6, 100.0, 709.0, 710.0, 1e6]


@pytest.mark.parametrize("epsilon", EPSILONS_FP)
def test_realised_coins_never_exceed_e_epsilon(epsilon):
    """Issue 25: 1 / (1 + e^-eps) rounds to 1.0 from eps 36.8, SUE from 73.6, k-RR (k = 4) near 40. The
    probabilities the samplers use are on the 2**-53 grid of Generator.random, with the rare outcome
    rounded up, so the exact ratio of every report's probabilities is at most e^eps, and no coin is certain."""
    grid = 2.0**-53
    p = rr_keep_probability(epsilon)
    assert 0.5 < p < 1.0 and ((1.0 - p) / grid).is_integer()
    assert _ratio_at_most_e_epsilon(p, 1.0 - p, epsilon)
    for k in (2, 4, 24, 1000):
        p, q = grr_probabilities(k, epsilon)
        change = 1.0 - p
        assert (change / grid).is_integer() and q > 0 and p > q
        assert _ratio_at_most_e_epsilon(p * (k - 1), change, epsilon)  # p / q with q = change / (k - 1) exactly
    for optimized in (False, True):
        p, q = unary_probabilities(epsilon, optimized)
        assert ((1.0 - p) / grid).is_integer() and (q / grid).is_integer() and 0 < q < p < 1
        # Changing one's value flips two bits: the largest ratio is p (1 - q) / ((1 - p) q).
        assert _ratio_at_most_e_epsilon(p * (1.0 - q), (1.0 - p) * q, epsilon)


def test_generator_random_is_on_the_2_to_minus_53_grid():
    """The exactness above rests on this property of NumPy's Generator.random: a failure here means the
    coins' probabilities are no longer exact."""
    draws = np.random.default_rng(0).random(100_000) * 2.0**53
    assert np.array_equal(draws, np.floor(draws))


class _ScriptedGenerator:
    """Stands in for a Generator: random() returns the given uniforms, integers() zeros."""

    def __init__(self, uniforms):
        self.uniforms = np.asarray(uniforms, dtype=float)

    def random(self, size):
        return self.uniforms[:int(np.prod(size))].reshape(size)

    def integers(self, low, high, size):
        return np.zeros(size, dtype=np.int64)


@pytest.mark.parametrize("epsilon", [1.0, 40.0, 1e6])
def test_samplers_flip_exactly_below_the_grid_threshold(epsilon, monkeypatch):
    """A report changes exactly when random() < the rounded-up probability: the last grid point below it
    changes the answer, the threshold itself keeps it, even at epsilons where 1 / (1 + e^-eps) is 1.0."""
    from mic_dp_helpers.mechanisms import local as local_dp

    grid = 2.0**-53
    flip = 1.0 - rr_keep_probability(epsilon)
    monkeypatch.setattr(local_dp, "as_generator", lambda rng: _ScriptedGenerator([flip - grid, flip]))
    assert randomized_response([True, True], epsilon).tolist() == [False, True]
    change = 1.0 - grr_probabilities(4, epsilon)[0]
    monkeypatch.setattr(local_dp, "as_generator", lambda rng: _ScriptedGenerator([change - grid, change]))
    assert generalized_randomized_response([2, 2], 4, epsilon).tolist() == [0, 2]
    p, q = unary_probabilities(epsilon)
    monkeypatch.setattr(local_dp, "as_generator", lambda rng: _ScriptedGenerator([1 - p - grid, q - grid]))
    assert unary_encoding([0], 2, epsilon).tolist() == [[False, True]]


@pytest.mark.parametrize("call, name", [
    (lambda huge: grr_estimate([0, 1], huge, 1.0), "k"),
    (lambda huge: grr_probabilities(huge, 1.0), "k"),
    (lambda huge: generalized_randomized_response([0, 1], huge, 1.0, rng=0), "k"),
    (lambda huge: unary_encoding([0, 1], huge, 1.0, rng=0), "k"),
    (lambda huge: unary_encoding(np.zeros(10**5, dtype=int), 10**4, 1.0, rng=0), "k"),  # n x k bits
])
def test_huge_k_is_a_clear_error_not_a_memory_error(call, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call(10**12)


@pytest.mark.parametrize("truth", [pd.array([True, None], dtype="boolean"), pd.Series([1.0, np.nan])])
def test_missing_answers_are_named(truth):
    with pytest.raises(ValueError, match="truth has missing answers"):
        randomized_response(truth, 1.0, rng=0)
    with pytest.raises(ValueError, match="reports has missing answers"):
        rr_estimate(truth, 1.0)


@pytest.mark.parametrize("call", [
    lambda: rr_estimate([True, False], 1e-300),
    lambda: grr_estimate([0, 1], 2, 1e-300),
    lambda: unary_estimate([[True, False]], 1e-300),
])
def test_an_epsilon_that_rounds_away_is_a_clear_error(call):
    with pytest.raises(ValueError, match="epsilon=1e-300 is too small for floating point"):
        call()
