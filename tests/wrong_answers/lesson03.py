"""Wrong answers to lesson 03's exercises: each a mistake a student could make, and each must be rejected."""

import math

import numpy as np

from mic_dp_helpers.mechanisms.noise import gaussian_sigma_analytic
from wrong_answers._cheats import cheats


def _flatten(plan):
    out = []
    for item in plan:
        out.extend(_flatten(item) if isinstance(item, list) else [item])
    return out


def _parts_summed(plan):  # ignores disjointness: every query adds up
    return sum(_flatten(plan))


def _largest_overall(plan):
    flat = _flatten(plan)
    return max(flat) if flat else 0.0


def _part_max_not_sum(plan):  # several queries on one part are treated as parallel too
    return sum(max(max(p) if isinstance(p, list) else p for p in s) if isinstance(s, list) else s for s in plan)


def _group_sum_of_part_max(plan):  # adds the parts of a group instead of taking the most expensive
    return sum(sum(max(p) if isinstance(p, list) else p for p in s) if isinstance(s, list) else s for s in plan)


def _ignores_parallel_steps(plan):
    return sum(s for s in plan if not isinstance(s, list))


def _min_of_group(plan):  # the cheapest part instead of the most expensive
    return sum(min(sum(p) if isinstance(p, list) else p for p in s) if isinstance(s, list) else s for s in plan)


def _needed(sens, errs):
    return np.asarray(sens, float) / np.asarray(errs, float)


def _equal_split(total, sens, errs):
    needed = _needed(sens, errs)
    if needed.sum() > total:
        raise ValueError("not enough budget")
    return [total / len(sens)] * len(sens)


def _by_sensitivity(total, sens, errs):
    needed = _needed(sens, errs)
    if needed.sum() > total:
        raise ValueError("not enough budget")
    s = np.asarray(sens, float)
    return total * s / s.sum()


def _minimum_only(total, sens, errs):  # meets the targets but leaves budget unspent
    needed = _needed(sens, errs)
    if needed.sum() > total:
        raise ValueError("not enough budget")
    return needed


def _never_refuses(total, sens, errs):  # right when feasible, but silently overspends otherwise
    needed = _needed(sens, errs)
    return total * needed / needed.sum()


def _inverse_targets(total, sens, errs):  # more epsilon for looser targets
    needed = _needed(sens, errs)
    if needed.sum() > total:
        raise ValueError("not enough budget")
    e = np.asarray(errs, float)
    return total * e / e.sum()


def _wrong_exception(total, sens, errs):
    needed = _needed(sens, errs)
    if needed.sum() > total:
        raise RuntimeError("not enough budget")
    return total * needed / needed.sum()


def _averages_first_ten(noisy_query, n_queries):
    answers = [noisy_query() for _ in range(n_queries)]
    return float(np.mean(answers[:10]))


def _last_answer(noisy_query, n_queries):
    answers = [noisy_query() for _ in range(n_queries)]
    return answers[-1]


def _asks_once(noisy_query, n_queries):
    return noisy_query()


def _asks_too_often(noisy_query, n_queries):
    return float(np.mean([noisy_query() for _ in range(2 * n_queries)]))


def _sum_not_mean(noisy_query, n_queries):
    return float(np.sum([noisy_query() for _ in range(n_queries)]))


def _rho_total(total_epsilon, delta):
    log_term = math.log(1 / delta)
    return (math.sqrt(log_term + total_epsilon) - math.sqrt(log_term)) ** 2


def _first_part(plan):  # assumes the first part of a step is the most expensive
    return sum((sum(s[0]) if isinstance(s[0], list) else s[0]) if isinstance(s, list) else s for s in plan)


def _last_part(plan):  # assumes the parts are sorted, most expensive last
    return sum((sum(s[-1]) if isinstance(s[-1], list) else s[-1]) if isinstance(s, list) else s for s in plan)


def _three_decimals(plan):  # right composition, rounded as if epsilons had 3 decimals
    total = 0.0
    for step in plan:
        total += max(sum(p) if isinstance(p, list) else p for p in step) if isinstance(step, list) else step
    return round(total, 3)


