"""Checks for lesson 03 (privacy budget). Each calls the student's function on inputs it generates."""

from __future__ import annotations

import copy
import math
import numbers

import numpy as np

from mic_dp_helpers.accounting import zcdp_rho_gaussian, zcdp_to_dp
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number


# --------------------------------------------------------------------------- 03.1


def _plan_cost(plan) -> float:
    """Reference: sequential steps add up; a step over disjoint parts costs its most expensive part."""
    total = []
    for step in plan:
        if isinstance(step, list):
            total.append(max(math.fsum(part) if isinstance(part, list) else part for part in step))
        else:
            total.append(step)
    return math.fsum(total)


def _flat(plan) -> list[float]:
    out = []
    for item in plan:
        out.extend(_flat(item) if isinstance(item, list) else [item])
    return out


def _random_plan(rng: np.random.Generator) -> list:
    plan = []
    for _ in range(rng.integers(1, 6)):
        kind = rng.random()
        if kind < 0.35:
            plan.append(round(float(rng.uniform(0.01, 1.0)), 3))
        else:
            parts = []
            for _ in range(rng.integers(1, 6)):
                if rng.random() < 0.5:
                    parts.append(round(float(rng.uniform(0.01, 1.0)), 3))
                else:
                    parts.append([round(float(rng.uniform(0.01, 0.5)), 3) for _ in range(rng.integers(1, 4))])
            plan.append(parts)
    return plan


FIXED_PLANS = (
    [0.1, 0.2, 0.3],                                  # all on the whole data: add up
    [[0.5, 0.5, 0.5]],                                # one histogram over three disjoint groups
    [0.1, [0.2, 0.3]],                                # a query, then two disjoint groups
    [[[0.1, 0.1], 0.15]],                             # two queries on one group, one on the other
    [0.1, [0.2, 0.3], [[0.1, 0.1], 0.15]],
    [[[0.2, 0.2, 0.2], [0.5], 0.3], 0.05],
    [0.25],
    [],                                               # nothing asked, nothing spent
)


@exercise("03.1", title="Total epsilon of a query plan", answer_name="total_epsilon")
def check_total_epsilon(answer) -> None:
    rng = np.random.default_rng(303)
    plans = [copy.deepcopy(p) for p in FIXED_PLANS] + [_random_plan(rng) for _ in range(30)]
    for plan in plans:
        given = copy.deepcopy(plan)
        got = expect_number(answer(given), "the total epsilon")
        if given != plan:
            raise CheckFailed("your function changed the query plan it was given; read it without modifying it.")
        expected = _plan_cost(plan)
        if math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12):
            continue
        flat = _flat(plan)
        if not plan:
            raise CheckFailed("an empty plan asks nothing, so it spends nothing.")
        if all(not isinstance(step, list) for step in plan):
            raise CheckFailed(f"for the plan {plan}, every query runs on the whole data set: how do their "
                              "epsilons combine (sequential composition)?")
        if math.isclose(got, math.fsum(flat), rel_tol=1e-9):
            raise CheckFailed(f"for the plan {plan} you added up every epsilon. Queries on disjoint parts of the "
                              "data do not add up: one person is in only one part (parallel composition).")
        part_max = math.fsum(max(max(p) if isinstance(p, list) else p for p in s) if isinstance(s, list) else s
                             for s in plan)
        if math.isclose(got, part_max, rel_tol=1e-9):
            raise CheckFailed(f"for the plan {plan}: when a part holds several queries, they all run on the "
                              "same people, so within a part they add up.")
        raise CheckFailed(f"for the plan {plan} your total is {got:g}, which is not right. Go step by step: "
                          "what does a step over disjoint parts cost, and what does a part with several queries cost?")


# --------------------------------------------------------------------------- 03.2

# (total_epsilon, sensitivities, max_errors); each target must be met by Laplace noise of
# scale sensitivity / epsilon (its mean absolute error).
FEASIBLE_CASES = (
    (1.0, [1.0, 1.0, 1.0], [2.0, 5.0, 10.0]),           # an equal split misses the first target
    (2.0, [1.0, 100.0, 5.0], [5.0, 100.0, 20.0]),       # a split by sensitivity misses the first target
    (0.5, [1.0], [2.0]),                                  # exactly enough budget
    (1.3, [1.0, 2.0], [2.0, 2.5]),                        # exactly enough again, with two queries
)
INFEASIBLE_CASES = (
    (3.0, [2.0, 1.0, 1.0, 4.0], [1.0, 10.0, 1.0, 8.0]),  # needs 3.6
    (1.0, [1.0, 1.0], [1.0, 1.0]),                        # needs 2
)


