"""Lesson 05 cell 37's float caveat: NumPy's Laplace noise refutes the honest release's epsilon = 1 on raw floats.

The honest per-row release (``allocation.release_table``) is epsilon-DP in exact arithmetic. Its
floating-point outputs are not: for different true values they fall on different grids of representable
doubles (Mironov 2012), so an event built from the low bits tells the two values apart. Here one day moves
from every column at its lower bound to every column at its upper bound (replace-one neighbours, the largest
change the declared bounds allow), with the lesson's MIC plan at epsilon = 1 (the weights printed in cell
40, rounded to 3 decimals). The course's audit (``audit_epsilon``) projects each output onto the
log-likelihood-ratio statistic, computed in floats so that it keeps the outputs' last bits.

Measured while writing this test (200,000 outputs per side, 95% confidence): on the raw outputs the bound
is 3.4, 3.3 and 3.3 with seeds [1, 1], [7, 3] and [3, 3], from an event that one table never produces (the
statistic above 1, its largest value in exact arithmetic: about 210 outputs against 0); with the outputs
rounded to 1e-6 it is 0.81 and 0.78 with seeds [1, 1] and [7, 3], within the claim. Each audit takes about
0.3 s (1.7 s for the file, imports included).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers import datasets
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.micdp import allocation

BOUNDS = datasets.COFFEE_SHOP_BOUNDS
COLUMNS = list(BOUNDS)
# Lesson 05 cell 40, plans["MIC"] at EPSILON = 1 (the columns in BOUNDS order).
MIC_PLAN = pd.Series([0.221, 0.145, 0.092, 0.099, 0.106, 0.087, 0.250], index=COLUMNS)
MIC_PLAN = MIC_PLAN / MIC_PLAN.sum()
LOW = np.array([BOUNDS[c][0] for c in COLUMNS], dtype=float)
HIGH = np.array([BOUNDS[c][1] for c in COLUMNS], dtype=float)
ALL_LOW = pd.DataFrame([dict(zip(COLUMNS, LOW))])
ALL_HIGH = pd.DataFrame([dict(zip(COLUMNS, HIGH))])
SCALES = (HIGH - LOW) / MIC_PLAN.to_numpy()  # Laplace scale of each column: range / epsilon_j


def _log_likelihood_ratio(rounded: bool):
    """Release one day ``size`` times and project each output row onto the exact-arithmetic LLR."""

    def mechanism(day: pd.DataFrame, size: int, rng: np.random.Generator) -> np.ndarray:
        released = allocation.release_table(day.iloc[np.zeros(size, dtype=int)], BOUNDS, MIC_PLAN,
                                            rng=rng).to_numpy()
        if rounded:
            released = np.round(released, 6)
        return ((np.abs(released - HIGH) - np.abs(released - LOW)) / SCALES).sum(axis=1)

    return mechanism


@pytest.mark.parametrize("seed", [[1, 1], [7, 3]])
def test_an_audit_on_raw_numpy_floats_refutes_epsilon_1(seed):
    result = audit_epsilon(_log_likelihood_ratio(rounded=False), ALL_LOW, ALL_HIGH, n_samples=200_000,
                           rng=np.random.default_rng(seed))
    assert result.refutes(1.0), result
    assert result.epsilon_lower_bound > 2.5, result


def test_the_same_audit_on_outputs_rounded_to_1e_6_stays_within_epsilon_1():
    result = audit_epsilon(_log_likelihood_ratio(rounded=True), ALL_LOW, ALL_HIGH, n_samples=200_000,
                           rng=np.random.default_rng([1, 1]))
    assert not result.refutes(1.0), result
    assert 0.5 < result.epsilon_lower_bound < 1.0, result
