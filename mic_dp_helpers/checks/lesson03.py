"""Checks for lesson 03 (privacy budget). Each calls the student's function on inputs it generates.

Inputs are drawn from a generator seeded with ``seed`` (fixed by default): query plans of random
length with unsorted and repeated epsilons of many digits, steps whose most expensive part is in
any position, and empty plans; budgets met exactly, with slack and infeasible; true
counts, noise kinds and scales for the averaging attack; k, epsilons from 0.01 to 1000 and deltas
from 1e-12 to 1e-3 for 03.4. The only random check is 03.3 (the attack's estimate from noisy
answers): its tolerance is 7 standard errors or more, so a correct attack fails with probability
below 1e-10 per case. The student's function is called positionally under
:func:`~mic_dp_helpers.checks._core.student_call`; expected answers are computed after it returns.
"""

from __future__ import annotations

import copy
import functools
import math
import numbers
import sys

import numpy as np

from mic_dp_helpers.accounting.ledger import zcdp_rho_gaussian, zcdp_to_dp
from mic_dp_helpers.checks import _attack_orders, _core
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_fsum = math.fsum
_isclose = math.isclose
_sqrt = math.sqrt
_log = math.log
_abs = abs
_max = max
_len = len
_isinstance = isinstance
_any = any
_repr = repr
_deepcopy = copy.deepcopy
SEED = 303

# The course's own versions of what 03.2 and 03.4 ask for (03.4's "largest rho the budget allows" is
# marginals.zcdp_rho_for; a sigma for k Gaussian queries is marginals.marginal_sigma): they refuse to run
# while the student's function runs.
_core.FORBIDDEN["03.2"] = ("mic_dp_helpers.accounting.ledger:split_epsilon",)
_core.FORBIDDEN["03.4"] = ("mic_dp_helpers.synthetic.marginals:zcdp_rho_for", "mic_dp_helpers.synthetic.marginals:marginal_sigma")


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args)


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


def _short(plan) -> str:
    """The plan as text, cut to 300 characters (the edge plans hold 1,000 steps)."""
    text = _repr(plan)
    return text if _len(text) <= 300 else text[:300] + f"... ({_len(_flat(plan))} epsilons)"


def _flat(plan) -> list[float]:
    out = []
    for item in plan:
        out.extend(_flat(item) if isinstance(item, list) else [item])
    return out


def _epsilon(rng) -> float:
    """An epsilon with many digits, sometimes tiny or large, sometimes a repeat of a round value."""
    kind = rng.random()
    if kind < 0.15:
        return float(rng.choice([0.1, 0.25, 0.5, 1.0]))
    if kind < 0.25:
        return float(math.exp(rng.uniform(math.log(1e-4), math.log(1e-2))))
    if kind < 0.3:
        return float(rng.uniform(5, 50))
    return float(rng.uniform(0.01, 1.0))


def _random_plan(rng: np.random.Generator) -> list:
    plan = []
    for _ in range(rng.integers(0, 7)):
        if rng.random() < 0.35:
            plan.append(_epsilon(rng))
            if rng.random() < 0.2:
                plan.append(plan[-1])  # the same query twice
        else:
            parts = []
            for _ in range(rng.integers(1, 6)):
                if rng.random() < 0.5:
                    parts.append(_epsilon(rng))
                else:
                    parts.append([_epsilon(rng) for _ in range(rng.integers(1, 5))])
            order = rng.permutation(len(parts))  # the most expensive part anywhere, not sorted
            plan.append([parts[i] for i in order])
    return plan


def _plans(seed: int) -> list:
    """Fresh copies of the plans of ``seed``: the fixed plans, 40 random ones, then the edge plans."""
    return _deepcopy(list(_plan_bank(seed)))


def _plan(seed: int, index: int) -> list:
    """A fresh copy of plan ``index`` of ``seed`` (copying only that one: the edge plans are long)."""
    return _deepcopy(_plan_bank(seed)[index])


@functools.lru_cache(maxsize=4)
def _plan_bank(seed: int) -> tuple:
    rng = _default_rng(seed)
    return tuple([_deepcopy(p) for p in FIXED_PLANS] + [_random_plan(rng) for _ in range(40)]
                 + _edge_plans(_default_rng([seed, 31])))


