"""Tests of mic_dp_helpers.micdp.published, the re-implementation of MIC-DP as published, flaws included.

These tests pin the flaws down: each one must be present (the lesson measures them), and the
audit must catch the column released without noise.
"""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import mutual_info_regression

from mic_dp_helpers.micdp import published as micdp
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.datasets import COFFEE_SHOP_TARGET, coffee_shop_revenue

TARGET = COFFEE_SHOP_TARGET


@pytest.fixture(scope="module")
def shop():
    return coffee_shop_revenue(300, rng=8)


def test_scaling_uses_the_data_own_min_and_max():
    X = pd.DataFrame({"a": [10.0, 20.0, 30.0], "b": [5.0, 5.0, 5.0]})
    scaled = micdp.published_scaling(X)
    assert scaled["a"].tolist() == [0.0, 0.5, 1.0] and scaled["b"].tolist() == [0.0, 0.0, 0.0]
    wider = micdp.published_scaling(pd.DataFrame({"a": [10.0, 20.0, 110.0]}))
    assert wider["a"].iloc[1] == pytest.approx(0.1), "one value moves everyone's scaled value"
    assert micdp.published_sensitivity(scaled).tolist() == [1.0, 0.0]


def test_relevance_as_published(shop):
    scaled = micdp.published_scaling(shop)
    y = shop[TARGET].to_numpy()
    mic = micdp.published_relevance(scaled, y, "mic", rng=0)
    expected = mutual_info_regression(scaled[["Average_Order_Value"]].to_numpy(), y, random_state=0)[0]
    assert mic["Average_Order_Value"] == pytest.approx(expected), "'MIC' is k-NN mutual information"
    assert mic.idxmax() == TARGET
    pearson = micdp.published_relevance(scaled, -y, "pearson")
    assert pearson[TARGET] == pytest.approx(-1.0), "the published Pearson score is signed"
    maha = micdp.published_relevance(pd.DataFrame({"a": [1.0, 2.0, 4.0]}), [2.0, 3.0, 5.0], "mahalanobis")
    assert math.isinf(maha["a"])
    assert (micdp.published_relevance(scaled, y, "uniform") == 1.0).all()
    with pytest.raises(ValueError, match="method must be one of"):
        micdp.published_relevance(scaled, y, "spearman")


def test_factors_give_the_top_feature_zero():
    factors = micdp.published_factors(pd.Series({"a": 0.9, "b": 0.5, "c": 0.1}))
    assert factors.tolist() == [0.0, 2.5, 5.0]
    assert micdp.published_factors(pd.Series({"a": 0.9, "b": 0.1}), uniform=True).tolist() == [5.0, 5.0]
    with_infinity = micdp.published_factors(pd.Series({"a": math.inf, "b": 0.3, "c": 0.1}))
    assert with_infinity.tolist() == [5.0, 5.0, 5.0], "NaN factors are replaced by A, as published"


def test_release_adds_the_value_twice_and_skips_noise_at_factor_zero():
    X = pd.DataFrame({"a": [0.2, 0.8], "b": [0.4, 0.6]})
    factors = pd.Series({"a": 0.0, "b": 2.0})
    draws = micdp.published_release(X, factors, 0.5, mechanism="laplace", rng=0, size=40_000)
    assert np.all(draws[:, :, 0] == X["a"].to_numpy()), "factor 0: no noise at all"
    # E[x + f (x + Z)] = (1 + f) x; the noise sd is f * sqrt(2) * 1 / 0.5 = 5.7, so the standard error of
    # the mean is 0.03: a tolerance of 0.15 is 5 standard errors.
    assert draws[:, :, 1].mean(axis=0) == pytest.approx(3 * X["b"].to_numpy(), abs=0.15)
    one = micdp.published_release(X, factors, 0.5, rng=0)
    assert isinstance(one, pd.DataFrame) and one.shape == X.shape


def test_noise_scale_is_the_classic_gaussian_for_the_full_epsilon():
    assert micdp.published_noise_scale(1.0, 0.5, 1e-5) == pytest.approx(math.sqrt(2 * math.log(1.25e5)) / 0.5)
    assert micdp.published_noise_scale(2.0, 0.5, mechanism="laplace") == 4.0
    with pytest.raises(ValueError, match="mechanism must be"):
        micdp.published_noise_scale(1.0, 0.5, mechanism="exponential")


