"""Wrong answers to lesson 09's exercises: each a mistake a student could make, and each must be rejected."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from mic_dp_helpers.scale import pipeline as at_scale


# ----------------------------------------------------------------------------------- 09.1
def _shuffle(log, rng):
    return log.loc[rng.permutation(log.index)]


def _rows_only(log, max_partitions, max_per_partition, rng):
    """Bounds rows per day but not days per person: the privacy bug of the issue."""
    shuffled = _shuffle(log, rng)
    return shuffled[shuffled.groupby(["customer_id", "day"]).cumcount() < max_per_partition]


def _partitions_only(log, max_partitions, max_per_partition, rng):
    shuffled = _shuffle(log, rng)
    cells = shuffled[["customer_id", "day"]].drop_duplicates()
    kept = cells[cells.groupby("customer_id").cumcount() < max_partitions]
    return shuffled.merge(kept, on=["customer_id", "day"]).set_axis(
        shuffled.index[pd.MultiIndex.from_frame(shuffled[["customer_id", "day"]]).isin(
            pd.MultiIndex.from_frame(kept))])


def _first_days_in_order(log, max_partitions, max_per_partition, rng):
    """Keeps the earliest days and the first rows: deterministic, not uniformly random."""
    ordered = log.sort_values(["customer_id", "day"], kind="stable")
    ordered = ordered[ordered.groupby(["customer_id", "day"]).cumcount() < max_per_partition]
    first_days = ordered.groupby("customer_id")["day"].transform(lambda d: d.rank(method="dense") <= max_partitions)
    return log.loc[ordered.index[first_days.to_numpy(dtype=bool)]]


def _strict_bound(log, max_partitions, max_per_partition, rng):
    """Off by one: keeps fewer than the bound allows (< instead of <=)."""
    shuffled = _shuffle(log, rng)
    shuffled = shuffled[shuffled.groupby(["customer_id", "day"]).cumcount() < max(max_per_partition - 1, 1)]
    cells = shuffled[["customer_id", "day"]].drop_duplicates()
    cells = cells.loc[rng.permutation(cells.index)]
    kept = cells[cells.groupby("customer_id").cumcount() < max(max_partitions - 1, 1)]
    keep = pd.MultiIndex.from_frame(shuffled[["customer_id", "day"]]).isin(pd.MultiIndex.from_frame(kept))
    return log.loc[shuffled.index[keep]]


def _drop_heavy_people(log, max_partitions, max_per_partition, rng):
    """Removes everyone above a bound instead of trimming them."""
    days = log.groupby("customer_id")["day"].transform("nunique")
    rows = log.groupby(["customer_id", "day"])["day"].transform("size")
    heavy = (days > max_partitions) | (rows > max_per_partition)
    person_heavy = heavy.groupby(log["customer_id"]).transform("any")
    return log[~person_heavy]


def _total_rows_per_person(log, max_partitions, max_per_partition, rng):
    """Caps each person's total rows at L0 * Linf, with no per-day structure."""
    shuffled = _shuffle(log, rng)
    return shuffled[shuffled.groupby("customer_id").cumcount() < max_partitions * max_per_partition]


def _global_random_state(log, max_partitions, max_per_partition, rng):
    """Draws from NumPy's global generator: not reproducible from `rng`."""
    return _correct_core(log, max_partitions, max_per_partition, np.random.default_rng())


def _correct_core(log, max_partitions, max_per_partition, rng):
    shuffled = _shuffle(log, rng)
    shuffled = shuffled[shuffled.groupby(["customer_id", "day"], sort=False).cumcount() < max_per_partition]
    cells = shuffled[["customer_id", "day"]].drop_duplicates()
    cells = cells.loc[rng.permutation(cells.index)]
    kept = cells[cells.groupby("customer_id", sort=False).cumcount() < max_partitions]
    keep = pd.MultiIndex.from_frame(shuffled[["customer_id", "day"]]).isin(pd.MultiIndex.from_frame(kept))
    return log.loc[shuffled.index[keep]]


def _modifies_input(log, max_partitions, max_per_partition, rng):
    kept = _correct_core(log, max_partitions, max_per_partition, rng)
    log.loc[log.index.difference(kept.index), "amount"] = 0.0  # "drops" the rest by zeroing it, in the caller's table
    return kept


