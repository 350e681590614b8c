"""04.2's uniform-choice test on tables of people with several row counts, for several k (referees s35rca, s36rA).

Uniform choice of a person's rows was tested only with k = 2 and people of exactly 7 rows: each person's first
rows for k = 1, for k >= 3, for people with more than 7 or 20 rows, or with a non-integer index, passed. Power:
``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import scipy.stats

from mic_dp_helpers.checks import _choice_agreement, _choice_subsets, _core
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly

_default_rng = np.random.default_rng
_binom_sf = scipy.stats.binom.sf
_binom_cdf = scipy.stats.binom.cdf
_gamma_isf = scipy.stats.gamma.isf
_abs = np.abs
_len = len


#: 04.2's mixed tables: MIXED_PEOPLE[i] people with MIXED_ROWS[i] rows each, rows shuffled, a string index,
#: MIXED_CALLS calls for each k in MIXED_KS. Each (row count, position) is kept in Binomial(1,200 (400 for 250
#: rows), min(k, m) / m)
#: person-calls; a two-sided binomial p-value below MIXED_P fails (5 k x 340 positions x 2 sides: 3.4e-6 in all).
MIXED_ROWS, MIXED_PEOPLE, MIXED_CALLS, MIXED_KS, MIXED_P = (3, 7, 20, 60, 250), (30, 30, 30, 30, 10), 40, (
    1, 2, 3, 5, 8), 1e-9
#: Each person's row count, by person number.
MIXED_PEOPLE_ROWS = np.repeat(MIXED_ROWS, MIXED_PEOPLE)
#: Per-row test: each row is kept in Binomial(MIXED_CALLS, min(k, m) / m) calls; the mean of the squared
#: standardized counts over a row count's rows (1 for a random choice) above its Gamma approximation's
#: ROW_P quantile fails (shape 1 / v, v an upper bound on its variance, see :func:`_row_dispersion_limit`).
ROW_P = 1e-7


def _mixed_table(seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """(table, row count of each row's person, each row's position among its person's rows in table order)."""
    rng = _default_rng([seed, 44])
    rows_of = MIXED_PEOPLE_ROWS  # each person's row count
    person = rng.permutation(np.repeat(np.arange(_len(rows_of)), rows_of))
    frame = pd.DataFrame({"person": person})
    position, size = frame.groupby("person").cumcount().to_numpy(), rows_of[person]
    frame.insert(0, "amount", 2.0 ** position * (1 + person / 1000))  # values double with the position
    # A date, a visit number and a day in an order unrelated to the table's (referee s36rA: each person's latest
    # rows by date, or rows weighted by their visit number, passed): a choice by them is not random per row.
    frame["date"] = pd.Timestamp("2025-01-01") + pd.to_timedelta(rng.permutation(_len(frame)), unit="h")
    frame["visit"] = frame.groupby("person")["date"].rank(method="first").astype(int) - 1
    frame["day"] = rng.integers(1, 366, _len(frame))
    frame.index = [f"row-{i}" for i in rng.permutation(_len(frame))]
    return frame, size, position


def _people(m: int) -> int:
    return MIXED_PEOPLE[MIXED_ROWS.index(m)]


def _row_dispersion_limit(m: int, k: int) -> float:
    """The largest mean squared standardized count of the rows of people with ``m`` rows that a random choice
    of ``k`` reaches with probability about ``ROW_P`` (Gamma approximation).

    The variance of one squared count is 2 + (1 - 6 p q) / (C p q) (binomial, p = k / m, q = 1 - p, C calls);
    a person's m counts are correlated (-1 / (m - 1)), which multiplies it by at most m / (m - 1). Simulated
    (3,000 tables each): the standard deviation of the mean stays at or below this bound's square root.

    Parameters
    ----------
    m, k : int
        The row count and the rows kept.

    Returns
    -------
    float
        The limit (about 1 + 5.3 standard deviations).
    """
    p = k / m
    pq = p * (1 - p)
    variance = (2 + (1 - 6 * pq) / (MIXED_CALLS * pq)) * m / (m - 1) / (_people(m) * m)
    return float(_gamma_isf(ROW_P, 1 / variance, scale=variance))


def _check_each_row_random(kept: np.ndarray, size: np.ndarray, k: int) -> None:
    """Every row count's rows: each kept in about min(k, m) / m of the calls, not some always and others never.

    Raises
    ------
    CheckFailed
        If the kept counts of single rows vary more than a random choice lets them.
    """
    for m in MIXED_ROWS:
        share = min(k, m) / m
        if share >= 1:
            continue
        z = (kept[size == m] - MIXED_CALLS * share) / (MIXED_CALLS * share * (1 - share)) ** 0.5
        dispersion = float((z * z).mean())
        if dispersion > _row_dispersion_limit(m, k):
            raise CheckFailed(f"with k={k}, people with {m} rows (a table with a date, a visit number and a day): "
                              f"single rows are kept in {MIXED_CALLS} calls far more unevenly than a random choice "
                              f"keeps them ({dispersion:.2f} times the spread, at most "
                              f"{_row_dispersion_limit(m, k):.2f} allowed): some rows are kept almost always and others "
                              "almost never (for example each person's latest rows, or rows weighted by a column). "
                              "Choose each person's rows uniformly at random, using rng (property: uniform choice).")


def check_mixed_choice(answer, k: int, seed: int, check_module) -> None:
    """``MIXED_CALLS`` calls with ``k`` on :func:`_mixed_table`: each row count's positions kept min(k, m) / m.

    Parameters
    ----------
    answer : callable
        The student's ``bound_contributions``.
    k : int
        Rows kept per person.
    seed : int
        The check's seed (the table and the generator come from it).
    check_module : module
        The calling check's module (watched during the calls).

    Raises
    ------
    CheckFailed
        If a position of some row count is kept more or less often than a uniform choice allows.
    """
    given, size, position = _mixed_table(seed)
    outputs = _core.student_call("04.2", check_module, call_repeatedly, answer, MIXED_CALLS, given, "person", k,
                                 _default_rng([seed, 44, k]), extra_modules=(sys.modules[__name__],))
    if not given.equals(_mixed_table(seed)[0]):
        raise CheckFailed("your function changed the table it was given; return a new table instead.")
    person = given["person"].to_numpy()
    hashes, _, kept = _choice_subsets.kept_hashes(outputs, given.index, person, _len(MIXED_PEOPLE_ROWS), seed)
    for m in MIXED_ROWS:
        counts, trials, share = (np.bincount(position[size == m], weights=kept[size == m], minlength=m),
                                 MIXED_CALLS * _people(m), min(k, m) / m)
        low, high = _binom_cdf(counts, trials, share), _binom_sf(counts - 1, trials, share)
        if share < 1 and min(low.min(), high.min()) < MIXED_P:
            worst = int(np.argmax(_abs(counts / trials - share)))
            raise CheckFailed(f"with k={k}, people with {m} rows (a table of people with 3, 7, 20, 60 and 250 rows, a "
                              f"text index): their row {worst + 1} (in table order) is kept in "
                              f"{counts[worst] / trials:.1%} of calls, where a random choice keeps each row in "
                              f"{share:.1%} (property: uniform choice, whatever k, the row count or the index). "
                              "Choose each person's rows at random, using rng.")
    _check_each_row_random(kept, size, k)
    _choice_subsets.check_subsets_uniform(hashes, MIXED_PEOPLE_ROWS, MIXED_ROWS, k, MIXED_CALLS)
    rows = _choice_subsets.kept_rows(outputs, given.index)
    for m in MIXED_ROWS:  # any dependence between people of one row count (referee s39rE D3)
        x, orders = _choice_agreement.person_indicators(rows, person, position, size, m)
        _choice_agreement.check_people_independent(x, k, orders, f"with k={k} (a table of people with 3, 7, 20, 60 "
                                                                 "and 250 rows, rows shuffled)")
