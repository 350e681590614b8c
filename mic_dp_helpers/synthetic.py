"""Differentially private synthetic training data from noisy group means (lesson 06).

The 3A framework (Madl, Xu, Choudhury & Howard, 2023: "Approximate, Adapt, Anonymize") releases,
per class, the means of groups of at least ``l`` records plus Gaussian noise, and accounts for
privacy with Gaussian differential privacy (GDP; Dong, Roth & Su, 2022). This module has the
pieces, with the privacy analysis stated next to each:

* **Gaussian DP accounting**: :func:`gdp_delta` (the (epsilon, delta) curve of a mu-GDP
  mechanism), its inverses :func:`gdp_mu` and :func:`gdp_epsilon`, composition
  :func:`gdp_compose`, and the calibration of noisy group means :func:`group_mean_mu` /
  :func:`group_mean_sigma`.
* **Scaling** to ``[0, 1]`` with *public* bounds and clipping: :func:`scale_to_unit`
  (never the data's own min and max, which would leak and move every group mean).
* **Groupings** of one class's records into groups of at least ``l``:
  :func:`random_groups` (data-independent), :func:`kd_groups` (a stable k-d partition
  whose leaf sizes depend only on ``n`` and ``l``) and :func:`cluster_groups` (the paper's
  size-constrained k-means or GMM, **not differentially private**: see below).
* **Release**: :func:`release_group_means` returns a :class:`SyntheticRelease` whose
  metadata states the grouping, ``l``, ``sigma``, ``mu``, (epsilon, delta) and every
  assumption made; :func:`smallest_group_size` picks ``l`` for a maximum noise level.
* **Evaluation**: :func:`evaluate_tstr` trains on synthetic data and tests on real data
  (AUC for binary tasks, accuracy for multi-class), with HistGradientBoosting and logistic
  regression; :func:`load_task` loads scikit-learn's bundled breast_cancer and digits data
  (nothing is downloaded) with their public bounds.
* **Adapt** (optional): :func:`kip_adapt`, kernel inducing points (Nguyen, Chen & Lee, 2021)
  with a closed-form RBF kernel; the result is labelled non-private unless the target data
  are public.

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
import numbers
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.optimize import brentq, linear_sum_assignment, minimize
from scipy.special import log_ndtr

from mic_dp_helpers._validation import (
    as_generator,
    check_finite_array,
    check_int_at_least,
    check_positive_float,
    check_probability,
)

__all__ = [
    "gdp_delta",
    "gdp_mu",
    "gdp_epsilon",
    "gdp_compose",
    "group_mean_mu",
    "group_mean_sigma",
    "public_bounds",
    "scale_to_unit",
    "unscale_from_unit",
    "random_groups",
    "kd_leaf_sizes",
    "kd_groups",
    "cluster_groups",
    "groups_touched",
    "smallest_group_size",
    "SyntheticRelease",
    "release_group_means",
    "load_task",
    "split_real",
    "evaluate_tstr",
    "kip_adapt",
    "four_corners_pair",
    "matched_centroid_shift",
    "spread_mechanism",
    "GROUPINGS",
]

#: The groupings :func:`release_group_means` accepts.
GROUPINGS = ("random", "kd", "cluster")
_MAX_CLUSTER_RECORDS = 3000  # constrained k-means solves an n x ~2n assignment problem per iteration


# ============================================================================ Gaussian DP
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
    Gaussian mechanism (:func:`mic_dp_helpers.mechanisms.gaussian_delta`). Computed in log
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
    Returns 0 when ``delta >= gdp_delta(0, mu)``.

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
    epsilon = brentq(excess, 0.0, high, xtol=1e-13, rtol=4 * np.finfo(float).eps, maxiter=500)
    for _ in range(64):
        if math.exp(_log_gdp_delta(epsilon, mu)) <= delta:
            break
        epsilon = epsilon * (1.0 + 1e-14) + 1e-300
    return epsilon


def gdp_compose(*mus: float) -> float:
    """mu of the composition of mechanisms that are mu_1-, ..., mu_k-GDP: ``sqrt(sum mu_i**2)``.

    (Dong, Roth & Su 2022, Corollary 3.3.)

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

    Examples
    --------
    >>> round(group_mean_sigma(l=48, dim=2, epsilon=1.0, delta=1e-5), 4)
    0.1099
    """
    l = check_int_at_least(l, "l", 1)
    dim = check_int_at_least(dim, "dim", 1)
    groups_touched = check_int_at_least(groups_touched, "groups_touched", 1)
    return math.sqrt(groups_touched * dim) / (l * gdp_mu(epsilon, delta))


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

    Examples
    --------
    >>> lower, upper = public_bounds("digits")
    >>> lower.shape, float(upper.max())
    ((64,), 16.0)
    """
    if name not in _PUBLIC_BOUNDS:
        raise ValueError(f"no public bounds for {name!r}; known: {sorted(_PUBLIC_BOUNDS)}.")
    lower, upper = _PUBLIC_BOUNDS[name]
    return lower.copy(), upper.copy()