def _reset_index(log, max_partitions, max_per_partition, rng):
    return _correct_core(log, max_partitions, max_per_partition, rng).reset_index(drop=True)


def _calls_the_course_helper(log, max_partitions, max_per_partition, rng):
    return at_scale.bound_contributions(log, max_partitions, max_per_partition, rng=rng)


def _reads_the_checker_frame(log, max_partitions, max_per_partition, rng):
    """Tries to find an expected answer in the caller's frame instead of computing one."""
    caller = sys._getframe(1).f_locals
    for value in caller.values():
        if isinstance(value, pd.DataFrame) and value is not log and len(value) < len(log):
            return value
    return log


def _keep_cells(log, kept_cells, max_per_partition, rng):
    """The rows of ``kept_cells`` ((customer, day) pairs), at most ``max_per_partition`` random ones each."""
    shuffled = _shuffle(log, rng)
    shuffled = shuffled[shuffled.groupby(["customer_id", "day"], sort=False).cumcount() < max_per_partition]
    keep = pd.MultiIndex.from_frame(shuffled[["customer_id", "day"]]).isin(pd.MultiIndex.from_frame(kept_cells))
    return log.loc[shuffled.index[keep]]


# Data: the choice of kept days reads other people's rows (issue 26's "globally most popular days").
def _globally_popular_days(log, max_partitions, max_per_partition, rng):
    popularity = log.groupby("day")["customer_id"].nunique()
    cells = log[["customer_id", "day"]].drop_duplicates()
    cells = cells.assign(score=cells["day"].map(popularity) + rng.random(len(cells)) * 0.5)
    cells = cells.sort_values("score", ascending=False, kind="stable")
    return _keep_cells(log, cells[cells.groupby("customer_id").cumcount() < max_partitions][["customer_id", "day"]],
                       max_per_partition, rng)


def _busiest_own_days(log, max_partitions, max_per_partition, rng):
    """Keeps each customer's days with the most rows (ties at random): the choice depends on the data."""
    cells = log.groupby(["customer_id", "day"]).size().rename("rows").reset_index()
    cells = cells.assign(score=cells["rows"] + rng.random(len(cells)) * 0.5)
    cells = cells.sort_values("score", ascending=False, kind="stable")
    return _keep_cells(log, cells[cells.groupby("customer_id").cumcount() < max_partitions][["customer_id", "day"]],
                       max_per_partition, rng)


def _largest_amounts(log, max_partitions, max_per_partition, rng):
    """Keeps random days but, on each, the rows with the largest amounts (when there is an amount column)."""
    if "amount" not in log.columns:
        return _correct_core(log, max_partitions, max_per_partition, rng)
    ordered = log.assign(_u=rng.random(len(log))).sort_values(["amount", "_u"], ascending=False, kind="stable")
    ordered = ordered[ordered.groupby(["customer_id", "day"], sort=False).cumcount() < max_per_partition]
    cells = ordered[["customer_id", "day"]].drop_duplicates()
    cells = cells.loc[rng.permutation(cells.index)]
    kept = cells[cells.groupby("customer_id", sort=False).cumcount() < max_partitions]
    keep = pd.MultiIndex.from_frame(ordered[["customer_id", "day"]]).isin(pd.MultiIndex.from_frame(kept))
    return log.loc[ordered.index[keep]]


# Calls: one random draw shared by every customer (correlated choices between people).
def _same_days_for_everyone(log, max_partitions, max_per_partition, rng):
    order = {day: rank for rank, day in enumerate(rng.permutation(np.sort(log["day"].unique())))}
    cells = log[["customer_id", "day"]].drop_duplicates()
    cells = cells.assign(rank=cells["day"].map(order)).sort_values("rank", kind="stable")
    return _keep_cells(log, cells[cells.groupby("customer_id").cumcount() < max_partitions][["customer_id", "day"]],
                       max_per_partition, rng)


# Size and parameters: exact (no bounding) where the checks used not to look.
def _unbounded_on_large_logs(log, max_partitions, max_per_partition, rng):
    return log.copy() if len(log) > 5_000 else _correct_core(log, max_partitions, max_per_partition, rng)


def _unbounded_for_large_bounds(log, max_partitions, max_per_partition, rng):
    return log.copy() if max_partitions >= 10 else _correct_core(log, max_partitions, max_per_partition, rng)


