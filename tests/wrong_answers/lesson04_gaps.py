"""Wrong answers to 04.1 and 04.2 that referee s36rA found accepted, each with another member of its class.

04.1: exact, or bounds from the data, in epsilon-size regions the statistical cases do not reach. 04.2: choices
that are not at random (first rows of people with many rows, first rows for a large k, latest rows by a date,
weights by a visit column) and a choice by index label, which keeps extra rows when a label repeats. They join
lesson04's answers as ``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mic_dp_helpers.scale.pydp_tools import pydp_query
from wrong_answers.lesson04 import _exact_mean_when, _pydp_mean


# ----------------------------------------------------------------------------------- 04.1
def _bounds_from_data_when(predicate):  # bounds narrowed to the data's min and max where `predicate(n, epsilon)`
    def answer(values, lower, upper, epsilon):
        clamped = np.clip(np.asarray(values, dtype=float), lower, upper)
        low, high = float(clamped.min()), float(clamped.max())
        if predicate(len(clamped), epsilon) and high > low:
            return pydp_query("mean", clamped, epsilon, low, high)
        return _pydp_mean(values, lower, upper, epsilon)
    return answer


MEAN_ANSWERS = {
    "non-private (parameters): the exact mean below epsilon 0.3 with 6 values or more (referee s36rA)":
        _exact_mean_when(lambda n, e: e < 0.3 and n >= 6),
    "non-private (parameters): the exact mean below epsilon 0.1 with 20 values or more":
        _exact_mean_when(lambda n, e: e < 0.1 and n >= 20),
    "non-private (parameters): the exact mean for epsilon 0.15-0.3 and 500-2,500 values":
        _exact_mean_when(lambda n, e: 0.15 <= e < 0.3 and 500 <= n <= 2500),
    "non-private (data): bounds from the data below epsilon 0.3 with 6 values or more (referee s36rA)":
        _bounds_from_data_when(lambda n, e: e < 0.3 and n >= 6),
    "non-private (data): bounds from the data below epsilon 0.2 with 100 values or more":
        _bounds_from_data_when(lambda n, e: e < 0.2 and n >= 100),
    "non-private (parameters): the exact mean for epsilon 5-12 and 150-1,500 values (referee s36rA)":
        _exact_mean_when(lambda n, e: 5 < e <= 12 and 150 <= n <= 1500),
    "non-private (parameters): the exact mean above epsilon 5 for 300-1,500 values (referee s36rA)":
        _exact_mean_when(lambda n, e: e > 5 and 300 <= n <= 1500),
    "non-private (parameters): the exact mean for epsilon 12-20 and 400-1,800 values":
        _exact_mean_when(lambda n, e: 12 < e <= 20 and 400 <= n <= 1800),
    "non-private (parameters): the exact mean for epsilon 25-180 and 200-2,500 values":
        _exact_mean_when(lambda n, e: 25 < e <= 180 and 200 <= n <= 2500),
}

MORE_WRONG_ANSWERS = {"04.1": MEAN_ANSWERS}


# ----------------------------------------------------------------------------------- 04.2
def _random_keep(df, person_column, k, rng):
    shuffled = df.iloc[rng.permutation(len(df))]
    return shuffled.groupby(person_column, sort=False).head(k).sort_index()


def _first_rows_above(rows):  # each person's first k rows when they have more than `rows` rows (a speed-up)
    def answer(df, person_column, k, rng):
        sizes = df.groupby(person_column)[person_column].transform("size")
        big, small = df[sizes > rows], df[sizes <= rows]
        return pd.concat([_random_keep(small, person_column, k, rng), big.groupby(person_column).head(k)]).sort_index()
    return answer


def _first_rows_from_k(smallest_k):  # each person's first rows when k >= smallest_k, a random choice below
    def answer(df, person_column, k, rng):
        if k >= smallest_k:
            return df.groupby(person_column, sort=False).head(k)
        return _random_keep(df, person_column, k, rng)
    return answer


def _latest_rows(columns, earliest=False):  # each person's latest (earliest) k rows by a date column, if any
    def answer(df, person_column, k, rng):
        for column in columns:
            if column in df.columns:
                ordered = df.sort_values(column, kind="stable").groupby(person_column)
                chosen = ordered.head(k) if earliest else ordered.tail(k)
                return df.loc[df.index.isin(chosen.index)]
        return _random_keep(df, person_column, k, rng)
    return answer


def _weighted_by(columns, power=1.0):  # rows drawn with weights (column + 1) ** power, if the column exists
    def answer(df, person_column, k, rng):
        column = next((c for c in columns if c in df.columns), None)
        if column is None:
            return _random_keep(df, person_column, k, rng)
        keep = []
        for _, group in df.groupby(person_column, sort=False):
            weights = (group[column].to_numpy(dtype=float) + 1) ** power
            chosen = rng.choice(len(group), size=min(k, len(group)), replace=False, p=weights / weights.sum())
            keep.extend(group.index[chosen])
        return df.loc[df.index.isin(keep)]
    return answer


CHOICE_ANSWERS = {
    "not random: each person's first k rows above 60 rows (referee s36rA)": _first_rows_above(60),
    "not random: each person's first k rows above 100 rows (referee s36rA)": _first_rows_above(100),
    "not random: each person's first k rows above 150 rows": _first_rows_above(150),
    "not random: first rows when k >= 6 (referee s36rA)": _first_rows_from_k(6),
    "not random: first rows when k >= 8": _first_rows_from_k(8),
    "not random: each person's latest k rows by date (referee s36rA)": _latest_rows(("date", "day", "timestamp")),
    "not random: each person's earliest k rows by day": _latest_rows(("day",), earliest=True),
    "not random: later visits more likely (weights visit + 1, referee s36rA)": _weighted_by(("visit", "day")),
    "not random: later days more likely (weights (day + 1) ** 0.5)": _weighted_by(("day",), power=0.5),
}

MORE_WRONG_ANSWERS["04.2"] = CHOICE_ANSWERS