def _check_bounds(lower, upper, dim: int) -> tuple[np.ndarray, np.ndarray]:
    lower = np.broadcast_to(check_finite_array(lower, "lower"), (dim,)).astype(float)
    upper = np.broadcast_to(check_finite_array(upper, "upper"), (dim,)).astype(float)
    if not (lower < upper).all():
        bad = int(np.argmax(~(lower < upper)))
        raise ValueError(f"every lower bound must be < its upper bound; feature {bad} has lower={lower[bad]}, "
                         f"upper={upper[bad]}. Use public bounds, never the data's own min and max.")
    return lower, upper


def _check_matrix(X, name: str = "X") -> np.ndarray:
    X = check_finite_array(X, name)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (records x features), got shape {X.shape}.")
    return X


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
    X = _check_matrix(X)
    lower, upper = _check_bounds(lower, upper, X.shape[1])
    return (np.clip(X, lower, upper) - lower) / (upper - lower)


def unscale_from_unit(U, lower, upper) -> np.ndarray:
    """Map ``[0, 1]`` values back to the original units: ``lower + U * (upper - lower)``.

    Examples
    --------
    >>> unscale_from_unit([[0.5]], lower=0, upper=16).tolist()
    [[8.0]]
    """
    U = _check_matrix(U, "U")
    lower, upper = _check_bounds(lower, upper, U.shape[1])
    return lower + U * (upper - lower)


# ============================================================================ groupings
def _n_groups(n: int, l: int) -> int:
    n = check_int_at_least(n, "n", 1)
    l = check_int_at_least(l, "l", 1)
    if n < l:
        raise ValueError(f"cannot form a group of at least l={l} records from n={n} records; lower l.")
    return n // l


def random_groups(n: int, l: int, rng=None) -> list[np.ndarray]:
    """A uniformly random partition of ``range(n)`` into ``n // l`` groups of at least ``l``.

    Group sizes differ by at most one and depend only on ``n`` and ``l``; which record goes
    where does not depend on the data. Replacing one record moves one group mean.

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
    X = _check_matrix(X)
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
    Bradley, Bennett & Demiriz 2000).
    """
    n, k = cost.shape
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

    Examples
    --------
    >>> X = np.vstack([np.zeros((5, 2)), np.ones((5, 2))])
    >>> sorted(len(g) for g in cluster_groups(X, 4, rng=0))
    [5, 5]
    """
    X = _check_matrix(X)
    n = X.shape[0]
    k = _n_groups(n, l)
    if n > _MAX_CLUSTER_RECORDS:
        raise ValueError(f"size-constrained clustering of {n} records is too slow for the course "
                         f"(limit {_MAX_CLUSTER_RECORDS} per class); subsample or use 'random' or 'kd'.")
    n_init = check_int_at_least(n_init, "n_init", 1)
    max_iter = check_int_at_least(max_iter, "max_iter", 1)
    generator = as_generator(rng)
    if method == "kmeans":
        labels = _constrained_kmeans(X, k, l, generator, n_init, max_iter)
    elif method == "gmm":
        from sklearn.mixture import GaussianMixture

        gmm = GaussianMixture(k, covariance_type="diag", reg_covar=1e-3, n_init=n_init,
                              random_state=int(generator.integers(2**31 - 1))).fit(X)
        labels = _min_size_assignment(-np.log(gmm.predict_proba(X) + 1e-300), l)
    else:
        raise ValueError(f"method must be 'kmeans' or 'gmm', got {method!r}.")
    return [np.flatnonzero(labels == j) for j in range(k)]


def groups_touched(grouping: str, n: int, l: int, repeats: int = 1) -> int:
    """How many group means one replaced record can move, as the privacy analysis counts them.

    ``"random"``: ``repeats`` (one group per random partition). ``"kd"``: the number of leaves
    ``n // l``. ``"cluster"``: ``n // l`` as the paper counts it (the paper's ``C``), which
    the audit in lesson 06 shows is not a valid bound.

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
    if grouping not in GROUPINGS:
        raise ValueError(f"grouping must be one of {GROUPINGS}, got {grouping!r}.")
    return grouping