def _rows_only_for_large_bounds(log, max_partitions, max_per_partition, rng):
    if max_partitions >= 8:
        return _rows_only(log, max_partitions, max_per_partition, rng)
    return _correct_core(log, max_partitions, max_per_partition, rng)


def _unbounded_above_40_partitions(log, max_partitions, max_per_partition, rng):
    return log.copy() if max_partitions > 40 else _correct_core(log, max_partitions, max_per_partition, rng)


def _unbounded_when_the_product_is_large(log, max_partitions, max_per_partition, rng):
    big = max_partitions * max_per_partition > 300
    return log.copy() if big else _correct_core(log, max_partitions, max_per_partition, rng)


def _unbounded_for_large_row_bounds(log, max_partitions, max_per_partition, rng):
    return log.copy() if max_per_partition >= 8 else _correct_core(log, max_partitions, max_per_partition, rng)


# Data: the first ones in some order, only where the earlier tests had no such people or days.
def _first_days_for_busy_customers(log, max_partitions, max_per_partition, rng):
    """Random for customers with up to 12 days; the earliest days (in date order) for those with more."""
    kept = _correct_core(log, max_partitions, max_per_partition, rng)
    n_days = log.groupby("customer_id")["day"].transform("nunique")
    busy = log[n_days > 12]
    if busy.empty:
        return kept
    cells = busy[["customer_id", "day"]].drop_duplicates().sort_values("day", kind="stable")
    first = _keep_cells(busy, cells.groupby("customer_id").head(max_partitions), max_per_partition, rng)
    return log.loc[kept.index[~kept["customer_id"].isin(busy["customer_id"])].append(first.index)]


def _first_rows_of_big_days(log, max_partitions, max_per_partition, rng):
    """Random days, but in a day with more than 6 rows the first rows in table order."""
    kept = _correct_core(log, max_partitions, max_per_partition, rng)
    size = log.groupby(["customer_id", "day"])["day"].transform("size")
    big_kept = log[(size > 6)].merge(kept[["customer_id", "day"]].drop_duplicates(), on=["customer_id", "day"],
                                     how="left", indicator=True)["_merge"].eq("both").to_numpy()
    big = log[size > 6][big_kept]
    first = big[big.groupby(["customer_id", "day"], sort=False).cumcount() < max_per_partition]
    small = kept[~kept.index.isin(log.index[size > 6])]
    return log.loc[small.index.append(first.index)]


def _fast_path_for_heavy_customers(threshold: int, size: str, order: str):
    """Random for most customers; above ``threshold`` days or rows a deterministic "fast path" (referee)."""

    def answer(log, max_partitions, max_per_partition, rng):
        kept = _correct_core(log, max_partitions, max_per_partition, rng)
        measure = log.groupby("customer_id")["day"].transform("nunique" if size == "days" else "size")
        busy = log[measure > threshold]
        if busy.empty:
            return kept
        if order == "first rows":
            cells = busy[["customer_id", "day"]].drop_duplicates()
            cells = cells.loc[rng.permutation(cells.index)]
            chosen = cells.groupby("customer_id", sort=False).head(max_partitions)
            rows = busy.merge(chosen, on=["customer_id", "day"]).set_axis(
                busy.index[pd.MultiIndex.from_frame(busy[["customer_id", "day"]]).isin(
                    pd.MultiIndex.from_frame(chosen))])
            first = rows[rows.groupby(["customer_id", "day"], sort=False).cumcount() < max_per_partition]
        else:
            cells = busy[["customer_id", "day"]].drop_duplicates()
            cells = {"earliest": cells.sort_values("day", kind="stable"),
                     "latest": cells.sort_values("day", ascending=False, kind="stable"),
                     "table order": cells}[order]
            first = _keep_cells(busy, cells.groupby("customer_id").head(max_partitions), max_per_partition, rng)
        return log.loc[kept.index[~kept["customer_id"].isin(busy["customer_id"])].append(first.index)]

    return answer


