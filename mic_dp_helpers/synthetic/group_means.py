"""The anonymize step of 3A: noisy means of groups of at least ``l`` records, per class (lesson 06).

The 3A framework (Madl, Xu, Choudhury & Howard, 2023: "Approximate, Adapt, Anonymize") releases,
per class, the means of groups of at least ``l`` records plus Gaussian noise, accounted with
Gaussian DP (:mod:`mic_dp_helpers.accounting.gdp`). This module has the public bounds and scaling
(:func:`public_bounds`, :func:`scale_to_unit`), the choice of ``l`` (:func:`smallest_group_size`)
and the release (:func:`release_group_means`, returning a :class:`SyntheticRelease` whose metadata
states the grouping, ``l``, ``sigma``, ``mu``, (epsilon, delta) and every assumption made).


Privacy analysis (neighbouring notion: **replace one record**)
--------------------------------------------------------------
Two datasets are neighbours if they have the same size and differ in the feature vector of
one record, whose class label stays the same. The class counts ``n_c`` are treated as public:
the number of groups per class reveals them, so they must be. After clipping to public bounds
and scaling, every record lies in ``[0, 1]^D``, so two records differ by at most ``sqrt(D)``
in L2 norm, and the mean of a group of at least ``l`` records moves by at most ``sqrt(D)/l``
when one of its members is replaced.

* Random partition (:func:`random_groups`): the partition depends on the indices only, never
  on the values. Conditional on it, the changed record sits in exactly one group, so the
  vector of all group means has L2 sensitivity ``sqrt(D)/l`` and Gaussian noise of standard
  deviation ``sigma`` on every coordinate gives ``mu = sqrt(D)/(l*sigma)``-GDP (Dong, Roth &
  Su 2022, Theorem 2.7). Averaging over the random partition keeps every (epsilon, delta)
  guarantee (a mixture of mechanisms that each satisfy it satisfies it), so the release is
  mu-GDP. ``r`` independent random partitions (``repeats=r``, DPMix-style random mixing)
  put every record in ``r`` groups: ``mu = sqrt(r*D)/(l*sigma)`` (GDP composition,
  Corollary 3.3 of the same paper).
* Stable k-d partition (:func:`kd_groups`): a node with ``n`` records and ``k`` leaves below
  it is split at rank ``floor(n*(k//2)/k)`` of a coordinate fixed by its depth, ties broken by
  record index. Both the split rank and the leaf sizes depend only on ``n`` and ``l``.
  Replacing one record changes the set below each split rank by at most one swap, so *each*
  child differs from before in at most one record, and by induction every leaf differs in at
  most one record. With ``K`` leaves, each leaf mean moves by at most ``sqrt(D)/l``: the L2
  sensitivity is ``sqrt(K*D)/l`` and ``mu = sqrt(K*D)/(l*sigma)``. This is the paper's
  formula with ``C = K``: it is right for this grouping.
* Clusters chosen from the data (:func:`cluster_groups`): one changed record can reshuffle the
  members of every cluster, so a centroid can move by far more than ``sqrt(D)/l``, and the
  paper's ``mu = sqrt(C*D)/(l*sigma)`` does not bound the privacy loss. Lesson 06 builds a
  neighbouring pair where the centroids move 24 times the claimed sensitivity and an audit
  refutes the claimed epsilon. Releases with ``grouping="cluster"`` are marked
  ``differentially_private=False``.

For teaching only: the noise is drawn with NumPy's floating-point Gaussian sampler, which is
not safe against floating-point attacks (Mironov 2012); production code uses a DP library.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mic_dp_helpers._validation import (
    as_generator,
    check_choice,
    check_column_bounds,
    check_finite_matrix,
    check_int_at_least,
    check_labels,
    check_positive_float,
    check_size,
)
from mic_dp_helpers.accounting.gdp import _check_delta, gdp_mu
from mic_dp_helpers.synthetic.groupings import (
    _MAX_RESTARTS,
    CLUSTER_METHODS,
    _check_grouping,
    cluster_groups,
    kd_groups,
    random_groups,
)

__all__ = ["public_bounds", "scale_to_unit", "unscale_from_unit", "smallest_group_size", "SyntheticRelease",
           "release_group_means"]


# ============================================================================== scaling
# Public bounds: written down as a domain expert would, before looking at the private records.
# digits: 8x8 images whose pixels count dark cells in 4x4 blocks, so 0..16 by construction.
# breast_cancer: non-negative measurements of cell nuclei; the upper ends are generous round
# numbers for each measurement (a few extreme values are clipped, which is the point of clipping).
_BREAST_UPPER = (
    30, 50, 200, 2500, 0.2, 0.4, 0.5, 0.25, 0.35, 0.1,  # means
    3, 5, 25, 300, 0.035, 0.15, 0.4, 0.06, 0.08, 0.03,  # standard errors
    40, 50, 260, 4500, 0.25, 1.1, 1.3, 0.3, 0.7, 0.21,  # worst values
)
_PUBLIC_BOUNDS = {
    "digits": (np.zeros(64), np.full(64, 16.0)),
    "breast_cancer": (np.zeros(30), np.asarray(_BREAST_UPPER, dtype=float)),
}


def public_bounds(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Public per-feature bounds ``(lower, upper)`` for ``"digits"`` or ``"breast_cancer"``.

    digits pixels are 0..16 by the data format. For breast_cancer the lower bound 0 is
    physical (sizes, areas, ratios) and the upper bounds are generous round numbers per
    measurement; they were written for this course with knowledge of this public benchmark,
    which a real deployment must not do: fix bounds from domain knowledge before seeing data.

    Parameters
    ----------
    name : {"digits", "breast_cancer"}
        The dataset.

    Returns
    -------
    lower, upper : numpy.ndarray
        One bound per feature.

    Examples
    --------
    >>> lower, upper = public_bounds("digits")
    >>> lower.shape, float(upper.max())
    ((64,), 16.0)
    """
    name = check_choice(name, "name (the dataset)", sorted(_PUBLIC_BOUNDS),
                        unknown="no public bounds for {value!r}; {name} must be one of {choices}")
    lower, upper = _PUBLIC_BOUNDS[name]
    return lower.copy(), upper.copy()


