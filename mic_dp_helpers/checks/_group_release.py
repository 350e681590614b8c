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

from mic_dp_helpers.checks._core import CheckFailed

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


#: Standard errors allowed on the tail case's mean square and excess kurtosis (:func:`check_tail_moments`): a
#: correct answer fails with probability about 5.7e-7 per moment (normal approximation, 1,280,000 draws).
MOMENT_LIMIT = 5.0


def check_tail_moments(z: np.ndarray, where: str) -> None:
    """Fail unless the standardised noise ``z`` of the tail case (1,280,000 draws) has mean square 1 and excess
    kurtosis 0, each within :data:`MOMENT_LIMIT` standard errors (sqrt(2 / N) = 0.00125 and sqrt(24 / N) = 0.0043).
    A scale mixture of Gaussians (SD 0.9 or 1.095 sigma per coordinate, half each: excess kurtosis 0.113, 26
    standard errors; 0.95 or 1.05: 0.030, 6.9, caught with probability 0.97), Laplace noise in 2% of the
    coordinates (0.06, 14) and one scale per call (0.9 sigma: mean square 0.81) fail.

    Parameters
    ----------
    z : numpy.ndarray
        The release minus the true means, over sigma.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        When either moment is off.
    """
    z = np.asarray(z, dtype=float).ravel()
    square = float(np.mean(z * z))
    excess = float(np.mean(z ** 4)) / square ** 2 - 3.0
    if abs(square - 1.0) > MOMENT_LIMIT * _sqrt(2.0 / z.size):
        raise CheckFailed(f"{where} the noise has standard deviation {_sqrt(square):.4f} sigma over {z.size:,} "
                          "draws of one release, not sigma: is the scale drawn at random, or changed from call to "
                          "call? Add noise of standard deviation exactly sigma (property: scale).")
    if abs(excess) > MOMENT_LIMIT * _sqrt(24.0 / z.size):
        cause = ("heavier tails than a Gaussian: a mixture of different scales (a smaller scale in part of the "
                 "coordinates releases them with less privacy than sigma promises) or another family mixed in"
                 if excess > 0 else "thinner tails than a Gaussian (bounded, truncated or a sum of uniforms)")
        raise CheckFailed(f"{where} the amount of noise is right, but its excess kurtosis is {excess:.3f} over "
                          f"{z.size:,} draws, where a Gaussian gives 0 (within {MOMENT_LIMIT * _sqrt(24.0 / z.size):.3f}"
                          f"): the noise has {cause}. Draw every coordinate's noise from N(0, sigma^2) (property: "
                          "Gaussian shape).")


def rows_shuffled(releases: np.ndarray, rng) -> np.ndarray:
    """Each release's rows in a uniformly random order of the check's own (independent between calls).

    The text asks for one row per group, in no set order: a release whose rows are then sorted (or put in any
    order read from the release itself) is post-processing of a private release, and correct (referee s39rE
    D7). Its rows are then dependent in place (a sorted coordinate rises from row to row), but after this shuffle
    they are independent again, as a correct release's are, whatever order the answer returned.

    Parameters
    ----------
    releases : numpy.ndarray
        (calls, groups, features).
    rng : numpy.random.Generator
        The check's generator for the orders.

    Returns
    -------
    numpy.ndarray
        The same releases, rows reordered within each call.

    Examples
    --------
    >>> releases = np.arange(12.0).reshape(2, 3, 2)
    >>> shuffled = rows_shuffled(releases, np.random.default_rng(0))
    >>> sorted(map(tuple, shuffled[1])) == sorted(map(tuple, releases[1]))
    True
    """
    order = np.argsort(rng.random(releases.shape[:2]), axis=1)
    return np.take_along_axis(releases, order[:, :, None], axis=1)


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


