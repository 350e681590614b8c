"""04.1 answers that narrow the bounds, or raise epsilon, for one count of distinct values only (stop 42: CI
accepted the answer narrowing for 4-10 whole-number levels once). Collected into 04.1's corpus as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`)."""

from __future__ import annotations

import numpy as np

from wrong_answers.lesson04_s39 import _bounded_mean


def _narrowed_when(condition, factor=1.0):
    """Bounds narrowed to the data's minimum and maximum (and epsilon times ``factor``) when ``condition`` holds
    (and the data are not constant: PyDP refuses equal bounds)."""
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        if condition(v) and v.min() < v.max():
            return _bounded_mean(values, max(lower, v.min()), min(upper, v.max()), epsilon * factor)
        return _bounded_mean(values, lower, upper, epsilon)
    return dp_mean_with_pydp


def _raised_when(condition, factor):
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        return _bounded_mean(values, lower, upper, epsilon * factor if condition(v) else epsilon)
    return dp_mean_with_pydp


def _levels(v):
    return len(np.unique(v))


MORE_WRONG_ANSWERS: dict = {"04.1": {
    "non-private (data): bounds from the data for exactly 5 distinct values": _narrowed_when(lambda v: _levels(v) == 5),
    "non-private (data): bounds from the data for exactly 7 distinct values": _narrowed_when(lambda v: _levels(v) == 7),
    "non-private (data): bounds from the data for two values that are not 0/1":
        _narrowed_when(lambda v: _levels(v) == 2 and not set(np.unique(v).tolist()) <= {0.0, 1.0}),
    "non-private (data): bounds from the data for 2-8 values that are not whole numbers":
        _narrowed_when(lambda v: 2 <= _levels(v) <= 8 and not np.all(v == np.round(v))),
    "non-private (size, data): bounds from the data for at most 8 distinct values from 1,000 values":
        _narrowed_when(lambda v: _levels(v) <= 8 and len(v) >= 1000),
    "non-private (data): three times epsilon for 6-8 distinct values":
        _raised_when(lambda v: 6 <= _levels(v) <= 8, 3.0),
}}
