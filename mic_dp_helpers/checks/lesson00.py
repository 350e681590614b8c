"""The warm-up exercise of lesson 00, which shows how checks work.

Inputs come from a generator seeded with ``seed`` (fixed by default): integer and float lists
of 1 to 200 values in random order, thresholds equal to one of the values (the boundary),
below and above every value, negative values. The expected share is computed after the
student's function returns.
"""

from __future__ import annotations

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
SEED = 7
_TOLERANCE = 1e-6


def _cases(seed: int):
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
    float32 share passes), and leaves the list it is given unchanged.

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
    for index in range(_len(_cases(seed))):
        values, threshold = _cases(seed)[index]
        given = list(values)
        got = _core.student_call("00.1", _THIS, answer, given, threshold)
        if _isinstance(got, bool) or not _isinstance(got, numbers.Real | np.number):
            raise CheckFailed(f"return a number (a share), not a {type(got).__name__}.")
        values, threshold = _cases(seed)[index]
        if given != values:
            raise CheckFailed("your function changed (for example sorted) the list it was given; read it without "
                              "modifying it.")
        expected = _sum(v > threshold for v in values) / _len(values)
        # Shares of at most 200 values differ by at least 1/200 (and a wrong denominator by 1/40,000), so 1e-6
        # lets a float32 answer (about 7 significant digits) through and nothing else.
        if _abs(_float(got) - expected) > _TOLERANCE:
            if _abs(_float(got) - _sum(v >= threshold for v in values) / _len(values)) < _TOLERANCE:
                raise CheckFailed("values equal to the threshold are not above it (property: boundary).")
            if _abs(_float(got) - _sum(v > threshold for v in values)) < _TOLERANCE:
                raise CheckFailed("that is a count; a share divides by how many values there are.")
            raise CheckFailed("the share is off; count the values strictly above the threshold.")