def _edge_plans(rng) -> list:
    """The edge cases the text allows: epsilons as Python ints, NumPy int64 and float32 (dyadic, so a sum in
    float32 is exact), a step of one part and a part of one query, parts that tie for the most expensive,
    only parallel steps, and long plans (1,000 steps; a step of 500 parts; a part of 500 queries)."""
    whole = [float(v) for v in rng.uniform(0.01, 1, 1_000)]
    parts = [[float(v) for v in rng.uniform(0.01, 1, int(rng.integers(1, 4)))] if rng.random() < 0.5
             else float(rng.uniform(0.01, 1)) for _ in range(500)]
    return [
        [1, [2, 3], [[1, 1], 2]],                            # the text's example in integers: 1 + 3 + 2
        [int(rng.integers(1, 5)), [[int(rng.integers(1, 5)), 1], int(rng.integers(1, 9))], 2],
        [np.int64(2), [np.int64(1), [np.int64(1), np.int64(2)]]],
        [np.float32(0.25), [np.float32(0.5), [np.float32(0.125), np.float32(0.375)]], np.float32(0.75)],
        [[0.3]], [[[0.2]]], [[[0.1, 0.2], 0.3, [0.15, 0.15]]],  # one part; one query; three parts tied at 0.3
        [[0.2, [0.05, 0.1]], [[0.3, 0.3], 0.6, 0.1]],            # only parallel steps, ties again
        whole, [whole[:3], parts], [[whole[:500], 0.5]],
    ]


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
def check_total_epsilon(answer, seed: int = SEED) -> None:
    """A correct answer leaves the plan unchanged and returns its cost: numbers add up (sequential
    composition); a step of disjoint parts costs its most expensive part (parallel composition), and a
    part holding several queries costs their sum; an empty plan costs 0. Tested on fixed plans and 40
    plans from ``seed`` (some empty) with unsorted, repeated, tiny and large epsilons of many digits
    (compared to a relative 1e-9), and the edge plans: epsilons as Python ints, NumPy int64 and float32,
    one part, one query, parts tied for the most expensive, only parallel steps, 1,000 steps, 500 parts.

    Parameters
    ----------
    answer : callable
        The student's ``total_epsilon`` (exercise 03.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_plan_bank(seed))):
        given = _plan(seed, index)
        got = expect_number(_call("03.1", answer, given), "the total epsilon")
        plan = _plan(seed, index)
        if given != plan:
            raise CheckFailed("your function changed the query plan it was given; read it without modifying it.")
        expected = _plan_cost(plan)
        if _isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12):
            continue
        flat = _flat(plan)
        if not plan:
            raise CheckFailed("an empty plan asks nothing, so it spends nothing.")
        if all(not isinstance(step, list) for step in plan):
            raise CheckFailed(f"for the plan {_short(plan)}, every query runs on the whole data set: how do their "
                              "epsilons combine (sequential composition)?")
        if math.isclose(got, math.fsum(flat), rel_tol=1e-9):
            raise CheckFailed(f"for the plan {_short(plan)} you added up every epsilon. Queries on disjoint parts of the "
                              "data do not add up: one person is in only one part (parallel composition).")
        part_max = math.fsum(max(max(p) if isinstance(p, list) else p for p in s) if isinstance(s, list) else s
                             for s in plan)
        if math.isclose(got, part_max, rel_tol=1e-9):
            raise CheckFailed(f"for the plan {_short(plan)}: when a part holds several queries, they all run on the "
                              "same people, so within a part they add up.")
        max_first = _fsum(_max((_fsum(p) if _isinstance(p, list) else p) for p in s[:1]) if _isinstance(s, list)
                          else s for s in plan if not _isinstance(s, list) or s)
        if _isclose(got, max_first, rel_tol=1e-9):
            raise CheckFailed(f"for the plan {_short(plan)} you took the first part of a step, not its most expensive one "
                              "(property: order). The parts are not sorted.")
        if _any(not _isinstance(x, float) for x in flat):
            raise CheckFailed(f"for the plan {_short(plan)} your total is not right; its epsilons are not all Python "
                              "floats (ints, NumPy numbers): tell a step that is a list from one that is a number "
                              "by whether it is a list, and add numbers of any type.")
        raise CheckFailed(f"for the plan {_short(plan)} your total is not right. Go step by step: what does a step over "
                          "disjoint parts cost, and what does a part with several queries cost?")


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
    n = int(rng.integers(1, 8))
    sensitivities = [float(v) for v in rng.lognormal(0.0, 1.5, n)]
    max_errors = [float(v) for v in rng.lognormal(1.5, 1.0, n)]
    total = _fsum(_minimum_epsilons(sensitivities, max_errors)) * float(rng.uniform(1.0001, 3.0))
    return total, sensitivities, max_errors


def _random_exact(rng: np.random.Generator):
    """Exactly enough budget, in numbers whose sums are exact in floating point (no rounding at the boundary)."""
    n = int(rng.integers(2, 6))
    needs = [int(v) / 16 for v in rng.integers(1, 64, n)]
    max_errors = [2.0 ** int(e) for e in rng.integers(-3, 5, n)]
    return _fsum(needs), [a * b for a, b in zip(needs, max_errors)], max_errors


def _random_infeasible(rng: np.random.Generator):
    _, sensitivities, max_errors = _random_feasible(rng)
    need = _fsum(_minimum_epsilons(sensitivities, max_errors))
    return need / float(rng.uniform(1.001, 3.0)), sensitivities, max_errors


def _barely_infeasible(rng: np.random.Generator, low: float, high: float):
    """The minimum epsilons exceed the budget by a relative ``low`` to ``high``: a feasibility test with a
    loose tolerance (np.isclose's 1e-5, a percent of slack) lets it through."""
    _, sensitivities, max_errors = _random_feasible(rng)
    need = _fsum(_minimum_epsilons(sensitivities, max_errors))
    return need / (1 + float(rng.uniform(low, high))), sensitivities, max_errors


def _large_allocation(rng, slack: float):
    """1,000 queries, with a budget of ``slack`` times their minimum epsilons."""
    sensitivities = [float(v) for v in rng.lognormal(0.0, 1.5, 1_000)]
    max_errors = [float(v) for v in rng.lognormal(1.5, 1.0, 1_000)]
    return _fsum(_minimum_epsilons(sensitivities, max_errors)) * slack, sensitivities, max_errors


def _integer_allocation(rng):
    """Four queries in integers, with an integer total above their minimum epsilons."""
    sensitivities, max_errors = [int(v) for v in rng.integers(1, 9, 4)], [int(v) for v in rng.integers(4, 40, 4)]
    return int(math.ceil(_fsum(_minimum_epsilons(sensitivities, max_errors)))) + 1, sensitivities, max_errors


def _edge_allocations(rng) -> list:
    """Feasible edge cases the text allows: its own example in integers (and an integer total), one query with
    slack, equal queries (ties), tiny and huge sensitivities and errors (1e-8, 1e8), a budget exactly enough
    in integers, and 1,000 queries."""
    return [
        (1.0, [1, 1, 1], [2, 5, 10]),
        _integer_allocation(rng),
        (2, [2, 1], [2, 1]),                                                  # exactly enough, in integers
        (float(rng.uniform(1, 5)), [float(rng.uniform(0.5, 2))], [float(rng.uniform(5, 10))]),
        (1.5, [2.0] * 5, [10.0] * 5),
        (float(rng.uniform(3.5, 5)), [1e-8, 1e8, 1.0], [1e-8, 1e8, 1.0]),
        (float(rng.uniform(2e-6, 1e-5)), [1e-8, 3e-8], [1e-2, 1e-1]),
        _large_allocation(rng, float(rng.uniform(1.001, 2))),
    ]


def _allocation_cases(seed: int):
    rng = _default_rng(seed)
    feasible = list(FEASIBLE_CASES) + [_random_feasible(rng) for _ in range(16)] + [_random_exact(rng) for _ in range(4)]
    infeasible = list(INFEASIBLE_CASES) + [_random_infeasible(rng) for _ in range(4)]
    near = _default_rng([seed, 32])
    infeasible += [_barely_infeasible(near, 2e-6, 8e-6), _barely_infeasible(near, 1e-3, 2e-2),
                   _barely_infeasible(near, 1e-8, 2e-8)]
    edge = _default_rng([seed, 33])
    feasible += _edge_allocations(edge)
    infeasible += [(2, [1, 3], [1, 2]), _large_allocation(edge, 0.999)]  # integers needing 2.5; 1,000 queries
    return [(t, list(s), list(e)) for t, s, e in feasible], [(t, list(s), list(e)) for t, s, e in infeasible]


def _check_allocation(answer, index, seed) -> None:
    total, given_sens, given_err = _allocation_cases(seed)[0][index]
    try:
        got = _call("03.2", answer, total, given_sens, given_err)
    except ValueError:
        total, sensitivities, max_errors = _allocation_cases(seed)[0][index]
        raise CheckFailed(f"with total_epsilon={total!r}, sensitivities {_short(sensitivities)} and targets {_short(max_errors)} "
                          "every target can be met (the minimum epsilons add up to at most the total, perhaps "
                          "exactly), but you raised ValueError (property: refuse only what does not fit). Refuse "
                          "only when the minimum epsilons add up to more than the total; allow for float rounding "
                          "with a tiny relative tolerance such as 1e-12.") from None
    total, sensitivities, max_errors = _allocation_cases(seed)[0][index]
    if given_sens != sensitivities or given_err != max_errors:
        raise CheckFailed("your function changed the lists it was given; read them without modifying them.")
    if _isinstance(got, (str, bytes, numbers.Number)) or not hasattr(got, "__len__"):
        raise CheckFailed(f"return one epsilon per query (a list or array), not a {type(got).__name__}.")
    if _len(got) != _len(sensitivities):
        raise CheckFailed(f"there are {_len(sensitivities)} queries but you returned {_len(got)} epsilons.")
    epsilons = [expect_number(e, "each epsilon") for e in np.asarray(got, dtype=object).ravel()]
    if any(e <= 0 for e in epsilons):
        raise CheckFailed("every epsilon must be positive: a query with epsilon 0 cannot be answered.")
    spent = _fsum(epsilons)
    if not _isclose(spent, total, rel_tol=1e-9):
        how = "leave part of the budget unused" if spent < total else "spend more than the budget"
        raise CheckFailed(f"with total_epsilon={total!r} your epsilons add up to {spent!r} (relative difference "
                          f"{(spent - total) / total:+.2e}): you {how} (property: the whole budget). They must "
                          "add up to the total, to a relative 1e-9.")
    for i, (eps, sens, target) in enumerate(zip(epsilons, sensitivities, max_errors)):
        error = sens / eps
        if error > target * (1 + 1e-9):
            raise CheckFailed(f"query {i} (sensitivity {sens:.6g}, target error {target:.6g}) gets too little "
                              "epsilon: its Laplace noise has a mean absolute error above its target (property: "
                              "every target met). Give each query at least the epsilon its target needs.")


@exercise("03.2", title="Split a budget to meet accuracy targets", answer_name="allocate")
def check_allocate(answer, seed: int = SEED) -> None:
    """A correct answer leaves its inputs unchanged and, when the minimum epsilons s_i / e_i fit in the
    budget, returns one positive epsilon per query, each at least s_i / e_i, adding up to the total (to a
    relative 1e-9); otherwise it raises ValueError. Tested on the edge cases (the text's example in integers,
    an integer total, one query, equal queries, sensitivities and errors of 1e-8 and 1e8, 1,000 queries,
    exactly enough and not enough in integers), fixed cases, 16 random feasible cases
    (1 to 7 queries, many digits, slack from 0.01% to 200%), 4 with exactly enough budget (in
    numbers whose sums are exact, so no rounding decides) and 7 random infeasible ones, from ``seed``
    (short of the need by 0.1% to 200%, by 1e-3 to 2e-2, by a relative 2e-6 to 8e-6: a tolerance as
    loose as np.isclose's lets that one through, and by a relative 1e-8 to 2e-8: a tolerance of 1e-7
    does).

    Parameters
    ----------
    answer : callable
        The student's ``allocate`` (exercise 03.2).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    feasible, infeasible = _allocation_cases(seed)
    n_feasible, n_infeasible = _len(feasible), _len(infeasible)
    del feasible, infeasible
    for index in range(n_feasible):
        _check_allocation(answer, index, seed)
    for index in range(n_infeasible):
        total, sensitivities, max_errors = _allocation_cases(seed)[1][index]
        try:
            got = _call("03.2", answer, total, sensitivities, max_errors)
        except ValueError:
            continue
        except NotImplementedError:
            raise
        except CheckFailed:
            raise
        except Exception as error:  # noqa: BLE001 - any other error type is a wrong answer here
            raise CheckFailed(f"when the targets cannot all be met, raise a ValueError, not {type(error).__name__}.")
        raise CheckFailed(f"with total_epsilon={total:.6g}, sensitivities {_short(sensitivities)} and targets {_short(max_errors)} "
                          "the targets cannot all be met, but you returned an allocation (property: refuse what "
                          "does not fit). Raise a ValueError instead.")


# --------------------------------------------------------------------------- 03.3

# The attack's estimate must land within 0.5 of the true count (so that rounding gives it). Each
# case draws a true count (0 to 5,000, and small counts in SMALL_CASES), a noise kind (Laplace or Gaussian) and a
# noise standard deviation (0.5 to 6), and allows n_queries answers, chosen so that the mean of the answers has a
# standard deviation of at most 0.07: 0.5 is then at least 7 standard deviations, and a correct
# attack (mean or median) fails with probability below 1e-11 per case. The cases are in _attack_cases.
from mic_dp_helpers.checks._attack_cases import (ATTACK_TOLERANCE, LARGE_CASE, ORDER_CASE,  # noqa: E402
                                                 SMALL_CASES, attack_case as _attack_case)


def _noisy_query(seed: int, index: int, order: str | None = None):
    """A noisy count as a plain function, and the stream it reads from (to count the calls afterwards).

    The answers are drawn in advance (n_queries of them, and as many again to catch over-asking):
    the function holds only those answers, never the true count, so nothing it exposes (its
    closure included) tells more than asking it.
    """
    true_count, kind, sd, n_queries, noise_seed = _attack_case(seed, index)
    rng = _default_rng(noise_seed)
    size = 2 * n_queries + 1
    if kind == "laplace":
        noise = rng.laplace(0.0, sd / _sqrt(2), size)
    else:
        noise = rng.normal(0.0, sd, size)
    answers = (true_count + noise).tolist()
    if order is not None:  # the same allowed answers, reordered: an attack that averages them all cannot tell
        answers = _attack_orders.reordered(answers[:n_queries], order, rng) + answers[n_queries:]
    stream = iter(answers)

    def noisy_query():
        return next(stream)

    return noisy_query, stream, n_queries, size


@exercise("03.3", title="The averaging attack", answer_name="averaging_attack")
def check_averaging_attack(answer, seed: int = SEED) -> None:
    """A correct attack asks the noisy query exactly ``n_queries`` times and returns an estimate within
    0.5 of the true count (rounding recovers it), for 6 cases from ``seed``: true counts from 0 to 5,000,
    Laplace or Gaussian noise with SD from 0.5 to 6, and n_queries set so that the mean's SD is at most
    0.07 (a correct attack fails with probability below 1e-10 per check), and 4 cases of small counts
    (``_attack_cases.SMALL_COUNTS``): exactly 0 at SD 3-6, 1-3 and 4-20 at SD 4-6, and the exercise's example,
    16 with Laplace noise of SD 2 sqrt(2): answers clipped at 0 or at -1, rounded and clipped, or made positive
    (|answer|) are off by at least 1.06 at 0 and a geometric or harmonic mean by 0.5 to several units at 1-20
    (referee s37rA: these passed while the smallest count was 374). The true count is recomputed
    from the seed after the function returns; the query function holds only its pre-drawn answers. A
    seventh case (Laplace noise, SD 3) hands out the same answers in ascending, then in descending order:
    the two estimates must agree within 0.01 (an attack that uses only the first hundred answers, or
    the second half, moves by about a noise SD) and lie within 0.5 of the true count. An eighth case allows
    150,000 to 200,000 answers (an attack that caps its questions below 150,000 fails) and is handed out sorted
    too (an attack that asks every question but averages only a part, the first 10,000, fails). Both cases are
    also handed out sorted and started at the 30% quantile, and shuffled: the estimates of the four orders must
    agree within 0.01 (an attack averaging the first and the last answers, any number of them below half,
    moves by 0.36-0.52 noise SD under the rotation, both ends then lying near the 30% quantile; under the
    shuffle a fixed part of k answers moves by a normal of SD sd (1/k - 1/n)^0.5, 0.029 for k = 10,000 of
    150,000 answers of SD 3). Limit: a cap between 150,000 and 200,000 questions passes unless the seed's case
    lies above it; a part that is neither a prefix, a suffix nor both ends, with most of the answers, can pass; an
    estimator biased near 0 by less than 0.5 at the small cases' counts and SDs passes (answers clipped at -c pass
    at count 0 when (b / 2) e^(-c / b) < 0.5, b the Laplace scale, for example c above 2 at SD 3; each member of that
    class in tests/wrong_answers/lesson03_04_s37.py failed on all of seeds 0-299; a harmonic mean is heavy-tailed
    and fails each small case with probability about 0.6-0.95 only, so it can pass by chance).

    Parameters
    ----------
    answer : callable
        The student's ``averaging_attack`` (exercise 03.3).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in (*range(6), LARGE_CASE, *SMALL_CASES):
        noisy_query, stream, n_queries, size = _noisy_query(seed, index)
        estimate = expect_number(_call("03.3", answer, noisy_query, n_queries), "an estimate of the true answer")
        calls = size - sum(1 for _ in stream)
        del noisy_query, stream
        if calls == 0:
            raise CheckFailed("your function never asked the noisy query: call noisy_query() to get an answer.")
        if calls < n_queries:
            raise CheckFailed(f"you asked only {calls} of the {n_queries} questions you may ask; every extra "
                              "answer makes the estimate better.")
        if calls > n_queries:
            raise CheckFailed(f"you asked {calls} questions but only n_queries={n_queries} are allowed.")
        true_count = _attack_case(seed, index)[0]
        if _abs(estimate - true_count) > ATTACK_TOLERANCE and index in SMALL_CASES:
            raise CheckFailed(f"after {n_queries} answers your estimate is more than 0.5 away from the true count, "
                              "a small one here (0 to 20, like the exercise's 16), so rounding does not recover it "
                              "(property: accuracy, also near 0). Noisy answers below 0 are expected: clipping or "
                              "rounding each answer, or a geometric or harmonic mean, biases the estimate. Average "
                              "the raw answers.")
        if _abs(estimate - true_count) > ATTACK_TOLERANCE:
            raise CheckFailed(f"after {n_queries} answers your estimate is more than 0.5 away from the true count, "
                              "so rounding does not recover it (property: accuracy). Does your estimate use all the "
                              "answers you collected, and average them?")
    # The answers of one case, handed out in ascending and then in descending order: an estimate from all
    # of them (mean, median) does not depend on the order (up to float rounding, far below 0.01); one from
    # a part of them (the first hundred, the second half) moves by about a noise SD (3 here).
    for case in (ORDER_CASE, LARGE_CASE):
        estimates = []
        for order in _attack_orders.ORDERS:
            noisy_query, stream, n_queries, size = _noisy_query(seed, case, order)
            estimates.append(expect_number(_call("03.3", answer, noisy_query, n_queries),
                                           "an estimate of the true answer"))
            calls = size - sum(1 for _ in stream)
            if calls != n_queries:
                raise CheckFailed(f"you asked {calls} questions but n_queries={n_queries}: ask exactly n_queries.")
        if _abs(estimates[0] - estimates[1]) > 0.01:
            raise CheckFailed(f"given the same {n_queries} answers in ascending and then in descending order your "
                              f"estimates differ ({estimates[0]:.6g} and {estimates[1]:.6g}; property: uses every "
                              "answer): your estimate uses only part of the answers. Average all of them.")
        spread = max(estimates) - min(estimates)
        if spread > 0.01:
            raise CheckFailed(f"given the same {n_queries} answers in four orders (sorted both ways, sorted and "
                              "started at the 30% quantile, shuffled) your estimates differ by "
                              f"{spread:.3g} (property: uses every answer): your estimate uses only part of the "
                              "answers (for example the first and the last ones). Average all of them.")
        if _abs(estimates[0] - _attack_case(seed, case)[0]) > ATTACK_TOLERANCE:
            raise CheckFailed(f"after {n_queries} answers your estimate is more than 0.5 away from the true count, "
                              "so rounding does not recover it (property: accuracy).")


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


