"""Call-sequence tests on cases of a few releases each (the band sweeps of 02.1 and 02.4, 02.4's mid-sizes).

Referee s40rA D2/D3: the band sweep tested only the first release of each case for exactness, and the scale and
shape of its noise; the mid-sizes tested exactness and lag 1 only. So an answer exact in every 10th call, mirroring
or reusing a draw at any lag, or rounding its noise to a grid, passed wherever only those cases looked (sensitivity
below 1e-3 or epsilon below 1e-3 in 02.1, epsilon below 0.01 or 120,000 to 1,000,000 values in 02.4). Here every
release of every case is tested, pooled over the cases: no more exact releases than float rounding gives
(:func:`check_no_exact_calls`), no more near the answer than Laplace puts
there (:func:`_sweeps.check_pooled_near_answer`), no more mirrored or bit-equal pairs within a case than fresh
noise gives, no correlation at lags 1 to 19 (:func:`_sweeps.check_independent_calls`), and no grid anchored at the
answer in scale units, pooled over runs of 8 neighbouring cases by each parameter
(:func:`_grid_anchor.check_not_anchored`). Power: ``LESSON02_06_POWER`` ("band calls").
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks import _sweeps
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._grid_anchor import MIN_RELEASES, check_not_anchored

_asarray, _abs, _spacing = np.asarray, np.abs, np.spacing
_float, _len = float, len

#: Within-case lags of the pooled independence test (the cases hold 20 or 64 releases).
BAND_LAGS = tuple(range(1, 20))
#: Tiers of |answer| / scale the grid test pools within: the float error of the noise, in scales, grows with
#: |answer| / scale (about 1e-15 of it), and the finest step a pool sees is 200 times its largest error.
GRID_TIERS = (1e3, np.inf)


def _pairs(sorted_values, targets, tolerance) -> int:
    """Pairs (i, j), i != j counted once, with ``|sorted_values[j] - targets[i]| <= tolerance``."""
    hits = np.searchsorted(sorted_values, targets + tolerance, side="right") - np.searchsorted(
        sorted_values, targets - tolerance, side="left")
    return int(hits.sum())


def pair_counts(releases, centre: float, scale: float, tolerance: float) -> tuple[float, float, float]:
    """(mirrored pairs, bit-equal pairs, the number of either fresh Laplace noise gives) of one case's releases.

    A mirrored pair averages to ``centre`` within ``tolerance`` (its float error); fresh noise gives about
    ``n^2 / 2 * 2 t * integral(f^2)`` of them, ``f`` the Laplace density (``1 / (4 scale)``), and about as many
    equal pairs within the releases' spacing.

    Parameters
    ----------
    releases : ndarray
        The releases of one case.
    centre, scale, tolerance : float
        The exact answer, the Laplace scale and the float error of a release.

    Returns
    -------
    tuple of float
        ``(mirrored, equal, expected)``.
    """
    values = np.sort(_asarray(releases, dtype=float))
    n = values.size
    tolerance = tolerance + 8 * _float(_spacing(_abs(values)).max())
    selves = int((_abs(values - centre) <= tolerance / 2).sum())
    mirrored = (_pairs(values, 2.0 * centre - values, tolerance) - selves) / 2
    counts = np.unique(values, return_counts=True)[1]
    equal = _float((counts * (counts - 1) / 2).sum())
    return mirrored, equal, n * n / 2 * 2 * tolerance / (4.0 * scale)


def check_no_pooled_pairs(releases, centres, scales, tolerances, where: str) -> None:
    """Fail when the cases hold more mirrored or bit-equal pairs than fresh noise gives (3 times plus 10).

    Parameters
    ----------
    releases : sequence of ndarray
        The releases of each case (same arguments within a case).
    centres, scales, tolerances : array_like
        Per case: the exact answer, the Laplace scale and the float error of a release.
    where : str
        Start of the hint.

    Raises
    ------
    CheckFailed
        If a draw is reused or negated within the cases.
    """
    totals = np.array([pair_counts(r, c, s, t) for r, c, s, t in zip(releases, centres, scales, tolerances)])
    mirrored, equal, expected = (_float(column) for column in totals.sum(axis=0))
    if mirrored > 3 * expected + 10:
        raise CheckFailed(f"{where} {int(mirrored)} pairs of releases of one case average to the exact answer (their "
                          f"noises cancel, where fresh noise gives about {expected:.2g}; property: independence). "
                          "Draw fresh noise from `rng` in every call; never reuse an earlier draw negated.")
    if equal > 3 * expected + 10:
        raise CheckFailed(f"{where} {int(equal)} pairs of releases of one case are equal (where fresh noise gives "
                          f"about {expected:.2g}; property: independence). Draw new noise from `rng` in every call; "
                          "never reuse an earlier draw.")


def _grid_pools(keys, ratios, window: int):
    """Index arrays of the pools the grid test tries: in each tier of :data:`GRID_TIERS`, runs of ``window``
    consecutive cases ordered by each key (and by |answer| / scale), starting at 0 and at half a window."""
    for tier in GRID_TIERS:
        inside = np.flatnonzero(ratios < tier)
        for key in (*keys.values(), ratios):
            order = inside[np.argsort(_asarray(key, dtype=float)[inside], kind="stable")]
            for start in range(0, max(1, _len(order) - window + 1), window):
                yield order[start:start + window]
            for start in range(window // 2, _len(order) - window + 1, window):
                yield order[start:start + window]


def check_no_pooled_grid(z, keys: dict, ratios, errors, where: str, window: int = 8) -> None:
    """Fail when the standardised noise of ``window`` neighbouring cases lies on one grid anchored at 0.

    Noise rounded to ``g`` scales before it is added puts every ``(release - answer) / scale`` on multiples of
    ``g``; Laplace noise never does (:func:`_grid_anchor.check_not_anchored`, below 1e-80 per pool). The pools
    are runs of neighbouring cases by each key, within each tier of |answer| / scale (the noise's float error,
    in scales, grows with it; the finest step a pool sees is 200 times its largest error).

    Parameters
    ----------
    z : sequence of ndarray
        Standardised noise of each case.
    keys : dict
        {name: array of one value per case}: the orderings of the cases.
    ratios : array_like
        |answer| / scale of each case.
    errors : array_like
        The float error of each case's standardised noise.
    where : str
        Start of the hint.
    window : int, default 8
        Cases per pool.

    Raises
    ------
    CheckFailed
        If the noise of one pool is anchored on a grid.
    """
    ratios, errors = _asarray(ratios, dtype=float), _asarray(errors, dtype=float)
    seen = set()
    for pool in _grid_pools(keys, ratios, window):
        if pool.size == 0 or pool.tobytes() in seen or sum(_len(z[i]) for i in pool) < MIN_RELEASES:
            continue
        seen.add(pool.tobytes())
        pooled = np.concatenate([z[i] for i in pool])
        pooled_errors = np.concatenate([np.full(_len(z[i]), errors[i]) for i in pool])
        check_not_anchored(pooled, np.zeros_like(pooled), f"{where} (noise in scales, over {pool.size} neighbouring "
                           "cases)", errors=pooled_errors, zero_grid_allowed=False)


#: Pooled exact releases fail when a Poisson of their expected count gives as many with probability below this.
EXACT_ALPHA = 1e-5


def check_no_exact_calls(releases, centres, scales, tolerances, describe) -> None:
    """Fail when more releases lie within their float error of the answer than Laplace noise puts there.

    Far from 0 a correct release rounds to the answer itself with probability about ``tolerance / scale`` (2e-7
    at 1e9 scales), so 02.1's 8,000 band releases expect about 3e-4 exact ones and 02.4's about 6e-6 (seeds 2024,
    0, 1): two exact releases fail 02.1 (Poisson tail 5e-8), one fails 02.4 (6e-6), against :data:`EXACT_ALPHA`.

    Parameters
    ----------
    releases : sequence of ndarray
        The releases of each case.
    centres, scales, tolerances : ndarray
        Per case: the exact answer, the Laplace scale and the float error within which a release is exact.
    describe : callable
        ``describe(i)``: the parameters of case ``i``, for the hint.

    Raises
    ------
    CheckFailed
        If too many releases are exact.
    """
    hits = [int((_abs(r - c) <= t).sum()) for r, c, t in zip(releases, centres, tolerances)]
    expected = _float(sum(_len(r) * min(1.0, 2 * t / s) for r, t, s in zip(releases, tolerances, scales)))
    if sum(hits) and _float(scipy.stats.poisson.sf(sum(hits) - 1, expected)) < EXACT_ALPHA:
        first = next(case for case, count in enumerate(hits) if count)
        raise CheckFailed(f"{describe(first)} a release is the exact answer ({sum(hits)} exact releases over the "
                          f"cases, where the noise gives about {expected:.1g}; property: noise in every call, for "
                          "every size and parameter). Add the noise in every call.")


def check_call_sequences(releases, centres, scales, tolerances, describe, where: str, keys: dict,
                         window: int = 8) -> None:
    """Every call-sequence test of this module on the cases' releases (see the module's docstring).

    Parameters
    ----------
    releases : sequence of ndarray
        The releases of each case, in call order (one generator a case).
    centres, scales, tolerances : array_like
        Per case: the exact answer, the Laplace scale and the float error within which a release is exact.
    describe : callable
        ``describe(i)``: the parameters of case ``i``, for the hint.
    where : str
        Start of the pooled tests' hints.
    keys : dict
        {name: one value per case}: the orderings whose runs of ``window`` cases the grid test pools.
    window : int, default 8
        Cases per pool of the grid test.

    Raises
    ------
    CheckFailed
        With a hint naming the property.
    """
    centres, scales, tolerances = (_asarray(a, dtype=float) for a in (centres, scales, tolerances))
    releases = [_asarray(r, dtype=float) for r in releases]
    check_no_exact_calls(releases, centres, scales, tolerances, describe)
    z = [(r - centre) / scale for r, centre, scale in zip(releases, centres, scales)]
    _sweeps.check_pooled_near_answer(z, where)
    check_no_pooled_pairs(releases, centres, scales, tolerances, where)
    _sweeps.check_independent_calls(z, where, lags=BAND_LAGS, unit="call")
    errors = [(2 * tolerance + 4 * _float(_spacing(_abs(r)).max())) / scale
              for r, tolerance, scale in zip(releases, tolerances, scales)]
    check_no_pooled_grid(z, keys, _abs(centres) / scales, errors, where, window)


#: A case whose median standardised noise lies beyond this many scales fails :func:`check_clipped_centre`: 10 of 20
#: Laplace draws beyond 20 scales on one side has probability below 1e-90.
CENTRE_REACH = 20.0


def check_clipped_centre(z, where: str) -> None:
    """Fail when a case's releases centre far from the sum of the clipped values (02.4's cases with outliers).

    Parameters
    ----------
    z : ndarray
        The case's standardised noise (release minus the clipped sum, over the scale).
    where : str
        Start of the hint, naming the case.

    Raises
    ------
    CheckFailed
        If the median lies beyond :data:`CENTRE_REACH` scales.
    """
    centre = _float(np.median(z))
    if _abs(centre) > CENTRE_REACH:
        raise CheckFailed(f"{where} the releases are {centre:+.3g} scales from the sum of the clipped values "
                          "(property: centre, at every size). Clip every value to [lower, upper] before summing, "
                          "whatever the number of values: a value outside the bounds can be anywhere in the array, "
                          "so looking at a sample of them does not tell whether clipping is needed.")
