"""Check of lesson 04's exercise 04.4 (a plan of PyDP queries on one budget); 04.1-04.3 are in ``lesson04``.

PyDP's noise cannot be seeded, so the check is statistical: 1,500 runs of a plan from ``seed`` and
tolerances of at least 4.3 standard errors (stated at each test), then 15 runs of a large plan (10,000 to
100,000 values, 12 to 14 queries, epsilons 0.01 to 20) for noiseless answers and bounds taken from the
data, a band sweep of 240 plans (1 to 4 queries, 1 to 120,000 values, epsilons 1e-2 to 20, one call each)
and 150 runs of 8 counts at epsilons 1 to 8 (on 3 to 60 values, then on 1,000 to 20,000), both for
noiseless answers. A correct answer fails in under 1 of
1,000 runs (tests/test_check_false_rejection.py).
"""

from __future__ import annotations

import math
import sys

import numpy as np
import scipy.stats

from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant
from mic_dp_helpers.checks import _core, _stats, _sweeps
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise, expect_number
from mic_dp_helpers.checks._float_plans import float_rounding_plan as _float_case
from mic_dp_helpers.scale import pydp_error

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_array = np.array
_clip = np.clip
_mean = np.mean
_sum = np.sum
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
_id = id
_sorted = sorted
_array_equal = np.array_equal
_noise_std = pydp_error.bounded_mean_noise_std
_poisson_cdf = scipy.stats.poisson.cdf
_binom_sf = scipy.stats.binom.sf
_zeros = np.zeros
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


LARGE_PLAN_RUNS = 15


def _large_plan_case(seed: int):
    """A second plan: 10,000 to 100,000 values strictly inside the bounds (within 0.25 of the lower bound's and
    0.2 of the upper bound's distance from 0, so bounds taken from the data's min and max are at most 0.25 times
    as wide, and a sum's sensitivity at most 0.25 times as large), 12 to 14 queries (every kind at least 4
    times), counts at epsilon 0.2 to 0.7 (PyDP rounds a count's noise to an integer: at epsilon 0.7 30% of its
    counts are exact, at 5 92%, so a constant column would not show an exact answer), sums and means at 0.5 to
    5, one of them at 3 to 5, one at 0.01 to 0.05 and one at 5 to 20."""
    rng = _default_rng([seed, 44])
    width = _log_uniform(rng, 10, 200)
    lower = -width * _float(rng.uniform(0.1, 0.4))
    upper = lower + width
    values = rng.uniform(0.25 * lower, 0.2 * upper, int(_log_uniform(rng, 10_000, 100_000)))
    kinds = ["count", "mean", "sum"] * 4 + [str(k) for k in rng.choice(["count", "sum", "mean"], int(rng.integers(0, 3)))]
    kinds = [kinds[i] for i in rng.permutation(_len(kinds))]
    plan = [(kind, _log_uniform(rng, 0.2, 0.7) if kind == "count" else _log_uniform(rng, 0.5, 5.0)) for kind in kinds]
    large, small, huge = (int(i) for i in rng.choice([i for i, kind in enumerate(kinds) if kind != "count"], 3,
                                                     replace=False))
    plan[large] = (kinds[large], _log_uniform(rng, 3.0, 5.0))
    plan[small] = (kinds[small], _log_uniform(rng, 0.01, 0.05))  # the ends of the course's epsilons (1e-2 to 20):
    plan[huge] = (kinds[huge], _log_uniform(rng, 5.0, 20.0))     # an answer exact below 0.05 or from 5 on fails
    return values, lower, upper, plan


#: Plans of the band sweep, one call each (``_band_case``): sums or means exact only where the size, an epsilon or
#: the plan's length lies in a band holding a share f of the sweep's cases (of its log range) meet it in 1 - (1 - f)^240
#: of seeds: 0.9999 at f = 0.04 (the referee's means exact for 2,000-5,000 values hold about 0.047). Not counts.
BAND_PLANS = 240
#: The band sweep's tests fail a correct answer with probability at most this each (two tests).
BAND_FAILURE = 1e-7


