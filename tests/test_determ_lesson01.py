"""Differential tests of lesson 01's deterministic checks: on hypothesis-generated tables holding the edge
cases the checks generate (separators inside the values, NaN in the other columns, int8/int32/float32 columns,
one row, ties and salary bounds at and next to a value), the solution notebook's answers agree with the course
reference (``mic_dp_helpers.attacks.anonymity``) the checks compare against."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import solution_namespace
from mic_dp_helpers.attacks import anonymity

SOLUTIONS = solution_namespace("01_anonymization_fails_solutions.ipynb")
QUASI_IDENTIFIERS = ["zip_code", "age", "sex", "salary"]
TEXT = ["1", "11", "1|1", "1_1", "1 1", "02101", "0210"]  # joined as text, these collide


@st.composite
def tables(draw, min_rows: int = 1) -> pd.DataFrame:
    """A table of 1-40 rows from small pools (so ties and collisions of joined keys are common), with NaN in
    ``name`` and ``rare_disease`` and an integer or float32 dtype for age and salary."""
    n = draw(st.integers(min_rows, 40))
    rows = st.tuples(st.sampled_from(TEXT), st.sampled_from([1, 11, 34, 110]), st.sampled_from(["F", "M", "1", "1|1"]),
                     st.sampled_from([1, 11, 100, 40_000]), st.sampled_from(["asthma", "healthy"]),
                     st.one_of(st.none(), st.just("Ann")), st.one_of(st.none(), st.booleans()))
    values = draw(st.lists(rows, min_size=n, max_size=n))
    table = pd.DataFrame(values, columns=["zip_code", "age", "sex", "salary", "diagnosis", "name", "rare_disease"])
    table["name"] = table["name"].astype(object).where(table["name"].notna(), np.nan)
    dtypes = draw(st.sampled_from([(np.int64, np.int64), (np.int8, np.float32), (np.float32, np.int32)]))
    table = table.astype({"age": dtypes[0], "salary": dtypes[1]})
    table.index = draw(st.permutations(range(3, 3 + 2 * n, 2)))
    return table


quasi_identifiers = st.lists(st.sampled_from(QUASI_IDENTIFIERS), min_size=1, max_size=4, unique=True)


@settings(max_examples=80, deadline=None)
@given(tables(), quasi_identifiers)
def test_01_1_solution_agrees_with_reference(table, columns):
    assert SOLUTIONS["uniqueness_share"](table.copy(), columns) == pytest.approx(
        anonymity.uniqueness_share(table, columns), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(tables(), st.data())
def test_01_2_solution_agrees_with_reference(table, data):
    row = table.iloc[data.draw(st.integers(0, len(table) - 1))]
    salary = int(row["salary"])
    low = salary + data.draw(st.sampled_from([-1, 0, 1, -100]))  # bounds at, just above and just below a salary
    high = max(low, salary + data.draw(st.sampled_from([-1, 0, 1, 100])))
    age, zip_code = int(row["age"]), str(row["zip_code"])
    got = SOLUTIONS["linkage_candidates"](table.copy(), age, zip_code, low, high)
    expected = anonymity.matching_records(table, age=age, zip_code=zip_code, salary=(low, high))
    pd.testing.assert_frame_equal(got, expected)


@settings(max_examples=80, deadline=None)
@given(tables(), quasi_identifiers)
def test_01_3_solution_agrees_with_reference(table, columns):
    assert SOLUTIONS["k_anonymity_level"](table.copy(), columns) == anonymity.k_anonymity(table, columns)


@settings(max_examples=80, deadline=None)
@given(tables(), quasi_identifiers, st.sampled_from(["diagnosis", "sex"]))
def test_01_4_solution_agrees_with_reference(table, columns, sensitive):
    columns = [c for c in columns if c != sensitive] or ["zip_code"]
    assert SOLUTIONS["homogeneity_exposure"](table.copy(), columns, sensitive) == pytest.approx(
        anonymity.homogeneity_exposure(table, columns, sensitive), abs=1e-12)


def test_edge_tables_of_the_checks_agree_on_a_large_table():
    """The checks' own edge tables (12,000 rows included): the solutions agree with the reference there too."""
    from mic_dp_helpers.checks import lesson01

    for table in lesson01._edge_tables(np.random.default_rng([101, 11])):
        for columns in (["zip_code", "age", "sex"], ["salary", "sex"]):
            assert SOLUTIONS["uniqueness_share"](table, columns) == anonymity.uniqueness_share(table, columns)
            assert SOLUTIONS["k_anonymity_level"](table, columns) == anonymity.k_anonymity(table, columns)
            assert SOLUTIONS["homogeneity_exposure"](table, columns[:-1] or columns, "diagnosis") == \
                anonymity.homogeneity_exposure(table, columns[:-1] or columns, "diagnosis")
