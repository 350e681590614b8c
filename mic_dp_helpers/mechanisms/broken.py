"""Mechanisms with planted privacy bugs, and their fixed versions, for audit lessons and tests.

Every function here is a *vectorized sampler* in the form :func:`mic_dp_helpers.attacks.audit.audit_epsilon`
expects: ``f(data, size, rng, *, epsilon=...)`` returns ``size`` independent outputs of the
mechanism run on ``data`` (a 1-D array of records), shape ``(size,)`` or ``(size, d)``.
:func:`planted_bugs` bundles each broken mechanism with a fixed version, the epsilon it
claims and a pair of neighbouring datasets on which an audit exposes it.

The bugs are deliberate. All noise is NumPy noise, for teaching only (Mironov 2012);
production code uses a library such as PyDP.

**Neighbours.** Every mechanism here is stated for **add/remove one record** neighbours (the
convention of lessons 02-04, nothing assumed public), except the two means
(:func:`laplace_clipped_mean`, :func:`mean_clamped_to_data_range`), which are stated for
**replace one record** with the number of records ``n`` public: their sensitivity
``(upper - lower) / n`` divides by ``n``. Each docstring says which; :class:`PlantedBug` records it.

Examples
--------
>>> from mic_dp_helpers.attacks.audit import audit_epsilon
>>> bug = planted_bugs()[0]
>>> result = audit_epsilon(bug.mechanism, bug.dataset_a, bug.dataset_b, n_samples=20_000, rng=1)
>>> result.refutes(bug.claimed_epsilon)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from mic_dp_helpers._validation import as_generator, check_finite_array, check_finite_float, check_size, describe
from mic_dp_helpers.mechanisms.noise import laplace_mechanism, laplace_scale

__all__ = [
    "PlantedBug",
    "planted_bugs",
    "laplace_count",
    "laplace_bounded_sum",
    "laplace_clipped_mean",
    "laplace_histogram",
    "sum_with_count_sensitivity",
    "count_with_inverted_scale",
    "count_without_noise_at_zero",
    "mean_clamped_to_data_range",
    "histogram_with_shared_noise",
]


def _records(data) -> np.ndarray:
    """The records as a flat float array (it may be empty), without NaN or infinity."""
    if data is None or isinstance(data, (str, bytes, dict)):
        raise TypeError(f"data must be an array of numbers (one record each), got {describe(data)}.")
    try:
        array = np.asarray(data, dtype=float).ravel()
    except (TypeError, ValueError):
        raise TypeError(f"data must hold numbers only (one record each), got {describe(data)}.") from None
    return array if array.size == 0 else check_finite_array(array, "data")


def _bounds(lower, upper) -> tuple[float, float]:
    """The public clipping bounds, finite with ``lower < upper``."""
    lower, upper = check_finite_float(lower, "lower"), check_finite_float(upper, "upper")
    if not lower < upper:
        raise ValueError(f"lower must be < upper (public bounds declared in advance), got lower={lower}, "
                         f"upper={upper}.")
    return lower, upper


def _clipped_values(data, lower, upper) -> tuple[np.ndarray, float, float]:
    """Records clipped to the bounds, for a mean: at least one record (its ``n`` is public)."""
    lower, upper = _bounds(lower, upper)
    values = _records(data)
    if values.size == 0:
        raise ValueError("data is empty: a mean needs at least one record (n is public under replace-one neighbours).")
    return np.clip(values, lower, upper), lower, upper


def _category_counts(data, n_categories) -> np.ndarray:
    """Counts of the labels ``0 .. n_categories - 1`` in ``data`` (whole numbers in that range)."""
    n_categories = check_size(n_categories, "n_categories", 1)
    labels = _records(data)
    if ((labels < 0) | (labels >= n_categories) | (labels != np.round(labels))).any():
        raise ValueError(f"data must hold category labels, whole numbers from 0 to n_categories - 1 = "
                         f"{n_categories - 1}; got values from {labels.min():g} to {labels.max():g}.")
    return np.bincount(labels.astype(np.int64), minlength=n_categories).astype(float)


# ------------------------------------------------------------------------ correct versions
def laplace_count(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Correct: number of nonzero records (e.g. patients with a condition) + Laplace(1/epsilon).

    Neighbours: add/remove one record (sensitivity 1); nothing is assumed public.

    Teaching only: NumPy noise is not safe against floating-point attacks (Mironov 2012).

    Parameters
    ----------
    data : array_like
        Records; the count is of the nonzero ones.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` noisy counts.

    Examples
    --------
    >>> laplace_count([0, 1, 1], 3, rng=0).shape
    (3,)
    """
    size = check_size(size, "size", 1)
    true_count = float(np.count_nonzero(_records(data)))
    return laplace_mechanism(np.full(size, true_count), 1.0, epsilon, as_generator(rng))