def _sigma_cases(seed: int):
    rng = _default_rng(seed)
    cases = list(SIGMA_CASES)
    for _ in range(14):
        k = int(rng.choice([1, 2, int(rng.integers(3, 200)), int(rng.integers(200, 100_000))]))
        epsilon = float(math.exp(rng.uniform(math.log(0.01), math.log(1000.0))))
        delta = float(math.exp(rng.uniform(math.log(1e-12), math.log(1e-3))))
        sensitivity = float(math.exp(rng.uniform(math.log(1e-3), math.log(1e3))))
        cases.append((k, epsilon, delta, sensitivity))
    edge = _default_rng([seed, 34])
    return cases + [  # the edges: Python int and NumPy int64 inputs, k = 1e6 and 1e7, epsilon and delta at the ends
        (1, 1, 1e-5, 1), (np.int64(edge.integers(2, 1_000)), 2, 1e-6, np.int64(edge.integers(1, 9))),
        (10**6, float(edge.uniform(1, 10)), 1e-9, 1.0), (10**7, 1000.0, 1e-12, float(edge.uniform(0.1, 10))),
        (int(edge.integers(2, 50)), 0.01, 1e-3, 1e-3), (int(edge.integers(2, 50)), 1000.0, 1e-3, 1e3),
    ]


