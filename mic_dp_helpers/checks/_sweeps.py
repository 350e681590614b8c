"""Sweeps over the sizes and parameters where wrong answers hide, and tests pooled over a check's cases.

A check calls the student's release at the corners of a box of sizes and parameters
(:func:`corner_sweep`, :data:`SIZES`, :data:`EPSILONS`, :data:`DELTAS`), then tests what every case
released together: independence between calls (:func:`check_independent_calls`), tails
(:func:`check_pooled_tails`) and correlation between coordinates or groups
(:func:`check_coordinate_correlation`). Corners miss an answer exact only in a band of a parameter (epsilon
from 1.5 to 3): :func:`band_sweep` draws many cases across the whole box, one call each, tested by
:func:`check_noise_in_every_band`. Pooling adds the cases' power; each test's false-rejection
rate and its power against named alternatives are in :data:`mic_dp_helpers.checks._stats.LESSON02_06_POWER`.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
from scipy.stats import binom as _binom
from scipy.stats import chi2 as _chi2
from scipy.stats import norm as _norm

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._stats import (laplace_tail_threshold, gaussian_tail_threshold, TAIL_FAILURE,
                                          check_laplace_noise)

_asarray = np.asarray
_abs = np.abs
_max = np.max
_larger = builtins.max
_smaller = builtins.min
_exp = math.exp
_log = math.log
_sqrt = math.sqrt
_float = float


#: Where a DP-release check looks (issue 26): input sizes, epsilons and deltas from the smallest to the
#: largest a student's answer may meet. A check draws its cases with :func:`corner_sweep` over these
#: ranges (or a sub-range it documents), so that an answer exact or wrong only in some corner fails.
SIZES = (1, 120_000)
EPSILONS = (1e-2, 20.0)
DELTAS = (1e-12, 1e-2)

#: A pooled statistic of a correct release exceeds its threshold with probability about 2 Phi(-5.5) = 4e-8.
POOLED_Z = 5.5
_normal_sf = _norm.sf


def log_uniform(rng, low: float, high: float) -> float:
    """One draw, uniform on a log scale between ``low`` and ``high`` (> 0).

    Parameters
    ----------
    rng : numpy.random.Generator
        The source of randomness.
    low, high : float
        The range's ends (0 < low <= high).

    Returns
    -------
    float
        The draw.

    Examples
    --------
    >>> 1e-2 <= log_uniform(np.random.default_rng(0), 1e-2, 20.0) <= 20.0
    True
    """
    return _float(_exp(rng.uniform(_log(low), _log(high))))


def corner_sweep(rng, ranges: dict, interior: int = 1) -> list[dict]:
    """Cases at every corner of a box of parameter ranges, plus ``interior`` cases inside it.

    Each parameter's range ``(low, high)`` is split on a log scale; a corner takes each parameter from
    the bottom or the top tenth of its range (drawn afresh, with many digits), so every combination of
    extremes is met: an answer exact only for large n *and* large epsilon fails one corner. Integer
    ranges (both ends ints) give ints. Returns ``2 ** len(ranges) + interior`` dicts, in a shuffled
    order drawn from ``rng``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The check's own generator (seeded by the check's ``seed``).
    ranges : dict
        Parameter name -> ``(low, high)``, both > 0.
    interior : int, default 1
        Cases drawn log-uniformly from the whole box.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> cases = corner_sweep(np.random.default_rng(0), {"n": (1, 100_000), "epsilon": (1e-2, 20.0)})
    >>> len(cases), min(c["n"] for c in cases) < 4, max(c["epsilon"] for c in cases) > 9
    (5, True, True)
    """
    names = list(ranges)
    cases = []
    for corner in range(2 ** len(names) + interior):
        case = {}
        for bit, name in enumerate(names):
            low, high = ranges[name]
            span = _log(high) - _log(low)
            if corner >= 2 ** len(names):
                lo_log, hi_log = _log(low), _log(high)
            elif (corner >> bit) & 1:
                lo_log, hi_log = _log(high) - span / 10, _log(high)
            else:
                lo_log, hi_log = _log(low), _log(low) + span / 10
            value = _exp(rng.uniform(lo_log, hi_log))
            if isinstance(low, int) and isinstance(high, int):
                value = int(_smaller(high, _larger(low, round(value))))
            case[name] = value
        cases.append(case)
    return [cases[i] for i in rng.permutation(len(cases))]


#: Cases of a band sweep. Each parameter's log range is cut into BAND_CASES equal strata with one case in each
#: (:func:`band_sweep`), so no two neighbouring values of a parameter are more than one stratum apart: an answer
#: exact or short of noise where a parameter lies in a band of one stratum or more (1/300 of its log range) meets
#: a case.
BAND_CASES = 300
#: A release within NEAR_EXACT scales of the exact answer has probability about 1e-3 under Laplace noise;
#: NEAR_EXACT_LIMIT of 300 or more such releases happen with probability 3e-6.
NEAR_EXACT, NEAR_EXACT_LIMIT = 1e-3, 5


def strata(rng, count: int) -> np.ndarray:
    """Fractions of a range, one in each of ``count`` equal strata, at one offset (drawn) shared by the strata,
    in an order drawn from ``rng``: consecutive fractions are exactly ``1 / count`` apart.

    Parameters
    ----------
    rng : numpy.random.Generator
        The check's own generator.
    count : int
        How many strata.

    Returns
    -------
    numpy.ndarray
        ``count`` fractions in [0, 1).

    Examples
    --------
    >>> f = np.sort(strata(np.random.default_rng(0), 4))
    >>> bool(np.allclose(np.diff(f), 0.25))
    True
    """
    return (rng.permutation(count) + rng.random()) / count


def _on_log_range(fractions, low, high):
    values = np.exp(_log(low) + _asarray(fractions) * (_log(high) - _log(low)))
    if isinstance(low, int) and isinstance(high, int):
        return [int(_smaller(high, _larger(low, round(_float(v))))) for v in values]
    return [_float(v) for v in values]


def band_sweep(rng, ranges: dict, count: int = BAND_CASES) -> list[dict]:
    """``count`` cases across a box of log ranges, a Latin hypercube: each parameter takes one value in each of
    ``count`` equal log strata of its range (:func:`strata`), the parameters paired in random orders.

    Parameters
    ----------
    rng : numpy.random.Generator
        The check's own generator.
    ranges : dict
        ``name -> (low, high)``, both > 0; two ints give ints.
    count : int, default BAND_CASES
        How many cases.

    Returns
    -------
    list of dict
        One ``{name: value}`` per case.

    Examples
    --------
    >>> cases = band_sweep(np.random.default_rng(0), {"epsilon": (1e-3, 1e3)}, count=60)
    >>> gaps = np.diff(np.log10(sorted(c["epsilon"] for c in cases)))
    >>> bool(np.allclose(gaps, 0.1))
    True
    """
    columns = {name: _on_log_range(strata(rng, count), low, high) for name, (low, high) in ranges.items()}
    return [{name: column[i] for name, column in columns.items()} for i in range(count)]


def scale_sweep(rng, scales, epsilons, numerators, ranges: dict, count: int) -> list[dict]:
    """``count`` cases stratified on the noise scale ``numerator / epsilon`` (a band sweep draws the numerator and
    epsilon, so few of its scales lie near the ends of their range): ``scale`` takes one value in each log stratum
    of ``scales``; ``epsilon`` a stratified position in the part of ``epsilons`` that keeps ``numerator = scale *
    epsilon`` inside ``numerators``; the other ``ranges`` as in :func:`band_sweep`.

    Parameters
    ----------
    rng : numpy.random.Generator
        The check's own generator.
    scales, epsilons, numerators : tuple of float
        ``(low, high)`` of the scale, epsilon and the numerator (sensitivity, or the larger bound);
        ``scales`` within ``numerators[0] / epsilons[1]`` to ``numerators[1] / epsilons[0]``.
    ranges : dict
        More parameters, ``name -> (low, high)``.
    count : int
        How many cases.

    Returns
    -------
    list of dict
        ``{"scale", "epsilon", "numerator", **ranges}`` per case.
    """
    cases = band_sweep(rng, {"scale": scales, **ranges}, count)
    for case, fraction in zip(cases, strata(rng, count)):
        scale = case["scale"]
        low, high = _larger(epsilons[0], numerators[0] / scale), _smaller(epsilons[1], numerators[1] / scale)
        epsilon = _on_log_range([fraction], low, _larger(low, high))[0]
        case["epsilon"] = epsilon
        case["numerator"] = _smaller(numerators[1], _larger(numerators[0], scale * epsilon))
    return cases


def check_no_exact_release(releases, centres, tolerances, describe) -> None:
    """Test that no band-sweep release is the exact answer (within its float error).

    Parameters
    ----------
    releases, centres, tolerances : array_like
        Per case: the release, the exact answer, and the float error within which a release counts as exact.
    describe : callable
        ``describe(i)``: the parameters of case ``i``, for the hint.

    Raises
    ------
    CheckFailed
        If a release is the exact answer.
    """
    error = _abs(_asarray(releases, dtype=float) - _asarray(centres, dtype=float))
    exact = np.flatnonzero(error <= _asarray(tolerances, dtype=float))
    if exact.size:
        raise CheckFailed(f"{describe(int(exact[0]))} the release is the exact answer (property: noise for every "
                          f"size and parameter; {len(error)} cases drawn across the whole range). "
                          "Add the noise whatever the size, the sensitivity or epsilon.")


def check_noise_in_every_band(releases, centres, scales, tolerances, describe) -> None:
    """Test one release per band-sweep case: never the exact answer, rarely near it, Laplace over all.

    Parameters
    ----------
    releases, centres, scales, tolerances : array_like
        Per case: the release, the exact answer, the Laplace scale, and the float error within which a
        release counts as the exact answer (a correct release lands there with probability below 1e-7).
    describe : callable
        ``describe(i)``: the parameters of case ``i``, for the hint ("For value=3, epsilon=2:").

    Raises
    ------
    CheckFailed
        If a release is the exact answer, too many are near it, or the pooled noise is not Laplace.
    """
    check_no_exact_release(releases, centres, tolerances, describe)
    releases, centres = _asarray(releases, dtype=float), _asarray(centres, dtype=float)
    z = (releases - centres) / _asarray(scales, dtype=float)
    near = np.flatnonzero(_abs(z) < NEAR_EXACT)
    if near.size >= NEAR_EXACT_LIMIT:
        raise CheckFailed(f"{describe(int(near[0]))} {near.size} of {len(z)} releases (one per case, drawn across "
                          f"the whole range) are within {NEAR_EXACT:g} scales of the exact answer, where Laplace noise "
                          "puts about one in 1,000 (property: noise for every size and parameter).")
    check_laplace_noise(z, f"Over {len(z)} releases, one per case drawn across the whole range,")


def pooled_lag_statistic(sequences, lag: int) -> float:
    """A N(0, 1) statistic (under independence) for the lag-``lag`` dependence of noise sequences.

    ``sequences``: one array of standardised noise per case, in call order, each centred on 0 under
    the null (noise divided by its scale). The statistic is ``sum z_t z_{t+lag} / sqrt(sum z_t^2
    z_{t+lag}^2)`` over every case: self-normalised, so valid for Laplace, Gaussian or PyDP noise of
    any scale, and pooling the cases adds their power.

    Parameters
    ----------
    sequences : sequence of array_like
        One standardised noise sequence per case, in call order.
    lag : int
        The lag (>= 1).

    Returns
    -------
    float
        The statistic, N(0, 1) under independence.
    """
    numerator, denominator = 0.0, 0.0
    for z in sequences:
        z = _asarray(z, dtype=float).ravel()
        if len(z) <= lag:
            continue
        products = z[:-lag] * z[lag:]
        numerator += _float(products.sum())
        denominator += _float((products * products).sum())
    return numerator / _sqrt(denominator) if denominator > 0 else 0.0


def check_independent_calls(sequences, where: str, lags=(1, 2, 3), unit: str = "value") -> None:
    """Test that the noise of one call does not predict the noise of another (pooled over cases).

    Tests lags ``lags`` and half the sequence length (noise shared between call ``i`` and
    ``i + n/2``, or between person ``i`` and person ``i + n/2`` when a sequence runs over people),
    each at :data:`POOLED_Z` standard errors: a correct release fails with probability about
    ``4e-8 * (len(lags) + 1)`` (about 8e-7 for 04.1's lags 1 to 20). Calls that mirror the call ``d``
    before (pairs averaging to the exact value) are seen only at a tested lag ``d``. Power: see
    :data:`LESSON02_06_POWER` ("correlation 0.1 between calls").
    Antithetic pairs (odd and even calls averaging to the exact value) have correlation -1 within
    pairs and about -0.5 at lag 1.

    Parameters
    ----------
    sequences : sequence of array_like
        One standardised noise sequence per case, in call order.
    where : str
        What the noise came from, for the hint.
    lags : tuple of int, optional
        The lags tested besides half the shortest sequence.
    unit : str, default "value"
        What one position of a sequence is, for the hint: ``"call"`` when each call gives one value, else
        ``"value"`` (a call giving many values: the lag counts noise values, not calls).

    Raises
    ------
    CheckFailed
        If a lag's statistic is beyond :data:`POOLED_Z`.
    """
    sequences = [_asarray(z, dtype=float).ravel() for z in sequences]
    shortest = _smaller(len(z) for z in sequences) if sequences else 0
    for lag in (*lags, shortest // 2):
        if lag < 1:
            continue
        statistic = pooled_lag_statistic(sequences, lag)
        if _abs(statistic) > POOLED_Z:
            later = f"the release {lag} call(s) later" if unit == "call" else f"the noise value {lag} positions later"
            raise CheckFailed(f"{where} one noise value predicts {later} (property: independence; correlation "
                              f"{statistic:+.1f} standard errors from 0). Draw fresh, independent noise for every call; never reuse, negate or "
                              "combine earlier draws.")


def check_pooled_tails(z_sequences, law: str, where: str) -> None:
    """Test that the largest ``|z|`` over every case's standardised noise reaches the law's tails.

    Pooling the cases of a check raises the threshold to what all their draws reach together; the
    power against noise truncated or clipped at ``c`` scales is 1 when the threshold exceeds ``c``
    (see :data:`LESSON02_06_POWER`) and a correct release fails with probability :data:`TAIL_FAILURE`.

    Parameters
    ----------
    z_sequences : sequence of array_like
        Standardised noise of every case.
    law : {"laplace", "gaussian"}
        The noise's law.
    where : str
        What the noise came from, for the hint.

    Raises
    ------
    CheckFailed
        If no draw reaches the law's pooled tail threshold.
    """
    pooled = [_asarray(z, dtype=float).ravel() for z in z_sequences]
    n = _float(sum(len(z) for z in pooled))
    if n < 2:
        return
    largest = _larger(_float(_max(_abs(z))) for z in pooled if len(z))
    threshold = laplace_tail_threshold(n) if law == "laplace" else gaussian_tail_threshold(n)
    if largest < threshold:
        raise CheckFailed(f"{where} over all {int(n)} releases the noise never goes beyond {largest:.2f} scales, "
                          f"where that many draws reach {threshold:.2f} (property: tails, pooled over every case). "
                          "Noise that is clipped, truncated or built from bounded parts is not the mechanism: "
                          "its rare large values are what make it private.")


#: Windows (in Laplace scales) of :func:`check_pooled_near_answer`, and the binomial tail below which a window's
#: count fails (two windows: a correct answer fails with probability below 2e-6).
POOLED_NEAR_WINDOWS, POOLED_NEAR_ALPHA = (1e-2, 5e-2), 1e-6


def check_pooled_near_answer(z_sequences, where: str) -> None:
    """Test that, over every case together, no more Laplace noise lands near 0 than Laplace puts there.

    A narrow component in a small share of calls (0.5% of releases uniform within 1/20 of a scale, 0.3% of
    Laplace at 1/100 of the scale) adds too few releases to one case's near-answer windows (1e-3 and 1e-2
    scales, tested per case) but, pooled over 200,000 to 320,000 releases, puts 8 to 13 standard deviations
    more in the windows of 1e-2 or 5e-2 scales (``P(|z| <= h) = 1 - exp(-h)``). Power: ``LESSON02_06_POWER``.

    Parameters
    ----------
    z_sequences : list of array_like
        Standardised Laplace noise of every case.
    where : str
        Start of the hint.

    Raises
    ------
    CheckFailed
        If a window holds more releases than a Binomial gives with probability :data:`POOLED_NEAR_ALPHA`.
    """
    z = _abs(np.concatenate([_asarray(s, dtype=float).ravel() for s in z_sequences]))
    for h in POOLED_NEAR_WINDOWS:
        p, hits = 1.0 - _exp(-h), int((z <= h).sum())
        if hits and _float(_binom.sf(hits - 1, z.size, p)) < POOLED_NEAR_ALPHA:
            raise CheckFailed(f"{where} {hits} of {z.size} releases lie within {h:g} Laplace scales of the exact "
                              f"answer, where the noise puts about {z.size * p:.0f} (property: Laplace noise in "
                              "every call). Some calls add a narrower noise (a small jitter, or a smaller scale); "
                              "every call must add Laplace noise of the full scale.")


def check_coordinate_correlation(z, where: str) -> None:
    """Test that the coordinates of one release's noise are uncorrelated (``z``: calls x groups x dims).

    The variance of the sum of the ``D`` coordinates of one group is ``D (1 + (D - 1) rho)`` for a
    common correlation ``rho``; its estimate over ``m`` (call, group) pairs has relative standard error
    about ``sqrt(2 / m)`` for Gaussian noise (the ratio is taken to the pooled variance, so the
    scale does not matter). The same on the groups of one coordinate (correlation
    between the means of different groups, i.e. people). Each is tested at :data:`POOLED_Z` standard
    errors, with the chi-square quantiles of ``m`` degrees of freedom (the normal approximation is too
    strict for a few dozen pairs).

    Parameters
    ----------
    z : array_like
        Standardised noise, shaped (calls, groups, dims).
    where : str
        What the noise came from, for the hint.

    Raises
    ------
    CheckFailed
        If either correlation is beyond the test's threshold.
    """
    z = _asarray(z, dtype=float)
    calls, groups, dims = z.shape
    for axis, size, what in ((2, dims, "coordinates of one group mean"), (1, groups, "group means")):
        if size < 2:
            continue
        sums = z.sum(axis=axis)
        m = sums.size
        total = _float((z * z).mean())
        if not total > 0:
            return
        ratio = _float((sums * sums).mean()) / size / total  # 1 for independent noise, whatever its scale
        # m * ratio is about chi-square with m degrees of freedom: its quantiles at POOLED_Z's tail, not the
        # normal approximation, which few (call, group) pairs (a single group, a few calls) make too strict
        tail, widen = _normal_sf(POOLED_Z), _sqrt(1 + 1.0 / size)
        low, high = 1 - (1 - _chi2.ppf(tail, m) / m) * widen, 1 + (_chi2.isf(tail, m) / m - 1) * widen
        if not low <= ratio <= high:
            raise CheckFailed(f"{where} the noise on different {what} is correlated (property: independence; the "
                              f"variance of their sum is {ratio:.3f} times what independent noise gives). Draw a "
                              "separate, independent noise value for every coordinate of every group mean.")