#: The band plans' input forms, in turn: 24 plans (about 40 sums and means) of each non-plain one (referee rt0206:
#: answers exact for integer, zero or symmetric bounds, whole numbers or a list passed, as no case had them).
BAND_FORMS = ("plain", "integer bounds", "a lower bound of 0.0", "symmetric bounds", "whole-number values", "a list of values") + ("plain",) * 4


def _band_case(seed: int, index: int):
    """Plan ``index`` of the band sweep: its own bounds (lower -20 to 20, width 2 to 200), 1 to 120,000 values
    (log-uniform, ``_sweeps.SIZES``) strictly inside the middle 80% of the bounds, and 1 to 4 queries of random
    kinds, each at an epsilon from 1e-2 to 20 (log-uniform, ``_sweeps.EPSILONS``); form ``BAND_FORMS[index % 10]``."""
    rng = _default_rng([seed, 45, index])
    lower = _float(rng.uniform(-20, 20))
    upper = lower + _log_uniform(rng, 2, 200)
    form = BAND_FORMS[index % _len(BAND_FORMS)]
    if form != "plain" and "values" not in form:  # integer (Python ints), zero or symmetric bounds
        lower, upper = {"integer bounds": (round(lower), round(lower) + round(upper - lower)), "a lower bound of 0.0":
                        (0.0, upper - lower)}.get(form, (-(upper - lower) / 2, (upper - lower) / 2))
    width = upper - lower
    n = int(min(_sweeps.SIZES[1], max(_sweeps.SIZES[0], round(_log_uniform(rng, *_sweeps.SIZES)))))
    values = rng.uniform(lower + width / 10, upper - width / 10, n)
    plan = [(str(kind), _log_uniform(rng, *_sweeps.EPSILONS)) for kind in rng.choice(["count", "sum", "mean"],
                                                                                    int(rng.integers(1, 5)))]
    whole = np.clip(np.round(values), np.ceil(lower + width / 10), np.floor(upper - width / 10))  # still inside
    return {"whole-number values": whole, "a list of values": values.tolist()}.get(form, values), lower, upper, plan


def _poisson_binomial_sf(k: int, probabilities) -> float:
    """P(K >= k) for K a sum of independent Bernoulli(p) over ``probabilities``."""
    pmf = _zeros(_len(probabilities) + 1)
    pmf[0] = 1.0
    for p in probabilities:
        pmf[1:] = pmf[1:] * (1 - p) + pmf[:-1] * p
        pmf[0] *= 1 - p
    return _float(pmf[k:].sum())


