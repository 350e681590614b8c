"""Lesson 05's conclusions must hold beyond the lesson's one random split of the coffee-shop days.

The lesson splits 2,000 synthetic days into public (400), train (1,200) and test (400) rows with
one seed and asserts its conclusions on that split. Here the same comparison runs on five other
random splits (10 seeds each instead of the lesson's 20, so every interval is about 1.4 times
wider; the margins below are several times that width on the lesson's split) and each conclusion
is asserted on every split.

Measured while writing this test (20 seeds, 10 splits): at epsilon = 100 the adjusted Rand index
of |Pearson| and Mahalanobis was below uniform's on 10 of 10 splits, but MIC's was above
uniform's on 4 of 10, so the lesson claims it only for |Pearson| and Mahalanobis.

Top-k (releasing only the k features MIC ranks first on the public rows), measured with 10 seeds on
eight splits (seven others and the lesson's split as it was drawn then, before the lesson's draws
changed): at epsilon = 10 the best k was 1 on 8 of 8, with a prediction MAE of 631-670 $ against
729-808 $ for the best split of the budget over all features; at epsilon = 1 the k's were within
0.8-1.2% of each other, so the lesson says "within 2%". On the lesson's current split (20 seeds, cells
64-65) the best k at epsilon = 10 is 1 as well, at 613 $ against 800 $ with all six features, and at
epsilon = 1 the k's are within 0.6% of each other.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

# The lesson asserts each claim on its own seed; these other seeds and splits take minutes, so they run
# with the slow tests (CI runs both).
pytestmark = pytest.mark.slow

pytest.importorskip("minepy")

from mic_dp_helpers import datasets  # noqa: E402
from mic_dp_helpers.micdp import allocation
from mic_dp_helpers.micdp import release_utility
from mic_dp_helpers.micdp import relevance

SPLITS = [1, 2, 3, 4, 5]
EPSILONS = [0.1, 0.5, 1.0, 10.0, 100.0]  # every epsilon the lesson asserts at
LOW, NO_CLUSTERS = [0.1, 0.5, 1.0], [0.1, 0.5, 1.0, 10.0]
TOP_K_EPSILONS = [1.0, 10.0]
TARGET, BOUNDS = datasets.COFFEE_SHOP_TARGET, datasets.COFFEE_SHOP_BOUNDS
FEATURES = [c for c in datasets.coffee_shop_revenue(n=10, rng=0).columns if c != TARGET]
RELEVANCE_METHODS = ["MIC", "|Pearson|", "Mahalanobis"]


def _split(split: int):
    shop = datasets.coffee_shop_revenue(n=2000, rng=2025)
    order = np.random.default_rng([2025, split]).permutation(len(shop))
    return shop.iloc[order[:400]], shop.iloc[order[400:1600]], shop.iloc[order[1600:]]


def _comparison(split: int) -> pd.DataFrame:
    public, train, test = _split(split)
    X, y = public[FEATURES], public[TARGET]
    scores = {"MIC": relevance.mic_relevance(X, y), "|Pearson|": relevance.pearson_relevance(X, y),
              "Mahalanobis": relevance.mahalanobis_relevance(X, y), "uniform": relevance.uniform_relevance(X)}
    results = release_utility.compare_allocations(train, test, TARGET, BOUNDS, scores, EPSILONS, n_seeds=10,
                                                  progress=False, rng=2025)
    constant_mae = float(np.mean(np.abs(train[TARGET].mean() - test[TARGET])))
    top_k = pd.concat([
        release_utility.compare_allocations(train, test, TARGET, BOUNDS, {"MIC": scores["MIC"]}, TOP_K_EPSILONS,
                                            n_seeds=10, top_k=k, clustering=False, progress=False,
                                            rng=2025).assign(k=k)
        for k in range(1, len(FEATURES) + 1)])
    return results.assign(constant_mae=constant_mae), top_k


@pytest.fixture(scope="module", params=SPLITS, ids=[f"split{s}" for s in SPLITS])
def comparison(request):
    return _comparison(request.param)


@pytest.fixture
def results(comparison):
    return comparison[0]


@pytest.fixture
def top_k(comparison):
    return comparison[1].groupby(["epsilon", "k"])["prediction_mae"].mean().unstack("epsilon")


def _means(results: pd.DataFrame, metric: str) -> pd.DataFrame:
    return results.groupby(["epsilon", "method"])[metric].mean().unstack("method")


def test_target_guided_plans_keep_less_of_the_real_clusters_than_uniform_at_epsilon_100(results):
    ari = _means(results, "ari")
    assert (ari.loc[100.0, ["|Pearson|", "Mahalanobis"]] < ari.loc[100.0, "uniform"]).all(), ari.loc[100.0]


def test_no_method_keeps_the_real_clusters_up_to_epsilon_10(results):
    assert _means(results, "ari").loc[NO_CLUSTERS].max().max() < 0.05


def test_pearson_shows_a_better_silhouette_than_uniform_where_no_cluster_survives(results):
    silhouette = _means(results, "silhouette")
    assert (silhouette.loc[NO_CLUSTERS, "|Pearson|"] > silhouette.loc[NO_CLUSTERS, "uniform"]).all()


def test_relevance_guided_plans_release_features_with_more_error_than_uniform(results):
    error = _means(results, "feature_mae")
    assert error[RELEVANCE_METHODS].gt(error["uniform"], axis=0).all().all()


def _gains(results: pd.DataFrame) -> pd.DataFrame:
    """Each relevance plan's prediction gain over uniform, in percent, paired by seed."""
    paired = results.pivot_table(index=["epsilon", "seed"], columns="method", values="prediction_mae")
    return pd.DataFrame({m: 100 * (paired["uniform"] - paired[m]) / paired["uniform"] for m in RELEVANCE_METHODS})


