"""04.2: is each person's kept *subset* uniform, over a sweep of k and row counts (referee s37rA)?

The position and row tests of :mod:`mic_dp_helpers.checks._uniform_choice` see each row alone, at k = 1, 2, 3,
5, 8 and people of 3, 7, 20, 60 and 250 rows: each person's first rows passed for k = 4, 6, 7 or 9 and more, and
for 61-249 or more than 250 rows, and a random rotation (a random start and k consecutive rows: each row kept
with probability k / m, but only m of the C(m, k) subsets possible) passed. Here the test is on whole subsets:
among calls of one person, two kept sets are equal with probability 1 / C(m, k) for a uniform choice (the
least possible: any other law of the subsets repeats them more often), so the number of equal pairs of calls
is compared with its law under a uniform choice. A fixed choice repeats its set in every call, a rotation in
about one pair of calls in m. Power: ``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import functools
import math
import sys

import numpy as np
import pandas as pd
import scipy.stats

from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly

_default_rng = np.random.default_rng
_comb = math.comb
_exp = math.exp
_log = math.log
_poisson_sf = scipy.stats.poisson.sf
_len = len
_isinstance = isinstance

#: Row counts of the sweep table: every count from 2 to 12, then a log grid (ratio ``GRID_RATIO``, an offset drawn
#: from the seed) up to ``SWEEP_MAX``; ``SWEEP_PEOPLE`` people of each. The same grid gives the ks (1 to 12, then
#: the grid), ``SWEEP_CALLS`` calls each.
GRID_RATIO, SWEEP_MAX, SWEEP_PEOPLE, SWEEP_CALLS = 1.3, 1_000, 1, 3
#: The collision tests fail below this p-value (exact law for the sweep's 3 calls; Poisson for the mixed table's
#: 40, where only row counts with C(m, k) >= ``MIN_SUBSETS`` are tested).
COLLISION_P, MIN_SUBSETS = 1e-7, 100


def grid(seed: int, salt: int) -> tuple[int, ...]:
    """2 to 12, then a log grid of ratio ``GRID_RATIO`` from 12 (a seeded offset) up to ``SWEEP_MAX``.

    Parameters
    ----------
    seed : int
        The check's seed.
    salt : int
        Different grids for the row counts and the ks.

    Returns
    -------
    tuple of int
        Increasing, distinct.

    Examples
    --------
    >>> g = grid(404, 0)
    >>> g[:11], g[-1] <= 1000, all(b / a < 1.35 for a, b in zip(g[11:], g[12:]))
    ((2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), True, True)
    """
    offset = float(_default_rng([seed, 46, salt]).uniform(0.0, 1.0))
    steps = int(_log(SWEEP_MAX / 12) / _log(GRID_RATIO))
    above = [int(round(12 * GRID_RATIO ** (j + offset))) for j in range(steps + 1)]
    return tuple(range(2, 13)) + tuple(m for m in above if 12 < m <= SWEEP_MAX)


def _sweep_table(seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """(table, each row's person code, each person's row count): ``SWEEP_PEOPLE`` people per row count of
    :func:`grid`, rows shuffled, a numeric person id in the second column, a shuffled numeric index (a fresh copy)."""
    frame, person, rows_of = _sweep_bank(seed)
    return frame.copy(), person.copy(), rows_of.copy()


@functools.lru_cache(maxsize=2)
def _sweep_bank(seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    rng = _default_rng([seed, 46])
    rows_of = np.repeat(grid(seed, 0), SWEEP_PEOPLE)
    person = rng.permutation(np.repeat(np.arange(_len(rows_of)), rows_of))
    frame = pd.DataFrame({"amount": np.round(rng.uniform(1, 80, _len(person)), 2),
                          "customer": person * 7 + 100})
    frame.index = rng.permutation(np.arange(10, 10 + 3 * _len(frame), 3))
    return frame, person, rows_of


def kept_hashes(outputs, index: pd.Index, person: np.ndarray, n_people: int, seed: int):
    """(calls x people) hashes of each person's kept set, (calls x people) kept counts, and how often each row
    was kept.

    Each row gets a random weight; a set's hash is the sum of its rows' weights, added in table order, so equal
    sets give equal floats and different sets equal ones with probability about 1e-16.

    Parameters
    ----------
    outputs : list of pandas.DataFrame
        The answer's kept rows, one table per call.
    index : pandas.Index
        The given table's index.
    person : numpy.ndarray
        Each row's person code (0 to n_people - 1).
    n_people : int
        Number of people.
    seed : int
        Seed of the weights.

    Returns
    -------
    tuple of numpy.ndarray
        The hashes, the counts and the per-row totals.

    Raises
    ------
    CheckFailed
        If an output is not a DataFrame.
    """
    weights = _default_rng([seed, 46, 2]).random(_len(index))
    hashes, counts = [], []
    rows = kept_rows(outputs, index)
    for kept in rows:
        hashes.append(np.bincount(person, weights=kept * weights, minlength=n_people))
        counts.append(np.bincount(person, weights=kept, minlength=n_people))
    return np.array(hashes), np.array(counts), rows.sum(axis=0)


def kept_rows(outputs, index: pd.Index) -> np.ndarray:
    """(calls x rows) 0/1: which rows of the given table (``index``) each output kept.

    Parameters
    ----------
    outputs : list of pandas.DataFrame
        One DataFrame of kept rows per call (anything else fails).
    index : pandas.Index
        The labels of the table the answer was given, in its order.

    Returns
    -------
    numpy.ndarray
        One row of 0.0/1.0 per call.

    Raises
    ------
    CheckFailed
        If an output is not a DataFrame.
    """
    lookup = pd.Series(np.arange(_len(index)), index=index)
    rows = np.zeros((_len(outputs), _len(index)))
    for call, output in enumerate(outputs):
        if not _isinstance(output, pd.DataFrame):
            raise CheckFailed(f"it should return the kept rows as a DataFrame, not a {type(output).__name__}.")
        rows[call, lookup.reindex(output.index).dropna().to_numpy(dtype=int)] = 1.0
    return rows


def collisions(hashes: np.ndarray) -> np.ndarray:
    """Equal pairs of calls per person (column) of ``hashes``.

    Parameters
    ----------
    hashes : numpy.ndarray
        (calls x people) hashes of the kept sets.

    Returns
    -------
    numpy.ndarray
        For each person, the number of pairs of calls with the same hash.

    Examples
    --------
    >>> collisions(np.array([[1.0, 2.0], [1.0, 3.0], [1.0, 2.0]])).tolist()
    [3, 1]
    """
    ordered = np.sort(hashes, axis=0)
    result = []
    for column in ordered.T:
        _, sizes = np.unique(column, return_counts=True)
        result.append(int((sizes * (sizes - 1) // 2).sum()))
    return np.array(result)


def three_call_p_value(observed: int, subsets) -> float:
    """P(equal pairs >= observed) over people with ``subsets`` possible sets each, 3 calls each, uniform choice.

    A person's 3 sets: all different with probability (M - 1)(M - 2) / M^2 (0 equal pairs), exactly two equal
    3 (M - 1) / M^2 (1 pair), all equal 1 / M^2 (3 pairs); the people are independent (exact convolution).

    Parameters
    ----------
    observed : int
        Equal pairs seen.
    subsets : sequence of int
        C(m, k) of each person tested.

    Returns
    -------
    float
        The p-value.

    Examples
    --------
    >>> round(three_call_p_value(1, [10]), 4)
    0.28
    """
    law = np.array([1.0])
    for m in subsets:
        q = 1 / m  # an exact integer m, far beyond a float's range for C(1000, 400): q is then 0.0
        law = np.convolve(law, [1 - 3 * q + 2 * q * q, 3 * q - 3 * q * q, 0.0, q * q])
    return float(law[observed:].sum()) if observed < _len(law) else 0.0


def check_sweep(answer, seed: int, check_module) -> None:
    """``SWEEP_CALLS`` calls for each k of :func:`grid` on :func:`_sweep_table`: min(k, m) rows each, and no set
    repeated more often than a uniform choice repeats it (exact law, p-value below ``COLLISION_P`` fails).

    Parameters
    ----------
    answer : callable
        The student's ``bound_contributions``.
    seed : int
        The check's seed.
    check_module : module
        The calling check's module (watched during the calls).

    Raises
    ------
    CheckFailed
        If some person keeps a wrong number of rows, or the kept sets repeat too often.
    """
    trend = np.zeros(2)
    for k in grid(seed, 1):
        given, person, rows_of = _sweep_table(seed)
        outputs = _core.student_call("04.2", check_module, call_repeatedly, answer, SWEEP_CALLS, given, "customer",
                                     k, _default_rng([seed, 46, 3, k]), extra_modules=(sys.modules[__name__],))
        if not given.equals(_sweep_table(seed)[0]):
            raise CheckFailed("your function changed the table it was given; return a new table instead.")
        hashes, counts, totals = kept_hashes(outputs, given.index, person, _len(rows_of), seed)
        trend += position_trend(totals, person, rows_of, k)
        if (counts != np.minimum(rows_of, k)).any():
            raise CheckFailed(f"with k={k} (a table of people with 2 to {max(rows_of)} rows) some person kept a "
                              "number of rows other than min(their rows, k) (property: at most k, nobody loses "
                              "rows they could keep).")
        tested = rows_of > k
        subsets = [_comb(int(m), k) for m in rows_of[tested]]
        equal = int(collisions(hashes[:, tested]).sum())
        if subsets and three_call_p_value(equal, subsets) < COLLISION_P:
            raise CheckFailed(f"with k={k} (a table of people with 2 to {max(rows_of)} rows), over {SWEEP_CALLS} calls "
                              f"people kept exactly the same rows {equal} times (pairs of calls), where a random "
                              f"choice almost never does (about {_expected(subsets):.2g}; property: uniform choice, "
                              "whatever k or the row count): some rows are fixed (for example each person's first "
                              "rows), or only a few sets of rows can come out. Choose each person's rows uniformly "
                              "at random, using rng.")
    _check_trend(*trend)


#: The pooled position-trend test of the sweep fails beyond this many standard errors (two-sided 4e-6).
TREND_Z = 4.6


def position_trend(totals: np.ndarray, person: np.ndarray, rows_of: np.ndarray, k: int) -> np.ndarray:
    """(sum over kept rows of their centred relative position, its variance under a uniform choice) for the people
    with more than ``k`` rows, over ``SWEEP_CALLS`` calls.

    A row's relative position is (its position among its person's rows in table order - (m - 1) / 2) / m. A
    uniform choice of k of m rows sums k of them without replacement: mean 0, variance k (m + 1) (m - k) / (12 m^2).

    Parameters
    ----------
    totals : numpy.ndarray
        How often each row was kept (:func:`kept_hashes`).
    person : numpy.ndarray
        Each row's person code.
    rows_of : numpy.ndarray
        Each person's row count.
    k : int
        Rows kept per person.

    Returns
    -------
    numpy.ndarray
        The sum and its variance.

    Examples
    --------
    >>> person = np.array([0, 0, 0, 1])
    >>> position_trend(np.array([3.0, 0.0, 0.0, 3.0]), person, np.array([3, 1]), 1).round(3)
    array([-1.   ,  0.222])
    """
    m = rows_of[person].astype(float)
    position = pd.Series(person).groupby(person).cumcount().to_numpy()
    tested = m > k
    centred = (position - (m - 1) / 2) / m
    big = rows_of[rows_of > k].astype(float)
    variance = SWEEP_CALLS * float((k * (big + 1) * (big - k) / (12 * big ** 2)).sum())
    return np.array([float((totals * centred)[tested].sum()), variance])


def _check_trend(total: float, variance: float) -> None:
    """Fail when the kept rows lean towards the start or the end of each person's rows (pooled over the sweep)."""
    z = total / math.sqrt(variance) if variance > 0 else 0.0
    if abs(z) > TREND_Z:
        side = "later" if z > 0 else "earlier"
        raise CheckFailed(f"over the sweep of k (a table of people with 2 to {SWEEP_MAX} rows), the rows you keep lie "
                          f"{side} in each person's rows (in table order) than a random choice's (z = {z:.1f}; "
                          "property: uniform choice): the choice is weighted by the row's position (favouring "
                          "recent or early rows). Every set of k of a person's rows must be equally likely: choose "
                          "them uniformly at random, using rng.")


