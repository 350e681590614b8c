"""Groupings of one class's records into groups of at least ``l`` (lesson 06, the 3A framework).

* :func:`random_groups`: a uniformly random partition, independent of the data. Replacing one
  record moves one group mean.
* :func:`kd_groups`: a stable k-d partition whose split ranks and leaf sizes depend only on
  ``n`` and ``l`` (:func:`kd_leaf_sizes`). Replacing one record changes each of the ``K``
  leaves by at most one record.
* :func:`cluster_groups`: the paper's size-constrained k-means or GMM (Madl, Xu, Choudhury &
  Howard 2023). **Not differentially private**: one record can reshuffle every cluster.

:func:`groups_touched` says how many group means one replaced record can move, as the privacy
analysis of :mod:`mic_dp_helpers.synthetic.group_means` counts them (neighbour relation: replace one
record's features, its label and the class counts fixed and public).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linear_sum_assignment

from mic_dp_helpers._validation import as_generator, check_choice, check_finite_matrix, check_int_at_least, check_size

__all__ = ["GROUPINGS", "random_groups", "kd_leaf_sizes", "kd_groups", "cluster_groups", "groups_touched"]

#: The groupings :func:`mic_dp_helpers.synthetic.group_means.release_group_means` accepts.
GROUPINGS = ("random", "kd", "cluster")
#: The clusterings :func:`cluster_groups` accepts.
CLUSTER_METHODS = ("kmeans", "gmm")
_MAX_CLUSTER_RECORDS = 3000  # constrained k-means solves an n x ~2n assignment problem per iteration
_MAX_RESTARTS = 1000  # restarts and iterations of the clustering: each solves an assignment problem


def _n_groups(n: int, l: int) -> int:
    n = check_size(n, "n", 1)
    l = check_int_at_least(l, "l", 1)
    if n < l:
        raise ValueError(f"cannot form a group of at least l={l} records from n={n} records; lower l.")
    return n // l


def random_groups(n: int, l: int, rng=None) -> list[np.ndarray]:
    """A uniformly random partition of ``range(n)`` into ``n // l`` groups of at least ``l``.

    Group sizes differ by at most one and depend only on ``n`` and ``l``; which record goes
    where does not depend on the data. Replacing one record moves one group mean.

    Parameters
    ----------
    n : int
        Records.
    l : int
        Fewest records per group.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    list of numpy.ndarray
        Row indices of each group.

    Examples
    --------
    >>> groups = random_groups(10, 3, rng=0)
    >>> [len(g) for g in groups], sorted(np.concatenate(groups).tolist()) == list(range(10))
    ([4, 3, 3], True)
    """
    k = _n_groups(n, l)
    return np.array_split(as_generator(rng).permutation(n), k)


def kd_leaf_sizes(n: int, l: int) -> list[int]:
    """Leaf sizes of the stable k-d partition of ``n`` records into ``n // l`` leaves of at least ``l``.

    A node with ``m`` records and ``k`` leaves below it sends ``floor(m * (k//2) / k)`` records
    to the left child (``k//2`` leaves) and the rest to the right (``k - k//2`` leaves), so
    every leaf has at least ``l`` records and the sizes depend only on ``n`` and ``l``.

    Parameters
    ----------
    n : int
        Records.
    l : int
        Fewest records per leaf.

    Returns
    -------
    list of int
        The ``n // l`` leaf sizes, summing to ``n``.

    Examples
    --------
    >>> kd_leaf_sizes(100, 48)
    [50, 50]
    >>> kd_leaf_sizes(10, 3)
    [3, 3, 4]
    """
    k = _n_groups(n, l)
    sizes: list[int] = []

    def split(m: int, leaves: int) -> None:
        if leaves == 1:
            sizes.append(m)
            return
        left_leaves = leaves // 2
        m_left = m * left_leaves // leaves
        split(m_left, left_leaves)
        split(m - m_left, leaves - left_leaves)

    split(int(n), k)
    return sizes


def kd_groups(X, l: int) -> list[np.ndarray]:
    """Stable k-d partition of the rows of ``X`` into ``n // l`` groups of at least ``l``.

    The split coordinate is fixed by the depth (``depth % D``), the split rank and the leaf
    sizes by ``n`` and ``l`` only (:func:`kd_leaf_sizes`); ties are broken by row index. Which
    records land in which leaf depends on the data, but replacing one record changes every
    leaf by at most one record (one swap per split), so the release of the ``K`` leaf means
    has L2 sensitivity ``sqrt(K*D)/l`` on ``[0, 1]^D`` data.

    Parameters
    ----------
    X : array_like
        Records of one class, shape ``(n, D)``.
    l : int
        Fewest records per leaf.

    Returns
    -------
    list of numpy.ndarray
        Row indices of each leaf, in the order of :func:`kd_leaf_sizes`.

    Examples
    --------
    >>> X = np.array([[0.1], [0.9], [0.5], [0.3], [0.7], [0.2]])
    >>> [g.tolist() for g in kd_groups(X, 3)]
    [[0, 5, 3], [2, 4, 1]]
    """
    X = check_finite_matrix(X)
    n, dim = X.shape
    k = _n_groups(n, l)
    groups: list[np.ndarray] = []

    def split(rows: np.ndarray, leaves: int, depth: int) -> None:
        if leaves == 1:
            groups.append(rows)
            return
        left_leaves = leaves // 2
        m_left = len(rows) * left_leaves // leaves
        ordered = rows[np.lexsort((rows, X[rows, depth % dim]))]  # by value, ties by row index
        split(ordered[:m_left], left_leaves, depth + 1)
        split(ordered[m_left:], leaves - left_leaves, depth + 1)

    split(np.arange(n), k, 0)
    return groups


def _min_size_assignment(cost: np.ndarray, l: int) -> np.ndarray:
    """Assign each row to a column (cluster) minimizing total cost, with every cluster >= l rows.

    Each cluster gets ``l`` mandatory slots (cost lowered by a constant larger than any total,
    so all are filled) and ``n - k*l`` optional slots; a rectangular linear assignment then
    fills the slots optimally (a min-cost-flow formulation of size-constrained k-means,
    Bradley, Bennett & Demiriz 2000). When every row's cheapest column already leaves each
    cluster ``l`` rows or more, that assignment is optimal and no assignment problem is solved.
    """
    n, k = cost.shape
    nearest = cost.argmin(axis=1)
    if np.bincount(nearest, minlength=k).min() >= l:
        return nearest  # no assignment costs less than each row's cheapest column, and this one is allowed
    extra = n - k * l
    big = (float(np.ptp(cost)) + 1.0) * (n + 1)
    slots = [np.repeat(cost, l, axis=1) - big]
    if extra > 0:
        slots.append(np.repeat(cost, extra, axis=1))
    _, columns = linear_sum_assignment(np.hstack(slots))
    return np.where(columns < k * l, columns // l, (columns - k * l) // max(extra, 1))


def _kmeans_plusplus(X: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k-means++ starting centres (Arthur & Vassilvitskii 2007): each new centre is drawn with
    probability proportional to the squared distance to the nearest centre chosen so far."""
    n = len(X)
    centers = [X[rng.integers(n)]]
    nearest = ((X - centers[0]) ** 2).sum(axis=1)
    for _ in range(1, k):
        total = nearest.sum()
        choice = rng.choice(n, p=nearest / total) if total > 0 else rng.integers(n)
        centers.append(X[choice])
        nearest = np.minimum(nearest, ((X - X[choice]) ** 2).sum(axis=1))
    return np.stack(centers)


def _constrained_kmeans(X: np.ndarray, k: int, l: int, rng: np.random.Generator, n_init: int,
                        max_iter: int) -> np.ndarray:
    best_labels, best_inertia = None, math.inf
    for _ in range(n_init):
        centers = _kmeans_plusplus(X, k, rng)
        labels = None
        for _ in range(max_iter):
            cost = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
            new = _min_size_assignment(cost, l)
            if labels is not None and np.array_equal(new, labels):
                break
            labels = new
            centers = np.stack([X[labels == j].mean(axis=0) for j in range(k)])
        inertia = float(((X - centers[labels]) ** 2).sum())
        if inertia < best_inertia - 1e-12:
            best_labels, best_inertia = labels, inertia
    return best_labels


def cluster_groups(X, l: int, method: str = "kmeans", rng=None, n_init: int = 10,
                   max_iter: int = 30) -> list[np.ndarray]:
    """The paper's grouping: ``n // l`` clusters of at least ``l`` records, chosen from the data.

    ``method="kmeans"``: size-constrained k-means (k-means++ starts; each assignment step is
    an optimal assignment with at least ``l`` records per cluster; best of ``n_init`` runs).
    ``method="gmm"``: a diagonal Gaussian mixture with ``n // l`` components, then the same
    size-constrained assignment on the negative log posterior.

    .. warning::
       **Not differentially private.** The clusters depend on the data: replacing one record
       can reshuffle every cluster and move every centroid by much more than ``sqrt(D)/l``,
       so no noise calibrated to ``sqrt(D)/l`` per centroid covers it (lesson 06 audits this).

    Slow for large ``n`` (an assignment problem of about ``n x 2n`` per iteration); limited
    to 3,000 records per class.

    Parameters
    ----------
    X : array_like
        Records of one class, shape ``(n, D)``.
    l : int
        Fewest records per cluster.
    method : {"kmeans", "gmm"}, default "kmeans"
        The clustering.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    n_init : int, default 10
        Restarts; the best is kept.
    max_iter : int, default 30
        Iterations per restart.

    Returns
    -------
    list of numpy.ndarray
        Row indices of each cluster.

    Examples
    --------
    >>> X = np.vstack([np.zeros((5, 2)), np.ones((5, 2))])
    >>> sorted(len(g) for g in cluster_groups(X, 4, rng=0))
    [5, 5]
    """
    X = check_finite_matrix(X)
    n = X.shape[0]
    k = _n_groups(n, l)
    if n > _MAX_CLUSTER_RECORDS:
        raise ValueError(f"size-constrained clustering of {n} records is too slow for the course "
                         f"(limit {_MAX_CLUSTER_RECORDS} per class); subsample or use 'random' or 'kd'.")
    n_init = check_size(n_init, "n_init", 1, maximum=_MAX_RESTARTS)
    max_iter = check_size(max_iter, "max_iter", 1, maximum=_MAX_RESTARTS)
    method = check_choice(method, "method", CLUSTER_METHODS)
    generator = as_generator(rng)
    if method == "kmeans":
        labels = _constrained_kmeans(X, k, l, generator, n_init, max_iter)
    elif method == "gmm":
        from sklearn.mixture import GaussianMixture

        gmm = GaussianMixture(k, covariance_type="diag", reg_covar=1e-3, n_init=n_init,
                              random_state=int(generator.integers(2**31 - 1))).fit(X)
        labels = _min_size_assignment(-np.log(gmm.predict_proba(X) + 1e-300), l)
    return [np.flatnonzero(labels == j) for j in range(k)]


def groups_touched(grouping: str, n: int, l: int, repeats: int = 1) -> int:
    """How many group means one replaced record can move, as the privacy analysis counts them.

    ``"random"``: ``repeats`` (one group per random partition). ``"kd"``: the number of leaves
    ``n // l``. ``"cluster"``: ``n // l`` as the paper counts it (the paper's ``C``), which
    the audit in lesson 06 shows is not a valid bound.

    Parameters
    ----------
    grouping : {"random", "kd", "cluster"}
        How the rows are grouped.
    n : int
        Records in the class.
    l : int
        Fewest records per group.
    repeats : int, default 1
        Random partitions (``"random"`` only).

    Returns
    -------
    int
        The number of group means one record can move.

    Examples
    --------
    >>> groups_touched("random", 100, 48), groups_touched("kd", 100, 10)
    (1, 10)
    """
    _check_grouping(grouping)
    repeats = check_int_at_least(repeats, "repeats", 1)
    if repeats > 1 and grouping != "random":
        raise ValueError("repeats > 1 (DPMix-style random mixing) is only defined for grouping='random'.")
    k = _n_groups(n, l)
    return repeats if grouping == "random" else k


def _check_grouping(grouping) -> str:
    return check_choice(grouping, "grouping", GROUPINGS)
