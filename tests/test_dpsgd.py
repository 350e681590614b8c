"""DP-SGD teaching code: gradients, clipping, noise, sampling, accounting, and one step audited."""

from __future__ import annotations

import math

import dp_accounting
import numpy as np
import pytest
from dp_accounting import pld, rdp
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from scipy.optimize import brentq

from mic_dp_helpers.accounting.ledger import zcdp_rho_gaussian, zcdp_to_dp
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.ml.dpsgd import (
    Architecture,
    accuracy,
    clip_per_example,
    compare_accounting,
    dpsgd_epsilon,
    gaussian_epsilon,
    init_params,
    noise_multiplier_for_epsilon,
    per_example_gradients,
    per_example_loss,
    poisson_sample,
    predict_proba,
    private_gradient_sum,
    train_dpsgd,
)
from mic_dp_helpers.mechanisms.noise import gaussian_delta


# ------------------------------------------------------------------------------- gradients
@pytest.mark.parametrize("hidden", [0, 5])
@pytest.mark.parametrize("n_classes", [2, 4])
def test_per_example_gradients_match_finite_differences(hidden, n_classes):
    rng = np.random.default_rng(hidden * 10 + n_classes)
    arch = Architecture(3, n_classes, hidden=hidden)
    params = rng.normal(0, 0.7, arch.n_params)
    X = rng.normal(0, 1, (6, 3))
    y = rng.integers(0, n_classes, 6)
    grads = per_example_gradients(arch, params, X, y)
    assert grads.shape == (6, arch.n_params)
    step = 1e-6
    numeric = np.empty_like(grads)
    for j in range(arch.n_params):
        up, down = params.copy(), params.copy()
        up[j] += step
        down[j] -= step
        numeric[:, j] = (per_example_loss(arch, up, X, y) - per_example_loss(arch, down, X, y)) / (2 * step)
    np.testing.assert_allclose(grads, numeric, rtol=1e-5, atol=1e-7)


