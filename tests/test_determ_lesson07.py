"""Differential test of 07.2's check: on hypothesis-generated reports holding the edge cases the check generates
(0/1 reports of bool, int8, uint8, int64, float32 and float64 dtype, one report, all no and all yes, integer
epsilons), the solution notebook's ``estimate_share`` agrees with the course reference (``rr_estimate``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.checks import lesson07
from mic_dp_helpers.mechanisms import local

SOLUTIONS = solution_namespace("07_selection_and_local_dp_solutions.ipynb")


@st.composite
def reports(draw):
    n = draw(st.one_of(st.integers(1, 300), st.sampled_from([1, 2, 20_000])))
    share = draw(st.sampled_from([0.0, 1.0, 0.5, 0.07]))
    dtype = draw(st.sampled_from([bool, np.int8, np.uint8, np.int64, np.float32, np.float64]))
    seed = draw(st.integers(0, 2**32 - 1))
    return (np.random.default_rng(seed).random(n) < share).astype(dtype)


@settings(max_examples=80, deadline=None)
@given(reports(), st.one_of(st.floats(0.01, 20), st.sampled_from([1, 2, 20, 0.01])))
def test_07_2_solution_agrees_with_reference(reported, epsilon):
    estimate, standard_error = SOLUTIONS["estimate_share"](reported.copy(), epsilon)
    expected = local.rr_estimate(reported, epsilon)
    assert estimate == pytest.approx(expected.value, rel=1e-9, abs=1e-12)
    assert standard_error == pytest.approx(expected.standard_error, rel=1e-9)


def test_edge_cases_of_the_check_agree():
    """The check's own edge cases (a million int8 reports, one report of each dtype)."""
    for reported, epsilon in lesson07._estimate_edge_cases(np.random.default_rng(7002)):
        estimate, standard_error = SOLUTIONS["estimate_share"](reported.copy(), epsilon)
        expected = local.rr_estimate(reported, epsilon)
        assert (estimate, standard_error) == pytest.approx((expected.value, expected.standard_error), rel=1e-9)
