"""Local differential privacy: each person randomizes their own answer before it leaves their device.

In **local DP** there is no trusted curator. Each person runs a randomizer ``R`` on their own
value and sends only ``R(x)``; ``R`` is epsilon-LDP if for **any two values** ``x, x'`` of one
person and every output ``y``, ``P[R(x) = y] <= exp(epsilon) * P[R(x') = y]``. The neighbour
relation is "replace this person's value by any other"; nothing about the person is public
except that they answered. The analyst then de-biases the noisy reports.

* **Randomized response** (Warner 1965) for a yes/no question: tell the truth with probability
  ``p = e^epsilon / (1 + e^epsilon)``, otherwise the opposite. The share of "yes" reports ``y``
  has mean ``(2p - 1) pi + (1 - p)``, so ``(y - (1 - p)) / (2p - 1)`` estimates the true share
  ``pi`` of the ``n`` people without bias, with standard error ``sqrt(p (1 - p) / n) / (2p - 1)``.
* **Generalized randomized response** (k-RR; Kairouz, Oh & Viswanath 2014; Wang et al. 2017)
  for ``k`` categories: keep the value with probability ``e^epsilon / (e^epsilon + k - 1)``,
  otherwise report one of the other ``k - 1`` uniformly.
* **Unary encoding** (as in Google's RAPPOR, Erlingsson, Pihur & Korolova 2014): one-hot encode
  the value and flip every bit independently. Symmetric unary encoding keeps each bit with
  ``p = e^(epsilon/2) / (1 + e^(epsilon/2))``; the *optimized* variant (OUE, Wang et al. 2017)
  sends a 1 as 1 with probability 1/2 and a 0 as 1 with probability ``1 / (e^epsilon + 1)``.

Frequencies are estimated without bias by ``(share of reports supporting v - q) / (p - q)``.
Standard errors here are those of the randomization, for the people who answered (their true
values fixed); to infer a wider population from a random sample, add the sampling error.

**Floating point.** Every coin here is ``Generator.random() < r``, where ``random()`` returns
``m * 2**-53`` for a uniform integer ``m``: such a coin comes up with probability exactly ``r``
only if ``r`` is a multiple of ``2**-53``. The probability of the *rarer* outcome (a flip, a
changed category, a changed bit) is therefore rounded **up** to that grid, never below one step,
and the functions below return the probabilities the coins really have. Rounding the flips up
only adds randomness, so the ratio of the reports' probabilities stays at most ``e^epsilon`` at
every epsilon. Without it, ``e^epsilon / (1 + e^epsilon)`` rounds to exactly 1 from epsilon
about 36.7, nobody's answer is ever flipped and the true epsilon is infinite. With it, the
guarantee at a huge epsilon is stronger than asked (randomized response cannot go beyond about
36.7: a flip probability of ``2**-53``). Epsilon so small that the rounded keep and flip
probabilities cannot be told apart (below about ``1e-15``) is refused.

.. warning::
   The coins here are NumPy randomness, for teaching only. OpenDP's
   ``make_randomized_response_bool`` samples its coin exactly (and offers constant time).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import as_generator, check_flag, check_positive_float, check_size

__all__ = [
    "Estimate",
    "rr_keep_probability",
    "randomized_response",
    "rr_estimate",
    "rr_standard_error",
    "grr_probabilities",
    "generalized_randomized_response",
    "grr_estimate",
    "unary_probabilities",
    "unary_encoding",
    "unary_estimate",
]


class Estimate(NamedTuple):
    """An unbiased estimate from randomized reports, with its estimated standard error.

    Attributes
    ----------
    value : float or numpy.ndarray
        The estimate (a share, or one frequency per category). It may fall outside [0, 1]:
        clipping it would bias it.
    standard_error : float or numpy.ndarray
        Plug-in standard error of ``value``.
    """

    value: float | np.ndarray
    standard_error: float | np.ndarray


# ------------------------------------------------------------------------------ validation
def _answers(truth, name: str = "truth") -> np.ndarray:
    """Yes/no answers as a 1-D bool array (bool, or 0/1 numbers)."""
    if truth is None or isinstance(truth, (str, bytes, dict)):
        got = "a string" if isinstance(truth, (str, bytes)) else type(truth).__name__
        raise TypeError(f"{name} must be yes/no answers (booleans or 0/1), got {got}.")
    try:
        array = np.asarray(truth)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D list or array of yes/no answers.") from None
    if array.ndim > 1:
        raise ValueError(f"{name} must be 1-D (one answer per person), got shape {array.shape}.")
    array = array.ravel()
    if array.size == 0:
        raise ValueError(f"{name} is empty; pass at least one answer.")
    if array.dtype == bool:
        return array
    if pd.isna(array).any():
        raise ValueError(f"{name} has missing answers (NaN or NA); drop those people first: randomized response "
                         "needs every answer.")
    if array.dtype.kind not in "iuf" or not np.isin(array, (0, 1)).all():
        raise ValueError(f"{name} must contain only booleans or the numbers 0 and 1 (1 means yes).")
    return array.astype(bool)


def _categories(values, k: int) -> np.ndarray:
    """Category indices 0..k-1 as a 1-D int array."""
    if isinstance(values, (str, bytes)):
        raise TypeError("values must be category indices 0..k-1, got a string; map categories to indices first.")
    array = np.asarray(values)
    if array.ndim > 1 or array.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array of category indices, got shape {array.shape}.")
    if array.dtype == bool or array.dtype.kind not in "iuf" or (array != np.round(array)).any():
        raise ValueError("values must be whole numbers 0..k-1 (category indices); map categories to indices first.")
    if (array < 0).any() or (array >= k).any():
        raise ValueError(f"values must lie in 0..k-1 = 0..{k - 1}; got values from {array.min()} to {array.max()}.")
    return array.astype(np.int64).ravel()


def _count_k(k) -> int:
    return check_size(k, "k", 2)


#: ``Generator.random()`` returns ``m * 2**-53`` for a uniform integer ``m`` in [0, 2**53).
_GRID = 2.0**-53


def _coin_up(probability: float) -> float:
    """``probability`` (of a coin's rarer outcome) rounded UP to the grid of ``Generator.random``, at least one step.

    ``Generator.random() < r`` is then true with probability exactly ``r``. The factor ``1 + 2**-50``
    covers the rounding of ``probability`` itself, so the result is never below the exact value.
    """
    steps = math.ceil(probability * (1.0 + 2.0**-50) / _GRID)
    return min(max(steps, 1), 2**53) * _GRID


def _refuse_uninformative(keep: float, other: float, epsilon: float) -> None:
    """Refuse an epsilon for which the rounded coins no longer favour the truth (``keep <= other``)."""
    if not keep > other:
        raise ValueError(f"epsilon={epsilon:g} is too small for floating point: rounded to the grid of "
                         "Generator.random, the chance of keeping an answer is no larger than the chance of any "
                         "other report, so the reports carry no information and the ratio e^epsilon cannot be "
                         "respected. Use epsilon >= 1e-12.")


# ------------------------------------------------------------------------ randomized response
def rr_keep_probability(epsilon: float) -> float:
    """Probability ``e^epsilon / (1 + e^epsilon)`` that randomized response tells the truth.

    This is the largest truth-telling probability for which the answer is epsilon-LDP: the ratio
    ``p / (1 - p)`` of the chances of a "yes" report for a true yes and a true no is ``e^epsilon``.
    The value returned is the one :func:`randomized_response` really uses: the flip probability
    ``1 / (1 + e^epsilon)`` rounded up to a multiple of ``2**-53`` (see the module notes), so
    ``p / (1 - p) <= e^epsilon`` holds exactly, and ``p < 1`` at every epsilon.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).

    Returns
    -------
    float
        The truth-telling probability, in (1/2, 1).

    Examples
    --------
    >>> round(rr_keep_probability(math.log(3)), 6)  # Warner's two coins: truth with prob. 3/4
    0.75
    >>> rr_keep_probability(40.0) < 1.0  # 1 / (1 + e^-40) rounds to 1.0; the coin still flips
    True
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    flip = _coin_up(math.exp(-epsilon) / (1.0 + math.exp(-epsilon)))
    _refuse_uninformative(1.0 - flip, flip, epsilon)
    return 1.0 - flip


