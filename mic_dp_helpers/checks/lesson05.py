"""Checks for lesson 05 (MIC-DP, done honestly). Each calls the student's function on inputs it builds."""

from __future__ import annotations

import math
import numbers
from functools import partial

import numpy as np
import pandas as pd

from mic_dp_helpers import allocation, micdp, relevance
from mic_dp_helpers.checks._core import CheckFailed, exercise
from mic_dp_helpers.datasets import coffee_shop_revenue, nonlinear_features


def _as_series(got, what: str) -> pd.Series:
    if not isinstance(got, pd.Series):
        raise CheckFailed(f"return a pandas Series ({what}, indexed by feature name), not a {type(got).__name__}.")
    try:
        return got.astype(float)
    except (TypeError, ValueError):
        raise CheckFailed(f"the Series should hold numbers ({what}).") from None


# ------------------------------------------------------------------------------------ 05.1
def _mic_cases() -> list[tuple[pd.DataFrame, pd.Series]]:
    toy = nonlinear_features(300, random_state=51)
    coffee = coffee_shop_revenue(250, random_state=52)
    rng = np.random.default_rng(53)
    x = rng.uniform(0, 1, 200)
    waves = pd.DataFrame({"noise": rng.uniform(0, 1, 200), "sine": x, "line": rng.uniform(0, 1, 200)})
    target = np.sin(9 * x) + 0.5 * waves["line"] + rng.normal(0, 0.1, 200)
    return [
        (toy[["irrelevant", "u_shaped", "linear"]], toy["target"]),
        (coffee.drop(columns="Daily_Revenue").iloc[:, [5, 0, 2, 1]], coffee["Daily_Revenue"]),
        (waves, pd.Series(target, name="y")),
    ]


@exercise("05.1", title="MIC relevance of each feature, ranked", answer_name="rank_by_mic")
def check_rank_by_mic(answer) -> None:
    for X, y in _mic_cases():
        X_copy, y_copy = X.copy(), y.copy()
        got = _as_series(answer(X_copy, y_copy), "MIC scores")
        if not X_copy.equals(X) or not y_copy.equals(y):
            raise CheckFailed("your function changed the data it was given.")
        if sorted(map(str, got.index)) != sorted(X.columns):
            raise CheckFailed(f"the Series should have one entry per column of X ({list(X.columns)}), "
                              f"got {list(got.index)}.")
        expected = relevance.mic_relevance(X, y, alpha=0.6, c=15, est="mic_approx")
        if not np.allclose(got[expected.index].to_numpy(), expected.to_numpy(), atol=1e-6):
            pearson = relevance.pearson_relevance(X, y)
            if np.allclose(got[pearson.index].to_numpy(), pearson.to_numpy(), atol=1e-3):
                raise CheckFailed("these are linear correlations; the exercise asks for MIC, computed with minepy.")
            mic_e = relevance.mic_relevance(X, y, alpha=0.6, c=15, est="mic_e")
            if np.allclose(got[mic_e.index].to_numpy(), mic_e.to_numpy(), atol=1e-6):
                raise CheckFailed("those are MIC_e scores; use the estimator named in the exercise.")
            raise CheckFailed("the scores differ from MIC with the parameters in the exercise (alpha, c, estimator). "
                              "Compute one score per column, each against y.")
        values = got.to_numpy()
        if not (np.diff(values) <= 1e-12).all():
            raise CheckFailed("the scores are right but not ranked: most relevant feature first.")


# ------------------------------------------------------------------------------------ 05.2
def _budget_cases() -> list[tuple[pd.Series, float, float]]:
    rng = np.random.default_rng(54)
    names = ["customers", "order_value", "hours", "employees", "marketing"]
    return [
        (pd.Series({"a": 0.8, "b": 0.4, "c": 0.0}), 1.0, 0.2),
        (pd.Series(rng.uniform(0, 1, 5), index=names), 0.5, 0.1),
        (pd.Series({"x": 0.3, "y": -0.2, "z": 0.6, "w": 0.0}), 10.0, 0.05),  # a negative score counts as 0
        (pd.Series({"p": 0.0, "q": 0.0}), 3.0, 0.3),  # no information: equal split
        (pd.Series({"only": 0.42}), 2.0, 0.5),
        (pd.Series(rng.uniform(0, 0.2, 5), index=names[::-1]), 7.0, 1.0),  # floor 1: uniform
    ]


