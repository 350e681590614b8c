"""Differential test of lesson 04's deterministic check 04.3: on hypothesis-generated inputs holding the edge
cases the check generates (integer values with candidates between them, the data's maximum as a candidate,
values below the lower bound, one value, integer candidates), the solution notebook's answer has the smallest
expected error under the check's reference (``pydp_error.bounded_mean_rmse``). 04.2's answer is random (it
draws from ``rng``) and is tested by its check's statistics instead."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.scale.pydp_error import bounded_mean_rmse

SOLUTIONS = solution_namespace("04_pydp_solutions.ipynb")


@st.composite
def bound_cases(draw):
    values = np.array(draw(st.lists(st.integers(-5, 200), min_size=1, max_size=300)))
    if draw(st.booleans()):
        values = values + draw(st.floats(0, 1))
    lower = draw(st.sampled_from([0, -3.5, 2.0]))
    top = float(values.max())
    candidates = draw(st.lists(st.one_of(st.floats(lower + 0.01, 400), st.integers(int(lower) + 1, 400),
                                         st.just(top)), min_size=1, max_size=10, unique=True))
    candidates = [c for c in candidates if c > lower] or [top + 1]
    return values, lower, candidates, draw(st.floats(0.01, 20))


@settings(max_examples=80, deadline=None)
@given(bound_cases())
def test_04_3_solution_has_the_smallest_reference_error(case):
    values, lower, candidates, epsilon = case
    got = SOLUTIONS["best_upper_bound"](values.copy(), lower, list(candidates), epsilon)
    errors = {c: bounded_mean_rmse(values, lower, c, epsilon, include_count_noise=False) for c in candidates}
    assert got in candidates and errors[got] <= min(errors.values()) * (1 + 1e-9)


def test_edge_cases_of_the_check_agree():
    """The check's own edge cases (200,000 values included)."""
    from mic_dp_helpers.checks import lesson04_bounds

    for values, lower, candidates, epsilon in lesson04_bounds._edge_bound_cases(404):
        got = SOLUTIONS["best_upper_bound"](values.copy(), lower, list(candidates), epsilon)
        errors = {c: bounded_mean_rmse(values, lower, c, epsilon, include_count_noise=False) for c in candidates}
        assert got == min(candidates, key=errors.get)