def laplace_bounded_sum(data, size: int, rng=None, *, epsilon: float = 1.0, lower: float = 0.0,
                        upper: float = 10.0) -> np.ndarray:
    """Correct: sum of records clipped to ``[lower, upper]`` + Laplace(max(|lower|, |upper|) / epsilon).

    Neighbours: add/remove one record; the bounds are public (declared, not read from the data).

    Teaching only: NumPy noise is not safe against floating-point attacks (Mironov 2012).

    Parameters
    ----------
    data : array_like
        Records (numbers).
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).
    lower : float, default 0.0
        Public lower clipping bound.
    upper : float, default 10.0
        Public upper clipping bound.

    Returns
    -------
    numpy.ndarray
        ``size`` noisy sums.

    Examples
    --------
    >>> laplace_bounded_sum([3.0, 12.0], 2, rng=0).shape
    (2,)
    """
    size = check_size(size, "size", 1)
    lower, upper = _bounds(lower, upper)
    true_sum = float(np.clip(_records(data), lower, upper).sum())
    return laplace_mechanism(np.full(size, true_sum), max(abs(lower), abs(upper)), epsilon, as_generator(rng))


def laplace_clipped_mean(data, size: int, rng=None, *, epsilon: float = 1.0, lower: float = 0.0,
                         upper: float = 1.0) -> np.ndarray:
    """Correct: mean of ``n`` records clipped to public bounds, for a public ``n``; the noisy mean is
    clamped to the *declared* bounds, which is free post-processing.

    Neighbours: **replace one record** (not add/remove), with ``n`` and the bounds public; the
    sensitivity is ``(upper - lower) / n``. Under add/remove neighbours ``n`` changes and this
    calibration does not hold: a private mean then needs a private count too (lesson 04).

    Teaching only: NumPy noise is not safe against floating-point attacks (Mironov 2012).

    Parameters
    ----------
    data : array_like
        Records (numbers), ``n`` of them (public).
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).
    lower : float, default 0.0
        Public lower clipping bound.
    upper : float, default 1.0
        Public upper clipping bound.

    Returns
    -------
    numpy.ndarray
        ``size`` noisy means, in ``[lower, upper]``.

    Examples
    --------
    >>> out = laplace_clipped_mean([0.2, 0.4], 1000, rng=0)
    >>> bool(out.min() >= 0.0 and out.max() <= 1.0)
    True
    """
    size = check_size(size, "size", 1)
    values, lower, upper = _clipped_values(data, lower, upper)
    noisy = laplace_mechanism(np.full(size, values.mean()), (upper - lower) / len(values), epsilon,
                              as_generator(rng))
    return np.clip(noisy, lower, upper)


def laplace_histogram(data, size: int, rng=None, *, epsilon: float = 1.0, n_categories: int = 3) -> np.ndarray:
    """Correct: counts of labels ``0 .. n_categories-1``, independent Laplace(1/epsilon) noise per count
    (one record changes one count: parallel composition).

    Neighbours: add/remove one record; the set of categories is public.

    Teaching only: NumPy noise is not safe against floating-point attacks (Mironov 2012).

    Parameters
    ----------
    data : array_like
        Category labels, whole numbers from 0 to ``n_categories - 1``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).
    n_categories : int, default 3
        Number of public categories (labels 0 .. n_categories - 1).

    Returns
    -------
    numpy.ndarray
        Shape ``(size, n_categories)``.

    Examples
    --------
    >>> laplace_histogram([0, 1, 1, 2], 5, rng=0).shape
    (5, 3)
    """
    counts = _category_counts(data, n_categories)
    size = check_size(size, "size", 1, per_item=len(counts))
    return laplace_mechanism(np.tile(counts, (size, 1)), 1.0, epsilon, as_generator(rng))