def _check_band(answer, seed: int) -> None:
    """One call on each of the ``BAND_PLANS`` plans of the band sweep (budgets alternating as in ``_budgets``):
    the ledger and the values as in the first plan; no sum or mean the exact answer (within 1e-13 of the float
    error of its sum and 1e-9 noise scales: a correct answer lands there with probability below 1e-6 per
    release, 2e-6 per run); no more sums and means within 1e-3 noise scales of the truth than Binomial(answers, 2e-3) gives
    with probability ``BAND_FAILURE`` (Laplace-like noise lands there with probability about 1e-3; a mean's
    scale is capped at a tenth of the bounds, where PyDP clamps); no more exact counts than PyDP's rounded noise
    gives with probability ``BAND_FAILURE`` (a count at epsilon e is exact with probability 1 - e^(-e/2),
    taken as 1 - 0.95 e^(-e/2), within 2% of PyDP's measured miss rate at 0.01 to 8, summed as a
    Poisson-binomial)."""
    near, tested, first_near = 0, 0, ""
    exact_counts, count_probabilities, pydp_exact_counts, first_count = 0, [], 0.0, ""
    for index in range(BAND_PLANS):
        values, lower, upper, plan = _band_case(seed, index)
        accountant = PrivacyAccountant(_budgets(plan)[index % 2])
        given = values.copy()  # the answer sees copies: nothing it does changes what the check tests
        results = _run_plan(answer, accountant, given, lower, upper, plan)
        where = (f"With {_len(values)} values, bounds [{lower:.4g}, {upper:.4g}] and the plan "
                 f"{[(kind, _float(f'{e:.3g}')) for kind, e in plan]} (one of {BAND_PLANS} plans across 1 to "
                 f"{_sweeps.SIZES[1]:,} values and epsilons {_sweeps.EPSILONS[0]:g} to {_sweeps.EPSILONS[1]:g}), ")
        _check_ledger(accountant, plan, where)
        _check_values_unchanged(given, values, where)
        clipped = _clip(values, lower, upper)
        largest = max(_abs(lower), _abs(upper))
        for position, ((kind, epsilon), got) in enumerate(zip(plan, results)):
            if kind == "count":
                exact_counts += int(got == _len(values))
                count_probabilities.append(1 - 0.95 * _exp(-epsilon / 2))  # the miss rate taken 5% low
                pydp_exact_counts += 1 - _exp(-epsilon / 2)
                first_count = first_count or (where if got == _len(values) else "")
                continue
            if kind == "sum":
                truth, scale = _float(_sum(clipped)), largest / epsilon
                tolerance = 1e-13 * _float(_sum(_abs(clipped))) + 1e-9 * scale
            else:
                truth = _float(_mean(clipped))
                scale = min(_noise_std(lower, upper, epsilon, _len(values), mean=truth) / _sqrt(2), (upper - lower) / 10)
                tolerance = 1e-13 * largest + 1e-9 * scale
            if _abs(got - truth) <= tolerance:
                raise CheckFailed(f"{where}the {kind} (query {position}) is the exact answer (property: every answer "
                                  "noised, whatever the size, epsilon, position or length of the plan). Let PyDP "
                                  "answer every query.")
            tested += 1
            if _abs(got - truth) <= 1e-3 * scale:
                near, first_near = near + 1, first_near or where
    if near and _float(_binom_sf(near - 1, tested, 2e-3)) < BAND_FAILURE:
        raise CheckFailed(f"{first_near}and in {near - 1} more of the {BAND_PLANS} plans, a sum or mean is within "
                          f"1e-3 noise scales of the truth ({near} of {tested}, where PyDP's noise puts about "
                          f"{tested / 1000:.1f}; property: every answer noised). Let PyDP answer every query.")
    if exact_counts and _poisson_binomial_sf(exact_counts, count_probabilities) < BAND_FAILURE:
        raise CheckFailed(f"{first_count}and in more of the {BAND_PLANS} plans, the count is exact: {exact_counts} of "
                          f"{_len(count_probabilities)} counts, where PyDP's noise (rounded to a whole number) leaves "
                          f"about {pydp_exact_counts:.0f} exact (property: every answer noised). Let PyDP "
                          "answer every query.")


#: Runs of the counts-only plan (``_count_case``) and its epsilons, one count each, log-spaced from 1 to 8: PyDP
#: rounds a count's noise to a whole number, so a count at epsilon e is exact with probability 1 - e^(-e/2)
#: (measured within 3% of the miss rate at 1.1 to 6.9, 20,000 draws each), and no other test sees counts skipped
#: at high epsilon.
COUNT_RUNS = 150
COUNT_EPSILONS = tuple(8.0 ** ((k + 0.5) / 8) for k in range(8))


