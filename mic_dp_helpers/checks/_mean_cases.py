"""The input cases of check 04.1 (a DP mean with PyDP's BoundedMean), split from ``lesson04`` at 600 lines.

Statistical cases (300-1,500 values, epsilon 0.3-5, 1,500 runs each, and the sweep's corners) and exactness
cases (few runs: only the absence of noise, and for some a spread floor, is tested), all drawn from ``seed``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from mic_dp_helpers.checks import _sweeps

_default_rng = np.random.default_rng
_exp = math.exp
_log = math.log
_float = float


def _log_uniform(rng, low, high) -> float:
    return _float(_exp(rng.uniform(_log(low), _log(high))))


MEAN_RUNS = 1500


def _mean_cases(seed: int):
    """(values as a list, lower, upper, epsilon, kind), fresh copies of the cases of ``seed``. The clamped
    mean stays near the middle of the bounds, so PyDP's noise is close to Laplace and its scale follows the
    first-order formula."""
    return [(list(values), lower, upper, epsilon, kind) for values, lower, upper, epsilon, kind in _mean_bank(seed)]


def _mean_case(seed: int, index: int):
    """A fresh copy of case ``index`` of :func:`_mean_cases` (without copying the others)."""
    values, lower, upper, epsilon, kind = _mean_bank(seed)[index]
    return list(values), lower, upper, epsilon, kind


@functools.lru_cache(maxsize=4)
def _mean_bank(seed: int):
    return tuple((tuple(values), lower, upper, epsilon, kind)
                 for values, lower, upper, epsilon, kind in _sweep_mean_cases(seed) + _exactness_mean_cases(seed))


#: Cases where only the absence of noise is tested (few runs): an answer exact in a size or epsilon range
#: that the statistical cases do not reach fails there.
EXACTNESS_KINDS, SMALL_SIZES = ("huge", "gap", "huge epsilon", "vast", "small", "low epsilon", "low epsilon few",
                                "high epsilon", "low epsilon large"), (3, 4, 5, 8, 12, 20)
#: The exactness cases beside the statistical ones' epsilon 0.3-5 (referee s36rA: exact, or bounds from the data,
#: below epsilon 0.3 with 6 values or more, and exact above epsilon 5 with 300-1,500 values, passed), 20 runs
#: each (100 and 40 below epsilon 0.3), one per cell of a grid: epsilon 0.02-0.06, 0.06-0.15 and 0.15-0.3 times 6-300
#: values ("low epsilon few"), 300-1,000 and 1,000-3,000 values ("low epsilon": spread floor), all in the middle
#: twentieth of the bounds, their noise ranked against PyDP's own (_mean_spread, referee s37rA); epsilon 5-10,
#: 10-20, 20-60 and 60-200 times 150-600 and 600-3,000 values ("high epsilon").
LOW_HIGH_EPSILON = tuple((kind, sizes, band) for band in ((0.02, 0.06), (0.06, 0.15), (0.15, 0.3))
                         for kind, sizes in (("low epsilon few", (6, 300)), ("low epsilon", (300, 1_000)),
                                             ("low epsilon", (1_000, 3_000)))) + tuple(
    ("high epsilon", sizes, band) for band in ((5.0, 10.0), (10.0, 20.0), (20.0, 60.0), (60.0, 200.0))
    for sizes in ((150, 600), (600, 3_000)))
#: The exactness cells of many values at a small epsilon (referee s38rA: the exact mean, or bounds from the data,
#: for more than 3,000 values below epsilon 0.3 passed: every case above 3,000 values had epsilon 0.5 or more),
#: 6 runs each, values in the middle 200th of the bounds: epsilon 0.02-0.1, 0.1-0.3 and 0.3-0.5 times 3,000-30,000
#: and 30,000-1,000,000 values.
LOW_EPSILON_LARGE = tuple(("low epsilon large", sizes, band) for band in ((0.02, 0.1), (0.1, 0.3), (0.3, 0.5))
                          for sizes in ((3_000, 30_000), (30_000, 1_000_000)))
#: Exactness cases whose values lie in the middle twentieth of the bounds (200th for "low epsilon large"), with a
#: spread floor.
NARROW_KINDS = ("huge", "low epsilon", "low epsilon large")
#: The exactness cases of 150,000-250,000 and 800,000-1,000,000 values (sorted; 10 and 3 runs): their centre is
#: tested too (10 noise sd), so an answer that reads only a part of the values there fails.
LARGE_KINDS = ("huge", "vast")
#: The 150,000-250,000 values lie in the middle twentieth of the bounds: the mean |noise| of their 10 answers in
#: noise scales (1 for Laplace) below 0.12 fails. Laplace noise stays below with probability 5.8e-7 (Gamma(10,
#: 1/10)); bounds narrowed to the data give 0.05 noise scales (fails surely).
HUGE_SPREAD_FLOOR = 0.12
#: The spread floor of each narrow kind, in noise scales: the mean |noise| of 6 Laplace draws (Gamma(6, 1/6)) is
#: below 0.052 with probability 1e-6; bounds narrowed to the data of the middle 200th give about 0.005 (fail surely).
SPREAD_FLOORS = {"huge": HUGE_SPREAD_FLOOR, "low epsilon": HUGE_SPREAD_FLOOR, "low epsilon large": 0.052}


def _exactness_mean_cases(seed: int):
    """150,000-250,000 values (epsilon 0.5-5; sorted, in the middle twentieth of the bounds); 800,000-1,000,000
    values (epsilon 0.5-20; sorted); 2,000-9,000 values (epsilon 0.5-20), between the 300-1,500 of
    the statistical cases and the large corner's 10,000; epsilon 200-1,000 (300-3,000 values), beyond the
    large corner's 100. Values strictly inside the bounds."""
    rng = _default_rng([seed, 41])
    cases = []
    grid = (("huge", (150_000, 250_000), (0.5, 5.0)), ("gap", (2_000, 9_000), (0.5, 20.0)),
            ("huge epsilon", (300, 3_000), (200.0, 1_000.0)), ("vast", (800_000, 1_000_000), (0.5, 20.0)))
    for kind, (low_n, high_n), (low_e, high_e) in grid + LOW_HIGH_EPSILON + LOW_EPSILON_LARGE:
        lower = _float(rng.uniform(-20, 20))
        upper = lower + _log_uniform(rng, 2, 200)
        width = upper - lower
        size = int(_log_uniform(rng, low_n, high_n))
        if kind in NARROW_KINDS + ("low epsilon few",):  # in the middle twentieth: bounds from the data shrink the noise
            half = width / (400 if kind == "low epsilon large" else 40)
            values = rng.uniform((lower + upper) / 2 - half, (lower + upper) / 2 + half, size)
        else:
            values = rng.uniform(lower + width / 10, upper - width / 10, size)
        if kind in LARGE_KINDS:  # sorted (and for "vast", the lower half on the even positions, the upper half on
            values = np.sort(values)  # the odd ones): the mean of a prefix, or of every other value, is off
            if kind == "vast":
                values = np.ravel(np.column_stack([values[: size // 2], values[size // 2: 2 * (size // 2)]]))
        cases.append((values.tolist(), lower, upper, _log_uniform(rng, low_e, high_e), kind))
    small = _default_rng([seed, 45])  # 3 to 20 values, epsilon 5-20 (referee s35rca: exact for 3-25 values passed)
    for size in SMALL_SIZES:
        lower = _float(small.uniform(-20, 20))
        upper = lower + _log_uniform(small, 2, 200)
        values = small.uniform(lower + (upper - lower) / 10, upper - (upper - lower) / 10, size)
        cases.append((values.tolist(), lower, upper, _log_uniform(small, 5.0, 20.0), "small"))
    return cases


def _sweep_mean_cases(seed: int):
    rng = _default_rng(seed)
    cases = []
    for kind in ("outside", "inside", "negative"):
        n = int(rng.integers(300, 1500))
        if kind == "negative":
            upper = -_log_uniform(rng, 0.5, 20)
            lower = upper - _log_uniform(rng, 2, 50)
        else:
            lower = _float(rng.uniform(-20, 20))
            upper = lower + _log_uniform(rng, 2, 200)
        width, middle = upper - lower, (upper + lower) / 2
        if kind == "outside":   # a tenth of the values beyond each bound, far away
            values = np.concatenate([rng.uniform(lower, upper, n - 2 * (n // 10)),
                                     rng.uniform(upper, upper + 3 * width, n // 10),
                                     rng.uniform(lower - 3 * width, lower, n // 10)])
        elif kind == "inside":  # every value in the middle fifth of the bounds: the data's range is narrow
            values = rng.uniform(middle - width / 10, middle + width / 10, n)
        else:  # the data span 60-80% of the bounds without reaching them (narrowing to the data shows)
            values = rng.uniform(lower + width * rng.uniform(0.1, 0.2), upper - width * rng.uniform(0.1, 0.2), n)
        epsilon = _log_uniform(rng, 0.3, 5)
        cases.append((rng.permutation(values).tolist(), _float(lower), _float(upper), epsilon, kind))
    # The large corner of the sweep: many values and a large epsilon (an answer exact there hides from the rest).
    lower = _float(rng.uniform(-20, 20))
    upper = lower + _log_uniform(rng, 2, 200)
    n = int(rng.integers(10_000, 40_000))
    values = rng.uniform(lower - (upper - lower) / 4, upper + (upper - lower) / 4, n)
    cases.append((values.tolist(), lower, upper, 20.0, "large"))
    cases.append((values[: n // 2].tolist(), lower, upper, 100.0, "large"))
    # Between the corners: 6 to 40 and 40 to 300 values, epsilon 5 to 20 (an answer exact there hides otherwise).
    for low_n, high_n in ((6, 40), (40, 300)):
        lower = _float(rng.uniform(-20, 20))
        upper = lower + _log_uniform(rng, 2, 200)
        values = rng.uniform(lower, upper, int(rng.integers(low_n, high_n)))
        cases.append((values.tolist(), lower, upper, _log_uniform(rng, 5, 20), "middle"))
    # One value on the upper bound: PyDP's noise does not depend on the (private) number of values, so a
    # noise scale computed from len(values) shows here (compared with PyDP's own answers).
    lower = _float(rng.uniform(-20, 20))
    upper = lower + _log_uniform(rng, 2, 200)
    cases.append(([upper], lower, upper, _log_uniform(rng, 0.5, 2), "single"))
    # The small corner: a handful of values and a small epsilon (PyDP's answer then often sits on a bound).
    lower = _float(rng.uniform(-20, 20))
    upper = lower + _log_uniform(rng, 2, 200)
    values = rng.uniform(lower, upper, int(rng.integers(1, 6)))
    cases.append((values.tolist(), lower, upper, _log_uniform(rng, _sweeps.EPSILONS[0], 0.1), "tiny"))
    return cases


MEAN_RUNS_BY_KIND = {"outside": MEAN_RUNS, "inside": MEAN_RUNS, "negative": MEAN_RUNS, "large": 300, "tiny": 300,
                    "single": MEAN_RUNS, "middle": 300, "huge": 10, "gap": 20, "huge epsilon": 20,
                    "vast": 3, "small": 10, "low epsilon": 100, "low epsilon few": 40, "high epsilon": 20,
                    "low epsilon large": 6}
