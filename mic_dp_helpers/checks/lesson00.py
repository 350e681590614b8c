"""The warm-up exercise of lesson 00, which shows how checks work.

Inputs come from a generator seeded with ``seed`` (fixed by default): integer and float lists
of 1 to 200 values in random order, thresholds equal to one of the values (the boundary),
below and above every value, negative values; and the edge cases (``_edge_cases``): every value
tied with the threshold, every value above it, one value, values one float step either side of
a threshold of 1e6 to 1e9 (so a float32 or tolerant comparison fails), integers above 2**24,
int/float mixes, NumPy int32 and float32 elements, and 100,000 values. The expected share is
computed after the student's function returns.
"""

from __future__ import annotations

import functools
import numbers
import sys

import numpy as np

from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, exercise

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_isinstance = isinstance
_abs = abs
_float = float
_len = len
_sum = sum
_any = any
SEED = 7
_TOLERANCE = 1e-6


def _cases(seed: int):
    """Fresh copies of the (values, threshold) cases of ``seed`` (built once per seed)."""
    return [(list(values), threshold) for values, threshold in _case_bank(seed)]


def _case(seed: int, index: int):
    """A fresh copy of case ``index`` of ``seed`` (copying only that one: the bank holds 100,000 values)."""
    values, threshold = _case_bank(seed)[index]
    return list(values), threshold


@functools.lru_cache(maxsize=4)
def _case_bank(seed: int):
    return tuple((tuple(values), threshold) for values, threshold in _random_cases(seed) + _edge_cases(
        _default_rng([seed, 1])))


def _edge_cases(rng) -> list:
    """The edge cases the exercise's text allows (a non-empty list of numbers): ties, shares 0 and 1,
    one value, values at and one float step either side of a large threshold (a float32 or tolerant
    comparison gets them wrong), integers above 2**24, ints and floats mixed, NumPy int32 and float32
    elements, and 100,000 values."""
    cases = []
    tie = [int(rng.integers(-5, 5))] * int(rng.integers(2, 50))
    cases += [(tie, tie[0]), (tie, tie[0] - 1), ([_float(rng.normal())], -1e300)]
    for magnitude in (1e6, 1e9):
        threshold = _float(rng.uniform(magnitude, 10 * magnitude))
        near = [threshold, np.nextafter(threshold, np.inf), np.nextafter(threshold, -np.inf),
                threshold * (1 + 1e-12), threshold * (1 - 1e-12), threshold + 1e-3]
        values = [_float(v) for v in near for _ in range(int(rng.integers(1, 4)))]
        cases.append(([values[i] for i in rng.permutation(_len(values))], threshold))
    big = int(rng.integers(2**24, 2**40))
    cases.append(([big + int(d) for d in rng.permutation([-2, -1, 0, 1, 1, 2, 3])], big))
    mixed = [int(v) if rng.random() < 0.5 else _float(v) + 0.5 for v in rng.integers(-10, 10, 40)]
    cases.append((mixed, int(rng.integers(-3, 3))))
    cases.append(([np.int32(v) for v in rng.integers(-100, 100, 60)], int(rng.integers(-50, 50))))
    small = [np.float32(v) for v in rng.normal(0, 1, 60)]
    cases.append((small, _float(small[int(rng.integers(0, 60))])))
    large = [_float(v) for v in rng.normal(0, 1, 100_000)]
    cases.append((large, _float(large[int(rng.integers(0, 100_000))])))
    return cases


def _random_cases(seed: int):
    rng = _default_rng(seed)
    cases = [([1, 2, 3, 4], 2), ([5.0, 5.0, 6.0], 5.0), ([3], 3), ([3], 2.5)]
    for _ in range(16):
        n = int(rng.integers(1, 200))
        if rng.random() < 0.5:
            values = [int(v) for v in rng.integers(-20, 20, n)]
        else:
            values = [_float(v) for v in rng.normal(0, 10, n)]
        kind = int(rng.integers(0, 4))
        threshold = [values[int(rng.integers(0, n))], min(values) - 1, max(values), _float(rng.normal(0, 10))][kind]
        cases.append((values, threshold))
    return cases


@exercise("00.1", title="Warm-up: share of values above a threshold", answer_name="share_above")
def check_share_above(answer, seed: int = SEED) -> None:
    """A correct answer returns the share (a number in [0, 1]) of values strictly above the threshold,
    for 20 lists (1 to 200 integers or floats, negative ones too) with thresholds equal to one of the
    values, below all of them, equal to the largest, or anywhere, drawn from ``seed`` (to 1e-6, so a
    float32 share passes), and the edge cases: every value tied with the threshold, shares 0 and 1,
    values one float step either side of a threshold of 1e6 to 1e9, integers above 2**24, int/float
    mixes, NumPy int32 and float32 elements, 100,000 values; it leaves the list it is given unchanged.

    Parameters
    ----------
    answer : callable
        The student's ``share_above`` (exercise 00.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_case_bank(seed))):
        given, threshold = _case(seed, index)
        got = _core.student_call("00.1", _THIS, answer, given, threshold)
        if _isinstance(got, bool) or not _isinstance(got, numbers.Real | np.number):
            raise CheckFailed(f"return a number (a share), not a {type(got).__name__}.")
        values, threshold = _case(seed, index)
        if given != values:
            raise CheckFailed("your function changed (for example sorted) the list it was given; read it without "
                              "modifying it.")
        expected = _sum(v > threshold for v in values) / _len(values)
        # Shares of at most 100,000 values differ by at least 1e-5 (and a wrong denominator by 1e-10 only at
        # 100,000 values; below 1,000 values by at least 1e-6), so 1e-6 lets a float32 share through.
        if _abs(_float(got) - expected) > _TOLERANCE:
            if _abs(_float(got) - _sum(v >= threshold for v in values) / _len(values)) < _TOLERANCE:
                raise CheckFailed("values equal to the threshold are not above it (property: boundary).")
            if _abs(_float(got) - _sum(v > threshold for v in values)) < _TOLERANCE:
                raise CheckFailed("that is a count; a share divides by how many values there are.")
            if _any(v != threshold and _abs(_float(v) - _float(threshold)) <= 1e-6 * _abs(_float(threshold))
                    for v in values):
                raise CheckFailed("the share is off on values a hair above or below the threshold (property: "
                                  "exact comparison): compare each value with the threshold as it is, without a "
                                  "tolerance and without converting to float32.")
            raise CheckFailed("the share is off; count the values strictly above the threshold.")
