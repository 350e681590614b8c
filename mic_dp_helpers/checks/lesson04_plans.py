"""Check of lesson 04's exercise 04.4 (a plan of PyDP queries on one budget); 04.1-04.3 are in ``lesson04``.

PyDP's noise cannot be seeded, so the check is statistical: 1,500 runs of a plan from ``seed`` and
tolerances of at least 4.3 standard errors (stated at each test). A correct answer fails in under 1 of
1,000 runs (tests/test_check_false_rejection.py).
"""

from __future__ import annotations

import math
import sys

import numpy as np
import scipy.stats

from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant
from mic_dp_helpers.checks import _core, _stats
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise, expect_number
from mic_dp_helpers.checks._float_plans import float_rounding_plan as _float_case
from mic_dp_helpers.scale import pydp_error

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_array = np.array
_clip = np.clip
_mean = np.mean
_abs = np.abs
_max = np.max
_median = np.median
_fsum = math.fsum
_nextafter = math.nextafter
_inf = math.inf
_isclose = math.isclose
_sqrt = math.sqrt
_exp = math.exp
_log = math.log
_float = float
_len = len
_isinstance = isinstance
_noise_std = pydp_error.bounded_mean_noise_std
_poisson_cdf = scipy.stats.poisson.cdf
SEED = 404


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args)


def _log_uniform(rng, low, high) -> float:
    return _float(_exp(rng.uniform(_log(low), _log(high))))


# ------------------------------------------------------------------------------- 04.4
PLAN_RUNS = 1500


def _plan_case(seed: int):
    rng = _default_rng(seed)
    lower = _float(rng.uniform(-10, 10))
    upper = lower + _log_uniform(rng, 1, 50)
    n = int(rng.integers(200, 1000))
    values = rng.uniform(lower - 2, upper + 2, n)
    # 6 to 10 queries, every kind at least twice, so that an answer exact beyond the first few queries, or
    # reusing a repeated kind's answer, meets a query where it shows; one repeat has the same epsilon too.
    kinds = ["count", "mean", "sum"] * 2 + [str(k) for k in rng.choice(["count", "sum", "mean"], int(rng.integers(0, 5)))]
    kinds = [kinds[i] for i in rng.permutation(_len(kinds))]
    plan = [(kind, _log_uniform(rng, 0.05, 0.5)) for kind in kinds]
    first, later = [i for i, kind in enumerate(kinds) if kind == kinds[-1]][:2]
    plan[later] = plan[first] if later != first else plan[later]
    return values, lower, upper, plan


def _repr_traceback(error: BaseException) -> str:
    """The qualified names of the functions an error passed through, and its message."""
    names, tb = [], error.__traceback__
    while tb is not None:
        names, tb = names + [tb.tb_frame.f_code.co_qualname], tb.tb_next
    return " ".join(names) + " " + str(error)


def _run_plan(answer, accountant, values, lower, upper, plan):
    results = _call("04.4", answer, accountant, values, lower, upper, list(plan))
    if not _isinstance(results, (list, tuple)) or _len(results) != _len(plan):
        raise CheckFailed(f"it should return a list with one answer per query of the plan ({_len(plan)}), "
                          f"got {type(results).__name__}.")
    return [expect_number(r, "a noisy answer") for r in results]


def _exactly_enough(plan) -> float:
    """The smallest float budget into which the plan's epsilons fit, added exactly as the ledger adds them."""
    epsilons = [e for _, e in plan]
    total = _fsum(epsilons)
    while not PrivacyAccountant(total).can_spend_all(epsilons):
        total = _nextafter(total, _inf)
    return total


def _plan_runner(values, lower, upper, plan):
    """One run of the plan on a fresh accountant with exactly enough budget (a plain callable)."""
    total = _exactly_enough(plan)

    def run(answer):
        return answer(PrivacyAccountant(total), values, lower, upper, list(plan))
    return run


