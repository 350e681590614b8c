"""Choosing privately: the exponential mechanism, report-noisy-max and DP quantiles.

A *selection* releases one of ``k`` candidates (the most common diagnosis, a clipping bound)
instead of a number. Each candidate ``r`` has a **utility** ``u(D, r)`` computed from the data
``D``; its **sensitivity** is the most any single utility can move between neighbouring
datasets, ``Delta = max_{D ~ D'} max_r |u(D, r) - u(D', r)|`` (an L-infinity sensitivity).

* The **exponential mechanism** (McSherry & Talwar 2007) outputs ``r`` with probability
  proportional to ``exp(epsilon * u(D, r) / (2 * Delta))``: epsilon-DP. When the utilities are
  *monotonic* (between any two neighbours they all move in the same direction, as counts do
  when one person is added or removed), ``exp(epsilon * u / Delta)`` is already epsilon-DP
  (McSherry & Talwar 2007; Dwork & Roth 2014, Theorem 3.10 and the remark after it).
* **Report-noisy-max** adds independent noise to every utility and releases the index of the
  largest. With Gumbel noise of scale ``2 Delta / epsilon`` it has *exactly* the output
  distribution of the exponential mechanism (the Gumbel-max trick; Dwork & Roth 2014, section
  3.4). With exponential noise of the same scale it is the permute-and-flip mechanism of
  McKenna & Sheldon (2020), shown identical to report-noisy-max with exponential noise by
  Ding et al. (2021), and epsilon-DP; it is never less accurate than the exponential mechanism.
* A **DP quantile** (Smith 2011) is the exponential mechanism over the ``n + 1`` intervals between
  the sorted data, clipped to *declared, public* bounds ``[lower, upper]``: interval ``i`` has
  utility ``-|i - q n|`` (sensitivity 1) and is picked with probability proportional to its
  width times ``exp(epsilon * utility / 2)``; the release is a uniform point in it.

Neighbouring datasets differ by adding or removing one person (the course's convention);
every function says what it assumes public. The selection helpers take utilities you computed;
the quantile takes the data.

.. warning::
   The randomness here is NumPy floating-point randomness, for teaching only: exact-looking
   probabilities are computed in floating point and sampled with ``Generator.random``, which
   is open to floating-point attacks (Mironov 2012; Ilvento 2020 for the exponential mechanism).
   Production code uses a library with exact samplers, such as OpenDP.

   **What floating point breaks, concretely.** :func:`exponential_mechanism` and
   :func:`dp_quantile` pick a candidate by inverse transform, ``Generator.random() * total``,
   and ``random()`` only returns multiples of ``2**-53``. Each candidate's probability is thus
   realised only to within about ``k * 2**-53`` (``k`` candidates; more when scores are huge), and
   a candidate whose exact probability is below that may never be chosen on one dataset while its
   neighbour chooses it sometimes: an infinite privacy-loss ratio on an event of probability
   about ``2**-53``. So these samplers are epsilon-DP only up to such a tiny additive slack (an
   (epsilon, delta) guarantee with delta of the order of ``(1 + e^epsilon) * k**2 * 2**-53``), not
   exactly. :func:`report_noisy_max` has the same kind of slack: NumPy's Gumbel and exponential
   draws are bounded (about -3.6 and 36.7 scales), so a candidate more than about 40 scales
   below the best is never chosen. ``tests/test_selection.py`` computes the realised
   probabilities on the grid and shows both effects. The local randomizers
   (:mod:`mic_dp_helpers.mechanisms.local`) avoid the problem: a coin with two outcomes can be
   put exactly on the grid, and they do.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from scipy.special import logsumexp

from mic_dp_helpers._validation import (
    as_generator,
    check_choice,
    check_finite_float,
    check_flag,
    check_in_float_range,
    check_positive_float,
    check_size,
    is_boolean,
)

__all__ = [
    "selection_probabilities",
    "exponential_mechanism",
    "report_noisy_max",
    "quantile_interval_probabilities",
    "dp_quantile",
    "dp_quantiles",
]

_NOISES = ("gumbel", "exponential")


# ------------------------------------------------------------------------------ validation
def _utilities(utilities, name: str = "utilities") -> np.ndarray:
    """Return ``utilities`` as a finite float array of shape (k,) or (m, k), k >= 1."""
    if isinstance(utilities, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers (one score per candidate), got a string.")
    if is_boolean(utilities):
        raise TypeError(f"{name} must be numeric scores, got booleans; convert them to numbers first.")
    try:
        array = np.asarray(utilities, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of numbers (one score per candidate): {error}") from None
    if array.ndim not in (1, 2) or array.shape[-1] == 0 or array.size == 0:
        raise ValueError(f"{name} must have shape (k,) or (m, k) with k >= 1 candidates, got shape {array.shape}.")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinite values; every candidate needs a finite score.")
    return array


def _size(size, per_item: int = 1) -> int | None:
    """``size`` (None, or the number of draws, each creating ``per_item`` values) under the shared cap."""
    return None if size is None else check_size(size, "size", 1, per_item=per_item)


def _factor(sensitivity, epsilon, monotonic) -> float:
    """epsilon / (2 Delta), or epsilon / Delta for monotonic utilities."""
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    epsilon = check_positive_float(epsilon, "epsilon")
    factor = epsilon / (sensitivity if check_flag(monotonic, "monotonic") else 2.0 * sensitivity)
    check_in_float_range(1.0 / factor if factor > 0 else math.inf, "the noise scale 2 * sensitivity / epsilon")
    return check_in_float_range(factor, "epsilon / (2 * sensitivity)")


# ------------------------------------------------------------------------ exponential mechanism
def selection_probabilities(utilities, sensitivity: float, epsilon: float, *, monotonic: bool = False) -> np.ndarray:
    """Exact output probabilities of the exponential mechanism (McSherry & Talwar 2007).

    ``P[r] = exp(epsilon * u_r / (2 * sensitivity)) / sum_s exp(epsilon * u_s / (2 * sensitivity))``,
    computed in log space (no overflow for large scores). With ``monotonic=True`` the factor 2 is
    dropped, which is epsilon-DP only if, between any two neighbouring datasets, all utilities
    move in the same direction (true for counts under adding or removing one person).

    Parameters
    ----------
    utilities : array_like, shape (k,) or (m, k)
        Score of each candidate (higher is better); a 2-D array holds ``m`` separate selections.
    sensitivity : float
        Largest change of any one utility between neighbouring datasets (> 0).
    epsilon : float
        Privacy parameter (> 0).
    monotonic : bool, default False
        Whether the utilities are monotonic (see above).

    Returns
    -------
    numpy.ndarray
        Probabilities, same shape as ``utilities``, each row summing to 1.

    Examples
    --------
    >>> selection_probabilities([10, 10, 0], sensitivity=1.0, epsilon=1.0).round(3)
    array([0.498, 0.498, 0.003])
    >>> selection_probabilities([1, 0], 1.0, 2.0).round(3)
    array([0.731, 0.269])
    """
    scores = _utilities(utilities)
    logits = _factor(sensitivity, epsilon, monotonic) * scores
    return np.exp(logits - logsumexp(logits, axis=-1, keepdims=True))


def exponential_mechanism(utilities, sensitivity: float, epsilon: float, rng=None, *, monotonic: bool = False,
                          size: int | None = None):
    """Select a candidate with the exponential mechanism (McSherry & Talwar 2007): epsilon-DP.

    Candidate ``r`` is chosen with probability proportional to
    ``exp(epsilon * u_r / (2 * sensitivity))`` (see :func:`selection_probabilities`), by inverse
    transform sampling. Only the chosen index is released, never the scores. One selection is also
    ``epsilon**2 / 8``-zCDP (Cesar & Rogers 2021, bounded range), the cost MST's tree selection
    (:func:`~mic_dp_helpers.synthetic.marginals.select_tree`) accounts for.

    The guarantee holds for neighbouring datasets (by default: one person added or removed) if
    ``sensitivity`` bounds how far **any one** utility moves between them, and the candidate set
    is public (it must not be derived from the data). Teaching only: NumPy floating-point
    sampling is not safe against floating-point attacks; use OpenDP in production.

    Parameters
    ----------
    utilities : array_like, shape (k,) or (m, k)
        Score of each candidate, computed from the private data (higher is better). A 2-D array
        holds ``m`` independent selections (each row costs epsilon on its own data).
    sensitivity : float
        L-infinity sensitivity of the utilities (> 0).
    epsilon : float
        Privacy parameter of one selection (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    monotonic : bool, default False
        Use ``exp(epsilon * u / sensitivity)``, valid only for monotonic utilities.
    size : int, optional
        Number of independent selections from the same utilities (for simulations; each one
        costs epsilon). Only for 1-D ``utilities``.

    Returns
    -------
    int or numpy.ndarray
        The index of the chosen candidate (an int); an array of ``size`` indices, or one index
        per row for 2-D ``utilities``.

    Examples
    --------
    >>> exponential_mechanism([100, 3, 2], sensitivity=1.0, epsilon=1.0, rng=0)
    0
    >>> exponential_mechanism([5, 5], 1.0, 1.0, rng=0, size=4).shape
    (4,)
    """
    probabilities = selection_probabilities(utilities, sensitivity, epsilon, monotonic=monotonic)
    size = _size(size)
    generator = as_generator(rng)
    cumulative = np.cumsum(probabilities, axis=-1)
    if probabilities.ndim == 2:
        if size is not None:
            raise ValueError("size is only allowed with 1-D utilities; a 2-D array already gives one selection per row.")
        uniforms = generator.random(probabilities.shape[0]) * cumulative[:, -1]
        choice = (cumulative < uniforms[:, None]).sum(axis=1)
        return np.minimum(choice, probabilities.shape[1] - 1)
    uniforms = generator.random(1 if size is None else size) * cumulative[-1]
    choice = np.minimum(np.searchsorted(cumulative, uniforms, side="right"), probabilities.size - 1)
    return int(choice[0]) if size is None else choice


def report_noisy_max(utilities, sensitivity: float, epsilon: float, rng=None, *, noise: str = "gumbel",
                     monotonic: bool = False, size: int | None = None):
    """Report the index of the largest noisy utility: epsilon-DP selection.

    Adds independent noise of scale ``2 * sensitivity / epsilon`` (``sensitivity / epsilon`` if
    ``monotonic``) to every utility and releases only the argmax.

    * ``noise="gumbel"``: Gumbel noise; the output has exactly the exponential mechanism's
      distribution (Gumbel-max trick; Dwork & Roth 2014, section 3.4).
    * ``noise="exponential"``: one-sided exponential noise; this is the permute-and-flip
      mechanism (McKenna & Sheldon 2020; Ding et al. 2021, "The permute-and-flip mechanism is
      identical to report-noisy-max with exponential noise"), epsilon-DP and at least as
      accurate as the exponential mechanism.

    Neighbours: one person added or removed (or any relation under which ``sensitivity`` bounds
    the change of every utility); the candidate set is public. Teaching only (NumPy noise).

    Parameters
    ----------
    utilities : array_like, shape (k,) or (m, k)
        Score of each candidate (higher is better); rows of a 2-D array are separate selections.
    sensitivity : float
        L-infinity sensitivity of the utilities (> 0).
    epsilon : float
        Privacy parameter (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    noise : {"gumbel", "exponential"}, default "gumbel"
        The noise distribution.
    monotonic : bool, default False
        Halve the noise scale, valid only for monotonic utilities.
    size : int, optional
        Number of independent selections from 1-D ``utilities`` (for simulations).

    Returns
    -------
    int or numpy.ndarray
        The chosen index, or an array of indices (``size`` of them, or one per row).

    Examples
    --------
    >>> report_noisy_max([100, 3, 2], 1.0, 1.0, rng=0)
    0
    >>> report_noisy_max([5, 5, 0], 1.0, 1.0, rng=0, noise="exponential", size=3).shape
    (3,)
    """
    scores = _utilities(utilities)
    scale = 1.0 / _factor(sensitivity, epsilon, monotonic)
    check_choice(noise, "noise", _NOISES)
    size = _size(size, per_item=scores.shape[-1])
    if scores.ndim == 2 and size is not None:
        raise ValueError("size is only allowed with 1-D utilities; a 2-D array already gives one selection per row.")
    generator = as_generator(rng)
    shape = scores.shape if size is None else (size, scores.size)
    draw = generator.gumbel if noise == "gumbel" else generator.exponential
    noisy = scores + (draw(0.0, scale, shape) if noise == "gumbel" else draw(scale, shape))
    choice = np.argmax(noisy, axis=-1)
    return int(choice) if scores.ndim == 1 and size is None else choice


# ------------------------------------------------------------------------------ DP quantiles
def _quantile_inputs(values, quantile, lower, upper, epsilon):
    if isinstance(values, (str, bytes)):
        raise TypeError("values must be an array of numbers, got a string.")
    try:
        data = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError) as error:
        raise TypeError(f"values must be an array of numbers: {error}") from None
    if np.isnan(data).any():
        raise ValueError("values contains NaN; drop or impute missing values first (infinite values are clipped).")
    if isinstance(quantile, bool) or not isinstance(quantile, numbers.Real) or not 0 <= float(quantile) <= 1:
        raise ValueError(f"quantile must be a number in [0, 1] (0.5 for the median), got {quantile!r}.")
    lower = check_finite_float(lower, "lower")
    upper = check_finite_float(upper, "upper")
    if not lower < upper:
        raise ValueError(f"lower must be < upper (declared public bounds of the data), got lower={lower}, upper={upper}.")
    epsilon = check_positive_float(epsilon, "epsilon")
    return np.sort(np.clip(data, lower, upper)), float(quantile), lower, upper, epsilon


def quantile_interval_probabilities(values, quantile: float, lower: float, upper: float,
                                    epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """The intervals of Smith's (2011) DP quantile and the probability of picking each one.

    ``values`` are clipped to the public bounds and sorted, ``z_0 = lower <= z_1 <= ... <= z_n <=
    z_{n+1} = upper``. Interval ``i`` (``i = 0..n``) is ``[z_i, z_{i+1}]``, with utility
    ``-|i - quantile * n|``: it has ``i`` data points below it. Its probability is proportional to
    ``(z_{i+1} - z_i) * exp(epsilon * utility / 2)``.

    Parameters
    ----------
    values : array_like
        The private data (any order; values outside the bounds are clipped, NaN is refused).
    quantile : float
        Which quantile, in [0, 1] (0.5: the median).
    lower, upper : float
        Public bounds declared **before** seeing the data, ``lower < upper``.
    epsilon : float
        Privacy parameter (> 0).

    Returns
    -------
    edges : numpy.ndarray
        The ``n + 2`` interval end points ``z_0..z_{n+1}``.
    probabilities : numpy.ndarray
        The ``n + 1`` interval probabilities (zero for empty intervals).

    Examples
    --------
    >>> edges, p = quantile_interval_probabilities([1.0, 2.0, 3.0], 0.5, 0.0, 4.0, epsilon=1.0)
    >>> edges.tolist(), round(float(p.sum()), 6)
    ([0.0, 1.0, 2.0, 3.0, 4.0], 1.0)
    """
    data, quantile, lower, upper, epsilon = _quantile_inputs(values, quantile, lower, upper, epsilon)
    edges = np.concatenate([[lower], data, [upper]])
    widths = np.diff(edges)
    utility = -np.abs(np.arange(data.size + 1) - quantile * data.size)
    with np.errstate(divide="ignore"):
        logits = np.log(widths) + epsilon * utility / 2.0
    weights = np.exp(logits - logits.max())  # some width is > 0 (lower < upper), so the max is finite
    return edges, weights / weights.sum()


def dp_quantile(values, quantile: float, lower: float, upper: float, epsilon: float, rng=None, *,
                size: int | None = None):
    """Release a quantile of ``values`` with epsilon-DP: the exponential mechanism over intervals (Smith 2011).

    Picks an interval between consecutive sorted (clipped) data points with the probabilities of
    :func:`quantile_interval_probabilities`, then a uniform point inside it. The utility
    ``-|i - quantile * n|`` changes by at most ``max(quantile, 1 - quantile) <= 1`` when one person
    is added or removed (or replaced), so sensitivity 1 is used.

    **Neighbours**: one person added or removed; one value per person. **Public**: the bounds
    ``lower`` and ``upper`` and the quantile level. Never take the bounds from the data (its
    minimum and maximum): that leaks exactly the extreme values. Teaching only (NumPy sampling).

    Parameters
    ----------
    values : array_like
        The private data, one value per person.
    quantile : float
        Level in [0, 1]; 0.5 is the median.
    lower, upper : float
        Declared public bounds, ``lower < upper``; values outside are clipped to them.
    epsilon : float
        Privacy parameter of the release (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    size : int, optional
        Number of independent releases (for simulations; each one costs epsilon).

    Returns
    -------
    float or numpy.ndarray
        The DP quantile (a float in ``[lower, upper]``), or ``size`` of them.

    Examples
    --------
    >>> ages = np.arange(20, 80)
    >>> median = dp_quantile(ages, 0.5, lower=0, upper=120, epsilon=1.0, rng=0)
    >>> 0 <= median <= 120
    True
    """
    edges, probabilities = quantile_interval_probabilities(values, quantile, lower, upper, epsilon)
    size = _size(size)
    generator = as_generator(rng)
    count = 1 if size is None else size
    cumulative = np.cumsum(probabilities)
    chosen = np.searchsorted(cumulative, generator.random(count) * cumulative[-1], side="right")
    chosen = np.minimum(chosen, probabilities.size - 1)
    while (probabilities[chosen] == 0).any():  # a rounding edge landed on an empty interval: redraw those
        bad = probabilities[chosen] == 0
        chosen[bad] = np.minimum(np.searchsorted(cumulative, generator.random(int(bad.sum())) * cumulative[-1],
                                                 side="right"), probabilities.size - 1)
    left, right = edges[chosen], edges[chosen + 1]
    released = left + generator.random(count) * (right - left)
    return float(released[0]) if size is None else released


def dp_quantiles(values, quantiles, lower: float, upper: float, epsilon: float, rng=None) -> np.ndarray:
    """Several DP quantiles, splitting ``epsilon`` equally among them (sequential composition).

    Each quantile is released by :func:`dp_quantile` with ``epsilon / len(quantiles)``, so the
    whole release is epsilon-DP (Dwork & Roth 2014, Theorem 3.16) under adding or removing one
    person, with public bounds. The results are sorted, which is post-processing and costs nothing.

    Parameters
    ----------
    values : array_like
        The private data, one value per person.
    quantiles : sequence of float
        Levels in [0, 1].
    lower, upper : float
        Declared public bounds.
    epsilon : float
        Total privacy parameter (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        One released value per level, in increasing order of level.

    Examples
    --------
    >>> dp_quantiles(np.arange(100), [0.25, 0.5, 0.75], 0, 100, epsilon=3.0, rng=0).shape
    (3,)
    """
    if (quantiles is None or isinstance(quantiles, (str, bytes, bool, np.bool_))
            or (isinstance(quantiles, np.ndarray) and quantiles.dtype.kind in "bUSO")):
        raise TypeError(f"quantiles must be a list of levels in [0, 1], e.g. [0.25, 0.5, 0.75]; "
                        f"got {type(quantiles).__name__} {quantiles!r}.")
    try:
        levels = np.asarray(quantiles, dtype=float).ravel()
    except (TypeError, ValueError):
        raise TypeError(f"quantiles must be a list of levels in [0, 1], e.g. [0.25, 0.5, 0.75]; "
                        f"got {type(quantiles).__name__}.") from None
    if levels.size and not ((levels >= 0) & (levels <= 1)).all():  # also catches NaN
        raise ValueError(f"quantiles must all be levels in [0, 1] (0.5 for the median), got {quantiles!r}.")
    if levels.size == 0:
        raise ValueError("quantiles is empty; pass at least one level in [0, 1].")
    generator = as_generator(rng)
    epsilon = check_positive_float(epsilon, "epsilon")
    order = np.argsort(levels)
    released = np.array([dp_quantile(values, float(levels[i]), lower, upper, epsilon / levels.size, generator)
                         for i in order])
    result = np.empty_like(released)
    result[order] = np.sort(released)
    return result