def _check_bounds(lower, upper, dim: int) -> tuple[np.ndarray, np.ndarray]:
    return check_column_bounds(lower, upper, dim, what="feature")


def scale_to_unit(X, lower, upper) -> np.ndarray:
    """Clip ``X`` to the public bounds and map each feature to ``[0, 1]``.

    ``(clip(X, lower, upper) - lower) / (upper - lower)``. The bounds must be public (fixed
    before seeing the data): scaling with the data's own min and max would make the scale
    itself depend on single records, leak the extremes and move every group mean.

    Parameters
    ----------
    X : array_like, shape (n, D)
    lower, upper : float or array_like of shape (D,)
        Public bounds, ``lower < upper``.

    Returns
    -------
    numpy.ndarray
        Values in ``[0, 1]``, shape (n, D).

    Examples
    --------
    >>> scale_to_unit([[0.0, 5.0], [20.0, -1.0]], lower=0, upper=10).tolist()
    [[0.0, 0.5], [1.0, 0.0]]
    """
    X = check_finite_matrix(X)
    lower, upper = _check_bounds(lower, upper, X.shape[1])
    return (np.clip(X, lower, upper) - lower) / (upper - lower)


def unscale_from_unit(U, lower, upper) -> np.ndarray:
    """Map ``[0, 1]`` values back to the original units: ``lower + U * (upper - lower)``.

    Parameters
    ----------
    U : array_like
        Values in ``[0, 1]``, shape ``(n, D)``.
    lower, upper : float or array_like
        Public bounds, one number or one per column.

    Returns
    -------
    numpy.ndarray
        Values in the original units.

    Examples
    --------
    >>> unscale_from_unit([[0.5]], lower=0, upper=16).tolist()
    [[8.0]]
    """
    U = check_finite_matrix(U, "U")
    lower, upper = _check_bounds(lower, upper, U.shape[1])
    return lower + U * (upper - lower)

