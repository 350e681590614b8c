"""Differential tests of 09.2's and 09.3's checks: on hypothesis-generated inputs holding the edge cases the
checks generate (integer bounds, |min_value| = max_value, min_value = max_value, 10^11 contributions; keys holding
separators, integer and int8 keys, NaN in the other columns, one row, quantiles that hit a share exactly), the
solution notebook's answers agree with the course references (``mic_dp_helpers.scale.pipeline``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.checks import lesson09_parameters
from mic_dp_helpers.scale import pipeline

SOLUTIONS = solution_namespace("09_dp_at_scale_solutions.ipynb")

bounds = st.one_of(st.integers(-300, 300), st.floats(-1e6, 1e6), st.sampled_from([0, -5, 5, 1e-9, -2.5]))


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.integers(1, 30), st.just(1_000_000)), st.one_of(st.integers(1, 10), st.just(100_000)),
       bounds, bounds, st.one_of(st.floats(1e-6, 50), st.sampled_from([1, 2, 0.123456789])), st.booleans())
def test_09_2_solution_agrees_with_reference(l0, linf, low, high, epsilon, mirrored):
    low, high = min(low, high), max(low, high)
    if mirrored:  # a tie: |min_value| = max_value
        low, high = -abs(high), abs(high)
    assert SOLUTIONS["sum_noise_scale"](l0, linf, low, high, epsilon) == pytest.approx(
        pipeline.sum_noise_scale(l0, linf, low, high, epsilon), rel=1e-12)


PEOPLE = ["a", "a_1", "1", "c1", "c11", "b|2", "", "x y"]
PARTITIONS = ["2", "1_2", "11", "1", "3", "_"]


@st.composite
def samples(draw):
    """1 to 60 rows over few people and partitions (so cells repeat and joined text keys collide), keys as text
    with separators or as integers (int8 partitions), NaN in the other columns, columns in any order."""
    n = draw(st.integers(1, 60))
    as_text = draw(st.booleans())
    people = st.sampled_from(PEOPLE) if as_text else st.integers(0, 12)
    partitions = st.sampled_from(PARTITIONS) if as_text else st.integers(-3, 12)
    rows = draw(st.lists(st.tuples(people, partitions, st.one_of(st.none(), st.floats(0, 9))), min_size=n, max_size=n))
    frame = pd.DataFrame(rows, columns=["who", "when", "spent"]).astype({"spent": float})
    if not as_text:
        frame["when"] = frame["when"].astype(np.int8)
    frame["note"] = np.where(np.arange(n) % 3 == 0, None, "x")
    return frame[draw(st.permutations(list(frame.columns)))]


quantiles = st.one_of(st.sampled_from([0.5, 0.75, 0.9, 1.0, 1 / 3, 2 / 3]), st.floats(0.01, 1.0))


@settings(max_examples=80, deadline=None)
@given(samples(), quantiles)
def test_09_3_solution_agrees_with_reference(sample, quantile):
    got = SOLUTIONS["bounds_from_public_sample"](sample.copy(), "who", "when", quantile)
    assert got == pipeline.public_contribution_bounds(sample, quantile, person="who", partition="when")
    per_person = sample.groupby("who")["when"].nunique().to_numpy()
    per_cell = sample.groupby(["who", "when"]).size().to_numpy()
    assert got == (lesson09_parameters._covering(per_person, quantile),
                   lesson09_parameters._covering(per_cell, quantile))


def test_edge_samples_of_the_check_agree():
    """The check's own edge samples (2,000 people included)."""
    for sample, person, partition, quantile in lesson09_parameters._edge_samples(np.random.default_rng(903)):
        assert SOLUTIONS["bounds_from_public_sample"](sample.copy(), person, partition, quantile) == \
            pipeline.public_contribution_bounds(sample, quantile, person=person, partition=partition)