def test_probabilities_and_losses_are_consistent():
    rng = np.random.default_rng(1)
    arch = Architecture(4, 3, hidden=6)
    params = init_params(arch, rng)
    X, y = rng.normal(size=(20, 4)), rng.integers(0, 3, 20)
    proba = predict_proba(arch, params, X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(per_example_loss(arch, params, X, y), -np.log(proba[np.arange(20), y]))


def test_large_logits_do_not_overflow():
    arch = Architecture(1, 2)
    params = np.array([1000.0, -1000.0, 0.0, 0.0])
    loss = per_example_loss(arch, params, [[5.0]], [1])
    assert np.isfinite(loss).all() and loss[0] == pytest.approx(10_000.0)
    assert np.isfinite(per_example_gradients(arch, params, [[5.0]], [1])).all()


# -------------------------------------------------------------------------------- clipping
@given(st.integers(1, 30), st.integers(1, 8), st.floats(1e-3, 1e3), st.integers(0, 2**32 - 1))
def test_clipping_bounds_every_row_and_keeps_directions(n, p, clip_norm, seed):
    rng = np.random.default_rng(seed)
    grads = rng.normal(0, 1, (n, p)) * rng.lognormal(0, 3, (n, 1))
    before = grads.copy()
    clipped = clip_per_example(grads, clip_norm)
    np.testing.assert_array_equal(grads, before)  # input untouched
    norms, new_norms = np.linalg.norm(grads, axis=1), np.linalg.norm(clipped, axis=1)
    assert (new_norms <= clip_norm * (1 + 1e-12)).all()
    short = norms <= clip_norm
    np.testing.assert_array_equal(clipped[short], grads[short])
    np.testing.assert_allclose(new_norms[~short], clip_norm, rtol=1e-12)
    cosine = (clipped * grads).sum(axis=1) / np.maximum(norms * new_norms, 1e-300)
    np.testing.assert_allclose(cosine[norms > 0], 1.0, rtol=1e-9)


def test_clipping_zero_rows_and_infinite_norm():
    grads = np.array([[0.0, 0.0], [3.0, 4.0]])
    np.testing.assert_array_equal(clip_per_example(grads, 1.0)[0], [0.0, 0.0])
    np.testing.assert_array_equal(clip_per_example(grads, math.inf), grads)


@pytest.mark.parametrize("hidden", [0, 3])
def test_training_uses_the_sum_of_per_example_clipped_gradients(hidden):
    from mic_dp_helpers.ml.dpsgd import _clipped_gradient_sum

    rng = np.random.default_rng(hidden)
    arch = Architecture(5, 3, hidden=hidden)
    params = rng.normal(0, 1, arch.n_params)
    X, y = rng.normal(0, 2, (30, 5)), rng.integers(0, 3, 30)
    for clip_norm in (0.01, 0.5, 3.0, math.inf):
        expected = clip_per_example(per_example_gradients(arch, params, X, y), clip_norm).sum(axis=0)
        np.testing.assert_allclose(_clipped_gradient_sum(arch, params, X, y, clip_norm), expected, rtol=1e-10,
                                   atol=1e-12)


# ----------------------------------------------------------------------- noise and sampling
def test_noise_has_standard_deviation_sigma_times_clip_norm():
    grads = np.array([[3.0, 4.0, 0.0], [0.0, 0.1, 0.2]])
    clipped_sum = clip_per_example(grads, 2.0).sum(axis=0)
    draws = private_gradient_sum(grads, 2.0, 1.5, rng=0, size=40_000)
    noise = draws - clipped_sum
    # Sample sd of 40,000 normals has relative standard error 0.35%: 2% is > 5 standard errors.
    np.testing.assert_allclose(noise.std(axis=0), 3.0, rtol=0.02)
    assert np.abs(noise.mean(axis=0)).max() < 6 * 3.0 / math.sqrt(40_000)
    assert np.abs(np.corrcoef(noise.T)[np.triu_indices(3, 1)]).max() < 0.03  # independent coordinates
    assert stats.kstest(noise[:, 0] / 3.0, "norm").pvalue > 1e-4


def test_poisson_sampling_gives_binomial_batches_and_the_right_mean():
    grads = np.tile([[1.0, 0.0]], (50, 1))
    draws = private_gradient_sum(grads, 10.0, 0.0, sample_rate=0.2, rng=1, size=20_000)[:, 0]
    assert abs(draws.mean() - 10.0) < 6 * math.sqrt(50 * 0.2 * 0.8 / 20_000)
    assert abs(draws.var() / (50 * 0.2 * 0.8) - 1) < 0.06
    assert set(np.unique(draws)) <= set(range(51))
    mask = poisson_sample(100_000, 0.03, rng=2)
    assert mask.dtype == bool and abs(mask.mean() - 0.03) < 6 * math.sqrt(0.03 * 0.97 / 100_000)


def test_same_seed_same_release_and_training_run():
    grads = np.random.default_rng(0).normal(size=(10, 4))
    a = private_gradient_sum(grads, 1.0, 1.0, 0.5, rng=7)
    b = private_gradient_sum(grads, 1.0, 1.0, 0.5, rng=7)
    np.testing.assert_array_equal(a, b)
    X, y = np.random.default_rng(1).random((40, 3)), np.arange(40) % 2
    arch = Architecture(3, 2, hidden=4)
    runs = [train_dpsgd(arch, X, y, clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.25, expected_batch_size=10,
                        steps=5, learning_rate=0.5, rng=3) for _ in range(2)]
    np.testing.assert_array_equal(runs[0].params, runs[1].params)


def test_noise_free_training_is_marked_not_private():
    X, y = np.random.default_rng(1).random((40, 3)), np.arange(40) % 2
    run = train_dpsgd(Architecture(3, 2), X, y, clip_norm=math.inf, noise_multiplier=0.0, sample_rate=0.5,
                      expected_batch_size=20, steps=3, learning_rate=0.1, rng=0)
    assert not run.private and run.epsilon(1e-5) == math.inf


def test_dpsgd_learns_digits_and_noise_costs_accuracy():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    X = X / 16.0  # public pixel range
    arch = Architecture(64, 10)
    train, test = slice(0, 1200), slice(1200, None)
    plain = train_dpsgd(arch, X[train], y[train], clip_norm=math.inf, noise_multiplier=0.0, sample_rate=0.05,
                        expected_batch_size=60, steps=300, learning_rate=1.0, rng=0)
    private = train_dpsgd(arch, X[train], y[train], clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.05,
                          expected_batch_size=60, steps=300, learning_rate=2.0, rng=0)
    assert accuracy(arch, plain.params, X[test], y[test]) > 0.9
    assert 0.5 < accuracy(arch, private.params, X[test], y[test]) < 0.97
    assert private.private and 0 < private.epsilon(1e-5) < 10
    assert len(private.batch_sizes) == 300 and abs(np.mean(private.batch_sizes) - 60) < 3


# ------------------------------------------------------------------------------ accounting
def test_epsilon_matches_dp_accounting_and_the_design_figures():
    event = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(0.0256, dp_accounting.GaussianDpEvent(1.0)), 195)
    ref_rdp, ref_pld = rdp.RdpAccountant(), pld.PLDAccountant()
    ref_rdp.compose(event)
    ref_pld.compose(event)
    assert dpsgd_epsilon(0.0256, 1.0, 195, 1e-5, accountant="rdp") == pytest.approx(ref_rdp.get_epsilon(1e-5), rel=1e-9)
    assert dpsgd_epsilon(0.0256, 1.0, 195, 1e-5, accountant="rdp") == pytest.approx(2.761, abs=1e-3)
    ours = dpsgd_epsilon(0.0256, 1.0, 195, 1e-5)  # coarser grid: pessimistic, within 0.5%
    assert ref_pld.get_epsilon(1e-5) <= ours <= 1.005 * ref_pld.get_epsilon(1e-5)
    assert ours == pytest.approx(2.359, abs=3e-3)


