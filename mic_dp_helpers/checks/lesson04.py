"""Checks for lesson 04 (PyDP). Each calls the student's function on inputs it generates itself.

PyDP's noise cannot be seeded, so the checks of noisy answers are statistical: many runs, and
tolerances of at least four standard errors (stated at each check). The inputs are seeded;
the false-failure probability of a correct answer is below 1e-4 per check.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mic_dp_helpers import pydp_tools
from mic_dp_helpers.accounting import BudgetExceededError, PrivacyAccountant
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number
from mic_dp_helpers.datasets import purchases


# ------------------------------------------------------------------------------- 04.1
def _mean_cases() -> list[tuple[object, float, float, float]]:
    rng = np.random.default_rng(401)
    inside = rng.uniform(2.0, 8.0, 400)  # every value inside [0, 10]
    outside = np.concatenate([rng.uniform(0.0, 10.0, 450), np.full(50, 40.0)])  # 10% far above the bound
    negative = np.clip(rng.normal(-3.0, 1.0, 300), -6.0, 0.0)
    return [(inside.tolist(), 0.0, 10.0, 1.0), (rng.permutation(outside), 0.0, 10.0, 2.0),
            (negative.tolist(), -6.0, 0.0, 0.5)]


@exercise("04.1", title="A DP mean with PyDP's BoundedMean", answer_name="dp_mean_with_pydp")
def check_dp_mean_with_pydp(answer) -> None:
    runs = 400
    for values, lower, upper, epsilon in _mean_cases():
        original = np.array(values, dtype=float)
        try:
            first = answer(values, lower, upper, epsilon)
        except TypeError as error:
            if "Int" in str(error):
                raise CheckFailed("PyDP rejected the numbers because it built the integer version of the "
                                  "algorithm: see the dtype trap in section 2 of the lecture.") from None
            raise
        answers = np.array([expect_number(first, "the noisy mean")]
                           + [expect_number(answer(values, lower, upper, epsilon), "the noisy mean") for _ in range(runs - 1)])
        if not np.array_equal(np.asarray(values, dtype=float), original):
            raise CheckFailed("your function changed the values it was given.")
        if answers.min() < lower or answers.max() > upper:
            raise CheckFailed(f"with bounds [{lower:g}, {upper:g}] some answers fell outside them; PyDP's BoundedMean "
                              "clamps its answer into the bounds. Did you use it with the bounds you were given?")
        clamped = np.clip(original, lower, upper)
        expected_std = pydp_tools.bounded_mean_noise_std(lower, upper, epsilon, original.size, mean=float(clamped.mean()))
        spread = answers.std()
        # 400 runs: the sample std of Laplace-like noise has a relative standard error of about
        # sqrt(5 / 1600) = 5.6%; the band 0.75 to 1.33 is more than 4 of them on each side.
        if spread < 0.1 * expected_std:
            raise CheckFailed("your answers (almost) never change: there is no noise, so nothing is private. "
                              "Let PyDP's BoundedMean compute the mean.")
        if spread < 0.75 * expected_std:
            raise CheckFailed(f"with epsilon={epsilon:g} your answers vary less than BoundedMean's noise at that "
                              "epsilon: the privacy would be weaker than promised. Pass epsilon unchanged.")
        if spread > 1.33 * expected_std:
            raise CheckFailed(f"with epsilon={epsilon:g} your answers vary more than BoundedMean's noise at that "
                              "epsilon: you add more noise than needed (is epsilon split or changed?).")
        # The average of 400 answers estimates the clamped mean with standard error expected_std / 20;
        # the tolerance is 5 of them.
        if abs(answers.mean() - clamped.mean()) > 5 * expected_std / math.sqrt(runs):
            raise CheckFailed(f"on data with values outside [{lower:g}, {upper:g}] your answers are centred on the wrong "
                              "value: clamp with the bounds you were given, never with the data's own range.")


# ------------------------------------------------------------------------------- 04.2
def _contribution_tables() -> list[tuple[pd.DataFrame, str]]:
    rng = np.random.default_rng(402)
    people = ["ana"] * 7 + ["ben"] * 3 + ["cy"]
    small = pd.DataFrame({"person": people, "amount": np.round(rng.uniform(1, 50, len(people)), 2),
                          "visit": np.arange(len(people))}, index=np.arange(500, 500 + len(people)))
    small = small.sample(frac=1.0, random_state=1)  # shuffled, non-default index
    log = purchases(150, random_state=4).rename(columns={"customer_id": "customer"})
    users = pd.DataFrame({"user": rng.integers(0, 20, 120), "minutes": rng.exponential(30, 120)})
    return [(small, "person"), (log, "customer"), (users, "user")]


def _call_bound(answer, df: pd.DataFrame, column: str, k: int, seed) -> pd.DataFrame:
    copy = df.copy()
    result = answer(copy, column, k, np.random.default_rng(seed))
    if not copy.equals(df):
        raise CheckFailed("your function changed the table it was given; return a new table instead.")
    if not isinstance(result, pd.DataFrame):
        raise CheckFailed(f"it should return the kept rows as a DataFrame, not a {type(result).__name__}.")
    return result


@exercise("04.2", title="Contribution bounding: at most k rows per person", answer_name="bound_contributions")
def check_bound_contributions(answer) -> None:
    for df, column in _contribution_tables():
        counts = df[column].value_counts()
        for k in (1, 2, 3, 10):
            kept = _call_bound(answer, df, column, k, 7 + k)
            if list(kept.columns) != list(df.columns):
                raise CheckFailed("keep every column of the table; only drop rows.")
            if kept.index.has_duplicates:
                raise CheckFailed("a row appears twice in your result: choose rows without replacement.")
            if not kept.index.isin(df.index).all() or not kept.equals(df.loc[kept.index]):
                raise CheckFailed("your result contains rows that are not rows of the table (with their original "
                                  "index and values); select rows, do not rebuild or renumber them.")
            kept_counts = kept[column].value_counts()
            if kept_counts.max() > k:
                raise CheckFailed(f"with k={k} somebody still has {kept_counts.max()} rows.")
            if not kept_counts.reindex(counts.index, fill_value=0).equals(counts.clip(upper=k)):
                raise CheckFailed(f"with k={k} each person should keep min(their rows, k) rows; some people lost "
                                  "rows they could keep, or disappeared.")
    # Reproducibility, on the purchase log where two independent random choices essentially never coincide.
    log, log_column = _contribution_tables()[1]
    if not _call_bound(answer, log, log_column, 2, 99).index.equals(_call_bound(answer, log, log_column, 2, 99).index):
        raise CheckFailed("two calls with generators seeded alike kept different rows: draw your randomness "
                          "from the rng argument.")
    small, column = _contribution_tables()[0]
    # Uniformity: "ana" has 7 rows and keeps 2, so each of her rows is kept with probability 2/7.
    # Over 500 seeds a frequency has standard error 0.020; the tolerance 0.1 is 5 of them.
    ana_rows = small.index[small[column] == "ana"]
    frequency = np.zeros(len(ana_rows))
    for seed in range(500):
        frequency += ana_rows.isin(_call_bound(answer, small, column, 2, seed).index)
    frequency /= 500
    if frequency.max() - frequency.min() > 0.9:
        raise CheckFailed("you always keep the same rows of a person (for example the first ones); choose them at "
                          "random, using rng.")
    if np.abs(frequency - 2 / 7).max() > 0.1:
        raise CheckFailed("some rows are kept much more often than others: every row of a person should have the "
                          "same chance to be kept.")


# ------------------------------------------------------------------------------- 04.3
def _bound_cases() -> list[tuple[np.ndarray, float, list[float], float]]:
    rng = np.random.default_rng(403)
    amounts = np.round(rng.lognormal(3.0, 0.9, 2000), 2)
    few = np.round(rng.lognormal(3.0, 0.9, 200), 2)
    shifted = rng.normal(50.0, 10.0, 1000) + rng.exponential(20.0, 1000) * (rng.random(1000) < 0.05)
    candidates = [500.0, 20.0, 50.0, 100.0, 200.0, 1000.0, 35.0, 300.0]
    return [(amounts, 0.0, candidates, 1.0), (amounts, 0.0, candidates, 0.1), (amounts, 0.0, candidates, 10.0),
            (few, 0.0, candidates, 1.0), (few, 0.0, candidates, 0.05), (shifted, 20.0, [60.0, 70.0, 80.0, 100.0, 150.0, 400.0], 0.5)]


@exercise("04.3", title="The clamping bound with the smallest expected error", answer_name="best_upper_bound")
def check_best_upper_bound(answer) -> None:
    for values, lower, candidates, epsilon in _bound_cases():
        original = values.copy()
        got = expect_number(answer(values, lower, list(candidates), epsilon), "one of the candidate bounds")
        if not np.array_equal(values, original):
            raise CheckFailed("your function changed the values it was given.")
        if not any(math.isclose(got, c) for c in candidates):
            raise CheckFailed(f"it returned {got:g}, which is not one of the candidates; pick the best candidate.")
        errors = {c: pydp_tools.bounded_mean_rmse(values, lower, c, epsilon, include_count_noise=False)
                  for c in candidates}
        best = min(errors.values())
        if errors[min(candidates, key=lambda c: abs(c - got))] > best * (1 + 1e-9):
            if math.isclose(got, max(candidates)):
                raise CheckFailed("you chose the largest bound: it has no clamping bias, but a wide interval means "
                                  "more noise. Add the noise's share of the error.")
            if math.isclose(got, min(candidates)):
                raise CheckFailed("you chose the smallest bound: little noise, but it clamps many values. Add the "
                                  "clamping bias's share of the error.")
            raise CheckFailed(f"with epsilon={epsilon:g} and {values.size} values another candidate has a smaller "
                              "expected error. Combine the clamping bias and the noise's standard deviation "
                              "(which depends on epsilon, the width of the bounds and n) as a root-mean-square.")


# ------------------------------------------------------------------------------- 04.4
_PLAN = [("count", 0.2), ("mean", 0.5), ("sum", 0.3)]


def _run_plan(answer, accountant, values, plan):
    results = answer(accountant, values, 0.0, 10.0, list(plan))
    if not isinstance(results, (list, tuple)) or len(results) != len(plan):
        raise CheckFailed(f"it should return a list with one answer per query of the plan ({len(plan)}), "
                          f"got {type(results).__name__}.")
    return [expect_number(r, "a noisy answer") for r in results]


@exercise("04.4", title="A plan of PyDP queries on one budget", answer_name="run_query_plan")
def check_run_query_plan(answer) -> None:
    values = np.random.default_rng(404).uniform(0.0, 10.0, 500)
    accountant = PrivacyAccountant(1.0)
    count, mean, total = _run_plan(answer, accountant, values, _PLAN)
    charged = [(entry.epsilon) for entry in accountant.ledger]
    if not charged:
        raise CheckFailed("the accountant was not charged: every query must be paid for from its budget.")
    if len(charged) != len(_PLAN) or any(not math.isclose(a, b) for a, b in zip(charged, [e for _, e in _PLAN])):
        raise CheckFailed(f"the ledger should hold one entry per query with that query's epsilon, in plan order; it "
                          f"holds {charged}.")
    # Laplace noise of scale 5 (count), 33 (sum): the bounds below are 12 scales, probability e^-12.
    if abs(count - 500) > 60 or not 0 <= mean <= 10 or abs(total - values.sum()) > 400:
        raise CheckFailed("the answers do not match their queries: return [count, mean, sum, ...] in plan order, "
                          "with the bounds you were given.")
    # Noise level: 300 runs of the plan; the std of the counts has a relative standard error
    # of about 6.5%, and the band 0.7 to 1.4 around sqrt(2) / 0.2 is more than 4 of them.
    counts = np.array([_run_plan(answer, PrivacyAccountant(1.0), values, _PLAN)[0] for _ in range(300)])
    expected = math.sqrt(2) / 0.2
    if counts.std() < 0.1 * expected:
        raise CheckFailed("the count never changes: there is no noise, so nothing is private. Let PyDP answer.")
    if counts.std() < 0.7 * expected:
        raise CheckFailed("the count varies less than a count with epsilon 0.2 must: run each query with its own "
                          "epsilon from the plan, not more.")
    if counts.std() > 1.4 * expected:
        raise CheckFailed("the count varies more than a count with epsilon 0.2 should: run each query with its own "
                          "epsilon from the plan.")
    # All or nothing: a plan that does not fit must spend nothing.
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.5, label="earlier analysis")
    try:
        answer(accountant, values, 0.0, 10.0, [("count", 0.2), ("mean", 0.2), ("sum", 0.2)])
    except BudgetExceededError:
        pass
    else:
        raise CheckFailed("a plan needing epsilon 0.6 ran with only 0.5 left: raise BudgetExceededError instead.")
    if len(accountant.ledger) != 1:
        raise CheckFailed("a plan that does not fit the budget spent part of it before failing: check the whole "
                          "plan's cost first, and run nothing if it does not fit.")
    # Float sums: 0.1 + 0.2 + 0.3 is 0.6000000000000001, and that plan still fits a remaining 0.6.
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.4, label="earlier analysis")
    try:
        _run_plan(answer, accountant, values, [("mean", 0.1), ("count", 0.2), ("sum", 0.3)])
    except BudgetExceededError:
        raise CheckFailed("a plan costing 0.1 + 0.2 + 0.3 was refused with 0.6 left: compare with the accountant's "
                          "own tolerance (accountant.can_spend), not with a bare > on floats.") from None
    if _run_plan(answer, PrivacyAccountant(0.5), values, []) != []:
        raise CheckFailed("an empty plan should return an empty list.")
