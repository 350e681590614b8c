"""Checks for lesson 06 (DP synthetic data: 3A / ClustMix): 06.1-06.3, the calibration of the noisy group
means. Each calls the student's function on inputs it makes. 06.4 (the random-grouping release) is in
``lesson06_grouping``, 06.5 and 06.6 in ``lesson06_marginals``.

Inputs are drawn from a generator seeded with ``seed`` (fixed by default): group sizes, sigmas,
dimensions and groups touched over wide ranges (l = 1, dim = 1 included), epsilons from 0 to 20
and mu from 0.05 to 10, deltas from 1e-12 to 1e-2.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from mic_dp_helpers import synthetic
from mic_dp_helpers.checks import _core, _group_release
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_isclose = math.isclose
_exp = math.exp
_log = math.log
_abs = abs
_float = float
_mu = synthetic.group_mean_mu
_sigma = synthetic.group_mean_sigma
_delta = synthetic.gdp_delta
SEED = 606
_WATCHED = (_group_release,)

_SOLVERS = tuple(f"mic_dp_helpers.synthetic:{name}" for name in
                 ("group_mean_mu", "group_mean_sigma", "gdp_mu", "release_group_means", "random_groups",
                  "spread_mechanism")) + ("mic_dp_helpers.synthetic.audit:_random_partition_means",)
_core.FORBIDDEN["06.1"] = _SOLVERS
_core.FORBIDDEN["06.2"] = _SOLVERS + ("mic_dp_helpers.synthetic:gdp_delta", "mic_dp_helpers.synthetic:gdp_epsilon",
                                       "mic_dp_helpers.mechanisms.noise:gaussian_delta")
_core.FORBIDDEN["06.3"] = _SOLVERS + ("mic_dp_helpers.mechanisms.noise:gaussian_sigma_analytic",)


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args, extra_modules=_WATCHED)


def _log_uniform(rng, low, high) -> float:
    return _float(_exp(rng.uniform(_log(low), _log(high))))


# --------------------------------------------------------------------------------------- 06.1
def _mu_cases(seed: int):
    rng = _default_rng(seed)
    cases = [(48, 0.1, 2, 1), (1, 1.0, 1, 1)]
    for _ in range(14):
        cases.append((int(rng.integers(1, 500)), _log_uniform(rng, 1e-3, 10), int(rng.integers(1, 200)),
                      int(rng.choice([1, 1, int(rng.integers(2, 64))]))))
    return cases + _mu_edge_cases(rng)


def _mu_edge_cases(rng) -> list:
    """groups_touched left out (None: the call has three arguments, the default 1 applies); large and tiny
    values (l to a million, dim and groups_touched to 100,000, sigma 1e-6 to 1e4); an integer sigma and NumPy
    integers (int32, int64, their products far below 2**31)."""
    return [(int(rng.integers(1, 500)), _log_uniform(rng, 1e-2, 5), int(rng.integers(1, 50)), None),
            (1, 1.0, 1, None), (1_000_000, _log_uniform(rng, 1e-6, 1e-4), 100_000, 100_000),
            (1, _log_uniform(rng, 1e3, 1e4), 1, 1), (7, 2, 3, 5),
            (np.int64(rng.integers(1, 500)), _log_uniform(rng, 1e-2, 5), np.int32(rng.integers(1, 200)),
             np.int32(rng.integers(1, 64))), (np.int32(1), 0.5, np.int64(1), np.int64(1))]


@exercise("06.1", title="mu of a release of noisy group means", answer_name="release_mu")
def check_release_mu(answer, seed: int = SEED) -> None:
    """A correct answer returns sqrt(groups_touched * dim) / (l * sigma) (to a relative 1e-9): the L2
    sensitivity of the vector of group means over sigma, for l from 1 to 500, sigma 1e-3 to 10 (many
    digits), dim 1 to 200 and groups_touched 1 to 63, drawn from ``seed``, and the edge cases of
    ``_mu_edge_cases`` (groups_touched left to its default, l to a million, NumPy integers).

    Parameters
    ----------
    answer : callable
        The student's ``release_mu`` (exercise 06.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(len(_mu_cases(seed))):
        l, sigma, dim, touched = _mu_cases(seed)[index]
        args = (l, sigma, dim) if touched is None else (l, sigma, dim, touched)
        got = expect_number(_call("06.1", answer, *args), "mu")
        l, sigma, dim, touched = _mu_cases(seed)[index]
        l, dim, touched = int(l), int(dim), 1 if touched is None else int(touched)
        expected = _mu(l, sigma, dim, touched)
        if _isclose(got, expected, rel_tol=1e-9):
            continue
        if touched > 1 and _isclose(got, _mu(l, sigma, dim, 1), rel_tol=1e-9):
            raise CheckFailed("the answer ignores groups_touched: one record that moves several group means "
                              "moves the released vector further.")
        if dim * touched > 1 and _isclose(got, dim * touched / (l * sigma), rel_tol=1e-9):
            raise CheckFailed("the dimension enters too strongly: the sensitivity is an L2 (Euclidean) distance "
                              "between two points of the unit cube.")
        if got > expected:
            raise CheckFailed(f"for l={l}, sigma={sigma:.6g}, dim={dim}, groups_touched={touched} your mu is too large: "
                              "does a bigger group really leave the mean as sensitive as you say?")
        raise CheckFailed(f"for l={l}, sigma={sigma:.6g}, dim={dim}, groups_touched={touched} your mu is too small. "
                          "mu is the sensitivity of the released vector divided by the noise's standard deviation.")


