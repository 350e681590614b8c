"""Independence tests for the coins of a local randomizer (exercise 07.1), one row of reports per call.

The reports of ``calls`` calls on the same ``n`` people form a calls x n array. Independent coins
show no correlation between any two people (at any distance in the list), no two calls with
the same flips and no two people with the same flips in every call. Each test's false-rejection
probability and power are stated with it (and in ``checks/_stats.py``, lesson 07's rows).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import hypergeom, poisson

from mic_dp_helpers.checks._core import CheckFailed

# References bound at import: patching numpy later changes nothing here.
_arange, _packbits, _rfft, _irfft, _sqrt_array = np.arange, np.packbits, np.fft.rfft, np.fft.irfft, np.sqrt
_poisson_sf, _poisson_cdf, _hypergeom_sf, _hypergeom_cdf = poisson.sf, poisson.cdf, hypergeom.sf, hypergeom.cdf

__all__ = ["lag_z_scores", "independence_of_coins", "pair_counts", "check_pairs_at_lags", "check_calls_independent"]


def lag_z_scores(flips: np.ndarray, min_pairs: float) -> tuple[np.ndarray, np.ndarray]:
    """For every distance m between two people, the z-score of the correlation of their flips.

    ``flips``: calls x n, each person's flips centred on that person's own rate. ``S_m`` sums the
    products of the flips of persons i and i + m over all i and calls; ``V_m`` the products'
    squares, so ``S_m / sqrt(V_m)`` is about standard normal for independent coins. Lags with
    fewer than ``min_pairs`` expected double flips are left out (the normal approximation needs them).

    Parameters
    ----------
    flips : numpy.ndarray, shape (calls, n)
        Each person's flips (1 flipped, 0 kept), minus that person's mean over the calls.
    min_pairs : float
        Fewest expected double flips a lag needs to be tested.

    Returns
    -------
    lags : numpy.ndarray
        The distances tested.
    z : numpy.ndarray
        Their z-scores.

    Examples
    --------
    >>> flips = np.random.default_rng(0).random((400, 50)) < 0.3
    >>> lags, z = lag_z_scores(flips - flips.mean(axis=0), 1000.0)
    >>> bool(np.abs(z).max() < 6.5)
    True
    """
    calls, n = flips.shape
    size = 1 << int(2 * n - 1).bit_length()
    spectrum = _rfft(flips, size, axis=1)
    products = _irfft((spectrum.conj() * spectrum).sum(axis=0), size)[1:n]
    squares = _rfft(flips * flips, size, axis=1)
    variances = _irfft((squares.conj() * squares).sum(axis=0), size)[1:n]
    lags = _arange(1, n)
    rate = float(np.mean(np.abs(flips) > 0.5))  # about min(f, 1 - f), the rarer outcome
    usable = (calls * (n - lags) * rate * rate >= min_pairs) & (variances > 1e-9)
    return lags[usable], products[usable] / _sqrt_array(variances[usable])


def independence_of_coins(kept: np.ndarray, where: str) -> None:
    """Every coin independent of every other: across people at any distance, across calls, no coin reused.

    Power (``checks/_stats.py``, 07.1 rows): coins shared between person i and person i + d for
    any d (the same uniform, correlation 1) give z = sqrt(calls x (n - d)), over 100 at the
    sizes used; a whole call's coins reused give two identical rows, found exactly.

    Parameters
    ----------
    kept : numpy.ndarray of bool, shape (calls, n)
        Whether each person's report was their true answer, in each call.
    where : str
        The case, for the hint.

    Returns
    -------
    None
        Raises :class:`~mic_dp_helpers.checks._core.CheckFailed` with a hint on the first dependence found.

    Examples
    --------
    >>> independence_of_coins(np.random.default_rng(0).random((400, 100)) < 0.7, "For 100 answers:")
    """
    calls, n = kept.shape
    flips = (~kept).astype(float)
    f = float(flips.mean())
    rarer = min(f, 1 - f)
    centred = flips - flips.mean(axis=0, keepdims=True)
    # Only calls and people with both outcomes count (never-flipped people are the rate tests' business).
    varied_rows = [row for row in ~kept if 0 < row.sum() < n]
    if n * 2 * f * (1 - f) >= 40:  # independent calls coincide with probability below e^-40
        rows = {bytes(_packbits(row)) for row in varied_rows}
        if len(rows) < len(varied_rows):
            raise CheckFailed(f"{where} two calls flipped exactly the same answers: the coins of one call are "
                              "reused in another. Draw new coins from `rng` on every call.")
    if calls * 2 * f * (1 - f) >= 40 and n >= 2:
        varied_columns = [column for column in (~kept).T if 0 < column.sum() < calls]
        columns = {bytes(_packbits(column)) for column in varied_columns}
        if len(columns) < len(varied_columns):
            raise CheckFailed(f"{where} two people's answers were flipped in exactly the same calls: they share "
                              "one coin. Each person needs a coin of their own.")
    if n >= 2 and rarer > 0:
        lags, z = lag_z_scores(centred, 1000.0)
        if z.size and float(np.abs(z).max()) > 6.5:  # 2 Phi(-6.5) = 8e-11 per lag, at most 1e5 lags
            d = int(lags[int(np.argmax(np.abs(z)))])
            raise CheckFailed(f"{where} the coins of person i and person i + {d} are correlated: each person "
                              "must flip their own coin, independent of everyone else's (one uniform per "
                              "person per call, none shared or reused).")
    # Two calls with exactly the same flips, or two people with the same flips in every call: a coin reused.
    if calls >= 3 and (calls - 1) * n * rarer * rarer >= 1000:
        # Centred on the overall rate, not on each person's own mean over the calls: that mean would make
        # consecutive calls of a correct answer negatively correlated (z about -sqrt(n / calls)).
        overall = flips - f
        a, b = overall[:-1].ravel(), overall[1:].ravel()
        variance = float(_sqrt_array(((a * a) * (b * b)).sum()))
        if variance > 0 and abs(float((a * b).sum())) / variance > 6.5:
            raise CheckFailed(f"{where} the coins of one call predict those of the next: draw fresh, independent "
                              "coins from `rng` on every call.")


#: Per distance, the probability that a correct answer's count of double flips is declared off (each tail).
PAIR_TAIL = 1e-13
#: Per case, the probability that a correct answer's count of people flipped in both of two calls is declared off.
CALLS_TAIL = 1e-12
#: Above this many people and flips, the pairs are counted at the nearest and the usual distances only.
ALL_LAGS_PEOPLE = 131_072
ALL_LAGS_FLIPS = 1_000


def pair_counts(flipped: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the distances d tested, how many persons i and i + d both flipped (one call).

    Every distance 1 to n - 1: when the flips are few (at most ``ALL_LAGS_FLIPS``, and at most 25 double
    flips expected at any distance) from their pairwise differences, listing only the distances with a
    pair (no count of 0 is off there: Poisson(25) gives 0 with probability 1.4e-11); else when n is at
    most ``ALL_LAGS_PEOPLE`` by an FFT. Otherwise d = 1 to 32 and n/k for k = 2 to 10 (and (n + 1) / 2).

    Parameters
    ----------
    flipped : numpy.ndarray of bool, shape (n,)
        Whether each person's report differs from their true answer.

    Returns
    -------
    lags : numpy.ndarray
        The distances.
    counts : numpy.ndarray
        Their counts of double flips.

    Examples
    --------
    >>> lags, counts = pair_counts(np.array([1, 0, 1, 0, 1], dtype=bool))
    >>> lags.tolist(), counts.tolist()
    ([2, 4], [2.0, 1.0])
    """
    n = flipped.size
    where = np.flatnonzero(flipped)
    if where.size <= ALL_LAGS_FLIPS and where.size**2 <= 25 * n:  # at most 25 pairs expected at any distance
        left, right = np.triu_indices(where.size, 1)
        lags, counts = np.unique(where[right] - where[left], return_counts=True)
        return lags, counts.astype(float)  # the distances left out have none (too few to be off)
    if n <= ALL_LAGS_PEOPLE:
        size = 1 << int(2 * n - 1).bit_length()
        spectrum = _rfft(flipped.astype(float), size)
        power = spectrum.real * spectrum.real + spectrum.imag * spectrum.imag
        return _arange(1, n), np.rint(_irfft(power, size)[1:n])
    lags = np.unique(np.r_[_arange(1, 33), [n // k for k in range(2, 11)], (n + 1) // 2])
    lags = lags[(lags >= 1) & (lags < n)]
    return lags, np.array([np.count_nonzero(flipped[:-d] & flipped[d:]) for d in lags], dtype=float)


def check_pairs_at_lags(flipped: np.ndarray, where: str) -> None:
    """Test one call's flips for coins shared or anti-shared between persons i and i + d (07.1's grid).

    With k flips among n people at random, the count of double flips at distance d has mean
    k (k - 1) (n - d) / (n (n - 1)) and a variance at most phi = 1 + 2f - 3f^2 (f = k / n) times it;
    a count c outside the ``PAIR_TAIL`` tails of Poisson(mean / phi) at c / phi fails (quasi-Poisson,
    conservative). Coins shared by half the people at one distance give about n f / 2 pairs there
    where n f^2 are expected (z over 14 at 2,000 people and f = 0.25; 15 pairs where 0.05 are expected
    at 30 flips). Limit (referee s38rB): too few pairs (antithetic coins, u and 1 - u) are seen only where
    (n - d) f^2 is about 30 or more, below epsilon about 4.9 at 1,000,000 people; above, the pairings of
    :mod:`_coin_pairs` pooled over cases and calls test them.

    Parameters
    ----------
    flipped : numpy.ndarray of bool, shape (n,)
        One call's flips.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        If the pairs at some distance are too many or too few.
    """
    n = flipped.size
    k = int(np.count_nonzero(flipped))
    if n < 3 or k < 2:
        return
    lags, counts = pair_counts(flipped)
    f = k / n
    phi = 1.0 + 2.0 * f - 3.0 * f * f
    mean = k * (k - 1.0) * (n - lags) / (n * (n - 1.0)) / phi
    scaled = counts / phi
    spread = 4.0 * np.sqrt(mean)
    suspect = np.flatnonzero((scaled > mean + spread + 1.0) | (scaled < mean - spread))  # the rest: p > 1e-5
    if not suspect.size:
        return
    high = _poisson_sf(np.ceil(scaled[suspect]) - 1, mean[suspect])
    low = _poisson_cdf(np.floor(scaled[suspect]), mean[suspect])
    worst = int(np.argmin(np.minimum(high, low)))
    if min(high[worst], low[worst]) < PAIR_TAIL:
        i = int(suspect[worst])
        d, c, expected = int(lags[i]), int(counts[i]), float(mean[i] * phi)
        raise CheckFailed(f"{where} {c:,} pairs of people d = {d:,} apart both flipped, where independent coins give "
                          f"about {expected:,.1f}: the coins of person i and person i + {d:,} are "
                          f"{'shared' if c > expected else 'tied to each other'}. Each person, at every epsilon and "
                          "for every number of people, must flip their own coin, independent of everyone else's.")


def check_calls_independent(first: np.ndarray, second: np.ndarray, where: str) -> None:
    """Test two calls on the same people for coins reused or tied from one call to the next (07.1's grid).

    Given k1 and k2 flips, the number of people flipped in both calls is hypergeometric (n, k1, k2)
    for independent calls; outside its ``CALLS_TAIL`` tails fails. Coins reused for half the people
    give about k / 2 common flips where k1 k2 / n are expected (z about 19 at 2,000 people, f = 0.25).

    Parameters
    ----------
    first, second : numpy.ndarray of bool, shape (n,)
        The flips of two calls with the same truth and epsilon.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        If the calls share too many or too few flips.
    """
    n, k1, k2 = first.size, int(first.sum()), int(second.sum())
    both = int(np.count_nonzero(first & second))
    if _hypergeom_sf(both - 1, n, k1, k2) < CALLS_TAIL or _hypergeom_cdf(both, n, k1, k2) < CALLS_TAIL:
        raise CheckFailed(f"{where} two calls on the same people both flipped {both:,} answers, where fresh coins "
                          f"give about {k1 * k2 / n:,.1f}: the coins of one call are "
                          f"{'reused' if both > k1 * k2 / n else 'tied to those of the other'} in the next. Draw new "
                          "coins from `rng` on every call, at every epsilon and for every number of people.")
