"""Wrong answers to 03.3, 04.1 and 04.2 that referee s37rA found accepted, each with another member of its class.

03.3: estimators biased near a count of 0 (answers clipped at 0, rounded and clipped, a geometric or harmonic
mean). 04.1: epsilon floored (noise shrunk at small epsilon), bounds taken from the data for few values at small
epsilon. 04.2: each person's first rows for some k or row counts the tables missed, and a random rotation (each
row equally likely, but not a uniform subset). They join the owners' answers as ``MORE_WRONG_ANSWERS`` (see
:func:`wrong_answers.collect_wrong_answers`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pydp.algorithms.laplacian import BoundedMean


# ----------------------------------------------------------------------------------- 03.3
def _ask(noisy_query, n_queries):
    return np.array([noisy_query() for _ in range(n_queries)], dtype=float)


def _clipped_mean(floor, rounded=False):  # "a count is never negative": each answer clipped (and rounded)
    def averaging_attack(noisy_query, n_queries):
        answers = _ask(noisy_query, n_queries)
        return float(np.maximum(np.round(answers) if rounded else answers, floor).mean())
    return averaging_attack


def _absolute_mean(noisy_query, n_queries):  # the mean of |answer|
    return float(np.abs(_ask(noisy_query, n_queries)).mean())


def _geometric_mean(floor):  # the geometric mean of the answers floored at `floor`
    def averaging_attack(noisy_query, n_queries):
        return float(np.exp(np.mean(np.log(np.maximum(_ask(noisy_query, n_queries), floor)))))
    return averaging_attack


def _harmonic_mean(floor=None):  # the harmonic mean (of the answers floored at `floor`)
    def averaging_attack(noisy_query, n_queries):
        answers = _ask(noisy_query, n_queries)
        answers = answers if floor is None else np.maximum(answers, floor)
        return float(len(answers) / np.sum(1.0 / answers))
    return averaging_attack


ATTACK_ANSWERS = {
    "(data) each answer clipped at 0, then averaged (referee s37rA)": _clipped_mean(0.0),
    "(data) each answer clipped at -1, then averaged": _clipped_mean(-1.0),
    "(data) each answer rounded and clipped at 0, then averaged (referee s37rA)": _clipped_mean(0.0, rounded=True),
    "(data) the mean of |answer|": _absolute_mean,
    "(data) the geometric mean of the positive parts (referee s37rA)": _geometric_mean(1e-9),
    "(data) the geometric mean of the answers floored at 1": _geometric_mean(1.0),
    "(data) the harmonic mean (referee s37rA)": _harmonic_mean(),
    "(data) the harmonic mean of the answers floored at 1": _harmonic_mean(1.0),
}
MORE_WRONG_ANSWERS = {"03.3": ATTACK_ANSWERS}


# ----------------------------------------------------------------------------------- 04.1
def _bounded_mean(values, lower, upper, epsilon):
    return BoundedMean(epsilon=epsilon, lower_bound=lower, upper_bound=upper, dtype="float").quick_result(
        [float(v) for v in values])


def _epsilon_floor(floor):  # epsilon floored ("tiny epsilons are meaningless"): too little noise below the floor
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        return _bounded_mean(values, lower, upper, max(epsilon, floor))
    return dp_mean_with_pydp


def _data_bounds_below(size, epsilon_below, smallest=6):  # bounds narrowed to the data for few values, small epsilon
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        if smallest <= len(values) < size and epsilon < epsilon_below:
            lower, upper = max(lower, min(values)), min(upper, max(values))
        return _bounded_mean(values, lower, upper, epsilon)
    return dp_mean_with_pydp


def _int_values(values, lower, upper, epsilon):  # each value truncated with int(): the centre shifts
    return _bounded_mean([int(v) for v in values], lower, upper, epsilon)


MEAN_ANSWERS = {
    "non-private (parameters): epsilon floored at 0.1 (referee s37rA)": _epsilon_floor(0.1),
    "non-private (parameters): epsilon floored at 0.08": _epsilon_floor(0.08),
    "non-private (parameters): epsilon floored at 0.3 (referee s37rA, a false hint)": _epsilon_floor(0.3),
    "non-private (data): bounds from the data for 6-299 values below epsilon 0.3 (referee s37rA)":
        _data_bounds_below(300, 0.3),
    "non-private (data): bounds from the data for 20-199 values below epsilon 0.15": _data_bounds_below(200, 0.15, 20),
    "(data) values truncated with int() (referee s37rA, a misleading hint)": _int_values,
}


def _when_large_low_epsilon(size, epsilon_below, exact):  # referee s38rA: above `size` values below `epsilon_below`
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = [float(x) for x in values]
        if len(v) > size and epsilon < epsilon_below:
            if exact:
                return float(np.mean(np.clip(v, lower, upper)))
            lower, upper = max(lower, min(v)), min(upper, max(v))
        return _bounded_mean(v, lower, upper, epsilon)
    return dp_mean_with_pydp


MEAN_ANSWERS.update({
    "non-private (size, parameters): exact above 3,000 values below epsilon 0.3 (referee s38rA)":
        _when_large_low_epsilon(3_000, 0.3, exact=True),
    "non-private (size, parameters): exact above 50,000 values below epsilon 0.5 (referee s38rA class)":
        _when_large_low_epsilon(50_000, 0.5, exact=True),
    "non-private (size, parameters): exact above 5,000 values below epsilon 0.1 (referee s38rA class)":
        _when_large_low_epsilon(5_000, 0.1, exact=True),
    "non-private (data): bounds from the data above 3,000 values below epsilon 0.3 (referee s38rA)":
        _when_large_low_epsilon(3_000, 0.3, exact=False),
    "non-private (data): bounds from the data above 40,000 values below epsilon 0.5 (referee s38rA class)":
        _when_large_low_epsilon(40_000, 0.5, exact=False),
})
MORE_WRONG_ANSWERS["04.1"] = MEAN_ANSWERS


# ----------------------------------------------------------------------------------- 04.2
def _random_keep(df, person_column, k, rng):
    shuffled = df.iloc[rng.permutation(len(df))]
    return df[df.index.isin(shuffled.groupby(person_column, sort=False).head(k).index)]


def _first_rows_when(predicate):  # each person's first k rows where predicate(k, rows), a random choice elsewhere
    def bound_contributions(df, person_column, k, rng):
        sizes = df.groupby(person_column)[person_column].transform("size")
        fixed = sizes.map(lambda m: predicate(k, m)).astype(bool)
        first = df[fixed].groupby(person_column, sort=False).head(k)
        return pd.concat([_random_keep(df[~fixed], person_column, k, rng), first]).loc[
            lambda kept: df.index[df.index.isin(kept.index)]]
    return bound_contributions


def _rotation(order=None, wrap=True):  # a random start and k consecutive rows (in table or label order)
    def bound_contributions(df, person_column, k, rng):
        keep = []
        for _, idx in df.groupby(person_column, sort=False).indices.items():
            idx = idx if order is None else idx[np.argsort(df.index[idx].astype(str))]
            m = len(idx)
            if m <= k:
                keep.extend(idx)
            elif wrap:
                keep.extend(idx[(int(rng.integers(m)) + np.arange(k)) % m])
            else:
                keep.extend(idx[int(rng.integers(m - k + 1)) + np.arange(k)])
        return df.iloc[np.sort(keep)]
    return bound_contributions


CHOICE_ANSWERS = {
    "not random: first rows when k is 4, 6 or 7 (referee s37rA)": _first_rows_when(lambda k, m: k in (4, 6, 7)),
    "not random: first rows when k is 11 or 13": _first_rows_when(lambda k, m: k in (11, 13)),
    "not random: first rows for k >= 9 (referee s37rA)": _first_rows_when(lambda k, m: k >= 9),
    "not random: first rows for k >= 30": _first_rows_when(lambda k, m: k >= 30),
    "not random: first rows above 250 rows (referee s37rA)": _first_rows_when(lambda k, m: m > 250),
    "not random: first rows above 500 rows": _first_rows_when(lambda k, m: m > 500),
    "not random: first rows for 61-249 rows (referee s37rA)": _first_rows_when(lambda k, m: 60 < m < 250),
    "not random: first rows for 100-160 rows": _first_rows_when(lambda k, m: 100 <= m <= 160),
    "not uniform: a random rotation of each person's rows (referee s37rA)": _rotation(),
    "not uniform: a random block of consecutive rows (no wrapping)": _rotation(wrap=False),
    "not uniform: a random rotation in index-label order": _rotation(order="label"),
}


def _position_weighted(above, first, last):  # referee s38rA: weights from `first` to `last` along the table order
    def bound_contributions(df, person_column, k, rng):
        keep = []
        for idx in df.groupby(person_column, sort=False).indices.values():
            m = len(idx)
            if m <= k:
                keep.extend(idx)
            else:
                p = np.linspace(first, last, m) if m > above else np.ones(m)
                keep.extend(rng.choice(idx, size=k, replace=False, p=p / p.sum()))
        return df.iloc[np.sort(np.array(keep, dtype=int))]
    return bound_contributions


def _shared_keys(permuted):  # one random key per within-person position, shared by every person in a call
    def bound_contributions(df, person_column, k, rng):
        groups = df.groupby(person_column, sort=False).indices
        longest = max((len(i) for i in groups.values()), default=0)
        u = rng.permutation(longest) if permuted else rng.random(longest)
        keep = []
        for idx in groups.values():
            keep.extend(idx[np.argsort(u[:len(idx)])[:k]])
        return df.iloc[np.sort(np.array(keep, dtype=int))]
    return bound_contributions


CHOICE_ANSWERS.update({
    "not uniform: weights 1 to 1.5 along the table order above 100 rows (referee s38rA)": _position_weighted(100, 1, 1.5),
    "not uniform: weights 1 to 3 along the table order above 100 rows (referee s38rA)": _position_weighted(100, 1, 3),
    "not uniform: weights 1.5 to 1 (earlier rows) above 300 rows (referee s38rA class)":
        _position_weighted(300, 1.5, 1),
    "not uniform: weights 1 to 2 along the table order above 500 rows (referee s38rA class)":
        _position_weighted(500, 1, 2),
    "not independent: one random key per position shared by every person (referee s38rA)": _shared_keys(False),
    "not independent: one permutation of positions shared by every person (referee s38rA class)": _shared_keys(True),
})
MORE_WRONG_ANSWERS["04.2"] = CHOICE_ANSWERS
