"""The error of PyDP's ``BoundedMean``, predicted: clamping bias, noise and noise intervals (lesson 04).

PyDP's ``BoundedMean`` with declared bounds ``[lower, upper]`` spends epsilon/2 on a noisy count and
epsilon/2 on a noisy sum of ``x - (lower + upper) / 2`` (see :mod:`mic_dp_helpers.scale.pydp_tools`).
Its error has two parts, which these functions predict so that bounds can be chosen on public or past
data: the **clamping bias** of values outside the bounds (:func:`clamping_bias`) and the **noise**
(:func:`bounded_mean_noise_std`, :func:`bounded_mean_noise_halfwidth`); :func:`bounded_mean_rmse` adds
them. Reading private values to choose bounds is itself a use of the data: pay for it (a DP quantile)
or use public data. Neighbours and what is public are those of :mod:`~mic_dp_helpers.scale.pydp_tools`.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers._validation import (
    check_finite_float,
    check_flag,
    check_int_at_least,
    check_positive_float,
    check_probability,
)
from mic_dp_helpers.scale.pydp_tools import (
    _check_bounds,
    _check_epsilon,
    _check_sensitivities,
    _check_values,
    require_pydp,
)

__all__ = [
    "clamping_bias",
    "bounded_mean_noise_std",
    "bounded_mean_rmse",
    "laplace_noise_halfwidth",
    "bounded_mean_noise_halfwidth",
]


def clamping_bias(values, lower: float, upper: float) -> float:
    """Mean of ``values`` clamped to ``[lower, upper]`` minus their true mean (the bias of clamping).

    Negative when the upper bound cuts off large values, positive when the lower bound cuts
    off small ones, zero when every value lies inside the bounds.

    Parameters
    ----------
    values : sequence of float
        The values (non-empty).
    lower, upper : float
        Clamping bounds.

    Returns
    -------
    float
        The bias, in the units of the values.

    Examples
    --------
    >>> clamping_bias([1.0, 2.0, 9.0], lower=0.0, upper=3.0)
    -2.0
    """
    array = _check_values(values)
    if array.size == 0:
        raise ValueError("values is empty; the bias of a mean needs at least one value.")
    lower, upper = _check_bounds("mean", lower, upper)
    return float(np.clip(array, lower, upper).mean() - array.mean())


def bounded_mean_noise_std(lower: float, upper: float, epsilon: float, n: int, *, mean: float | None = None,
                           l0_sensitivity: int = 1, linf_sensitivity: int = 1) -> float:
    """Standard deviation of the noise in PyDP's ``BoundedMean`` on ``n`` rows (first-order).

    PyDP splits epsilon in two halves: a noisy sum of ``x - m`` (``m`` the midpoint of the
    bounds), whose Laplace scale is ``c (upper - lower) / epsilon``, and a noisy count of
    scale ``2 c / epsilon``, where ``c = l0_sensitivity * linf_sensitivity``. The answer is
    ``m + noisy_sum / noisy_count``. To first order its noise has standard deviation

    ``sqrt(2) c / (epsilon n) * sqrt((upper - lower)**2 + 4 (mean - m)**2)``

    (a Laplace variable of scale b has variance 2 b**2). Without ``mean`` the count's share,
    the second term, is left out; it matters when the clamped mean is far from the midpoint.

    Parameters
    ----------
    lower, upper : float
        Clamping bounds.
    epsilon : float
        Epsilon of the whole mean (> 0).
    n : int
        Number of rows (>= 1).
    mean : float, optional
        The clamped mean, to include the count's share.
    l0_sensitivity, linf_sensitivity : int, default 1
        Contribution bounds.

    Returns
    -------
    float
        The standard deviation, in the units of the values.

    Examples
    --------
    >>> round(bounded_mean_noise_std(0.0, 10.0, epsilon=1.0, n=1000), 5)
    0.01414
    >>> bounded_mean_noise_std(0.0, 10.0, 1.0, 1000, mean=2.0) > bounded_mean_noise_std(0.0, 10.0, 1.0, 1000)
    True
    """
    lower, upper = _check_bounds("mean", lower, upper)
    epsilon = check_positive_float(epsilon, "epsilon")
    n = check_int_at_least(n, "n", 1)
    l0_sensitivity, linf_sensitivity = _check_sensitivities(l0_sensitivity, linf_sensitivity)
    offset = 0.0 if mean is None else check_finite_float(mean, "mean") - (lower + upper) / 2.0
    scale = l0_sensitivity * linf_sensitivity
    return math.sqrt(2.0) * scale / (epsilon * n) * math.hypot(upper - lower, 2.0 * offset)


def bounded_mean_rmse(values, lower: float, upper: float, epsilon: float, *, include_count_noise: bool = True,
                      l0_sensitivity: int = 1, linf_sensitivity: int = 1) -> float:
    """Expected root-mean-square error of PyDP's ``BoundedMean`` on ``values``: clamping bias and noise.

    ``sqrt(clamping_bias**2 + noise_std**2)``, with the noise from :func:`bounded_mean_noise_std`
    (with the count's share if ``include_count_noise``). It reads the private values, so
    choosing bounds with it is itself a use of the data: do it on public or past data, or
    pay for it with a DP quantile.

    Parameters
    ----------
    values : sequence of float
        The values (read without noise: see above).
    lower, upper : float
        Clamping bounds.
    epsilon : float
        Epsilon of the whole mean (> 0).
    include_count_noise : bool, default True
        Include the noisy count's share of the noise.
    l0_sensitivity, linf_sensitivity : int, default 1
        Contribution bounds.

    Returns
    -------
    float
        The expected RMSE, in the units of the values.

    Examples
    --------
    >>> values = [1.0] * 900 + [50.0] * 100
    >>> bounded_mean_rmse(values, 0, 5, 1.0) > bounded_mean_rmse(values, 0, 50, 1.0)
    True
    """
    array = _check_values(values)
    check_flag(include_count_noise, "include_count_noise")
    bias = clamping_bias(array, lower, upper)
    clamped_mean = float(np.clip(array, lower, upper).mean()) if include_count_noise else None
    noise = bounded_mean_noise_std(lower, upper, epsilon, array.size, mean=clamped_mean,
                                   l0_sensitivity=l0_sensitivity, linf_sensitivity=linf_sensitivity)
    return math.hypot(bias, noise)


def laplace_noise_halfwidth(epsilon: float, sensitivity: float, confidence: float = 0.95) -> float:
    """Half-width of the interval that holds PyDP's Laplace noise with probability ``confidence``.

    Asks PyDP itself: ``LaplaceMechanism(epsilon, sensitivity).noise_confidence_interval``
    (the algorithm-level method is broken in python-dp 1.1.5). For a Laplace scale
    ``b = sensitivity / epsilon`` this is ``b * ln(1 / (1 - confidence))``.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).
    sensitivity : float
        L1 sensitivity (> 0).
    confidence : float, default 0.95
        Coverage, in (0, 1).

    Returns
    -------
    float
        The half-width.

    Examples
    --------
    >>> round(laplace_noise_halfwidth(1.0, 1.0, 0.95), 4)
    2.9957
    """
    epsilon = _check_epsilon(epsilon, 2.0**-50)
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    confidence = check_probability(confidence, "confidence")
    require_pydp()
    from pydp.algorithms.numerical_mechanisms import LaplaceMechanism

    interval = LaplaceMechanism(epsilon=epsilon, sensitivity=sensitivity).noise_confidence_interval(confidence, 0.0)
    return float(interval.upper_bound)


def bounded_mean_noise_halfwidth(lower: float, upper: float, epsilon: float, n: int, confidence: float = 0.95, *,
                                 l0_sensitivity: int = 1, linf_sensitivity: int = 1) -> float:
    """Half-width of PyDP's noise interval for the sum part of ``BoundedMean``, divided by ``n``.

    The noisy normalized sum gets Laplace noise with epsilon/2 and sensitivity
    ``c (upper - lower) / 2`` (``c = l0_sensitivity * linf_sensitivity``); dividing its
    interval by ``n`` gives the interval of the mean's main noise term. It leaves out the
    count's noise (small when ``n`` is large) and says **nothing about clamping bias**.

    Parameters
    ----------
    lower, upper : float
        Clamping bounds.
    epsilon : float
        Epsilon of the whole mean (> 0).
    n : int
        Number of rows (>= 1).
    confidence : float, default 0.95
        Coverage, in (0, 1).
    l0_sensitivity, linf_sensitivity : int, default 1
        Contribution bounds.

    Returns
    -------
    float
        The half-width, in the units of the values.

    Examples
    --------
    >>> round(bounded_mean_noise_halfwidth(0.0, 10.0, 1.0, 1000, 0.95), 4)
    0.03
    """
    lower, upper = _check_bounds("mean", lower, upper)
    epsilon = _check_epsilon(epsilon)
    n = check_int_at_least(n, "n", 1)
    l0_sensitivity, linf_sensitivity = _check_sensitivities(l0_sensitivity, linf_sensitivity)
    sensitivity = l0_sensitivity * linf_sensitivity * (upper - lower) / 2.0
    return laplace_noise_halfwidth(epsilon / 2.0, sensitivity, confidence) / n
