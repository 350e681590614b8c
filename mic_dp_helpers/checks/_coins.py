"""Independence tests for the coins of a local randomizer (exercise 07.1), one row of reports per call.

The reports of ``calls`` calls on the same ``n`` people form a calls x n array. Independent coins
show no correlation between any two people (at any distance in the list), no two calls with
the same flips and no two people with the same flips in every call. Each test's false-rejection
probability and power are stated with it (and in ``checks/_stats.py``, lesson 07's rows).
"""

from __future__ import annotations

import numpy as np

from mic_dp_helpers.checks._core import CheckFailed

# References bound at import: patching numpy later changes nothing here.
_arange, _packbits, _rfft, _irfft, _sqrt_array = np.arange, np.packbits, np.fft.rfft, np.fft.irfft, np.sqrt

__all__ = ["lag_z_scores", "independence_of_coins"]


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