# --------------------------------------------------------------------------------------- 06.2
def _delta_cases(seed: int):
    rng = _default_rng(seed)
    cases = [(0.0, 1.0), (1.0, 1.0)]
    for _ in range(18):
        cases.append((_float(rng.choice([0.0, rng.uniform(0, 2), _log_uniform(rng, 2, 20)])), _log_uniform(rng, 0.05, 10)))
    # edges: integer epsilons (0 included), mu tiny (delta rounds to 0 once epsilon > 0) and large (delta near 1),
    # a large epsilon with a large mu, epsilon at mu^2 / 2 (where the first CDF's argument changes sign)
    mu = _log_uniform(rng, 0.3, 3)
    return cases + [(0, 2.0), (1, 1), (3, 0.5), (0.0, 0.01), (0.5, 0.01), (0.0, 40.0), (2.0, 30.0), (50.0, 30.0),
                    (mu * mu / 2, mu), (np.float64(0.25), np.float64(0.8))]


@exercise("06.2", title="delta of a mu-GDP mechanism", answer_name="delta_of_mu")
def check_delta_of_mu(answer, seed: int = SEED) -> None:
    """A correct answer returns Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) to an absolute 1e-12 plus a
    relative 1e-6, for epsilon 0 (exactly), 0 to 2 and 2 to 20, and mu 0.05 to 10, drawn from ``seed``
    (deltas down to about 1e-300 and up to nearly 1), and edges: integer arguments, mu 0.01 and 30 to 40,
    epsilon 50, epsilon = mu^2 / 2.

    Parameters
    ----------
    answer : callable
        The student's ``delta_of_mu`` (exercise 06.2).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(len(_delta_cases(seed))):
        epsilon, mu = _delta_cases(seed)[index]
        got = expect_number(_call("06.2", answer, epsilon, mu), "delta")
        epsilon, mu = _delta_cases(seed)[index]
        expected = _delta(epsilon, mu)
        if _abs(got - expected) <= 1e-12 + 1e-6 * expected:
            continue
        epsilon, mu = round(epsilon, 6), round(mu, 6)
        if not 0 <= got <= 1:
            raise CheckFailed(f"at epsilon={epsilon}, mu={mu} you returned {got:.3g}, which is no probability; "
                              "check the signs inside the two normal CDFs.")
        if got > expected:
            raise CheckFailed(f"at epsilon={epsilon}, mu={mu} your delta is too large: is the second term "
                              "there, and multiplied by the right factor?")
        raise CheckFailed(f"at epsilon={epsilon}, mu={mu} your delta is too small: check the signs of mu/2 in "
                          "the two terms.")


# --------------------------------------------------------------------------------------- 06.3
def _sigma_cases(seed: int):
    rng = _default_rng(seed)
    cases = [(48, 2, 1.0, 1e-5)]
    for _ in range(7):
        cases.append((int(rng.integers(1, 300)), int(rng.integers(1, 100)), _log_uniform(rng, 0.05, 20),
                      _log_uniform(rng, 1e-12, 1e-2)))
    # edges: l = dim = 1, l and dim of 100,000, epsilon 0.01 and 50, delta 1e-15 and 0.1, integer epsilon
    return cases + [(1, 1, 1.0, 1e-5), (100_000, 100_000, 0.5, 1e-6), (5, 3, 0.01, 1e-6), (20, 4, 50.0, 1e-12),
                    (10, 2, 1.0, 1e-15), (3, 1, 0.2, 0.1), (30, 5, 2, 1e-8)]


@exercise("06.3", title="Noise for a target (epsilon, delta)", answer_name="noise_for_target")
def check_noise_for_target(answer, seed: int = SEED) -> None:
    """A correct answer returns the smallest sigma whose exact GDP delta at epsilon is at most the target
    (to a relative 1e-5), for l 1 to 300, dim 1 to 100, epsilon 0.05 to 20 and delta 1e-12 to 1e-2 (many
    digits) drawn from ``seed``, and edges: l = dim = 1, l and dim of 100,000, epsilon 0.01 and 50, delta
    1e-15 and 0.1, an integer epsilon.

    Parameters
    ----------
    answer : callable
        The student's ``noise_for_target`` (exercise 06.3).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(len(_sigma_cases(seed))):
        l, dim, epsilon, delta = _sigma_cases(seed)[index]
        sigma = expect_number(_call("06.3", answer, l, dim, epsilon, delta), "sigma")
        l, dim, epsilon, delta = _sigma_cases(seed)[index]
        if sigma <= 0:
            raise CheckFailed(f"for l={l}, dim={dim}, epsilon={epsilon:.6g}, delta={delta:.3g} you returned a "
                              "sigma <= 0; a noise standard deviation is positive.")
        expected = _sigma(l, dim, epsilon, delta)
        achieved = _delta(epsilon, _mu(l, sigma, dim))
        if _isclose(sigma, expected, rel_tol=1e-5):
            continue
        if achieved > delta * (1 + 1e-4):
            raise CheckFailed(f"for l={l}, dim={dim}, epsilon={epsilon:.6g}, delta={delta:.3g} your sigma is too small "
                              f"(property: meets the target): the release's delta would exceed the target by a "
                              f"relative {achieved / delta - 1:.2e}.")
        classic = math.sqrt(dim) / l * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
        if _isclose(sigma, classic, rel_tol=1e-6):
            raise CheckFailed("that is the classic Gaussian calibration: loose, and proved only for epsilon < 1. "
                              "Find the smallest sigma whose exact delta meets the target (root-finding).")
        raise CheckFailed(f"for l={l}, dim={dim}, epsilon={epsilon:.6g}, delta={delta:.3g} your sigma is private but "
                          f"larger than needed by a relative {sigma / expected - 1:.2e} (property: smallest): find the smallest "
                          "sigma whose delta at this epsilon is at most the target.")