def _days_by_window(kind: str):
    """Each customer keeps max_partitions of their days by date, not a uniform subset (referee 020409): a window
    of consecutive days from a random start (``"window"``, wrapping round), or every step-th day from a random
    offset (``"systematic"``). Every day is kept equally often; pairs of days are not."""
    def answer(log, max_partitions, max_per_partition, rng):
        cells = []
        for customer, days in log.groupby("customer_id", sort=False)["day"]:
            days = np.sort(days.unique())
            n = len(days)
            if n <= max_partitions:
                chosen = days
            elif kind == "window":
                chosen = days[(int(rng.integers(n)) + np.arange(max_partitions)) % n]
            else:
                step = n / max_partitions
                chosen = days[np.floor(rng.uniform(0, step) + step * np.arange(max_partitions)).astype(int)]
            cells.append(pd.DataFrame({"customer_id": customer, "day": chosen}))
        kept = pd.concat(cells, ignore_index=True) if cells else log[["customer_id", "day"]].iloc[:0]
        return _keep_cells(log, kept, max_per_partition, rng)
    return answer


def _earliest_days_just_above(log, max_partitions, max_per_partition, rng):
    """Uniform days, except that a customer at most 2 days above the bound keeps the earliest (referee 020409);
    rows per day likewise the first in table order when a day is at most 2 rows above its bound."""
    cells = []
    for customer, days in log.groupby("customer_id", sort=False)["day"]:
        days = np.sort(days.unique())
        if len(days) > max_partitions + 2:
            days = rng.choice(days, max_partitions, replace=False)
        cells.append(pd.DataFrame({"customer_id": customer, "day": days[:max_partitions]}))
    kept = pd.concat(cells, ignore_index=True)
    chosen = log[pd.MultiIndex.from_frame(log[["customer_id", "day"]]).isin(pd.MultiIndex.from_frame(kept))]
    rows = []
    for _, group in chosen.groupby(["customer_id", "day"], sort=False):
        index = group.index.to_numpy()
        if len(index) > max_per_partition + 2:
            index = rng.choice(index, max_per_partition, replace=False)
        rows.extend(index[:max_per_partition])
    return log.loc[log.index.isin(rows)]


def _fails_on_one_row(log, max_partitions, max_per_partition, rng):
    """Drops a lone row (an empty group after a filter), instead of keeping a customer under the bounds."""
    return log.iloc[:0] if len(log) == 1 else _correct_core(log, max_partitions, max_per_partition, rng)


# ----------------------------------------------------------------------------------- 09.2
def _width_not_magnitude(l0, linf, low, high, epsilon):
    return l0 * linf * (high - low) / epsilon


def _upper_bound_only(l0, linf, low, high, epsilon):
    return l0 * linf * abs(high) / epsilon


def _no_partition_bound(l0, linf, low, high, epsilon):
    return linf * max(abs(low), abs(high)) / epsilon


def _no_row_bound(l0, linf, low, high, epsilon):
    return l0 * max(abs(low), abs(high)) / epsilon


def _times_epsilon(l0, linf, low, high, epsilon):
    return l0 * linf * max(abs(low), abs(high)) * epsilon


def _sqrt_partitions(l0, linf, low, high, epsilon):
    """The L2 sensitivity (Gaussian noise's), not the L1 the Laplace mechanism needs."""
    return np.sqrt(l0) * linf * max(abs(low), abs(high)) / epsilon


def _rounded_epsilon(l0, linf, low, high, epsilon):
    return l0 * linf * max(abs(low), abs(high)) / round(epsilon, 3)


# ----------------------------------------------------------------------------------- 09.3
def _smallest_covering(counts, quantile, strict=False):
    values = np.sort(np.asarray(counts))
    for value in values:
        share = np.mean(values < value) if strict else np.mean(values <= value)
        if share >= quantile:
            return int(value)
    return int(values[-1])


def _numpy_quantile(sample, person, partition, quantile):
    per_person = sample.groupby(person)[partition].nunique()
    per_cell = sample.groupby([person, partition]).size()
    return int(np.quantile(per_person, quantile)), int(np.quantile(per_cell, quantile))


def _rows_not_distinct_partitions(sample, person, partition, quantile):
    per_person = sample.groupby(person).size()
    per_cell = sample.groupby([person, partition]).size()
    return _smallest_covering(per_person, quantile), _smallest_covering(per_cell, quantile)