def _refuses_exact_budget(total, sens, errs):  # ">=" where the exact budget is enough
    needed = _needed(sens, errs)
    if needed.sum() >= total:
        raise ValueError("not enough budget")
    return total * needed / needed.sum()


def _leftover_to_first(total, sens, errs):  # right idea, but the leftover goes to a query that may not exist
    needed = _needed(sens, errs)
    if needed.sum() > total * (1 + 1e-12):
        raise ValueError("not enough budget")
    out = list(needed)
    out[0] += total - sum(needed[1:3]) - needed[0]
    return out


def _reads_the_closure(noisy_query, n_queries):  # looks for the truth inside the function it was given
    for cell in getattr(noisy_query, "__closure__", None) or ():
        value = cell.cell_contents
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    for name in ("_true", "true", "truth", "true_count", "value"):
        if hasattr(noisy_query, name):
            return float(getattr(noisy_query, name))
    return float(noisy_query())


def _median_of_half(noisy_query, n_queries):
    answers = [noisy_query() for _ in range(n_queries)]
    return float(np.median(answers[: max(1, n_queries // 50)]))


WRONG_ANSWERS = {
    "03.1": {
        "constant": lambda plan: 0.6,
        "adds up everything": _parts_summed,
        "largest epsilon overall": _largest_overall,
        "queries within a part treated as parallel": _part_max_not_sum,
        "parts of a group added up": _group_sum_of_part_max,
        "ignores parallel steps": _ignores_parallel_steps,
        "cheapest part": _min_of_group,
        "counts the queries": lambda plan: float(len(_flatten(plan))),
        "first part taken as the most expensive": _first_part,
        "parts assumed sorted (last part)": _last_part,
        "rounded to 3 decimals": _three_decimals,
        **cheats(lambda plan: 0.6),
    },
    "03.2": {
        "constant": lambda total, sens, errs: [0.5] * len(sens),
        "equal split": _equal_split,
        "split by sensitivity": _by_sensitivity,
        "minimums only, budget unspent": _minimum_only,
        "never refuses": _never_refuses,
        "more epsilon for looser targets": _inverse_targets,
        "wrong exception type": _wrong_exception,
        "returns the total": lambda total, sens, errs: total,
        "refuses an exactly sufficient budget (>=)": _refuses_exact_budget,
        "leftover computed from the first three queries only": _leftover_to_first,
        **cheats(_equal_split),
    },
    "03.3": {
        "ignores the query": lambda noisy_query, n_queries: 16.0,
        "averages only ten answers": _averages_first_ten,
        "returns the last answer": _last_answer,
        "asks once": _asks_once,
        "asks too often": _asks_too_often,
        "sum instead of mean": _sum_not_mean,
        "median of the first 2% of answers": _median_of_half,
        "cheat: reads the truth from the query function": _reads_the_closure,
        **cheats(lambda noisy_query, n_queries: 16.0),
    },
    "03.4": {
        "constant": lambda k, eps, delta, sens: 50.0,
        "forgets to split rho among k queries": lambda k, eps, delta, sens: sens / math.sqrt(2 * _rho_total(eps, delta)),
        "pure-DP conversion rho = eps^2 / 2": lambda k, eps, delta, sens: sens * math.sqrt(k) / eps,
        "ignores sensitivity": lambda k, eps, delta, sens: math.sqrt(k / (2 * _rho_total(eps, delta))),
        "basic composition, analytic Gaussian": lambda k, eps, delta, sens: gaussian_sigma_analytic(sens, eps / k, delta / k),
        "rho = epsilon": lambda k, eps, delta, sens: sens * math.sqrt(k / (2 * eps)),
        "k-fold split of epsilon under zCDP (rho not shared)": lambda k, eps, delta, sens:
            sens / math.sqrt(2 * _rho_total(eps / k, delta)),
        **cheats(lambda k, eps, delta, sens: 50.0),
    },
}


# Answers that hand the work to a course helper that already solves the exercise (round 2 of the red team).
from mic_dp_helpers.accounting import ledger as _accounting  # noqa: E402
from mic_dp_helpers.synthetic import marginals as _marginals  # noqa: E402
from wrong_answers._cheats import calls_forbidden as _calls_forbidden  # noqa: E402


def _split_with_course_helper(helper, total, sens, errs):
    needs = [s / e for s, e in zip(sens, errs)]
    if math.fsum(needs) > total * (1 + 1e-12):
        raise ValueError("the targets do not fit")
    return helper(total, needs)


WRONG_ANSWERS["03.2"]["cheat: calls the course's split_epsilon"] = _calls_forbidden(
    _accounting.split_epsilon, adapt=_split_with_course_helper)
WRONG_ANSWERS["03.4"]["cheat: calls the course's zcdp_rho_for"] = _calls_forbidden(
    _marginals.zcdp_rho_for, adapt=lambda helper, k, eps, delta, sens: sens * math.sqrt(k / (2 * helper(eps, delta))))
WRONG_ANSWERS["03.4"]["cheat: calls the course's marginal_sigma"] = _calls_forbidden(
    _marginals.marginal_sigma,
    adapt=lambda helper, k, eps, delta, sens: sens * helper(_rho_total(eps, delta), k), swallow=lambda *a: 50.0)


def _feasible_if_isclose(total, sens, errs):
    """Feasibility tested with np.isclose (relative 1e-5): a budget short by a few millionths passes."""
    needs = np.asarray(sens, dtype=float) / np.asarray(errs, dtype=float)
    if needs.sum() > total and not np.isclose(needs.sum(), total):
        raise ValueError("the targets do not fit")
    return total * needs / needs.sum()


def _feasible_with_two_percent_slack(total, sens, errs):
    needs = np.asarray(sens, dtype=float) / np.asarray(errs, dtype=float)
    if needs.sum() > 1.02 * total:
        raise ValueError("the targets do not fit")
    return total * needs / needs.sum()


WRONG_ANSWERS["03.2"]["feasibility tested with np.isclose"] = _feasible_if_isclose
WRONG_ANSWERS["03.2"]["feasibility with 2% slack"] = _feasible_with_two_percent_slack


def _feasible_with_1e7_tolerance(total, sens, errs):
    """Feasibility tested to a relative 1e-7 (outside DP referee, lessons 03-04): a budget short by 1e-8 passes."""
    needs = np.asarray(sens, dtype=float) / np.asarray(errs, dtype=float)
    if needs.sum() > total * (1 + 1e-7):
        raise ValueError("the targets do not fit")
    return total * needs / needs.sum()


def _mean_of_second_half(noisy_query, n_queries):
    answers = [noisy_query() for _ in range(n_queries)]
    return float(np.mean(answers[n_queries // 2:]))


def _mean_of_first_hundred(noisy_query, n_queries):
    answers = [noisy_query() for _ in range(n_queries)]
    return float(np.mean(answers[:100]))


WRONG_ANSWERS["03.2"]["feasibility to a relative 1e-7"] = _feasible_with_1e7_tolerance
WRONG_ANSWERS["03.3"]["mean of the second half of the answers"] = _mean_of_second_half
WRONG_ANSWERS["03.3"]["mean of the first 100 answers"] = _mean_of_first_hundred


# Edge cases (ints, NumPy numbers, long inputs): each passed the checks before they generated that edge.
def _tells_numbers_by_float(plan):  # an integer epsilon is taken for a list of parts
    total = 0.0
    for step in plan:
        if isinstance(step, float):
            total += step
        else:
            total += max(part if isinstance(part, float) else sum(part) for part in step)
    return total


def _tells_numbers_by_int_or_float(plan):  # a NumPy number is taken for a list of parts
    total = 0.0
    for step in plan:
        if isinstance(step, (int, float)):
            total += step
        else:
            total += max(part if isinstance(part, (int, float)) else sum(part) for part in step)
    return total


def _first_hundred_steps(plan):  # long plans cut to their first 100 steps and parts
    total = 0.0
    for step in plan[:100]:
        if isinstance(step, list):
            total += max(sum(part[:100]) if isinstance(part, list) else part for part in step[:100])
        else:
            total += step
    return total


def _allocation_in_zeros_like(total, sensitivities, max_errors):  # an int array when the inputs are ints
    needed = [s / e for s, e in zip(sensitivities, max_errors)]
    if sum(needed) > total * (1 + 1e-12):
        raise ValueError("the targets need more than the budget")
    allocation = np.zeros_like(sensitivities)
    for i, need in enumerate(needed):
        allocation[i] = need + (total - sum(needed)) / len(needed)
    return allocation


def _minimums_for_an_integer_total(total, sensitivities, max_errors):  # an integer total left unspent
    needed = np.asarray(sensitivities, dtype=float) / np.asarray(max_errors, dtype=float)
    if needed.sum() > total * (1 + 1e-12):
        raise ValueError("the targets need more than the budget")
    return list(needed) if isinstance(total, int) else total * needed / needed.sum()


def _equal_split_above_100_queries(total, sensitivities, max_errors):
    needed = np.asarray(sensitivities, dtype=float) / np.asarray(max_errors, dtype=float)
    if needed.sum() > total * (1 + 1e-12):
        raise ValueError("the targets need more than the budget")
    return np.full(len(needed), total / len(needed)) if len(needed) > 100 else total * needed / needed.sum()


def _k_capped_at_100_000(k, total_epsilon, delta, sensitivity=1.0):
    log_term = math.log(1 / delta)
    rho = (math.sqrt(log_term + total_epsilon) - math.sqrt(log_term)) ** 2 / min(k, 100_000)
    return sensitivity / math.sqrt(2 * rho)


WRONG_ANSWERS["03.1"]["(data) tells numbers from lists with isinstance(x, float)"] = _tells_numbers_by_float
WRONG_ANSWERS["03.1"]["(data) tells numbers from lists with isinstance(x, (int, float))"] = _tells_numbers_by_int_or_float
WRONG_ANSWERS["03.1"]["(size) reads the first 100 steps and parts only"] = _first_hundred_steps
WRONG_ANSWERS["03.2"]["(data) np.zeros_like(sensitivities) truncates to integers"] = _allocation_in_zeros_like
WRONG_ANSWERS["03.2"]["(data) an integer total: returns the minimum epsilons"] = _minimums_for_an_integer_total
WRONG_ANSWERS["03.2"]["(size) an equal split above 100 queries"] = _equal_split_above_100_queries
WRONG_ANSWERS["03.4"]["(size) k capped at 100,000"] = _k_capped_at_100_000


def _capped_attack(cap):  # asks at most `cap` questions (for speed), whatever n_queries allows (rt0206)
    def averaging_attack(noisy_query, n_queries):
        return float(np.mean([noisy_query() for _ in range(min(n_queries, cap))]))
    return averaging_attack


WRONG_ANSWERS["03.3"]["(size) asks at most 10,000 questions (rt0206)"] = _capped_attack(10_000)
WRONG_ANSWERS["03.3"]["(size) asks at most 15,000 questions (rt0206)"] = _capped_attack(15_000)
WRONG_ANSWERS["03.3"]["(size) asks at most 50,000 questions (s35rca)"] = _capped_attack(50_000)
WRONG_ANSWERS["03.3"]["(size) asks at most 100,000 questions (s35rca)"] = _capped_attack(100_000)


def _averages_first(count):  # asks every question, averages only the first `count` answers beyond that (s35rca)
    def averaging_attack(noisy_query, n_queries):
        answers = np.array([noisy_query() for _ in range(n_queries)])
        return float(answers[:count].mean())
    return averaging_attack


WRONG_ANSWERS["03.3"]["(size) asks all, averages only the first 10,000 answers (s35rca)"] = _averages_first(10_000)
WRONG_ANSWERS["03.3"]["(size) asks all, averages only the first 100,000 answers (s35rca)"] = _averages_first(100_000)


def _first_and_last(count=None, share=None):  # asks all, averages the first and the last part (referee s36rA)
    def averaging_attack(noisy_query, n_queries):
        answers = [noisy_query() for _ in range(n_queries)]
        k = min(count or int(share * len(answers)), len(answers) // 2)
        return float(np.mean(answers[:k] + answers[-k:]))
    return averaging_attack


WRONG_ANSWERS["03.3"]["(size) asks all, averages the first and the last 5,000 answers (s36rA)"] = _first_and_last(5_000)
WRONG_ANSWERS["03.3"]["(size) asks all, averages the first and the last 3,000 answers"] = _first_and_last(3_000)
WRONG_ANSWERS["03.3"]["(size) asks all, averages the first and the last 20% of the answers"] = _first_and_last(share=0.2)