# ---------------------------------------------------------------------------- planted bugs
def sum_with_count_sensitivity(data, size: int, rng=None, *, epsilon: float = 1.0, lower: float = 0.0,
                               upper: float = 10.0) -> np.ndarray:
    """BUG (sensitivity too small): a bounded sum calibrated with sensitivity 1, as if it were a count.

    One record can move the sum by up to ``max(|lower|, |upper|) = 10``, so the real epsilon
    is 10 times the claim. Neighbours: add/remove one record; the bounds are public.

    Parameters
    ----------
    data : array_like
        Records (numbers).
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).
    lower : float, default 0.0
        Public lower clipping bound.
    upper : float, default 10.0
        Public upper clipping bound.

    Returns
    -------
    numpy.ndarray
        ``size`` noisy sums.

    Examples
    --------
    >>> sum_with_count_sensitivity([3.0, 10.0], 2, rng=0).shape
    (2,)
    """
    size = check_size(size, "size", 1)
    lower, upper = _bounds(lower, upper)
    true_sum = float(np.clip(_records(data), lower, upper).sum())
    return laplace_mechanism(np.full(size, true_sum), 1.0, epsilon, as_generator(rng))  # should be 10.0


def count_with_inverted_scale(data, size: int, rng=None, *, epsilon: float = 0.5) -> np.ndarray:
    """BUG (inverted scale): Laplace scale ``epsilon / sensitivity`` instead of ``sensitivity / epsilon``.

    With sensitivity 1 and epsilon 0.5 the scale is 0.5 instead of 2: the real epsilon is
    ``1 / 0.5 = 2``, four times the claim (and the mistake gets worse as epsilon shrinks).
    Neighbours: add/remove one record.

    Parameters
    ----------
    data : array_like
        Records; the count is of the nonzero ones.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 0.5
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` noisy counts.

    Examples
    --------
    >>> count_with_inverted_scale([1, 1, 0], 2, rng=0).shape
    (2,)
    """
    size = check_size(size, "size", 1)
    true_count = float(np.count_nonzero(_records(data)))
    wrong_scale = 1.0 / laplace_scale(1.0, epsilon)  # = epsilon / sensitivity
    return true_count + as_generator(rng).laplace(0.0, wrong_scale, size=size)


