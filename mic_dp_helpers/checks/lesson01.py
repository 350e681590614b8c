"""Checks for lesson 01 (anonymization fails). Each calls the student's function on tables it generates.

Tables come from a generator seeded with ``seed`` (fixed by default): a hand-made table, a
single-row table, tables of random size (2 to 900 rows) with their columns in shuffled order
and a shuffled, non-default index, generalized versions of them, and quasi-identifier lists
in random order and length; and the edge cases (``_edge_tables``): values holding separators
("|", "_", " ") so that keys joined as text collide, NaN in the columns that are not asked
about, int8, int32 and float32 columns, and 12,000 rows. The course's own functions
(``mic_dp_helpers.attacks.anonymity``) refuse to run while the student's function runs; the expected
answer is computed after it returns.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
import pandas as pd

from mic_dp_helpers.attacks import anonymity
from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number
from mic_dp_helpers.datasets import medical

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_abs = abs
_sorted = sorted
_len = len
_set = set
_isinstance = isinstance
SEED = 101
QUASI_IDENTIFIER_SETS = (["zip_code"], ["age", "sex"], ["zip_code", "age", "sex"], ["zip_code", "age", "sex", "salary"])
_ANONYMITY = tuple(f"mic_dp_helpers.attacks.anonymity:{name}" for name in
                   ("uniqueness_share", "matching_records", "equivalence_class_sizes", "k_anonymity",
                    "homogeneous_classes", "homogeneity_exposure", "generalize", "smallest_generalization"))
for _id in ("01.1", "01.2", "01.3", "01.4"):
    _core.FORBIDDEN[_id] = _ANONYMITY


def _qi_sets(seed: int) -> list[list[str]]:
    rng = _default_rng([seed, 7])
    pool = ["zip_code", "age", "sex", "salary"]
    random_sets = [[pool[i] for i in rng.permutation(4)[: int(rng.integers(1, 5))]] for _ in range(3)]
    return [list(c) for c in QUASI_IDENTIFIER_SETS] + random_sets


def _qi_sets_for(seed: int, index: int) -> list[list[str]]:
    """The column lists tried on table ``index``: all of them, but only [zip_code, age, sex] on the last (large)
    table, to keep the check fast."""
    return _qi_sets(seed) if index < _len(_table_bank(seed)) - 1 else [["zip_code", "age", "sex"]]


def _fixed_tables() -> list[pd.DataFrame]:
    small = pd.DataFrame(
        {
            "age": [34, 34, 35, 61, 61, 61],
            "sex": ["F", "F", "M", "M", "M", "F"],
            "zip_code": ["02101", "02101", "02101", "13902", "13902", "13902"],
            "salary": [40_000, 52_000, 61_000, 38_000, 38_000, 90_000],
            "diagnosis": ["asthma", "asthma", "healthy", "hypertension", "hypertension", "healthy"],
        }
    )
    return [small, medical(300, rng=11)]


def _tables(seed: int = SEED) -> list[pd.DataFrame]:
    """Fresh copies of the tables of ``seed`` (built once per seed)."""
    return [table.copy() for table in _table_bank(seed)]


def _table(seed: int, index: int) -> pd.DataFrame:
    """A fresh copy of table ``index`` of ``seed`` (copying only that one: the bank holds 12,000 rows)."""
    return _table_bank(seed)[index].copy()


@functools.lru_cache(maxsize=4)
def _table_bank(seed: int) -> tuple[pd.DataFrame, ...]:
    rng = _default_rng(seed)
    tables = _fixed_tables() + [medical(1, rng=int(rng.integers(0, 2**31)))]
    for _ in range(2):
        table = medical(int(rng.integers(2, 900)), rng=int(rng.integers(0, 2**31)))
        table = table[[table.columns[i] for i in rng.permutation(_len(table.columns))]]
        table.index = rng.permutation(np.arange(10, 10 + 7 * _len(table), 7))
        tables.append(table)
    return tuple(tables) + _edge_tables(_default_rng([seed, 11]))


#: Separators a student may join a row's values with to build one text key.
_SEPARATORS = ("|", "_", " ", "")


def _separator_table(rng, sep: str) -> pd.DataFrame:
    """Every row of a random table three times, plus two people who differ, but whose values joined as text
    with ``sep`` are equal in every column order (zip code "1|1" and sex "1", zip code "1" and sex "1|1", age and
    salary 1): they are the only unique people, with different diagnoses."""
    base = medical(40, rng=int(rng.integers(0, 2**31)))
    table = pd.concat([base] * 3, ignore_index=True)
    pair = pd.DataFrame({"name": ["Ann One", "Bea One"], "age": [1, 1], "sex": ["1", f"1{sep}1"],
                         "zip_code": [f"1{sep}1", "1"], "salary": [1, 1], "diagnosis": ["asthma", "healthy"],
                         "rare_disease": [False, False]})
    table = pd.concat([table, pair.astype(table.dtypes.to_dict())], ignore_index=True)
    table.index = rng.permutation(np.arange(3, 3 + 2 * _len(table), 2))
    return table.iloc[rng.permutation(_len(table))]


def _edge_tables(rng) -> tuple[pd.DataFrame, ...]:
    """The edge cases the exercises' text allows: separators inside the values, NaN in the other columns
    (name, rare_disease), integer and float32 dtypes, and a table of 12,000 rows (shuffled index)."""
    separators = tuple(_separator_table(rng, sep) for sep in _SEPARATORS)
    missing = medical(300, rng=int(rng.integers(0, 2**31)))
    missing["name"] = missing["name"].where(rng.random(300) > 0.3)
    missing["rare_disease"] = missing["rare_disease"].astype(object).where(rng.random(300) > 0.5)
    small_ints = medical(250, rng=int(rng.integers(0, 2**31))).astype({"age": np.int8, "salary": np.float32})
    floats = medical(250, rng=int(rng.integers(0, 2**31))).astype({"age": np.float32, "salary": np.int32})
    large = medical(12_000, rng=int(rng.integers(0, 2**31)))
    large.index = rng.permutation(np.arange(5, 5 + 3 * 12_000, 3))
    return (*separators, missing, small_ints, floats, large)


def _call_unchanged(exercise_id, answer, df: pd.DataFrame, *args):
    """Call the student's function on a copy of ``df`` and fail if it modified its input."""
    copy = df.copy()
    result = _core.student_call(exercise_id, _THIS, answer, copy, *args, extra_modules=(anonymity,))
    if not copy.equals(df):
        raise CheckFailed("your function changed the table it was given; work on a copy or use groupby.")
    return result


