"""Inputs of check 06.4 (a random-grouping release) that probe the grouping and the noise scale.

Each builder is deterministic given ``seed``. The data-independence inputs are pairs of
neighbouring datasets (one record replaced) that a grouping chosen from the values tells apart:
with the same generator, a grouping drawn from ``rng`` alone puts every record in the same group
on both, so at most one noisy group mean may differ (:func:`matched_rows`). The spread inputs are
datasets whose records differ, with a noise scale far above the spread of any group mean, so the
noise's standard deviation can be read off without knowing the groups.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

_default_rng = np.random.default_rng
_exp, _log, _sqrt, _ceil = math.exp, math.log, math.sqrt, math.ceil

#: Draws (records x features, groups of one) of the far-tail tests: one release of constant data.
TAIL_CASE = (1_000, 1_280, 0.5)
#: Expected count of standardised Gaussian draws beyond 4 sigma in :data:`TAIL_CASE`: 81.08.
TAIL_EXPECTED_BEYOND_4 = TAIL_CASE[0] * TAIL_CASE[1] * 2 * float(scipy.stats.norm.sf(4.0))
#: Fewer draws than this beyond 4 sigma fail: P(Poisson(81.08) < 46) = 8.9e-6 for Gaussian noise. Power: a
#: sum of 12 uniforms (bounded at 6 sigma, P(|Z| > 4) = 1.7e-5: 21.8 expected) fails with probability
#: 1 - 2e-7; a Gaussian redrawn beyond 4.2 sigma (46.9 expected) in about half the runs.
TAIL_FLOOR_BEYOND_4 = int(scipy.stats.poisson.ppf(1e-5, TAIL_EXPECTED_BEYOND_4))


def matched_rows(first: np.ndarray, second: np.ndarray, tolerance: float = 1e-9) -> int:
    """How many rows of ``first`` equal (to ``tolerance`` in every coordinate) some row of ``second``.

    The rows of ``second`` are sorted by their first coordinate, so each row of ``first`` is compared only with
    the few whose first coordinate is within ``tolerance`` (100,000 groups take a fraction of a second).

    Parameters
    ----------
    first, second : numpy.ndarray
        Releases of shape (groups, features).
    tolerance : float, default 1e-9
        The largest difference of a coordinate between matching rows.

    Returns
    -------
    int
        The number of rows of ``first`` found in ``second``.

    Examples
    --------
    >>> a = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    >>> matched_rows(a, np.array([[0.5, 0.6], [0.1, 0.2], [0.3, 0.9]]))
    2
    """
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if len(first) == 0 or len(second) == 0:
        return 0
    order = np.argsort(second[:, 0], kind="stable")
    keys = second[order, 0]
    low = np.searchsorted(keys, first[:, 0] - tolerance, side="left")
    high = np.searchsorted(keys, first[:, 0] + tolerance, side="right")
    single = np.flatnonzero(high - low == 1)  # one candidate (nearly always): compared at once
    count = int(np.all(np.abs(second[order[low[single]]] - first[single]) <= tolerance, axis=1).sum())
    for row in np.flatnonzero(high - low > 1):
        candidates = second[order[low[row]:high[row]]]
        count += bool(np.any(np.all(np.abs(candidates - first[row]) <= tolerance, axis=1)))
    return count


def _moved(X: np.ndarray, moves) -> list[np.ndarray]:
    changed = []
    for index, point in moves:
        other = X.copy()
        other[index] = point
        changed.append(other)
    return changed


def neighbours(X: np.ndarray) -> list[np.ndarray]:
    """Neighbours of ``X``, each with one record replaced so that its rank moves far under a data-dependent
    order: the lowest first and last coordinates moved to the top, the record nearest the centre moved to a
    corner, the lowest sum of coordinates (a projection) moved to the opposite corner.

    Parameters
    ----------
    X : numpy.ndarray
        Records x features, in [0, 1].

    Returns
    -------
    list of numpy.ndarray
        Four datasets, each differing from ``X`` in one record.
    """
    dim = X.shape[1]
    top_first, top_last = np.full(dim, 0.5), np.full(dim, 0.5)
    top_first[0], top_last[-1] = 0.999, 0.999
    moves = [(int(np.argmin(X[:, 0])), top_first), (int(np.argmin(X[:, -1])), top_last),
             (int(np.argmin(np.linalg.norm(X - X.mean(axis=0), axis=1))), np.full(dim, 0.001)),
             (int(np.argmin(X.sum(axis=1))), np.full(dim, 0.999))]
    return _moved(X, moves)


def _with_ties(rng, n: int, dim: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Records on a grid of 3 values (many duplicate rows) mixed with distinct ones, and neighbours that make
    a duplicated record distinct or a distinct record a duplicate (a grouping that deals ties first moves)."""
    X = rng.random((n, dim))
    tied = rng.permutation(n)[: n // 2]
    X[tied] = rng.integers(0, 3, (len(tied), dim)) / 2.0
    distinct = np.setdiff1d(np.arange(n), tied)
    moves = [(int(tied[0]), rng.random(dim) * 0.8 + 0.1), (int(distinct[0]), X[distinct[1]].copy()),
             (int(distinct[2]), X[tied[1]].copy())]
    return X, _moved(X, moves) + neighbours(X)


def independence_cases(seed: int) -> list[tuple[str, np.ndarray, int, list[np.ndarray]]]:
    """(description, X, l, neighbours) of the data-independence test, every n with n % l != 0: 60 records of
    2 features (l = 6); 300 to 900 records of 1-2 features; 40 to 100 records of 3 to 6 features; 1,000 to
    2,500 records of 3 to 8 features; 200 to 600 records of 2 to 4 features with ties (half the records on a
    grid of 3 values per feature); then :func:`large_independence_cases` (up to 1,000,000 records, 3,000
    features).

    Parameters
    ----------
    seed : int
        Seed of the sizes and the data.

    Returns
    -------
    list of tuple
        One entry per dataset.
    """
    rng = _default_rng([seed, 10])
    X = _default_rng([seed, 6]).random((60, 2))
    cases = [("60 records of 2 features", X, 6, neighbours(X))]
    for low, high, dims, sizes in ((300, 900, (1, 3), (3, 9)), (40, 100, (3, 7), (3, 8)),
                                   (1_000, 2_500, (3, 9), (4, 12)), (200, 600, (2, 5), (3, 9))):
        n, dim, l = int(rng.integers(low, high)), int(rng.integers(*dims)), int(rng.integers(*sizes))
        n += 1 if n % l == 0 else 0
        ties = low == 200
        X, others = _with_ties(rng, n, dim) if ties else (rng.random((n, dim)), None)
        others = neighbours(X) if others is None else others
        cases.append((f"{n} records of {dim} features{' with duplicate rows' if ties else ''}", X, l, others))
    return cases + large_independence_cases(seed)


#: (records, features, l) ranges of :func:`large_independence_cases` (referee s37rA: a grouping sorted by the values
#: above 2,500 records or 8 features passed): each drawn log-uniformly, the records varied (uniform in [0, 1]).
LARGE_INDEPENDENCE = (((2_500, 25_000), (1, 4), (5, 50)), ((25_000, 250_000), (1, 2), (50, 500)),
                      ((250_000, 1_000_000), (1, 1), (500, 5_000)), ((2_500, 10_000), (9, 16), (20, 100)),
                      ((20, 60), (9, 64), (2, 10)), ((20, 40), (65, 3_000), (2, 10)))


def large_independence_cases(seed: int) -> list[tuple[str, np.ndarray, int, list[np.ndarray]]]:
    """(description, X, l, neighbours) beyond :func:`independence_cases`' sizes: 2,500 to 1,000,000 records of 1
    to 4 features, 2,500 to 10,000 records of 9 to 16, and 20 to 60 records of 9 to 3,000 features
    (:data:`LARGE_INDEPENDENCE`), n % l != 0, each with the four :func:`neighbours`.

    Parameters
    ----------
    seed : int
        Seed of the sizes and the data.

    Returns
    -------
    list of tuple
        One entry per dataset.
    """
    rng = _default_rng([seed, 16])
    cases = []
    for records, dims, sizes in LARGE_INDEPENDENCE:
        n = int(_exp(rng.uniform(_log(records[0]), _log(records[1]))))
        dim = int(round(_exp(rng.uniform(_log(dims[0]), _log(dims[1] + 0.49)))))
        l = int(round(_exp(rng.uniform(_log(sizes[0]), _log(sizes[1])))))
        n += 1 if n % l == 0 else 0
        X = rng.random((n, dim))
        cases.append((f"{n} records of {dim} features", X, l, neighbours(X)))
    return cases


def leftover_cases(seed: int) -> list[tuple[np.ndarray, int]]:
    """(X, l) of the leftover test, n % l != 0 and few records: 29 records (l = 10: 2 groups, 9 leftovers),
    23 (l = 4) and 30 to 50 records of 1 to 3 features with l from 3 to 9.

    Parameters
    ----------
    seed : int
        Seed of l, of the third size and of the values.

    Returns
    -------
    list of (numpy.ndarray, int)
        The records and l; the check moves every record of each to 0.001 and to 0.999 in turn.
    """
    rng = _default_rng([seed, 12])
    l = int(rng.integers(3, 10))
    n = int(rng.integers(30, 51))
    n += 1 if n % l == 0 else 0
    return [(rng.random((29, 1)), 10), (rng.random((23, 2)), 4), (rng.random((n, int(rng.integers(1, 4)))), l)]


def spread_cases(seed: int) -> list[tuple[np.ndarray, int, float, int]]:
    """(X, l, sigma, calls) of the noise-scale test on data that are not constant: records
    0.5 + s (U - 0.5), with per-feature spreads s from 1e-9 (nearly constant) to 1, and sigma large
    enough that the spread of a group mean (s / sqrt(12 l)) is below 3% of sigma (its share of the
    variance below 1e-3). Calls give at least 4,000 noise values per case.

    Parameters
    ----------
    seed : int
        Seed of sigma and the data.

    Returns
    -------
    list of tuple
        One entry per dataset.
    """
    rng = _default_rng([seed, 11])
    specs = [(400, 4, (1e-9,) * 3, 1e-6, 1e-4), (300, 6, (1e-3, 1e-3), 0.01, 0.1), (500, 10, (1.0,) * 4, 10, 1e4),
             (600, 20, (1e-9, 1e-6, 1e-3, 0.1, 1.0), 3, 30), (200, 50, (0.3, 1e-9), 0.5, 2)]
    cases = []
    for n, l, spreads, low, high in specs:
        spreads = np.asarray(spreads)
        low = max(low, float(spreads.max()) / (0.03 * _sqrt(12 * l)))
        sigma = _exp(rng.uniform(_log(low), _log(high)))
        X = 0.5 + spreads * (rng.random((n, len(spreads))) - 0.5)
        cases.append((X, l, sigma, _ceil(4_000 / ((n // l) * len(spreads)))))
    return cases


def rank_shift_pair(n: int = 96) -> tuple[np.ndarray, np.ndarray]:
    """Two neighbouring 2-D datasets on which any grouping by rank moves every group: the first coordinate
    increases with the index, the second alternates 0, 1; B replaces the record of lowest first coordinate
    by one at the top (first coordinate 1, second still 0), so every other record moves down one rank.
    The second coordinate is the same in A and B: for groups chosen independently of the values, the
    distribution of the groups' second-coordinate means is exactly the same on both.

    Parameters
    ----------
    n : int, default 96
        Number of records.

    Returns
    -------
    tuple of numpy.ndarray
        The datasets A and B.
    """
    x = (np.arange(n) + 1.0) / (n + 2)
    A = np.column_stack([x, (np.arange(n) % 2).astype(float)])
    B = A.copy()
    B[0] = [1.0, 0.0]
    return A, B
