"""Checks for lesson 05 (MIC-DP, done honestly). Each calls the student's function on inputs it builds.

Inputs come from a generator seeded with ``seed`` (fixed by default): tables of random size with
their columns in random order, relevance scores with negative values, ties and all zeros, floors
from 0 to 1 and budgets with many digits, factors of 0 and of many digits. The course's own versions
(``relevance``, ``allocation``, ``micdp``) refuse to run while the student's function runs. Check 05.4
(the audit of a release's columns) lives in :mod:`mic_dp_helpers.checks.lesson05_audit`.
"""

from __future__ import annotations

import functools
import math
import sys

import numpy as np
import pandas as pd

from mic_dp_helpers.micdp import allocation
from mic_dp_helpers.micdp import published as micdp
from mic_dp_helpers.micdp import relevance
from mic_dp_helpers.accounting.ledger import PrivacyAccountant
from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, exercise
from mic_dp_helpers.datasets import coffee_shop_revenue, nonlinear_features

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_isclose = math.isclose
_fsum = math.fsum
_exp = math.exp
_log = math.log
_float = float
_len = len
_sorted = sorted
_isinstance = isinstance
SEED = 505


def _module_functions(module) -> tuple[str, ...]:
    return tuple(f"{module.__name__}:{name}" for name, value in vars(module).items()
                 if callable(value) and getattr(value, "__module__", None) == module.__name__
                 and not _isinstance(value, type) and not name.startswith("_"))


_COURSE_VERSIONS = _module_functions(relevance) + _module_functions(allocation) + _module_functions(micdp)
for _id in ("05.1", "05.2", "05.3", "05.4"):
    _core.FORBIDDEN[_id] = _COURSE_VERSIONS


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args)


def _as_series(got, what: str) -> pd.Series:
    if not isinstance(got, pd.Series):
        raise CheckFailed(f"return a pandas Series ({what}, indexed by feature name), not a {type(got).__name__}.")
    try:
        return got.astype(float)
    except (TypeError, ValueError):
        raise CheckFailed(f"the Series should hold numbers ({what}).") from None


# ------------------------------------------------------------------------------------ 05.1
def _mic_cases(seed: int = SEED) -> list[tuple[pd.DataFrame, pd.Series]]:
    rng = _default_rng(seed)
    toy = nonlinear_features(int(rng.integers(100, 400)), rng=int(rng.integers(0, 2**31)))
    coffee = coffee_shop_revenue(int(rng.integers(100, 300)), rng=int(rng.integers(0, 2**31)))
    n = int(rng.integers(60, 300))
    x = rng.uniform(0, 1, n)
    waves = pd.DataFrame({"noise": rng.uniform(0, 1, n), "sine": x, "line": rng.uniform(0, 1, n)})
    target = np.sin(float(rng.uniform(5, 15)) * x) + 0.5 * waves["line"] + rng.normal(0, 0.1, n)
    toy_columns = ["irrelevant", "u_shaped", "linear"]
    coffee_columns = list(coffee.drop(columns="Daily_Revenue").columns)
    return [
        (toy[[toy_columns[i] for i in rng.permutation(3)]], toy["target"]),
        (coffee[[coffee_columns[i] for i in rng.permutation(_len(coffee_columns))[:4]]], coffee["Daily_Revenue"]),
        (waves[[list(waves.columns)[i] for i in rng.permutation(3)]], pd.Series(target, name="y")),
    ]


