"""Check of lesson 04's exercise 04.3 (the clamping bound with the smallest expected error); 04.1 and 04.2 are
in ``lesson04``, 04.4 in ``lesson04_plans``.

The answer is a plain function, so the check is a differential test: on cases it generates from ``seed``
(widely spread and dense candidates, and the edge cases the text allows) the answer must return the
candidate the course's reference (``pydp_error.bounded_mean_rmse``, computed after the answer returns)
finds best.
"""

from __future__ import annotations

import functools
import math
import sys

import numpy as np

from mic_dp_helpers.scale import pydp_error
from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_abs = np.abs
_max = np.max
_array_equal = np.array_equal
_isclose = math.isclose
_sqrt = math.sqrt
_exp = math.exp
_log = math.log
_float = float
_len = len
_rmse = pydp_error.bounded_mean_rmse
SEED = 404

_core.FORBIDDEN["04.3"] = ("mic_dp_helpers.scale.pydp_error:bounded_mean_rmse",)


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args)


def _log_uniform(rng, low, high) -> float:
    return _float(_exp(rng.uniform(_log(low), _log(high))))


# ------------------------------------------------------------------------------- 04.3
def _bound_cases(seed: int):
    """Fresh copies of the cases of ``seed``: 12 with a few candidates spread widely, then 4 dense ones."""
    return [(values.copy(), lower, list(candidates), epsilon) for values, lower, candidates, epsilon in _bound_bank(seed)]


@functools.lru_cache(maxsize=4)
def _bound_bank(seed: int):
    return tuple(_spread_bound_cases(seed) + _dense_bound_cases(seed) + _edge_bound_cases(seed))


def _edge_bound_cases(seed: int):
    """The edge cases the text allows: integer values (int64 and int32) with candidates between them, the
    data's maximum itself a candidate (the bias vanishes there), integer candidates, float32 values (a unique
    best by a relative 1e-3, so float32 rounding cannot decide) and 200,000 values."""
    rng = _default_rng([seed, 44])
    cases = []
    for kind in range(5):
        while True:
            n = 200_000 if kind == 4 else int(rng.integers(20, 3000))
            lower = 0 if kind < 2 else _float(rng.choice([0.0, rng.uniform(-30, 30)]))
            values = np.round(rng.lognormal(rng.uniform(1, 4), rng.uniform(0.3, 1.2), n), 2)
            if kind < 2:
                values = np.round(values).astype([np.int64, np.int32][kind])
                candidates = [_float(c) + 0.5 for c in rng.choice(np.unique(values), size=4)]
                candidates += [int(values.max()), int(values.max()) + int(rng.integers(1, 20))]
            else:
                values = lower + (values.astype(np.float32) if kind == 3 else values)
                top = _float(values.max())
                candidates = [top, top * 1.5 + 1] + [_float(lower + c) for c in np.unique(np.round(
                    np.exp(rng.uniform(0, _log(_max([top - lower, 2.0])), int(rng.integers(2, 7)))), 3))]
            candidates = [candidates[i] for i in rng.permutation(_len(candidates))]
            if _len(set(candidates)) < _len(candidates):
                continue
            epsilon = _log_uniform(rng, 0.01, 20)
            errors = sorted(_rmse(values, lower, c, epsilon, include_count_noise=False) for c in candidates)
            if errors[1] - errors[0] > (1e-3 if kind == 3 else 1e-6) * errors[1]:
                cases.append((rng.permutation(values), lower, candidates, epsilon))
                break
    return cases


def _dense_bound_cases(seed: int):
    """Cases with 30 to 60 candidates packed between the data's median and 1.5 times its maximum, and an
    epsilon that puts the best one strictly inside: any other weighting of bias and noise (a sum instead of
    the root of the sum of squares, a noise without its sqrt(2), a variance for a standard deviation)
    moves the optimum to another candidate."""
    rng = _default_rng([seed, 43])
    cases = []
    while _len(cases) < 4:
        n = int(rng.integers(200, 4000))
        lower = _float(rng.choice([0.0, rng.uniform(-30, 30)]))
        values = lower + np.round(rng.lognormal(rng.uniform(1, 4), rng.uniform(0.5, 1.2), n), 2)
        spread = values - lower
        grid = np.linspace(float(np.median(spread)), 1.5 * float(spread.max()), int(rng.integers(30, 61)))
        candidates = [_float(lower + c) for c in rng.permutation(np.unique(np.round(grid, 3)))]
        epsilon = _log_uniform(rng, 0.01, 20)
        errors = {c: _rmse(values, lower, c, epsilon, include_count_noise=False) for c in candidates}
        ranked = sorted(errors.values())
        best = min(candidates, key=errors.get)
        if ranked[1] - ranked[0] > 1e-6 * ranked[1] and min(candidates) < best < max(candidates):
            cases.append((rng.permutation(values), lower, candidates, epsilon))
    return cases


