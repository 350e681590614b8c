"""Differential tests of lesson 08's deterministic checks (08.1, 08.3, 08.4): on hypothesis-generated inputs
holding the edge cases the checks generate (no example, one example, rows at the norm, zero rows, int8, int32
and float32 gradients; q = 1, one step; integer arguments, epsilon to 10,000 (past e^epsilon's overflow at 709.78), delta 0 and near 1), the solution
notebook's answers agree with the references the checks compare against."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.attacks import membership
from mic_dp_helpers.checks import lesson08, lesson08_accounting

SOLUTIONS = solution_namespace("08_dp_machine_learning_solutions.ipynb")


@st.composite
def gradients(draw):
    n, p = draw(st.integers(0, 12)), draw(st.integers(1, 5))
    dtype = draw(st.sampled_from([np.int8, np.int32, np.int64, np.float32, np.float64]))
    if dtype in (np.int8, np.int32, np.int64):
        info = np.iinfo(dtype)
        low, high = max(info.min, -60_000), min(info.max, 60_000)
        cells = st.one_of(st.integers(low, high), st.sampled_from([0, 3, 4, -3]))
    else:
        cells = st.one_of(st.floats(-1e6, 1e6, width=32), st.sampled_from([0.0, 3.0, 4.0, 0.6, 0.8, 1e-30]))
    grads = np.asarray(draw(st.lists(st.lists(cells, min_size=p, max_size=p), min_size=n, max_size=n)),
                       dtype=dtype).reshape(n, p)
    return grads


@settings(max_examples=80, deadline=None)
@given(gradients(), st.one_of(st.sampled_from([5, 1.0, 0.5, 10.0, 100]), st.floats(1e-4, 1e4)))
def test_08_1_solution_agrees_with_reference(grads, clip_norm):
    got = SOLUTIONS["clip_rows"](grads.copy(), clip_norm)
    expected = lesson08._clip_reference(grads, clip_norm)
    assert np.shape(got) == grads.shape
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


@settings(max_examples=6, deadline=None)  # the accountant takes 0.1-0.7 s a call
@given(st.one_of(st.just(1), st.just(1.0), st.floats(1e-3, 0.2)), st.floats(1.0, 6.0), st.integers(1, 300),
       st.one_of(st.sampled_from([1e-5, 1e-10, 1e-2]), st.floats(1e-8, 1e-3)))
def test_08_3_solution_agrees_with_reference(sample_rate, noise_multiplier, steps, delta):
    """The solution uses the RDP accountant, the check's upper reference: equal to it (and at least the lower)."""
    got = SOLUTIONS["training_epsilon"](sample_rate, noise_multiplier, steps, delta)
    assert got == pytest.approx(lesson08_accounting._rdp_epsilon(sample_rate, noise_multiplier, steps, delta), rel=1e-9)


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.sampled_from([0, 3, 0.0, 1e-12, 100.0, 700.0, 710.0, 1000, 10_000.0]), st.floats(0, 700),
                 st.floats(700, 10_000)),
       st.one_of(st.sampled_from([0, 0.0, 0.9999999, 0.999999, 1e-300]), st.floats(0, 1, exclude_max=True)))
def test_08_4_solution_agrees_with_reference(epsilon, delta):
    expected = min(1.0, np.tanh(epsilon / 2) + lesson08_accounting._delta_term(epsilon, delta))
    got = SOLUTIONS["max_advantage"](epsilon, delta)
    assert got == pytest.approx(expected, abs=1e-12)
    assert got == pytest.approx(membership.advantage_bound(epsilon, delta), abs=1e-12)


def test_edge_cases_of_the_checks_agree():
    rng = np.random.default_rng([8001, 2024])
    for grads, clip_norm in lesson08._clip_edge_cases(rng):
        np.testing.assert_allclose(SOLUTIONS["clip_rows"](grads.copy(), clip_norm),
                                   lesson08._clip_reference(grads, clip_norm), rtol=1e-12)
    for epsilon, delta in lesson08_accounting._advantage_edge_cases(rng) + lesson08_accounting._overflow_cases(rng):
        assert SOLUTIONS["max_advantage"](epsilon, delta) == pytest.approx(
            membership.advantage_bound(epsilon, delta), abs=1e-12)