def test_every_relevance_method_predicts_better_than_uniform_at_epsilon_10_and_not_at_1(results):
    table = _gains(results).groupby("epsilon").agg(["mean", "sem"])
    mean, half_width = table.xs("mean", axis=1, level=1), 1.96 * table.xs("sem", axis=1, level=1)
    assert ((mean - half_width).loc[10.0] > 0).all(), mean.loc[10.0]
    assert mean.loc[LOW].abs().max().max() < 2.0, mean.loc[LOW]
    assert mean.loc[10.0].idxmax() in ("|Pearson|", "Mahalanobis")


def test_both_linear_scores_gain_more_than_mic_at_epsilon_10(results):
    # Cell 68: "The simple linear scores (|Pearson|, Mahalanobis) gain more than MIC here". Measured on
    # splits 1-5 (10 seeds each): MIC 5.2-6.0%, |Pearson| 9.7-11.4%, Mahalanobis 11.1-13.3%.
    mean = _gains(results).groupby("epsilon").mean().loc[10.0]
    assert mean["MIC"] < min(mean["|Pearson|"], mean["Mahalanobis"]), mean


def test_every_plan_predicts_worse_than_a_constant_guess_up_to_epsilon_1(results):
    prediction = _means(results, "prediction_mae")
    assert (prediction.loc[LOW] > results["constant_mae"].iloc[0]).all().all(), prediction.loc[LOW]


def test_releasing_fewer_features_predicts_better_than_any_split_at_epsilon_10(results, top_k):
    assert top_k[10.0].idxmin() < len(FEATURES), top_k[10.0]
    assert top_k[10.0].min() < _means(results, "prediction_mae").loc[10.0].min()


def test_no_number_of_features_helps_at_epsilon_1(top_k):
    assert top_k[1.0].max() < 1.02 * top_k[1.0].min(), top_k[1.0]


# Section 1's claims, on 40 seeds instead of the lesson's one. With the sine, sin(4 pi x), whose
# population |r| with x uniform on (-1, 1) is about 0.19, |Pearson| < 0.2 failed on 16 of 40 seeds
# (an outside referee's count), so the lesson uses the cosine, an even function like the parabola:
# both have population correlation 0 with x.
SECTION1_SEEDS = range(40)


def _section1_relations(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)  # the lesson's cell draws in this order from a fresh generator
    x = rng.uniform(-1, 1, 400)
    relations = {"line": 0.8 * x + rng.normal(0, 0.1, 400), "parabola": x**2 + rng.normal(0, 0.05, 400),
                 "cosine": np.cos(4 * np.pi * x) + rng.normal(0, 0.1, 400),
                 "independent noise": rng.normal(0, 0.5, 400)}
    return pd.DataFrame({name: {"MIC": relevance.mic_score(x, y), "|Pearson|": abs(np.corrcoef(x, y)[0, 1])}
                         for name, y in relations.items()}).T


@pytest.mark.parametrize("seed", SECTION1_SEEDS)
def test_mic_sees_the_curved_relations_that_pearson_misses_on_every_seed(seed):
    dependence = _section1_relations(seed)
    assert dependence.loc["line", "MIC"] > 0.8 and dependence.loc["line", "|Pearson|"] > 0.9
    for curved in ("parabola", "cosine"):
        assert dependence.loc[curved, "MIC"] > 0.7, dependence
        assert dependence.loc[curved, "|Pearson|"] < 0.2, dependence
    assert dependence.loc["independent noise", "MIC"] < 0.25, dependence


@pytest.mark.parametrize("seed", SECTION1_SEEDS)
def test_only_mic_ranks_the_u_shaped_feature_first_on_every_seed(seed):
    toy = datasets.nonlinear_features(n=600, rng=seed)
    X, y = toy.drop(columns="target"), toy["target"]
    scores = pd.DataFrame({name: relevance.relevance_scores(X, y, name) for name in ("mic", "pearson", "mahalanobis")})
    assert scores["mic"].idxmax() == "u_shaped", scores
    assert scores["pearson"].idxmax() == "linear" and scores.loc["u_shaped", "pearson"] < 0.2, scores
    assert scores.loc["u_shaped", "mahalanobis"] < scores.loc["linear", "mahalanobis"], scores
