"""Differential tests of lesson 06's deterministic checks (06.1, 06.2, 06.3, 06.6): on hypothesis-generated
inputs holding the edge cases the checks generate (groups_touched left to its default, l to a million, NumPy
integers; integer epsilons, mu from 0.01 to 40, epsilon 50; targets from 1e-15 to 0.1; no value, one value,
int8/int64/float32 values on the edges, values outside the bounds), the solution notebook's answers agree with
the course references the checks compare against."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers import synthetic
from mic_dp_helpers.checks import lesson06, lesson06_marginals

SOLUTIONS = solution_namespace("06_synthetic_data_solutions.ipynb")


def log_uniform(low: float, high: float):
    return st.floats(np.log10(low), np.log10(high)).map(lambda e: float(10 ** e))


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.integers(1, 500), st.sampled_from([1, 10**6])), log_uniform(1e-6, 1e4),
       st.one_of(st.integers(1, 200), st.sampled_from([1, 10**5])), st.one_of(st.none(), st.integers(1, 10**5)),
       st.sampled_from([int, np.int64, np.int32]))
def test_06_1_solution_agrees_with_reference(l, sigma, dim, touched, integer):
    args = (integer(l), sigma, integer(dim)) + (() if touched is None else (integer(touched),))
    assert SOLUTIONS["release_mu"](*args) == pytest.approx(
        synthetic.group_mean_mu(l, sigma, dim, 1 if touched is None else touched), rel=1e-12)


epsilons = st.one_of(st.sampled_from([0, 1, 3, 0.0, 50.0]), st.floats(0, 20), log_uniform(1e-6, 50))


@settings(max_examples=80, deadline=None)
@given(epsilons, st.one_of(log_uniform(0.01, 40), st.sampled_from([0.01, 1, 30.0, 40.0])))
def test_06_2_solution_agrees_with_reference(epsilon, mu):
    expected = synthetic.gdp_delta(epsilon, mu)
    assert abs(SOLUTIONS["delta_of_mu"](epsilon, mu) - expected) <= 1e-12 + 1e-6 * expected


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.integers(1, 300), st.just(100_000)), st.one_of(st.integers(1, 100), st.just(100_000)),
       st.one_of(log_uniform(0.01, 50), st.sampled_from([1, 2, 0.01, 50.0])),
       st.one_of(log_uniform(1e-15, 0.1), st.sampled_from([1e-15, 1e-5, 0.1])))
def test_06_3_solution_agrees_with_reference(l, dim, epsilon, delta):
    assert SOLUTIONS["noise_for_target"](l, dim, epsilon, delta) == pytest.approx(
        synthetic.group_mean_sigma(l, dim, epsilon, delta), rel=1e-5)


@st.composite
def binning_inputs(draw):
    """Bounds with exactly representable edges (integer lower, a power-of-two step) and values on the edges, on
    the half steps, outside the bounds and anywhere, of dtype int8, int64, float32 or float64 (0 to 60 values)."""
    n_bins = draw(st.integers(1, 11))
    step = 2.0 ** draw(st.integers(0, 3))
    lower = float(draw(st.integers(-40, 40)))
    upper = lower + n_bins * step
    dtype = draw(st.sampled_from([np.int8, np.int64, np.float32, np.float64]))
    on_grid = st.integers(-4, 2 * n_bins + 4).map(lambda m: lower + m * step / 2)
    anywhere = st.floats(lower - 3 * n_bins * step, upper + 3 * n_bins * step)
    values = draw(st.lists(on_grid if dtype in (np.int8, np.int64) else st.one_of(on_grid, anywhere), max_size=60))
    if dtype in (np.int8, np.int64):
        values = [round(v) for v in values if -128 <= round(v) <= 127]
    return np.asarray(values, dtype=dtype), lower, upper, n_bins


@settings(max_examples=80, deadline=None)
@given(binning_inputs())
def test_06_6_solution_agrees_with_reference(case):
    values, lower, upper, n_bins = case
    got = np.asarray(SOLUTIONS["public_bins"](values.copy(), lower, upper, n_bins))
    as_float = values.astype(float)
    expected = lesson06_marginals._reference_bins(as_float, lower, upper, n_bins)
    half_step = (upper - lower) / n_bins / 2
    on_grid = lower + np.round((as_float - lower) / half_step) * half_step == as_float  # exactly on a half step
    near_edge = lesson06_marginals._near_interior_edge(as_float, lower, upper, n_bins)
    assert got.shape == values.shape
    assert ((got == expected) | (near_edge & ~on_grid)).all()


def test_edge_cases_of_the_checks_agree():
    """The checks' own edge cases (a million l, 200,000 values, 2,000 bins): the solutions agree there too."""
    rng = np.random.default_rng([606, 1])
    for l, sigma, dim, touched in lesson06._mu_edge_cases(rng):
        args = (l, sigma, dim) if touched is None else (l, sigma, dim, touched)
        assert SOLUTIONS["release_mu"](*args) == pytest.approx(
            synthetic.group_mean_mu(int(l), sigma, int(dim), 1 if touched is None else int(touched)), rel=1e-12)
    for values, lower, upper, n_bins in lesson06_marginals._edge_bin_cases(rng):
        np.testing.assert_array_equal(SOLUTIONS["public_bins"](values.copy(), lower, upper, n_bins),
                                      lesson06_marginals._reference_bins(values.astype(float), lower, upper, n_bins))
