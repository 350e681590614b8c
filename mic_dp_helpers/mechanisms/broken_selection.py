"""Selections and local randomizers with planted privacy bugs, beside their fixed versions.

Every mechanism here is a *vectorized sampler* in the form :func:`mic_dp_helpers.attacks.audit.audit_epsilon`
expects: ``f(data, size, rng, *, epsilon=1.0)`` returns ``size`` independent outputs of the
mechanism on ``data``. :func:`planted_selection_bugs` bundles each broken mechanism with its fixed
version, the epsilon it claims, the neighbour relation, and a pair of neighbouring datasets on
which the course's audit exposes it. The bugs are deliberate; all randomness is NumPy
randomness, for teaching only.

Examples
--------
>>> from mic_dp_helpers.attacks.audit import audit_epsilon
>>> bug = planted_selection_bugs()[0]
>>> audit_epsilon(bug.mechanism, bug.dataset_a, bug.dataset_b, n_samples=20_000, rng=1).refutes(1.0)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mic_dp_helpers._validation import (as_generator, as_number_array, check_finite_array, check_positive_float,
                                        check_size)
from mic_dp_helpers.mechanisms.local import rr_keep_probability
from mic_dp_helpers.mechanisms.selection import dp_quantile, exponential_mechanism

__all__ = [
    "SelectionBug",
    "planted_selection_bugs",
    "category_counts",
    "category_spend",
    "most_common_category",
    "most_common_category_without_noise",
    "top_spend_category",
    "top_spend_category_sensitivity_one",
    "most_common_category_halved_twice",
    "randomized_response_one",
    "randomized_response_wrong_flip",
    "median_with_public_bounds",
    "median_with_data_bounds",
]

#: Number of candidate categories in the examples (public).
K = 2
#: Public cap on one purchase in :func:`category_spend`.
SPEND_CAP = 5.0


def _numbers(data, name: str = "data") -> np.ndarray:
    """``data`` as a float array (empty allowed), numbers only, finite."""
    array = as_number_array(data, name)
    return array if array.size == 0 else check_finite_array(array, name)


def _category_indices(labels: np.ndarray, what: str) -> np.ndarray:
    if ((labels < 0) | (labels >= K) | (labels != np.round(labels))).any():
        raise ValueError(f"{what} must be category indices, whole numbers from 0 to K - 1 = {K - 1}; got values "
                         f"from {labels.min():g} to {labels.max():g}.")
    return labels.astype(np.int64)


def category_counts(data) -> np.ndarray:
    """How many records fall in each category 0..K-1 (``data``: category indices).

    Parameters
    ----------
    data : array_like
        Category indices, whole numbers from 0 to ``K - 1``.

    Returns
    -------
    numpy.ndarray
        ``K`` counts, as floats.

    Examples
    --------
    >>> category_counts([0, 1, 1]).tolist()
    [1.0, 2.0]
    """
    labels = _category_indices(_numbers(data).ravel(), "data")
    return np.bincount(labels, minlength=K).astype(float)


def category_spend(data) -> np.ndarray:
    """Total spend per category, each purchase clipped to [0, SPEND_CAP] (``data``: rows (category, amount)).

    One added or removed purchase moves one category's total by at most ``SPEND_CAP``: the
    L-infinity sensitivity is ``SPEND_CAP``, not 1.

    Parameters
    ----------
    data : array_like
        Purchases, rows ``(category, amount)``: shape ``(n, 2)``.

    Returns
    -------
    numpy.ndarray
        ``K`` clipped totals.

    Examples
    --------
    >>> category_spend([[0, 2.0], [1, 9.0]]).tolist()
    [2.0, 5.0]
    """
    rows = _numbers(data)
    if rows.size and (rows.ndim != 2 or rows.shape[1] != 2):
        raise ValueError(f"data must be rows (category, amount), an array of shape (n, 2), got shape {rows.shape}.")
    rows = rows.reshape(-1, 2)
    categories = _category_indices(rows[:, 0], "the categories (first column of data)")
    return np.bincount(categories, weights=np.clip(rows[:, 1], 0, SPEND_CAP), minlength=K)


# ------------------------------------------------------------------ most common category
def most_common_category(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Correct: the exponential mechanism on category counts, sensitivity 1 (any neighbour relation).

    Parameters
    ----------
    data : array_like
        Category indices, whole numbers from 0 to ``K - 1``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` chosen category indices.
    """
    return exponential_mechanism(category_counts(data), 1.0, epsilon, rng, size=size)