@pytest.mark.parametrize("q, sigma, steps", [(0.01, 0.8, 1000), (0.1, 2.0, 50), (1.0, 5.0, 10), (0.5, 1.0, 1)])
def test_pld_is_below_rdp_and_a_single_full_step_is_the_gaussian_mechanism(q, sigma, steps):
    eps_rdp = dpsgd_epsilon(q, sigma, steps, 1e-6, accountant="rdp")
    eps_pld = dpsgd_epsilon(q, sigma, steps, 1e-6)
    assert eps_pld <= eps_rdp * (1 + 1e-6)
    if q == 1.0 and steps == 1:
        assert eps_pld == pytest.approx(gaussian_epsilon(sigma, 1e-6), rel=0.01)


def test_gaussian_epsilon_inverts_gaussian_delta():
    for sigma in (0.3, 1.0, 4.0):
        eps = gaussian_epsilon(sigma, 1e-6)
        assert gaussian_delta(1.0, sigma, eps) == pytest.approx(1e-6, rel=1e-6)
    assert gaussian_epsilon(1.0, 1e-5) == pytest.approx(dpsgd_epsilon(1.0, 1.0, 1, 1e-5), rel=0.005)


def test_calibrated_noise_meets_the_target_and_is_not_wasteful():
    sigma = noise_multiplier_for_epsilon(2.0, 0.05, 300, 1e-5)
    assert dpsgd_epsilon(0.05, sigma, 300, 1e-5, accountant="rdp") <= 2.0
    assert dpsgd_epsilon(0.05, sigma * 0.98, 300, 1e-5, accountant="rdp") > 2.0


def test_calibration_tolerance_is_relative_on_sigma():
    # rel_tol bounds sigma's distance from the smallest valid sigma (what dp_accounting's tol is about)
    rel_tol = 0.02  # the old code took 0.02 * 8 = 0.16 as its tolerance on a sigma near 0.7
    sigma = noise_multiplier_for_epsilon(8.0, 0.05, 100, 1e-5, rel_tol=rel_tol)
    assert dpsgd_epsilon(0.05, sigma, 100, 1e-5, accountant="rdp") <= 8.0
    assert dpsgd_epsilon(0.05, sigma / (1 + rel_tol), 100, 1e-5, accountant="rdp") >= 8.0


