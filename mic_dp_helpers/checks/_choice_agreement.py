"""04.2: do two people's choices depend on each other, however the dependence is arranged (referee s39rE D3)?

The tie test of :mod:`mic_dp_helpers.checks._choice_pairs` counted only equal or mirrored sets: disjoint picks from
one shared permutation, a set shifted by 1 or 3 positions, a reversed permutation, and sharing only among people
without 7 rows passed. Here, for the people of one row count m (k < m, position = the row's rank among the
person's rows in table order), ``x_i^c`` is person i's 0/1 vector of kept positions in call c and
``e_i(c, d) = |S_i^c & S_i^d| - k^2/m`` the centred overlap of the person's sets in two calls. Independent uniform
choices give each person's e-values mean 0 and variance v (hypergeometric), uncorrelated between people; four
statistics compare them with that law:

* **agreement of consecutive people** over calls: the sum over consecutive people (i, j) (in the order of first
  appearance and in the order of the person ids) of ``sum_{c<d} e_i(c, d) e_j(c, d)``: whenever one person's sets
  in two calls agree, the other's agree too. It is the squared Frobenius norm of the cross-covariance of x_i and
  x_j (an unbiased estimate), so it is positive for any dependence between the two people's positions: equal,
  mirrored, shifted or otherwise relabelled sets (each gives the largest value), disjoint picks from one
  permutation (a sixth of it at m = 7). Pearson type III with the exact mean, variance and third moment.
* **overlap of consecutive people** within a call: ``sum |S_i^c & S_j^c|`` over consecutive pairs and calls. Along a
  chain of independent people these overlaps are independent hypergeometric draws: exact law (convolution),
  two-sided. Disjoint picks give 0, shared draws k.
* **agreement of all pairs**: for each pair of calls, ``Y(c, d) = sum_i e_i(c, d)``; independent people give
  ``E Y^2 = n v``; tied pairs anywhere in the table (people i and i + n/2, a subset of people) add ``2 v`` per pair
  and relabelling. ``sum Y^2`` against a scaled chi-square with its exact mean and variance.
* **overlap of all pairs** within a call, fewer only: ``sum_{i<j} |S_i^c & S_j^c|`` is, up to a constant, the
  spread of the positions' kept counts; people keeping disjoint picks anywhere in the table lower it (about 40%
  of its variance when half of 30 people of 7 rows are paired). Pearson type III with the exact mean, variance
  and third moment.

The agreement tests use Pearson type III (or scaled chi-square) tails with exact moments, the overlaps of a chain
their exact law; simulated under independence (3,000 to 20,000 tables each, 3 to 250 rows, k = 1 to 8, 2 to 60
calls), the rates below 1e-2 and 1e-3 were as stated, and below 1e-4 too but for the agreements of 10 people of
250 rows (k = 8: 2 of 2,000 tables). The overlap tests fail at ``AGREEMENT_P`` (1e-6), the agreements at
``AGREEMENT_STRICT_P`` (1e-8): on the 7-row tables 5 tests each, on the mixed tables 8 per row count and k (21 of
them), about 180 tests per check run, below 1e-4 in all by design. Power: ``LESSON02_06_POWER`` in
:mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import scipy.signal
import scipy.stats

from mic_dp_helpers.checks._core import CheckFailed

_chi2_sf = scipy.stats.chi2.sf
_pearson3_sf = scipy.stats.pearson3.sf
_pearson3_cdf = scipy.stats.pearson3.cdf
_hypergeom_pmf = scipy.stats.hypergeom.pmf
_fftconvolve = scipy.signal.fftconvolve
_unique = pd.unique

#: The overlap tests fail below this p-value (each side for consecutive people, fewer only for all pairs).
AGREEMENT_P = 1e-6
#: The agreement tests fail below this p-value (one-sided): their approximate laws (three exact moments) may
#: understate the tail of sparse overlaps (250 rows, 10 people: 2 of 2,000 simulated tables below 1e-4).
AGREEMENT_STRICT_P = 1e-8


def overlap_law(m: int, k: int) -> np.ndarray:
    """The law of |S & T| for independent uniform k-subsets S, T of m positions (hypergeometric).

    Parameters
    ----------
    m, k : int
        Positions and kept positions.

    Returns
    -------
    numpy.ndarray
        P(overlap = 0), ..., P(overlap = k).

    Examples
    --------
    >>> (overlap_law(7, 2) * 21).round(6).tolist()
    [10.0, 10.0, 1.0]
    """
    return _hypergeom_pmf(np.arange(k + 1), m, k, k)


def sum_law(pmf: np.ndarray, times: int) -> np.ndarray:
    """The law of a sum of ``times`` independent draws of ``pmf`` (on 0, 1, ...), by FFT convolution powers.

    Parameters
    ----------
    pmf : numpy.ndarray
        The law of one draw.
    times : int
        Number of draws (at least 1).

    Returns
    -------
    numpy.ndarray
        The law of the sum.

    Examples
    --------
    >>> sum_law(np.array([0.5, 0.5]), 3).round(6).tolist()
    [0.125, 0.375, 0.375, 0.125]
    """
    result, power = np.ones(1), np.asarray(pmf, dtype=float)
    while times:
        if times & 1:
            result = np.clip(_fftconvolve(result, power), 0.0, None)
        times >>= 1
        if times:
            power = np.clip(_fftconvolve(power, power), 0.0, None)
    return result / result.sum()


@functools.lru_cache(maxsize=64)
def _chain_law(m: int, k: int, times: int) -> np.ndarray:
    return sum_law(overlap_law(m, k), times)


@functools.lru_cache(maxsize=64)
def _moments(m: int, k: int) -> tuple[float, float, float, float]:
    """Mean, and second, third and fourth central moments of one overlap (hypergeometric)."""
    law, values = overlap_law(m, k), np.arange(k + 1)
    mean = float(law @ values)
    return (mean,) + tuple(float(law @ (values - mean) ** power) for power in (2, 3, 4))


def _scaled_chi2_p(value: float, mean: float, variance: float) -> float:
    """P(a chi-square scaled to ``mean`` and ``variance`` exceeds ``value``)."""
    scale = variance / (2 * mean)
    return float(_chi2_sf(value / scale, mean / scale))


def centred_overlaps(x: np.ndarray, k: int) -> np.ndarray:
    """Each person's centred overlaps between calls, ``e_i(c, d)`` for c < d.

    Parameters
    ----------
    x : numpy.ndarray
        (calls, people, m) kept indicators of the people of one row count.
    k : int
        Rows kept per person.

    Returns
    -------
    numpy.ndarray
        (people, calls * (calls - 1) / 2).

    Examples
    --------
    >>> x = np.array([[[1, 0, 0]], [[1, 0, 0]], [[0, 1, 0]]])  # one person, 3 calls, k = 1 of 3
    >>> (centred_overlaps(x, 1) * 3).round(6).tolist()  # overlaps 1, 0, 0 minus 1/3
    [[2.0, -1.0, -1.0]]
    """
    calls, _, m = x.shape
    first, second = np.triu_indices(calls, 1)
    return np.einsum("cip,cip->ic", x[first], x[second]) - k * k / m


def triangle_moment(m: int, k: int) -> float:
    """E[e(c, d) e(d, f) e(c, f)] for one person's centred overlaps between three independent calls.

    Parameters
    ----------
    m : int
        The person's rows.
    k : int
        Rows kept in each call.

    Returns
    -------
    float
        The moment (``E[o o o] - mean^3``: the overlaps are pairwise independent).

    Examples
    --------
    >>> round(triangle_moment(3, 1) * 27, 6)  # k = 1: q^2 - q^3 with q = 1/3
    2.0
    """
    one, two = k / m, k * (k - 1) / (m * (m - 1))
    product = m * one ** 3 + 3 * m * (m - 1) * one * two * two + m * (m - 1) * (m - 2) * two ** 3
    return product - (k * k / m) ** 3


def _agreement_p(e: np.ndarray, order: np.ndarray, m: int, k: int) -> tuple[float, float]:
    """(z, p) of the agreement of consecutive people of ``order``, over pairs of calls: Pearson type III with the
    exact mean (0), variance and third moment (only a pair's own terms and triangles of calls contribute)."""
    pairs, call_pairs, calls = len(order) - 1, e.shape[1], _calls(e.shape[1])
    _, v, third, _ = _moments(m, k)
    total = float((e[order[:-1]] * e[order[1:]]).sum())
    variance = pairs * call_pairs * v * v
    skew = pairs * (call_pairs * third ** 2 + calls * (calls - 1) * (calls - 2) * triangle_moment(m, k) ** 2)
    skew /= variance ** 1.5
    return total / variance ** 0.5, float(_pearson3_sf(total, skew, scale=variance ** 0.5))


def _calls(call_pairs: int) -> int:
    return int(round((1 + (1 + 8 * call_pairs) ** 0.5) / 2))


def _all_pairs_p(e: np.ndarray, m: int, k: int) -> tuple[float, float]:
    """(z, p) of the agreement of all pairs of people: ``sum over call pairs of (sum_i e_i)^2``."""
    people, call_pairs = e.shape
    _, v, _, fourth = _moments(m, k)
    total = float((e.sum(axis=0) ** 2).sum())
    mean = call_pairs * people * v
    variance = call_pairs * (people * (fourth - 3 * v * v) + 2 * people * people * v * v)
    return (total - mean) / variance ** 0.5, _scaled_chi2_p(total, mean, variance)


def _overlap_ps(x: np.ndarray, order: np.ndarray, k: int) -> tuple[int, float, float, float]:
    """(observed, expected, P(<= observed), P(>= observed)) of the within-call overlaps of consecutive people."""
    observed = int(np.einsum("cip,cip->", x[:, order[:-1]], x[:, order[1:]]))
    law = _chain_law(x.shape[2], k, x.shape[0] * (len(order) - 1))
    expected = float(law @ np.arange(len(law)))
    return observed, expected, float(law[:observed + 1].sum()), float(law[observed:].sum())


def _all_overlap_p(x: np.ndarray, m: int, k: int) -> tuple[float, float]:
    """(z, P(<= observed)) of the overlaps of all pairs of people within calls: ``sum_c ||sum_i x~_i^c||^2`` minus
    its constant part is twice that sum. Pearson type III with the exact mean, variance and third moment (a
    pair's own terms and triangles of people)."""
    calls, people, _ = x.shape
    _, v, third, _ = _moments(m, k)
    counts = x.sum(axis=1) - people * k / m
    total = float(((counts * counts).sum() - calls * people * k * (m - k) / m) / 2)  # sum of o_ij - mean
    pairs, triangles = people * (people - 1) / 2, people * (people - 1) * (people - 2) / 6
    variance = calls * pairs * v
    skew = calls * (pairs * third + 6 * triangles * triangle_moment(m, k)) / variance ** 1.5
    return total / variance ** 0.5, float(_pearson3_cdf(total, skew, scale=variance ** 0.5))


def _fail(where: str, m: int, what: str) -> None:
    raise CheckFailed(f"{where}, people with {m} rows: {what}. Each person's choice looks uniform, but is tied to "
                      "another person's (for example a shared or mirrored draw, disjoint or shifted picks from one "
                      "permutation): removing one person would then change other people's kept rows. Draw each "
                      "person's rows separately, independently of the other people's (property: independent "
                      "choice for each person).")


def check_people_independent(x: np.ndarray, k: int, orders: list, where: str) -> None:
    """Fail when the choices of the people of one row count depend on each other (module docstring).

    Parameters
    ----------
    x : numpy.ndarray
        (calls, people, m) 0/1: the kept positions of each person of this row count in each call.
    k : int
        Rows kept per person (nothing is tested when k >= m or there is one person).
    orders : list of numpy.ndarray
        Orders of the people whose consecutive pairs are tested (each a permutation of range(people)).
    where : str
        The table and k, for the hint.

    Raises
    ------
    CheckFailed
        With a hint naming the statistic that shows the dependence.
    """
    calls, people, m = x.shape
    if k >= m or people < 2 or calls < 2:
        return
    e = centred_overlaps(x.astype(float), k)
    for order in orders:
        _check_consecutive(x, e, np.asarray(order), k, where)
    _check_all_pairs(x, e, k, where)


def _check_consecutive(x: np.ndarray, e: np.ndarray, order: np.ndarray, k: int, where: str) -> None:
    """The agreement over pairs of calls, and the overlap within calls, of consecutive people of ``order``."""
    calls, _, m = x.shape
    z, p = _agreement_p(e, order, m, k)
    if p < AGREEMENT_STRICT_P:
        _fail(where, m, "whenever a person's kept rows in two calls agree, the next person's (in table or id "
                        f"order) agree too (agreement z = {z:.1f} over {calls} calls, p = {p:.0e})")
    observed, expected, low, high = _overlap_ps(x, order, k)
    if min(low, high) < AGREEMENT_P:
        more = "more" if high < low else "fewer"
        _fail(where, m, f"in each call consecutive people (in table or id order) keep {more} of the same positions"
                        f" than independent choices do ({observed} shared positions over "
                        f"{calls} calls, about {expected:.0f} expected, p = {min(low, high):.0e})")


def _check_all_pairs(x: np.ndarray, e: np.ndarray, k: int, where: str) -> None:
    """The agreement over pairs of calls, and the overlap within calls (fewer only), of all pairs of people."""
    calls, _, m = x.shape
    z, p = _all_pairs_p(e, m, k)
    if p < AGREEMENT_STRICT_P:
        _fail(where, m, f"over pairs of calls, people's kept rows agree or differ together (agreement of all "
                        f"pairs of people z = {z:.1f} over {calls} calls, p = {p:.0e})")
    z, p = _all_overlap_p(x, m, k)
    if p < AGREEMENT_P:
        _fail(where, m, f"in each call people keep fewer of the same positions than independent choices do (all "
                        f"pairs of people, z = {z:.1f} over {calls} calls, p = {p:.0e}): some keep disjoint rows")


def person_indicators(kept: np.ndarray, person: np.ndarray, position: np.ndarray, rows: np.ndarray,
                      m: int) -> tuple[np.ndarray, list]:
    """The kept indicators of the people with ``m`` rows, and their orders (first appearance, id).

    Parameters
    ----------
    kept : numpy.ndarray
        (calls, table rows) 0/1: each row kept or not in each call.
    person, position, rows : numpy.ndarray
        Each row's person id, its rank among its person's rows (table order), its person's row count.
    m : int
        The row count.

    Returns
    -------
    tuple
        (calls, people, m) indicators (people in id order), and the list of the two orders.

    Examples
    --------
    >>> kept = np.array([[1, 0, 0, 1]])
    >>> x, orders = person_indicators(kept, np.array([5, 2, 5, 2]), np.array([0, 0, 1, 1]), np.full(4, 2), 2)
    >>> x.tolist(), [o.tolist() for o in orders]  # person 2 keeps its 2nd row, person 5 its 1st
    ([[[0, 1], [1, 0]]], [[1, 0], [0, 1]])
    """
    mine = np.flatnonzero(rows == m)
    ids = np.unique(person[mine])
    rank = np.searchsorted(ids, person[mine])
    table = np.zeros((len(ids), m), dtype=int)
    table[rank, position[mine]] = mine
    first = np.searchsorted(ids, _unique(person[mine]))
    return kept[:, table], [first, np.arange(len(ids))]
