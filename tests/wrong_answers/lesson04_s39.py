"""Wrong answers to 04.1 and 04.2 that referee s39rA found accepted (04.1: data with few distinct values, data
beyond one bound, epsilon below 0.015; 04.2: choices uniform per person but tied between people), each with more
members of its class. They join the owners' answers as
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

from __future__ import annotations

import numpy as np
from pydp.algorithms.laplacian import BoundedMean

MORE_WRONG_ANSWERS: dict = {}


def _bounded_mean(values, lower, upper, epsilon):
    return BoundedMean(epsilon=epsilon, lower_bound=lower, upper_bound=upper, dtype="float").quick_result(
        [float(v) for v in values])


def _exact_when(condition):  # the exact clamped mean whenever `condition(values, lower, upper, epsilon)` holds
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        if condition(v, lower, upper, epsilon):
            return float(np.mean(np.clip(v, lower, upper)))
        return _bounded_mean(values, lower, upper, epsilon)
    return dp_mean_with_pydp


def _data_bounds_when(most_distinct):  # bounds narrowed to the data when it takes at most `most_distinct` values
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        if len(np.unique(v)) <= most_distinct:
            low, high = float(max(lower, v.min())), float(min(upper, v.max()))
            if high > low:
                return _bounded_mean(values, low, high, epsilon)
            return float(np.clip(v[0], lower, upper))
        return _bounded_mean(values, lower, upper, epsilon)
    return dp_mean_with_pydp


def _whole_few(v, lower, upper, epsilon, most=3):
    return len(v) >= 10 and bool(np.all(v == np.round(v))) and len(np.unique(v)) <= most


MORE_WRONG_ANSWERS["04.1"] = {
    "non-private (data): exact when every value is the same (referee s39rA)":
        _exact_when(lambda v, lo, hi, e: len(v) > 1 and np.ptp(v) == 0),
    "non-private (data): exact when all values are equal after clamping":
        _exact_when(lambda v, lo, hi, e: len(v) > 1 and np.ptp(np.clip(v, lo, hi)) == 0),
    "non-private (data): exact for whole numbers with at most 3 distinct values (referee s39rA)":
        _exact_when(_whole_few),
    "non-private (data): exact for at most 5 distinct values":
        _exact_when(lambda v, lo, hi, e: len(np.unique(v)) <= 5),
    "non-private (data): exact for 0/1 answers": _exact_when(lambda v, lo, hi, e: bool(np.isin(v, (0.0, 1.0)).all())),
    "non-private (data): bounds from the data for at most 2 distinct values (referee s39rA)": _data_bounds_when(2),
    "non-private (data): bounds from the data for at most 3 distinct values": _data_bounds_when(3),
    "non-private (data): the bound itself when every value is beyond it (referee s39rA)":
        _exact_when(lambda v, lo, hi, e: len(v) > 1 and bool(np.all(v >= hi) or np.all(v <= lo))),
    "non-private (data): exact when most values are beyond one bound":
        _exact_when(lambda v, lo, hi, e: bool(np.mean(v >= hi) > 0.9 or np.mean(v <= lo) > 0.9)),
    "non-private (parameters): exact below epsilon 0.015 (referee s39rA)":
        _exact_when(lambda v, lo, hi, e: e < 0.015 and len(v) > 5),
    "non-private (parameters): exact below epsilon 0.005": _exact_when(lambda v, lo, hi, e: e < 0.005),
}


def _epsilon_times_when(factor, condition):  # epsilon multiplied (less noise) when `condition` holds
    def dp_mean_with_pydp(values, lower, upper, epsilon):
        v = np.asarray(values, dtype=float)
        return _bounded_mean(values, lower, upper, epsilon * factor if condition(v) else epsilon)
    return dp_mean_with_pydp


def _whole_levels(v, low, high):
    levels = np.unique(v)
    return low <= len(levels) <= high and bool(np.all(levels == np.round(levels)))


def _data_bounds_for_levels(values, lower, upper, epsilon):  # bounds narrowed to whole-number data of 4-10 levels
    v = np.asarray(values, dtype=float)
    if _whole_levels(v, 4, 10):
        return _bounded_mean(values, max(lower, v.min()), min(upper, v.max()), epsilon)
    return _bounded_mean(values, lower, upper, epsilon)


def _unit_bounds_for_01(values, lower, upper, epsilon):  # bounds [0, 1] forced on 0/1 data from 200 values
    v = np.asarray(values, dtype=float)
    if len(v) >= 200 and bool(np.isin(v, (0.0, 1.0)).all()):
        return _bounded_mean(values, 0.0, 1.0, epsilon)
    return _bounded_mean(values, lower, upper, epsilon)


MORE_WRONG_ANSWERS["04.1"].update({
    "non-private (data): the bound itself when every value is strictly beyond it (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: bool(np.all(v > hi) or np.all(v < lo))),
    "non-private (size, data): exact for constant data from 1,000 values (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: len(v) >= 1000 and np.ptp(v) == 0),
    "non-private (parameters, data): exact for 0/1 data from epsilon 1 (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: e >= 1 and bool(np.isin(v, (0.0, 1.0)).all())),
    "non-private (data): exact for 4-7 whole-number levels (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: _whole_levels(v, 4, 7)),
    "non-private (data): exact for constant data on a bound (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: np.ptp(np.clip(v, lo, hi)) == 0 and np.clip(v, lo, hi)[0] in (lo, hi)),
    "non-private (data): bounds from the data for 4-10 whole-number levels (referee s39rE)": _data_bounds_for_levels,
    "non-private (data): exact for two values other than 0/1 (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: len(np.unique(v)) == 2 and not set(np.unique(v).tolist()) <= {0.0, 1.0}),
    "non-private (parameters, data): exact for constant data from epsilon 0.5 (referee s39rE)":
        _exact_when(lambda v, lo, hi, e: e >= 0.5 and np.ptp(v) == 0),
    "non-private (size, data): bounds [0, 1] forced on 0/1 data from 200 values (referee s39rE)": _unit_bounds_for_01,
    "non-private (parameters): exact below epsilon 0.002 (referee s39rE)": _exact_when(lambda v, lo, hi, e: e < 0.002),
    "non-private (data): twice epsilon for at most 3 distinct values (referee s39rE)":
        _epsilon_times_when(2, lambda v: len(np.unique(v)) <= 3),
    "non-private (data): three times epsilon for at most 3 distinct values (referee s39rE)":
        _epsilon_times_when(3, lambda v: len(np.unique(v)) <= 3),
})


# ----------------------------------------------------------------------------------- 04.2
def _pairs_shared(df, person_column, k, rng):
    keep = []; last = None
    for j, (p, idx) in enumerate(df.groupby(person_column, sort=False).indices.items()):
        m = len(idx)
        if m <= k:
            keep.extend(idx); continue
        if j % 2 == 0 or last is None or last[0] != m:
            last = (m, rng.choice(m, size=k, replace=False))
        keep.extend(idx[last[1]])
    return df.iloc[np.sort(np.array(keep, dtype=int))]
def _antithetic(df, person_column, k, rng):
    keep = []; last = None
    for j, (p, idx) in enumerate(df.groupby(person_column, sort=False).indices.items()):
        m = len(idx)
        if m <= k:
            keep.extend(idx); continue
        if last is not None and last[0] == m and j % 2 == 1:
            pos = m - 1 - last[1]
        else:
            pos = rng.choice(m, size=k, replace=False)
        last = (m, pos)
        keep.extend(idx[pos])
    return df.iloc[np.sort(np.array(keep, dtype=int))]
def _shared_every_third(df, person_column, k, rng):  # class member: people j and j+3 (mod 6 blocks) share a draw
    keep = []; memo = {}
    for j, (p, idx) in enumerate(df.groupby(person_column, sort=False).indices.items()):
        m = len(idx)
        if m <= k:
            keep.extend(idx); continue
        key = (m, j // 6, j % 3)
        if key not in memo:
            memo[key] = rng.choice(m, size=k, replace=False)
        keep.extend(idx[memo[key]])
    return df.iloc[np.sort(np.array(keep, dtype=int))]


MORE_WRONG_ANSWERS["04.2"] = {
    "not independent: consecutive people share one draw (referee s39rA)": _pairs_shared,
    "not independent: every second person keeps the mirror image of the previous one's rows (referee s39rA)":
        _antithetic,
    "not independent: people three apart within blocks of six share one draw": _shared_every_third,
}

# Stop 40: exact for one count of distinct values only (the kind "two to eight whole numbers" drew its count at
# random, so CI's next seed met no two-level case: "two values other than 0/1" passed at seed 405).
MORE_WRONG_ANSWERS["04.1"].update({
    f"non-private (data): exact for exactly {count} distinct values{' that are not whole numbers' * whole}":
        _exact_when(lambda v, lo, hi, e, count=count, whole=whole: len(np.unique(v)) == count
                    and not (whole and np.all(v == np.round(v))))
    for count, whole in ((3, False), (5, False), (8, False), (6, True))
})