def randomized_response(truth, epsilon: float, rng=None) -> np.ndarray:
    """Randomize each person's yes/no answer (Warner 1965): epsilon-LDP for every person.

    Each answer is kept with probability ``e^epsilon / (1 + e^epsilon)`` and flipped otherwise,
    independently. Neighbours: one person's answer replaced by the other answer (local DP);
    the reports of different people are independent, so each person's guarantee holds
    whatever the others answer.

    Parameters
    ----------
    truth : array_like of bool or 0/1
        One true answer per person.
    epsilon : float
        Privacy parameter of each person's report (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray of bool
        The reports, one per person.

    Examples
    --------
    >>> randomized_response([True, False, True], epsilon=1.0, rng=0).dtype
    dtype('bool')
    """
    answers = _answers(truth)
    flip = as_generator(rng).random(answers.size) < 1.0 - rr_keep_probability(epsilon)  # exact: on the grid
    return np.where(flip, ~answers, answers)


def rr_estimate(reports, epsilon: float) -> Estimate:
    """Unbiased estimate of the true share of "yes" from randomized-response reports, and its SE.

    ``share = (y - (1 - p)) / (2p - 1)`` where ``y`` is the share of "yes" reports and
    ``p = e^epsilon / (1 + e^epsilon)``; its standard error, ``sqrt(p (1 - p) / n) / (2p - 1)``
    (:func:`rr_standard_error`), does not depend on the answers: each report is flipped with the
    same probability whatever the truth.

    Parameters
    ----------
    reports : array_like of bool or 0/1
        The randomized reports (not the true answers).
    epsilon : float
        The epsilon the reports were made with (> 0).

    Returns
    -------
    Estimate
        ``value`` (may fall outside [0, 1]) and ``standard_error``.

    Examples
    --------
    >>> truth = np.arange(10_000) < 3_000                     # 30% say yes
    >>> estimate = rr_estimate(randomized_response(truth, 1.0, rng=0), 1.0)
    >>> abs(estimate.value - 0.3) < 4 * estimate.standard_error
    True
    """
    answers = _answers(reports, "reports")
    p = rr_keep_probability(epsilon)
    _check_informative(p, 1.0 - p, epsilon)
    y = float(answers.mean())
    return Estimate((y - (1.0 - p)) / (2.0 * p - 1.0), rr_standard_error(answers.size, epsilon))