def _expected(subsets) -> float:
    pairs = SWEEP_CALLS * (SWEEP_CALLS - 1) / 2
    return float(sum(pairs / m for m in subsets))


def check_subsets_uniform(hashes: np.ndarray, sizes, people, k: int, calls: int) -> None:
    """The mixed table's test: for each row count m with C(m, k) >= ``MIN_SUBSETS``, the equal pairs of kept
    sets over ``calls`` calls of its people against Poisson(people C(calls, 2) / C(m, k)); p below
    ``COLLISION_P`` fails (a rotation repeats a set in about 1 / m of the pairs).

    Parameters
    ----------
    hashes : numpy.ndarray
        (calls x people) hashes of the kept sets (:func:`kept_hashes`).
    sizes : sequence of int
        Each person's row count.
    people : sequence of int
        The row counts to test.
    k, calls : int
        Rows kept and calls made.

    Raises
    ------
    CheckFailed
        If the kept sets of some row count repeat more often than a uniform choice repeats them.
    """
    sizes = np.asarray(sizes)
    for m in people:
        subsets = _comb(int(m), k)
        if k >= m or subsets < MIN_SUBSETS:
            continue
        equal = int(collisions(hashes[:, sizes == m]).sum())
        expected = int((sizes == m).sum()) * calls * (calls - 1) / 2 / subsets
        if float(_poisson_sf(equal - 1, expected)) < COLLISION_P:
            raise CheckFailed(f"with k={k}, people with {m} rows: over {calls} calls they kept exactly the same set of "
                              f"rows {equal} times (pairs of calls), where a uniform choice gives about "
                              f"{expected:.0f} (property: uniform choice of the set, not only of each row): some "
                              "sets of rows can never be kept together (for example k consecutive rows from a "
                              "random start). Draw a uniform random subset of each person's rows, for example "
                              "by shuffling them all, using rng.")