def test_effective_epsilons():
    got = micdp.effective_epsilons(pd.Series({"a": 0.0, "b": 1.0, "c": 5.0}), 0.5)
    assert math.isinf(got["a"]) and got["b"] == pytest.approx(1.0) and got["c"] == pytest.approx(0.6)
    with pytest.raises(ValueError, match=">= 0"):
        micdp.effective_epsilons(pd.Series({"a": -1.0}), 0.5)


def test_pipeline_leaks_the_target_and_reports_in_sample_error(shop):
    with_target = micdp.published_pipeline(shop, TARGET, "pearson", 0.5, rng=0)
    assert with_target["factors"][TARGET] == 0.0
    assert with_target["in_sample_mae"] < 1e-6, "the target is released exactly and predicts itself"
    assert math.isnan(with_target["holdout_mae"])
    without = micdp.published_pipeline(shop, TARGET, "pearson", 0.5, include_target=False, rng=0,
                                       holdout=np.arange(200, 300))
    assert TARGET not in without["released"].columns and without["holdout_mae"] > 0
    reused = micdp.published_pipeline(shop, TARGET, "pearson", 0.5, include_target=False, rng=0,
                                      holdout=np.arange(200, 300), factors=without["factors"])
    assert reused["holdout_mae"] == without["holdout_mae"]
    with pytest.raises(ValueError, match="one factor per released column"):
        micdp.published_pipeline(shop, TARGET, "pearson", 0.5, factors=without["factors"])
    with pytest.raises(KeyError, match="not a column"):
        micdp.published_pipeline(shop, "profit", "pearson", 0.5)


def test_the_audit_finds_the_column_released_without_noise(shop):
    neighbour = shop.copy()
    neighbour.iloc[0] = coffee_shop_revenue(1, rng=99).iloc[0].to_numpy()
    sampler = micdp.published_row_sampler(TARGET, "pearson", 0.5)
    result = audit_epsilon(sampler, shop, neighbour, n_samples=10_000, rng=0)
    assert result.refutes(5.0) and "==" in result.event and result.count_b == 0


def test_data_range_release_moves_other_people():
    a = np.array([100.0, 200.0, 300.0, 400.0])
    b = a.copy()
    b[0] = 2000.0
    out_a = micdp.data_range_release(a, 1.0, 20_000, rng=0)
    out_b = micdp.data_range_release(b, 1.0, 20_000, rng=0)
    # person 3 did not change, yet their scaled value moves from 1.0 to (400 - 200) / (2000 - 200)
    shift = out_a[:, 3].mean() - out_b[:, 3].mean()
    expected = 1.0 - (400.0 - 200.0) / 1800.0
    assert shift == pytest.approx(expected, abs=1e-9), "same noise draws: the shift is exactly the scaling change"
    with pytest.raises(ValueError, match="at least two"):
        micdp.data_range_release([1.0], 1.0, 3)


@pytest.mark.parametrize("call", [
    lambda: micdp.published_release(pd.DataFrame({"a": [0.0, 1.0]}), pd.Series({"a": 1.0}), 1.0, rng=0, size=10**12),
    lambda: micdp.data_range_release([1.0, 2.0], 1.0, 10**12, rng=0),
])
def test_huge_size_is_a_clear_error_not_a_memory_error(call):
    with pytest.raises(ValueError, match="size=.* is too large"):
        call()


@pytest.mark.parametrize("call, name", [
    (lambda v: micdp.published_relevance(pd.DataFrame({"a": [1.0, 2, 3]}), [1.0, 2, 4], v), "method"),
    (lambda v: micdp.published_row_sampler("a", v, 0.5), "method"),
    (lambda v: micdp.published_noise_scale(1.0, 0.5, mechanism=v), "mechanism"),
    (lambda v: micdp.published_release(pd.DataFrame({"a": [0.0, 1.0]}), pd.Series({"a": 1.0}), 0.5, mechanism=v),
     "mechanism"),
])
def test_a_method_name_that_is_not_a_string_is_a_clear_error(call, name):
    for bad in (pd.Series(["pearson"]), np.array(["pearson"]), ["pearson"], None, 5):
        # a TypeError that is also a ValueError (the error these checks raised before for wrong names)
        with pytest.raises(TypeError, match=f"{name} must be one of .* \\(a string\\), got") as error:
            call(bad)
        assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("bad", [[COFFEE_SHOP_TARGET], pd.Series([COFFEE_SHOP_TARGET]), np.array([COFFEE_SHOP_TARGET]), {COFFEE_SHOP_TARGET}])