def _minimum_epsilons(sensitivities, max_errors) -> list[float]:
    return [s / e for s, e in zip(sensitivities, max_errors)]


def _random_feasible(rng: np.random.Generator):
    n = int(rng.integers(2, 7))
    sensitivities = [round(float(v), 3) for v in rng.lognormal(0.0, 1.5, n)]
    max_errors = [round(float(v), 3) for v in rng.lognormal(1.5, 1.0, n)]
    total = round(math.fsum(_minimum_epsilons(sensitivities, max_errors)) * float(rng.uniform(1.05, 3.0)), 4)
    return total, sensitivities, max_errors


def _check_allocation(answer, total, sensitivities, max_errors) -> None:
    given_sens, given_err = list(sensitivities), list(max_errors)
    got = answer(total, given_sens, given_err)
    if given_sens != sensitivities or given_err != max_errors:
        raise CheckFailed("your function changed the lists it was given; read them without modifying them.")
    if isinstance(got, (str, bytes, numbers.Number)) or not hasattr(got, "__len__"):
        raise CheckFailed(f"return one epsilon per query (a list or array), not a {type(got).__name__}.")
    if len(got) != len(sensitivities):
        raise CheckFailed(f"there are {len(sensitivities)} queries but you returned {len(got)} epsilons.")
    epsilons = [expect_number(e, "each epsilon") for e in np.asarray(got, dtype=object).ravel()]
    if any(e <= 0 for e in epsilons):
        raise CheckFailed("every epsilon must be positive: a query with epsilon 0 cannot be answered.")
    spent = math.fsum(epsilons)
    if not math.isclose(spent, total, rel_tol=1e-9):
        how = "leave part of the budget unused" if spent < total else "spend more than the budget"
        raise CheckFailed(f"with total_epsilon={total} your epsilons add up to {spent:.6g}: you {how}. "
                          "They must add up to the total exactly.")
    for i, (eps, sens, target) in enumerate(zip(epsilons, sensitivities, max_errors)):
        error = sens / eps
        if error > target * (1 + 1e-9):
            raise CheckFailed(f"query {i} (sensitivity {sens:g}, target error {target:g}) gets epsilon {eps:.4g}, "
                              f"so its Laplace noise has mean absolute error {error:.4g}, above its target. "
                              "Give each query at least the epsilon its target needs.")


@exercise("03.2", title="Split a budget to meet accuracy targets", answer_name="allocate")
def check_allocate(answer) -> None:
    rng = np.random.default_rng(3032)
    cases = list(FEASIBLE_CASES) + [_random_feasible(rng) for _ in range(12)]
    for total, sensitivities, max_errors in cases:
        _check_allocation(answer, total, list(sensitivities), list(max_errors))
    for total, sensitivities, max_errors in INFEASIBLE_CASES:
        try:
            got = answer(total, list(sensitivities), list(max_errors))
        except ValueError:
            continue
        except NotImplementedError:
            raise
        except Exception as error:  # noqa: BLE001 - any other error type is a wrong answer here
            raise CheckFailed(f"when the targets cannot all be met, raise a ValueError, not {type(error).__name__}.")
        raise CheckFailed(f"with total_epsilon={total}, sensitivities {sensitivities} and targets {max_errors} "
                          f"the targets cannot all be met, but you returned {got!r}. Raise a ValueError instead.")


# --------------------------------------------------------------------------- 03.3

# (true count, noise kind, noise scale, n_queries, seed). The attack's estimate must land
# within 0.5 of the true count, so that rounding it gives the exact count. The mean of
# n answers has standard deviation sqrt(2) * scale / sqrt(n) for Laplace and sigma / sqrt(n)
# for Gaussian noise: at most 0.071 in every case below, so 0.5 is at least 7 standard
# deviations (the median does even better for Laplace noise). With n >= 2000 the mean is
# close to normal, so a correct attack fails with probability below 1e-11; and the seeds are
# fixed, so the check is deterministic.
ATTACK_CASES = (
    (16, "laplace", 2.0, 4_000, 1),
    (254, "laplace", 2.0, 2_000, 2),
    (3, "gaussian", 3.0, 3_000, 3),
    (1_000, "laplace", 5.0, 10_000, 4),
    (0, "laplace", 1.0, 2_000, 5),
    (87, "gaussian", 1.5, 2_000, 6),
)
ATTACK_TOLERANCE = 0.5


