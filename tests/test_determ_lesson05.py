"""Differential tests of lesson 05's deterministic checks 05.2 and 05.3: on hypothesis-generated inputs holding
the edge cases the checks generate (every score negative, all zero, ties at the top, integer scores and
factors, integer labels in shuffled order, one feature, factors of 0), the solution notebook's answers agree
with the checks' references (``allocation.plan_budget``, ``published.effective_epsilons``) and fit the ledger."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.accounting.ledger import PrivacyAccountant
from mic_dp_helpers.micdp import allocation
from mic_dp_helpers.micdp import published as micdp

SOLUTIONS = solution_namespace("05_mic_dp_solutions.ipynb")


@st.composite
def series(draw, values):
    """A Series of ``values`` with string or integer labels, in shuffled order."""
    data = draw(st.lists(values, min_size=1, max_size=12))
    labels = draw(st.permutations(range(len(data))))
    if draw(st.booleans()):
        labels = [f"f{i}" for i in labels]
    return pd.Series(data, index=labels)


scores = st.one_of(st.floats(-1, 1), st.sampled_from([0.0, -0.5, 1.0]), st.integers(-3, 9))


@settings(max_examples=80, deadline=None)
@given(series(scores), st.one_of(st.floats(0.01, 100), st.integers(1, 10)), st.floats(0.001, 1))
def test_05_2_solution_agrees_with_reference(relevance, total, floor):
    got = SOLUTIONS["split_budget_by_relevance"](relevance.copy(), total, floor)
    expected = allocation.plan_budget(relevance, total, floor=floor)
    assert list(got.index) == list(relevance.index)
    assert np.allclose(got.to_numpy(), expected[relevance.index].to_numpy(), rtol=1e-9, atol=1e-12)
    assert PrivacyAccountant(total).can_spend_all([float(v) for v in got])


factors = st.one_of(st.floats(1e-12, 1e6), st.just(0.0), st.integers(0, 5))


@settings(max_examples=80, deadline=None)
@given(series(factors), st.one_of(st.floats(0.01, 50), st.integers(1, 5)))
def test_05_3_solution_agrees_with_reference(factor_series, epsilon):
    got = SOLUTIONS["effective_epsilon"](factor_series.copy(), epsilon)
    expected = micdp.effective_epsilons(factor_series, epsilon)
    assert list(got.index) == list(factor_series.index)
    zero = factor_series.to_numpy() == 0
    assert np.isposinf(got.to_numpy(dtype=float)[zero]).all()
    assert np.allclose(got.to_numpy(dtype=float)[~zero], expected.to_numpy(dtype=float)[~zero], rtol=1e-9)
    assert all(math.isinf(e) for e in expected[zero])


def test_edge_cases_of_the_checks_agree():
    """The checks' own edge cases (2,000 features included)."""
    from mic_dp_helpers.checks import lesson05

    for relevance, total, floor in lesson05._budget_edge_cases(np.random.default_rng([505, 53])):
        got = SOLUTIONS["split_budget_by_relevance"](relevance.copy(), total, floor)
        expected = allocation.plan_budget(relevance, total, floor=floor)
        assert np.allclose(got.to_numpy(), expected[relevance.index].to_numpy(), rtol=1e-9, atol=1e-12)