@exercise("05.2", title="Split a budget by relevance, every feature keeping noise", answer_name="split_budget_by_relevance")
def check_split_budget(answer) -> None:
    for scores, total, floor in _budget_cases():
        scores_copy = scores.copy()
        got = _as_series(answer(scores_copy, total, floor), "epsilon per feature")
        if not scores_copy.equals(scores):
            raise CheckFailed("your function changed the relevance Series it was given.")
        if list(got.index) != list(scores.index):
            raise CheckFailed("return one epsilon per feature, indexed like the relevance Series and in its order.")
        values = got.to_numpy()
        if not np.isfinite(values).all():
            raise CheckFailed("some epsilons are NaN or infinite; what happens when every score is 0?")
        if (values <= 0).any():
            raise CheckFailed("some feature got epsilon <= 0 (a release without noise, or nothing at all); "
                              "every weight must stay positive.")
        if not math.isclose(math.fsum(values), total, rel_tol=1e-9):
            raise CheckFailed(f"the epsilons sum to {math.fsum(values):.6g}, not to the total budget.")
        expected = allocation.plan_budget(scores, total, floor=floor)
        if not np.allclose(values, expected[scores.index].to_numpy(), rtol=1e-9, atol=1e-12):
            if (scores < 0).any():
                raise CheckFailed("the split is off on an input with a negative score; a negative score should "
                                  "count as no relevance at all.")
            raise CheckFailed("the shares are not right. Each feature's weight is the floor plus (1 - floor) "
                              "times its score relative to the largest score; the budget is split in "
                              "proportion to these weights.")


# ------------------------------------------------------------------------------------ 05.3
def _factor_cases() -> list[tuple[pd.Series, float]]:
    rng = np.random.default_rng(55)
    return [
        (pd.Series({"a": 0.0, "b": 1.0, "c": 5.0}), 0.5),
        (pd.Series(rng.uniform(0.1, 5, 6), index=[f"f{i}" for i in range(6)]), 0.9),
        (pd.Series({"x": 5.0, "y": 5.0}), 0.1),
        (pd.Series({"top": 0.0, "mid": 2.5, "low": 0.25, "last": 4.0}), 2.0),
    ]


@exercise("05.3", title="What the published release really costs per feature", answer_name="effective_epsilon")
def check_effective_epsilon(answer) -> None:
    for factors, epsilon in _factor_cases():
        factors_copy = factors.copy()
        got = _as_series(answer(factors_copy, epsilon), "epsilon per feature")
        if not factors_copy.equals(factors):
            raise CheckFailed("your function changed the factors it was given.")
        if list(got.index) != list(factors.index):
            raise CheckFailed("return one epsilon per feature, indexed like the factors and in their order.")
        expected = micdp.effective_epsilons(factors, epsilon)
        values = got.to_numpy()
        zero = factors.to_numpy() == 0
        if zero.any() and not np.isposinf(values[zero]).all():
            raise CheckFailed("a feature with factor 0 gets no noise at all; what epsilon describes an exact "
                              "release? (Use math.inf.)")
        if not np.allclose(values[~zero], expected.to_numpy()[~zero], rtol=1e-9):
            naive = epsilon / factors.to_numpy()[~zero]
            if np.allclose(values[~zero], naive, rtol=1e-9):
                raise CheckFailed("you treated the release as x + f * noise. Write the published release out: "
                                  "how many times does x appear in it, and what multiplies it?")
            raise CheckFailed("the epsilons are off. Rewrite x + f * (x + noise) as (signal) + (noise) and "
                              "compare the signal's sensitivity with the noise scale.")