def _check_class_counts(class_counts) -> np.ndarray:
    counts = np.asarray(class_counts)
    if counts.ndim != 1 or counts.size == 0 or not np.issubdtype(counts.dtype, np.integer) or (counts < 1).any():
        raise ValueError(f"class_counts must be a non-empty list of positive integers, got {class_counts!r}.")
    for j, count in enumerate(counts.tolist()):  # the search tries every l up to the smallest count
        check_size(count, f"class_counts[{j}]")
    return counts.astype(int)


def smallest_group_size(class_counts: Sequence[int], dim: int, epsilon: float, delta: float, max_sigma: float,
                        grouping: str = "random", repeats: int = 1) -> int:
    """The smallest group size ``l`` whose calibrated noise is at most ``max_sigma``.

    ``sigma(l) = sqrt(groups_touched * dim) / (l * gdp_mu(epsilon, delta))`` falls as ``l``
    grows (for ``"kd"`` and ``"cluster"``, ``groups_touched = max_c n_c // l`` falls too); the
    search runs over ``l = 1 .. min(class_counts)``.

    Parameters
    ----------
    class_counts : sequence of int
        Records per class (public).
    dim : int
        Number of features ``D``.
    epsilon, delta : float
        Target privacy.
    max_sigma : float
        Largest acceptable noise standard deviation per coordinate, in ``[0, 1]`` units.
    grouping : {"random", "kd", "cluster"}
    repeats : int, default 1
        Random partitions (DPMix-style mixing; ``"random"`` only).

    Returns
    -------
    int
        The smallest such ``l``.

    Raises
    ------
    ValueError
        If even one group per class (``l = min(class_counts)``) needs more noise than ``max_sigma``.

    Examples
    --------
    >>> smallest_group_size([100, 100], dim=2, epsilon=1.0, delta=1e-5, max_sigma=0.1)
    53
    """
    counts = _check_class_counts(class_counts)
    dim = check_int_at_least(dim, "dim", 1)
    max_sigma = check_positive_float(max_sigma, "max_sigma")
    _check_grouping(grouping)
    repeats = check_int_at_least(repeats, "repeats", 1)
    mu = gdp_mu(epsilon, delta)
    ls = np.arange(1, counts.min() + 1)
    touched = np.full(ls.shape, repeats) if grouping == "random" else (counts.max() // ls)
    if repeats > 1 and grouping != "random":
        raise ValueError("repeats > 1 (DPMix-style random mixing) is only defined for grouping='random'.")
    sigmas = np.sqrt(touched * dim) / (ls * mu)
    ok = np.flatnonzero(sigmas <= max_sigma)
    if ok.size == 0:
        raise ValueError(f"no group size reaches max_sigma={max_sigma} at epsilon={epsilon}, delta={delta}: even one "
                         f"group per class (l={counts.min()}) needs sigma={sigmas[-1]:.3g}. Allow more noise, a "
                         "larger epsilon or delta, or collect more data.")
    return int(ls[ok[0]])


# ============================================================================== release
@dataclass(frozen=True)
class SyntheticRelease:
    """A synthetic training set of noisy group means and what it assumes.

    Attributes
    ----------
    X_unit : numpy.ndarray
        Synthetic records in ``[0, 1]^D`` (noisy means, clipped to ``[0, 1]``: post-processing).
    y : numpy.ndarray
        Their class labels.
    lower, upper : numpy.ndarray
        The public bounds used for scaling.
    metadata : dict
        Grouping, ``l``, ``sigma``, ``mu``, ``epsilon``, ``delta``, ``groups_touched``,
        ``differentially_private`` (bool), ``privacy_note`` and the list of ``assumptions``.
    """

    X_unit: np.ndarray
    y: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    metadata: dict = field(default_factory=dict)

    @property
    def X(self) -> np.ndarray:
        """Synthetic records in the original units."""
        return unscale_from_unit(self.X_unit, self.lower, self.upper)

    def __len__(self) -> int:
        return len(self.y)

    def __repr__(self) -> str:
        m = self.metadata
        dp = "DP" if m.get("differentially_private") else "NOT DP"
        return (f"SyntheticRelease({len(self)} records, grouping={m.get('grouping')!r}, l={m.get('l')}, "
                f"sigma={m.get('sigma', float('nan')):.3g}, epsilon={m.get('epsilon')}, delta={m.get('delta')}, {dp})")


def _grouping_for(grouping: str, X_class: np.ndarray, l: int, rng: np.random.Generator,
                  cluster_method: str, cluster_n_init: int) -> list[np.ndarray]:
    if grouping == "random":
        return random_groups(len(X_class), l, rng)
    if grouping == "kd":
        return kd_groups(X_class, l)
    return cluster_groups(X_class, l, method=cluster_method, rng=rng, n_init=cluster_n_init)


def release_group_means(X, y, lower, upper, epsilon: float, delta: float, *, grouping: str = "random",
                        l: int | None = None, max_sigma: float | None = None, repeats: int = 1, rng=None,
                        cluster_method: str = "kmeans", cluster_n_init: int = 10) -> SyntheticRelease:
    """Release noisy means of groups of at least ``l`` records, per class (the "anonymize" step).

    Per class ``c`` (``n_c`` records, public): clip and scale with the public bounds, group the
    records (``grouping``), take each group's mean and add ``N(0, sigma**2)`` to every
    coordinate, with ``sigma = sqrt(groups_touched * D) / (l * gdp_mu(epsilon, delta))``. The
    noisy means are clipped to ``[0, 1]`` (post-processing) and labelled ``c``.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Private records.
    y : array_like, shape (N,)
        Class labels. Class counts are treated as public (the number of groups reveals them).
    lower, upper : float or array_like of shape (D,)
        Public bounds (never the data's min and max).
    epsilon, delta : float
        Target privacy; ``delta`` should be much smaller than ``1/N`` (a warning is issued
        when ``delta * N > 0.01``).
    grouping : {"random", "kd", "cluster"}, default "random"
        ``"random"`` and ``"kd"`` are (epsilon, delta)-DP under replace-one neighbours (see the
        module docstring); ``"cluster"`` is the paper's ClustMix calibration, which is **not**
        DP: the release is marked ``differentially_private=False``.
    l : int, optional
        Minimum group size. Give ``l`` or ``max_sigma``.
    max_sigma : float, optional
        Choose the smallest ``l`` whose noise is at most this (:func:`smallest_group_size`).
    repeats : int, default 1
        For ``"random"``: release ``repeats`` independent random partitions (DPMix-style
        random mixing); the noise grows by ``sqrt(repeats)`` to pay for it.
    rng : None, int or numpy.random.Generator
        Randomness for the noise, the random partition and the clustering.
    cluster_method : {"kmeans", "gmm"}
        Clustering used by ``grouping="cluster"``.
    cluster_n_init : int, default 10
        Restarts of the clustering (``grouping="cluster"``).

    Returns
    -------
    SyntheticRelease

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.uniform(0, 10, size=(200, 3)), np.repeat([0, 1], 100)
    >>> release = release_group_means(X, y, 0, 10, epsilon=1.0, delta=1e-6, l=20, rng=1)
    >>> len(release), release.metadata["differentially_private"]
    (10, True)
    """
    X = check_finite_matrix(X)
    y = check_labels(y, X.shape[0], "y", "X")
    n_total, dim = X.shape
    _check_grouping(grouping)
    check_choice(cluster_method, "cluster_method", CLUSTER_METHODS)
    cluster_n_init = check_size(cluster_n_init, "cluster_n_init", 1, maximum=_MAX_RESTARTS)
    repeats = check_size(repeats, "repeats", 1, per_item=n_total)  # each repeat partitions every record
    if repeats > 1 and grouping != "random":
        raise ValueError("repeats > 1 (DPMix-style random mixing) is only defined for grouping='random'.")
    epsilon = check_positive_float(epsilon, "epsilon")
    delta = _check_delta(delta)
    lower, upper = _check_bounds(lower, upper, dim)
    classes, counts = np.unique(y, return_counts=True)
    if (l is None) == (max_sigma is None):
        raise ValueError("give exactly one of l (the minimum group size) or max_sigma (the largest acceptable noise).")
    if l is None:
        l = smallest_group_size(counts, dim, epsilon, delta, max_sigma, grouping, repeats)
    l = check_int_at_least(l, "l", 1)
    if l > counts.min():
        raise ValueError(f"l={l} is larger than the smallest class ({counts.min()} records); lower l.")
    if delta * n_total > 0.01:
        warnings.warn(f"delta={delta:g} is not much smaller than 1/N = {1 / n_total:.3g}: a mechanism that publishes "
                      "one random record in full is (0, 1/N)-DP. Use delta << 1/N.", UserWarning, stacklevel=2)

    touched = repeats if grouping == "random" else int(counts.max() // l)
    mu = gdp_mu(epsilon, delta)
    sigma = math.sqrt(touched * dim) / (l * mu)
    generator = as_generator(rng)
    unit = scale_to_unit(X, lower, upper)

    means, labels = [], []
    for label in classes:
        X_class = unit[y == label]
        for _ in range(repeats):
            for group in _grouping_for(grouping, X_class, l, generator, cluster_method, cluster_n_init):
                means.append(X_class[group].mean(axis=0))
                labels.append(label)
    means = np.asarray(means)
    noisy = np.clip(means + generator.normal(0.0, sigma, size=means.shape), 0.0, 1.0)

    is_dp = grouping != "cluster"
    if grouping == "random":
        note = (f"{'random partition' if repeats == 1 else f'{repeats} independent random partitions'} chosen "
                f"independently of the data: mu = sqrt({repeats}*D)/(l*sigma) = {mu:.4g}, so ({epsilon}, {delta})-DP.")
    elif grouping == "kd":
        note = (f"stable k-d partition: each of at most K={touched} leaves changes by at most one record, "
                f"mu = sqrt(K*D)/(l*sigma) = {mu:.4g}, so ({epsilon}, {delta})-DP.")
    else:
        note = ("NOT differentially private: clusters are chosen from the data, so one changed record can move every "
                f"centroid by far more than sqrt(D)/l. The paper's mu = sqrt(C*D)/(l*sigma) with C={touched} is not a "
                "valid bound (see the audit in lesson 06).")
    metadata = {
        "grouping": grouping if grouping != "cluster" else f"cluster ({cluster_method})",
        "l": l,
        "repeats": repeats,
        "groups_touched": touched,
        "dim": dim,
        "sigma": sigma,
        "mu": mu,
        "epsilon": epsilon,
        "delta": delta,
        "differentially_private": is_dp,
        "privacy_note": note,
        "neighbouring": "replace one record's features; its class label and the class counts stay fixed (public)",
        "class_counts": {_plain(c): int(n) for c, n in zip(classes, counts)},
        "n_synthetic": len(labels),
        "assumptions": [
            f"class counts are public: {dict((_plain(c), int(n)) for c, n in zip(classes, counts))} "
            "(the number of groups per class reveals them)",
            "the bounds used for scaling are public, fixed before seeing the data; values outside are clipped",
            f"delta = {delta:g}, compared with 1/N = {1 / n_total:.3g} (delta must be much smaller than 1/N)",
            "noise from NumPy's floating-point sampler: teaching only (Mironov 2012)",
        ],
    }
    return SyntheticRelease(noisy, np.asarray(labels), lower, upper, metadata)


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value
