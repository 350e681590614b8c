"""Gaussian differential privacy (GDP) accounting for Gaussian noise (lesson 06).

A mechanism is mu-GDP if telling its output on a dataset from its output on a neighbour is at
least as hard as telling ``N(0, 1)`` from ``N(mu, 1)`` (Dong, Roth & Su, "Gaussian differential
privacy", JRSS-B 2022). This module has the (epsilon, delta) curve of a mu-GDP mechanism
(:func:`gdp_delta`), its inverses (:func:`gdp_mu`, :func:`gdp_epsilon`), composition
(:func:`gdp_compose`), and the calibration of a release of noisy group means
(:func:`group_mean_mu`, :func:`group_mean_sigma`; the sensitivity argument is in
:mod:`mic_dp_helpers.synthetic.group_means`). The neighbour relation is whatever the mechanism's
sensitivity was computed for; these functions only turn sensitivity/sigma into guarantees.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr

from mic_dp_helpers._validation import check_int_at_least, check_positive_float, check_probability

__all__ = ["gdp_delta", "gdp_mu", "gdp_epsilon", "gdp_compose", "group_mean_mu", "group_mean_sigma"]


def _check_epsilon(epsilon, name: str = "epsilon") -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
        raise TypeError(f"{name} must be a number >= 0, got {type(epsilon).__name__} {epsilon!r}.")
    epsilon = float(epsilon)
    if math.isnan(epsilon) or math.isinf(epsilon) or epsilon < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {epsilon}.")
    return epsilon


def _check_delta(delta) -> float:
    if isinstance(delta, numbers.Real) and not isinstance(delta, bool) and float(delta) == 0.0:
        raise ValueError("delta = 0 is impossible with Gaussian noise: every mu-GDP mechanism with mu > 0 has "
                         "delta > 0 at every epsilon. Use the Laplace mechanism for pure epsilon-DP.")
    return check_probability(delta, "delta")


def _log_gdp_delta(epsilon: float, mu: float) -> float:
    """log delta(epsilon, mu), computed from log_ndtr so that tiny deltas and large epsilons stay accurate."""
    log_first = float(log_ndtr(-epsilon / mu + mu / 2.0))
    log_second = epsilon + float(log_ndtr(-epsilon / mu - mu / 2.0))
    gap = log_second - log_first  # < 0 in exact arithmetic
    if not gap < 0:  # the two terms agree to working precision: delta is 0 relative to them
        return -math.inf
    return log_first + math.log(-math.expm1(gap))


def gdp_delta(epsilon: float, mu: float) -> float:
    """The delta at which a mu-GDP mechanism is (epsilon, delta)-DP.

    ``delta(epsilon) = Phi(-epsilon/mu + mu/2) - exp(epsilon) * Phi(-epsilon/mu - mu/2)``
    (Dong, Roth & Su, "Gaussian differential privacy", JRSS-B 2022, Corollary 2.13). A
    mu-GDP mechanism is (epsilon, delta(epsilon))-DP for every epsilon >= 0 at once, and no
    smaller delta holds. The Gaussian mechanism with L2 sensitivity ``Delta`` and noise
    ``sigma`` is ``Delta/sigma``-GDP, so this is the same curve as Balle & Wang's analytic
    Gaussian mechanism (:func:`mic_dp_helpers.mechanisms.noise.gaussian_delta`). Computed in log
    space with :func:`scipy.special.log_ndtr`.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (>= 0).
    mu : float
        GDP parameter (> 0).

    Returns
    -------
    float
        delta, in [0, 1] (it rounds to 0 or 1 at the extremes of floating point).

    Examples
    --------
    >>> round(gdp_delta(1.0, 1.0), 4)
    0.1269
    >>> round(gdp_delta(0.0, 1.0), 4)   # 2 Phi(mu/2) - 1: the total variation distance
    0.3829
    """
    epsilon = _check_epsilon(epsilon)
    mu = check_positive_float(mu, "mu")
    return math.exp(_log_gdp_delta(epsilon, mu))


def gdp_mu(epsilon: float, delta: float) -> float:
    """The largest mu such that every mu-GDP mechanism is (epsilon, delta)-DP.

    Inverts :func:`gdp_delta` in ``mu`` (delta grows with mu) by root-finding
    (:func:`scipy.optimize.brentq` on ``log mu`` with the equation in log space). The result
    is nudged down, if needed, so that ``gdp_delta(epsilon, result) <= delta``.

    Parameters
    ----------
    epsilon : float
        Target epsilon (>= 0).
    delta : float
        Target delta, in (0, 1). delta = 0 is impossible with Gaussian noise (ValueError).

    Returns
    -------
    float
        mu > 0.

    Examples
    --------
    >>> mu = gdp_mu(1.0, 1e-5)
    >>> round(mu, 4), gdp_delta(1.0, mu) <= 1e-5
    (0.2681, True)
    """
    epsilon = _check_epsilon(epsilon)
    delta = _check_delta(delta)
    target = math.log(delta)

    def excess(log_mu: float) -> float:
        return max(_log_gdp_delta(epsilon, math.exp(log_mu)), -1e6) - target

    low = high = 0.0
    while excess(low) >= 0:
        low -= 1.0
    while excess(high) <= 0:
        high += 1.0
    mu = math.exp(brentq(excess, low, high, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=500))
    for _ in range(64):  # stay on the safe side of the root
        if math.exp(_log_gdp_delta(epsilon, mu)) <= delta:
            break
        mu *= 1.0 - 1e-14
    return mu


def gdp_epsilon(mu: float, delta: float) -> float:
    """The smallest epsilon at which a mu-GDP mechanism is (epsilon, delta)-DP.

    Inverts :func:`gdp_delta` in ``epsilon`` (delta falls as epsilon grows) by root-finding.
    Returns 0 when ``delta >= gdp_delta(0, mu)``, and ``inf`` when the epsilon (about
    ``mu**2 / 2``) is beyond floating point.

    Parameters
    ----------
    mu : float
        The GDP parameter (> 0).
    delta : float
        Target delta, in (0, 1).

    Returns
    -------
    float
        The smallest such epsilon (>= 0), or ``inf``.

    Examples
    --------
    >>> round(gdp_epsilon(1.0, 1e-5), 3)
    4.377
    >>> round(gdp_epsilon(gdp_mu(2.0, 1e-6), 1e-6), 9)
    2.0
    """
    mu = check_positive_float(mu, "mu")
    delta = _check_delta(delta)
    target = math.log(delta)
    if _log_gdp_delta(0.0, mu) <= target:
        return 0.0

    def excess(epsilon: float) -> float:
        return max(_log_gdp_delta(epsilon, mu), -1e6) - target

    high = 1.0
    while excess(high) > 0:
        high *= 2.0
        if math.isinf(high):  # about mu**2 / 2 is beyond floating point: no finite epsilon holds
            return math.inf
    epsilon = brentq(excess, 0.0, high, xtol=1e-13, rtol=4 * np.finfo(float).eps, maxiter=500)
    for _ in range(64):
        if math.exp(_log_gdp_delta(epsilon, mu)) <= delta:
            break
        epsilon = epsilon * (1.0 + 1e-14) + 1e-300
    return epsilon


def gdp_compose(*mus: float) -> float:
    """mu of the composition of mechanisms that are mu_1-, ..., mu_k-GDP: ``sqrt(sum mu_i**2)``.

    (Dong, Roth & Su 2022, Corollary 3.3.)

    Parameters
    ----------
    *mus : float
        The mu of each mechanism (> 0); at least one.

    Returns
    -------
    float
        mu of the composition.

    Examples
    --------
    >>> gdp_compose(0.3, 0.4)
    0.5
    """
    if not mus:
        raise ValueError("pass at least one mu.")
    values = [check_positive_float(mu, f"mu[{i}]") for i, mu in enumerate(mus)]
    return math.sqrt(sum(mu * mu for mu in values))


def group_mean_mu(l: int, sigma: float, dim: int, groups_touched: int = 1) -> float:
    """mu of a release of noisy group means: ``sqrt(groups_touched * dim) / (l * sigma)``.

    Each group has at least ``l`` records in ``[0, 1]^dim``; replacing one record moves each
    group mean it touches by at most ``sqrt(dim)/l`` (L2). ``groups_touched`` is how many group
    means one replacement can move: 1 for a random partition, the number of leaves ``K`` for
    the stable k-d partition, ``r`` for ``r`` random partitions. Noise ``N(0, sigma**2)`` on
    every coordinate of every mean then gives mu-GDP with this mu (Dong, Roth & Su 2022).

    Parameters
    ----------
    l : int
        Fewest records in a group (>= 1), public by construction of the grouping.
    sigma : float
        Noise standard deviation on each coordinate (> 0), in the units of ``[0, 1]^dim``.
    dim : int
        Number of coordinates of a record (>= 1).
    groups_touched : int, default 1
        Group means one replacement can move.

    Returns
    -------
    float
        The release's mu.

    Examples
    --------
    >>> round(group_mean_mu(l=48, sigma=0.1, dim=2), 4)
    0.2946
    >>> round(group_mean_mu(l=48, sigma=0.1, dim=2, groups_touched=2), 4)
    0.4167
    """
    l = check_int_at_least(l, "l", 1)
    sigma = check_positive_float(sigma, "sigma")
    dim = check_int_at_least(dim, "dim", 1)
    groups_touched = check_int_at_least(groups_touched, "groups_touched", 1)
    return math.sqrt(groups_touched * dim) / (l * sigma)


def group_mean_sigma(l: int, dim: int, epsilon: float, delta: float, groups_touched: int = 1) -> float:
    """Noise standard deviation that makes noisy group means (epsilon, delta)-DP.

    ``sqrt(groups_touched * dim) / (l * gdp_mu(epsilon, delta))``: the inverse of
    :func:`group_mean_mu` for a target (epsilon, delta).

    Parameters
    ----------
    l : int
        Fewest records in a group (>= 1).
    dim : int
        Number of coordinates of a record (>= 1).
    epsilon : float
        Target epsilon (> 0).
    delta : float
        Target delta, in (0, 1).
    groups_touched : int, default 1
        Group means one replacement can move.

    Returns
    -------
    float
        The noise standard deviation, in the units of ``[0, 1]^dim``.

    Examples
    --------
    >>> round(group_mean_sigma(l=48, dim=2, epsilon=1.0, delta=1e-5), 4)
    0.1099
    """
    l = check_int_at_least(l, "l", 1)
    dim = check_int_at_least(dim, "dim", 1)
    groups_touched = check_int_at_least(groups_touched, "groups_touched", 1)
    return math.sqrt(groups_touched * dim) / (l * gdp_mu(epsilon, delta))
