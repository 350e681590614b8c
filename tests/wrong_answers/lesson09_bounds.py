"""Wrong answers to 09.1 from referee s37rB (items 2 and 11), each with other members of its class: a choice
that depends on the customer's place in the log (and on other people's rows), and biased choices at bounds
between the ones the uniformity tests used. They join ``lesson09``'s answers through ``MORE_WRONG_ANSWERS``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from wrong_answers.lesson09_choice import _bound_from_order, _cells, _correct


def _popular_key(log, rng):
    """Per row: minus the number of customers on its day (popular days first), ties broken at random."""
    popularity = log.groupby("day")["customer_id"].transform("nunique").to_numpy().astype(float)
    codes, n_cells = _cells(log)
    return -popularity + 0.5 * rng.random(n_cells)[codes]


def _popular_for_late_customers(place):
    """Uniform for the customers whose ids sort first; the globally most popular days for the others, from the
    customer who sorts at ``place(log)`` (a row count of the log sorted by customer, or a share of the ids)."""
    def answer(log, l0, linf, rng):
        ids = np.sort(log["customer_id"].unique())
        first = place(log, ids)
        late = log["customer_id"].isin(ids[first:]).to_numpy()
        codes, n_cells = _cells(log)
        day_key = np.where(late, _popular_key(log, rng), 1.0 + rng.random(n_cells)[codes])
        return _bound_from_order(log, l0, linf, day_key, rng.random(len(log)))
    return answer


def _after_rows(rows):
    """The place of the first customer past ``rows`` rows of the log sorted by customer (referee's "budget")."""
    def place(log, ids):
        if len(log) <= rows:
            return len(ids)
        in_order = log["customer_id"].sort_values(kind="stable").to_numpy()
        return int(np.searchsorted(ids, in_order[rows], side="right"))
    return place


def _where(test, day_key=None, row_key=None):
    """A biased order for days (``day_key(log)``) or rows (``row_key(log)``) where ``test(l0, linf)``, else
    uniform (uniform too where the key is None: no amount column)."""
    def answer(log, l0, linf, rng):
        days = day_key(log) if day_key is not None else None
        rows = row_key(log) if row_key is not None else None
        if not test(l0, linf) or (days is None and rows is None):
            return _correct(log, l0, linf, rng)
        codes, n_cells = _cells(log)
        days = rng.random(n_cells)[codes] if days is None else days
        rows = rng.random(len(log)) if rows is None else rows
        return _bound_from_order(log, l0, linf, days, rows)
    return answer


def _day_total(log):
    """Minus the day's total amount (the biggest days first), or None without an amount column."""
    if "amount" not in log.columns:
        return None
    return -log.groupby(["customer_id", "day"])["amount"].transform("sum").to_numpy()


def _amount(sign):
    return lambda log: sign * log["amount"].to_numpy() if "amount" in log.columns else None


_date = lambda log: log["day"].to_numpy().astype(float)  # noqa: E731
_table = lambda log: np.arange(len(log), dtype=float)  # noqa: E731
_index = lambda log: np.asarray(log.index, dtype=float)  # noqa: E731

MORE_WRONG_ANSWERS = {"09.1": {
    "(size) popular days for customers past the first 60,000 rows sorted by customer (referee s37rB)":
        _popular_for_late_customers(_after_rows(60_000)),
    "(size) popular days for customers past the first 100,000 rows sorted by customer":
        _popular_for_late_customers(_after_rows(100_000)),
    "(data) popular days for the last 5% of the customers in id order":
        _popular_for_late_customers(lambda log, ids: int(0.95 * len(ids))),
    "(parameters) the largest purchases of a day for max_per_partition 3-7 (referee s37rB)":
        _where(lambda l0, linf: 3 <= linf <= 7, row_key=_amount(-1)),
    "(parameters) the largest purchases of a day at max_per_partition 5 only":
        _where(lambda l0, linf: linf == 5, row_key=_amount(-1)),
    "(parameters) the days of largest total for max_partitions < 40 (referee s37rB)":
        _where(lambda l0, linf: l0 < 40, day_key=_day_total),
    "(parameters) the days of largest total for max_partitions 5-9": _where(lambda l0, linf: 5 <= l0 <= 9,
                                                                             day_key=_day_total),
    "(parameters) the earliest days for max_partitions 15-39 (referee s37rB)": _where(lambda l0, linf: 15 <= l0 <= 39,
                                                                                       day_key=_date),
    "(parameters) the latest days at max_partitions 23 only": _where(lambda l0, linf: l0 == 23,
                                                                      day_key=lambda log: -_date(log)),
    "(parameters) the earliest day at max_partitions 1": _where(lambda l0, linf: l0 == 1, day_key=_date),
    "(parameters) the first rows in table order for max_per_partition 4-7 (referee s37rB)":
        _where(lambda l0, linf: 4 <= linf <= 7, row_key=_table),
    "(parameters) the rows of smallest index label at max_per_partition 6 only":
        _where(lambda l0, linf: linf == 6, row_key=_index),
    "(parameters) the first row in table order at max_per_partition 1": _where(lambda l0, linf: linf == 1,
                                                                               row_key=_table),
}}