@exercise("03.4", title="Gaussian noise for k queries under zCDP", answer_name="sigma_for_k_queries")
def check_sigma_for_k_queries(answer, seed: int = SEED) -> None:
    """A correct answer returns the smallest sigma whose k Gaussian queries, composed under zCDP and
    converted to (epsilon, delta)-DP, stay within the budget: the total it implies is at most
    total_epsilon and sigma is not larger than needed (both to a relative 1e-6), for fixed cases and 14
    from ``seed``: k = 1, 2, up to 100,000; epsilon 0.01 to 1000; delta 1e-12 to 1e-3; sensitivity 1e-3 to 1e3;
    and the edges: Python int and NumPy int64 inputs, k of 1e6 and 1e7, epsilon and delta at both ends.

    Parameters
    ----------
    answer : callable
        The student's ``sigma_for_k_queries`` (exercise 03.4).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(len(_sigma_cases(seed))):
        k, total_epsilon, delta, sensitivity = _sigma_cases(seed)[index]
        sigma = expect_number(_call("03.4", answer, k, total_epsilon, delta, sensitivity), "a noise standard deviation")
        k, total_epsilon, delta, sensitivity = _sigma_cases(seed)[index]
        where = f"for k={k}, total_epsilon={total_epsilon:.6g}, delta={delta:.3g}, sensitivity={sensitivity:.6g}"
        if sigma <= 0:
            raise CheckFailed(f"{where} you returned a sigma <= 0; a standard deviation is positive.")
        rho = k * zcdp_rho_gaussian(sensitivity, sigma)
        spent = zcdp_to_dp(rho, delta) if rho > 0 else 0.0  # a sigma near 1e300 makes rho underflow to 0
        if spent > total_epsilon * (1 + SIGMA_RTOL):
            raise CheckFailed(f"{where}: with your sigma, zCDP accounting gives the k queries a total epsilon "
                              f"above the budget by a relative {spent / total_epsilon - 1:.2e} under the conversion the exercise asks "
                              "for, rho + 2 sqrt(rho log(1/delta)) (Bun and Steinke, 2016) (property: within budget). "
                              "A tighter conversion (e.g. Canonne, Kamath and Steinke, 2020) may make it valid, but "
                              "this exercise uses that one; did you account for all k queries and for the sensitivity?")
        if sigma > _reference_sigma(k, total_epsilon, delta, sensitivity) * (1 + SIGMA_RTOL):
            raise CheckFailed(f"{where}: your sigma keeps the total within the budget but is larger than needed "
                              f"(zCDP accounting puts the total below the budget by a relative {1 - spent / total_epsilon:.2e}; "
                              "property: smallest). Find the largest rho the budget allows, then share it among "
                              "the k queries.")
