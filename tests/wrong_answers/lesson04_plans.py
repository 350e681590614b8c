"""Wrong answers to lesson 04's plan runner (04.4): each a mistake a student could make, and each must be rejected.

Moved out of ``lesson04`` (which keeps 04.1-04.3) when it passed 600 lines.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.accounting.ledger import BudgetExceededError
from mic_dp_helpers.scale.pydp_tools import AccountedPyDP, pydp_query
from wrong_answers._cheats import cheats


def _no_precheck(accountant, values, lower, upper, plan):
    queries = AccountedPyDP(accountant)
    return [queries.query(kind, values, eps, *((None, None) if kind == "count" else (lower, upper)))
            for kind, eps in plan]


def _raises_with_a_message(accountant, values, lower, upper, plan):  # BudgetExceededError("...") is a TypeError
    if plan and not accountant.can_spend_all([eps for _, eps in plan]):
        raise BudgetExceededError("the plan does not fit the budget")
    return _no_precheck(accountant, values, lower, upper, plan)


def _not_charged(accountant, values, lower, upper, plan):
    return [pydp_query(kind, values, eps, *((None, None) if kind == "count" else (lower, upper))) for kind, eps in plan]


def _one_entry(accountant, values, lower, upper, plan):
    if not plan:
        return []
    total = math.fsum(eps for _, eps in plan)
    accountant.spend(total, label="plan")
    return [pydp_query(kind, values, eps, *((None, None) if kind == "count" else (lower, upper))) for kind, eps in plan]


def _total_epsilon_each(accountant, values, lower, upper, plan):
    if not plan:
        return []
    total = math.fsum(eps for _, eps in plan)
    if not accountant.can_spend(total):
        raise BudgetExceededError(total, 0.0, accountant.remaining_epsilon, 0.0)
    answers = []
    for kind, eps in plan:
        accountant.spend(eps, label=kind)
        answers.append(pydp_query(kind, values, total, *((None, None) if kind == "count" else (lower, upper))))
    return answers


def _run_at(epsilon_used):  # charged each query's epsilon; PyDP runs at epsilon_used(position, kind, eps, plan, left)
    def answer(accountant, values, lower, upper, plan):
        if not plan:
            return []
        left = accountant.remaining_epsilon
        if not accountant.can_spend_all([eps for _, eps in plan]):
            raise BudgetExceededError(math.fsum(eps for _, eps in plan), 0.0, left, 0.0)
        answers = []
        for position, (kind, eps) in enumerate(plan):
            accountant.spend(eps, label=kind)
            used = epsilon_used(position, kind, eps, plan, left)
            answers.append(pydp_query(kind, values, used, *((None, None) if kind == "count" else (lower, upper))))
        return answers
    return answer


#: Charges the plan, runs means at 10x epsilon.
_mean_overspent = _run_at(lambda position, kind, eps, plan, left: 10 * eps if kind == "mean" else eps)


def _no_noise(accountant, values, lower, upper, plan):
    if not plan:
        return []
    if not accountant.can_spend(math.fsum(eps for _, eps in plan)):
        raise BudgetExceededError(1.0, 0.0, accountant.remaining_epsilon, 0.0)
    values = np.clip(np.asarray(values, dtype=float), lower, upper)
    exact = {"count": float(len(values)), "sum": float(values.sum()), "mean": float(values.mean())}
    for kind, eps in plan:
        accountant.spend(eps, label=kind)
    return [exact[kind] for kind, _ in plan]


def _bare_float_comparison(accountant, values, lower, upper, plan):
    if not plan:
        return []
    if sum(eps for _, eps in plan) > accountant.remaining_epsilon:
        raise BudgetExceededError(1.0, 0.0, accountant.remaining_epsilon, 0.0)
    return _no_precheck(accountant, values, lower, upper, plan)


def _float_summed_precheck(accountant, values, lower, upper, plan):  # one float-summed spend, not the plan
    if plan and not accountant.can_spend(math.fsum(eps for _, eps in plan)):
        raise BudgetExceededError(1.0, 0.0, accountant.remaining_epsilon, 0.0)
    return _no_precheck(accountant, values, lower, upper, plan)


def _plan_with(accountant, values, lower, upper, plan, answer_query):
    """A correct plan runner, except that ``answer_query(position, kind, eps, queries, exact, answers)``
    gives each answer (``queries.query`` for a correct one)."""
    if not plan:
        return []
    if not accountant.can_spend_all([eps for _, eps in plan]):
        raise BudgetExceededError(math.fsum(eps for _, eps in plan), 0.0, accountant.remaining_epsilon, 0.0)
    clipped = np.clip(np.asarray(values, dtype=float), lower, upper)
    exact = {"count": float(len(values)), "sum": float(clipped.sum()), "mean": float(clipped.mean())}
    queries = AccountedPyDP(accountant)
    answers = []
    for position, (kind, eps) in enumerate(plan):
        answers.append(answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan))
    return answers


def _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
    bounds = (None, None) if kind == "count" else (lower, upper)
    return queries.query(kind, values, eps, *bounds, label=kind)


def _exact_beyond(limit):  # charged for every query, but queries after the first ``limit`` are answered exactly
    def answer_query(position, kind, eps, queries, exact, answers, *rest):
        if position >= limit:
            queries.accountant.spend(eps, label=kind)
            return exact[kind]
        return _correct_query(position, kind, eps, queries, exact, answers, *rest)
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _reuse_repeats(same_epsilon: bool):  # a repeated query (same kind, and same epsilon if asked) reuses its answer
    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        for earlier, (k, e) in enumerate(plan[:position]):
            if k == kind and (e == eps or not same_epsilon):
                queries.accountant.spend(eps, label=kind)
                return answers[earlier]
        return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _repeat_averages_to_exact(accountant, values, lower, upper, plan):  # a repeat mirrors the earlier noise
    def answer_query(position, kind, eps, queries, exact, answers, *rest):
        for earlier, (k, e) in enumerate(plan[:position]):
            if k == kind and e == eps and kind != "mean":
                queries.accountant.spend(eps, label=kind)
                return 2 * exact[kind] - answers[earlier]
        return _correct_query(position, kind, eps, queries, exact, answers, *rest)
    return _plan_with(accountant, values, lower, upper, plan, answer_query)


def _only_count_noised(accountant, values, lower, upper, plan):  # non-private: sums and means exact
    if not plan:
        return []
    total = math.fsum(eps for _, eps in plan)
    if not accountant.can_spend(total):
        raise BudgetExceededError(total, 0.0, accountant.remaining_epsilon, 0.0)
    clipped = np.clip(np.asarray(values, dtype=float), lower, upper)
    queries = AccountedPyDP(accountant)
    answers = []
    for kind, eps in plan:
        if kind == "count":
            answers.append(queries.query("count", values, eps))
        else:
            accountant.spend(eps, label=kind)
            answers.append(float(clipped.sum() if kind == "sum" else clipped.mean()))
    return answers


def _data_bounds(accountant, values, lower, upper, plan):  # non-private: bounds from the data
    values = np.asarray(values, dtype=float)
    if not plan:
        return []
    total = math.fsum(eps for _, eps in plan)
    if not accountant.can_spend(total):
        raise BudgetExceededError(total, 0.0, accountant.remaining_epsilon, 0.0)
    queries = AccountedPyDP(accountant)
    return [queries.query(kind, values, eps, *((None, None) if kind == "count" else (values.min(), values.max())))
            for kind, eps in plan]


WRONG_ANSWERS = {
    "04.4": {
        "no check before running": _no_precheck,
        "BudgetExceededError raised with a message only": _raises_with_a_message,
        "not charged": _not_charged,
        "one ledger entry": _one_entry,
        "total epsilon for every query": _total_epsilon_each,
        "no noise": _no_noise,
        "bare float comparison": _bare_float_comparison,
        "plan cost as one float sum": _float_summed_precheck,
        "non-private: only the count is noised": _only_count_noised,
        "non-private: bounds from the data": _data_bounds,
        "non-private: each mean run with 10x its epsilon": _mean_overspent,
        "non-private (calls): exact beyond 4 queries": _exact_beyond(4),
        "non-private (calls): exact beyond 6 queries": _exact_beyond(6),
        "non-private (calls): a repeated query (same kind and epsilon) reuses its answer": _reuse_repeats(True),
        "non-private (calls): a repeated kind reuses its first answer": _reuse_repeats(False),
        "non-private (calls): a repeated query mirrors the earlier noise": _repeat_averages_to_exact,
        **cheats(_not_charged),
    },
}


def _every_epsilon_times(factor):
    """Charges the plan's epsilons but runs every query at ``factor`` times its epsilon (outside DP referee,
    lessons 03-04: 1.25 passed the 300-run band)."""
    return _run_at(lambda position, kind, eps, plan, left: factor * eps)


WRONG_ANSWERS["04.4"]["non-private: every query at 1.25 times its epsilon"] = _every_epsilon_times(1.25)

# ---- second referee pass (2026-11-26): noise of the wrong shape or reused across kinds
def _own_noise_for_counts_and_sums(draw):  # charged per query; counts and sums get `draw(b, rng)`, means PyDP's
    rng = np.random.default_rng()

    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        if kind == "mean":
            return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
        queries.accountant.spend(eps, label=kind)
        scale = 1 / eps if kind == "count" else max(abs(lower), abs(upper)) / eps
        return float(exact[kind] + draw(scale, rng))
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _sum_reuses_count_noise(accountant, values, lower, upper, plan):  # the j-th sum rescales the j-th count's noise
    standardised = []

    def answer_query(position, kind, eps, queries, exact, answers, *rest):
        if kind == "count":
            got = _correct_query(position, kind, eps, queries, exact, answers, *rest)
            standardised.append((got - exact["count"]) * eps)
            return got
        if kind == "sum":
            queries.accountant.spend(eps, label=kind)
            z = standardised.pop(0) if standardised else float(np.random.default_rng().laplace())
            return float(exact["sum"] + max(abs(lower), abs(upper)) / eps * z)
        return _correct_query(position, kind, eps, queries, exact, answers, *rest)
    return _plan_with(accountant, values, lower, upper, plan, answer_query)


WRONG_ANSWERS["04.4"].update({
    "non-private (shape): uniform noise on counts and sums with Laplace's spread":
        _own_noise_for_counts_and_sums(lambda b, rng: rng.uniform(-2 * b, 2 * b)),
    "non-private (shape): Gaussian noise on counts and sums with Laplace's spread":
        _own_noise_for_counts_and_sums(lambda b, rng: rng.normal(0.0, b * math.sqrt(math.pi / 2))),
    "non-private (shape): Laplace noise clipped at 3 scales":
        _own_noise_for_counts_and_sums(lambda b, rng: float(np.clip(rng.laplace(0.0, b / 0.95), -3 * b / 0.95, 3 * b / 0.95))),
    "non-private (calls): the j-th sum reuses the j-th count's noise": _sum_reuses_count_noise,
})
def _reasked_until_plausible(limit):  # PyDP asked again while the answer is more than `limit` scales out (re-spends)
    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        if kind == "mean":
            return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
        queries.accountant.spend(eps, label=kind)
        scale = 1 / eps if kind == "count" else max(abs(lower), abs(upper)) / eps
        bounds = (None, None) if kind == "count" else (lower, upper)
        for _ in range(100):
            got = pydp_query(kind, values, eps, *bounds)
            if abs(got - exact[kind]) <= limit * scale:
                break
        return got
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


WRONG_ANSWERS["04.4"].update({
    "non-private (shape): counts and sums asked again while more than 5 scales out": _reasked_until_plausible(5),
    "non-private (shape): Laplace noise truncated at 4.5 scales":
        _own_noise_for_counts_and_sums(lambda b, rng: next(x for x in iter(lambda: rng.laplace(0.0, b), None)
                                                           if abs(x) <= 4.5 * b)),
})
# ---- third referee pass (2026-11-27): exact between and beyond the sizes and epsilons tested, bounds tightened to
# the data when they lie inside, a budget test with a tolerance
def _exact_when(predicate):  # charged for every query; exact where predicate(position, kind, eps, n)
    def answer_query(position, kind, eps, queries, exact, answers, values, *rest):
        if predicate(position, kind, eps, len(values)):
            queries.accountant.spend(eps, label=kind)
            return exact[kind]
        return _correct_query(position, kind, eps, queries, exact, answers, values, *rest)
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _tightened_bounds(kinds):  # bounds narrowed to the data's min and max (where narrower) for `kinds`
    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        if kind in kinds:
            v = np.asarray(values, dtype=float)
            lower, upper = max(lower, float(v.min())), min(upper, float(v.max()))
        return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _with_tolerance(fits):  # a budget pre-check with a tolerance, then the queries charged one by one
    def answer(accountant, values, lower, upper, plan):
        if not plan:
            return []
        total = math.fsum(eps for _, eps in plan)
        if not fits(total, accountant.remaining_epsilon):
            raise BudgetExceededError(total, 0.0, accountant.remaining_epsilon, accountant.remaining_delta,
                                      label="query plan")
        queries = AccountedPyDP(accountant)
        return [queries.query(kind, values, eps, *((None, None) if kind == "count" else (lower, upper)), label=kind)
                for kind, eps in plan]
    return answer


WRONG_ANSWERS["04.4"].update({
    "non-private (size): exact above 1,000 values": _exact_when(lambda i, kind, eps, n: n > 1000),
    "non-private (size): sums exact from 10,000 values": _exact_when(lambda i, kind, eps, n: kind == "sum" and n >= 10_000),
    "non-private (parameters): exact for epsilon above 0.5": _exact_when(lambda i, kind, eps, n: eps > 0.5),
    "non-private (parameters): means exact for epsilon above 2": _exact_when(lambda i, kind, eps, n: kind == "mean" and eps > 2),
    "non-private (calls): exact from the 10th query on": _exact_when(lambda i, kind, eps, n: i >= 9),
    "non-private (calls): the 12th query on exact": _exact_when(lambda i, kind, eps, n: i >= 11),
    "non-private (data): bounds narrowed to the data's min and max": _tightened_bounds(("sum", "mean")),
    "non-private (data): means' bounds narrowed to the data's min and max": _tightened_bounds(("mean",)),
    "non-private (data): sums' bounds narrowed to the data's min and max": _tightened_bounds(("sum",)),
    "non-private (shape): counts and sums asked again while more than 6 scales out": _reasked_until_plausible(6),
    "non-private (shape): Laplace noise truncated at 6 scales":
        _own_noise_for_counts_and_sums(lambda b, rng: next(x for x in iter(lambda: rng.laplace(0.0, b), None)
                                                           if abs(x) <= 6 * b)),
    "budget pre-check with a tolerance of 1e-9": _with_tolerance(lambda total, left: total <= left + 1e-9),
    "budget pre-check with math.isclose": _with_tolerance(lambda total, left: total <= left or math.isclose(total, left)),
    "budget pre-check with a relative tolerance of 1e-10": _with_tolerance(lambda total, left: total <= left * (1 + 1e-10)),
})
def _first_values_only(limit):  # charged per query; every query runs on the first `limit` values only
    def answer(accountant, values, lower, upper, plan):
        return _plan_with(accountant, list(values)[:limit], lower, upper, plan, _correct_query)
    return answer


WRONG_ANSWERS["04.4"].update({
    "non-private (parameters): exact below epsilon 0.05 (referee 020409)": _exact_when(lambda i, kind, eps, n: eps < 0.05),
    "non-private (parameters): exact from epsilon 5 (referee 020409)": _exact_when(lambda i, kind, eps, n: eps >= 5),
    "size: queries run on the first 10,000 values only (referee 020409)": _first_values_only(10_000),
})



# ---- referee fix26 (2026-11-27): exact outside the sizes and plan lengths tested, the budget's leftover spent,
# the caller's values, plan or result list changed or reused, memoised across calls, a repeated kind's noise
# rescaled, the plan's epsilons averaged, a mean over the exact count
def _exact_for(predicate):  # charged for every query; exact where predicate(kind, n, plan)
    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        if predicate(kind, len(values), plan):
            queries.accountant.spend(eps, label=kind)
            return exact[kind]
        return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _last_query_takes_the_leftover(position, kind, eps, plan, left):  # non-private: the budget's leftover spent unpaid
    planned = math.fsum(e for _, e in plan)
    return eps + max(0.0, left - planned) if position == len(plan) - 1 else eps


def _clips_caller_values(accountant, values, lower, upper, plan):
    if isinstance(values, np.ndarray):
        np.clip(values, lower, upper, out=values)
    return _plan_with(accountant, values, lower, upper, plan, _correct_query)


def _pops_caller_plan(accountant, values, lower, upper, plan):  # answers in plan order, but the plan is emptied
    answers = _plan_with(accountant, values, lower, upper, list(plan), _correct_query)
    plan.clear()
    return answers


def _same_list_every_call(_out=[]):  # one list object, refilled by every call
    def answer(accountant, values, lower, upper, plan):
        _out[:] = _plan_with(accountant, values, lower, upper, plan, _correct_query)
        return _out
    return answer


def _memoised_across_calls():  # a query asked again on the same data (kind, epsilon, n, sum) reuses its answer
    memo = {}

    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        key = (kind, float(eps), len(values), exact["sum"], lower, upper)
        if key in memo:
            queries.accountant.spend(eps, label=kind)
            return memo[key]
        memo[key] = _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
        return memo[key]
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


def _rescales_a_repeated_kind(accountant, values, lower, upper, plan):  # count or sum: the first one's noise rescaled
    def answer_query(position, kind, eps, queries, exact, answers, *rest):
        for earlier, (k, e) in enumerate(plan[:position]):
            if k == kind and kind != "mean":
                queries.accountant.spend(eps, label=kind)
                return exact[kind] + (answers[earlier] - exact[kind]) * e / eps
        return _correct_query(position, kind, eps, queries, exact, answers, *rest)
    return _plan_with(accountant, values, lower, upper, plan, answer_query)


def _mean_over_exact_count(accountant, values, lower, upper, plan):  # a mean as a noisy sum over len(values)
    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        if kind != "mean":
            return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
        noisy_sum = queries.query("sum", values, eps, lower, upper, label=kind)
        return float(np.clip(noisy_sum / len(values), lower, upper))
    return _plan_with(accountant, values, lower, upper, plan, answer_query)


WRONG_ANSWERS["04.4"].update({
    "non-private: counts exact, the count taken as public (fix26)": _exact_for(lambda kind, n, plan: kind == "count"),
    "non-private (size): exact for fewer than 200 values (fix26)": _exact_for(lambda kind, n, plan: n < 200),
    "non-private (size): means exact for 2,000 to 5,000 values (fix26)":
        _exact_for(lambda kind, n, plan: kind == "mean" and 2000 <= n <= 5000),
    "non-private (shape): a plan of one query answered exactly (fix26)": _exact_for(lambda kind, n, plan: len(plan) == 1),
    "non-private (state): the last query also runs on the budget's leftover (fix26)":
        _run_at(_last_query_takes_the_leftover),
    "every query at the plan's mean epsilon (fix26)":
        _run_at(lambda position, kind, eps, plan, left: math.fsum(e for _, e in plan) / len(plan)),
    "non-private: a mean as a noisy sum over the exact count (fix26)": _mean_over_exact_count,
    "non-private (calls): a repeated count or sum rescales the first one's noise (fix26)": _rescales_a_repeated_kind,
    "non-private (calls): memoised across calls on the same data (fix26)": _memoised_across_calls(),
    "clips the caller's values in place (fix26)": _clips_caller_values,
    "empties the caller's plan (fix26)": _pops_caller_plan,
    "returns the same list object from every call (fix26)": _same_list_every_call(),
    "non-private (parameters): counts exact above epsilon 1 (fix26)":
        _exact_when(lambda i, kind, eps, n: kind == "count" and eps > 1),
    "non-private (parameters): counts exact above epsilon 2 (fix26)":
        _exact_when(lambda i, kind, eps, n: kind == "count" and eps > 2),
})


def _mirrored_across_calls(lag, kinds=("count", "sum")):  # the same query on the same data: each block of `lag`
    memo = {}                                                 # calls negates the block before, for `kinds`

    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        fresh, owed = memo.setdefault((position, kind, float(eps), len(values), exact["sum"], lower, upper), ([], []))
        if owed and kind in kinds:
            queries.accountant.spend(eps, label=kind)
            return 2 * exact[kind] - owed.pop(0)
        got = _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
        fresh.append(got)
        if len(fresh) == lag:
            owed.extend(fresh)
            fresh.clear()
        return got
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


WRONG_ANSWERS["04.4"].update({
    "non-private (calls): every other call mirrors the last one's noise, by position (s34rchk)": _mirrored_across_calls(1),
    "non-private (calls): blocks of 3 calls mirror the 3 before (s34rchk)": _mirrored_across_calls(3),
    "non-private (calls): counts only, blocks of 4 calls mirror the 4 before (s34r44)": _mirrored_across_calls(4, ("count",)),
    "non-private (calls): counts only, blocks of 15 calls mirror the 15 before": _mirrored_across_calls(15, ("count",)),
})
# Counts exact in a size and epsilon band (s34rchk): caught by the counts-only plan on 1,000-20,000 values. Count
# noise skipped below 1e-5 of the count (n * epsilon > 1e5) still passes: a stated limit of the check.
WRONG_ANSWERS["04.4"]["non-private (size, parameters): counts exact above 1,000 values at epsilon 1 or more (s34rchk)"] = \
    _exact_when(lambda i, kind, eps, n: kind == "count" and n > 1000 and eps >= 1)


# ---- referee rt0206 (2026-11-27): sums and means exact for an input form no case had (every plan's bounds were
# non-integral floats and its values an array of non-integral floats): caught by the band sweep's forms.
def _exact_for_input(predicate):  # charged for every query; sums and means exact where predicate(values, lower, upper)
    def answer_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan):
        if kind != "count" and predicate(values, lower, upper):
            queries.accountant.spend(eps, label=kind)
            return exact[kind]
        return _correct_query(position, kind, eps, queries, exact, answers, values, lower, upper, plan)
    return lambda accountant, values, lower, upper, plan: _plan_with(accountant, values, lower, upper, plan,
                                                                     answer_query)


WRONG_ANSWERS["04.4"].update({
    "non-private (data): sums and means exact for integer bounds (rt0206)":
        _exact_for_input(lambda values, lower, upper: isinstance(lower, int) and isinstance(upper, int)),
    "non-private (data): sums and means exact for a lower bound of 0 (rt0206)":
        _exact_for_input(lambda values, lower, upper: lower == 0),
    "non-private (data): sums and means exact for symmetric bounds (rt0206)":
        _exact_for_input(lambda values, lower, upper: lower == -upper),
    "non-private (data): sums and means exact for whole-number values (rt0206)":
        _exact_for_input(lambda values, lower, upper: len(values) > 0 and all(float(v).is_integer() for v in values[:50])),
    "non-private (data): sums and means exact for a list of values (rt0206)":
        _exact_for_input(lambda values, lower, upper: isinstance(values, list)),
})
