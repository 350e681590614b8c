"""Wrong answers to 09.1 that choose days or rows non-uniformly or not independently (referee s36rB items 9-11),
or by other customers' rows (referee s38rB D4, D8, D9).

Each keeps the bounds; the choice is what is wrong. ``lesson09`` is full, so these join its answers through
``MORE_WRONG_ANSWERS``.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd


def _bound_from_order(log, l0, linf, day_key, row_key):
    """Keep, per customer, the ``l0`` days with the smallest ``day_key`` (minimum over the day's rows) and per
    kept day the ``linf`` rows with the smallest ``row_key`` (both aligned with the rows of ``log``)."""
    frame = pd.DataFrame({"c": log["customer_id"].to_numpy(), "d": log["day"].to_numpy(), "dk": day_key,
                          "rk": row_key, "pos": np.arange(len(log))})
    frame["dk"] = frame.groupby(["c", "d"], sort=False)["dk"].transform("min")
    days = frame.drop_duplicates(["c", "d"])[["c", "d", "dk"]]
    days = days.assign(r=days.groupby("c")["dk"].rank(method="first"))
    frame = frame.merge(days.loc[days["r"] <= l0, ["c", "d"]], on=["c", "d"])
    frame = frame.assign(r=frame.groupby(["c", "d"])["rk"].rank(method="first"))
    return log.iloc[np.sort(frame.loc[frame["r"] <= linf, "pos"].to_numpy())]


def _cells(log):
    """(code of each row's (customer, day), number of distinct (customer, day))."""
    codes, unique = pd.factorize(pd.MultiIndex.from_arrays([log["customer_id"].to_numpy(), log["day"].to_numpy()]))
    return codes, len(unique)


def _correct(log, l0, linf, rng):
    codes, n_cells = _cells(log)
    return _bound_from_order(log, l0, linf, rng.random(n_cells)[codes], rng.random(len(log)))


def _table_order_above(size: int, last: bool):
    """The first (or last) days and rows in table order once the log has more than ``size`` rows."""
    def answer(log, l0, linf, rng):
        if len(log) <= size:
            return _correct(log, l0, linf, rng)
        order = np.arange(len(log))[::-1] if last else np.arange(len(log))
        return _bound_from_order(log, l0, linf, order, order)
    return answer


def _shared_between(group_size: int, key: str):
    """Customers in groups of ``group_size`` (sorted ids, or ordered by a hash of the id) share one key per day."""
    def answer(log, l0, linf, rng):
        customers = log["customer_id"].astype(str)
        order = customers if key == "sorted" else customers.map(lambda c: zlib.crc32(c.encode())).astype(str)
        _, group = np.unique(order.to_numpy(), return_inverse=True)
        codes, unique = pd.factorize(pd.MultiIndex.from_arrays([group // group_size, log["day"].to_numpy()]))
        return _bound_from_order(log, l0, linf, rng.random(len(unique))[codes], rng.random(len(log)))
    return answer


def _row_window(shared: bool):
    """Days uniform; the rows of a day: a cyclic window of consecutive rows in table order, random start per
    (customer, day), or one start for every (customer, day) of the call."""
    def answer(log, l0, linf, rng):
        codes, n_cells = _cells(log)
        day_key = rng.random(n_cells)[codes]
        size = np.bincount(codes)[codes]
        within = pd.Series(np.arange(len(log))).groupby(codes).cumcount().to_numpy()
        start = int(rng.integers(1 << 40)) if shared else rng.integers(0, 1 << 40, n_cells)[codes]
        return _bound_from_order(log, l0, linf, day_key, (within - start % size) % size)
    return answer


def _rows_by_amount(min_linf: int, largest: bool):
    """The smallest (largest) amounts of a day once max_per_partition >= ``min_linf`` (days uniform)."""
    def answer(log, l0, linf, rng):
        if linf < min_linf or "amount" not in log.columns:
            return _correct(log, l0, linf, rng)
        codes, n_cells = _cells(log)
        amount = log["amount"].to_numpy()
        return _bound_from_order(log, l0, linf, rng.random(n_cells)[codes], -amount if largest else amount)
    return answer


def _customers_on_day(log):
    """For each row, how many customers shop on its day (its customer included)."""
    return log["day"].map(log.groupby("day")["customer_id"].nunique()).to_numpy()


def _prefer_popular_days(min_customers: int, above_rows: int = 0):
    """Days with at least ``min_customers`` customers first (2: days other customers also shop on; 'they survive
    partition selection'), random within, in logs of more than ``above_rows`` rows (referee s38rB D4)."""
    def answer(log, l0, linf, rng):
        if len(log) <= above_rows:
            return _correct(log, l0, linf, rng)
        codes, n_cells = _cells(log)
        popular = _customers_on_day(log) >= min_customers
        return _bound_from_order(log, l0, linf, rng.random(n_cells)[codes] - popular, rng.random(len(log)))
    return answer


def _rows_on_shared_days(rule: str, min_customers: int = 2):
    """Days uniform; on a day with at least ``min_customers`` customers the rows picked by ``rule``: 'median'
    (amount nearest the day's median over everyone, 'typical purchases'), 'first' or 'last' (table order);
    random rows on the other days (referee s38rB D4)."""
    def answer(log, l0, linf, rng):
        codes, n_cells = _cells(log)
        shared = _customers_on_day(log) >= min_customers
        if rule == "median" and "amount" in log.columns:
            amount = log["amount"].to_numpy()
            key = np.abs(amount - log["day"].map(log.groupby("day")["amount"].median()).to_numpy())
        else:
            key = np.arange(len(log)) * (-1.0 if rule == "last" else 1.0)
        row_key = np.where(shared, key, rng.random(len(log)) * 1e-9)
        return _bound_from_order(log, l0, linf, rng.random(n_cells)[codes], row_key)
    return answer


def _days_weighted_by_rows(above_rows: int):
    """Above ``above_rows`` rows a customer's days in the order of their first row in a shuffled table: a day
    with more rows is likelier to be kept (referee s38rB D9)."""
    def answer(log, l0, linf, rng):
        if len(log) <= above_rows:
            return _correct(log, l0, linf, rng)
        return _bound_from_order(log, l0, linf, rng.random(len(log)), rng.random(len(log)))
    return answer


def _one_priority_per_day(log, l0, linf, rng):
    """One random priority per day value, shared by all customers: each customer's days are uniform, but not
    independent between customers (referee s38rB D8)."""
    days, day_code = np.unique(log["day"].to_numpy(), return_inverse=True)
    return _bound_from_order(log, l0, linf, rng.permutation(days.size)[day_code], rng.random(len(log)))


MORE_WRONG_ANSWERS = {"09.1": {
    "(data) days other customers also shop on first": _prefer_popular_days(2),
    "(data) days with at least 5 customers first": _prefer_popular_days(5),
    "(size) days with at least 3 customers first above 60,000 rows": _prefer_popular_days(3, above_rows=60_000),
    "(data) on shared days the rows nearest the day's median amount": _rows_on_shared_days("median"),
    "(data) on shared days the first rows in table order": _rows_on_shared_days("first"),
    "(data) on days with at least 4 customers the last rows in table order": _rows_on_shared_days("last", 4),
    "(size) days weighted by their rows above 10,000 rows": _days_weighted_by_rows(10_000),
    "(size) days weighted by their rows above 60,000 rows": _days_weighted_by_rows(60_000),
    "(state) one random priority per day, shared by all customers": _one_priority_per_day,
    "(size) first days and rows in table order above 5,000 rows": _table_order_above(5_000, last=False),
    "(size) last days and rows in table order above 20,000 rows": _table_order_above(20_000, last=True),
    "(state) pairs of customers (sorted ids) share one draw per day": _shared_between(2, "sorted"),
    "(state) triples of customers (hashed ids) share one draw per day": _shared_between(3, "hash"),
    "(data) rows of a day: a window of consecutive rows, random start": _row_window(shared=False),
    "(data) rows of a day: a window of consecutive rows, one start per call": _row_window(shared=True),
    "(data) the smallest amounts of a day when max_per_partition >= 3": _rows_by_amount(3, largest=False),
    "(data) the largest amounts of a day when max_per_partition >= 5": _rows_by_amount(5, largest=True),
}}