class _NoisyQuery:
    """A noisy count that remembers how often it was asked (the student cannot see the truth)."""

    def __init__(self, true_count: int, kind: str, scale: float, seed: int) -> None:
        self._true = float(true_count)
        self._kind, self._scale = kind, scale
        self._rng = np.random.default_rng(seed)
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        if self._kind == "laplace":
            return float(self._true + self._rng.laplace(0.0, self._scale))
        return float(self._true + self._rng.normal(0.0, self._scale))


@exercise("03.3", title="The averaging attack", answer_name="averaging_attack")
def check_averaging_attack(answer) -> None:
    for true_count, kind, scale, n_queries, seed in ATTACK_CASES:
        noisy_query = _NoisyQuery(true_count, kind, scale, seed)
        estimate = expect_number(answer(noisy_query, n_queries), "an estimate of the true answer")
        if noisy_query.calls == 0:
            raise CheckFailed("your function never asked the noisy query: call noisy_query() to get an answer.")
        if noisy_query.calls < n_queries:
            raise CheckFailed(f"you asked only {noisy_query.calls} of the {n_queries} questions you may ask; "
                              "every extra answer makes the estimate better.")
        if noisy_query.calls > n_queries:
            raise CheckFailed(f"you asked {noisy_query.calls} questions but only n_queries={n_queries} are allowed.")
        if abs(estimate - true_count) > ATTACK_TOLERANCE:
            raise CheckFailed(f"after {n_queries} answers your estimate is {abs(estimate - true_count):.2f} away "
                              "from the true count; it should be close enough to round to it. Does your estimate "
                              "use all the answers you collected?")


# --------------------------------------------------------------------------- 03.4

# (k, total_epsilon, delta, sensitivity)
SIGMA_CASES = (
    (100, 1.0, 1e-6, 1.0),
    (20, 1.0, 1e-5, 1.0),
    (1_000, 10.0, 1e-6, 1.0),
    (50, 3.0, 1e-8, 2.5),
    (10_000, 100.0, 1e-9, 0.5),
    (30, 0.3, 1e-5, 10.0),
)
SIGMA_RTOL = 1e-6  # answers found numerically (e.g. by bisection) are accepted to 6 significant digits


def _reference_sigma(k: int, total_epsilon: float, delta: float, sensitivity: float) -> float:
    log_term = math.log(1 / delta)
    rho = (math.sqrt(log_term + total_epsilon) - math.sqrt(log_term)) ** 2
    return sensitivity * math.sqrt(k / (2 * rho))


@exercise("03.4", title="Gaussian noise for k queries under zCDP", answer_name="sigma_for_k_queries")
def check_sigma_for_k_queries(answer) -> None:
    for k, total_epsilon, delta, sensitivity in SIGMA_CASES:
        sigma = expect_number(answer(k, total_epsilon, delta, sensitivity), "a noise standard deviation")
        if sigma <= 0:
            raise CheckFailed(f"for k={k} you returned sigma={sigma:g}; a standard deviation is positive.")
        spent = zcdp_to_dp(k * zcdp_rho_gaussian(sensitivity, sigma), delta)
        where = f"for k={k}, total_epsilon={total_epsilon}, delta={delta:g}, sensitivity={sensitivity}"
        if spent > total_epsilon * (1 + SIGMA_RTOL):
            raise CheckFailed(f"{where}: with your sigma, zCDP accounting gives the k queries a total epsilon of "
                              f"{spent:.4g}, over the budget. That is too little noise; did you account for all k "
                              "queries and for the sensitivity?")
        if sigma > _reference_sigma(k, total_epsilon, delta, sensitivity) * (1 + SIGMA_RTOL):
            raise CheckFailed(f"{where}: your sigma keeps the total within the budget but is larger than needed "
                              f"(zCDP accounting puts the total at only {spent:.4g}). Find the largest rho the "
                              "budget allows, then share it among the k queries.")