def test_the_accounting_modules_examples_hold():
    import doctest

    from mic_dp_helpers.ml import accounting, dpsgd

    for module in (accounting, dpsgd):
        assert doctest.testmod(module).failed == 0


def test_comparison_table_has_exact_and_amplified_rows():
    q, sigma, steps, delta = 0.02, 1.1, 500, 1e-5
    table = compare_accounting(q, sigma, steps, delta).set_index(["method", "subsampling"])["epsilon"]
    exact = table[("exact Gaussian composition", False)]
    assert exact == pytest.approx(gaussian_epsilon(sigma / math.sqrt(steps), delta))
    # nothing that ignores the sampling beats the exact composition of the full Gaussian steps
    for method in ("basic composition", "advanced composition", "zCDP", "RDP (dp_accounting)"):
        assert table[(method, False)] >= exact * (1 - 1e-6)
    amplified = table[("basic composition, amplified", True)]
    per_step = gaussian_epsilon(sigma, delta / (q * steps))
    assert amplified == pytest.approx(steps * math.log1p(q * math.expm1(per_step)))
    assert table[("PLD (dp_accounting)", True)] <= table[("RDP (dp_accounting)", True)] < amplified


def test_comparison_table_orders_the_methods_and_uses_the_course_helpers():
    table = compare_accounting(0.02, 1.1, 500, 1e-5)
    assert table.loc[~table["subsampling"], "epsilon"].is_monotonic_decreasing
    assert table.loc[table["subsampling"], "epsilon"].is_monotonic_decreasing
    zcdp = table.loc[table["method"] == "zCDP", "epsilon"].item()
    assert zcdp == pytest.approx(zcdp_to_dp(500 * zcdp_rho_gaussian(1.0, 1.1), 1e-5))
    tight = table[table["subsampling"] & table["method"].str.contains("dp_accounting")]["epsilon"]
    assert tight.max() < 0.1 * table[~table["subsampling"]]["epsilon"].min()  # amplification dominates here