@exercise("05.1", title="MIC relevance of each feature, ranked", answer_name="rank_by_mic")
def check_rank_by_mic(answer, seed: int = SEED) -> None:
    """A correct answer returns a Series of minepy's MIC (alpha 0.6, c 15, mic_approx) of every column of X
    with y, indexed by column name and sorted from most to least relevant, without changing X or y, on
    3 tables from ``seed`` (60 to 400 rows, columns in random order).

    Parameters
    ----------
    answer : callable
        The student's ``rank_by_mic`` (exercise 05.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(3):
        X_copy, y_copy = (part.copy() for part in _mic_cases(seed)[index])
        got = _as_series(_call("05.1", answer, X_copy, y_copy), "MIC scores")
        X, y = _mic_cases(seed)[index]
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
def _budget_cases(seed: int = SEED) -> list[tuple[pd.Series, float, float]]:
    rng = _default_rng(seed)
    names = ["customers", "order_value", "hours", "employees", "marketing"]
    random_cases = []
    for _ in range(8):
        k = int(rng.integers(1, 8))
        scores = rng.uniform(-0.3, 1.0, k)
        if rng.random() < 0.3:
            scores[int(rng.integers(0, k))] = scores.max()  # a tie at the top
        if rng.random() < 0.1:
            scores[:] = 0.0
        floor = _float(rng.choice([1.0, rng.uniform(0.01, 1), rng.uniform(0.001, 0.1)]))
        random_cases.append((pd.Series(scores, index=[f"f{i}" for i in rng.permutation(k)]),
                             _float(_exp(rng.uniform(_log(0.01), _log(100)))), floor))
    return random_cases + [
        (pd.Series({"a": 0.8, "b": 0.4, "c": 0.0}), 1.0, 0.2),
        (pd.Series(rng.uniform(0, 1, 5), index=names), 0.5, 0.1),
        (pd.Series({"x": 0.3, "y": -0.2, "z": 0.6, "w": 0.0}), 10.0, 0.05),  # a negative score counts as 0
        (pd.Series({"p": 0.0, "q": 0.0}), 3.0, 0.3),  # no information: equal split
        (pd.Series({"only": 0.42}), 2.0, 0.5),
        (pd.Series(rng.uniform(0, 0.2, 5), index=names[::-1]), 7.0, 1.0),  # floor 1: uniform
        _rounding_case(seed),  # the float proportional split overspends by one unit in the last place
    ] + _budget_edge_cases(_default_rng([seed, 53]))


def _budget_edge_cases(rng) -> list[tuple[pd.Series, float, float]]:
    """The edge cases the text allows: every score negative (all count as 0: equal weights), integer
    scores, a tie at the top (float32 scores are left out: a split computed in float32 is off by a
    relative 2e-8, above the check's 1e-9), integer feature labels in shuffled order (a positional
    read s[i] picks the wrong feature), an integer total, and 2,000 features."""
    k = int(rng.integers(2, 7))
    labels = [int(v) for v in rng.permutation(np.arange(10, 10 + k))]
    tied = rng.uniform(0, 1, 6)
    tied[int(rng.integers(0, 6))] = tied.max()
    return [
        (pd.Series(-rng.uniform(0.01, 1, k), index=[f"n{i}" for i in range(k)]), _float(rng.uniform(0.5, 5)), 0.3),
        (pd.Series(rng.integers(0, 10, 5), index=list("vwxyz")), 2, _float(rng.uniform(0.05, 1))),
        (pd.Series(tied, index=[f"t{i}" for i in range(6)]), _float(rng.uniform(0.5, 5)), 0.2),
        (pd.Series(rng.uniform(-0.2, 1, k), index=labels), 1, _float(rng.uniform(0.05, 0.9))),
        (pd.Series(rng.uniform(-0.1, 1, 2000), index=[f"g{i}" for i in range(2000)]), _float(rng.uniform(1, 50)),
         _float(rng.uniform(0.001, 0.5))),
    ]


@functools.lru_cache(maxsize=64)
def _rounding_case_cached(seed: int) -> tuple[tuple, tuple, float, float]:
    scores, total, floor = _rounding_case_search(seed)
    return tuple(scores.index), tuple(scores.to_numpy()), total, floor


def _rounding_case(seed: int) -> tuple[pd.Series, float, float]:
    index, values, total, floor = _rounding_case_cached(seed)
    return pd.Series(values, index=list(index)), total, floor


def _rounding_case_search(seed: int) -> tuple[pd.Series, float, float]:
    """Scores, total and floor for which ``total * w / w.sum()`` adds up to a hair more than ``total``
    (exactly, as the ledger adds): the proportional split overspends by rounding. Found by search (a
    case turns up within a few dozen attempts), so it holds on every Python."""
    rng = _default_rng([seed, 52])
    for _attempt in range(100_000):
        k = int(rng.integers(2, 7))
        scores = pd.Series(rng.uniform(0, 1, k).round(int(rng.integers(1, 4))), index=[f"r{i}" for i in range(k)])
        total = _float(rng.choice([0.3, 0.7, 1.0, 2.0, 3.0, 10.0]))
        floor = _float(rng.choice([0.05, 0.1, 0.2, 0.3]))
        top = scores.max()
        if not top > 0:
            continue
        weights = floor + (1 - floor) * scores / top
        if not PrivacyAccountant(total).can_spend_all((total * weights / weights.sum()).tolist()):
            return scores, total, floor
    raise RuntimeError(f"no rounding case found for seed {seed}; update _rounding_case.")


@exercise("05.2", title="Split a budget by relevance, every feature keeping noise", answer_name="split_budget_by_relevance")
def check_split_budget(answer, seed: int = SEED) -> None:
    """A correct answer returns, indexed and ordered like the scores, total * w / sum(w) with weights
    w = floor + (1 - floor) * max(score, 0) / max(scores) (all equal when every score is <= 0): positive,
    fitting the total exactly (a ledger holding ``total`` accepts every part, added exactly) and short of it
    by at most a relative 1e-9; it leaves the scores unchanged. Cases from
    ``seed``: 1 to 7 features, negative scores, ties at the top, all zeros, floors from 0.001 to 1
    (never 0, outside the exercise's (0, 1]), totals 0.01 to 100 with many digits; and the edge cases:
    every score negative, integer scores, integer feature labels in shuffled order, an integer
    total, 2,000 features.

    Parameters
    ----------
    answer : callable
        The student's ``split_budget_by_relevance`` (exercise 05.2).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_budget_cases(seed))):
        scores_copy = _budget_cases(seed)[index][0].copy()
        _, total, floor = _budget_cases(seed)[index]
        got = _as_series(_call("05.2", answer, scores_copy, total, floor), "epsilon per feature")
        scores, total, floor = _budget_cases(seed)[index]
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
        if not PrivacyAccountant(total).can_spend_all([_float(v) for v in values]):
            raise CheckFailed(f"the epsilons add up to more than the total budget {total!r} (exactly, as the ledger "
                              f"adds them; by {(_fsum(values) - total) / total:+.2e} relative): a ledger holding "
                              "the total would refuse the last feature (property: the parts fit exactly). Split "
                              "with parts that fit, as lesson 03 teaches (split_epsilon rounds each part down).")
        if not _isclose(_fsum(values), total, rel_tol=1e-9):
            raise CheckFailed(f"the epsilons sum to {_fsum(values)!r}, not to the total budget {total!r} (relative "
                              f"difference {(_fsum(values) - total) / total:+.2e}; property: the whole budget).")
        expected = allocation.plan_budget(scores, total, floor=floor)
        if not np.allclose(values, expected[scores.index].to_numpy(), rtol=1e-9, atol=1e-12):
            raw_top = scores.max()
            if not raw_top > 0:
                raise CheckFailed("the split is off on scores that are all 0 or negative: a negative score counts as "
                                  "0, so here every score is 0 and all weights are equal.")
            if (scores < 0).any() and raw_top > 0:
                raw = floor + (1 - floor) * scores.to_numpy() / raw_top
                if np.allclose(values, total * raw / raw.sum(), rtol=1e-9):
                    raise CheckFailed("the split is off on an input with a negative score; a negative score should "
                                      "count as no relevance at all.")
            raise CheckFailed("the shares are not right. Each feature's weight is the floor plus (1 - floor) "
                              "times its score relative to the largest score; the budget is split in "
                              "proportion to these weights.")


# ------------------------------------------------------------------------------------ 05.3
def _factor_cases(seed: int = SEED) -> list[tuple[pd.Series, float]]:
    rng = _default_rng(seed)
    random_cases = []
    for _ in range(6):
        k = int(rng.integers(1, 8))
        factors = np.exp(rng.uniform(_log(1e-12), _log(1e6), k))  # tiny too: inf below 1e-3 fails
        factors[rng.random(k) < 0.2] = 0.0
        random_cases.append((pd.Series(factors, index=[f"x{i}" for i in rng.permutation(k)]),
                             _float(_exp(rng.uniform(_log(0.01), _log(50))))))
    return random_cases + [
        (pd.Series({"a": 0.0, "b": 1.0, "c": 5.0}), 0.5),
        (pd.Series(rng.uniform(0.1, 5, 6), index=[f"f{i}" for i in range(6)]), 0.9),
        (pd.Series({"x": 5.0, "y": 5.0}), 0.1),
        (pd.Series({"top": 0.0, "mid": 2.5, "low": 0.25, "last": 4.0}), 2.0),
        (pd.Series({"tiny": 1e-12, "small": 1e-5, "under": 9e-4, "zero": 0.0, "huge": 1e6}), 0.3),
        # The edges: integer factors (0 among them) and an integer epsilon, integer feature labels in shuffled
        # order (a positional read f[i] picks the wrong feature), one feature of factor 0, 2,000 features.
        (pd.Series(rng.integers(0, 4, 6), index=[f"i{i}" for i in range(6)]), 2),
        (pd.Series(rng.uniform(0.1, 5, 5), index=[int(v) for v in rng.permutation(np.arange(3, 8))]), 0.7),
        (pd.Series({"alone": 0.0}), 1.5),
        (pd.Series(np.exp(rng.uniform(_log(1e-6), _log(1e3), 2000)), index=[f"g{i}" for i in range(2000)]), 0.4),
    ]


@exercise("05.3", title="What the published release really costs per feature", answer_name="effective_epsilon")
def check_effective_epsilon(answer, seed: int = SEED) -> None:
    """A correct answer returns epsilon * (1 + f) / f per feature (math.inf where f = 0), indexed and ordered
    like the factors, to a relative 1e-9, without changing them; factors from ``seed`` between 1e-12 and
    1e6 with many digits (and a fixed case with 1e-12, 1e-5 and 9e-4), some exactly 0, epsilons 0.01 to 50;
    and the edges: integer factors and epsilon, integer feature labels in shuffled order, one feature of
    factor 0, 2,000 features.

    Parameters
    ----------
    answer : callable
        The student's ``effective_epsilon`` (exercise 05.3).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_factor_cases(seed))):
        factors_copy = _factor_cases(seed)[index][0].copy()
        epsilon = _factor_cases(seed)[index][1]
        got = _as_series(_call("05.3", answer, factors_copy, epsilon), "epsilon per feature")
        factors, epsilon = _factor_cases(seed)[index]
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
