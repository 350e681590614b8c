"""Where lesson 08's releases meet every number of coordinates: a grid of dimensions and per-case noise tests.

An outside referee (s36rC) found that answers without noise, or with one noise draw shared by every
coordinate, or with noise of standard deviation ``sigma * C / sqrt(p)``, passed 08.2 and 08.5 for any number of
coordinates the fixed cases never used (9-15 and 17-19,999 in 08.2; all but 2-6, 64 and 20,000 in 08.5).
:func:`dimension_grid` gives every dimension from 1 to 8 and one draw in each of the strata of a log scale
from 9 to 20,000 (a factor 1.51 each), all at one seeded offset; :func:`check_case_noise` tests the few
calls of one case for noise at all, noise shared between coordinates and the amount of noise.
:func:`covariance_dimensions` gives the few dimensions (2 to 256) of the covariance sweeps, whose cases have more
calls than coordinates (referee s37rC). Each test
rejects a correct answer with probability at most 1e-6 per case (the no-noise test 2.6e-6 for one coordinate);
with 27 cases that is at most 1e-4 per check run.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from mic_dp_helpers.checks._core import CheckFailed

_np_abs = np.abs
_np_arange = np.arange
_np_exp = np.exp
_np_floor = np.floor
_chi2_cdf = stats.chi2.cdf
_chi2_sf = stats.chi2.sf
_f_cdf = stats.f.cdf
_log = math.log
_float = float

#: Every dimension below this is a case of its own; above it, one case per stratum of the log scale.
SMALL_DIMENSIONS = 9
#: The largest number of coordinates (weights) a case has: the course's largest model.
MAX_DIMENSION = 20_000
#: Strata of the log scale from 1 to MAX_DIMENSION + 1; those above SMALL_DIMENSIONS are used (about 19).
DIMENSION_STRATA = 24
#: A correct answer's test statistic is this unlikely (per test and case) before a case fails.
CASE_P_REJECT = 1e-6
#: No noise: every value of a case within this many noise standard deviations of the centre (a correct answer:
#: 0.04 per value, 2.6e-6 for the smallest case, 4 values).
NO_NOISE = 0.05


def dimension_grid(rng: np.random.Generator) -> list[int]:
    """Dimensions 1 to 8, then one in each stratum of ``log(d)`` (a factor 20,001^(1/24) = 1.51 wide) up to 20,000.

    The strata share one offset drawn from ``rng``, so neighbouring dimensions are exactly one stratum apart
    (a band of dimensions wider than a factor 1.51 always holds one) and the grid moves with the seed.

    Parameters
    ----------
    rng : numpy.random.Generator
        The check's own generator.

    Returns
    -------
    list of int
        About 27 dimensions, increasing.

    Examples
    --------
    >>> grid = dimension_grid(np.random.default_rng(0))
    >>> grid[:8], grid[8] >= 9, grid[-1] <= 20_000, len(grid) >= 26
    ([1, 2, 3, 4, 5, 6, 7, 8], True, True, True)
    """
    large = _log_strata(rng, DIMENSION_STRATA, 1.0, MAX_DIMENSION + 1.0)
    return list(range(1, SMALL_DIMENSIONS)) + [d for d in large if d >= SMALL_DIMENSIONS]


def _log_strata(rng: np.random.Generator, strata: int, low: float, high: float) -> list[int]:
    """``floor`` of one point in each of ``strata`` equal strata of ``log`` from ``low`` to ``high``, one offset."""
    steps = (_np_arange(strata) + _float(rng.random())) / strata
    return [int(d) for d in _np_floor(low * _np_exp(steps * _log(high / low)))]


def check_case_noise(units, where: str, amount_advice: str = "", explain=None) -> None:
    """Test one case's noise, ``units`` (calls x p) in units of ``noise_multiplier * clip_norm`` around the centre.

    Three tests, each at level :data:`CASE_P_REJECT`: noise at all (not every value within 0.05 of 0), noise
    independent between coordinates (the spread of each call's coordinates around their mean against the
    spread of the means, F with ``calls (p - 1)`` and ``calls`` degrees of freedom, lower tail: one draw shared
    by all coordinates gives 0, noise of any amount passes), and its amount (the sum of squares, chi-square with ``calls p`` degrees of freedom, both tails: noise of
    standard deviation ``sigma C / sqrt(p)``, or divided by the batch size, is too little).

    Parameters
    ----------
    units : numpy.ndarray, shape (calls, p)
        The case's releases minus their centre, divided by the noise's standard deviation.
    where : str
        The start of every hint (which input).
    amount_advice : str, default ""
        Appended to the hint of the amount test (what else, in this exercise, scales the noise).
    explain : callable, optional
        Called (no arguments) when the amount test fails, before :func:`check_centre` and the amount hint: it
        may raise a failure that names the cause better (noise copied between coordinates or calls).

    Raises
    ------
    CheckFailed
        With a hint naming the property that fails.
    """
    calls, p = units.shape
    if (_np_abs(units) < NO_NOISE).all():
        raise CheckFailed(f"{where} the release has no noise. Add Gaussian noise of standard deviation "
                          "noise_multiplier * clip_norm to every coordinate, whatever the number of coordinates.")
    if p > 1:
        # Scale-free (noise only too small is the amount test's): the spread of each call's coordinates around
        # their mean against the spread of those means, F(calls (p - 1), calls) for independent noise of any sd.
        means = units.mean(axis=1)
        spread = _float(((units - means[:, None]) ** 2).sum()) / (calls * (p - 1))
        between = _float((means**2).sum()) * p / calls
        if spread <= 0 or (between > 0 and _f_cdf(spread / between, calls * (p - 1), calls) < CASE_P_REJECT):
            raise CheckFailed(f"{where} the coordinates' noise values are (almost) equal within a call: draw "
                              "independent noise for every coordinate, not one number shared between them.")
    total = _float((units**2).sum())
    if _chi2_cdf(total, calls * p) < CASE_P_REJECT or _chi2_sf(total, calls * p) < CASE_P_REJECT:
        if explain is not None:
            explain()
        check_centre([units], where)
        amount = "too little" if total < calls * p else "too much"
        raise CheckFailed(f"{where} there is {amount} noise ({(total / (calls * p)) ** 0.5:.3g} times the standard "
                          "deviation it should have). Every coordinate gets noise of standard deviation "
                          "noise_multiplier * clip_norm, whatever the number of coordinates: not divided by "
                          f"sqrt(p), by the batch size or by anything else.{amount_advice}")


def check_centre(cases, where: str) -> None:
    """Called when an amount test failed: fail with a centre hint instead when the releases' spread around each
    case's own mean is right but those means are off the expected centre.

    The case means over the calls, times the calls, summed over coordinates and cases (chi-square with as many
    degrees of freedom as coordinates in all), beyond their 1e-6 upper quantile, while the spread around them
    (chi-square with (calls - 1) p per case) is within both 1e-6 tails. A clipping norm read from the data does
    this (referee s38rC D8: it read as "too much noise").

    Parameters
    ----------
    cases : list of numpy.ndarray
        Each case's noise (calls x p) in units of its standard deviation, around the expected centre.
    where : str
        The start of the hint.

    Raises
    ------
    CheckFailed
        With the centre hint, if the means alone are off.
    """
    between = within = 0.0
    dof_between = dof_within = values = 0
    for units in cases:
        calls, p = units.shape
        if calls < 2:
            continue
        means = units.mean(axis=0)
        between += calls * _float((means**2).sum())
        within += _float(((units - means) ** 2).sum())
        dof_between, dof_within, values = dof_between + p, dof_within + (calls - 1) * p, values + calls * p
    if not dof_within or _chi2_sf(between, dof_between) >= CASE_P_REJECT:
        return
    if _chi2_cdf(within, dof_within) >= CASE_P_REJECT and _chi2_sf(within, dof_within) >= CASE_P_REJECT:
        raise CheckFailed(f"{where} the releases are centred {(between / values) ** 0.5:.3g} noise standard "
                          "deviations (root mean square) away from the sum of the clipped gradients, while their "
                          "spread around their own mean is right: the noise is fine, the sum is not. Clip every "
                          "example's gradient to clip_norm itself (not to a norm read from the data, such as the "
                          "median or smallest gradient norm) and add them all; the noise has mean 0.")


#: The covariance sweep (08.2, 08.5): strata of a log scale of the coordinates from 2 to 256 (a factor 2 each).
COVARIANCE_STRATA, COVARIANCE_MAX = 7, 256


def covariance_dimensions(rng: np.random.Generator) -> list[int]:
    """One number of coordinates in each factor-2 stratum from 2 to 256, all at one seeded offset.

    Parameters
    ----------
    rng : numpy.random.Generator
        The check's own generator.

    Returns
    -------
    list of int
        7 increasing dimensions.

    Examples
    --------
    >>> dims = covariance_dimensions(np.random.default_rng(0))
    >>> len(dims), 2 <= dims[0] < 4, 128 <= dims[-1] < 256
    (7, True, True)
    """
    return _log_strata(rng, COVARIANCE_STRATA, 2.0, COVARIANCE_MAX)