def most_common_category_without_noise(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Bug: the exact argmax, released without any randomness.

    Parameters
    ----------
    data : array_like
        Category indices, whole numbers from 0 to ``K - 1``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` copies of the exact argmax.
    """
    check_positive_float(epsilon, "epsilon")  # claimed, not used: that is the bug
    as_generator(rng)
    counts = category_counts(data)
    return np.full(check_size(size, "size", 1), int(np.argmax(counts)))


def most_common_category_halved_twice(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Bug: the factor 2 of the exponential mechanism is dropped twice over.

    The code halves the score and its sensitivity (``counts / 2`` with sensitivity 0.5: on its own
    this changes nothing, the two halvings cancel) **and** passes ``monotonic=True``, which drops
    the factor 2 of ``exp(epsilon * u / (2 * Delta))``. The weights are then
    ``exp(epsilon * u / Delta)``, which is epsilon-DP only for monotonic utilities (counts under
    adding or removing one person). Under replace-one neighbours one count rises while another
    falls, and the selection is only ``2 epsilon``-DP. With the default ``monotonic=False`` the
    same call would be correct.

    Parameters
    ----------
    data : array_like
        Category indices, whole numbers from 0 to ``K - 1``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` chosen category indices.
    """
    counts = category_counts(data)
    return exponential_mechanism(counts / 2, 0.5, epsilon, rng, monotonic=True, size=size)


def top_spend_category(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Correct: the category with the largest total spend, utility sensitivity ``SPEND_CAP``.

    Parameters
    ----------
    data : array_like
        Purchases, rows ``(category, amount)``: shape ``(n, 2)``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` chosen category indices.
    """
    return exponential_mechanism(category_spend(data), SPEND_CAP, epsilon, rng, size=size)


def top_spend_category_sensitivity_one(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Bug: the same utility with its sensitivity underestimated as 1 (it is ``SPEND_CAP``).

    Parameters
    ----------
    data : array_like
        Purchases, rows ``(category, amount)``: shape ``(n, 2)``.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` chosen category indices.
    """
    return exponential_mechanism(category_spend(data), 1.0, epsilon, rng, size=size)


# ------------------------------------------------------------------ randomized response
def _one_answer(data) -> bool:
    """The one yes/no answer in ``data`` (a 1-element array of a boolean or 0/1)."""
    answer = np.asarray(data, dtype=object).ravel()
    if answer.size != 1 or not (isinstance(answer[0], (bool, np.bool_)) or answer[0] in (0, 1)):
        raise ValueError(f"data must hold one person's yes/no answer: one boolean or 0/1, got {data!r}.")
    return bool(answer[0])


def randomized_response_one(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Correct: one person's yes/no answer (``data``: a 1-element array), kept w.p. e^eps / (1 + e^eps).

    Parameters
    ----------
    data : array_like
        One person's answer: a 1-element array of a boolean or 0/1.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` reports, 1.0 (yes) or 0.0 (no).
    """
    truth = _one_answer(data)
    keep = as_generator(rng).random(check_size(size, "size", 1)) < rr_keep_probability(epsilon)
    return np.where(keep, truth, not truth).astype(float)


def randomized_response_wrong_flip(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Bug: flips with probability ``e^-epsilon / 2`` instead of ``1 / (1 + e^epsilon)``: too rarely.

    The truth-to-lie ratio is ``2 e^epsilon - 1``, more than ``e^epsilon``.

    Parameters
    ----------
    data : array_like
        One person's answer: a 1-element array of a boolean or 0/1.
    size : int
        Independent outputs to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    epsilon : float, default 1.0
        The epsilon the mechanism claims (> 0).

    Returns
    -------
    numpy.ndarray
        ``size`` reports, 1.0 (yes) or 0.0 (no).
    """
    truth = _one_answer(data)
    epsilon = check_positive_float(epsilon, "epsilon")
    keep = as_generator(rng).random(check_size(size, "size", 1)) >= math.exp(-epsilon) / 2
    return np.where(keep, truth, not truth).astype(float)


# ------------------------------------------------------------------ DP median
MEDIAN_BOUNDS = (0.0, 100.0)


def median_with_public_bounds(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Correct: Smith's DP median with bounds declared in advance (``MEDIAN_BOUNDS``).

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

    Returns
    -------
    numpy.ndarray
        ``size`` released medians, in ``MEDIAN_BOUNDS``.
    """
    return dp_quantile(data, 0.5, *MEDIAN_BOUNDS, epsilon, rng, size=size)


def median_with_data_bounds(data, size: int, rng=None, *, epsilon: float = 1.0) -> np.ndarray:
    """Bug: the bounds are the data's own minimum and maximum, so the output range reveals them.

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

    Returns
    -------
    numpy.ndarray
        ``size`` released medians.
    """
    values = _numbers(data)
    if values.size == 0:
        raise ValueError("data is empty: the bug takes its bounds from the data's own min and max, so it needs data.")
    return dp_quantile(values, 0.5, float(values.min()), float(values.max()), epsilon, rng, size=size)


# ------------------------------------------------------------------ the catalogue
@dataclass(frozen=True)
class SelectionBug:
    """A planted bug: the broken sampler, its fix, what it claims, and a pair that exposes it.

    Attributes
    ----------
    name : str
        Short name of the bug (or "correct").
    description : str
        What is wrong and why it breaks the claim.
    mechanism : callable
        The vectorized sampler as written, ``f(data, size, rng, *, epsilon)``.
    fixed : callable
        The corrected sampler.
    claimed_epsilon : float
        The epsilon the mechanism claims.
    neighbours : str
        The neighbour relation the claim is about.
    dataset_a, dataset_b : object
        Neighbouring datasets that expose the bug.
    """

    name: str
    description: str
    mechanism: Callable
    fixed: Callable
    claimed_epsilon: float
    neighbours: str
    dataset_a: object
    dataset_b: object


def planted_selection_bugs() -> list[SelectionBug]:
    """The planted selection and local-DP bugs, each with a neighbouring pair that exposes it at epsilon = 1.

    Returns
    -------
    list of SelectionBug
        The bugs, in the order lesson 07 audits them.

    Examples
    --------
    >>> [bug.name for bug in planted_selection_bugs()][:2]
    ['sensitivity underestimated', 'score halved twice']
    """
    spend_a = np.array([[1, SPEND_CAP]])
    spend_b = np.array([[1, SPEND_CAP], [0, SPEND_CAP]])
    ages = np.linspace(40, 60, 21)
    return [
        SelectionBug("sensitivity underestimated",
                     "exponential mechanism on spend per category with sensitivity 1 instead of the cap (5)",
                     top_spend_category_sensitivity_one, top_spend_category, 1.0,
                     "add or remove one purchase", spend_a, spend_b),
        SelectionBug("score halved twice",
                     "monotonic=True on counts that are not monotonic (replace-one): weights exp(eps u / Delta)",
                     most_common_category_halved_twice, most_common_category, 1.0,
                     "replace one person's category", np.array([1, 1, 1]), np.array([0, 1, 1])),
        SelectionBug("no noise", "the exact argmax", most_common_category_without_noise, most_common_category, 1.0,
                     "add or remove one person", np.array([0, 0, 1, 1, 1]), np.array([0, 0, 1, 1])),
        SelectionBug("randomized response, wrong flip probability",
                     "flips with probability e^-eps / 2 instead of 1 / (1 + e^eps)",
                     randomized_response_wrong_flip, randomized_response_one, 1.0,
                     "replace the person's answer (local DP)", np.array([True]), np.array([False])),
        SelectionBug("median with data bounds", "the DP median clipped to the data's own min and max",
                     median_with_data_bounds, median_with_public_bounds, 1.0,
                     "add or remove one person", ages, np.append(ages, 95.0)),
    ]