def count_without_noise_at_zero(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """BUG (no noise at zero): a count that is released exactly when it is 0 ("nothing to hide").

    The output 0.0 then occurs with probability 1 on a dataset with no matching record and
    probability 0 on its neighbour with one: the real epsilon is infinite. Neighbours: add/remove
    one record.

    Parameters
    ----------
    data : array_like
        Records; the count is of the nonzero ones.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` released counts.

    Examples
    --------
    >>> count_without_noise_at_zero([0, 0], 3, rng=0).tolist()
    [0.0, 0.0, 0.0]
    """
    size = check_size(size, "size", 1)
    true_count = float(np.count_nonzero(_records(data)))
    if true_count == 0:
        return np.zeros(size)
    return laplace_mechanism(np.full(size, true_count), 1.0, epsilon, as_generator(rng))


def mean_clamped_to_data_range(data, size: int, rng=None, *, epsilon: float = 1.0, lower: float = 0.0,
                               upper: float = 1.0) -> np.ndarray:
    """BUG (clamp to the data's range): like :func:`laplace_clipped_mean`, but the noisy mean is
    clamped to ``[data.min(), data.max()]`` instead of the declared ``[lower, upper]``.

    The released value never exceeds the largest record, so an output above it reveals that a
    larger record is present; outputs also pile up exactly on the data's min and max. The
    real epsilon is infinite. Neighbours: replace one record, ``n`` and the bounds public (as
    for :func:`laplace_clipped_mean`).

    Parameters
    ----------
    data : array_like
        Records (numbers), at least one.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).
    lower : float, default 0.0
        Public lower clipping bound.
    upper : float, default 1.0
        Public upper clipping bound.

    Returns
    -------
    numpy.ndarray
        ``size`` noisy means.

    Examples
    --------
    >>> out = mean_clamped_to_data_range([0.2, 0.6], 1000, rng=0)
    >>> float(out.max())
    0.6
    """
    size = check_size(size, "size", 1)
    values, lower, upper = _clipped_values(data, lower, upper)
    noisy = laplace_mechanism(np.full(size, values.mean()), (upper - lower) / len(values), epsilon,
                              as_generator(rng))
    return np.clip(noisy, values.min(), values.max())  # should be np.clip(noisy, lower, upper)


def histogram_with_shared_noise(data, size: int, rng=None, *, epsilon: float = 1.0,
                                n_categories: int = 3) -> np.ndarray:
    """BUG (one noise draw reused): every count of a histogram gets the *same* Laplace draw.

    Differences between released counts are then exact (``(c0 + z) - (c1 + z) = c0 - c1``),
    so adding one record to category 0 changes ``output[0] - output[1]`` deterministically:
    the real epsilon is infinite. Neighbours: add/remove one record; the categories are public.

    Parameters
    ----------
    data : array_like
        Category labels, whole numbers from 0 to ``n_categories - 1``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).
    n_categories : int, default 3
        Number of public categories (labels 0 .. n_categories - 1).

    Returns
    -------
    numpy.ndarray
        Shape ``(size, n_categories)``.

    Examples
    --------
    >>> out = histogram_with_shared_noise([0, 1, 1], 4, rng=0)
    >>> np.allclose(out[:, 1] - out[:, 0], 1.0)
    True
    """
    counts = _category_counts(data, n_categories)
    size = check_size(size, "size", 1, per_item=len(counts))
    shared = as_generator(rng).laplace(0.0, laplace_scale(1.0, epsilon), size=(size, 1))  # one draw per release
    return counts + shared


# ------------------------------------------------------------------------------- registry
@dataclass(frozen=True)
class PlantedBug:
    """A broken mechanism with its claim, a fixed version and neighbouring datasets that expose it.

    Attributes
    ----------
    name : str
        Short name of the bug.
    description : str
        What is wrong and why it breaks the claim.
    mechanism : callable
        The broken vectorized sampler, with its claimed epsilon already bound.
    fixed_mechanism : callable
        The corrected sampler, with the same claim bound.
    claimed_epsilon : float
        The epsilon both claim.
    dataset_a, dataset_b : numpy.ndarray
        Neighbouring datasets (see ``neighbours``).
    neighbours : str
        The neighbouring relation the claim is about.
    """

    name: str
    description: str
    mechanism: Callable
    fixed_mechanism: Callable
    claimed_epsilon: float
    dataset_a: np.ndarray
    dataset_b: np.ndarray
    neighbours: str = "add/remove one record"


def planted_bugs() -> tuple[PlantedBug, ...]:
    """The five planted bugs (freshly built on each call).

    Returns
    -------
    tuple of PlantedBug
        The bugs, in the order lesson 02 audits them.

    Examples
    --------
    >>> [bug.name for bug in planted_bugs()][:2]
    ['sensitivity too small', 'inverted scale']
    """
    return (
        PlantedBug(
            "sensitivity too small",
            "Bounded sum of values in [0, 10] calibrated with sensitivity 1 instead of 10.",
            partial(sum_with_count_sensitivity, epsilon=1.0),
            partial(laplace_bounded_sum, epsilon=1.0),
            1.0,
            np.array([3.0, 7.0, 2.0, 10.0]),
            np.array([3.0, 7.0, 2.0]),
        ),
        PlantedBug(
            "inverted scale",
            "Count with Laplace scale epsilon/sensitivity instead of sensitivity/epsilon.",
            partial(count_with_inverted_scale, epsilon=0.5),
            partial(laplace_count, epsilon=0.5),
            0.5,
            np.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0]),
            np.array([1.0, 0.0, 1.0, 1.0, 0.0]),
        ),
        PlantedBug(
            "no noise at zero",
            "Count released exactly, without noise, when it is 0.",
            partial(count_without_noise_at_zero, epsilon=1.0),
            partial(laplace_count, epsilon=1.0),
            1.0,
            np.array([0.0, 0.0, 0.0]),
            np.array([0.0, 0.0, 0.0, 1.0]),
        ),
        PlantedBug(
            "clamped to data range",
            "Noisy mean clamped to the data's own min and max instead of the declared bounds.",
            partial(mean_clamped_to_data_range, epsilon=1.0),
            partial(laplace_clipped_mean, epsilon=1.0),
            1.0,
            np.array([0.2, 0.3, 0.4, 0.5, 0.6]),
            np.array([0.2, 0.3, 0.4, 0.5, 1.0]),
            neighbours="replace one record (the number of records, 5, is public)",
        ),
        PlantedBug(
            "shared noise draw",
            "Histogram whose counts all reuse one Laplace draw, so their differences are exact.",
            partial(histogram_with_shared_noise, epsilon=1.0),
            partial(laplace_histogram, epsilon=1.0),
            1.0,
            np.array([0.0, 0.0, 1.0, 2.0, 2.0, 2.0]),
            np.array([0.0, 0.0, 1.0, 2.0, 2.0, 2.0, 0.0]),
        ),
    )