@exercise("01.1", title="Share of people unique on their quasi-identifiers", answer_name="uniqueness_share")
def check_uniqueness_share(answer, seed: int = SEED) -> None:
    """A correct answer returns the share of rows whose combination of the given columns appears in no
    other row (a number in [0, 1]), without changing the table, on tables from ``seed`` (one row, up to
    900 rows, shuffled columns and index, and the edge tables: separators inside the values, NaN in other
    columns, int8/int32/float32 columns, 12,000 rows) and column lists of every length in random order.

    Parameters
    ----------
    answer : callable
        The student's ``uniqueness_share`` (exercise 01.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_table_bank(seed))):
        for columns in _qi_sets_for(seed, index):
            got = expect_number(_call_unchanged("01.1", answer, _table(seed, index), list(columns)), "a share")
            table = _table(seed, index)
            expected = anonymity.uniqueness_share(table, columns)
            if not 0 <= got <= 1:
                raise CheckFailed(f"a share lies between 0 and 1, but for columns {columns} you returned {got:.3g}.")
            if _abs(got - expected) > 1e-9:
                n_groups = _len(anonymity.equivalence_class_sizes(table, columns))
                if _abs(got - n_groups / _len(table)) < 1e-9:
                    raise CheckFailed("you counted distinct combinations; count the people who share their combination "
                                      "with nobody else.")
                if _len(columns) > 1 and _abs(got - anonymity.uniqueness_share(table, columns[:1])) < 1e-9:
                    raise CheckFailed(f"for columns {columns} you used only the first column; a person is unique on "
                                      "the combination of all the columns given.")
                raise CheckFailed(f"for columns {columns} on a table of {_len(table)} people the share is off. Group the "
                                  "rows by those columns and look at the size of each person's group.")


def _near_misses(target: pd.Series, low: int, high: int) -> list[pd.Series]:
    """Copies of ``target`` that miss what the attacker knows by one attribute, by as little as possible:
    age one year off, a zip code in the same 3-digit area, a salary one below or above the range."""
    zip_code = str(target["zip_code"])
    rows = []
    for column, value in (("age", int(target["age"]) + 1), ("age", int(target["age"]) - 1),
                          ("zip_code", zip_code[:-1] + str((int(zip_code[-1]) + 1) % 10)),
                          ("salary", low - 1), ("salary", high + 1)):
        row = target.copy()
        row[column] = value
        rows.append(row)
    return rows


def _linkage_targets(seed: int, index: int):
    """The released table (with near misses of every target mixed in) and the attacker's targets (a fresh copy)."""
    released, picks = _linkage_bank(seed, index)
    return released.copy(), list(picks)