def _count_case(seed: int, sizes=(3, 60)):
    """A plan of 8 counts (``COUNT_EPSILONS``, each moved by up to 3%, in random order) on ``sizes`` values (3 to
    60, or log-uniform 1,000 to 20,000 for ``_large_count_case``)."""
    rng = _default_rng([seed, 46 if sizes == (3, 60) else 47])
    lower = _float(rng.uniform(-20, 20))
    upper = lower + _log_uniform(rng, 2, 200)
    n = int(rng.integers(*sizes)) if sizes == (3, 60) else int(_log_uniform(rng, *sizes))
    values = rng.uniform(lower, upper, n)
    plan = [("count", e * _float(rng.uniform(0.97, 1.03))) for e in COUNT_EPSILONS]
    return values, lower, upper, [plan[i] for i in rng.permutation(_len(plan))]


def _large_count_case(seed: int):
    """The counts-only plan on 1,000 to 20,000 values (log-uniform)."""
    return _count_case(seed, (1_000, 20_000))


def _check_high_epsilon_counts(answer, seed: int, case=_count_case) -> None:
    """``COUNT_RUNS`` runs of the counts-only plan: for every run of consecutive epsilons (by size), all its
    answers exact has probability prod (1 - 0.9 e^(-e/2))^runs for a correct answer (the miss rate taken 10%
    below PyDP's); below 1e-9 fails (36 windows: a correct answer fails with probability below 4e-8 per plan, 8e-8 for
    the two ``case`` plans). Counts
    exact above epsilon c fail for c up to 4 (probability 1e-14 or less); from about 4.3 up they pass (the
    two counts above 4.3, all exact: probability 1e-6)."""
    values, lower, upper, plan, runs = _plan_runs(answer, case, seed, COUNT_RUNS)
    order = _sorted(range(_len(plan)), key=lambda i: plan[i][1])
    exact = [bool((runs[:, i] == _len(values)).all()) for i in order]
    log_chance = [COUNT_RUNS * _log(1 - 0.9 * _exp(-plan[i][1] / 2)) for i in order]
    for first in range(_len(order)):
        total = 0.0
        for last in range(first, _len(order)):
            if not exact[last]:
                break
            total += log_chance[last]
            if total < _log(1e-9):
                while last + 1 < _len(order) and exact[last + 1]:
                    last += 1
                low, high = plan[order[first]][1], plan[order[last]][1]
                raise CheckFailed(f"On {_len(values)} values, every count at epsilon {low:.3g} to {high:.3g} is exact in "
                                  f"all {COUNT_RUNS} runs, where PyDP's noise (rounded to a whole number) changes some "
                                  "of them (property: every answer noised, whatever epsilon). Let PyDP answer every "
                                  "count, however large its epsilon.")


def _repr_traceback(error: BaseException) -> str:
    """The qualified names of the functions an error passed through, and its message."""
    names, tb = [], error.__traceback__
    while tb is not None:
        names, tb = names + [tb.tb_frame.f_code.co_qualname], tb.tb_next
    return " ".join(names) + " " + str(error)


def _run_plan(answer, accountant, values, lower, upper, plan):
    given = list(plan)
    results = _call("04.4", answer, accountant, values, lower, upper, given)
    if given != list(plan):
        raise CheckFailed("your function changed the plan it was given (property: input left unchanged): the "
                          "analyst's plan must stay as it was; read it, or work on a copy.")
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


def _budgets(plan):
    """The budgets a plan runs on, in turn: exactly enough, then as much again on top (a correct answer never
    looks at what is left over; an answer that spends the leftover on its queries varies less on the second)."""
    total = _exactly_enough(plan)
    return total, total + _fsum(e for _, e in plan)


def _plan_runner(values, lower, upper, plan):
    """One run of the plan on a fresh accountant (a plain callable): odd and even runs alternate the two
    ``_budgets``."""
    budgets, runs = _budgets(plan), [0]

    def run(answer):
        runs[0] += 1
        return answer(PrivacyAccountant(budgets[runs[0] % 2]), values, lower, upper, list(plan))
    return run


