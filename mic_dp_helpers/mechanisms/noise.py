"""Noise mechanisms for teaching: Laplace (pure epsilon-DP) and Gaussian ((epsilon, delta)-DP).

.. warning::
   These mechanisms draw noise with NumPy floating-point samplers. They are for teaching
   only: textbook floating-point noise leaks through the gaps in the set of values it can
   produce (Mironov, "On significance of the least significant bits for differential
   privacy", CCS 2012). Production code must use a library with secure noise, such as
   PyDP (Google's differential privacy library).

**Neighbours.** A mechanism here is as private as its ``sensitivity`` argument is right: the
guarantee holds for whatever neighbour relation the sensitivity was computed under. The course
uses **add/remove one record** (lessons 02-04: a count has sensitivity 1, a sum clipped to
``[l, u]`` has ``max(|l|, |u|)``); under replace-one neighbours (used in lessons 05-06, with the
number of records public) the clipped sum's sensitivity is ``u - l``. Say which one you used.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr

from mic_dp_helpers._validation import (
    as_generator,
    check_choice,
    check_in_float_range,
    check_positive_float,
    check_probability,
    is_boolean,
    value_kind,
)

__all__ = [
    "laplace_scale",
    "laplace_mechanism",
    "gaussian_sigma_classic",
    "gaussian_sigma_analytic",
    "gaussian_delta",
    "gaussian_mechanism",
]

_CALIBRATIONS = ("analytic", "classic")


def _as_values(value, name: str = "value") -> tuple[np.ndarray, bool]:
    """Return ``value`` as a finite float array and whether it was a scalar."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__} {value!r}.")
    if is_boolean(value):
        raise TypeError(f"{name} must be numeric, got booleans; convert them to 0/1 counts first.")
    if value_kind(value) in "mMc":
        raise TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__} of dates, "
                        "durations or complex numbers.")
    is_scalar = isinstance(value, numbers.Number) or np.ndim(value) == 0
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__}: {error}") from None
    if array.size == 0:
        raise ValueError(f"{name} is empty; pass at least one number.")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN; the true answer of a query must be a finite number.")
    if np.isinf(array).any():
        raise ValueError(f"{name} contains infinite values; the true answer of a query must be finite.")
    return array, is_scalar


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    """Scale ``b = sensitivity / epsilon`` of the Laplace noise that gives epsilon-DP.

    Parameters
    ----------
    sensitivity : float
        L1 sensitivity of the query (> 0): the most its answer can change between
        neighbouring datasets.
    epsilon : float
        Privacy parameter (> 0).

    Returns
    -------
    float
        The Laplace scale; the noise standard deviation is ``sqrt(2) * scale``.

    Examples
    --------
    >>> laplace_scale(1.0, 0.5)
    2.0
    """
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    epsilon = check_positive_float(epsilon, "epsilon")
    return check_in_float_range(sensitivity / epsilon, "the noise scale sensitivity / epsilon")


def laplace_mechanism(value, sensitivity: float, epsilon: float, rng=None):
    """Release ``value`` plus Laplace noise of scale ``sensitivity / epsilon`` (epsilon-DP).

    For teaching only: NumPy's floating-point Laplace sampler is not safe against
    floating-point attacks (Mironov 2012); production code uses a library such as PyDP.

    The release is epsilon-DP under the neighbour relation for which ``sensitivity`` bounds the
    change of ``value`` (the course's default: add/remove one record; see the module docstring).

    Parameters
    ----------
    value : float or array_like
        True answer(s) of the query. An array gets independent noise in every entry;
        then ``sensitivity`` must be the L1 sensitivity of the whole vector.
    sensitivity : float
        L1 sensitivity (> 0).
    epsilon : float
        Privacy parameter (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness; an int seed makes the result reproducible.

    Returns
    -------
    float or numpy.ndarray
        A float for scalar input, otherwise an array of the input's shape.

    Examples
    --------
    >>> noisy = laplace_mechanism(42, sensitivity=1.0, epsilon=1.0, rng=0)
    >>> isinstance(noisy, float)
    True
    >>> laplace_mechanism([1.0, 2.0, 3.0], 1.0, 1.0, rng=0).shape
    (3,)
    """
    array, is_scalar = _as_values(value)
    scale = laplace_scale(sensitivity, epsilon)
    generator = as_generator(rng)
    noisy = array + generator.laplace(0.0, scale, size=array.shape)
    return float(noisy) if is_scalar else noisy