def _spread_bound_cases(seed: int):
    rng = _default_rng(seed)
    cases = []
    while _len(cases) < 12:
        n = int(rng.integers(1, int(rng.choice([50, 500, 4000])))) if _len(cases) else 1  # one single-value case
        lower = _float(rng.choice([0.0, rng.uniform(-30, 30)]))
        values = lower + np.round(rng.lognormal(rng.uniform(1, 4), rng.uniform(0.3, 1.2), n), 2)
        if rng.random() < 0.3:
            values = np.concatenate([values, lower - rng.uniform(0, 5, max(1, n // 20))])  # some below lower
        candidates = [_float(lower + c) for c in rng.permutation(np.unique(np.round(
            np.exp(rng.uniform(0, 7, int(rng.integers(2, 9)))), 3)))]
        epsilon = _log_uniform(rng, 0.01, 20)
        errors = sorted(_rmse(values, lower, c, epsilon, include_count_noise=False) for c in candidates)
        if _len(candidates) >= 2 and errors[1] - errors[0] > 1e-6 * errors[1]:  # a unique best
            cases.append((rng.permutation(values), lower, candidates, epsilon))
    return cases


def _best_under_other_formula(got, errors, lower, epsilon, n) -> bool:
    """Whether ``got`` is the best of all candidates under a common wrong error formula (noise SD without
    sqrt(2), the variance 2 b^2 as the SD, bias + SD, max of the two): then the prefix hint would mislead."""
    sds = {c: _sqrt(2) * (c - lower) / (epsilon * n) for c in errors}
    biases = {c: _sqrt(_max([errors[c] ** 2 - sds[c] ** 2, 0.0])) for c in errors}
    formulas = (lambda b, sd: math.hypot(b, sd / _sqrt(2)), lambda b, sd: math.hypot(b, sd * sd),
                lambda b, sd: b + sd, lambda b, sd: _max([b, sd]))
    return any(_isclose(got, min(errors, key=lambda c: f(biases[c], sds[c]))) for f in formulas)


@exercise("04.3", title="The clamping bound with the smallest expected error", answer_name="best_upper_bound")
def check_best_upper_bound(answer, seed: int = SEED) -> None:
    """A correct answer returns the candidate with the smallest sqrt(bias^2 + noise_sd^2), bias being the
    clamping bias on [lower, upper] and noise_sd = sqrt(2) (upper - lower) / (epsilon n), without changing
    ``values``, for 12 cases from ``seed``: 1 to 4,000 values, zero or non-zero lower bounds (with values
    below it sometimes), 2 to 8 unsorted candidates, epsilons 0.01 to 20 with many digits; 4 dense cases
    (30 to 60 candidates); and the edge cases: int64 and int32 values with candidates between them, the
    data's maximum as a candidate, integer candidates, float32 values, 200,000 values. Each case's best
    candidate is unique by a relative 1e-6 (1e-3 for float32 values).

    Parameters
    ----------
    answer : callable
        The student's ``best_upper_bound`` (exercise 04.3).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(_len(_bound_bank(seed))):
        values, lower, candidates, epsilon = _bound_cases(seed)[index]
        given = values.copy()
        got = expect_number(_call("04.3", answer, given, lower, list(candidates), epsilon), "one of the candidate bounds")
        values, lower, candidates, epsilon = _bound_cases(seed)[index]
        if not _array_equal(given, values):
            raise CheckFailed("your function changed the values it was given.")
        if not any(_isclose(got, c) for c in candidates):
            raise CheckFailed("it returned a number that is not one of the candidates; pick the best candidate.")
        errors = {c: _rmse(values, lower, c, epsilon, include_count_noise=False) for c in candidates}
        best = min(errors.values())
        if errors[min(candidates, key=lambda c: _abs(c - got))] > best * (1 + 1e-9):
            if _isclose(got, max(candidates)):
                raise CheckFailed("you chose the largest bound: it has no clamping bias, but a wide interval means "
                                  "more noise. Add the noise's share of the error.")
            if _isclose(got, min(candidates)):
                raise CheckFailed("you chose the smallest bound: little noise, but it clamps many values. Add the "
                                  "clamping bias's share of the error.")
            prefix_best = [min(candidates[:j], key=lambda c: errors[c]) for j in range(2, _len(candidates))]
            if any(_isclose(got, c) for c in prefix_best) and not _best_under_other_formula(got, errors, lower,
                                                                                           epsilon, values.size):
                raise CheckFailed("you returned the best of the first few candidates only (property: order): the "
                                  "candidates are not sorted, so compare every one of them.")
            raise CheckFailed(f"with epsilon={epsilon:.6g} and {values.size} values another candidate has a smaller "
                              "expected error. Combine the clamping bias and the noise's standard deviation "
                              "(which depends on epsilon, the width of the bounds and n) as a root-mean-square.")