def _plan_runs(answer, case, seed: int, count: int):
    """(values, lower, upper, plan, answers as a runs x queries array) of ``count`` runs of the plan
    ``case(seed)``, each on a fresh accountant with exactly enough budget; the case is drawn again after the
    runs, so an answer changing its inputs changes nothing the check uses."""
    values, lower, upper, plan = case(seed)
    runs = _core.student_call("04.4", _THIS, call_repeatedly, _plan_runner(values.copy(), lower, upper, plan),
                               count, answer)
    values, lower, upper, plan = case(seed)
    for results in runs:
        if not _isinstance(results, (list, tuple)) or _len(results) != _len(plan):
            raise CheckFailed(f"it should return a list with one answer per query of the plan ({_len(plan)}).")
    if _len({_id(results) for results in runs}) < _len(runs):
        raise CheckFailed("two calls returned the same list object, so a later call changed the answers an earlier "
                          "call had returned (property: every call its own result): build a new list in every call.")
    return values, lower, upper, plan, _array([[expect_number(r, "a noisy answer") for r in results] for results in runs])


@exercise("04.4", title="A plan of PyDP queries on one budget", answer_name="run_query_plan")
def check_run_query_plan(answer, seed: int = SEED) -> None:
    """A correct answer, for a plan from ``seed`` (6 to 10 counts, sums and means in random order, each kind at
    least twice, one query repeated with its epsilon, epsilons 0.05 to 0.5, a non-zero lower bound, values
    beyond the bounds): charges one ledger entry per query with its epsilon (in any order: the text does not ask
    for the plan's); leaves the values and the plan it is given unchanged; returns a new list on every call, one
    answer per query with PyDP's noise for its kind and epsilon (1,500 runs, alternately on exactly enough
    budget and on twice that, so an answer spending the leftover varies less on half of them: mean absolute
    deviation within [0.89, 1.12] of the Laplace scale for counts and sums, [0.87, 1.15] of BoundedMean's noise
    for means well inside the bounds; Laplace tails (the largest answer, and the pooled share beyond 3 scales);
    no exact or repeated answers; any two queries' noise uncorrelated, |r| <= 5.5 / sqrt(1500); across calls,
    no column's noise correlated at lags 1 to 20 or 750 (a call mirroring or reusing the noise of a call 1 to
    20 before fails), and no sum or mean's releases whose noise is below a tenth of the bounds in pairs
    averaging to the truth (mirrored at any lag fails); counts mirrored or reused at random lags, or at fixed
    lags above 20 other than 750, pass); pooled over
    counts and sums, no fewer answers beyond 6 Laplace scales than a Poisson of 0.9 times the expectation
    (about 15 for 4 x 1,500 answers) gives with probability 1e-4 (0 or 1 fail: noise truncated, or re-asked, at
    6 scales fails surely; at c scales with probability about P(Poisson(15 (1 - e^(6 - c))) <= 1), 0.25 at
    c = 6.2, 0.02 at c = 6.5). On a second plan from ``seed`` (15 runs; 10,000 to 100,000 values strictly
    inside the bounds, 12 to 14 queries, each kind at least 4 times, counts at epsilon 0.2 to 0.7, sums and
    means at 0.5 to 5, one at 3 to 5, one at 0.01 to 0.05, one at 5 to 20): no query's answer is constant and
    sums and means are not near-exact (an answer exact above 1,000 values, above epsilon 0.5 or from the 10th
    query on fails), every query's answers are centred on the truth over all values (10 sd of the mean of 15
    runs: an answer reading only the first 10,000 values fails), and the sums' and the means' mean |noise| is
    at least 0.45 of PyDP's with the declared bounds (bounds narrowed to the data's min and max give at most
    0.25; a correct answer fails with probability below 2e-7). A band sweep (``_check_band``: 240 plans of 1
    to 4 queries, 1 to 120,000 values, epsilons 1e-2 to 20, one call each) finds no exact sum or mean, no more
    near-exact ones or exact counts than PyDP's noise gives with probability 1e-7, and checks the ledger and
    the inputs of every call (an answer exact below 200 values, for means at 2,000 to 5,000 values, or for a
    one-query plan fails); 150 runs of 8 counts at epsilons 1 to 8 (``_check_high_epsilon_counts``), on 3 to
    60 values and again on 1,000 to 20,000, find no epsilons whose counts are all exact more often than 1e-9
    allows (counts exact above epsilon 4 or less fail; so do counts exact above 1,000 values). It
    refuses a plan that does not fit with BudgetExceededError, spending nothing (the plan overspends what is
    left by 1e-12 of it, so a budget test with a tolerance of 1e-9 or math.isclose fails); accepts a plan that
    fits by exact addition but not by float sum; returns [] for an empty plan. Limits: the statistical tests of scale,
    shape and independence run on the first plan only (n from 200 to 1,000, epsilons 0.05 to 0.5): an answer with noise
    of a wrong size or shape only on large plans or epsilons (epsilon multiplied by log10(n) / 3 above 1,000 values
    passes: the large plan tests only a floor of 0.45 of the noise), exact only for counts at epsilon above about 4.3
    (PyDP's counts are exact there 88% of the time or more), or a mean with its own noise of the right size, passes;
    sums or means exact in a band holding a share f of the sweep's plans are met with probability 1 - (1 - f)^240 (0.99
    at f = 0.02, 0.91 at 0.01); counts are tested for exactness only in three (size, epsilon) regions: 3-60 and
    1,000-20,000 values at epsilons of about 1.1 to 4.3 (the windowed all-exact runs), and 200-1,000 values at 0.05 to
    0.5 (the first plan); counts exact only outside them pass unless the band sweep holds about 35 more exact counts
    than PyDP gives (its threshold: 103 to 109 of 188 to 207 counts, about 75 expected, seeds 404 and 1-3), e.g. counts
    exact at 200-1,000 values for epsilon 0.6 or more, or count noise skipped when below 1e-5 of the count (n * epsilon
    > 1e5). Also passing (referee s35rca, outside the tested ranges): sums or means exact from the 15th query on (plans
    hold at most 14), above epsilon 20, for a pandas Series or tuple of values, or for NumPy scalar bounds.

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
    given = values.copy()
    answers = _run_plan(answer, accountant, given, lower, upper, plan)
    values, lower, upper, plan = _plan_case(seed)
    _check_ledger(accountant, plan, "")
    _check_values_unchanged(given, values, "")
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
    values, lower, upper, plan, runs = _plan_runs(answer, _plan_case, seed, PLAN_RUNS)
    beyond, expected = 0, 0.0  # answers of counts and sums more than 3 Laplace scales out: observed, expected
    far, expected_far = 0, 0.0  # ... and more than 5 scales out
    far6, expected_far6 = 0, 0.0  # ... and more than 6
    _check_every_query_noised(runs, plan, "")
    # Across calls (the runs in call order), every column, counts too: lags 1-20 and 750 at POOLED_Z (5.5 standard
    # errors: about 4e-8 each, 8.4e-6 for a plan of 10). A call negating or reusing the noise of the call d <= 20
    # before (every other call or block of d calls) gives about 10 standard errors at lag d.
    for position, (kind, _) in enumerate(plan):
        column = runs[:, position]
        _sweeps.check_independent_calls([column - _mean(column)], f"The {kind} (query {position}) over {PLAN_RUNS} calls:",
                                        lags=tuple(range(1, 21)), unit="call")
    for position, (kind, epsilon) in enumerate(plan):
        column = runs[:, position]
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
            _stats.check_no_mirrors(inside, clamped_mean, sd / _sqrt(2), f"The mean (query {position}):")
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
        if kind == "sum":  # a count's integer noise mirrors itself often: the lag test above covers counts
            _stats.check_no_mirrors(column, truth, scale, f"The sum (query {position}):")
        beyond += int((_abs(column - truth) > 3 * scale).sum())
        # PyDP rounds a count's noise to an integer: |noise| > 3b then needs |Laplace| >= floor(3b) + 0.5.
        expected += PLAN_RUNS * (_exp(-(math.floor(3 * scale) + 0.5) / scale) if kind == "count" else _exp(-3.0))
        far += int((_abs(column - truth) > 5 * scale).sum())
        far6 += int((_abs(column - truth) > 6 * scale).sum())
        expected_far6 += PLAN_RUNS * (_exp(-(math.floor(6 * scale) + 0.5) / scale) if kind == "count" else _exp(-6.0))
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
    # Beyond 6 scales, pooled over the counts and sums: about 15 expected over 4 x 1,500 answers; noise truncated,
    # or answers asked again while more than 6 scales out, put none there. Fewer than a Poisson of 90% of the
    # expectation (PyDP's Laplace and rounded counts are exact) gives with probability 1e-4 fail (0 or 1 of 15).
    if _float(_poisson_cdf(far6, 0.9 * expected_far6)) < 1e-4:
        raise CheckFailed(f"the counts and sums put {far6} answers more than 6 Laplace scales from the truth, where "
                          f"PyDP's noise puts about {expected_far6:.0f} (property: tails): the noise is cut off (truncated, "
                          "or an answer asked again until it looks plausible, which also spends more than charged).")
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
    _check_large_plan(answer, seed)
    _check_band(answer, seed)
    _check_high_epsilon_counts(answer, seed)
    _check_high_epsilon_counts(answer, seed, _large_count_case)
    # All or nothing: a plan that does not fit must spend nothing. It overspends what is left (0.5) by 1e-12 of
    # it: a budget test with a tolerance (a float sum compared with remaining + 1e-9, math.isclose) lets it run,
    # and the ledger then refuses its last query after the first two were spent.
    accountant = PrivacyAccountant(1.0)
    accountant.spend(0.5, label="earlier analysis")
    try:
        _call("04.4", answer, accountant, values.copy(), lower, upper,
              [("count", 0.2), ("mean", 0.1 + 0.5e-12), ("sum", 0.2)])
    except BudgetExceededError:
        pass
    except TypeError as error:
        if "BudgetExceededError" in _repr_traceback(error):
            raise CheckFailed("raising BudgetExceededError failed with a TypeError: its constructor takes what was "
                              "asked and what is left, e.g. BudgetExceededError(requested_epsilon, 0.0, "
                              "accountant.remaining_epsilon, accountant.remaining_delta, label=\"query plan\").") from None
        raise
    else:
        raise CheckFailed("a plan needing epsilon 0.5000000000005 ran with only 0.5 left: raise BudgetExceededError "
                          "instead (the budget is a hard limit: no tolerance).")
    if _len(accountant.ledger) != 1:
        raise CheckFailed("a plan that does not fit the budget (by 5e-13) spent part of it before failing (property: "
                          "all or nothing): check the whole plan's cost first, exactly and without a tolerance "
                          "(accountant.can_spend_all), and run nothing if it does not fit.")
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


def _check_ledger(accountant, plan, where: str) -> None:
    """Fail unless the ledger holds one entry per query of ``plan``, each with that query's epsilon (in any
    order: the text asks for one entry per query, not for the plan's order)."""
    charged = [entry.epsilon for entry in accountant.ledger]
    if not charged:
        raise CheckFailed(f"{where}the accountant was not charged: every query must be paid for from its budget.")
    wanted = [e for _, e in plan]
    if _len(charged) != _len(wanted) or any(not _isclose(a, b) for a, b in zip(_sorted(charged), _sorted(wanted))):
        raise CheckFailed(f"{where}the ledger should hold one entry per query with that query's epsilon "
                          f"({_len(wanted)} entries; it holds {_len(charged)}; property: one charge per query).")


