"""Tests of mic_dp_helpers.datasets.purchases: the seeded purchase log of lesson 04."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.datasets import PURCHASE_CATEGORIES, purchases


def test_columns_types_and_ranges():
    log = purchases(500, rng=3)
    assert list(log.columns) == ["customer_id", "date", "category", "amount"]
    assert log["customer_id"].nunique() == 500
    assert log["customer_id"].str.fullmatch(r"C\d{5}").all()
    assert pd.api.types.is_datetime64_any_dtype(log["date"])
    assert log["date"].between("2024-01-01", "2024-12-31").all()
    assert set(log["category"]) <= set(PURCHASE_CATEGORIES)
    assert (log["amount"] >= 0.5).all() and np.allclose(log["amount"], log["amount"].round(2))
    assert log["date"].is_monotonic_increasing
    assert log.index.equals(pd.RangeIndex(len(log)))


def test_seed_makes_it_reproducible():
    pd.testing.assert_frame_equal(purchases(300, rng=7), purchases(300, rng=7))
    assert not purchases(300, rng=7).equals(purchases(300, rng=8))
    generator = np.random.default_rng(1)
    assert not purchases(100, generator).equals(purchases(100, generator))  # the stream advances


def test_some_customers_own_many_rows():
    rows_per_customer = purchases(3000, rng=0).groupby("customer_id").size()
    assert rows_per_customer.min() >= 1
    assert 4 <= rows_per_customer.mean() <= 10
    assert rows_per_customer.median() <= 5
    assert rows_per_customer.max() >= 80  # the small businesses
    assert (rows_per_customer >= 80).sum() >= 3


def test_frequent_shoppers_buy_smaller_baskets():
    per_customer = purchases(3000, rng=0).groupby("customer_id")["amount"].agg(["size", "median"])
    assert per_customer["size"].corr(per_customer["median"], method="spearman") < -0.1


def test_amounts_are_skewed_with_a_long_tail():
    amount = purchases(3000, rng=0)["amount"]
    assert amount.mean() > amount.median()
    assert amount.quantile(0.99) > 4 * amount.median()
    by_category = purchases(3000, rng=0).groupby("category")["amount"].median()
    assert by_category["electronics"] > by_category["groceries"]


def test_large_tables_keep_unique_ids():
    log = purchases(20_000, rng=1)
    assert len(log) > 100_000  # enough rows for the error-against-n experiment of lesson 04
    assert log["customer_id"].nunique() == 20_000


@pytest.mark.parametrize("bad, error", [(0, ValueError), (2.5, TypeError), ("10", TypeError)])
def test_bad_size_is_refused(bad, error):
    with pytest.raises(error):
        purchases(bad)


def test_bad_seed_is_refused():
    with pytest.raises(TypeError):
        purchases(10, rng="seed")