def rr_standard_error(n, epsilon: float):
    """Standard error ``sqrt(p (1 - p) / n) / (2p - 1)`` of :func:`rr_estimate` for ``n`` people.

    The randomization flips each of the ``n`` answers independently with probability ``1 - p``,
    whatever the answer, so the error does not depend on the true share. At small epsilon it is
    about ``1 / (epsilon sqrt(n))``, against ``sqrt(2) / (epsilon n)`` for a central Laplace count
    divided by ``n``: local DP needs far more people for the same error.

    Parameters
    ----------
    n : int or array_like
        Number of people (>= 1).
    epsilon : float
        Privacy parameter (> 0).

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> round(rr_standard_error(10_000, 1.0), 4)
    0.0096
    """
    if n is None or isinstance(n, (str, bytes, bool, np.bool_)) or (isinstance(n, np.ndarray) and n.dtype == bool):
        raise TypeError(f"n must be a number of people (an int >= 1) or an array of them, got {type(n).__name__} {n!r}.")
    try:
        size = np.asarray(n, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"n must be a number of people (an int >= 1) or an array of them, "
                        f"got {type(n).__name__}.") from None
    if size.size == 0:
        raise ValueError("n is empty; pass a number of people (>= 1) or a non-empty array of them.")
    if not np.isfinite(size).all() or (size < 1).any():
        raise ValueError(f"n must be at least 1 (the number of people), got {n!r}.")
    p = rr_keep_probability(epsilon)
    result = np.sqrt(p * (1 - p) / size) / (2 * p - 1)
    return float(result) if result.ndim == 0 else result