def _check_class_counts(class_counts) -> np.ndarray:
    counts = np.asarray(class_counts)
    if counts.ndim != 1 or counts.size == 0 or not np.issubdtype(counts.dtype, np.integer) or (counts < 1).any():
        raise ValueError(f"class_counts must be a non-empty list of positive integers, got {class_counts!r}.")
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
    X = _check_matrix(X)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have one label per row of X: expected shape ({X.shape[0]},), got {y.shape}.")
    n_total, dim = X.shape
    _check_grouping(grouping)
    repeats = check_int_at_least(repeats, "repeats", 1)
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


# =========================================================================== evaluation
def load_task(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Load a bundled scikit-learn dataset with its public bounds: ``X, y, lower, upper``.

    ``"breast_cancer"`` (569 x 30, binary) or ``"digits"`` (1,797 x 64, ten classes). Both ship
    with scikit-learn (``load_breast_cancer`` / ``load_digits``): nothing is downloaded.

    Examples
    --------
    >>> X, y, lower, upper = load_task("digits")
    >>> X.shape, len(np.unique(y))
    ((1797, 64), 10)
    """
    from sklearn.datasets import load_breast_cancer, load_digits

    loaders = {"breast_cancer": load_breast_cancer, "digits": load_digits}
    if name not in loaders:
        raise ValueError(f"unknown task {name!r}; choose from {sorted(loaders)}.")
    data = loaders[name]()
    lower, upper = public_bounds(name)
    return data.data.astype(float), data.target, lower, upper


def split_real(X, y, test_size: float = 0.25, random_state: int = 0):
    """Stratified split into a private training part and a real hold-out test part.

    Returns ``X_train, X_test, y_train, y_test`` (scikit-learn's ``train_test_split``).

    Examples
    --------
    >>> X_train, X_test, y_train, y_test = split_real(np.zeros((8, 1)), [0, 1] * 4)
    >>> len(X_test)
    2
    """
    from sklearn.model_selection import train_test_split

    test_size = check_probability(test_size, "test_size")
    return train_test_split(X, np.asarray(y), test_size=test_size, stratify=y, random_state=random_state)


def _make_model(name: str, n_train: int, max_iter: int, random_state: int):
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if name == "hgb":
        # min_samples_leaf scales with the (often tiny) synthetic training set: the default 20
        # would make a constant model from 40 synthetic records.
        # Small, fast trees (8 leaves, 32 bins) with a larger learning rate keep a lesson's
        # dozens of fits within seconds.
        return HistGradientBoostingClassifier(max_iter=max_iter, learning_rate=0.3, max_leaf_nodes=8, max_bins=32,
                                              min_samples_leaf=int(min(20, max(2, n_train // 10))),
                                              early_stopping=False, random_state=random_state)
    if name == "logreg":
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    raise ValueError(f"unknown model {name!r}; choose from 'hgb', 'logreg'.")


def evaluate_tstr(X_train, y_train, X_test, y_test, models: Sequence[str] = ("hgb", "logreg"), *,
                  max_iter: int = 20, random_state: int = 0) -> dict[str, float]:
    """Train on (synthetic) data, test on real data: one score per model.

    The metric is ROC AUC for a binary task and accuracy for more classes (decided by the
    test labels). Models: ``"hgb"`` (``HistGradientBoostingClassifier`` with ``max_iter``
    rounds of small trees: 8 leaves, 32 bins, learning rate 0.2, no early stopping,
    ``min_samples_leaf`` between 2 and 20 scaled to the training size) and ``"logreg"``
    (standardized logistic regression). Fits run single-threaded: on small data, OpenMP
    threads cost more than they save, and they stall on busy shared machines.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] > 0).astype(int)
    >>> scores = evaluate_tstr(X[:100], y[:100], X[100:], y[100:], models=["logreg"])
    >>> scores["logreg"] > 0.95
    True
    """
    from sklearn.metrics import accuracy_score, roc_auc_score

    X_train, X_test = _check_matrix(X_train, "X_train"), _check_matrix(X_test, "X_test")
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    if len(np.unique(y_train)) < 2:
        raise ValueError("the training data must contain at least two classes.")
    binary = len(np.unique(y_test)) == 2
    max_iter = check_int_at_least(max_iter, "max_iter", 1)
    from threadpoolctl import threadpool_limits

    scores = {}
    with threadpool_limits(limits=1):
        for name in models:
            model = _make_model(name, len(y_train), max_iter, random_state).fit(X_train, y_train)
            if binary:
                positive = list(model.classes_).index(np.max(y_test))
                scores[name] = float(roc_auc_score(y_test == np.max(y_test), model.predict_proba(X_test)[:, positive]))
            else:
                scores[name] = float(accuracy_score(y_test, model.predict(X_test)))
    return scores


# ================================================================================ adapt
def _rbf(A: np.ndarray, B: np.ndarray, gamma: float) -> np.ndarray:
    sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
    return np.exp(-gamma * np.maximum(sq, 0.0))


def _kip_loss_and_grad(flat: np.ndarray, shape: tuple[int, int], Y_s: np.ndarray, X_t: np.ndarray, Y_t: np.ndarray,
                       gamma: float, reg: float) -> tuple[float, np.ndarray]:
    """Kernel ridge regression loss of support (X_s, Y_s) on target (X_t, Y_t) and its gradient in X_s."""
    X_s = flat.reshape(shape)
    K_ss, K_ts = _rbf(X_s, X_s, gamma), _rbf(X_t, X_s, gamma)
    A = K_ss + reg * np.eye(len(X_s))
    alpha = np.linalg.solve(A, Y_s)
    residual = K_ts @ alpha - Y_t
    loss = 0.5 * float((residual**2).sum()) / len(X_t)
    R = residual / len(X_t)
    G_ts = R @ alpha.T  # dL/dK_ts
    B = np.linalg.solve(A, K_ts.T @ R)
    G_ss = -B @ alpha.T  # dL/dK_ss
    W = G_ts * K_ts
    grad = -2.0 * gamma * (X_s * W.sum(0)[:, None] - W.T @ X_t)
    S = (G_ss + G_ss.T) * K_ss
    grad += -2.0 * gamma * (X_s * S.sum(1)[:, None] - S @ X_s)
    return loss, grad.ravel()


def kip_adapt(release: SyntheticRelease, X_target, y_target, *, target_is_public: bool, gamma: float | None = None,
              reg: float = 1e-2, max_iter: int = 30) -> SyntheticRelease:
    """The "adapt" step: move the synthetic records so that kernel ridge regression on them fits a target set.

    Kernel inducing points (Nguyen, Chen & Lee, ICLR 2021) with the closed-form RBF kernel
    ``exp(-gamma ||a - b||^2)`` on ``[0, 1]`` features: minimize the squared error of kernel
    ridge regression trained on the release (labels one-hot, fixed) and evaluated on the target,
    over the release's features (L-BFGS-B within ``[0, 1]``, analytic gradient).

    Privacy: if the target data are public, adapting is post-processing of a DP release and
    keeps its guarantee. If they are the private data, no noise calibration covers this step
    (the paper runs it on private data): the result is marked ``differentially_private=False``.

    Parameters
    ----------
    release : SyntheticRelease
    X_target : array_like, shape (m, D)
        Target records in original units (scaled and clipped with the release's bounds).
    y_target : array_like, shape (m,)
    target_is_public : bool
        Whether the target data are public (keyword only, on purpose).
    gamma : float, optional
        RBF width; default ``1 / (D * variance of the scaled target)``.
    reg : float, default 0.01
        Ridge regularization.
    max_iter : int, default 30
        L-BFGS-B iterations.

    Returns
    -------
    SyntheticRelease
        A new release with adapted features and updated metadata.
    """
    if not isinstance(release, SyntheticRelease):
        raise TypeError(f"release must be a SyntheticRelease, got {type(release).__name__}.")
    if not isinstance(target_is_public, bool):
        raise TypeError("target_is_public must be True or False: say whether the target data are public.")
    X_t = scale_to_unit(X_target, release.lower, release.upper)
    y_t = np.asarray(y_target)
    if y_t.shape != (len(X_t),):
        raise ValueError(f"y_target must have one label per row of X_target, got shape {y_t.shape}.")
    classes = np.unique(np.concatenate([release.y, y_t]))
    one_hot = lambda labels: (labels[:, None] == classes[None, :]).astype(float) - 1.0 / len(classes)  # noqa: E731
    Y_s, Y_t = one_hot(release.y), one_hot(y_t)
    dim = X_t.shape[1]
    gamma = 1.0 / (dim * max(float(X_t.var()), 1e-12)) if gamma is None else check_positive_float(gamma, "gamma")
    reg = check_positive_float(reg, "reg")
    max_iter = check_int_at_least(max_iter, "max_iter", 1)
    shape = release.X_unit.shape
    result = minimize(_kip_loss_and_grad, release.X_unit.ravel(), args=(shape, Y_s, X_t, Y_t, gamma, reg), jac=True,
                      method="L-BFGS-B", bounds=[(0.0, 1.0)] * int(np.prod(shape)), options={"maxiter": max_iter})
    still_dp = bool(release.metadata.get("differentially_private")) and target_is_public
    note = ("adapted with kernel inducing points on public target data: post-processing, the guarantee is unchanged. "
            if target_is_public else
            "adapted with kernel inducing points on PRIVATE target data: no noise covers this step, NOT differentially "
            "private. ")
    metadata = dict(release.metadata, differentially_private=still_dp, adapted=True, kip_loss=float(result.fun),
                    privacy_note=note + release.metadata.get("privacy_note", ""))
    return replace(release, X_unit=result.x.reshape(shape), metadata=metadata)


# ================================================================================ audit
def four_corners_pair(n_per_corner: int = 25) -> tuple[np.ndarray, np.ndarray]:
    """Two neighbouring 2-D datasets on which clustering flips (lesson 06's audit).

    ``n_per_corner`` records sit on each corner of the unit square, except that one record of
    the corner (0, 0) is moved: to (0.5, 0) in dataset A and to (0, 0.5) in dataset B. The
    datasets differ in that one record (replace-one neighbours). Two clusters of at least
    ``2 * n_per_corner - 2`` records split A into bottom and top, but B into left and right,
    so both centroids move by about 0.7 although one record changed.

    Examples
    --------
    >>> A, B = four_corners_pair()
    >>> A.shape, int((A != B).any(axis=1).sum())
    ((100, 2), 1)
    """
    n_per_corner = check_int_at_least(n_per_corner, "n_per_corner", 2)
    corners = np.repeat(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), n_per_corner, axis=0)
    A, B = corners.copy(), corners.copy()
    A[0], B[0] = (0.5, 0.0), (0.0, 0.5)
    return A, B


def matched_centroid_shift(centroids_a, centroids_b) -> float:
    """L2 distance between two sets of centroids under the best one-to-one matching.

    A release of centroids is a set; this is how far the set moved (the L2 norm of the
    stacked differences after matching with :func:`scipy.optimize.linear_sum_assignment`).

    Examples
    --------
    >>> matched_centroid_shift([[0, 0], [1, 1]], [[1, 1], [0, 0.5]])
    0.5
    """
    a, b = _check_matrix(centroids_a, "centroids_a"), _check_matrix(centroids_b, "centroids_b")
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


def spread_mechanism(grouping: str, l: int, sigma: float, *, cluster_seed: int = 0, cluster_method: str = "kmeans"):
    """A noisy-group-means release in the vectorized form :func:`mic_dp_helpers.audit.audit_epsilon` expects.

    Returns ``mechanism(dataset, size, rng)``: ``size`` independent releases of the noisy
    means (noise ``sigma``) of a grouping of the rows of ``dataset`` (already in ``[0, 1]^D``,
    one class), each summarized by the **spread of the released points along each axis**
    (max minus min over the groups), shape ``(size, D)``. The summary is post-processing: an
    event on it is an event on the release, so an audit of the summary is an audit of the
    release. ``"random"`` draws a fresh random partition per release (exactly, with
    hypergeometric counts); ``"kd"`` and ``"cluster"`` compute their grouping once per dataset
    (the clustering with the fixed seed ``cluster_seed``, as a seeded implementation would).

    Examples
    --------
    >>> from mic_dp_helpers.audit import audit_epsilon
    >>> A, B = four_corners_pair()
    >>> mechanism = spread_mechanism("random", 48, group_mean_sigma(48, 2, 1.0, 1e-5))
    >>> audit_epsilon(mechanism, A, B, n_samples=4000, rng=0, delta=1e-5).refutes(1.0)
    False
    """
    _check_grouping(grouping)
    l = check_int_at_least(l, "l", 1)
    sigma = check_positive_float(sigma, "sigma")

    def mechanism(dataset, size: int, rng) -> np.ndarray:
        X = _check_matrix(dataset, "dataset")
        if len(X) // l < 2 if len(X) >= l else True:
            raise ValueError(f"the spread needs at least two groups: {len(X)} records and l={l}.")
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
