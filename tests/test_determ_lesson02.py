"""Differential tests of lesson 02's deterministic checks (02.2, 02.3): on hypothesis-generated inputs holding
the edge cases the checks generate (a bound exactly 0, |lower| = |upper|, tiny and huge bounds, n = 1 and
1e12, Python int and NumPy int bounds; confidences from 1e-8, integer sensitivities and errors), the
solution notebook's answers agree with the checks' references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.checks import lesson02

SOLUTIONS = solution_namespace("02_laplace_mechanism_solutions.ipynb")
magnitudes = st.floats(1e-9, 1e12, allow_nan=False)


@st.composite
def bounds(draw):
    """lower < upper: either sign, a bound 0, |lower| = |upper|, as float, int or np.int64."""
    a, b = draw(magnitudes), draw(magnitudes)
    shape = draw(st.sampled_from(["mixed", "zero upper", "zero lower", "symmetric", "negative", "positive"]))
    lower, upper = {"mixed": (-a, b), "zero upper": (-a, 0.0), "zero lower": (0.0, b), "symmetric": (-a, a),
                    "negative": (-a - b, -b), "positive": (b, a + b)}[shape]
    kind = draw(st.sampled_from([float, "int", np.int64]))  # float32 bounds: a float32 mean, not in the check
    if kind in ("int", np.int64):
        lower, upper = int(np.floor(lower)), int(np.ceil(upper))
        lower, upper = (lower, upper) if lower < upper else (lower, lower + 1)
        if kind is np.int64:
            lower, upper = np.int64(lower), np.int64(upper)
    return lower, upper


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["count", "sum", "mean"]), bounds(), st.one_of(st.integers(1, 10**12), st.just(1)))
def test_02_2_solution_agrees_with_reference(query, bound, n):
    lower, upper = bound
    expected = lesson02._expected_sensitivity(query, lower, upper, n)
    assert SOLUTIONS["sensitivity"](query, lower, upper, n) == pytest.approx(expected, rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.one_of(magnitudes, st.integers(1, 10**6)), st.one_of(magnitudes, st.integers(1, 10**6)),
       st.one_of(st.floats(1e-8, 1 - 1e-9), st.sampled_from([0.5, 0.95, 1e-8])))
def test_02_3_solution_agrees_with_reference(sensitivity, max_error, confidence):
    expected = float(sensitivity) * -np.log1p(-confidence) / float(max_error)
    assert SOLUTIONS["smallest_epsilon"](sensitivity, max_error, confidence) == pytest.approx(expected, rel=1e-7)


def test_edge_cases_of_the_checks_agree():
    """The checks' own edge cases."""
    for lower, upper, n in lesson02._sensitivity_edge_cases(np.random.default_rng([2024, 22])):
        for query in ("count", "sum", "mean"):
            assert SOLUTIONS["sensitivity"](query, lower, upper, n) == pytest.approx(
                lesson02._expected_sensitivity(query, lower, upper, n), rel=1e-12)
    for sensitivity, max_error, confidence in lesson02._epsilon_edge_cases(np.random.default_rng([2024, 23])):
        expected = float(sensitivity) * -np.log1p(-confidence) / float(max_error)
        assert SOLUTIONS["smallest_epsilon"](sensitivity, max_error, confidence) == pytest.approx(expected, rel=1e-7)