def _check_values_unchanged(given, values, where: str) -> None:
    """Fail if the answer changed the array of values it was given."""
    if not _array_equal(given, values):
        raise CheckFailed(f"{where}your function changed the array of values it was given (property: input left "
                          "unchanged): the analyst's data must stay as it was; let PyDP clamp, or clamp a copy.")


def _check_every_query_noised(runs, plan, where: str) -> None:
    """Fail if a query's answers (a column of ``runs``) never change; ``where`` starts the hint."""
    for position, (kind, _) in enumerate(plan):
        column = runs[:, position]
        if column.max() == column.min():
            raise CheckFailed(f"{where}the {kind} (query {position} of the plan) never changes: it is released "
                              "without noise (property: every answer noised, whatever the size, epsilon or "
                              "position), so nothing is private. Let PyDP answer every query.")


def _check_large_plan(answer, seed: int) -> None:
    """15 runs of the second plan (``_large_plan_case``): every answer noised (no column constant: a correct
    count column is, with probability below 0.3^15 = 1.4e-8; sums and means not within 1e-3 scales of the truth
    more often than Binomial(answers, 2e-3) gives with probability 1e-7), and the noise of the declared bounds:
    mean |noise| / scale, pooled over the sums and over the means, at least 0.45 (bounds from the data's min and
    max give at most 0.25)."""
    values, lower, upper, plan, runs = _plan_runs(answer, _large_plan_case, seed, LARGE_PLAN_RUNS)
    where = f"With {_len(values)} values and a plan of {_len(plan)} queries (epsilons up to {max(e for _, e in plan):.3g})"
    truth = {"count": _float(_len(values)), "sum": _fsum(values), "mean": _float(_mean(values))}
    z = {"sum": [], "mean": []}
    _check_every_query_noised(runs, plan, where + ", ")
    for position, (kind, epsilon) in enumerate(plan):
        column = runs[:, position]
        if kind == "count":
            scale = 1 / epsilon
        elif kind == "sum":
            scale = max(_abs(lower), _abs(upper)) / epsilon
        else:
            scale = _noise_std(lower, upper, epsilon, _len(values), mean=truth["mean"]) / _sqrt(2)
        # The mean of the runs has sd sqrt(2) scale / sqrt(runs); 10 of them is beyond any Laplace-like sum
        # of 15 draws (below 1e-9): an answer run on part of the values (the first 10,000) fails.
        if _abs(_float(_mean(column)) - truth[kind]) > 10 * _sqrt(2) * scale / _sqrt(_len(column)):
            raise CheckFailed(f"{where}, the {kind} (query {position}) is not centred on the {kind} of all the "
                              "values (property: centre): run every query on every value you were given.")
        if kind == "count":  # PyDP rounds a count's noise to an integer: exact counts are common
            continue
        z[kind].extend(((column - truth[kind]) / scale).tolist())
    near = sum(int((_abs(_array(zs)) <= 1e-3).sum()) for zs in z.values())
    answers = sum(_len(zs) for zs in z.values())
    if near and _float(_binom_sf(near - 1, answers, 2e-3)) < 1e-7:
        raise CheckFailed(f"{where}, {near} of {answers} sums and means are the exact answer or within a hair of it "
                          "(property: every answer noised): let PyDP answer every query.")
    # mean |z| of N >= 60 Laplace draws (4 columns x 15 runs) is Gamma(N, N): below 0.45 with probability 3e-8
    # (below 0.45 / 0.96 for means, whose model errs by up to 4%: 2e-7); the data's bounds give at most 0.25,
    # which reaches 0.45 with probability below 1e-12.
    for kind, zs in z.items():
        deviation = _float(_mean(_abs(_array(zs))))
        if deviation < 0.45:
            raise CheckFailed(f"{where}, the {kind}s vary far less than PyDP's noise with the bounds you were given "
                              f"({deviation:.2f} of it; property: data-independent noise): the bounds must be the "
                              "ones declared, never the data's own minimum and maximum.")