def _strictly_below(sample, person, partition, quantile):
    per_person = sample.groupby(person)[partition].nunique()
    per_cell = sample.groupby([person, partition]).size()
    return _smallest_covering(per_person, quantile, strict=True), _smallest_covering(per_cell, quantile, strict=True)


def _maximum(sample, person, partition, quantile):
    return int(sample.groupby(person)[partition].nunique().max()), int(sample.groupby([person, partition]).size().max())


def _first_two_columns(sample, person, partition, quantile):
    """Takes the first two columns instead of the named ones."""
    first, second = sample.columns[:2]
    per_person = sample.groupby(first)[second].nunique()
    per_cell = sample.groupby([first, second]).size()
    return _smallest_covering(per_person, quantile), _smallest_covering(per_cell, quantile)


def _drops_duplicate_rows(sample, person, partition, quantile):
    """Identical rows (a repeated purchase) dropped before counting rows per cell (referee 020409)."""
    sample = sample.drop_duplicates()
    return (_smallest_covering(sample.groupby(person)[partition].nunique(), quantile),
            _smallest_covering(sample.groupby([person, partition]).size(), quantile))


def _floats(sample, person, partition, quantile):
    per_person = sample.groupby(person)[partition].nunique()
    per_cell = sample.groupby([person, partition]).size()
    return float(_smallest_covering(per_person, quantile)), float(_smallest_covering(per_cell, quantile))


def _ceil_of_interpolated_quantile(sample, person, partition, quantile):
    per_person = sample.groupby(person)[partition].nunique()
    per_cell = sample.groupby([person, partition]).size()
    return int(np.ceil(np.quantile(per_person, quantile))), int(np.ceil(np.quantile(per_cell, quantile)))


WRONG_ANSWERS = {
    "09.1": {
        "bounds rows, not partitions per person": _rows_only,
        "bounds partitions, not rows per partition": _partitions_only,
        "keeps the first days and rows, not random ones": _first_days_in_order,
        "off by one at the bounds": _strict_bound,
        "drops heavy contributors entirely": _drop_heavy_people,
        "caps total rows per person only": _total_rows_per_person,
        "randomness not from rng": _global_random_state,
        "modifies the log": _modifies_input,
        "loses the original index": _reset_index,
        "calls the course's helper": _calls_the_course_helper,
        "reads the checker's frame": _reads_the_checker_frame,
        "data: keeps each customer's globally most popular days": _globally_popular_days,
        "data: keeps each customer's busiest days": _busiest_own_days,
        "data: keeps the largest amounts of a day": _largest_amounts,
        "calls: the same random days for every customer": _same_days_for_everyone,
        "size: no bounding above 5,000 rows": _unbounded_on_large_logs,
        "parameters: no bounding when max_partitions >= 10": _unbounded_for_large_bounds,
        "parameters: only rows bounded when max_partitions >= 8": _rows_only_for_large_bounds,
        "size: a one-row log comes back empty": _fails_on_one_row,
        "parameters: no bounding when max_partitions > 40": _unbounded_above_40_partitions,
        "parameters: no bounding when max_partitions * max_per_partition > 300": _unbounded_when_the_product_is_large,
        "parameters: no bounding when max_per_partition >= 8": _unbounded_for_large_row_bounds,
        "data: the earliest days for customers with more than 12 days": _first_days_for_busy_customers,
        "data: the first rows in table order on days with more than 6 rows": _first_rows_of_big_days,
        "size: the earliest days for customers with more than 60 days": _fast_path_for_heavy_customers(60, "days", "earliest"),
        "size: the earliest days for customers with more than 100 rows": _fast_path_for_heavy_customers(100, "rows", "earliest"),
        "size: the latest days for customers with more than 200 days": _fast_path_for_heavy_customers(200, "days", "latest"),
        "calls: a window of consecutive days from a random start": _days_by_window("window"),
        "calls: every step-th day from a random offset (systematic sampling)": _days_by_window("systematic"),
        "size: the earliest days and first rows just above the bounds (up to 2 over)": _earliest_days_just_above,
        "size: the first days in table order above 100 days": _fast_path_for_heavy_customers(100, "days", "table order"),
        # referee rt0709: the heaviest customer had 240 days, so a switch above 250 days passed
        "size: the earliest days for customers with more than 250 days": _fast_path_for_heavy_customers(250, "days", "earliest"),
        "size: the latest days for customers with more than 1,000 days": _fast_path_for_heavy_customers(1000, "days", "latest"),
        "size: the first days in table order above 3,000 days": _fast_path_for_heavy_customers(3000, "days", "table order"),
        "parameters: no bounding when max_partitions > 60": lambda log, k, m, rng: log.copy() if k > 60 else _correct_core(log, k, m, rng),
        "parameters: no row bounding when max_per_partition > 45": lambda log, k, m, rng: _correct_core(log, k, 10**9, rng) if m > 45 else _correct_core(log, k, m, rng),
        "size: the first rows of each day for customers with more than 100 rows": _fast_path_for_heavy_customers(
            100, "rows", "first rows"),
    },
    "09.2": {
        "interval width instead of largest magnitude": _width_not_magnitude,
        "ignores a negative lower bound": _upper_bound_only,
        "forgets max_partitions": _no_partition_bound,
        "forgets max_per_partition": _no_row_bound,
        "multiplies by epsilon": _times_epsilon,
        "L2 sensitivity for Laplace noise": _sqrt_partitions,
        "epsilon rounded to 3 decimals": _rounded_epsilon,
    },
    "09.3": {
        "numpy's interpolated quantile": _numpy_quantile,
        "rows per person, not distinct partitions": _rows_not_distinct_partitions,
        "strictly below instead of at most": _strictly_below,
        "maximum instead of quantile": _maximum,
        "first two columns instead of the named ones": _first_two_columns,
        "floats instead of ints": _floats,
        "drops identical rows before counting": _drops_duplicate_rows,
        "ceiling of the interpolated quantile": _ceil_of_interpolated_quantile,
    },
}