@exercise("04.4", title="A plan of PyDP queries on one budget", answer_name="run_query_plan")
def check_run_query_plan(answer, seed: int = SEED) -> None:
    """A correct answer, for a plan from ``seed`` (6 to 10 counts, sums and means in random order, each kind at
    least twice, one query repeated with its epsilon, epsilons 0.05 to 0.5, a non-zero lower bound, values
    beyond the bounds): charges one ledger entry per query with its epsilon, in plan order; returns one answer
    per query with PyDP's noise for its kind and epsilon (1,500 runs: mean absolute deviation within [0.89,
    1.12] of the Laplace scale for counts and sums, [0.87, 1.15] of BoundedMean's noise for means well inside
    the bounds; Laplace tails (the largest answer, and the pooled share beyond 3 scales); no exact or repeated answers; any two queries' noise uncorrelated, |r| <= 5.5 /
    sqrt(1500)); refuses a plan that does not fit with BudgetExceededError, spending nothing; accepts a plan
    that fits by exact addition but not by float sum; returns [] for an empty plan. Limits: one plan (n from
    200 to 1,000), so an answer exact only outside it, or a mean with its own noise of the right size, passes.

    Parameters
    ----------
    answer : callable
        The student's ``run_query_plan`` (exercise 04.4).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    values, lower, upper, plan = _plan_case(seed)
    accountant = PrivacyAccountant(_fsum(e for _, e in plan) * 1.5)
    answers = _run_plan(answer, accountant, values.copy(), lower, upper, plan)
    charged = [entry.epsilon for entry in accountant.ledger]
    values, lower, upper, plan = _plan_case(seed)
    if not charged:
        raise CheckFailed("the accountant was not charged: every query must be paid for from its budget.")
    if _len(charged) != _len(plan) or any(not _isclose(a, b) for a, b in zip(charged, [e for _, e in plan])):
        raise CheckFailed("the ledger should hold one entry per query with that query's epsilon, in plan order "
                          "(property: one charge per query).")
    clipped = _clip(values, lower, upper)
    largest = max(_abs(lower), _abs(upper))
    for (kind, epsilon), got in zip(plan, answers):
        scale = {"count": 1 / epsilon, "sum": largest / epsilon}.get(kind)
        wrong = ((kind == "count" and _abs(got - _len(values)) > 16 * scale)
                 or (kind == "sum" and _abs(got - _fsum(clipped)) > 16 * scale)
                 or (kind == "mean" and not lower <= got <= upper))
        if wrong:
            raise CheckFailed("the answers do not match their queries: return the answers in plan order, each "
                              "query run with the bounds you were given (property: order).")
    runs = _core.student_call("04.4", _THIS, call_repeatedly, _plan_runner(values.copy(), lower, upper, plan),
                               PLAN_RUNS, answer)
    values, lower, upper, plan = _plan_case(seed)
    for results in runs:
        if not _isinstance(results, (list, tuple)) or _len(results) != _len(plan):
            raise CheckFailed(f"it should return a list with one answer per query of the plan ({_len(plan)}).")
    runs = _array([[expect_number(r, "a noisy answer") for r in results] for results in runs])
    beyond, expected = 0, 0.0  # answers of counts and sums more than 3 Laplace scales out: observed, expected
    far, expected_far = 0, 0.0  # ... and more than 5 scales out
    for position, (kind, epsilon) in enumerate(plan):
        column = runs[:, position]
        if column.max() == column.min():
            raise CheckFailed(f"the {kind} (query {position} of the plan) never changes: it is released without "
                              "noise (property: every answer noised), so nothing is private. Let PyDP answer "
                              "every query.")
        if kind == "mean":
            clamped_mean = _float(_mean(_clip(values, lower, upper)))
            sd = _noise_std(lower, upper, epsilon, _len(values), mean=clamped_mean)
            if sd > (upper - lower) / 10:  # PyDP clamps its answer to the bounds: the Laplace model would not hold
                continue
            # mean |noise| within [0.87, 1.15] of BoundedMean's: 5 standard errors of 2.6% over 1,500 runs, as
            # in 04.1 (whose 36-case sweep bounds the model's own error by 4.4%).
            deviation = _float(_mean(_abs(column - clamped_mean))) / (sd / _sqrt(2))
            if not 0.87 <= deviation <= 1.15:
                amount = "less" if deviation < 0.87 else "more"
                raise CheckFailed(f"the mean (query {position}) varies {amount} than BoundedMean's noise with its "
                                  "epsilon (property: scale): run each mean with PyDP's BoundedMean (a noisy sum "
                                  "over a noisy count is private too, but noisier), its own epsilon and the bounds.")
            inside = column[(column > lower) & (column < upper)]  # PyDP clamps means: piles on a bound are fine
            _stats.check_fresh_noise(inside, clamped_mean, sd / _sqrt(2), "laplace", f"The mean (query {position}):")
            continue
        scale = 1 / epsilon if kind == "count" else max(_abs(lower), _abs(upper)) / epsilon
        truth = _len(values) if kind == "count" else _fsum(_clip(values, lower, upper))
        # mean |noise| of 1,500 Laplace draws has relative SE 2.6%; [0.89, 1.12] is 4.3 of them (two-sided
        # 1.7e-5 per query, below 2e-4 for a plan of 10). An epsilon 1.25 times too large gives 0.8.
        deviation = _float(_mean(_abs(column - truth))) / scale
        if not 0.89 <= deviation <= 1.12:
            amount = "less" if deviation < 0.89 else "more"
            raise CheckFailed(f"the {kind} (query {position}) varies {amount} than a {kind} with its epsilon must "
                              "(property: scale): run each query with its own epsilon from the plan.")
        # Tails as in 04.1: a correct answer fails with probability far below 1e-6; bounded noise always fails.
        if _float(_max(_abs(column - truth))) / scale < 0.9 * _stats.laplace_tail_threshold(PLAN_RUNS):
            raise CheckFailed(f"the {kind} (query {position}) never reaches the tails that {PLAN_RUNS} draws of "
                              "PyDP's Laplace noise reach (property: tails): bounded, clipped or Gaussian noise is "
                              "not the mechanism and not epsilon-DP. Let PyDP answer every query.")
        _stats.check_fresh_noise(column, truth, scale, "laplace", f"The {kind} (query {position}):")
        beyond += int((_abs(column - truth) > 3 * scale).sum())
        # PyDP rounds a count's noise to an integer: |noise| > 3b then needs |Laplace| >= floor(3b) + 0.5.
        expected += PLAN_RUNS * (_exp(-(math.floor(3 * scale) + 0.5) / scale) if kind == "count" else _exp(-3.0))
        far += int((_abs(column - truth) > 5 * scale).sum())
        expected_far += PLAN_RUNS * (_exp(-(math.floor(5 * scale) + 0.5) / scale) if kind == "count" else _exp(-5.0))
    # Tail mass, pooled over the counts and sums (at least 4 x 1,500 answers, about 270 expected beyond 3
    # scales; matches PyDP within 2% over 20,000 draws): fewer than expected - 5.3 sqrt(expected) fails (a
    # correct answer with probability about 1e-7). Gaussian noise of Laplace's spread puts a third as many
    # there, uniform or clipped noise none: both fail with probability above 0.999.
    if beyond < expected - 5.3 * _sqrt(expected):
        raise CheckFailed(f"the counts and sums put {beyond} answers more than 3 Laplace scales from the truth, where "
                          f"PyDP's noise puts about {expected:.0f} (property: tails): the noise is not Laplace (Gaussian, "
                          "bounded or clipped noise is not the mechanism, nor epsilon-DP). Let PyDP answer every query.")
    # Beyond 5 scales: about 40 expected; noise truncated, or answers re-asked until they look plausible, put
    # none there. Fewer than a Poisson of 70% of the expectation gives with probability 1e-7 fail.
    if _float(_poisson_cdf(far, 0.7 * expected_far)) < 1e-7:
        raise CheckFailed(f"the counts and sums put {far} answers more than 5 Laplace scales from the truth, where "
                          f"PyDP's noise puts about {expected_far:.0f} (property: tails): the noise is cut off (truncated, or "
                          "an answer asked again until it looks plausible, which also spends more than charged).")
    # Any two queries' noise must be independent: a reused or rescaled draw has correlation +-1; a correct pair
    # exceeds |r| = 5.5 / sqrt(1500) with probability about 4e-8 (below 2e-6 for the 45 pairs of a plan of 10).
    for a in range(_len(plan)):
        for b in range(a + 1, _len(plan)):
            x, y = runs[:, a] - _median(runs[:, a]), runs[:, b] - _median(runs[:, b])
            if _float((x * x).sum()) == 0 or _float((y * y).sum()) == 0:
                continue
            r = _float((x * y).sum()) / _sqrt(_float((x * x).sum()) * _float((y * y).sum()))
            if _abs(r) > 5.5 / _sqrt(PLAN_RUNS):
                raise CheckFailed(f"the {plan[a][0]} and the {plan[b][0]} at queries {a} and {b} of the plan move "
                                  f"together over runs (correlation {r:+.2f}; property: independent releases): every query of the "
                                  "plan is its own release with fresh noise, even when it repeats an earlier "
                                  "query; never reuse or adjust an earlier answer.")
    # All or nothing: a plan that does not fit must spend nothing.
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.5, label="earlier analysis")
    try:
        _call("04.4", answer, accountant, values.copy(), lower, upper,
              [("count", 0.2), ("mean", 0.2000000001), ("sum", 0.2)])
    except BudgetExceededError:
        pass
    except TypeError as error:
        if "BudgetExceededError" in _repr_traceback(error):
            raise CheckFailed("raising BudgetExceededError failed with a TypeError: its constructor takes what was "
                              "asked and what is left, e.g. BudgetExceededError(requested_epsilon, 0.0, "
                              "accountant.remaining_epsilon, accountant.remaining_delta, label=\"query plan\").") from None
        raise
    else:
        raise CheckFailed("a plan needing epsilon 0.6 ran with only 0.5 left: raise BudgetExceededError instead.")
    if _len(accountant.ledger) != 1:
        raise CheckFailed("a plan that does not fit the budget spent part of it before failing (property: all or "
                          "nothing): check the whole plan's cost first, and run nothing if it does not fit.")
    total, earlier, float_plan = _float_case(seed)
    accountant = PrivacyAccountant(total)
    for spend in earlier:
        accountant.spend(spend, label="earlier analysis")
    try:
        _run_plan(answer, accountant, values.copy(), lower, upper, float_plan)
    except BudgetExceededError:
        raise CheckFailed("a plan that fits the remaining budget up to float rounding was refused (property: "
                          "exact addition): ask the accountant whether the whole plan fits "
                          "(accountant.can_spend_all), not a float sum compared with a bare >.") from None
    if _run_plan(answer, PrivacyAccountant(0.5), values.copy(), lower, upper, []) != []:
        raise CheckFailed("an empty plan should return an empty list.")
