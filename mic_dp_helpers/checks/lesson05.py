"""Checks for lesson 05 (MIC-DP, done honestly). Each calls the student's function on inputs it builds.

Inputs come from a generator seeded with ``seed`` (fixed by default): tables of random size with
their columns in random order, relevance scores with negative values, ties and all zeros, floors
from 0 to 1 and budgets with many digits, factors of 0 and of many digits, releases of 2 to 5
columns whose flawed columns (no noise, noise calibrated for a much larger epsilon, or honest noise
left out of a few percent of the releases) sit in random positions. The course's own versions (``relevance``, ``allocation``, ``micdp``) refuse to
run while the student's function runs. 05.4 rests on the student's audit, which is random: its
honest columns spend at most 0.8 of the claim and its flawed ones at least 2.5 times it, so a
correct audit with 20,000 samples per side errs in well under 1 of 1,000 seeds (measured by
``benchmarks/check_false_rejection.py``).
"""

from __future__ import annotations

import functools
import math
import numbers
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
    (never 0, outside the exercise's (0, 1]), totals 0.01 to 100 with many digits.

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
                              "with parts that fit, as lesson 04 teaches (split_epsilon rounds each part down).")
        if not _isclose(_fsum(values), total, rel_tol=1e-9):
            raise CheckFailed(f"the epsilons sum to {_fsum(values)!r}, not to the total budget {total!r} (relative "
                              f"difference {(_fsum(values) - total) / total:+.2e}; property: the whole budget).")
        expected = allocation.plan_budget(scores, total, floor=floor)
        if not np.allclose(values, expected[scores.index].to_numpy(), rtol=1e-9, atol=1e-12):
            raw_top = scores.max()
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
    ]


