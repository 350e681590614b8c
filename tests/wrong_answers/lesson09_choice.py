"""Wrong answers to 09.1 that choose days or rows non-uniformly or not independently (referee s36rB items 9-11).

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


MORE_WRONG_ANSWERS = {"09.1": {
    "(size) first days and rows in table order above 5,000 rows": _table_order_above(5_000, last=False),
    "(size) last days and rows in table order above 20,000 rows": _table_order_above(20_000, last=True),
    "(state) pairs of customers (sorted ids) share one draw per day": _shared_between(2, "sorted"),
    "(state) triples of customers (hashed ids) share one draw per day": _shared_between(3, "hash"),
    "(data) rows of a day: a window of consecutive rows, random start": _row_window(shared=False),
    "(data) rows of a day: a window of consecutive rows, one start per call": _row_window(shared=True),
    "(data) the smallest amounts of a day when max_per_partition >= 3": _rows_by_amount(3, largest=False),
    "(data) the largest amounts of a day when max_per_partition >= 5": _rows_by_amount(5, largest=True),
}}
