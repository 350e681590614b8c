"""Tests of lesson 06's group-means synthetic data (gdp, groupings, group_means, evaluation, kip, synthetic_audit).

Statistical tests use fixed seeds; tolerances are stated next to each assertion and are several
standard errors wide. Privacy claims are tested two ways: the sensitivity bounds directly
(one replaced record moves the group means by at most what the analysis says) and with the
empirical audit (the data-dependent clustering is refuted, the fixes are not).
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.optimize import check_grad
from scipy.stats import norm

from mic_dp_helpers.synthetic import kip
from mic_dp_helpers.synthetic import audit as synthetic_audit
from mic_dp_helpers import synthetic as S
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.noise import gaussian_delta, gaussian_sigma_analytic

# ------------------------------------------------------------------------------ Gaussian DP


def _delta_by_integration(epsilon, mu):
    """Hockey-stick divergence between N(mu, 1) and N(0, 1), by numerical integration."""
    f = lambda x: max(norm.pdf(x, loc=mu) - math.exp(epsilon) * norm.pdf(x), 0.0)  # noqa: E731
    cut = epsilon / mu + mu / 2  # the integrand is positive exactly above this point
    return quad(f, cut, cut + 40, epsabs=1e-14, epsrel=1e-10, limit=200)[0]


@pytest.mark.parametrize("epsilon, mu, expected", [
    (1.0, 1.0, 0.126936),  # Dong, Roth & Su: 1-GDP is (1, 0.127)-DP
    (0.0, 1.0, 2 * norm.cdf(0.5) - 1),  # total variation distance of N(0,1) and N(1,1)
    (0.0, 2.0, 2 * norm.cdf(1.0) - 1),
])
def test_gdp_delta_known_values(epsilon, mu, expected):
    assert S.gdp_delta(epsilon, mu) == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 3.0, 8.0])
@pytest.mark.parametrize("mu", [0.2, 0.5, 1.0, 2.0, 5.0])
def test_gdp_delta_matches_integration_and_the_analytic_gaussian(epsilon, mu):
    delta = S.gdp_delta(epsilon, mu)
    assert delta == pytest.approx(_delta_by_integration(epsilon, mu), rel=1e-6, abs=1e-15)
    # mu-GDP is the Gaussian mechanism with sensitivity/sigma = mu (Balle & Wang's formula).
    assert delta == pytest.approx(gaussian_delta(mu, 1.0, epsilon), rel=1e-12)


def test_gdp_delta_is_stable_for_large_epsilon():
    # Naive Phi(...) - e^eps Phi(...) underflows or cancels here; the log-space version does not.
    tiny = S.gdp_delta(30.0, 1.0)
    assert 0 < tiny < 1e-150
    assert math.log(tiny) == pytest.approx(norm.logcdf(-30.0 + 0.5) + math.log1p(-math.exp(30.0 + norm.logcdf(-30.5)
                                                                                           - norm.logcdf(-29.5))),
                                           rel=1e-9)
    assert S.gdp_delta(0.0, 1e-8) == pytest.approx(2 * norm.pdf(0) * 0.5e-8, rel=1e-6)


def test_gdp_delta_is_monotone():
    epsilons = np.linspace(0, 40, 81)
    deltas = [S.gdp_delta(e, 1.5) for e in epsilons]
    assert all(a > b for a, b in zip(deltas, deltas[1:])), "delta falls as epsilon grows"
    mus = np.geomspace(0.1, 10, 60)  # outside, delta(2, mu) rounds to 0 or 1
    deltas = [S.gdp_delta(2.0, m) for m in mus]
    assert all(a < b for a, b in zip(deltas, deltas[1:])), "delta grows with mu"
    assert all(0 <= d < 1 for d in deltas)


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0, 4.0, 10.0, 50.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-6, 1e-3, 0.2])
def test_gdp_mu_inverts_gdp_delta(epsilon, delta):
    mu = S.gdp_mu(epsilon, delta)
    achieved = S.gdp_delta(epsilon, mu)
    assert achieved <= delta  # never on the unsafe side
    assert achieved == pytest.approx(delta, rel=1e-8)
    if epsilon > 0:
        assert S.gdp_epsilon(mu, delta) == pytest.approx(epsilon, rel=1e-8, abs=1e-10)


def test_gdp_mu_known_values_and_monotonicity():
    assert S.gdp_mu(1.0, 1e-5) == pytest.approx(1 / gaussian_sigma_analytic(1.0, 1.0, 1e-5), rel=1e-9)
    assert S.gdp_mu(0.0, 2 * norm.cdf(0.5) - 1) == pytest.approx(1.0, rel=1e-9)
    by_epsilon = [S.gdp_mu(e, 1e-6) for e in (0.5, 1, 2, 5, 10)]
    by_delta = [S.gdp_mu(1.0, d) for d in (1e-10, 1e-6, 1e-3, 1e-1)]
    assert np.all(np.diff(by_epsilon) > 0) and np.all(np.diff(by_delta) > 0)


def test_gdp_epsilon_is_zero_when_delta_is_loose():
    assert S.gdp_epsilon(1.0, 0.5) == 0.0  # delta(0, 1) = 0.383 < 0.5
    assert S.gdp_epsilon(1.0, 1e-5) == pytest.approx(4.377, abs=1e-3)


@pytest.mark.parametrize("call, error, match", [
    (lambda: S.gdp_mu(1.0, 0.0), ValueError, "delta = 0 is impossible"),
    (lambda: S.gdp_mu(1.0, 1.0), ValueError, r"delta must be in \(0, 1\)"),
    (lambda: S.gdp_mu(-1.0, 1e-5), ValueError, "epsilon must be a finite number >= 0"),
    (lambda: S.gdp_mu(float("inf"), 1e-5), ValueError, "epsilon must be a finite number >= 0"),
    (lambda: S.gdp_epsilon(1.0, 0), ValueError, "delta = 0 is impossible"),
    (lambda: S.gdp_delta(1.0, 0.0), ValueError, "mu must be > 0"),
    (lambda: S.gdp_delta("1", 1.0), TypeError, "epsilon must be a number"),
    (lambda: S.gdp_compose(), ValueError, "at least one mu"),
    (lambda: S.group_mean_sigma(0, 2, 1.0, 1e-5), ValueError, "l must be an integer >= 1"),
])
def test_impossible_targets_and_bad_arguments_raise(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_composition_and_group_mean_calibration():
    assert S.gdp_compose(0.3, 0.4) == pytest.approx(0.5)
    assert S.gdp_compose(*[0.5] * 4) == pytest.approx(1.0)  # sqrt(r) growth for r equal releases
    assert S.group_mean_mu(48, 0.1, 2) == pytest.approx(math.sqrt(2) / 4.8)
    assert S.group_mean_mu(48, 0.1, 2, groups_touched=2) == pytest.approx(2 / 4.8)  # the paper's 0.042 / sigma
    sigma = S.group_mean_sigma(20, 30, 2.0, 1e-6, groups_touched=3)
    assert S.group_mean_mu(20, sigma, 30, groups_touched=3) == pytest.approx(S.gdp_mu(2.0, 1e-6), rel=1e-12)


# ------------------------------------------------------------------------------------ scaling


def test_scale_to_unit_clips_and_uses_only_the_public_bounds():
    X = np.array([[-5.0, 0.0], [5.0, 10.0], [20.0, 2.5]])
    U = S.scale_to_unit(X, [0, 0], [10, 10])
    assert U.tolist() == [[0.0, 0.0], [0.5, 1.0], [1.0, 0.25]]
    # The scale of a record does not depend on the other records (it would with min-max scaling).
    assert np.array_equal(S.scale_to_unit(X[:1], [0, 0], [10, 10]), U[:1])
    assert np.allclose(S.unscale_from_unit(U, 0, 10), np.clip(X, 0, 10))


@pytest.mark.parametrize("lower, upper, match", [
    (1.0, 1.0, "every lower bound must be < its upper bound"),
    ([0, 5], [1, 2], "feature 1 has lower=5.0"),
    (0, np.nan, "upper contains NaN"),
])
def test_scale_to_unit_rejects_bad_bounds(lower, upper, match):
    with pytest.raises(ValueError, match=match):
        S.scale_to_unit(np.zeros((2, 2)), lower, upper)


def test_public_bounds_and_load_task():
    X, y, lower, upper = S.load_task("breast_cancer")
    assert X.shape == (569, 30) and set(np.unique(y)) == {0, 1}
    assert (lower == 0).all() and (upper > 0).all()
    assert (X > upper).mean() < 0.01, "the public bounds clip only a few extreme values"
    X, y, lower, upper = S.load_task("digits")
    assert X.shape == (1797, 64) and (X <= upper).all() and (X >= lower).all()
    with pytest.raises(ValueError, match="no public bounds"):
        S.public_bounds("iris")
    with pytest.raises(ValueError, match="unknown task"):
        S.load_task("mnist")


# ---------------------------------------------------------------------------------- groupings


def _is_partition(groups, n):
    joined = np.concatenate(groups)
    return len(joined) == n and np.array_equal(np.sort(joined), np.arange(n))


@given(n=st.integers(1, 400), l=st.integers(1, 60))
@settings(max_examples=150, deadline=None)
def test_kd_leaf_sizes_depend_only_on_n_and_l(n, l):
    if n < l:
        with pytest.raises(ValueError, match="cannot form a group"):
            S.kd_leaf_sizes(n, l)
        return
    sizes = S.kd_leaf_sizes(n, l)
    assert len(sizes) == n // l and sum(sizes) == n and min(sizes) >= l


@pytest.mark.parametrize("n, l", [(10, 3), (100, 48), (137, 9), (50, 50)])
def test_random_groups_partition(n, l):
    groups = S.random_groups(n, l, rng=0)
    assert _is_partition(groups, n) and len(groups) == n // l and min(map(len, groups)) >= l
    assert sorted(map(len, groups)) == sorted(map(len, S.random_groups(n, l, rng=1)))  # sizes are public
    if n // l > 1:
        assert not all(np.array_equal(a, b) for a, b in zip(groups, S.random_groups(n, l, rng=1)))


@pytest.mark.parametrize("seed", range(6))
def test_kd_groups_change_by_at_most_one_record_per_leaf(seed):
    rng = np.random.default_rng(seed)
    n, dim, l = int(rng.integers(40, 200)), int(rng.integers(1, 5)), int(rng.integers(3, 15))
    X = rng.random((n, dim))
    if seed % 2:
        X = np.round(X, 1)  # many ties: broken by row index
    X2 = X.copy()
    changed = int(rng.integers(n))
    X2[changed] = rng.random(dim)
    before, after = S.kd_groups(X, l), S.kd_groups(X2, l)
    assert [len(g) for g in before] == S.kd_leaf_sizes(n, l) == [len(g) for g in after]
    assert _is_partition(before, n) and _is_partition(after, n)
    for old, new in zip(before, after):
        assert len(set(old.tolist()) ^ set(new.tolist())) <= 2, "a leaf lost or gained more than one record"
    shift = np.sqrt(sum(((X[o].mean(0) - X2[g].mean(0)) ** 2).sum() for o, g in zip(before, after)))
    assert shift <= math.sqrt(len(before) * dim) / l + 1e-12  # the sensitivity the release is calibrated to


def test_random_partition_moves_one_group_mean_by_at_most_sqrt_d_over_l():
    rng = np.random.default_rng(3)
    X = rng.random((90, 4))
    X2 = X.copy()
    X2[17] = 1 - X2[17]
    for seed in range(5):
        groups = S.random_groups(90, 20, rng=seed)  # the same partition for both (it ignores the data)
        moves = [np.linalg.norm(X[g].mean(0) - X2[g].mean(0)) for g in groups]
        assert sum(m > 0 for m in moves) == 1 and max(moves) <= math.sqrt(4) / 20


@pytest.mark.parametrize("method", ["kmeans", "gmm"])
def test_cluster_groups_respect_the_minimum_size(method):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.05, (30, 2)), rng.normal(1, 0.05, (7, 2))])  # a small natural cluster
    groups = S.cluster_groups(X, 10, method=method, rng=0)
    assert _is_partition(groups, 37) and len(groups) == 3 and min(map(len, groups)) >= 10
    with pytest.raises(ValueError, match="method must be"):
        S.cluster_groups(X, 10, method="dbscan")


@pytest.mark.parametrize("seed", range(40))
def test_size_constrained_assignment_is_optimal(seed):
    """The assignment step against brute force over every labelling, on costs where the cheapest
    column of each row sometimes meets the minimum size (the shortcut) and sometimes does not."""
    import itertools

    from mic_dp_helpers.synthetic.groupings import _min_size_assignment

    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(4, 8)), int(rng.integers(2, 4))
    l = int(rng.integers(1, n // k + 1))
    cost = rng.random((n, k)) ** (3 if seed % 2 else 1)
    labels = _min_size_assignment(cost, l)
    assert np.bincount(labels, minlength=k).min() >= l
    best = min(cost[np.arange(n), list(labelling)].sum() for labelling in itertools.product(range(k), repeat=n)
               if np.bincount(labelling, minlength=k).min() >= l)
    assert cost[np.arange(n), labels].sum() == pytest.approx(best, abs=1e-12)


def test_clustering_moves_every_centroid_on_the_four_corners_pair():
    A, B = S.four_corners_pair()
    assert int((A != B).any(axis=1).sum()) == 1  # replace-one neighbours
    centroids = [np.stack([X[g].mean(0) for g in S.cluster_groups(X, 48, rng=0)]) for X in (A, B)]
    shift = S.matched_centroid_shift(*centroids)
    claimed = math.sqrt(2 * 2) / 48  # the paper's sqrt(C D)/l with C = 2 clusters
    assert shift > 0.95 and shift / claimed > 20


def test_matched_centroid_shift():
    assert S.matched_centroid_shift([[0, 0], [1, 1]], [[1, 1], [0, 0.5]]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same shape"):
        S.matched_centroid_shift([[0, 0]], [[0, 0], [1, 1]])


# -------------------------------------------------------------------------------- choosing l


@pytest.mark.parametrize("grouping", ["random", "kd"])
def test_smallest_group_size_is_smallest(grouping):
    counts, dim, eps, delta, max_sigma = [150, 260], 30, 10.0, 1e-6, 0.3
    l = S.smallest_group_size(counts, dim, eps, delta, max_sigma, grouping)
    sigma = lambda l: S.group_mean_sigma(l, dim, eps, delta, S.groups_touched(grouping, max(counts), l))  # noqa: E731
    assert sigma(l) <= max_sigma < sigma(l - 1)


def test_smallest_group_size_raises_when_impossible():
    with pytest.raises(ValueError, match="no group size reaches max_sigma"):
        S.smallest_group_size([20, 30], 64, 0.1, 1e-8, 0.1)
    with pytest.raises(ValueError, match="only defined for grouping='random'"):
        S.smallest_group_size([200], 2, 1.0, 1e-6, 0.3, "kd", repeats=2)


# ------------------------------------------------------------------------------------ release


def _toy(n=400, dim=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.uniform(0, 10, (n, dim)) + 3 * y[:, None]
    return X, y


@pytest.mark.parametrize("grouping", ["random", "kd", "cluster"])
def test_release_shape_labels_and_metadata(grouping):
    X, y = _toy()
    release = S.release_group_means(X, y, 0, 15, 2.0, 1e-6, grouping=grouping, l=40, rng=0)
    assert len(release) == 10 and release.X_unit.shape == (10, 3) and sorted(release.y.tolist()) == [0] * 5 + [1] * 5
    assert ((release.X_unit >= 0) & (release.X_unit <= 1)).all()
    assert np.allclose(release.X, release.X_unit * 15)
    meta = release.metadata
    assert meta["differentially_private"] is (grouping != "cluster")
    assert meta["class_counts"] == {0: 200, 1: 200} and meta["delta"] == 1e-6 and meta["l"] == 40
    assert meta["groups_touched"] == (1 if grouping == "random" else 5)
    assert meta["mu"] == pytest.approx(S.gdp_mu(2.0, 1e-6))
    assert meta["sigma"] == pytest.approx(S.group_mean_sigma(40, 3, 2.0, 1e-6, meta["groups_touched"]))
    assert any("class counts are public" in a for a in meta["assumptions"])
    assert any("bounds" in a for a in meta["assumptions"]) and "replace one record" in meta["neighbouring"]
    assert ("NOT" in meta["privacy_note"]) is (grouping == "cluster")
    assert ("NOT DP" in repr(release)) is (grouping == "cluster")


def test_release_noise_has_the_calibrated_standard_deviation():
    X = np.full((4000, 4), 5.0)  # every group mean is exactly 0.5 after scaling: the output is 0.5 + noise
    y = np.repeat([0, 1], 2000)
    release = S.release_group_means(X, y, 0, 10, 10.0, 1e-6, l=20, rng=0)
    noise = release.X_unit - 0.5
    sigma = release.metadata["sigma"]
    assert sigma < 0.15  # so clipping at 0 and 1 is negligible (> 3 sigma away)
    # 800 values: the sample sd is within 10% of sigma with overwhelming probability (se ~ 2.5%).
    assert np.std(noise) == pytest.approx(sigma, rel=0.1) and abs(noise.mean()) < 4 * sigma / math.sqrt(noise.size)


def test_release_picks_smallest_l_and_repeats_scale_noise():
    X, y = _toy(n=600, dim=5)
    one = S.release_group_means(X, y, 0, 15, 5.0, 1e-6, max_sigma=0.3, rng=0)
    four = S.release_group_means(X, y, 0, 15, 5.0, 1e-6, l=one.metadata["l"], repeats=4, rng=0)
    assert one.metadata["l"] == S.smallest_group_size([300, 300], 5, 5.0, 1e-6, 0.3)
    assert len(four) == 4 * len(one) and four.metadata["sigma"] == pytest.approx(2 * one.metadata["sigma"])


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(l=None), ValueError, "give exactly one of l"),
    (dict(l=10, max_sigma=0.2), ValueError, "give exactly one of l"),
    (dict(l=500), ValueError, "larger than the smallest class"),
    (dict(l=10, grouping="kd", repeats=2), ValueError, "only defined for grouping='random'"),
    (dict(l=10, grouping="gmm"), ValueError, "grouping must be one of"),
    (dict(l=10, delta=0.0), ValueError, "delta = 0 is impossible"),
])
def test_release_argument_errors(kwargs, error, match):
    X, y = _toy()
    arguments = dict(epsilon=1.0, delta=1e-6) | kwargs
    with pytest.raises(error, match=match):
        S.release_group_means(X, y, 0, 15, **arguments)


def test_release_warns_when_delta_is_not_much_smaller_than_one_over_n():
    X, y = _toy()
    with pytest.warns(UserWarning, match="not much smaller than 1/N"):
        S.release_group_means(X, y, 0, 15, 1.0, 1 / 400, l=20, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        S.release_group_means(X, y, 0, 15, 1.0, 1e-7, l=20, rng=0)


# ------------------------------------------------------------------------------------- audits


def test_audit_refutes_clustered_release_and_not_the_fixes():
    A, B = S.four_corners_pair()
    l, dim, eps, delta = 48, 2, 1.0, 1e-5
    paper_sigma = S.group_mean_sigma(l, dim, eps, delta, groups_touched=2)
    clustered = audit_epsilon(S.spread_mechanism("cluster", l, paper_sigma), A, B, n_samples=20_000, rng=0, delta=delta)
    assert clustered.epsilon_lower_bound > 5, "one record flips the clustering: far more than epsilon = 1"
    kd = audit_epsilon(S.spread_mechanism("kd", l, paper_sigma), A, B, n_samples=20_000, rng=0, delta=delta)
    random = audit_epsilon(S.spread_mechanism("random", l, S.group_mean_sigma(l, dim, eps, delta)), A, B,
                           n_samples=20_000, rng=0, delta=delta)
    assert not kd.refutes(eps) and not random.refutes(eps)


def test_random_partition_sampler_gives_exact_group_means():
    # Every draw is a real partition: the group means average back to the overall mean.
    A, _ = S.four_corners_pair()
    means = synthetic_audit._random_partition_means(A, 30, 500, np.random.default_rng(0))
    sizes = np.array([len(g) for g in np.array_split(np.arange(100), 3)])
    assert means.shape == (500, 3, 2)
    assert np.allclose((means * sizes[None, :, None]).sum(axis=1) / 100, A.mean(axis=0))
    # Group 0's x-mean: mean of 34 draws without replacement; its sd matches the finite-population formula
    # (rel. tolerance 15% with 500 draws, se of an sd estimate ~ 3%).
    expected_sd = A[:, 0].std() * math.sqrt((100 - 34) / (99 * 34))
    assert means[:, 0, 0].std() == pytest.approx(expected_sd, rel=0.15)


def test_spread_mechanism_rejects_a_single_group():
    with pytest.raises(ValueError, match="at least two groups"):
        S.spread_mechanism("kd", 60, 0.1)(np.zeros((100, 2)), 10, 0)


# --------------------------------------------------------------------------------- evaluation


def test_evaluate_tstr_metrics():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    y2 = (X[:, 0] > 0).astype(int)
    scores = S.evaluate_tstr(X[:200], y2[:200], X[200:], y2[200:])
    assert set(scores) == {"hgb", "logreg"} and scores["logreg"] > 0.97 and scores["hgb"] > 0.9  # AUC
    y3 = np.digitize(X[:, 0], [-0.5, 0.5])
    accuracy = S.evaluate_tstr(X[:200], y3[:200], X[200:], y3[200:], models=["logreg"])["logreg"]
    assert 0.85 < accuracy <= 1.0
    constant = S.evaluate_tstr(X[:200], y2[:200], X[200:], np.where(y2[200:] == 1, 0, 1), models=["logreg"])
    assert constant["logreg"] < 0.1, "AUC must use the right class as positive"
    with pytest.raises(ValueError, match="at least two classes"):
        S.evaluate_tstr(X[:10], np.zeros(10), X, y2)
    with pytest.raises(ValueError, match="unknown model"):
        S.evaluate_tstr(X[:200], y2[:200], X[200:], y2[200:], models=["svm"])


def test_split_real_is_stratified():
    X, y, _, _ = S.load_task("breast_cancer")
    X_train, X_test, y_train, y_test = S.split_real(X, y, rng=0)
    assert len(X_test) == math.ceil(0.25 * 569) and abs(y_test.mean() - y.mean()) < 0.01


# -------------------------------------------------------------------------------------- adapt


def test_kip_gradient_is_correct():
    rng = np.random.default_rng(0)
    X_s, X_t = rng.random((6, 3)), rng.random((10, 3))
    Y_s, Y_t = np.eye(2)[rng.integers(0, 2, 6)], np.eye(2)[rng.integers(0, 2, 10)]
    args = ((6, 3), Y_s, X_t, Y_t, 2.0, 0.1)
    error = check_grad(lambda v: kip._kip_loss_and_grad(v, *args)[0], lambda v: kip._kip_loss_and_grad(v, *args)[1],
                       X_s.ravel())
    assert error < 1e-6 * max(1.0, np.linalg.norm(kip._kip_loss_and_grad(X_s.ravel(), *args)[1]))


def test_kip_adapt_lowers_the_loss_and_labels_privacy():
    X, y = _toy(n=400, dim=3)
    release = S.release_group_means(X[::2], y[::2], 0, 15, 2.0, 1e-6, l=20, rng=0)
    public = S.kip_adapt(release, X[1::2], y[1::2], target_is_public=True, max_iter=20)
    private = S.kip_adapt(release, X[::2], y[::2], target_is_public=False, max_iter=20)
    assert public.metadata["differentially_private"] and public.metadata["adapted"]
    assert not private.metadata["differentially_private"] and "PRIVATE" in private.metadata["privacy_note"]
    assert public.X_unit.shape == release.X_unit.shape and not np.allclose(public.X_unit, release.X_unit)
    assert ((public.X_unit >= 0) & (public.X_unit <= 1)).all()
    start = kip._kip_loss_and_grad(release.X_unit.ravel(), release.X_unit.shape,
                                 *_kip_targets(release, X[1::2], y[1::2]))[0]
    assert public.metadata["kip_loss"] < start
    with pytest.raises(TypeError, match="target_is_public must be True or False"):
        S.kip_adapt(release, X, y, target_is_public="yes")


def _kip_targets(release, X_target, y_target):
    X_t = S.scale_to_unit(X_target, release.lower, release.upper)
    classes = np.unique(np.concatenate([release.y, y_target]))
    hot = lambda labels: (labels[:, None] == classes[None, :]).astype(float) - 1 / len(classes)  # noqa: E731
    return hot(release.y), X_t, hot(np.asarray(y_target)), 1.0 / (X_t.shape[1] * X_t.var()), 1e-2


def test_synthetic_reexports_the_split_modules():
    # Lessons, exercises and checks import from mic_dp_helpers.synthetic: each name is the defining module's object.
    from mic_dp_helpers.synthetic import evaluation
    from mic_dp_helpers.accounting import gdp
    from mic_dp_helpers.synthetic import group_means
    from mic_dp_helpers.synthetic import groupings

    modules = (gdp, groupings, group_means, evaluation, kip, synthetic_audit)
    for name in S.__all__:
        owners = [m for m in modules if name in getattr(m, "__all__", ())]
        assert len(owners) == 1 and getattr(S, name) is getattr(owners[0], name), name


# ------------------------------------------------------------------------ size caps (shared check_size)
@pytest.mark.parametrize("call, name", [
    (lambda huge: S.smallest_group_size([huge, huge], 2, 1.0, 1e-5, 0.1), r"class_counts\[0\]"),
    (lambda huge: S.release_group_means(np.random.default_rng(0).random((20, 2)), [0, 1] * 10, 0, 1, 1.0, 1e-5,
                                        l=5, repeats=huge, rng=0), "repeats"),
    (lambda huge: S.evaluate_tstr(np.zeros((4, 1)), [0, 1, 0, 1], np.zeros((2, 1)), [0, 1], max_iter=huge), "max_iter"),
    (lambda huge: S.two_way_tv([[0, 1]], [[0, 1]], [huge, 2]), r"sizes\[0\]"),
    (lambda huge: S.four_corners_pair(huge), "n_per_corner"),
    (lambda huge: S.spread_mechanism("random", 48, 0.1)(S.four_corners_pair()[0], huge, np.random.default_rng(0)),
     "size"),
])
def test_huge_sizes_are_a_clear_error_not_a_memory_error(call, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call(10**12)


@pytest.mark.parametrize("call, name", [
    (lambda v: S.public_bounds(v), "name"),
    (lambda v: S.load_task(v), "name"),
    (lambda v: S.smallest_group_size([100, 100], 2, 1.0, 1e-5, 0.1, grouping=v), "grouping"),
    (lambda v: S.release_group_means(np.zeros((20, 2)), [0, 1] * 10, 0, 1, 1.0, 1e-5, l=5, grouping=v), "grouping"),
    (lambda v: S.release_group_means(np.zeros((20, 2)), [0, 1] * 10, 0, 1, 1.0, 1e-5, l=5, cluster_method=v),
     "cluster_method"),
    (lambda v: S.spread_mechanism(v, 5, 0.1), "grouping"),
    (lambda v: S.spread_mechanism("kd", 5, 0.1, cluster_method=v), "cluster_method"),
    (lambda v: S.evaluate_tstr(np.zeros((4, 1)), [0, 1, 0, 1], np.zeros((2, 1)), [0, 1], models=[v]), r"models\[0\]"),
])
def test_a_name_that_is_not_a_string_is_a_clear_error(call, name):
    for bad in (pd.Series(["digits"]), np.array(["digits"]), ["digits"], None):
        with pytest.raises(TypeError, match=f"{name}.* must be one of .* \\(a string\\)"):
            call(bad)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(cluster_n_init=0), ValueError, "cluster_n_init must be an integer >= 1"),
    (dict(cluster_n_init="3"), TypeError, "cluster_n_init must be an integer"),
])
def test_release_group_means_checks_the_clustering_options_even_when_unused(kwargs, error, match):
    with pytest.raises(error, match=match):
        S.release_group_means(np.zeros((20, 2)), [0, 1] * 10, 0, 1, 1.0, 1e-5, l=5, **kwargs)


@pytest.mark.parametrize("bad", ["seed", 1.5, [1], -1])
def test_spread_mechanism_checks_the_cluster_rng_when_built(bad):
    with pytest.raises((TypeError, ValueError), match="cluster_rng must be"):
        S.spread_mechanism("cluster", 5, 0.1, cluster_rng=bad)


@pytest.mark.parametrize("call", [
    lambda lower, upper: S.scale_to_unit([[1.0, 2.0]], lower, upper),
    lambda lower, upper: S.unscale_from_unit([[0.5, 0.5]], lower, upper),
    lambda lower, upper: S.release_group_means(np.zeros((20, 2)), [0, 1] * 10, lower, upper, 1.0, 1e-5, l=5),
])
@pytest.mark.parametrize("lower, upper, match", [
    ([0, 0, 0], [5, 5, 5], "lower has 3 values but there are 2 features"),
    (0, [5, 5, 5], "upper has 3 values but there are 2 features"),
    ([[0, 0]], [5, 5], "lower must be a number or a 1-D list"),
])
def test_bounds_of_the_wrong_length_are_a_clear_error(call, lower, upper, match):
    with pytest.raises(ValueError, match=match):
        call(lower, upper)


def test_kip_adapt_refuses_a_target_with_other_features():
    release = S.release_group_means(np.random.default_rng(0).random((20, 2)), [0, 1] * 10, 0, 1, 1.0, 1e-5, l=5, rng=0)
    with pytest.raises(ValueError, match="lower has 2 values but there are 3 features"):
        kip.kip_adapt(release, np.zeros((4, 3)), [0, 1, 0, 1], target_is_public=True)


@pytest.mark.parametrize("mu", [1e300, 1e200])
def test_gdp_epsilon_is_inf_beyond_floating_point(mu):
    assert S.gdp_epsilon(mu, 1e-5) == math.inf


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(X=np.zeros(8), y=None), TypeError, "y must be a 1-D list or array of class labels"),
    (dict(X=np.zeros((8, 1)), y=[0, 1] * 3), ValueError, r"y must have one class label per row of X \(8\)"),
    (dict(X=np.zeros((8, 1)), y=[0, np.nan] * 4), ValueError, "y has missing labels"),
    (dict(X=5, y=[0, 1]), TypeError, "X must be a 2-D array or DataFrame"),
    (dict(X=np.zeros((3, 1)), y=[0, 1, 1]), ValueError, "a stratified split needs at least 2 rows of every class"),
    (dict(X=np.zeros((8, 1)), y=[0, 1] * 4, rng="seed"), TypeError, "rng must be None, a non-negative int seed"),
])
def test_split_real_checks_records_and_labels(kwargs, error, match):
    with pytest.raises(error, match=match):
        S.split_real(**kwargs)


@pytest.mark.parametrize("y_train, y_test, X_test, error, match", [
    ([0, np.nan] * 10, [0, 1] * 5, None, ValueError, "y_train has missing labels"),
    ([0, 1] * 9, [0, 1] * 5, None, ValueError, r"y_train must have one class label per row of X_train \(20\)"),
    ([0, 1] * 10, [0, 2] * 5, None, ValueError, "y_test's positive class 2 never occurs in y_train"),
    ([0, 1] * 10, [0, 1] * 5, np.zeros((10, 3)), ValueError, "X_train has 2 features but X_test has 3"),
    ([0, 1] * 10, None, None, TypeError, "y_test must be a 1-D list or array of class labels"),
])
def test_evaluate_tstr_checks_labels_before_fitting(y_train, y_test, X_test, error, match):
    X = np.random.default_rng(0).random((20, 2))
    with pytest.raises(error, match=match):
        S.evaluate_tstr(X, y_train, X[:10] if X_test is None else X_test, y_test, models=["logreg"])


@pytest.mark.parametrize("models, error", [([], TypeError), (None, TypeError), (["svm"], ValueError)])
def test_evaluate_tstr_needs_known_models(models, error):
    X = np.random.default_rng(0).random((20, 2))
    with pytest.raises(error, match="models|unknown model"):
        S.evaluate_tstr(X, [0, 1] * 10, X, [0, 1] * 10, models=models)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(y_target=[np.nan] * 6), ValueError, "y_target has missing labels"),
    (dict(y_target=[0, 1]), ValueError, r"y_target must have one class label per row of X_target \(6\)"),
    (dict(max_iter=10**12), ValueError, "max_iter=.* is too large"),
])
def test_kip_adapt_checks_labels_and_iterations(kwargs, error, match):
    release = S.release_group_means(np.random.default_rng(0).random((20, 2)), [0, 1] * 10, 0, 1, 1.0, 1e-5, l=5, rng=0)
    arguments = dict(X_target=np.random.default_rng(1).random((6, 2)), y_target=[0, 1] * 3, target_is_public=True,
                     max_iter=2) | kwargs
    with pytest.raises(error, match=match):
        kip.kip_adapt(release, **arguments)


@pytest.mark.parametrize("y, error, match", [
    ([0, np.nan] * 10, ValueError, "y has missing labels"),
    ([0, 1] * 9, ValueError, r"y must have one class label per row of X \(20\)"),
    (None, TypeError, "y must be a 1-D list or array of class labels"),
])
def test_release_group_means_checks_its_labels(y, error, match):
    with pytest.raises(error, match=match):
        S.release_group_means(np.zeros((20, 2)), y, 0, 1, 1.0, 1e-5, l=5)