# ------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("call, message", [
    (lambda: clip_per_example([1.0, 2.0], 1.0), "2-D"),
    (lambda: clip_per_example([[np.nan]], 1.0), "NaN"),
    (lambda: clip_per_example([[1.0]], 0.0), "clip_norm"),
    (lambda: private_gradient_sum([[1.0]], 1.0, -1.0), "noise_multiplier"),
    (lambda: private_gradient_sum([[1.0]], 1.0, 1.0, sample_rate=0.0), "sample_rate"),
    (lambda: private_gradient_sum([[1.0]], 1.0, 1.0, sample_rate=1.5), "sample_rate"),
    (lambda: private_gradient_sum([[1.0]], math.inf, 1.0), "clip_norm"),
    (lambda: dpsgd_epsilon(0.1, 1.0, 0, 1e-5), "steps"),
    (lambda: dpsgd_epsilon(0.1, 1.0, 10, 0.0), "delta"),
    (lambda: dpsgd_epsilon(0.1, 1.0, 10, 1e-5, accountant="gdp"), "accountant"),
    (lambda: Architecture(3, 1), "n_classes"),
    (lambda: per_example_loss(Architecture(2, 2), np.zeros(6), [[1.0, 2.0]], [2]), "labels"),
    (lambda: per_example_loss(Architecture(2, 2), np.zeros(5), [[1.0, 2.0]], [1]), "params"),
    (lambda: per_example_loss(Architecture(2, 2), np.zeros(6), [[1.0]], [1]), "shape"),
    (lambda: train_dpsgd(Architecture(1, 2), [[1.0]], [0], clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.5,
                         expected_batch_size=1, steps=1, learning_rate=-1.0), "learning_rate"),
    (lambda: train_dpsgd(Architecture(1, 2), [[1.0]], [0], clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.5,
                         expected_batch_size=0.0, steps=1, learning_rate=1.0), "expected_batch_size"),
    (lambda: train_dpsgd(Architecture(1, 2), [[1.0]], [0], clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.5,
                         steps=1, learning_rate=1.0), "expected_batch_size"),
])
def test_bad_input_is_refused_with_a_clear_error(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


# ------------------------------------------------------------- one step, audited (issue 14)
# A tiny dataset and its neighbour with one example added. The added example's gradient points
# the other way and is large, so clipping the *summed* gradient (instead of each example's)
# lets the sum move by 2 C instead of C. The audit sees the first coordinate of the release.
DATASET = np.array([[10.0, 0.0], [0.2, 0.3]])
NEIGHBOUR = np.vstack([DATASET, [[-30.0, 0.0]]])
DELTA = 1e-3
SIGMA = 1.0


def _audit(mechanism, seed=0):
    return audit_epsilon(mechanism, DATASET, NEIGHBOUR, n_samples=100_000, rng=seed, delta=DELTA)


def _one_step(clip_norm, sample_rate=1.0):
    def release(dataset, size, rng):
        return private_gradient_sum(dataset, clip_norm, SIGMA, sample_rate, rng, size=size)[:, 0]

    return release


def test_a_correct_step_is_not_refuted_at_its_claimed_epsilon():
    claim = dpsgd_epsilon(1.0, SIGMA, 1, DELTA)  # 3.14
    result = _audit(_one_step(1.0))
    assert not result.refutes(claim), str(result)
    assert result.epsilon_lower_bound > 0.5 * claim  # and the audit is not blind: it sees most of it


def test_a_correct_poisson_step_is_not_refuted_at_its_amplified_epsilon():
    claim = dpsgd_epsilon(0.1, SIGMA, 1, DELTA)
    assert claim < 0.5 * dpsgd_epsilon(1.0, SIGMA, 1, DELTA)
    assert not _audit(_one_step(1.0, sample_rate=0.1)).refutes(claim)


def test_clipping_the_batch_gradient_is_caught():
    def batch_clipped(dataset, size, rng):
        total = np.asarray(dataset).sum(axis=0)
        total = total * min(1.0, 1.0 / np.linalg.norm(total))
        return total[0] + rng.normal(0.0, SIGMA * 1.0, size)

    result = _audit(batch_clipped)
    assert result.refutes(dpsgd_epsilon(1.0, SIGMA, 1, DELTA)), str(result)


def test_noise_not_scaled_by_the_clip_norm_is_caught():
    clip_norm = 4.0

    def unscaled_noise(dataset, size, rng):
        clipped = clip_per_example(dataset, clip_norm).sum(axis=0)
        return clipped[0] + rng.normal(0.0, SIGMA, size)  # should be SIGMA * clip_norm

    assert not _audit(_one_step(clip_norm)).refutes(dpsgd_epsilon(1.0, SIGMA, 1, DELTA))
    assert _audit(unscaled_noise).refutes(dpsgd_epsilon(1.0, SIGMA, 1, DELTA))


def test_claiming_amplification_without_sampling_is_caught():
    claim = dpsgd_epsilon(0.1, SIGMA, 1, DELTA)  # what a q = 0.1 run may claim
    assert _audit(_one_step(1.0, sample_rate=1.0)).refutes(claim)  # but every example was used


# ---------------------------------------------- the released model on add/remove neighbours (issue 25)
# One full-batch step (q = 1) of logistic regression from zero weights is released: its parameters are
# Gaussian, N(mean_D, s_D^2 I), on a dataset D. Neighbours: 6 examples, and the same 6 plus one.
SMALL_ARCH = Architecture(1, 2)
SMALL_A = (np.array([[0.0], [0.2], [0.4], [0.6], [0.8], [1.0]]), np.array([0, 0, 0, 1, 1, 1]))
SMALL_B = (np.vstack([SMALL_A[0], [[1.0]]]), np.r_[SMALL_A[1], 0])
CLAIM_EPSILON, CLAIM_DELTA = 1.0, 1e-5
CLAIM_SIGMA = brentq(lambda s: gaussian_epsilon(s, CLAIM_DELTA) - CLAIM_EPSILON, 0.5, 50.0)  # one full step: (1, 1e-5)
FIXED = lambda X: 3.0  # noqa: E731  (a public constant, chosen before seeing the data)
OLD = lambda X: 1.0 * len(X)  # noqa: E731  (the old code: sample_rate * len(X), with sample_rate 1)


def _one_released_step(data, normaliser, sigma, seed):
    X, y = data
    return train_dpsgd(SMALL_ARCH, X, y, clip_norm=1.0, noise_multiplier=sigma, sample_rate=1.0,
                       expected_batch_size=normaliser(X), steps=1, learning_rate=1.0, rng=seed).params


def _delta_two_gaussians(m1, s1, m2, s2, eps):
    """Exact hockey-stick divergence sup_S P1(S) - e^eps P2(S) of N(m1, s1^2 I) and N(m2, s2^2 I)."""
    p = m1.size
    if s1 == s2:
        mu = np.linalg.norm(m1 - m2) / s1
        return stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)
    # The privacy loss log(p1 / p2) is a * ||x - c||^2 + k: a noncentral chi-square under either side.
    a = 1 / (2 * s2**2) - 1 / (2 * s1**2)
    c = (m2 / s2**2 - m1 / s1**2) / (2 * a)
    k = -p * math.log(s1 / s2) + m2 @ m2 / (2 * s2**2) - m1 @ m1 / (2 * s1**2) - a * (c @ c)
    t = (eps - k) / a  # loss > eps  <=>  ||x - c||^2 > t (a > 0) or < t (a < 0)

    def prob(m, s):
        if t <= 0:
            return float(a > 0)
        chi2 = stats.ncx2(p, float((m - c) @ (m - c)) / s**2)
        return chi2.sf(t / s**2) if a > 0 else chi2.cdf(t / s**2)

    return max(0.0, prob(m1, s1) - math.exp(eps) * prob(m2, s2))


