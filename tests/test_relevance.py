"""Tests of mic_dp_helpers.micdp.relevance: MIC (minepy), |Pearson|, the unit-free Mahalanobis score, uniform."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

minepy = pytest.importorskip("minepy")

from mic_dp_helpers.micdp.relevance import (  # noqa: E402
    MIC_ESTIMATORS,
    RELEVANCE_METHODS,
    mahalanobis_relevance,
    mic_relevance,
    mic_score,
    pearson_relevance,
    relevance_scores,
    uniform_relevance,
)


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame({"line": rng.uniform(-1, 1, n), "u": rng.uniform(-1, 1, n), "noise": rng.uniform(-1, 1, n)})
    y = 0.4 * X["line"] + 1.5 * X["u"] ** 2 + rng.normal(0, 0.05, n)
    return X, y


# ---------------------------------------------------------------------------------------- MIC
@pytest.mark.parametrize("est", MIC_ESTIMATORS)
def test_mic_of_noiseless_functions_is_one_and_of_independence_small(est):
    x = np.linspace(0, 1, 500)
    assert mic_score(x, np.sin(8 * x), est=est) > 0.9  # MIC_e is a little below 1 on 500 points
    assert mic_score(x, (x - 0.5) ** 2, est=est) > 0.9
    rng = np.random.default_rng(1)
    assert mic_score(rng.uniform(size=500), rng.uniform(size=500), est=est) < 0.2


def test_mic_relevance_matches_minepy_directly(table):
    X, y = table
    got = mic_relevance(X, y, alpha=0.5, c=10, est="mic_e")
    mine = minepy.MINE(alpha=0.5, c=10, est="mic_e")
    for column in X.columns:
        mine.compute_score(X[column].to_numpy(), y.to_numpy())
        assert got[column] == pytest.approx(mine.mic(), abs=1e-12)
    assert list(got.index) == list(X.columns) and got.name == "mic"


def test_mic_ranks_the_u_shape_above_noise_and_pearson_does_not(table):
    X, y = table
    mic, pearson = mic_relevance(X, y), pearson_relevance(X, y)
    assert mic["u"] > 2 * mic["noise"]
    assert pearson["u"] < 0.15 < pearson["line"]


@pytest.mark.parametrize("kwargs, message", [
    ({"est": "mic"}, "est must be one of"),
    ({"alpha": 0.0}, "alpha must be in"),
    ({"alpha": 2.0}, "alpha must be in"),
    ({"alpha": "big"}, "alpha must be a number"),
    ({"c": -1}, "c must be > 0"),
])
def test_mic_parameters_are_validated(kwargs, message):
    x = np.linspace(0, 1, 50)
    with pytest.raises((TypeError, ValueError), match=message):
        mic_score(x, x**2, **kwargs)


# ------------------------------------------------------------------------------------ Pearson
def test_pearson_is_absolute_correlation(table):
    X, y = table
    got = pearson_relevance(X, -y)
    for column in X.columns:
        assert got[column] == pytest.approx(abs(np.corrcoef(X[column], y)[0, 1]), abs=1e-12)
    assert ((got >= 0) & (got <= 1)).all()


# A change of units (e.g. dollars to cents, Celsius to Fahrenheit) rescales and shifts a column. Shifts
# far larger than the scaled spread cancel digits in any floating-point mean, so they are kept moderate.
@settings(max_examples=40, deadline=None)
@given(scale=st.floats(-1e4, 1e4).filter(lambda s: abs(s) > 1e-2), shift=st.floats(-1e4, 1e4))
def test_pearson_and_mahalanobis_do_not_depend_on_units(scale, shift):
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    y = X["a"] + rng.normal(size=200)
    rescaled = X * scale + shift
    assert np.allclose(pearson_relevance(rescaled, y), pearson_relevance(X, y), rtol=1e-6, atol=1e-9)
    assert np.allclose(mahalanobis_relevance(rescaled, y), mahalanobis_relevance(X, y), rtol=1e-6, atol=1e-9)


# -------------------------------------------------------------------------------- Mahalanobis
def test_mahalanobis_is_the_standardized_distance_between_group_means():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 5.0, 6.0, 7.0]})
    y = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # median 3.5: high group = rows 3-5
    low, high = np.array([1.0, 2.0, 3.0]), np.array([5.0, 6.0, 7.0])
    pooled = (2 * low.var(ddof=1) + 2 * high.var(ddof=1)) / 4
    assert mahalanobis_relevance(X, y)["a"] == pytest.approx(4.0 / np.sqrt(pooled))


def test_mahalanobis_is_unchanged_by_an_increasing_transform_of_the_target(table):
    X, y = table
    assert np.allclose(mahalanobis_relevance(X, y), mahalanobis_relevance(X, np.exp(3 * y)))


def test_mahalanobis_misses_a_u_shape_like_pearson(table):
    X, y = table
    scores = mahalanobis_relevance(X, y)
    assert scores["line"] > 5 * scores["u"]


def test_mahalanobis_refuses_a_target_with_too_few_distinct_values():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(ValueError, match="too few distinct values"):
        mahalanobis_relevance(X, [0.0, 0.0, 0.0, 1.0])


# ---------------------------------------------------------------------------- uniform, dispatch
def test_uniform_scores_every_feature_one(table):
    X, _ = table
    assert uniform_relevance(X).tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(TypeError, match="DataFrame"):
        uniform_relevance([1, 2])


def test_relevance_scores_dispatches_and_validates(table):
    X, y = table
    for method in RELEVANCE_METHODS:
        scores = relevance_scores(X, y, method)
        assert list(scores.index) == list(X.columns)
    assert relevance_scores(X, y, "mic", est="mic_e").equals(mic_relevance(X, y, est="mic_e"))
    with pytest.raises(ValueError, match="method must be one of"):
        relevance_scores(X, y, "spearman")
    with pytest.raises(TypeError, match="takes no options"):
        relevance_scores(X, y, "pearson", alpha=0.5)


# ------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("function", [mic_relevance, pearson_relevance, mahalanobis_relevance])
def test_clear_errors_for_bad_inputs(function):
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "b": [3.0, 1.0, 2.0, 6.0, 5.0, 4.0]})
    y = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    with pytest.raises(ValueError, match="feature 'c' is constant"):
        function(X.assign(c=7.0), y)
    with pytest.raises(ValueError, match="y is constant"):
        function(X, [2.0] * 6)
    with pytest.raises(ValueError, match="contains NaN"):
        function(X.assign(a=[1.0, np.nan, 3.0, 4.0, 5.0, 6.0]), y)
    with pytest.raises(ValueError, match="y contains NaN"):
        function(X, [1.0, 2.0, np.nan, 4.0, 5.0, 6.0])
    with pytest.raises(ValueError, match="infinite"):
        function(X, [1.0, 2.0, np.inf, 4.0, 5.0, 6.0])
    with pytest.raises(ValueError, match="X has 6 rows but y has 5 values"):
        function(X, y[:5])
    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        function(X.to_numpy(), y)
    with pytest.raises(TypeError, match="feature 'd' must be numeric"):
        function(X.assign(d=list("abcdef")), y)
    with pytest.raises(ValueError, match="no columns"):
        function(X[[]], y)


def test_mic_score_errors():
    with pytest.raises(ValueError, match="x has 3 values but y has 2"):
        mic_score([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="x is constant"):
        mic_score([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="must be a sequence of numbers"):
        mic_score("abc", [1.0, 2.0, 3.0])


@pytest.mark.parametrize("method", ["mic", "pearson", "mahalanobis"])
def test_y_is_matched_to_X_by_index_not_by_position(table, method):
    X, y = table
    y = y.rename("target")
    expected = relevance_scores(X, y, method)
    shuffled = y.sample(frac=1.0, random_state=1)  # same labels, another order
    assert np.allclose(relevance_scores(X, shuffled, method), expected)
    assert np.allclose(relevance_scores(X, y.to_numpy(), method), expected)  # an array: by position
    relabelled = pd.Series(y.to_numpy(), index=np.arange(len(y)) + 10_000)
    with pytest.raises(ValueError, match="index does not match X's index"):
        relevance_scores(X, relabelled, method)


def test_a_target_left_among_the_features_is_refused(table):
    X, y = table
    y = y.rename("target")
    with pytest.raises(ValueError, match="feature 'target' equals the target"):
        pearson_relevance(X.assign(target=y), y)
    with pytest.raises(ValueError, match="equals the target"):
        mic_relevance(X.assign(copy=y), y.to_numpy())


@pytest.mark.parametrize("X", [None, "abc", np.zeros((3, 2))])
def test_align_target_needs_a_dataframe(X):
    from mic_dp_helpers.micdp.relevance import align_target

    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        align_target(X, pd.Series([1.0, 2.0, 3.0]))


def test_mic_refuses_an_infinite_grid_exponent():
    with pytest.raises(ValueError, match="alpha must be in"):
        mic_score(np.arange(10.0), np.arange(10.0) ** 2, alpha=float("inf"))