# ---- edge cases of 09.2 and 09.3 (ties, equal bounds, 10^11 contributions; separators inside keys, NaN in
# other columns, one person, 2,000 people): each passed the check before them
def _smallest_covering(counts, quantile):
    values = np.sort(np.asarray(counts))
    for value in np.unique(values):
        if np.mean(values <= value) >= quantile:
            return int(value)
    return int(values[-1])


def _bounds_with(cells, *, people=None):
    def answer(sample, person, partition, quantile):
        kept = sample if people is None else people(sample, person)
        return (_smallest_covering(kept.groupby(person)[partition].nunique(), quantile),
                _smallest_covering(cells(kept, person, partition), quantile))
    return answer


def _joined(separator):
    return lambda s, person, partition: (s[person].astype(str) + separator + s[partition].astype(str)).value_counts()


def _counted(s, person, partition):
    others = [c for c in s.columns if c not in (person, partition)]
    grouped = s.groupby([person, partition])
    return grouped[others[0]].count() if others else grouped.size()


def _cells(s, person, partition):
    return s.groupby([person, partition]).size()


WRONG_ANSWERS["09.2"].update({
    "(size) contributions multiplied as int32 (overflow past 2**31)": lambda l0, linf, lo, hi, eps: float(
        np.int32(l0) * np.int32(linf)) * max(abs(lo), abs(hi)) / eps,
    "(parameters) the interval's width when the bounds are equal in absolute value": lambda l0, linf, lo, hi, eps: (
        l0 * linf * ((hi - lo) if abs(lo) == abs(hi) else max(abs(lo), abs(hi))) / eps),
    "(parameters) zero when min_value equals max_value": lambda l0, linf, lo, hi, eps: (
        0.0 if lo == hi else l0 * linf * max(abs(lo), abs(hi)) / eps),
})
WRONG_ANSWERS["09.3"].update({
    "(data) cells keyed by person and partition joined with '_'": _bounds_with(_joined("_")),
    "(data) cells keyed by person and partition joined without a separator": _bounds_with(_joined("")),
    "(data) rows counted with groupby().count() (NaN in other columns not counted)": _bounds_with(_counted),
    "(data) rows with NaN in any column dropped": _bounds_with(_cells, people=lambda s, person: s.dropna()),
    "(size) a sample of one person answered (0, 0)": lambda s, *a: (0, 0) if s[a[0]].nunique() < 2 else _bounds_with(
        _cells)(s, *a),
    "(size) only the first 1,000 people counted": _bounds_with(_cells, people=lambda s, person: s[s[person].isin(
        s[person].drop_duplicates().iloc[:1000])]),
})