# ------------------------------------------------------------------------------------ 05.4
def _row_release(data, size: int, rng, *, epsilons, sensitivities, noiseless=()) -> np.ndarray:
    """Release record 0's row: column j gets Laplace noise of scale sensitivities[j] / epsilons[j]."""
    row = np.asarray(data, dtype=float)[0]
    generator = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    scales = np.array(sensitivities, dtype=float) / np.array(epsilons, dtype=float)
    noise = generator.laplace(0.0, 1.0, size=(size, len(row))) * scales
    noise[:, list(noiseless)] = 0.0
    return row + noise


def _audit_cases():
    """(release, dataset_a, dataset_b, claimed epsilon, the flawed columns)."""
    a3 = np.array([[0.0, 0.0, 0.0], [0.4, 0.7, 0.2], [0.9, 0.1, 0.5]])
    b3 = a3.copy()
    b3[0] = [1.0, 1.0, 1.0]
    a4 = np.array([[0.0, 0.0, 0.0, 0.0], [0.3, 0.6, 0.8, 0.1]])
    b4 = a4.copy()
    b4[0] = [1.0, 1.0, 1.0, 1.0]
    return [
        # claim 1.0 over 3 columns; column 1 is published exactly
        (partial(_row_release, epsilons=[1 / 3] * 3, sensitivities=[1.0] * 3, noiseless=[1]), a3, b3, 1.0, [1]),
        # claim 1.0 over 4 columns; column 0 uses a sensitivity 10 times too small, column 3 no noise
        (partial(_row_release, epsilons=[0.25] * 4, sensitivities=[0.1, 1.0, 1.0, 1.0], noiseless=[3]),
         a4, b4, 1.0, [0, 3]),
        # an honest release: 0.5 split as 0.3 + 0.1 + 0.1
        (partial(_row_release, epsilons=[0.3, 0.1, 0.1], sensitivities=[1.0] * 3), a3, b3, 0.5, []),
        # claim 2.0 over 3 columns; column 2 computed with the full 2.0 and sensitivity 1/4: real epsilon 8
        (partial(_row_release, epsilons=[0.5, 0.5, 2.0], sensitivities=[1.0, 1.0, 0.25]), a3, b3, 2.0, [2]),
    ]


@exercise("05.4", title="Find the flawed features of a release with the audit", answer_name="flawed_features")
def check_flawed_features(answer) -> None:
    # Each case's flawed columns have a true epsilon of 2.5, 8 or infinity against claims of 1 or 2,
    # and the honest columns at most a third of the claim; an audit with 20,000 samples per side
    # separates the two by a wide margin at any seed.
    for release, dataset_a, dataset_b, claimed, flawed in _audit_cases():
        got = answer(release, dataset_a.copy(), dataset_b.copy(), claimed)
        if isinstance(got, (str, bytes)) or not isinstance(got, (list, tuple, np.ndarray)):
            raise CheckFailed(f"return a list of column numbers, not a {type(got).__name__}.")
        items = list(np.asarray(got).ravel()) if isinstance(got, np.ndarray) else list(got)
        if not all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in items):
            raise CheckFailed("return column numbers (integers such as 0, 1, 2), one per flawed column.")
        found = sorted(int(i) for i in items)
        if found == flawed:
            continue
        n_columns = dataset_a.shape[1]
        if not flawed and found:
            raise CheckFailed("you flagged columns of an honest release. A column is flawed only if the audit "
                              "proves a bound above the claimed epsilon, not any bound above 0.")
        if found == list(range(n_columns)):
            raise CheckFailed("you flagged every column. Audit each column on its own, so the audit can tell "
                              "which one breaks the claim.")
        if set(found) < set(flawed):
            raise CheckFailed("you missed a flawed column; there can be more than one.")
        raise CheckFailed("the columns you flagged are not the flawed ones. Audit each column separately and "
                          "compare its lower bound with the claim.")
