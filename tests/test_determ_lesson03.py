"""Differential tests of lesson 03's deterministic checks (03.1, 03.2, 03.4): on hypothesis-generated inputs
holding the edge cases the checks generate (epsilons as ints, NumPy int64 and dyadic float32, one part, one
query, ties, empty plans; integer sensitivities and totals, exactly enough budget; integer and NumPy k), the
solution notebook's answers agree with the checks' references (03.2 has many right answers: the solution's is
checked against the three rules)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.accounting.ledger import zcdp_rho_gaussian, zcdp_to_dp
from mic_dp_helpers.checks import lesson03

SOLUTIONS = solution_namespace("03_privacy_budget_solutions.ipynb")


def _plans(epsilons):
    parts = st.one_of(epsilons, st.lists(epsilons, min_size=1, max_size=4))
    return st.lists(st.one_of(epsilons, st.lists(parts, min_size=1, max_size=5)), max_size=8)


# float32 epsilons only beside dyadic ones, as in the check: a running total that meets a float32 epsilon becomes
# float32 (NumPy 2's promotion), so beside epsilons of many digits a correct sum is off by a relative 1e-8.
plans = st.one_of(_plans(st.one_of(st.floats(1e-4, 50), st.integers(1, 5), st.integers(1, 5).map(np.int64))),
                  _plans(st.one_of(st.integers(1, 5), st.sampled_from([0.125, 0.25, 0.5, 0.75]).map(np.float32))))


@settings(max_examples=80, deadline=None)
@given(plans)
def test_03_1_solution_agrees_with_reference(plan):
    assert SOLUTIONS["total_epsilon"](plan) == pytest.approx(lesson03._plan_cost(plan), rel=1e-9, abs=1e-12)


needs = st.lists(st.tuples(st.one_of(st.floats(1e-8, 1e8), st.integers(1, 9)), st.one_of(st.floats(1e-8, 1e8),
                                                                                          st.integers(1, 40))),
                 min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(needs, st.sampled_from([1.0, 1.0 + 1e-6, 1.5, 3.0, 0.999, 0.5]))
def test_03_2_solution_meets_the_rules(queries, slack):
    sensitivities, max_errors = [s for s, _ in queries], [e for _, e in queries]
    need = math.fsum(s / e for s, e in queries)
    total = need * slack
    if slack < 1:
        with pytest.raises(ValueError):
            SOLUTIONS["allocate"](total, sensitivities, max_errors)
        return
    got = [float(e) for e in SOLUTIONS["allocate"](total, sensitivities, max_errors)]
    assert math.isclose(math.fsum(got), total, rel_tol=1e-9)
    assert all(s / e <= target * (1 + 1e-9) for e, s, target in zip(got, sensitivities, max_errors))


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.integers(1, 10**7), st.integers(1, 1000).map(np.int64)), st.floats(0.01, 1000),
       st.floats(1e-12, 1e-3), st.one_of(st.floats(1e-3, 1e3), st.integers(1, 10)))
def test_03_4_solution_agrees_with_reference(k, total_epsilon, delta, sensitivity):
    sigma = SOLUTIONS["sigma_for_k_queries"](k, total_epsilon, delta, sensitivity)
    assert sigma == pytest.approx(lesson03._reference_sigma(k, total_epsilon, delta, sensitivity), rel=1e-6)
    assert zcdp_to_dp(k * zcdp_rho_gaussian(sensitivity, sigma), delta) <= total_epsilon * (1 + 1e-6)


def test_edge_cases_of_the_checks_agree():
    """The checks' own edge plans (1,000 steps included) and allocations (1,000 queries included)."""
    for plan in lesson03._edge_plans(np.random.default_rng([303, 31])):
        assert SOLUTIONS["total_epsilon"](plan) == pytest.approx(lesson03._plan_cost(plan), rel=1e-9, abs=1e-12)
    for total, sensitivities, max_errors in lesson03._edge_allocations(np.random.default_rng([303, 33])):
        got = [float(e) for e in SOLUTIONS["allocate"](total, sensitivities, max_errors)]
        assert math.isclose(math.fsum(got), total, rel_tol=1e-9)