# The answers that try to pass without solving (frame reading, patching, shadowed builtins), each
# wrapped around a wrong answer: every one must still be rejected.
from wrong_answers._cheats import cheats as _cheats  # noqa: E402

for _answers in WRONG_ANSWERS.values():
    _answers.update(_cheats(next(iter(_answers.values()))))

# Answers that hand the work to the course's own answers to 09.2 and 09.3 (round 2 of the red team).
from wrong_answers._cheats import calls_forbidden as _calls_forbidden  # noqa: E402

WRONG_ANSWERS["09.2"]["cheat: calls the course's sum_noise_scale"] = _calls_forbidden(at_scale.sum_noise_scale)
WRONG_ANSWERS["09.3"]["cheat: calls the course's public_contribution_bounds"] = _calls_forbidden(
    at_scale.public_contribution_bounds,
    adapt=lambda helper, sample, person, partition, quantile: helper(sample, quantile, person=person,
                                                                     partition=partition))


# Referee redB: the uniformity tests used logs of at most 3,600 rows; an answer can switch above that.
def _above_rows(rows, wrong):
    """The course's choice (uniform) for logs of at most ``rows`` rows, ``wrong`` above."""
    return lambda log, l0, linf, rng: wrong(log, l0, linf, rng) if len(log) > rows else _correct_core(log, l0, linf, rng)


WRONG_ANSWERS["09.1"].update({
    "size: the globally popular days when the log has more than 5,000 rows": _above_rows(5_000, _globally_popular_days),
    "size: the earliest days and first rows when the log has more than 60,000 rows": _above_rows(60_000,
                                                                                                 _first_days_in_order),
})


# Referee s35rcb: the uniformity tests ran at bounds up to 14 and 3 and days up to 20 rows; biased choices only
# above those passed.
def _when_bounds(condition, wrong):
    """The course's choice (uniform), but ``wrong`` where ``condition(max_partitions, max_per_partition)``."""
    return lambda log, l0, linf, rng: (wrong if condition(l0, linf) else _correct_core)(log, l0, linf, rng)


def _days_in_date_order(latest):
    """The earliest (or latest) days by date of each customer, random rows within each day."""
    def answer(log, max_partitions, max_per_partition, rng):
        cells = log[["customer_id", "day"]].drop_duplicates().sort_values(["customer_id", "day"], ascending=not latest)
        kept = cells[cells.groupby("customer_id", sort=False).cumcount() < max_partitions]
        return _keep_cells(log, kept, max_per_partition, rng)
    return answer


def _rows_in_table_order(last=False, above_rows=0):
    """Uniform days, then the first (or last) rows of each kept day in table order, on days of more than
    ``above_rows`` rows (uniform rows on smaller days)."""
    def answer(log, max_partitions, max_per_partition, rng):
        days = log.loc[log.index.isin(_correct_core(log, max_partitions, 10**9, rng).index)]  # table order
        size = days.groupby(["customer_id", "day"])["day"].transform("size")
        big = days[size > above_rows]
        big = big[big.groupby(["customer_id", "day"], sort=False).cumcount(ascending=not last) < max_per_partition]
        small = days[size <= above_rows]
        small = _correct_core(small, 10**9, max_per_partition, rng) if len(small) else small
        return log.loc[log.index.isin(big.index.union(small.index))]
    return answer


WRONG_ANSWERS["09.1"].update({
    "parameters: the earliest days when max_partitions >= 15": _when_bounds(lambda l0, linf: l0 >= 15,
                                                                            _days_in_date_order(latest=False)),
    "parameters: the latest days when max_partitions >= 30": _when_bounds(lambda l0, linf: l0 >= 30,
                                                                          _days_in_date_order(latest=True)),
    "parameters: the first rows in table order when max_per_partition >= 4": _when_bounds(
        lambda l0, linf: linf >= 4, _rows_in_table_order()),
    "parameters: the last rows in table order when max_per_partition >= 6": _when_bounds(
        lambda l0, linf: linf >= 6, _rows_in_table_order(last=True)),
    "size: the first rows in table order on days of more than 20 rows": _rows_in_table_order(above_rows=20),
    "size: the last rows in table order on days of more than 100 rows": _rows_in_table_order(last=True, above_rows=100),
})
