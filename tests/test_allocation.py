"""Tests of mic_dp_helpers.micdp.allocation: budget splits, the honest release, paid relevance and utility metrics.

Statistical tests use fixed seeds and state their tolerance (several standard errors wide).
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LinearRegression
from sklearn.metrics import adjusted_rand_score, silhouette_score, v_measure_score

from mic_dp_helpers.micdp import allocation
from mic_dp_helpers.micdp import release_utility
from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant, zcdp_to_dp
from mic_dp_helpers.micdp.allocation import (
    check_bounds,
    clip_to_bounds,
    count_outside_bounds,
    epsilon_to_rho,
    plan_budget,
    relevance_weights,
    release_table,
    split_budget,
    top_k_features,
)
from mic_dp_helpers.micdp.paid_relevance import private_relevance
from mic_dp_helpers.micdp.relevance import relevance_scores
from mic_dp_helpers.micdp.release_utility import clustering_utility, compare_allocations, feature_mae, prediction_mae
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.datasets import COFFEE_SHOP_BOUNDS, COFFEE_SHOP_TARGET, coffee_shop_revenue

scores_strategy = st.lists(st.floats(-1, 10, allow_nan=False), min_size=1, max_size=8)


def _series(values):
    return pd.Series(values, index=[f"f{i}" for i in range(len(values))], dtype=float)


# --------------------------------------------------------------------------------- weights
def test_relevance_weights_example():
    weights = relevance_weights(pd.Series({"a": 0.8, "b": 0.4, "c": 0.0}), floor=0.2)
    assert weights.tolist() == pytest.approx([1.0 / 1.8, 0.6 / 1.8, 0.2 / 1.8])  # raw weights 1.0, 0.6, 0.2


@settings(max_examples=80, deadline=None)
@given(values=scores_strategy, floor=st.floats(0.01, 1.0), power=st.floats(0, 3))
def test_weights_are_positive_sum_to_one_respect_the_floor_and_the_order(values, floor, power):
    weights = relevance_weights(_series(values), floor=floor, power=power)
    assert (weights > 0).all()
    assert math.isclose(weights.sum(), 1.0, rel_tol=1e-12)
    assert weights.min() >= floor * weights.max() * (1 - 1e-12)
    clipped = np.clip(values, 0, None)
    order = np.argsort(clipped, kind="stable")
    assert np.all(np.diff(weights.to_numpy()[order]) >= -1e-15), "more relevant never gets less"


def test_weights_degenerate_cases():
    assert relevance_weights(_series([0.0, 0.0, 0.0])).tolist() == pytest.approx([1 / 3] * 3)
    assert relevance_weights(_series([-1.0, -2.0])).tolist() == pytest.approx([0.5, 0.5])
    assert relevance_weights(_series([0.9, 0.1]), floor=1.0).tolist() == pytest.approx([0.5, 0.5])
    assert relevance_weights(_series([0.9, 0.1]), power=0).tolist() == pytest.approx([0.5, 0.5])
    assert relevance_weights({"a": 2.0, "b": 1.0}).index.tolist() == ["a", "b"]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"floor": 0}, ValueError, "floor must be > 0"),
    ({"floor": 1.5}, ValueError, r"floor must be in \(0, 1\]"),
    ({"power": -1}, ValueError, "power must be"),
    ({"power": math.inf}, ValueError, "power must be"),
])
def test_weights_validate_their_parameters(kwargs, error, message):
    with pytest.raises(error, match=message):
        relevance_weights(_series([0.5, 0.2]), **kwargs)


@pytest.mark.parametrize("bad, error, message", [
    ([1, 2], TypeError, "must be a pandas Series"),
    (pd.Series([], dtype=float), ValueError, "is empty"),
    (_series([0.3, np.nan]), ValueError, "NaN or infinite"),
    (pd.Series([0.1, 0.2], index=["a", "a"]), ValueError, "names a feature twice"),
])
def test_weights_refuse_bad_relevance(bad, error, message):
    with pytest.raises(error, match=message):
        relevance_weights(bad)


@settings(max_examples=80, deadline=None)
@given(total=st.floats(1e-3, 100), weights=st.lists(st.floats(1e-6, 1e3), min_size=1, max_size=10))
def test_split_budget_sums_exactly_to_the_total(total, weights):
    parts = split_budget(total, _series(weights))
    assert math.fsum(parts) == pytest.approx(total, rel=1e-15, abs=0)
    assert (parts > 0).all()


def test_split_budget_refuses_a_zero_weight():
    with pytest.raises(ValueError, match="a zero weight means a release without noise"):
        split_budget(1.0, _series([1.0, 0.0]))


def test_top_k_features_orders_by_relevance_with_stable_ties():
    scores = pd.Series({"a": 0.5, "b": 0.9, "c": 0.5, "d": 0.1})
    assert top_k_features(scores, 3) == ["b", "a", "c"]
    with pytest.raises(ValueError, match="only 4 features"):
        top_k_features(scores, 5)
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        top_k_features(scores, 0)


@settings(max_examples=50, deadline=None)
@given(epsilon=st.floats(1e-3, 50), delta=st.floats(1e-12, 0.1))
def test_epsilon_to_rho_inverts_the_zcdp_conversion(epsilon, delta):
    assert zcdp_to_dp(epsilon_to_rho(epsilon, delta), delta) == pytest.approx(epsilon, rel=1e-9)


# ------------------------------------------------------------------------------------ plans
def test_plan_budget_reserves_a_share_and_splits_the_rest():
    plan = plan_budget({"a": 1.0, "b": 0.0}, 2.0, floor=0.5, reserve={"y": 0.25})
    assert plan.to_dict() == pytest.approx({"a": 1.0, "b": 0.5, "y": 0.5})
    assert math.fsum(plan) == 2.0


def test_plan_budget_top_k_spends_everything_on_the_kept_features():
    plan = plan_budget({"a": 0.9, "b": 0.1, "c": 0.5}, 1.0, top_k=2)
    assert list(plan.index) == ["a", "c"] and math.fsum(plan) == pytest.approx(1.0)


def test_plan_budget_gaussian_splits_rho():
    plan = plan_budget({"a": 1.0, "b": 0.5}, 1.0, mechanism="gaussian", delta=1e-6, reserve={"y": 0.2})
    assert plan.name == "rho"
    assert math.fsum(plan) == pytest.approx(epsilon_to_rho(1.0, 1e-6), rel=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    ({"reserve": {"y": 1.0}}, "must leave part of the budget"),
    ({"reserve": {"a": 0.2}}, "both reserved and in relevance"),
    ({"mechanism": "gaussian"}, "needs delta"),
    ({"delta": 1e-6}, "only used with mechanism='gaussian'"),
    ({"mechanism": "exponential"}, "mechanism must be one of"),
])
def test_plan_budget_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        plan_budget({"a": 1.0, "b": 0.5}, 1.0, **kwargs)


# --------------------------------------------------------------------------------- release
def test_check_bounds_and_clip():
    assert clip_to_bounds(pd.DataFrame({"a": [-5.0, 0.5, 9.0]}), {"a": (0, 1)})["a"].tolist() == [0.0, 0.5, 1.0]
    with pytest.raises(KeyError, match="never use the data's own min and max"):
        check_bounds({"a": (0, 1)}, ["a", "b"])
    with pytest.raises(ValueError, match="lower < upper"):
        check_bounds({"a": (1, 1)}, ["a"])
    with pytest.raises(TypeError, match=r"\(lower, upper\) pair"):
        check_bounds({"a": 5}, ["a"])
    with pytest.raises(TypeError, match="declared in advance"):
        check_bounds([(0, 1)], ["a"])


def test_laplace_release_has_the_right_noise_and_clips_first():
    n = 20_000
    X = pd.DataFrame({"a": np.full(n, 5.0), "b": np.full(n, -3.0)})  # b lies below its bounds
    bounds = {"a": (0.0, 10.0), "b": (0.0, 2.0)}
    with pytest.warns(UserWarning, match="clipped"):
        out = release_table(X, bounds, {"a": 0.5, "b": 0.25}, rng=0)
    # noise scale (upper - lower) / epsilon: 20 for a, 8 for b; the mean absolute noise equals the scale,
    # with a relative standard error of 1/sqrt(n) = 0.7%: 5% is a wide tolerance.
    assert np.mean(np.abs(out["a"] - 5.0)) == pytest.approx(20.0, rel=0.05)
    assert np.mean(np.abs(out["b"] - 0.0)) == pytest.approx(8.0, rel=0.05)
    assert abs(np.median(out["b"])) < 0.5  # centred on the clipped value 0, not on -3


def test_release_stores_clipped_counts_per_column_and_warns_without_them():
    X = pd.DataFrame({"a": [-1.0, 0.5, 2.0, 3.0, 0.2], "b": [1.0, 2.0, 3.0, 4.0, 5.0], "c": [9.0] * 5})
    bounds = {"a": (0.0, 1.0), "b": (0.0, 10.0), "c": (0.0, 5.0)}
    with pytest.warns(UserWarning, match=r"clipped \(counts per column in released.attrs") as caught:
        out = release_table(X, bounds, {"a": 0.3, "b": 0.3, "c": 0.4}, rng=0)
    assert not any(char.isdigit() for w in caught for char in str(w.message)), "no data-dependent count is warned"
    assert out.attrs["clipped"] == {"a": 3, "b": 0, "c": 5}
    assert "replace one" in out.attrs["neighbours"]
    assert count_outside_bounds(X, bounds).to_dict() == {"a": 3, "b": 0, "c": 5}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing clipped: no warning
        inside = release_table(X[["b"]], bounds, {"b": 1.0}, rng=0)
    assert inside.attrs["clipped"] == {"b": 0}


def test_release_ignores_non_numeric_columns_that_are_not_released():
    X = pd.DataFrame({"day": pd.date_range("2025-01-01", periods=4), "name": list("wxyz"),
                      "a": [0.1, 0.2, 0.3, 0.4]})
    accountant = PrivacyAccountant(1.0)
    out = release_table(X, {"a": (0, 1)}, {"a": 1.0}, accountant=accountant, rng=0)
    assert list(out.columns) == ["a"] and accountant.spent_epsilon == 1.0
    with pytest.raises(TypeError, match="column 'name' of X must be numeric"):
        release_table(X, {"name": (0, 1)}, {"name": 1.0}, rng=0)


def test_plan_budget_catches_a_misspelt_reserve_where_it_is_made():
    relevance = {"Number_of_Customers_Per_Day": 0.8, "Average_Order_Value": 0.3}
    columns = list(relevance) + ["Daily_Revenue"]
    with pytest.raises(KeyError, match=r"'Daily_Revenu'.*did you mean 'Daily_Revenue'"):
        plan_budget(relevance, 1.0, reserve={"Daily_Revenu": 0.25}, columns=columns)
    with pytest.raises(KeyError, match="relevance names column"):
        plan_budget({**relevance, "Staff": 0.1}, 1.0, reserve={"Daily_Revenue": 0.25}, columns=columns)
    with pytest.raises(ValueError, match="looks like the feature 'Average_Order_Value'"):
        plan_budget(relevance, 1.0, reserve={"Average_Order_Valeu": 0.25})
    with pytest.raises(TypeError, match="reserve must be a dict"):
        plan_budget(relevance, 1.0, reserve=[("Daily_Revenue", 0.25)])
    plan = plan_budget(relevance, 1.0, reserve={"Daily_Revenue": 0.25}, columns=columns)
    assert plan["Daily_Revenue"] == pytest.approx(0.25)
    unchecked = plan_budget(relevance, 1.0, reserve={"Daily_Revenu": 0.25})  # without columns: caught at the release
    table = pd.DataFrame({c: [1.0, 2.0] for c in columns})
    with pytest.raises(KeyError, match="did you mean 'Daily_Revenue'"):
        release_table(table, {c: (0, 10) for c in columns}, unchecked, rng=0)


def test_comparison_names_the_missing_column_and_refuses_the_target_as_a_feature(small_comparison):
    data, relevance, _ = small_comparison
    test = data.drop(columns="Average_Order_Value")
    with pytest.raises(KeyError, match=r"test has no column\(s\) \['Average_Order_Value'\]"):
        compare_allocations(data, test, COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS, relevance, [1.0], n_seeds=1,
                            progress=False)
    leaky = {"uniform": pd.Series(1.0, index=list(relevance["uniform"].index) + [COFFEE_SHOP_TARGET])}
    with pytest.raises(ValueError, match="must not be among the features"):
        compare_allocations(data, data, COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS, leaky, [1.0], n_seeds=1,
                            progress=False)
    too_big = data.copy()
    too_big.loc[too_big.index[:3], "Average_Order_Value"] = 1e6
    with pytest.warns(UserWarning, match=r"clipped before every release \(counts per column in the result"):
        clipped = compare_allocations(too_big, data, COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS, relevance, [1.0],
                                      n_seeds=1, clustering=False, progress=False)
    assert clipped.attrs["clipped"]["Average_Order_Value"] == 3
    with_text = data.assign(shop_name="Bean There", day=pd.Timestamp("2025-01-01"))
    results = compare_allocations(with_text, with_text, COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS, relevance, [1.0],
                                  n_seeds=1, clustering=False, progress=False)
    assert len(results) == len(relevance)


def test_private_relevance_aligns_y_on_the_index_and_refuses_the_target_among_features():
    data = coffee_shop_revenue(400, rng=8)
    X, y = data.drop(columns=COFFEE_SHOP_TARGET), data[COFFEE_SHOP_TARGET]
    shuffled = y.sample(frac=1.0, random_state=0)
    aligned = private_relevance(X, shuffled, "pearson", 1000.0, rng=0)
    assert np.allclose(aligned, private_relevance(X, y, "pearson", 1000.0, rng=0))
    with pytest.raises(ValueError, match="index does not match"):
        private_relevance(X, y.reset_index(drop=True).set_axis(range(1000, 1400)), "pearson", 1.0, rng=0)
    with pytest.raises(ValueError, match="the target is still among the features"):
        private_relevance(data, y, "pearson", 1.0, rng=0)


def test_private_relevance_refuses_the_target_by_name_never_by_its_values():
    """A refusal that depends on the private values is an output outside the guarantee."""
    data = coffee_shop_revenue(400, rng=8)
    X, y = data.drop(columns=COFFEE_SHOP_TARGET), data[COFFEE_SHOP_TARGET]
    copied = X.assign(revenue_copy=y.to_numpy())  # the target's values under another name
    scores = private_relevance(copied, y, "pearson", 1.0, rng=0)  # released: the refusal would depend on the values
    assert list(scores.index) == list(copied.columns)
    with pytest.raises(ValueError, match="equals the target"):  # the data holder's non-private sanity check
        relevance_scores(copied, y, "pearson")


def test_gaussian_release_has_the_right_noise_and_charges_the_converted_epsilon():
    n = 20_000
    X = pd.DataFrame({"a": np.zeros(n)})
    accountant = PrivacyAccountant(5.0, total_delta=1e-5)
    out = release_table(X, {"a": (-1.0, 1.0)}, {"a": 0.08}, mechanism="gaussian", delta=1e-6,
                        accountant=accountant, rng=1)
    assert out["a"].std() == pytest.approx(2.0 / math.sqrt(0.16), rel=0.03)  # sd standard error 0.5%
    assert accountant.spent_epsilon == pytest.approx(zcdp_to_dp(0.08, 1e-6))
    assert accountant.spent_delta == 1e-6 and "rho" in accountant.ledger[0].label


def test_release_records_every_column_and_keeps_the_order():
    X = coffee_shop_revenue(100)
    plan = plan_budget({c: 1.0 for c in X.columns if c != COFFEE_SHOP_TARGET}, 1.0,
                       reserve={COFFEE_SHOP_TARGET: 0.25})
    accountant = PrivacyAccountant(1.0)
    out = release_table(X, COFFEE_SHOP_BOUNDS, plan, accountant=accountant, rng=0, label="test")
    assert list(out.columns) == list(plan.index) and out.index.equals(X.index)
    assert len(accountant.ledger) == 7 and accountant.spent_epsilon == pytest.approx(1.0)
    assert all(entry.label.startswith("test: ") for entry in accountant.ledger)


def test_release_that_does_not_fit_spends_nothing():
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.6)
    with pytest.raises(BudgetExceededError):
        release_table(pd.DataFrame({"a": [0.5]}), {"a": (0, 1)}, {"a": 0.5}, accountant=accountant, rng=0)
    assert accountant.spent_epsilon == pytest.approx(0.6) and len(accountant.ledger) == 1


@pytest.mark.parametrize("budget, bounds, error, message", [
    ({"a": 0.0}, {"a": (0, 1)}, ValueError, "no noise-free columns"),
    ({"z": 0.5}, {"z": (0, 1)}, KeyError, "that X does not have"),
    ({"a": 0.5}, {}, KeyError, "no declared bounds"),
])
def test_release_errors(budget, bounds, error, message):
    with pytest.raises(error, match=message):
        release_table(pd.DataFrame({"a": [0.5, 0.7]}), bounds, budget, rng=0)


def test_release_refuses_missing_values_and_bad_mechanisms():
    with pytest.raises(ValueError, match="missing values"):
        release_table(pd.DataFrame({"a": [0.5, np.nan]}), {"a": (0, 1)}, {"a": 1.0})
    with pytest.raises(ValueError, match="mechanism must be one of"):
        release_table(pd.DataFrame({"a": [0.5]}), {"a": (0, 1)}, {"a": 1.0}, mechanism="uniform")
    with pytest.raises(ValueError, match="needs delta"):
        release_table(pd.DataFrame({"a": [0.5]}), {"a": (0, 1)}, {"a": 1.0}, mechanism="gaussian")


def test_the_audit_does_not_refute_the_honest_release():
    bounds = {"a": (0.0, 1.0), "b": (0.0, 10.0)}
    plan = pd.Series({"a": 0.7, "b": 0.3})
    day_a, day_b = pd.DataFrame({"a": [0.0], "b": [10.0]}), pd.DataFrame({"a": [1.0], "b": [0.0]})

    def one_row(day, size, rng):
        return release_table(day.iloc[np.zeros(size, dtype=int)], bounds, plan, rng=rng).to_numpy()

    result = audit_epsilon(one_row, day_a, day_b, n_samples=40_000, rng=3)
    assert not result.refutes(1.0)
    assert result.epsilon_lower_bound > 0.3  # the audit has power: the worst-case pair shows a real loss


# ------------------------------------------------------------------------- paid relevance
def test_private_relevance_charges_the_accountant_and_stays_in_range():
    data = coffee_shop_revenue(1000, rng=4)
    X, y = data.drop(columns=COFFEE_SHOP_TARGET), data[COFFEE_SHOP_TARGET]
    accountant = PrivacyAccountant(2.0)
    scores = private_relevance(X, y, "pearson", 1.0, accountant=accountant, rng=0)
    assert accountant.spent_epsilon == 1.0 and "relevance" in accountant.ledger[0].label
    assert ((scores >= 0) & (scores <= 1)).all() and list(scores.index) == list(X.columns)


def test_private_relevance_approaches_the_block_average_for_large_epsilon():
    data = coffee_shop_revenue(1000, rng=4)
    X, y = data.drop(columns=COFFEE_SHOP_TARGET), data[COFFEE_SHOP_TARGET]
    scores = private_relevance(X, y, "mahalanobis", 1e6, n_blocks=5, rng=0)
    assert scores.idxmax() == "Number_of_Customers_Per_Day"
    assert scores["Number_of_Customers_Per_Day"] > 0.5 > scores["Location_Foot_Traffic"]


def test_private_relevance_errors():
    data = coffee_shop_revenue(50)
    X, y = data.drop(columns=COFFEE_SHOP_TARGET), data[COFFEE_SHOP_TARGET]
    with pytest.raises(ValueError, match="method must be"):
        private_relevance(X, y, "uniform", 1.0)
    with pytest.raises(ValueError, match="too many"):
        private_relevance(X, y, "pearson", 1.0, n_blocks=30)
    accountant = PrivacyAccountant(0.5)
    with pytest.raises(BudgetExceededError):
        private_relevance(X, y, "pearson", 1.0, accountant=accountant)
    assert accountant.spent_epsilon == 0


# ----------------------------------------------------------------------------------- utility
def test_feature_and_prediction_mae():
    real = pd.DataFrame({"a": [0.0, 1.0], "b": [0.0, 10.0]})
    released = pd.DataFrame({"a": [0.5, 1.0], "b": [5.0, 10.0]})
    assert feature_mae(real, released, {"a": (0, 2), "b": (0, 10)}) == pytest.approx((0.125 + 0.25) / 2)
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(100, 3)), columns=list("abc"))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=100)
    expected = np.mean(np.abs(LinearRegression().fit(X[:60], y[:60]).predict(X[60:]) - y[60:]))
    assert prediction_mae(X[:60], y[:60], X[60:], y[60:]) == pytest.approx(expected)


def test_clustering_utility_uses_scikit_learns_kmeans_and_scores():
    rng = np.random.default_rng(3)
    real = pd.DataFrame(rng.uniform(0, 1, (200, 2)), columns=["a", "b"])
    released = real + rng.laplace(0, 0.2, real.shape)
    bounds = {"a": (0, 1), "b": (0, 1)}
    got = clustering_utility(real, released, bounds, n_clusters=3, rng=4, silhouette_sample=None)
    from sklearn.cluster import KMeans

    real_labels = KMeans(3, n_init=1, random_state=4).fit(real.to_numpy()).labels_
    labels = KMeans(3, n_init=1, random_state=release_utility._seed(4, 1)).fit(released.to_numpy()).labels_
    assert got["ari"] == pytest.approx(adjusted_rand_score(real_labels, labels), abs=1e-12)
    assert got["v_measure"] == pytest.approx(v_measure_score(real_labels, labels), abs=1e-12)
    assert got["silhouette"] == pytest.approx(silhouette_score(released.to_numpy(), labels), abs=1e-12)


def test_kmeans_finds_well_separated_clusters():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 5.0]])
    truth = np.repeat([0, 1, 2], 50)
    points = centres[truth] + rng.normal(0, 0.3, (150, 2))
    labels = release_utility._kmeans_labels(points, 3, 1)
    assert adjusted_rand_score(truth, labels) == 1.0


def test_clustering_utility_is_perfect_on_real_data_and_poor_on_noise():
    rng = np.random.default_rng(0)
    real = pd.DataFrame({"a": np.r_[rng.normal(0.2, 0.02, 100), rng.normal(0.8, 0.02, 100)],
                         "b": rng.uniform(0, 1, 200)})
    bounds = {"a": (0, 1), "b": (0, 1)}
    perfect = clustering_utility(real[["a"]], real[["a"]], bounds, n_clusters=2)
    assert perfect["ari"] == 1.0 and perfect["v_measure"] == pytest.approx(1.0) and perfect["silhouette"] > 0.8
    noise = real + rng.laplace(0, 5, real.shape)
    poor = clustering_utility(real, noise, bounds, n_clusters=2)
    assert poor["ari"] < 0.1


# -------------------------------------------------------------------------------- comparison
@pytest.fixture(scope="module")
def small_comparison():
    data = coffee_shop_revenue(900, rng=6)
    features = data.drop(columns=COFFEE_SHOP_TARGET).columns
    relevance = {"top": pd.Series([1.0, 0.6, 0, 0, 0.2, 0], index=features), "uniform": pd.Series(1.0, index=features)}
    results = compare_allocations(data.iloc[:600], data.iloc[600:], COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS, relevance,
                                  [1.0, 30.0], n_seeds=4, progress=False)
    return data, relevance, results


def test_comparison_spends_exactly_the_budget_and_covers_every_run(small_comparison):
    _, _, results = small_comparison
    assert len(results) == 2 * 2 * 4
    assert np.allclose(results["spent_epsilon"], results["epsilon"])
    budget_columns = [c for c in results.columns if c.startswith("budget[")]
    assert np.allclose(results[budget_columns].sum(axis=1), results["epsilon"])
    assert set(results.columns) >= {"feature_mae", "prediction_mae", "ari", "v_measure", "silhouette"}


def test_comparison_matches_release_table_and_theory(small_comparison):
    data, relevance, results = small_comparison
    mean = results.groupby(["epsilon", "method"]).mean(numeric_only=True)
    # uniform minimizes the average of range-normalized noise scales: Laplace MAE = scale
    assert (mean.xs("top", level="method")["feature_mae"] > mean.xs("uniform", level="method")["feature_mae"]).all()
    expected = np.mean(1 / np.array([plan_budget(relevance["uniform"], 30.0, reserve={COFFEE_SHOP_TARGET: 0.25})[c]
                                     for c in relevance["uniform"].index]))
    assert mean.loc[(30.0, "uniform"), "feature_mae"] == pytest.approx(expected, rel=0.05)  # 4 x 600 x 6 draws
    # the same seed gives the same standard draws: the paired design
    first = results[(results.seed == 0) & (results.epsilon == 30.0)].set_index("method")
    assert first.loc["top", "feature_mae"] != first.loc["uniform", "feature_mae"]


def test_comparison_validates_its_inputs(small_comparison):
    data, relevance, _ = small_comparison
    with pytest.raises(ValueError, match="every method must score the same features"):
        compare_allocations(data, data, COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS,
                            {"uniform": relevance["uniform"], "bad": relevance["top"].iloc[:3]}, [1.0], n_seeds=1,
                            progress=False)
    with pytest.raises(KeyError, match="target"):
        compare_allocations(data, data, "profit", COFFEE_SHOP_BOUNDS, relevance, [1.0], n_seeds=1, progress=False)
    with pytest.raises(TypeError, match="epsilons must be"):
        compare_allocations(data, data, COFFEE_SHOP_TARGET, COFFEE_SHOP_BOUNDS, relevance, 1.0, n_seeds=1,
                            progress=False)


@pytest.mark.parametrize("n_clusters, error, match", [
    (10**12, ValueError, "n_clusters=.* is more than the 3 rows"),
    (4, ValueError, "n_clusters=4 is more than the 3 rows"),
    (1, ValueError, "n_clusters must be an integer >= 2"),
    ("3", TypeError, "n_clusters must be an integer"),
])
def test_clustering_utility_refuses_more_clusters_than_rows(n_clusters, error, match):
    X = pd.DataFrame({"a": [0.0, 1.0, 0.5]})
    with pytest.raises(error, match=match):
        clustering_utility(X, X, {"a": (0, 1)}, n_clusters=n_clusters)


def test_compare_allocations_refuses_huge_n_seeds_and_too_many_clusters():
    df = coffee_shop_revenue(40, rng=0)
    features = df.drop(columns="Daily_Revenue")
    relevance = {"uniform": pd.Series(1.0, index=features.columns)}
    with pytest.raises(ValueError, match="n_seeds=.* is too large"):
        compare_allocations(df.iloc[:30], df.iloc[30:], "Daily_Revenue", COFFEE_SHOP_BOUNDS, relevance, [1.0],
                            n_seeds=10**12, progress=False)
    with pytest.raises(ValueError, match="n_clusters=50 is more than the 30 rows"):
        compare_allocations(df.iloc[:30], df.iloc[30:], "Daily_Revenue", COFFEE_SHOP_BOUNDS, relevance, [1.0],
                            n_seeds=1, n_clusters=50, progress=False)


@pytest.mark.parametrize("bad", [[["a"]], [pd.Series(["a"])], [np.array(["a"])]])
def test_check_bounds_needs_column_names(bad):
    with pytest.raises(TypeError, match="columns must be a list of column names|every column must be one column"):
        check_bounds({"a": (0, 1)}, bad)


def test_bounds_given_as_numpy_pairs_are_accepted():
    assert check_bounds({"a": np.array([0, 1])}, ["a"]) == {"a": (0.0, 1.0)}
    with pytest.raises(TypeError, match="must be a \\(lower, upper\\) pair"):
        check_bounds({"a": np.array([0, 1, 2])}, ["a"])


@pytest.mark.parametrize("call", [
    lambda r: relevance_weights(r), lambda r: split_budget(1.0, r), lambda r: top_k_features(r, 1),
    lambda r: plan_budget(r, 1.0),
])
def test_scores_given_as_a_dict_of_text_are_a_type_error(call):
    with pytest.raises(TypeError, match="must hold numbers"):
        call({"a": "x", "b": 1.0})


@pytest.mark.parametrize("columns", [5, None, {"a": 1}, [["a"]]])
def test_plan_budget_and_check_bounds_need_a_list_of_columns(columns):
    with pytest.raises(TypeError, match="columns must be a list of column names"):
        check_bounds({"a": (0, 1)}, columns)
    if columns is not None:
        with pytest.raises(TypeError, match="columns must be a list of column names"):
            plan_budget({"a": 1.0}, 1.0, columns=columns)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(train_y=[0.0, np.nan, 4, 6]), ValueError, "train_y contains NaN"),
    (dict(train_y=["a", "b", "c", "d"]), TypeError, "train_y must be numeric"),
    (dict(train_y=[0.0, 2.0]), ValueError, r"train_y must have one value per row of train_X \(4\)"),
    (dict(test_y=[1.0, 2.0]), ValueError, r"test_y must have one value per row of test_X \(1\)"),
    (dict(test_X=pd.DataFrame({"b": [1.0]})), KeyError, r"test_X has no column\(s\) \['a'\]"),
    (dict(model="ols"), TypeError, "model must be a scikit-learn regressor"),
])
def test_prediction_mae_checks_targets_columns_and_model(kwargs, error, match):
    arguments = dict(train_X=pd.DataFrame({"a": [0.0, 1, 2, 3]}), train_y=[0.0, 2, 4, 6],
                     test_X=pd.DataFrame({"a": [1.0]}), test_y=[2.0]) | kwargs
    with pytest.raises(error, match=match):
        prediction_mae(**arguments)


@pytest.mark.parametrize("epsilons", [np.array(2.0), "1", None])
def test_compare_allocations_needs_a_list_of_epsilons(epsilons):
    df = coffee_shop_revenue(40, rng=0)
    relevance = {"uniform": pd.Series(1.0, index=df.columns.drop("Daily_Revenue"))}
    with pytest.raises(TypeError, match="epsilons must be a list of positive numbers"):
        compare_allocations(df.iloc[:30], df.iloc[30:], "Daily_Revenue", COFFEE_SHOP_BOUNDS, relevance, epsilons,
                            n_seeds=1, progress=False)
