"""The warm-up exercise of lesson 00, which shows how checks work."""

from __future__ import annotations

import numbers

import numpy as np

from mic_dp_helpers.checks._core import CheckFailed, exercise


@exercise("00.1", title="Warm-up: share of values above a threshold", answer_name="share_above")
def check_share_above(answer) -> None:
    rng = np.random.default_rng(7)
    cases = [([1, 2, 3, 4], 2), ([5.0, 5.0, 6.0], 5.0), (list(rng.normal(size=50)), 0.3), (list(rng.integers(0, 10, 31)), 4)]
    for values, threshold in cases:
        got = answer(list(values), threshold)
        if isinstance(got, bool) or not isinstance(got, numbers.Real | np.number):
            raise CheckFailed(f"return a number (a share), not a {type(got).__name__}.")
        expected = float(np.mean(np.asarray(values) > threshold))
        if abs(float(got) - expected) > 1e-12:
            if abs(float(got) - float(np.mean(np.asarray(values) >= threshold))) < 1e-12:
                raise CheckFailed("values equal to the threshold are not above it.")
            if abs(float(got) - float(np.sum(np.asarray(values) > threshold))) < 1e-12:
                raise CheckFailed("that is a count; a share divides by how many values there are.")
            raise CheckFailed("the share is off; count the values strictly above the threshold.")
