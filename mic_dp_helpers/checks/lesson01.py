"""Checks for lesson 01 (anonymization fails). Each calls the student's function on tables it generates."""

from __future__ import annotations


import numpy as np
import pandas as pd

from mic_dp_helpers import anonymity
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number
from mic_dp_helpers.datasets import medical

QUASI_IDENTIFIER_SETS = (["zip_code"], ["age", "sex"], ["zip_code", "age", "sex"], ["zip_code", "age", "sex", "salary"])


def _tables() -> list[pd.DataFrame]:
    small = pd.DataFrame(
        {
            "age": [34, 34, 35, 61, 61, 61],
            "sex": ["F", "F", "M", "M", "M", "F"],
            "zip_code": ["02101", "02101", "02101", "13902", "13902", "13902"],
            "salary": [40_000, 52_000, 61_000, 38_000, 38_000, 90_000],
            "diagnosis": ["asthma", "asthma", "healthy", "hypertension", "hypertension", "healthy"],
        }
    )
    return [small, medical(300, random_state=11), medical(800, random_state=12)]


def _call_unchanged(answer, df: pd.DataFrame, *args):
    """Call the student's function on a copy of ``df`` and fail if it modified its input."""
    copy = df.copy()
    result = answer(copy, *args)
    if not copy.equals(df):
        raise CheckFailed("your function changed the table it was given; work on a copy or use groupby.")
    return result


@exercise("01.1", title="Share of people unique on their quasi-identifiers", answer_name="uniqueness_share")
def check_uniqueness_share(answer) -> None:
    for table in _tables():
        n_groups = {tuple(c): len(anonymity.equivalence_class_sizes(table, c)) for c in QUASI_IDENTIFIER_SETS}
        for columns in QUASI_IDENTIFIER_SETS:
            got = expect_number(_call_unchanged(answer, table, list(columns)), "a share")
            expected = anonymity.uniqueness_share(table, columns)
            if not 0 <= got <= 1:
                raise CheckFailed(f"a share lies between 0 and 1, but for columns {columns} you returned {got:.3g}.")
            if abs(got - expected) > 1e-9:
                if abs(got - n_groups[tuple(columns)] / len(table)) < 1e-9:
                    raise CheckFailed(
                        "you counted distinct combinations; count the people who share their combination "
                        "with nobody else."
                    )
                raise CheckFailed(
                    f"for columns {columns} on a table of {len(table)} people the share is off. Group the rows "
                    "by those columns and look at the size of each person's group."
                )


@exercise("01.2", title="Linkage attack: candidates matching what the attacker knows", answer_name="linkage_candidates")
def check_linkage_candidates(answer) -> None:
    rng = np.random.default_rng(2024)
    for table in _tables():
        released = table.drop(columns=[c for c in ("name",) if c in table.columns])
        for position in rng.choice(len(released), size=min(5, len(released)), replace=False):
            target = released.iloc[position]
            low, high = int(target["salary"]), int(target["salary"]) + 10_000  # the target sits on the bound
            got = _call_unchanged(answer, released, int(target["age"]), str(target["zip_code"]), low, high)
            if not isinstance(got, pd.DataFrame):
                raise CheckFailed(f"it should return the matching rows as a DataFrame, not a {type(got).__name__}.")
            expected = anonymity.matching_records(
                released, age=int(target["age"]), zip_code=str(target["zip_code"]), salary=(low, high)
            )
            if sorted(got.index) != sorted(expected.index):
                if set(got.index) < set(expected.index):
                    raise CheckFailed("some matching people are missing; are both ends of the salary range included?")
                if set(got.index) > set(expected.index):
                    raise CheckFailed("you return people who do not match everything the attacker knows.")
                raise CheckFailed("the rows you return are not the matching ones; keep the table's original index.")


@exercise("01.3", title="k-anonymity of a table", answer_name="k_anonymity_level")
def check_k_anonymity_level(answer) -> None:
    for table in _tables():
        for columns in QUASI_IDENTIFIER_SETS:
            for coarse in (table, anonymity.generalize(table, age_band=10, zip_digits=3)):
                got = expect_number(_call_unchanged(answer, coarse, list(columns)), "k")
                expected = anonymity.k_anonymity(coarse, columns)
                if got != expected:
                    if got == anonymity.equivalence_class_sizes(coarse, columns).max():
                        raise CheckFailed("k is set by the worst-protected person, not the best-protected one.")
                    raise CheckFailed(
                        f"for quasi-identifiers {columns} your k is off. k-anonymity is about the groups of "
                        "people who look identical on those columns."
                    )


@exercise("01.4", title="Homogeneity attack: who is exposed despite k-anonymity", answer_name="homogeneity_exposure")
def check_homogeneity_exposure(answer) -> None:
    for table in _tables():
        coarse = anonymity.generalize(table, age_band=10, zip_digits=3)
        for columns in (["zip_code", "age", "sex"], ["zip_code", "age"], ["zip_code"]):
            got = expect_number(_call_unchanged(answer, coarse, list(columns), "diagnosis"), "a share")
            expected = anonymity.homogeneity_exposure(coarse, columns, "diagnosis")
            if abs(got - expected) > 1e-9:
                n_classes = len(anonymity.equivalence_class_sizes(coarse, columns))
                share_of_classes = len(anonymity.homogeneous_classes(coarse, columns, "diagnosis")) / n_classes
                if abs(got - share_of_classes) < 1e-9:
                    raise CheckFailed("you returned a share of groups; the question asks for a share of people.")
                raise CheckFailed(
                    f"for quasi-identifiers {columns} the share is off. A person is exposed when every member "
                    "of their group has the same diagnosis."
                )
