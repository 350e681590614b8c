"""Check 02.4 at the sizes between its corner cases (up to 120,000 values) and 1,000,000 values.

Referee s36rA: no size between 120,000 and 800,000 was called, so an answer exact there, or with a noise scale
read from the data there, passed. Referee s38rA: Gaussian noise of the right mean |noise| above 120,000 values
passed (13 releases a case, one pooled KS test); now 64 releases a case and the shape of every window of 4 and 8
cases, and of 2 to 17 cases from either end (with the 1,000,000-value case), is tested
(:func:`_shape_scan.check_band_shape`). Kept apart from :mod:`mic_dp_helpers.checks.lesson02` (600 lines at most a
module). Power: ``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks import _stats
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._band_calls import check_call_sequences, check_clipped_centre
from mic_dp_helpers.checks._lesson02_inputs import _log_uniform, with_outliers
from mic_dp_helpers.checks._scale_scan import check_band_scale
from mic_dp_helpers.checks._shape_scan import check_band_shape

_default_rng = np.random.default_rng
_fsum = math.fsum
_abs = abs
_max = max
_float = float
_len = len

#: One case in each of MIDSIZE_STRATA equal log strata of MIDSIZES (a factor 1.142 each), at one offset shared by
#: the strata, so consecutive sizes are exactly a factor 1.142 apart (referee s37rA: with an offset per stratum, two
#: draws 1.40 apart left 155,000 to 215,000 values untried), MIDSIZE_DRAWS releases each.
MIDSIZES, MIDSIZE_STRATA, MIDSIZE_DRAWS = (120_000, 1_000_000), 16, 64
#: The mid-size cases' epsilons, one in each of MIDSIZE_STRATA log strata, paired with the size strata at random.
MIDSIZE_EPSILONS = (1e-3, 20.0)
#: A case whose mean |noise| / scale (Gamma(64, 1/64) for Laplace) is below this fails: probability 1e-6 a case
#: (1.6e-5 over the 16); a scale read from the data (values inside a tenth of the bounds) gives 0.1 or less.
MIDSIZE_SPREAD_FLOOR = float(scipy.stats.gamma.ppf(1e-6, MIDSIZE_DRAWS)) / MIDSIZE_DRAWS


def midsize_sum_case(seed: int, index: int):
    """(values, lower, upper, epsilon) of mid-size case ``index`` (0 to MIDSIZE_STRATA - 1).

    n lies in stratum ``index`` of :data:`MIDSIZES` (an offset shared by the strata); the values lie inside a
    tenth of mixed bounds (upper 10 to 100, lower 1/100 to 1/10 of it below 0), but for 1 to 3 far below the lower
    bound (:func:`_lesson02_inputs.with_outliers`: clipping skipped at a size, or when a sample of the values shows
    none outside, fails; referee s40rA D1), so a scale read from the clipped data shrinks 10 times or more;
    epsilon in stratum ``permutation[index]`` of :data:`MIDSIZE_EPSILONS` (1e-3 to 20, a factor 1.86 a stratum),
    so small epsilons meet large n (referee s39rA D4: epsilon 0.1 to 10 left a data scale at n > 150,000 and
    epsilon < 0.1 untried).

    Parameters
    ----------
    seed : int
        The check's seed.
    index : int
        The stratum.

    Returns
    -------
    tuple
        ``(values, lower, upper, epsilon)``.
    """
    shared = _default_rng([seed, 32])
    offset = shared.random()
    epsilon_stratum = int(shared.permutation(MIDSIZE_STRATA)[index])  # n and epsilon strata paired at random
    rng = _default_rng([seed, 32, index])
    low, high = (math.log(size) for size in MIDSIZES)
    n = int(math.exp(low + (index + offset) / MIDSIZE_STRATA * (high - low)))
    share, upper = _log_uniform(rng, 1, 10), _log_uniform(rng, 10, 100)
    lower = -share * upper / 100  # |lower| at most a tenth of upper: the outliers below it keep max |clipped| small
    low, high = (math.log(epsilon) for epsilon in MIDSIZE_EPSILONS)
    epsilon = math.exp(low + (epsilon_stratum + rng.random()) / MIDSIZE_STRATA * (high - low))
    return with_outliers(rng, rng.uniform(lower / 10, upper / 10, n), lower, upper, below_only=True), lower, upper, epsilon


#: Cases per pool of the grid test (:func:`_band_calls.check_no_pooled_grid`: 128 releases, neighbours by n or
#: epsilon).
MIDSIZE_GRID_WINDOW = 2
#: Windows (in cases, ordered by n) of the mid-size cases and the 1,000,000-value case whose shape is tested.
MIDSIZE_SHAPE_WINDOWS = (4, 8)


def check_sum_midsizes(many, seed: int, huge=None) -> None:
    """:data:`MIDSIZE_DRAWS` releases on each mid-size case, one generator a case.

    No release may be the exact sum (within a float sum's error); the mean |noise| of each case must be at
    least :data:`MIDSIZE_SPREAD_FLOOR` (0.51) scales (a scale read from the data gives 0.1 or less); the 1,024
    releases pooled must pass ``_stats.check_laplace_noise``, the mean |noise| of every window of 1, 4 and 16
    cases ordered by n must lie in its Gamma band (:func:`_scale_scan.check_band_scale`: less noise above a size
    fails when it is below 0.74 of the scale over 4 strata, a factor 1.70 of sizes), and with the 1,000,000-value
    case's releases (``huge``) every window of 4 and 8 cases and of 2 to 17 from either end must hold Laplace's share of releases
    beyond 2 and 3 scales and between 0.5 and 2.7 (:func:`_shape_scan.check_band_shape`, 1e-4 over all).

    Parameters
    ----------
    many : callable
        ``many(n, values, lower, upper, epsilon, rng)``: n releases of the student's answer, under the guard.
    seed : int
        The check's seed.
    huge : array_like, optional
        The standardised noise of the 1,000,000-value case, pooled into the shape test.

    Raises
    ------
    CheckFailed
        With a hint naming the case and the property.
    """
    z_all, cases, epsilons = [], [], []
    for index in range(MIDSIZE_STRATA):
        values, lower, upper, epsilon = midsize_sum_case(seed, index)
        outputs = many(MIDSIZE_DRAWS, values, lower, upper, epsilon, _default_rng([seed, 32, index, 1]))
        values, lower, upper, epsilon = midsize_sum_case(seed, index)  # recomputed after the student ran
        where = (f"For {_len(values)} values inside a tenth of the bounds [{lower:.6g}, {upper:.6g}] but for "
                 f"{int((values < lower).sum())} far below the lower bound, epsilon={epsilon:.6g}:")
        centre, largest = _fsum(np.clip(values, lower, upper)), _max(_abs(lower), _abs(upper))
        releases = _stats.as_numbers(outputs, "the noisy release")
        tolerance = 64 * _len(values) * np.finfo(float).eps * largest + 4 * np.spacing(_abs(centre))
        if np.any(np.abs(releases - centre) <= tolerance):
            raise CheckFailed(f"{where} a release is the exact sum (property: noise at every size). Add the noise "
                              "whatever the number of values.")
        z = (releases - centre) / (largest / epsilon)
        check_clipped_centre(z, where)
        cases.append((releases, centre, largest / epsilon, tolerance, where))
        epsilons.append(epsilon)
        z_all.append(z)
    where = f"Over {MIDSIZE_STRATA} cases of 120,000 to 1,000,000 values ({MIDSIZE_DRAWS} releases each),"
    releases, centres, scales, tolerances, wheres = zip(*cases)
    check_call_sequences(releases, centres, scales, tolerances, lambda i: wheres[i], where,
                         {"n": np.arange(MIDSIZE_STRATA), "epsilon": np.array(epsilons)},
                         window=MIDSIZE_GRID_WINDOW)
    for z, case_where in zip(z_all, wheres):  # after the call tests: reused draws also make a spread small
        spread = _float(np.mean(np.abs(z)))
        if spread < MIDSIZE_SPREAD_FLOOR:
            raise CheckFailed(f"{case_where} your releases are {spread:.2f} Laplace scales from the sum on average, "
                              "where the noise gives 1 (property: data-independent scale, at every size). The "
                              "sensitivity comes from the declared bounds, max(|lower|, |upper|), never from the "
                              "data's values.")
    _stats.check_laplace_noise(np.concatenate(z_all), where)
    sizes = [_len(midsize_sum_case(seed, index)[0]) for index in range(MIDSIZE_STRATA)]
    check_band_scale(np.array(z_all), {"n": sizes}, where, "is the noise skipped or shrunk above some size? The "
                     "scale is max(|lower|, |upper|) / epsilon whatever the number of values.")
    if huge is not None:
        z_all, sizes = [*z_all, _stats.as_numbers(huge, "the noise")], [*sizes, 1_000_000]
        where = f"Over {MIDSIZE_STRATA} cases of 120,000 to 1,000,000 values and one of 1,000,000,"
    check_band_shape(z_all, {"n": sizes}, where, windows=MIDSIZE_SHAPE_WINDOWS)
