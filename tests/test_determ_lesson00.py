"""Differential test of lesson 00's check: on hypothesis-generated lists holding the edge cases the check
generates (ties with the threshold, values one float step either side of it, ints, floats, NumPy int32 and
float32 elements, one value), the solution notebook's answer agrees with the check's reference."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace

SOLUTIONS = solution_namespace("00_start_here_solutions.ipynb")


@st.composite
def lists_and_thresholds(draw):
    """A non-empty list of ints and floats near a threshold (equal to it, one float step away), in any order."""
    threshold = draw(st.one_of(st.integers(-10**12, 10**12), st.floats(-1e9, 1e9, allow_nan=False)))
    near = st.sampled_from([0, 1, -1, 2, -2]).map(lambda d: float(np.nextafter(float(threshold), np.sign(d) * np.inf))
                                                   if abs(d) == 1 else threshold + d)
    values = draw(st.lists(st.one_of(near, st.integers(-10**6, 10**6), st.floats(-1e9, 1e9, allow_nan=False)),
                           min_size=1, max_size=60))
    kind = draw(st.sampled_from(["python", "int32", "float32"]))
    if kind == "int32":
        values = [np.int32(np.clip(int(v), -2**31, 2**31 - 1)) for v in values]
    elif kind == "float32":
        values = [np.float32(v) for v in values]
    return values, threshold


@settings(max_examples=80, deadline=None)
@given(lists_and_thresholds())
def test_00_1_solution_agrees_with_reference(case):
    values, threshold = case
    expected = sum(v > threshold for v in values) / len(values)
    assert abs(SOLUTIONS["share_above"](list(values), threshold) - expected) <= 1e-12


def test_edge_cases_of_the_check_agree():
    """The check's own edge cases (100,000 values included)."""
    from mic_dp_helpers.checks import lesson00

    for values, threshold in lesson00._edge_cases(np.random.default_rng([7, 1])):
        assert SOLUTIONS["share_above"](list(values), threshold) == sum(v > threshold for v in values) / len(values)
