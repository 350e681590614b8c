"""Tests of the lesson 05 dataset generators: coffee_shop_revenue and nonlinear_features."""

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers import datasets
from mic_dp_helpers.datasets import (
    COFFEE_SHOP_BOUNDS,
    COFFEE_SHOP_TARGET,
    NONLINEAR_FEATURES_BOUNDS,
    coffee_shop_revenue,
    nonlinear_features,
)

SCHEMA = {
    "Number_of_Customers_Per_Day": (50, 499),
    "Average_Order_Value": (2.5, 10.0),
    "Operating_Hours_Per_Day": (6, 17),
    "Number_of_Employees": (2, 14),
    "Marketing_Spend_Per_Day": (10.0, 500.0),
    "Location_Foot_Traffic": (50, 999),
}


@pytest.fixture(scope="module")
def shop() -> pd.DataFrame:
    return coffee_shop_revenue()


def test_schema_and_default_size(shop):
    assert shop.shape == (2000, 7)
    assert list(shop.columns) == list(SCHEMA) + ["Daily_Revenue"]
    assert COFFEE_SHOP_TARGET == "Daily_Revenue"


@pytest.mark.parametrize("column", list(SCHEMA))
def test_columns_stay_in_their_documented_ranges(shop, column):
    low, high = SCHEMA[column]
    assert shop[column].between(low, high).all()
    # the range is used, not just a corner of it
    assert shop[column].min() < low + 0.05 * (high - low) and shop[column].max() > high - 0.05 * (high - low)


def test_count_columns_are_integers_and_money_has_cents(shop):
    for column in ("Number_of_Customers_Per_Day", "Operating_Hours_Per_Day", "Number_of_Employees",
                   "Location_Foot_Traffic"):
        assert pd.api.types.is_integer_dtype(shop[column]), column
    for column in ("Average_Order_Value", "Marketing_Spend_Per_Day", "Daily_Revenue"):
        assert np.allclose(shop[column], shop[column].round(2))
    assert (shop["Daily_Revenue"] >= 0).all()


def test_revenue_depends_on_customers_and_order_value_weakly_on_marketing_not_on_the_rest(shop):
    r = shop.corr()["Daily_Revenue"]
    assert r["Number_of_Customers_Per_Day"] > 0.6
    assert r["Average_Order_Value"] > 0.45
    assert 0.1 < r["Marketing_Spend_Per_Day"] < 0.4
    for column in ("Operating_Hours_Per_Day", "Number_of_Employees", "Location_Foot_Traffic"):
        assert abs(r[column]) < 0.06, column  # 2000 rows: the standard error of r is about 0.022


def test_revenue_is_mostly_customers_times_order_value(shop):
    product = shop["Number_of_Customers_Per_Day"] * shop["Average_Order_Value"]
    assert np.corrcoef(product, shop["Daily_Revenue"])[0, 1] > 0.95


def test_seeded_and_reproducible():
    pd.testing.assert_frame_equal(coffee_shop_revenue(100, rng=3), coffee_shop_revenue(100, rng=3))
    assert not coffee_shop_revenue(100, rng=3).equals(coffee_shop_revenue(100, rng=4))
    generator = np.random.default_rng(0)
    assert not coffee_shop_revenue(50, generator).equals(coffee_shop_revenue(50, generator))


def test_declared_bounds_contain_every_generated_value():
    for seed in range(5):
        table = coffee_shop_revenue(2000, rng=seed)
        for column, (low, high) in COFFEE_SHOP_BOUNDS.items():
            assert table[column].between(low, high).all(), (seed, column)


def test_docstrings_say_synthetic():
    assert "synthetic" in coffee_shop_revenue.__doc__.lower()
    assert "synthetic" in nonlinear_features.__doc__.lower()


@pytest.mark.parametrize("bad", [0, -5, 2.5, "100", True])
def test_invalid_sizes_are_refused(bad):
    with pytest.raises((TypeError, ValueError), match="n must be an integer"):
        coffee_shop_revenue(bad)
    with pytest.raises((TypeError, ValueError), match="n must be an integer"):
        nonlinear_features(bad)


def test_nonlinear_features_hides_a_u_shape_from_pearson():
    toy = nonlinear_features(2000, rng=1)
    assert list(toy.columns) == ["linear", "u_shaped", "irrelevant", "target"]
    r = toy.corr()["target"]
    assert r["linear"] > 0.3
    assert abs(r["u_shaped"]) < 0.08 and abs(r["irrelevant"]) < 0.08
    # but the target clearly depends on u_shaped: its square explains much of the variance
    assert np.corrcoef(toy["u_shaped"] ** 2, toy["target"])[0, 1] > 0.7
    for column, (low, high) in NONLINEAR_FEATURES_BOUNDS.items():
        if column != "target":
            assert toy[column].between(low, high).all()


def test_nonlinear_features_mic_sees_what_pearson_misses():
    pytest.importorskip("minepy")
    from mic_dp_helpers.micdp.relevance import mic_relevance, pearson_relevance

    toy = nonlinear_features(500, rng=2)
    X, y = toy.drop(columns="target"), toy["target"]
    assert mic_relevance(X, y).idxmax() == "u_shaped"
    assert pearson_relevance(X, y).idxmax() == "linear"


def test_existing_generators_are_untouched():
    assert "coffee_shop_revenue" not in datasets.__all__ or callable(datasets.coffee_shop_revenue)
    assert datasets.medical(10).shape == (10, 7)