def gaussian_sigma_classic(sensitivity: float, epsilon: float, delta: float) -> float:
    """Classic Gaussian noise scale ``sensitivity * sqrt(2 ln(1.25/delta)) / epsilon``.

    This bound (Dwork & Roth 2014, Theorem A.1) is proved only for ``epsilon < 1``; use
    :func:`gaussian_sigma_analytic`, which is valid for every epsilon and always smaller.

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity of the query (> 0).
    epsilon : float
        Privacy parameter, 0 < epsilon < 1.
    delta : float
        Privacy parameter, 0 < delta < 1.

    Returns
    -------
    float
        Standard deviation of the Gaussian noise.

    Raises
    ------
    ValueError
        If ``epsilon >= 1``, where the classic bound does not hold.

    Examples
    --------
    >>> round(gaussian_sigma_classic(1.0, 0.5, 1e-5), 3)
    9.69
    """
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    epsilon = check_positive_float(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    if epsilon >= 1:
        raise ValueError(
            f"epsilon={epsilon} is not allowed for the classic Gaussian calibration: its bound "
            "(Dwork & Roth 2014, Theorem A.1) only holds for epsilon < 1. Use "
            "gaussian_sigma_analytic (Balle & Wang 2018), which is valid for every epsilon > 0."
        )
    return check_in_float_range(sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon, "sigma")


def _log_delta_of_mu(mu: float, epsilon: float) -> float:
    """log of delta(mu) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), with mu = Delta/sigma."""
    a = mu / 2.0 - epsilon / mu
    b = -mu / 2.0 - epsilon / mu
    log_first = float(log_ndtr(a))
    log_second = epsilon + float(log_ndtr(b))
    gap = log_second - log_first  # < 0 in exact arithmetic
    if not gap < 0:  # both terms equal to working precision: delta is 0 relative to them
        return -math.inf
    return log_first + math.log(-math.expm1(gap))


def gaussian_delta(sensitivity: float, sigma: float, epsilon: float) -> float:
    """Exact delta of the Gaussian mechanism with noise ``sigma`` at a given epsilon.

    Computes ``Phi(D/(2s) - e*s/D) - exp(e) * Phi(-D/(2s) - e*s/D)`` (Balle & Wang 2018,
    Theorem 8) in log space, so it stays accurate for large epsilon and tiny delta.

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity ``D`` (> 0).
    sigma : float
        Noise standard deviation ``s`` (> 0).
    epsilon : float
        Privacy parameter ``e`` (> 0).

    Returns
    -------
    float
        The smallest delta for which the mechanism is (epsilon, delta)-DP.

    Examples
    --------
    >>> round(gaussian_delta(1.0, 1.0, 1.0), 4)
    0.1269
    """
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    sigma = check_positive_float(sigma, "sigma")
    epsilon = check_positive_float(epsilon, "epsilon")
    return math.exp(_log_delta_of_mu(sensitivity / sigma, epsilon))


def gaussian_sigma_analytic(sensitivity: float, epsilon: float, delta: float) -> float:
    """Smallest Gaussian noise scale giving (epsilon, delta)-DP: the analytic Gaussian mechanism.

    Solves ``Phi(D/(2s) - e*s/D) - exp(e) * Phi(-D/(2s) - e*s/D) = delta`` for ``s``
    (Balle & Wang, "Improving the Gaussian mechanism for differential privacy", ICML
    2018). The root is found with :func:`scipy.optimize.brentq` on ``log(D/s)`` with the
    equation in log space, so it works for every epsilon > 0 (for example 50) and tiny
    delta (for example 1e-12). The result is nudged up, if needed, so that the achieved
    delta never exceeds the requested one.

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity ``D`` (> 0).
    epsilon : float
        Privacy parameter (> 0); any size.
    delta : float
        Privacy parameter, 0 < delta < 1.

    Returns
    -------
    float
        Noise standard deviation.

    Examples
    --------
    >>> round(gaussian_sigma_analytic(1.0, 1.0, 1e-5), 3)
    3.731
    >>> gaussian_sigma_analytic(1.0, 0.5, 1e-5) < gaussian_sigma_classic(1.0, 0.5, 1e-5)
    True
    """
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    epsilon = check_positive_float(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    try:
        return check_in_float_range(_analytic_sigma(sensitivity, epsilon, delta), "sigma")
    except (ZeroDivisionError, OverflowError):
        return check_in_float_range(math.inf, "sigma")


def _analytic_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """The root-finding of :func:`gaussian_sigma_analytic` (arguments already checked)."""
    target = math.log(delta)

    def excess(log_mu: float) -> float:
        # -inf (delta underflows to 0) becomes a large finite negative number: same sign, and
        # brentq only needs finite values of the right sign at the ends of the bracket.
        return max(_log_delta_of_mu(math.exp(log_mu), epsilon), -1e6) - target

    # delta(mu) increases with mu = D / sigma; bracket the root in log(mu).
    guess = math.log(epsilon / math.sqrt(2.0 * math.log(1.25 / delta)))
    low = high = guess
    while excess(low) >= 0:
        low -= 1.0
    while excess(high) <= 0:
        high += 1.0
    log_mu = brentq(excess, low, high, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
    sigma = sensitivity / math.exp(log_mu)
    for _ in range(64):  # make sure the released sigma is on the safe side of the root
        if math.exp(_log_delta_of_mu(sensitivity / sigma, epsilon)) <= delta:  # as gaussian_delta computes it
            break
        sigma *= 1.0 + 1e-14
    return sigma


def gaussian_mechanism(value, sensitivity: float, epsilon: float, delta: float, rng=None,
                       calibration: str = "analytic"):
    """Release ``value`` plus Gaussian noise calibrated for (epsilon, delta)-DP.

    For teaching only: NumPy's floating-point Gaussian sampler is not safe against
    floating-point attacks (Mironov 2012); production code uses a library such as PyDP.

    The release is (epsilon, delta)-DP under the neighbour relation for which ``sensitivity``
    bounds the L2 change of ``value`` (the course's default: add/remove one record).

    Parameters
    ----------
    value : float or array_like
        True answer(s). An array gets independent noise in every entry; then
        ``sensitivity`` must be the L2 sensitivity of the whole vector.
    sensitivity : float
        L2 sensitivity (> 0).
    epsilon : float
        Privacy parameter (> 0; below 1 for ``calibration="classic"``).
    delta : float
        Privacy parameter, 0 < delta < 1.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    calibration : {"analytic", "classic"}, default "analytic"
        Noise scale from :func:`gaussian_sigma_analytic` or :func:`gaussian_sigma_classic`.

    Returns
    -------
    float or numpy.ndarray
        A float for scalar input, otherwise an array of the input's shape.

    Examples
    --------
    >>> noisy = gaussian_mechanism([10.0, 20.0], 1.0, 1.0, 1e-5, rng=0)
    >>> noisy.shape
    (2,)
    """
    array, is_scalar = _as_values(value)
    if check_choice(calibration, "calibration", _CALIBRATIONS) == "analytic":
        sigma = gaussian_sigma_analytic(sensitivity, epsilon, delta)
    else:
        sigma = gaussian_sigma_classic(sensitivity, epsilon, delta)
    generator = as_generator(rng)
    noisy = array + generator.normal(0.0, sigma, size=array.shape)
    return float(noisy) if is_scalar else noisy
