"""Checks for lesson 06 (DP synthetic data: 3A / ClustMix). Each calls the student's function on inputs it makes.

The random answer (06.4) is checked statistically with fixed seeds; each tolerance is stated
next to the test, with the false-fail probability for a correct answer. The reference solution
passes at these seeds (tests/test_checks.py runs it).
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers import synthetic
from mic_dp_helpers.audit import audit_epsilon
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number


# --------------------------------------------------------------------------------------- 06.1
@exercise("06.1", title="mu of a release of noisy group means", answer_name="release_mu")
def check_release_mu(answer) -> None:
    cases = [(48, 0.1, 2, 1), (48, 0.1, 2, 2), (10, 0.5, 64, 1), (25, 0.05, 30, 1), (7, 2.0, 9, 4), (100, 0.01, 1, 12)]
    for l, sigma, dim, touched in cases:
        got = expect_number(answer(l, sigma, dim, touched), "mu")
        expected = synthetic.group_mean_mu(l, sigma, dim, touched)
        if math.isclose(got, expected, rel_tol=1e-9):
            continue
        if math.isclose(got, synthetic.group_mean_mu(l, sigma, dim, 1), rel_tol=1e-9):
            raise CheckFailed("the answer ignores groups_touched: one record that moves several group means "
                              "moves the released vector further.")
        if math.isclose(got, dim * touched / (l * sigma), rel_tol=1e-9):
            raise CheckFailed("the dimension enters too strongly: the sensitivity is an L2 (Euclidean) distance "
                              "between two points of the unit cube.")
        if got > expected:
            raise CheckFailed(f"for l={l}, sigma={sigma}, dim={dim}, groups_touched={touched} your mu is too large: "
                              "does a bigger group really leave the mean as sensitive as you say?")
        raise CheckFailed(f"for l={l}, sigma={sigma}, dim={dim}, groups_touched={touched} your mu is too small. "
                          "mu is the sensitivity of the released vector divided by the noise's standard deviation.")


# --------------------------------------------------------------------------------------- 06.2
@exercise("06.2", title="delta of a mu-GDP mechanism", answer_name="delta_of_mu")
def check_delta_of_mu(answer) -> None:
    for epsilon in (0.0, 0.5, 1.0, 2.0, 5.0):
        for mu in (0.3, 1.0, 2.0, 4.0):
            got = expect_number(answer(epsilon, mu), "delta")
            expected = synthetic.gdp_delta(epsilon, mu)
            if abs(got - expected) <= 1e-12 + 1e-6 * expected:
                continue
            if not 0 <= got <= 1:
                raise CheckFailed(f"at epsilon={epsilon}, mu={mu} you returned {got:.3g}, which is no probability; "
                                  "check the signs inside the two normal CDFs.")
            if got > expected:
                raise CheckFailed(f"at epsilon={epsilon}, mu={mu} your delta is too large: is the second term "
                                  "there, and multiplied by the right factor?")
            raise CheckFailed(f"at epsilon={epsilon}, mu={mu} your delta is too small: check the signs of mu/2 in "
                              "the two terms.")


# --------------------------------------------------------------------------------------- 06.3
@exercise("06.3", title="Noise for a target (epsilon, delta)", answer_name="noise_for_target")
def check_noise_for_target(answer) -> None:
    cases = [(48, 2, 1.0, 1e-5), (10, 64, 10.0, 1e-6), (30, 30, 0.5, 1e-8), (5, 3, 3.0, 1e-3), (120, 64, 1.0, 1e-6)]
    for l, dim, epsilon, delta in cases:
        sigma = expect_number(answer(l, dim, epsilon, delta), "sigma")
        if sigma <= 0:
            raise CheckFailed(f"for l={l}, dim={dim}, epsilon={epsilon}, delta={delta} you returned sigma={sigma:.3g}; "
                              "a noise standard deviation is positive.")
        expected = synthetic.group_mean_sigma(l, dim, epsilon, delta)
        achieved = synthetic.gdp_delta(epsilon, synthetic.group_mean_mu(l, sigma, dim))
        if math.isclose(sigma, expected, rel_tol=1e-5):
            continue
        if achieved > delta * (1 + 1e-4):
            raise CheckFailed(f"for l={l}, dim={dim}, epsilon={epsilon}, delta={delta} your sigma is too small: the "
                              f"release would only be ({epsilon}, {achieved:.2g})-DP.")
        classic = math.sqrt(dim) / l * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
        if math.isclose(sigma, classic, rel_tol=1e-6):
            raise CheckFailed("that is the classic Gaussian calibration: loose, and proved only for epsilon < 1. "
                              "Find the smallest sigma whose exact delta meets the target (root-finding).")
        raise CheckFailed(f"for l={l}, dim={dim}, epsilon={epsilon}, delta={delta} your sigma is private but larger "
                          "than needed: find the smallest sigma whose delta at this epsilon is at most the target.")


# --------------------------------------------------------------------------------------- 06.4
def _release(answer, X, l, sigma, rng) -> np.ndarray:
    copy = X.copy()
    out = answer(copy, l, sigma, rng)
    if not np.array_equal(copy, X):
        raise CheckFailed("your function changed the data it was given; shuffle indices, not the records.")
    try:
        out = np.asarray(out, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"it should return an array of group means, got {type(out).__name__}.") from None
    expected_shape = (len(X) // l, X.shape[1])
    if out.shape != expected_shape:
        raise CheckFailed(f"for {len(X)} records with {X.shape[1]} features and l={l} it should return "
                          f"{expected_shape[0]} noisy means (every group has at least l records), got shape {out.shape}.")
    return out


@exercise("06.4", title="A random-grouping release that passes the audit", answer_name="random_group_release")
def check_random_group_release(answer) -> None:
    # Shapes, including n not divisible by l.
    for n, l, dim in ((100, 48, 2), (37, 5, 3), (10, 10, 1), (64, 7, 4)):
        _release(answer, np.random.default_rng(n).random((n, dim)), l, 0.1, np.random.default_rng(0))

    # The given rng is the only source of randomness: same seed, same release.
    X = np.random.default_rng(1).random((60, 3))
    first = _release(answer, X, 6, 0.1, np.random.default_rng(7))
    again = _release(answer, X, 6, 0.1, np.random.default_rng(7))
    if not np.allclose(first, again):
        raise CheckFailed("two calls with generators seeded alike gave different releases: draw all randomness "
                          "(the grouping and the noise) from the rng argument.")

    # Noise level: constant records, so every group mean is exactly 0.5 and the output is 0.5 + noise.
    # 100 calls x 20 groups x 3 features = 6,000 values: the sample sd is within 1.3% of sigma (one se),
    # so the 8% tolerance fails a correct answer with probability below 1e-9.
    rng = np.random.default_rng(2)
    noise = np.concatenate([_release(answer, np.full((200, 3), 0.5), 10, 0.2, rng).ravel() - 0.5 for _ in range(100)])
    sd = float(noise.std())
    if sd < 0.01:
        raise CheckFailed("the group means come out without noise: add Gaussian noise to every coordinate.")
    if not 0.92 * 0.2 <= sd <= 1.08 * 0.2:
        raise CheckFailed(f"with sigma=0.2 the noise on your means has standard deviation {sd:.3g}: add noise with "
                          "standard deviation sigma to each mean (sigma is already calibrated for a mean).")

    # Groups must be random: half the records are 0 and half 1 (in index order). Random groups of 10
    # are pure (all 0 or all 1) with probability 2 * C(50,10)/C(100,10) ~ 0.1%; 200 groups give about
    # 0.2 pure ones, so more than 20 fails a correct answer with negligible probability.
    halves = np.repeat([[0.0], [1.0]], 50, axis=0)
    rng = np.random.default_rng(3)
    means = np.concatenate([_release(answer, halves, 10, 1e-9, rng).ravel() for _ in range(20)])
    if int(((means < 1e-6) | (means > 1 - 1e-6)).sum()) > 20:
        raise CheckFailed("your groups follow the order of the records (or their values), not a random partition: "
                          "shuffle the record indices before splitting them.")
    # Each output is the mean of a real group: the overall mean of the data is kept (equal group sizes here).
    if abs(float(means.mean()) - 0.5) > 1e-6:
        raise CheckFailed("the group means do not average to the mean of the data: is every record in exactly "
                          "one group, and do you divide each sum by its own group's size?")

    # The audit: the four-corners pair on which clustering flips. With sigma calibrated for epsilon = 1
    # (delta = 1e-5), a correct random grouping cannot be refuted except with probability <= 5%
    # (deterministic at this seed; the reference solution gives a bound of 0).
    A, B = synthetic.four_corners_pair()
    sigma = synthetic.group_mean_sigma(48, 2, 1.0, 1e-5)

    def spread(dataset, generator):
        out = _release(answer, dataset, 48, sigma, generator)
        return out.max(axis=0) - out.min(axis=0)

    result = audit_epsilon(spread, A, B, n_samples=3000, rng=0, delta=1e-5, vectorized=False)
    if result.refutes(1.0):
        raise CheckFailed(f"the audit refutes epsilon = 1 for your release ({result}): the grouping depends on the "
                          "data, so one changed record moves more than one group mean.")