def _far_keys(X: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(key, new record) of the four far moves of :func:`neighbours`: the record of lowest key gets the new one."""
    dim = X.shape[1]
    top_first, top_last = np.full(dim, 0.5), np.full(dim, 0.5)
    top_first[0], top_last[-1] = 0.999, 0.999
    return [(X[:, 0], top_first), (X[:, -1], top_last),
            (np.linalg.norm(X - X.mean(axis=0), axis=1), np.full(dim, 0.001)), (X.sum(axis=1), np.full(dim, 0.999))]


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
    return _moved(X, [(int(np.argmin(key)), point) for key, point in _far_keys(X)])


def far_neighbour(X: np.ndarray) -> np.ndarray:
    """``X`` with the four records of :func:`neighbours` replaced at once (four distinct records: a record already
    moved is skipped for the next key), for the large cases: a grouping drawn from rng alone changes at most four
    group means, one sorted by any of the keys shifts the ranks of most records (one release instead of four).

    Parameters
    ----------
    X : numpy.ndarray
        Records x features, in [0, 1], at least four records.

    Returns
    -------
    numpy.ndarray
        A copy of ``X`` with four records replaced.

    Examples
    --------
    >>> X = np.array([[0.2], [0.4], [0.6], [0.8], [0.5]])
    >>> int((far_neighbour(X) != X).any(axis=1).sum())
    4
    """
    other, used = X.copy(), []
    for key, point in _far_keys(X):
        key = key.astype(float)
        key[used] = np.inf
        used.append(int(np.argmin(key)))
        other[used[-1]] = point
    return other


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


def independence_cases(seed: int):
    """(description, X, l, neighbours, records replaced in each neighbour) of the data-independence test, every n with n % l != 0: 60 records of
    2 features (l = 6); 300 to 900 records of 1-2 features; 40 to 100 records of 3 to 6 features; 1,000 to
    2,500 records of 3 to 8 features; 200 to 600 records of 2 to 4 features with ties (half the records on a
    grid of 3 values per feature); then :func:`large_independence_cases` (up to 1,000,000 records, 3,000
    features).

    Parameters
    ----------
    seed : int
        Seed of the sizes and the data.

    Yields
    ------
    tuple
        One entry per dataset.
    """
    rng = _default_rng([seed, 10])
    X = _default_rng([seed, 6]).random((60, 2))
    cases = [("60 records of 2 features", X, 6, neighbours(X), 1)]
    for low, high, dims, sizes in ((300, 900, (1, 3), (3, 9)), (40, 100, (3, 7), (3, 8)),
                                   (1_000, 2_500, (3, 9), (4, 12)), (200, 600, (2, 5), (3, 9))):
        n, dim, l = int(rng.integers(low, high)), int(rng.integers(*dims)), int(rng.integers(*sizes))
        n += 1 if n % l == 0 else 0
        ties = low == 200
        X, others = _with_ties(rng, n, dim) if ties else (rng.random((n, dim)), None)
        others = neighbours(X) if others is None else others
        cases.append((f"{n} records of {dim} features{' with duplicate rows' if ties else ''}", X, l, others, 1))
    yield from cases
    yield from large_independence_cases(seed)


#: Strata of the number of features of :func:`large_independence_cases` (referee s38rA: a grouping sorted by the
#: values for 25,000+ records of 3+ features, 250,000+ of 2+ or 2,600+ of 5 to 8 passed between the old boxes):
#: one drawn log-uniformly in each, then two sizes at that number of features.
FEATURE_STRATA = ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (7, 8), (9, 12), (13, 16), (17, 32), (33, 64), (65, 128),
                  (129, 400), (401, 1_000), (1_001, 3_000))
#: Largest records x features of a large independence case (8 MB of float64): 1,000,000 records of 1 feature,
#: 500,000 of 2, 333 of 3,000.
LARGE_CELLS = 1_000_000
#: The records of the second case of a stratum are drawn log-uniformly from this many up to the largest size.
LARGE_SMALLEST = 2_500
#: (records, features, l) ranges of the few-record cases of many features: 20 to 60 records of 9 to 64 and 20 to
#: 40 of 65 to 3,000 features.
FEW_RECORDS = (((20, 60), (9, 64), (2, 10)), ((20, 40), (65, 3_000), (2, 10)))


def _log_uniform(rng, low: float, high: float) -> float:
    return _exp(rng.uniform(_log(low), _log(high)))


def _large_case(rng, n: int, dim: int, l: int, replaced: int = 4):
    n += 1 if n % l == 0 else 0
    X = rng.random((n, dim))
    return f"{n} records of {dim} features", X, l, [far_neighbour(X)] if replaced == 4 else neighbours(X), replaced


def _stratum_cases(rng, dims: tuple[int, int]) -> list:
    """Two cases of one number of features drawn from ``dims``: the largest size (records x features up to
    :data:`LARGE_CELLS`, at most 1,000,000 records) and one drawn log-uniformly from :data:`LARGE_SMALLEST` (or a
    32nd of the largest) up to an 8th of the largest (a band of sizes; a larger draw would cost time, and every
    size above it meets the largest case); 20 to 500 groups."""
    dim = int(round(_log_uniform(rng, dims[0] - 0.49, dims[1] + 0.49)))
    largest = min(1_000_000, LARGE_CELLS // dim)
    sizes = (largest, int(_log_uniform(rng, min(LARGE_SMALLEST, largest // 32), largest // 8)))
    return [_large_case(rng, n, dim, max(1, n // int(round(_log_uniform(rng, 20, 500))))) for n in sizes]


def large_independence_cases(seed: int):
    """(description, X, l, neighbours, replaced) beyond :func:`independence_cases`' sizes, n % l != 0: for each
    stratum of :data:`FEATURE_STRATA` (1 to 3,000 features), a number of features drawn
    in it and two sizes: the largest (records x features = :data:`LARGE_CELLS`, at most 1,000,000 records) and one
    drawn log-uniformly from 2,500 up to an 8th of it, each with the :func:`far_neighbour` (four records replaced);
    so a grouping sorted by the values for n above any N and features in any stratum fails wherever N x features
    is below 1,000,000. Then 20 to 60 records of 9 to 64 features and 20 to 40 of 65 to 3,000
    (:data:`FEW_RECORDS`), each with the four :func:`neighbours` (one record replaced).

    Parameters
    ----------
    seed : int
        Seed of the sizes and the data.

    Yields
    ------
    tuple
        One entry per dataset, made when asked for (a few at a time in memory).
    """
    rng = _default_rng([seed, 16])
    for dims in FEATURE_STRATA:
        yield from _stratum_cases(rng, dims)
    for records, dims, sizes in FEW_RECORDS:
        n, dim = int(_log_uniform(rng, *records)), int(round(_log_uniform(rng, dims[0], dims[1] + 0.49)))
        yield _large_case(rng, n, dim, int(round(_log_uniform(rng, *sizes))), replaced=1)


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