def test_a_target_that_is_not_one_name_is_a_clear_error(bad):
    with pytest.raises(TypeError, match="target must be one column name"):
        micdp.published_pipeline(coffee_shop_revenue(50), bad, "pearson", 0.5, rng=0)
    with pytest.raises(TypeError, match="target must be one column name"):
        micdp.published_row_sampler(bad, "pearson", 0.5)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(factors=pd.Series({"b": 1.0})), ValueError, "factors must have one factor per released column"),
    (dict(factors={"a": 1.0}), TypeError, "factors must be a pandas Series"),
    (dict(factors=pd.Series({"a": np.nan})), ValueError, "factors must be finite numbers >= 0"),
    (dict(factors=pd.Series({"a": -1.0})), ValueError, "factors must be finite numbers >= 0"),
    (dict(sensitivity=pd.Series({"b": 1.0})), ValueError, "sensitivity must have one factor per released column"),
    (dict(sensitivity=[1.0]), TypeError, "sensitivity must be a pandas Series"),
    (dict(sensitivity=pd.Series({"a": "x"})), TypeError, "sensitivity must hold numbers"),
])
def test_published_release_checks_factors_and_sensitivity_per_column(kwargs, error, match):
    arguments = dict(factors=pd.Series({"a": 1.0}), sensitivity=None) | kwargs
    with pytest.raises(error, match=match):
        micdp.published_release(pd.DataFrame({"a": [0.0, 1.0]}), arguments.pop("factors"), 1.0, rng=0, **arguments)


@pytest.mark.parametrize("call, error, match", [
    (lambda: micdp.published_relevance(pd.DataFrame({"a": [1.0, 2, 3]}), ["x", "y", "z"], "pearson"), TypeError,
     "y must be numeric"),
    (lambda: micdp.published_relevance(pd.DataFrame({"a": [1.0, 2, 3]}), [1.0, 2, 4], "mic", rng="s"),
     TypeError, "rng must be None, a non-negative int seed or a numpy.random.Generator"),
    (lambda: micdp.published_factors(pd.Series({"a": "x"})), TypeError, "relevance must hold numbers"),
    (lambda: micdp.published_factors(pd.Series({"a": 1.0}), uniform="yes"), TypeError, "uniform must be True or False"),
    (lambda: micdp.effective_epsilons(pd.Series({"a": "x"}), 1.0), TypeError, "factors must hold numbers"),
    (lambda: micdp.published_noise_scale(None, 0.5), ValueError, "sensitivity contains NaN"),
    (lambda: micdp.published_noise_scale(["a"], 0.5), TypeError, "sensitivity must be numeric"),
    (lambda: micdp.published_noise_scale(-1.0, 0.5), ValueError, "sensitivity must be >= 0"),
    (lambda: micdp.data_range_release([1.0, np.nan], 1.0, 2, rng=0), ValueError, "values contains NaN"),
    (lambda: micdp.data_range_release(["a", "b"], 1.0, 2, rng=0), TypeError, "values must be numeric"),
])
def test_published_helpers_check_their_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(holdout=[-1]), ValueError, "holdout must list row positions, whole numbers from 0 to 49"),
    (dict(holdout=[0, 500]), ValueError, "holdout must list row positions"),
    (dict(holdout=[0.5]), ValueError, "holdout must list row positions"),
    (dict(holdout=[3, 3]), ValueError, "holdout must list each row once"),
    (dict(holdout=5), TypeError, "holdout must be a list of row positions"),
    (dict(model="forest"), TypeError, "model must be a scikit-learn regressor"),
    (dict(include_target="yes"), TypeError, "include_target must be True or False"),
])
def test_published_pipeline_checks_holdout_model_and_flags(kwargs, error, match):
    with pytest.raises(error, match=match):
        micdp.published_pipeline(coffee_shop_revenue(50), COFFEE_SHOP_TARGET, "pearson", 0.5, rng=0, **kwargs)


@pytest.mark.parametrize("row, size, error, match", [
    (1.5, 3, TypeError, "row must be an integer"),
    (-1, 3, ValueError, "row must be an integer >= 0"),
    (500, 3, ValueError, "row=500 is not a row of the data, which has 50 rows"),
    (0, None, TypeError, "size must be an integer"),
])
def test_published_row_sampler_checks_row_and_size(row, size, error, match):
    with pytest.raises(error, match=match):
        micdp.published_row_sampler(COFFEE_SHOP_TARGET, "pearson", 0.5, row=row)(coffee_shop_revenue(50), size,
                                                                                np.random.default_rng(0))