# ------------------------------------------------------------------ many categories: k-RR
def grr_probabilities(k: int, epsilon: float) -> tuple[float, float]:
    """``(p, q)`` of generalized randomized response: keep with ``p``, each other value with ``q``.

    ``p = e^epsilon / (e^epsilon + k - 1)`` and ``q = 1 / (e^epsilon + k - 1)``, so ``p / q = e^epsilon``.
    The values returned are those :func:`generalized_randomized_response` really uses: the chance
    ``(k - 1) q`` of reporting another category is rounded up to a multiple of ``2**-53``, so
    ``p / q <= e^epsilon`` holds exactly and ``q > 0`` at every epsilon.

    Parameters
    ----------
    k : int
        Size of the public domain (>= 2).
    epsilon : float
        Privacy parameter (> 0).

    Returns
    -------
    p, q : float
        Keep probability and the probability of each other value.

    Examples
    --------
    >>> p, q = grr_probabilities(2, 1.0)
    >>> round(p, 4) == round(rr_keep_probability(1.0), 4)
    True
    """
    k = _count_k(k)
    epsilon = check_positive_float(epsilon, "epsilon")
    tiny = math.exp(-epsilon)  # e^epsilon would overflow above 709; e^-epsilon underflows to 0 harmlessly
    change = _coin_up((k - 1) * tiny / (1.0 + (k - 1) * tiny))
    p, q = 1.0 - change, change / (k - 1)
    _refuse_uninformative(p, q, epsilon)
    return p, q


def generalized_randomized_response(values, k: int, epsilon: float, rng=None) -> np.ndarray:
    """Randomize each person's category in 0..k-1 with k-RR: epsilon-LDP.

    Keep the true category with probability ``e^epsilon / (e^epsilon + k - 1)``, otherwise report
    one of the other ``k - 1`` categories uniformly at random. Neighbours: one person's category
    replaced by any other; the list of ``k`` categories is public.

    Parameters
    ----------
    values : array_like of int
        One category index (0..k-1) per person.
    k : int
        Number of categories (>= 2).
    epsilon : float
        Privacy parameter (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray of int
        The reported categories.

    Examples
    --------
    >>> generalized_randomized_response([0, 1, 4], k=5, epsilon=2.0, rng=0).shape
    (3,)
    """
    k = _count_k(k)
    x = _categories(values, k)
    p, _ = grr_probabilities(k, epsilon)
    generator = as_generator(rng)
    keep = generator.random(x.size) >= 1.0 - p  # change with probability exactly 1 - p (on the grid)
    other = generator.integers(0, k - 1, x.size)
    other = other + (other >= x)  # uniform over the k - 1 categories other than x
    return np.where(keep, x, other)


def _check_informative(p: float, q: float, epsilon: float) -> None:
    """The reports must tell the values apart: ``p > q`` (false when epsilon rounds to 0 in ``e^epsilon``)."""
    if not p > q:
        raise ValueError(f"epsilon={epsilon:g} is too small for floating point: e^epsilon rounds to 1, so the "
                         "reports carry no information and the unbiased estimate divides by zero.")


def _frequency_estimate(support_share: np.ndarray, n: int, p: float, q: float, epsilon) -> Estimate:
    """``(share - q) / (p - q)``; its SE from ``f p (1 - p) + (1 - f) q (1 - q)`` with ``f`` the estimate in [0, 1]."""
    _check_informative(p, q, epsilon)
    value = (support_share - q) / (p - q)
    f = np.clip(value, 0.0, 1.0)
    standard_error = np.sqrt((f * p * (1 - p) + (1 - f) * q * (1 - q)) / n) / (p - q)
    return Estimate(value, standard_error)


def grr_estimate(reports, k: int, epsilon: float) -> Estimate:
    """Unbiased frequency of every category from k-RR reports: ``(c_v / n - q) / (p - q)``.

    Parameters
    ----------
    reports : array_like of int
        Reported categories (0..k-1).
    k : int
        Number of categories.
    epsilon : float
        The epsilon the reports were made with.

    Returns
    -------
    Estimate
        ``value``: one estimated share per category (summing to 1), and ``standard_error``.

    Examples
    --------
    >>> x = np.repeat([0, 1, 2], [5000, 3000, 2000])
    >>> est = grr_estimate(generalized_randomized_response(x, 3, 2.0, rng=0), 3, 2.0)
    >>> bool(np.all(np.abs(est.value - [0.5, 0.3, 0.2]) < 4 * est.standard_error))
    True
    """
    k = _count_k(k)
    y = _categories(reports, k)
    p, q = grr_probabilities(k, epsilon)
    return _frequency_estimate(np.bincount(y, minlength=k) / y.size, y.size, p, q, epsilon)