def _exact_epsilon(m1, s1, m2, s2, delta):
    def excess(eps):
        return max(_delta_two_gaussians(m1, s1, m2, s2, eps), _delta_two_gaussians(m2, s2, m1, s1, eps)) - delta

    return brentq(excess, 0.0, 100.0, xtol=1e-9) if excess(0.0) > 0 else 0.0


@pytest.mark.parametrize("normaliser, holds", [(FIXED, True), (OLD, False)])
def test_the_released_model_keeps_its_claim_exactly(normaliser, holds):
    # The means come from noiseless runs; the spread is lr * sigma * C / B, what train_dpsgd adds (tested below).
    means = [_one_released_step(data, normaliser, 0.0, 0) for data in (SMALL_A, SMALL_B)]
    spreads = [CLAIM_SIGMA / normaliser(data[0]) for data in (SMALL_A, SMALL_B)]
    epsilon = _exact_epsilon(means[0], spreads[0], means[1], spreads[1], CLAIM_DELTA)
    if holds:
        assert epsilon <= CLAIM_EPSILON * (1 + 1e-6)
    else:  # dividing by len(X): about 4.8 for a claimed 1.0 (the design notes' pair gives 5.9)
        assert epsilon > 4 * CLAIM_EPSILON


@pytest.mark.parametrize("normaliser, refuted", [(FIXED, False), (OLD, True)])
def test_the_spread_of_the_released_model_does_not_reveal_the_number_of_examples(normaliser, refuted):
    # Black box: 400 releases of a 36-parameter model on each of two neighbours (6 and 7 examples). Their
    # spread must be the same on both (sigma * C / B); a spread that depends on len(X) gives the privacy
    # loss unbounded tails (the exact test above).
    arch = Architecture(8, 4)
    X = np.random.default_rng(5).random((7, 8))
    y = np.array([0, 1, 2, 3, 0, 1, 2])
    spreads = []
    for n in (6, 7):
        def release(sigma, seed):
            return train_dpsgd(arch, X[:n], y[:n], clip_norm=1.0, noise_multiplier=sigma, sample_rate=1.0,
                               expected_batch_size=normaliser(X[:n]), steps=1, learning_rate=1.0, rng=seed).params
        draws = np.array([release(CLAIM_SIGMA, seed) for seed in range(400)]) - release(0.0, 0)
        spreads.append(float(np.sqrt((draws**2).mean())))
    ratio = spreads[1] / spreads[0]  # standard error sqrt(2 / (400 * 36)) = 1.2% when the spreads are equal
    if refuted:
        assert abs(ratio - 1) > 6 * 0.012  # 7 examples against 6: the ratio is 6/7
    else:
        assert abs(ratio - 1) < 6 * 0.012
        assert spreads[0] == pytest.approx(CLAIM_SIGMA / 3.0, rel=6 * 0.009)


