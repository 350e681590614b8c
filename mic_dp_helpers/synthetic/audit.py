"""Audit helpers for lesson 06: a neighbouring pair on which clustering flips, and audit-ready releases.

:func:`four_corners_pair` builds two replace-one neighbouring 2-D datasets whose size-constrained
clusterings differ completely; :func:`matched_centroid_shift` measures how far a set of
centroids moved; :func:`spread_mechanism` wraps a noisy-group-means release in the vectorized
form :func:`mic_dp_helpers.attacks.audit.audit_epsilon` expects.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linear_sum_assignment

from mic_dp_helpers._validation import (
    as_generator,
    as_seed,
    check_choice,
    check_finite_matrix,
    check_int_at_least,
    check_positive_float,
    check_size,
)
from mic_dp_helpers.synthetic.groupings import CLUSTER_METHODS, _check_grouping, cluster_groups, kd_groups

__all__ = ["four_corners_pair", "matched_centroid_shift", "spread_mechanism"]


def four_corners_pair(n_per_corner: int = 25) -> tuple[np.ndarray, np.ndarray]:
    """Two neighbouring 2-D datasets on which clustering flips (lesson 06's audit).

    ``n_per_corner`` records sit on each corner of the unit square, except that one record of
    the corner (0, 0) is moved: to (0.5, 0) in dataset A and to (0, 0.5) in dataset B. The
    datasets differ in that one record (replace-one neighbours). Two clusters of at least
    ``2 * n_per_corner - 2`` records split A into bottom and top, but B into left and right,
    so both centroids move by about 0.7 although one record changed.

    Parameters
    ----------
    n_per_corner : int, default 25
        Records on each corner (>= 2).

    Returns
    -------
    A, B : numpy.ndarray
        The two datasets, shape ``(4 * n_per_corner, 2)``, differing in one row.

    Examples
    --------
    >>> A, B = four_corners_pair()
    >>> A.shape, int((A != B).any(axis=1).sum())
    ((100, 2), 1)
    """
    n_per_corner = check_size(n_per_corner, "n_per_corner", 2, per_item=8)  # 4 corners x 2 coordinates
    corners = np.repeat(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), n_per_corner, axis=0)
    A, B = corners.copy(), corners.copy()
    A[0], B[0] = (0.5, 0.0), (0.0, 0.5)
    return A, B


def matched_centroid_shift(centroids_a, centroids_b) -> float:
    """L2 distance between two sets of centroids under the best one-to-one matching.

    A release of centroids is a set; this is how far the set moved (the L2 norm of the
    stacked differences after matching with :func:`scipy.optimize.linear_sum_assignment`).

    Parameters
    ----------
    centroids_a, centroids_b : array_like
        Two sets of centroids, same shape ``(k, D)``.

    Returns
    -------
    float
        The L2 distance after the best matching.

    Examples
    --------
    >>> matched_centroid_shift([[0, 0], [1, 1]], [[1, 1], [0, 0.5]])
    0.5
    """
    a, b = check_finite_matrix(centroids_a, "centroids_a"), check_finite_matrix(centroids_b, "centroids_b")
    if a.shape != b.shape:
        raise ValueError(f"the two sets must have the same shape, got {a.shape} and {b.shape}.")
    cost = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    rows, cols = linear_sum_assignment(cost)
    return float(math.sqrt(cost[rows, cols].sum()))


def _random_partition_means(X: np.ndarray, l: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Group means of ``size`` independent random partitions (as :func:`random_groups`): shape (size, k, D).

    Exact and vectorized: identical rows are counted once, and the number of copies of each
    distinct row that a group receives is drawn from the (multivariate) hypergeometric
    distribution, one distinct row at a time.
    """
    values, counts = np.unique(X, axis=0, return_counts=True)
    sizes = [len(part) for part in np.array_split(np.arange(len(X)), len(X) // l)]
    remaining = np.tile(counts, (size, 1)).astype(np.int64)
    means = np.empty((size, len(sizes), X.shape[1]))
    for j, group_size in enumerate(sizes):
        to_draw = np.full(size, group_size, dtype=np.int64)
        taken = np.zeros_like(remaining)
        for c in range(len(values)):
            others = remaining[:, c + 1:].sum(axis=1)
            taken[:, c] = rng.hypergeometric(remaining[:, c], others, to_draw) if c < len(values) - 1 else to_draw
            to_draw = to_draw - taken[:, c]
        remaining -= taken
        means[:, j, :] = taken @ values / group_size
    return means


def spread_mechanism(grouping: str, l: int, sigma: float, *, cluster_rng: int | np.random.Generator | None = 0,
                     cluster_method: str = "kmeans"):
    """A noisy-group-means release in the vectorized form :func:`mic_dp_helpers.attacks.audit.audit_epsilon` expects.

    Returns ``mechanism(dataset, size, rng)``: ``size`` independent releases of the noisy
    means (noise ``sigma``) of a grouping of the rows of ``dataset`` (already in ``[0, 1]^D``,
    one class), each summarized by the **spread of the released points along each axis**
    (max minus min over the groups), shape ``(size, D)``. The summary is post-processing: an
    event on it is an event on the release, so an audit of the summary is an audit of the
    release. ``"random"`` draws a fresh random partition per release (exactly, with
    hypergeometric counts); ``"kd"`` and ``"cluster"`` compute their grouping once per dataset
    (the clustering with one fixed seed from ``cluster_rng``, as a seeded implementation would:
    :func:`~mic_dp_helpers._validation.as_seed`, so an int is that seed).

    Parameters
    ----------
    grouping : {"random", "kd", "cluster"}
        How the rows are grouped.
    l : int
        Fewest records per group.
    sigma : float
        Noise standard deviation on each coordinate of each mean (> 0).
    cluster_rng : int, Generator or None, default 0
        Source of the clustering's one fixed seed (``"cluster"`` only).
    cluster_method : {"kmeans", "gmm"}, default "kmeans"
        Clustering of ``"cluster"``.

    Returns
    -------
    callable
        ``mechanism(dataset, size, rng) -> numpy.ndarray`` of shape ``(size, D)``.

    Examples
    --------
    >>> from mic_dp_helpers.attacks.audit import audit_epsilon
    >>> from mic_dp_helpers.accounting.gdp import group_mean_sigma
    >>> A, B = four_corners_pair()
    >>> mechanism = spread_mechanism("random", 48, group_mean_sigma(48, 2, 1.0, 1e-5))
    >>> audit_epsilon(mechanism, A, B, n_samples=4000, rng=0, delta=1e-5).refutes(1.0)
    False
    """
    _check_grouping(grouping)
    l = check_int_at_least(l, "l", 1)
    sigma = check_positive_float(sigma, "sigma")
    check_choice(cluster_method, "cluster_method", CLUSTER_METHODS)
    cluster_seed = as_seed(cluster_rng, "cluster_rng")  # fixed now, used afresh on every call for the clustering

    def mechanism(dataset, size: int, rng) -> np.ndarray:
        X = check_finite_matrix(dataset, "dataset")
        if len(X) // l < 2 if len(X) >= l else True:
            raise ValueError(f"the spread needs at least two groups: {len(X)} records and l={l}.")
        size = check_size(size, "size", 1, per_item=X.size + len(X))  # noisy means and draw counts per release
        generator = as_generator(rng)
        if grouping == "random":
            means = _random_partition_means(X, l, size, generator)
        else:
            if grouping == "kd":
                groups = kd_groups(X, l)
            else:
                groups = cluster_groups(X, l, method=cluster_method, rng=cluster_seed)
            exact = np.stack([X[g].mean(axis=0) for g in groups])
            means = np.broadcast_to(exact, (size,) + exact.shape)
        noisy = means + generator.normal(0.0, sigma, size=means.shape)
        return noisy.max(axis=1) - noisy.min(axis=1)

    return mechanism