# ------------------------------------------------------------------ many categories: unary encoding
def unary_probabilities(epsilon: float, optimized: bool = False) -> tuple[float, float]:
    """``(p, q)`` of unary encoding: a 1 bit is sent as 1 with ``p``, a 0 bit as 1 with ``q``.

    Symmetric (RAPPOR's basic one-time response): ``p = e^(epsilon/2) / (1 + e^(epsilon/2))``,
    ``q = 1 - p``. Optimized (OUE, Wang et al. 2017): ``p = 1/2``, ``q = 1 / (e^epsilon + 1)``.
    Either way ``p (1 - q) / ((1 - p) q) = e^epsilon``: changing one's value flips two bits.
    The values returned are those :func:`unary_encoding` really uses: ``1 - p`` and ``q`` are
    rounded up to multiples of ``2**-53``, so the ratio is at most ``e^epsilon`` exactly.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).
    optimized : bool, default False
        Use OUE instead of the symmetric encoding.

    Returns
    -------
    p, q : float
        Probabilities that a 1 bit and a 0 bit are sent as 1.

    Examples
    --------
    >>> p, q = unary_probabilities(2.0)
    >>> round(p * (1 - q) / ((1 - p) * q), 6) == round(math.exp(2.0), 6)
    True
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    check_flag(optimized, "optimized")
    if optimized:
        drop, tiny = 0.5, math.exp(-epsilon)
        q = _coin_up(tiny / (1.0 + tiny))
    else:
        tiny = math.exp(-epsilon / 2.0)
        drop = q = _coin_up(tiny / (1.0 + tiny))
    p = 1.0 - drop
    _refuse_uninformative(p, q, epsilon)
    return p, q


def unary_encoding(values, k: int, epsilon: float, rng=None, *, optimized: bool = False) -> np.ndarray:
    """One-hot encode each person's category and randomize every bit (RAPPOR-style): epsilon-LDP.

    Neighbours: one person's category replaced by any other (two bits of their vector change);
    the ``k`` categories are public. Memory: ``n x k`` booleans.

    Parameters
    ----------
    values : array_like of int
        One category index (0..k-1) per person.
    k : int
        Number of categories (>= 2).
    epsilon : float
        Privacy parameter (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    optimized : bool, default False
        Use optimized unary encoding (OUE) instead of the symmetric version.

    Returns
    -------
    numpy.ndarray of bool, shape (n, k)
        One randomized bit vector per person.

    Examples
    --------
    >>> unary_encoding([0, 2], k=3, epsilon=1.0, rng=0).shape
    (2, 3)
    """
    k = _count_k(k)
    x = _categories(values, k)
    check_size(k, "k", 2, per_item=x.size)  # one bit per person and category
    p, q = unary_probabilities(epsilon, optimized)
    one_hot = np.zeros((x.size, k), dtype=bool)
    one_hot[np.arange(x.size), x] = True
    uniforms = as_generator(rng).random((x.size, k))
    return np.where(one_hot, uniforms >= 1.0 - p, uniforms < q)  # both coins exact: 1 - p and q are on the grid


def unary_estimate(reports, epsilon: float, *, optimized: bool = False) -> Estimate:
    """Unbiased frequency of every category from unary-encoding reports: ``(c_v / n - q) / (p - q)``.

    Parameters
    ----------
    reports : array_like of bool, shape (n, k)
        The randomized bit vectors.
    epsilon : float
        The epsilon they were made with.
    optimized : bool, default False
        Whether they were made with OUE.

    Returns
    -------
    Estimate
        ``value``: one estimated share per category, and ``standard_error``.

    Examples
    --------
    >>> x = np.repeat([0, 1, 2], [5000, 3000, 2000])
    >>> est = unary_estimate(unary_encoding(x, 3, 2.0, rng=0), 2.0)
    >>> bool(np.all(np.abs(est.value - [0.5, 0.3, 0.2]) < 4 * est.standard_error))
    True
    """
    bits = np.asarray(reports)
    if bits.ndim != 2 or bits.shape[0] == 0 or bits.shape[1] < 2:
        raise ValueError(f"reports must be an (n, k) array of bits with n >= 1 and k >= 2, got shape {bits.shape}.")
    if bits.dtype != bool:
        if bits.dtype.kind not in "iuf" or not np.isin(bits, (0, 1)).all():
            raise ValueError("reports must contain only booleans or 0/1.")
        bits = bits.astype(bool)
    p, q = unary_probabilities(epsilon, optimized)
    return _frequency_estimate(bits.mean(axis=0), bits.shape[0], p, q, epsilon)