@pytest.mark.parametrize("call, name", [
    (lambda huge: Architecture(huge, 2), "n_features"),
    (lambda huge: Architecture(2, huge), "n_classes"),
    (lambda huge: Architecture(2, 2, hidden=huge), "hidden"),
    (lambda huge: Architecture(10**5, 10**4), "n_classes"),  # each size fits, their product does not
    (lambda huge: poisson_sample(huge, 0.5, rng=0), "n"),
    (lambda huge: private_gradient_sum(np.ones((3, 2)), 1.0, 1.0, 0.5, rng=0, size=huge), "size"),
    (lambda huge: train_dpsgd(Architecture(1, 2), [[0.0], [1.0]], [0, 1], clip_norm=1.0, noise_multiplier=1.0,
                              sample_rate=0.5, expected_batch_size=1, steps=huge, learning_rate=1.0, rng=0),
     "steps"),
    (lambda huge: dpsgd_epsilon(0.01, 1.0, huge, 1e-5), "steps"),
    (lambda huge: compare_accounting(0.01, 1.0, huge, 1e-5), "steps"),
    (lambda huge: noise_multiplier_for_epsilon(1.0, 0.01, huge, 1e-5), "steps"),
])
def test_huge_sizes_are_a_clear_error_not_a_memory_error(call, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call(10**12)


@pytest.mark.parametrize("bad", [np.array(["rdp"]), ["rdp"], None])
@pytest.mark.parametrize("call", [
    lambda v: dpsgd_epsilon(0.1, 1.0, 10, 1e-5, accountant=v),
    lambda v: noise_multiplier_for_epsilon(1.0, 0.1, 10, 1e-5, accountant=v),
])
def test_accountant_that_is_not_a_string_is_a_clear_error(bad, call):
    with pytest.raises(TypeError, match="accountant must be one of .* \\(a string\\)"):
        call(bad)


ARCH = Architecture(2, 2)


@pytest.mark.parametrize("call, error, match", [
    (lambda: predict_proba(None, np.zeros(6), [[1.0, 2.0]]), TypeError, "architecture must be an Architecture"),
    (lambda: predict_proba(ARCH, np.zeros(6), [["a", "b"]]), TypeError, "X must hold numbers only"),
    (lambda: predict_proba(ARCH, np.zeros(6), [[np.nan, 1.0]]), ValueError, "X contains NaN"),
    (lambda: predict_proba(ARCH, ["a"] * 6, [[1.0, 2.0]]), TypeError, "params must hold numbers only"),
    (lambda: predict_proba(ARCH, np.full(6, np.nan), [[1.0, 2.0]]), ValueError, "params contains NaN"),
    (lambda: per_example_loss(ARCH, np.zeros(6), [[1.0, 2.0]], None), TypeError, "y must be an array of class"),
    (lambda: accuracy(ARCH, np.zeros(6), [[1.0, 2.0]], None), TypeError, "y must be an array of class"),
    (lambda: per_example_gradients(ARCH, np.zeros(6), "abc", [0]), TypeError, "X must be an array of numbers"),
    (lambda: train_dpsgd(ARCH, [[0.0, 1.0], [1.0, 0.0]], None, clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.5,
                         expected_batch_size=1, steps=2, learning_rate=1.0, rng=0), TypeError,
     "y must be an array of class"),
    (lambda: train_dpsgd(ARCH, [[0.0, 1.0], [1.0, 0.0]], [0, 1], clip_norm=1.0, noise_multiplier=1.0, sample_rate=0.5,
                         expected_batch_size=1, steps=2, learning_rate=1.0, rng=0, params="abc"), TypeError,
     "params must be an array"),
])
def test_models_explain_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("call, match", [
    (lambda: dpsgd_epsilon(0.1, 1e-3, 10, 1e-5), "epsilon is about .* too large for memory"),
    (lambda: compare_accounting(0.1, 1e-3, 10, 1e-5), "epsilon is about .* too large for memory"),
    (lambda: dpsgd_epsilon(0.1, 1e300, 10, 1e-5), "noise_multiplier=1e\\+300 is too large"),
    (lambda: compare_accounting(0.1, 1e300, 10, 1e-5), "noise_multiplier=1e\\+300 is too large"),
    (lambda: noise_multiplier_for_epsilon(1e-6, 0.1, 10, 1e-5), "target_epsilon=1e-06 is too small"),
    (lambda: dpsgd_epsilon(0.1, 1e-300, 10, 1e-5), "noise_multiplier=1e-300 is too small"),
    (lambda: dpsgd_epsilon(0.1, 1e-300, 10, 1e-5, accountant="rdp"), "noise_multiplier=1e-300 is too small"),
])
def test_accounting_outside_what_dp_accounting_can_do_is_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_gaussian_epsilon_is_inf_beyond_floating_point():
    assert gaussian_epsilon(1e-300, 1e-5) == math.inf


def test_noise_multiplier_for_a_generous_target_is_the_smallest_searched():
    assert noise_multiplier_for_epsilon(1e6, 0.1, 10, 1e-5) == 0.05


def test_noise_multiplier_with_pld_meets_its_target():
    sigma = noise_multiplier_for_epsilon(2.0, 1.0, 3, 1e-5, accountant="pld", rel_tol=0.01)
    assert dpsgd_epsilon(1.0, sigma, 3, 1e-5) <= 2.0 < dpsgd_epsilon(1.0, 0.95 * sigma, 3, 1e-5)


def test_an_empty_dataset_trains_on_noise_only():
    """n = 0 is a neighbour of every one-example dataset (add/remove): each step adds N(0, (sigma C)^2) / B."""
    arch = Architecture(2, 2)
    start = init_params(arch, 0)
    clip_norm, sigma, batch, lr = 0.5, 2.0, 4.0, 0.3
    moves = np.array([train_dpsgd(arch, np.zeros((0, 2)), np.zeros(0, dtype=int), clip_norm=clip_norm,
                                  noise_multiplier=sigma, sample_rate=0.5, expected_batch_size=batch, steps=1,
                                  learning_rate=lr, rng=seed, params=start).params - start for seed in range(200)])
    assert np.all(np.abs(moves).sum(axis=1) > 0)  # never noiseless
    sd = lr * sigma * clip_norm / batch
    # 200 x len(start) draws: the sample sd is within 10% of sd with probability > 1 - 1e-6
    assert abs(moves.std() / sd - 1) < 0.1
    assert abs(moves.mean()) < 5 * sd / math.sqrt(moves.size)
    run = train_dpsgd(arch, np.zeros((0, 2)), np.zeros(0, dtype=int), clip_norm=clip_norm, noise_multiplier=0.0,
                      sample_rate=0.5, expected_batch_size=batch, steps=3, learning_rate=lr, rng=0, params=start)
    assert np.array_equal(run.params, start) and run.batch_sizes == [0, 0, 0]