@functools.lru_cache(maxsize=16)
def _linkage_bank(seed: int, index: int):
    rng = _default_rng([seed, index, 2])
    released = _table(seed, index).drop(columns=["name"], errors="ignore")
    picks, decoys = [], []
    positions = rng.choice(_len(released), size=min(5, _len(released)), replace=False)
    incomplete = np.flatnonzero(released.isna().any(axis=1).to_numpy())
    if _len(incomplete) and not _set(positions) & _set(incomplete):  # a target with NaN in another column
        positions[0] = int(rng.choice(incomplete))
    for position in positions:
        target = released.iloc[int(position)]
        width = int(rng.choice([0, 100, 5_000, 10_000, int(rng.integers(1, 40_000))]))
        salary = int(target["salary"])
        # The target sits exactly on the lower bound, the upper bound or inside the range.
        low = [salary, salary - width, salary - width // 2][int(rng.integers(0, 3))]
        picks.append((int(target["age"]), str(target["zip_code"]), low, low + width))
        decoys.extend(_near_misses(target, low, low + width))
    if _len(released) > 1:  # the single-row table stays a single row
        extra = pd.DataFrame(decoys).astype(released.dtypes.to_dict())
        extra.index = int(max(released.index)) + 1 + np.arange(_len(extra))
        released = pd.concat([released, extra])
        released = released.iloc[rng.permutation(_len(released))]
    return released, tuple(picks)


@exercise("01.2", title="Linkage attack: candidates matching what the attacker knows", answer_name="linkage_candidates")
def check_linkage_candidates(answer, seed: int = SEED) -> None:
    """A correct answer returns, as a DataFrame with the table's original index, every column and the
    original values, exactly the rows whose age and zip code equal the given ones and whose salary lies
    in [low, high], both ends included, for targets from ``seed`` sitting exactly on the lower bound, on
    the upper bound or inside, with ranges of width 0 to 40,000, on tables with shuffled columns and
    index (one of them a single row, and the edge tables, one target having NaN in another column). Each
    table also holds near misses of every target (age one year off, a zip code in the same 3-digit area, a
    salary one outside the range), which must not match.

    Parameters
    ----------
    answer : callable
        The student's ``linkage_candidates`` (exercise 01.2).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_table_bank(seed))):
        for pick in range(_len(_linkage_targets(seed, index)[1])):
            released, picks = _linkage_targets(seed, index)
            got = _call_unchanged("01.2", answer, released, *picks[pick])
            if not _isinstance(got, pd.DataFrame):
                raise CheckFailed(f"it should return the matching rows as a DataFrame, not a {type(got).__name__}.")
            released, picks = _linkage_targets(seed, index)
            age, zip_code, low, high = picks[pick]
            expected = anonymity.matching_records(released, age=age, zip_code=zip_code, salary=(low, high))
            if _sorted(got.index) != _sorted(expected.index):
                if _set(got.index) < _set(expected.index):
                    raise CheckFailed("some matching people are missing; are both ends of the salary range included "
                                      "(property: boundaries)?")
                if _set(got.index) > _set(expected.index):
                    raise CheckFailed("you return people who do not match everything the attacker knows: the age and "
                                      "the zip code must be equal to the known ones (not close to them), and the salary "
                                      "must lie in [low, high] (property: exact match).")
                raise CheckFailed("the rows you return are not the matching ones; keep the table's original index.")
            if list(got.columns) != list(released.columns) or not got.equals(released.loc[got.index]):
                raise CheckFailed("return the matching rows as they are in the table: every column, in its order, "
                                  "with the original values (property: real rows).")


@exercise("01.3", title="k-anonymity of a table", answer_name="k_anonymity_level")
def check_k_anonymity_level(answer, seed: int = SEED) -> None:
    """A correct answer returns the size of the smallest group of rows sharing all the quasi-identifiers
    (k = 1 for a single row), on the tables from ``seed`` and their generalizations (10-year age bands,
    3-digit zip codes), edge tables included, for quasi-identifier lists of every length in random order.

    Parameters
    ----------
    answer : callable
        The student's ``k_anonymity_level`` (exercise 01.3).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_table_bank(seed))):
        for columns in _qi_sets_for(seed, index):
            for coarse_level in (0, 1):
                table = _table(seed, index)
                coarse = table if not coarse_level else anonymity.generalize(table, age_band=10, zip_digits=3)
                del table
                got = expect_number(_call_unchanged("01.3", answer, coarse, list(columns)), "k")
                table = _table(seed, index)
                coarse = table if not coarse_level else anonymity.generalize(table, age_band=10, zip_digits=3)
                expected = anonymity.k_anonymity(coarse, columns)
                if got != expected:
                    if got == anonymity.equivalence_class_sizes(coarse, columns).max():
                        raise CheckFailed("k is set by the worst-protected person, not the best-protected one.")
                    raise CheckFailed(f"for quasi-identifiers {columns} your k is off. k-anonymity is about the groups "
                                      "of people who look identical on those columns.")


def _exposure_table(seed: int, index: int) -> pd.DataFrame:
    """Table ``index`` of ``seed`` generalized (10-year age bands, 3-digit zip codes), except the separator
    tables, which generalization would break apart, passed as they are."""
    table = _table(seed, index)
    after = _len(_table_bank(seed)) - index  # the separator tables come just before the 4 other edge tables
    if 4 < after <= 4 + _len(_SEPARATORS):
        return table
    return anonymity.generalize(table, age_band=10, zip_digits=3)


@exercise("01.4", title="Homogeneity attack: who is exposed despite k-anonymity", answer_name="homogeneity_exposure")
def check_homogeneity_exposure(answer, seed: int = SEED) -> None:
    """A correct answer returns the share of people whose whole equivalence class has one value of the
    sensitive column, on generalized tables from ``seed`` (a single row included, the sensitive column
    anywhere among the shuffled columns) for several quasi-identifier lists, and also with ``sex`` as the
    sensitive column (so an answer tied to "diagnosis" fails); on the edge tables too (the separator tables
    as they are: generalizing would merge their two unique people).

    Parameters
    ----------
    answer : callable
        The student's ``homogeneity_exposure`` (exercise 01.4).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_table_bank(seed))):
        for columns, sensitive in ((["zip_code", "age", "sex"], "diagnosis"), (["zip_code", "age"], "diagnosis"),
                                   (["zip_code"], "diagnosis"), (["age", "zip_code"], "sex")):
            coarse = _exposure_table(seed, index)
            got = expect_number(_call_unchanged("01.4", answer, coarse, list(columns), sensitive), "a share")
            coarse = _exposure_table(seed, index)
            expected = anonymity.homogeneity_exposure(coarse, columns, sensitive)
            if _abs(got - expected) > 1e-9:
                n_classes = _len(anonymity.equivalence_class_sizes(coarse, columns))
                share_of_classes = _len(anonymity.homogeneous_classes(coarse, columns, sensitive)) / n_classes
                if _abs(got - share_of_classes) < 1e-9:
                    raise CheckFailed("you returned a share of groups; the question asks for a share of people.")
                raise CheckFailed(f"for quasi-identifiers {columns} and sensitive column {sensitive!r} the share is "
                                  "off. A person is exposed when every member of their group has the same value of "
                                  "the sensitive column.")