@exercise("05.3", title="What the published release really costs per feature", answer_name="effective_epsilon")
def check_effective_epsilon(answer, seed: int = SEED) -> None:
    """A correct answer returns epsilon * (1 + f) / f per feature (math.inf where f = 0), indexed and ordered
    like the factors, to a relative 1e-9, without changing them; factors from ``seed`` between 1e-12 and
    1e6 with many digits (and a fixed case with 1e-12, 1e-5 and 9e-4), some exactly 0, epsilons 0.01 to 50.

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


# ------------------------------------------------------------------------------------ 05.4
def _audit_case(seed: int, index: int):
    """(column epsilons (inf: no noise), claimed epsilon, dataset_a, dataset_b, leak shares) of one case.

    Honest columns spend at most 0.8 of the claim (together at most the claim, one of them 0.7 to 0.8
    of it); flawed ones 2.5 to 4 times the claim, or infinity (published without noise). The last case
    is an honest release. The audit's 95% lower bound stays below the true epsilon (measured: 150 of
    150 runs at 20,000 samples) and, for a column at 2.5 times the claim, above the claim (100 of 100).

    In each flawed case one more column *leaks*: its noise has an honest scale, but a share of 3% to 8%
    of its releases come out without noise (an atom at the true value). Its spread looks honest, so only
    an audit (which scores "exact value" events) finds it: its lower bound is about 3 or more, far above
    any claim here. If no honest column besides the one near the claim is left, a flawed column leaks.
    """
    rng = _default_rng([seed, index, 5])
    if index == 4:
        return _near_claim_case(rng)
    n_columns = int(rng.integers(2, 5))
    claimed = _float(_exp(rng.uniform(_log(0.3), _log(1.0))))
    epsilons = claimed * rng.uniform(0.02, 0.2, n_columns) / n_columns
    epsilons[int(rng.integers(0, n_columns))] = claimed * _float(rng.uniform(0.7, 0.8))  # honest, near the claim
    if index < 3:
        n_flawed = int(rng.integers(1, n_columns))
        for j in rng.permutation(n_columns)[:n_flawed]:
            epsilons[j] = math.inf if rng.random() < 0.3 else claimed * _float(rng.uniform(2.5, 4))
    others = rng.uniform(0, 1, (int(rng.integers(1, 5)), n_columns))
    dataset_a = np.vstack([np.zeros(n_columns), others])
    dataset_b = np.vstack([np.ones(n_columns), others])
    leaks = np.zeros(n_columns)
    if index < 3:  # drawn from a stream of their own, so the columns above are the same as without leaks
        leak_rng = _default_rng([seed, index, 55])
        honest = [j for j in range(n_columns) if epsilons[j] < 0.5 * claimed]  # not the one near the claim
        flawed = [j for j in range(n_columns) if epsilons[j] > claimed]
        pool = honest if honest else flawed
        leaks[pool[int(leak_rng.integers(0, _len(pool)))]] = _float(leak_rng.uniform(0.03, 0.08))
    return epsilons, claimed, dataset_a, dataset_b, leaks


def _near_claim_case(rng):
    """The case where a point estimate and an audit disagree, or too few samples miss a flaw: a claim of
    0.25 to 0.35, two honest columns spending exactly the claim and one at 0.95 to 0.97 of it, three flawed
    columns at 1.7 to 1.9 times it, and small honest columns (6 or 7 columns). Measured (claim 0.3, 20,000
    samples): a column spending exactly the claim has audit lower bounds of 0.809 claims on average (SD 0.047,
    4.1 SD below the claim, at most 0.889 in 40 runs), while a point estimate of its epsilon (1 / mean
    absolute deviation) exceeds the claim in 45% of 200 runs, so an answer without an audit fails this case
    about three times in four (two such columns). Measured (40 runs each, 20,000 samples, claim 0.3): an honest column at 0.97 of
    the claim has lower bounds of 0.66-0.86 claims (mean 0.79, SD 0.046: 4.6 SD below the claim); a column
    at 1.6 times it 1.24-1.50 claims (SD 0.058: 6.7 SD above). With 2,000 samples a column at 1.6 times
    the claim is refuted in 35% of runs, with 5,000 in 97.5%."""
    n_columns = int(rng.integers(6, 8))
    claimed = _float(rng.uniform(0.25, 0.35))
    epsilons = claimed * rng.uniform(0.02, 0.1, n_columns) / n_columns
    positions = rng.permutation(n_columns)
    for j in positions[:3]:
        epsilons[j] = claimed * _float(rng.uniform(0.95, 0.97))
    for j in positions[3:6]:
        epsilons[j] = claimed * _float(rng.uniform(1.7, 1.9))
    epsilons[positions[:2]] = claimed  # honest, spending exactly the claim: a point estimate flags each ~half the time
    others = rng.uniform(0, 1, (int(rng.integers(1, 5)), n_columns))
    return (epsilons, claimed, np.vstack([np.zeros(n_columns), others]), np.vstack([np.ones(n_columns), others]),
            np.zeros(n_columns))


def _row_release(epsilons, leaks):
    """A release of record 0's row: column j gets Laplace noise of scale 1 / epsilons[j] (none if infinite),
    except that a share leaks[j] of its releases get none.

    A plain function: it exposes nothing but what it releases (the scales live in its closure).
    """
    scales = np.where(np.isinf(epsilons), 0.0, 1.0 / np.where(np.isinf(epsilons), 1.0, epsilons))
    leaks = np.asarray(leaks, dtype=float).copy()
    leaking = bool(leaks.any())

    def release(data, size, rng):
        row = np.asarray(data, dtype=float)[0]
        generator = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
        noise = generator.laplace(0.0, 1.0, size=(int(size), row.size)) * scales
        if leaking:
            noise = np.where(generator.random((int(size), row.size)) < leaks, 0.0, noise)
        return row + noise

    return release


@exercise("05.4", title="Find the flawed features of a release with the audit", answer_name="flawed_features")
def check_flawed_features(answer, seed: int = SEED) -> None:
    """A correct answer returns the column numbers (integers) whose release alone breaks the claim, found by
    auditing each column on its own with 20,000 samples, for 4 releases from ``seed``: 2 to 4 columns,
    claims 0.3 to 1, the flawed columns (no noise, 2.5 to 4 times the claim, or honest noise missing from
    3% to 8% of the releases) in random positions, an honest column spending 0.7 to 0.8 of the claim, one
    release with no flawed column, and one between the claim and twice it (claim 0.25 to 0.35, two honest
    columns spending exactly the claim and one at 0.95-0.97 of it, three flawed ones at 1.7-1.9 times it: a
    point estimate without a confidence bound flags an honest column there about half the time, and an audit
    with too few samples misses a flawed one). A list, tuple, set or array of column numbers is accepted.

    Parameters
    ----------
    answer : callable
        The student's ``flawed_features`` (exercise 05.4).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in (0, 1, 3, 4):
        epsilons, claimed, dataset_a, dataset_b, leaks = _audit_case(seed, index)
        release = _row_release(epsilons, leaks)
        del epsilons, leaks
        got = _call("05.4", answer, release, dataset_a.copy(), dataset_b.copy(), claimed)
        epsilons, claimed, dataset_a, dataset_b, leaks = _audit_case(seed, index)
        flawed = [j for j, e in enumerate(epsilons) if e > claimed or leaks[j] > 0]
        if isinstance(got, (str, bytes)) or not isinstance(got, (list, tuple, set, frozenset, np.ndarray)):
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
            if any(leaks[j] > 0 for j in set(flawed) - set(found)):
                raise CheckFailed("you missed a flawed column whose noise has an honest spread but is left out of a "
                                  "few releases (they come out exactly at the true value): a spread or a scale "
                                  "estimate does not see it, the audit (with its exact-value events) does. Audit "
                                  "every column and flag it when the audit refutes the claim.")
            raise CheckFailed("you missed a flawed column; there can be more than one.")
        raise CheckFailed("the columns you flagged are not the flawed ones. Audit each column separately and "
                          "compare its lower bound with the claim.")
