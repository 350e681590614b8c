"""Checks for lesson 04 (PyDP). Each calls the student's function on inputs it generates itself.

Inputs are drawn from a generator seeded with ``seed`` (fixed by default): bounds with a non-zero
or negative lower bound, data spilling over the bounds on both sides or lying well inside them,
epsilons with many digits, tables whose person column is not the first, shuffled non-default
indexes, people with exactly k rows, plans of queries in random order with repeats.

PyDP's noise cannot be seeded, so the checks of its answers (04.1, 04.4) are statistical: a few
hundred runs and tolerances of at least 5 standard errors (stated at each test). The tests look at
the distribution, not just the spread: no answer may come out without noise, the noise must
reach the tails a Laplace-like law of that size reaches (the largest answer of each case, the share beyond 5
scales and the largest of all beyond about 6 scales), no call's noise may predict another's up to 20 calls
apart, and its scale must follow the *declared* bounds whatever the data (the data are varied with the
bounds fixed). Cases with few runs at 2,000-9,000 and 150,000-250,000 values, at epsilon 200-1,000, and on a
grid of epsilon below 0.3 and above 5 test that no answer comes out without noise there. 04.2's uniformity test is also
statistical. A correct answer fails each check in under 1 of 1,000 runs (tests/test_check_false_rejection.py).
04.3's check is in ``lesson04_bounds``, 04.4's in ``lesson04_plans``.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd
import scipy.stats

from mic_dp_helpers.scale import pydp_error, pydp_tools
from mic_dp_helpers.checks import (_choice_subsets, _core, _mean_spread, _pydp_reference, _stats, _sweeps,
                                   _uniform_choice)
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise, expect_number

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_asarray = np.asarray
_clip = np.clip
_mean = np.mean
_abs = np.abs
_max = np.max
_array_equal = np.array_equal
_isclose = math.isclose
_sqrt = math.sqrt
_exp = math.exp
_log = math.log
_float = float
_len = len
_isinstance = isinstance
_noise_std = pydp_error.bounded_mean_noise_std
_rmse = pydp_error.bounded_mean_rmse
_binom_sf = scipy.stats.binom.sf
_poisson_cdf = scipy.stats.poisson.cdf
SEED = 404

_core.FORBIDDEN["04.2"] = ("mic_dp_helpers.scale.pydp_tools:limit_contributions",)


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args)


def _many(exercise_id, answer, n, *args):
    return _core.student_call(exercise_id, _THIS, call_repeatedly, answer, n, *args)


# ------------------------------------------------------------------------------- 04.1
from mic_dp_helpers.checks import _choice_pairs, _mean_few_values
from mic_dp_helpers.checks._mean_few_values import few_value_cases
from mic_dp_helpers.checks._mean_cases import (EXACTNESS_KINDS, LARGE_KINDS, LOW_HIGH_EPSILON, MEAN_RUNS,
                                              MEAN_RUNS_BY_KIND, SMALL_SIZES, SPREAD_FLOORS, _log_uniform, _mean_bank,
                                              _mean_case, _mean_cases)

#: Lags of the pooled independence test (every lag up to 20, and half the run).
MEAN_LAGS = tuple(range(1, 21))
#: The pooled tail test fails a correct answer with probability at most this (PyDP's share of draws beyond
#: the threshold taken as 0.7 times Laplace's, as in the 5-scale test).
FAR_TAIL_FAILURE = 1e-4


def far_tail_threshold(draws: int, share: float = 0.7, failure: float = FAR_TAIL_FAILURE) -> float:
    """The largest |z| of ``draws`` noise draws whose tail beyond t is at least ``share`` e^-t (Laplace-like)
    is below this with probability at most ``failure``: P(max < t) <= exp(-share draws e^-t) = failure.

    Parameters
    ----------
    draws : int
        Number of draws pooled.
    share : float, default 0.7
        Lower bound on the draws' tail share beyond t relative to standard Laplace's e^-t.
    failure : float, default FAR_TAIL_FAILURE
        Probability that a correct answer stays below the threshold.

    Returns
    -------
    float
        The threshold on max |z|.

    Examples
    --------
    >>> round(far_tail_threshold(5700), 2)
    6.07
    """
    return _log(share * draws / -_log(failure))


def _narrower_than_outside(kind: str, deviation: float, deviations: dict) -> bool:
    """Whether a case whose data span only part of the bounds ("inside", "negative") has noise clearly smaller
    than the "outside" case (values beyond both bounds, run first): below 0.85 times its mean |noise| in scales.

    Bounds narrowed to the data shrink the noise only there (to about 0.2 and 0.6-0.8 scales), a wrong epsilon
    everywhere shrinks it alike (the ratio stays near 1, referee s36rA: epsilon times 1.1 got the hint for
    bounds from the data). The choice of hint only; the test is the band itself.

    Parameters
    ----------
    kind : str
        The case's kind.
    deviation : float
        Its mean |noise| in noise scales.
    deviations : dict
        The same for the cases run before, by kind.

    Returns
    -------
    bool
        True if the hint should be about bounds taken from the data.
    """
    outside = deviations.get("outside")
    return kind in ("inside", "negative") and (outside is None or deviation < 0.85 * outside)


#: The centre hint: a shifted centre comes from values changed (rounded, truncated, dropped) or clamped to other
#: bounds (referee s37rA: values truncated with int() got "more noise than needed").
_CENTRE_HINT = ("release the mean of the values as given, clamped to the bounds you were given (PyDP clamps when "
                "given them), with PyDP's noise: do not round, truncate or drop values.")
_mean_spread_kinds = ("low epsilon", "low epsilon few")


def _centre_shifted(answers, centre: float) -> bool:
    """Whether the answers' mean lies more than 6 of its own standard errors from ``centre`` (their spread
    measured around their own mean, so more noise alone does not count)."""
    return _abs(_float(_mean(answers)) - centre) > 6 * _float(np.std(answers)) / _sqrt(_len(answers))


def _check_array_unchanged(answer, seed: int) -> None:
    """The text allows "a list or array": the first case's values as a NumPy array must come back unchanged
    (an answer clipping the caller's array in place, np.clip(values, lower, upper, out=values), fails)."""
    values, lower, upper, epsilon, _ = _mean_cases(seed)[0]
    given = np.array(values, dtype=float)
    _call("04.1", answer, given, lower, upper, epsilon)
    if not np.array_equal(given, np.array(_mean_cases(seed)[0][0], dtype=float)):
        raise CheckFailed("your function changed the NumPy array of values it was given (property: input left "
                          "unchanged): clamp a copy, or let BoundedMean clamp.")


#: Runs per input kind in :func:`_check_value_kinds`: 4 or more of 12 answers within 1e-3 noise scales of the
#: exact mean (probability 2e-3 each) fail, which a correct answer does with probability below 1e-6 per kind.
KIND_RUNS = 12


def _kind_cases(seed: int):
    """(values, lower, upper, epsilon, label): the kinds of input the text allows, each once (50-300 values
    strictly inside the bounds, epsilon 0.5-5): the example's integer bounds [0, 150], a bound of 0.0, symmetric
    bounds, whole-number values, and the values as a NumPy array."""
    rng = _default_rng([seed, 42])
    cases = []
    for label in ("the example's integer bounds [0, 150]", "a lower bound of 0.0", "symmetric bounds",
                  "whole-number values", "the values as a NumPy array"):
        lower, upper = {"the example's integer bounds [0, 150]": (0, 150), "a lower bound of 0.0":
                        (0.0, _log_uniform(rng, 2, 200))}.get(label, (None, None))
        if label == "symmetric bounds":
            upper = _log_uniform(rng, 2, 200)
            lower = -upper
        elif lower is None:
            lower = _float(rng.uniform(-20, 20))
            upper = lower + _log_uniform(rng, 20, 200)
        width = upper - lower
        values = rng.uniform(lower + width / 10, upper - width / 10, int(_log_uniform(rng, 50, 300)))
        values = np.round(values) if label == "whole-number values" else values
        values = values if label == "the values as a NumPy array" else values.tolist()
        cases.append((values, lower, upper, _log_uniform(rng, 0.5, 5.0), label))
    return cases


def _check_value_kinds(answer, seed: int) -> None:
    """:data:`KIND_RUNS` answers on each of :func:`_kind_cases`: inside the bounds, never all equal, and at most
    3 within 1e-3 noise scales of the exact clamped mean (an answer exact for integer bounds, a bound of 0,
    symmetric bounds, whole numbers or NumPy arrays fails)."""
    for index in range(_len(_kind_cases(seed))):
        values, lower, upper, epsilon, _ = _kind_cases(seed)[index]
        answers = _stats.as_numbers(_many("04.1", answer, KIND_RUNS, values, lower, upper, epsilon), "the noisy mean")
        values, lower, upper, epsilon, label = _kind_cases(seed)[index]  # recomputed after the student ran
        where = f"With {_len(values)} values, {label} ([{lower:.6g}, {upper:.6g}]), epsilon={epsilon:.6g}:"
        clamped_mean = _float(_mean(_clip(_asarray(values, dtype=float), lower, upper)))
        scale = _noise_std(lower, upper, epsilon, _len(values), mean=clamped_mean) / _sqrt(2)
        near = int((_abs(answers - clamped_mean) <= 1e-3 * scale).sum())
        if answers.max() == answers.min() or near > 3:
            raise CheckFailed(f"{where} {near} of {KIND_RUNS} answers are the exact mean or within a hair of it "
                              "(property: noise for every kind of input): let PyDP's BoundedMean answer every "
                              "call, whatever the type of the bounds or the values.")
        if _pydp_reference.outside_bounds(answers, lower, upper):
            raise CheckFailed(f"{where} {_pydp_reference.OUTSIDE_BOUNDS_HINT}")


def _check_few_values(answer, seed: int) -> None:
    """The cases of :mod:`~mic_dp_helpers.checks._mean_few_values` (few-value kinds and level counts), each tested
    by its ``check_case``, then pooled by kind (``check_spread``)."""
    pooled = {}
    for cases, kind_of in ((few_value_cases, str), (_mean_few_values.level_cases, _mean_few_values.level_kind)):
        for index in range(_len(cases(seed))):
            values, lower, upper, epsilon, _ = cases(seed)[index]
            outputs = _many("04.1", answer, _mean_few_values.SPREAD_RUNS, values, lower, upper, epsilon)
            answers = _stats.as_numbers(outputs, "the noisy mean")
            case = cases(seed)[index]  # recomputed after the student ran
            for test, (shift, variance) in _mean_few_values.check_case(answers, *case).items():
                totals = pooled.setdefault((kind_of(case[4]), test), [0.0, 0.0])
                totals[0], totals[1] = totals[0] + shift, totals[1] + variance
    _mean_few_values.check_spread(pooled)


@exercise("04.1", title="A DP mean with PyDP's BoundedMean", answer_name="dp_mean_with_pydp")
def check_dp_mean_with_pydp(answer, seed: int = SEED) -> None:
    """A correct answer is PyDP's BoundedMean with ``dtype="float"`` and the declared bounds. Over 1,500
    runs on each of 3 cases from ``seed`` (values beyond both bounds; values all in the middle fifth of
    the bounds; negative bounds with values spanning 60-80% of them; 300 to 1,500 values, epsilon 0.3 to 5),
    300 runs on each of 6-40 and 40-300 values at epsilon 5 to 20, 300 runs on the sweep's large
    corner (10,000 to 40,000 values at epsilon 20, half of them at epsilon 100; band [0.72, 1.35]), 300 on its small corner
    (1 to 5 values, epsilon 1e-2 to 0.1: at most 5% of answers exact) and 1,500 on one value at the upper
    bound (epsilon 0.5 to 2: distributed like PyDP's own answers, two-sample KS test, p >= 1e-5) its answers: stay in [lower, upper]; are never all equal (no noiseless
    release); are centred on the mean of the values clamped to the *declared* bounds (within 6 standard
    errors); have a mean absolute deviation within 13-15% of PyDP's at that epsilon (5 standard errors;
    20% too much epsilon fails about 9 times in 10, 15% too much about 5 times in 6), also when the data span only part of the bounds
    (bounds from the data fail); are never the exact clamped mean, nor within 1e-3 noise scales of it more
    often than Laplace-like noise is (3% of such answers fail); and reach the tails 1,500
    Laplace-like draws reach (clipped noise fails); and, pooled over the cases, no call's noise predicts
    another's (every lag from 1 to 20 and half the run, each at 5.5 standard errors: calls that mirror the
    call up to 20 before, so that pairs average to the exact mean, fail); and the pooled largest |z| (about
    5,700 draws) reaches ``far_tail_threshold`` (6.07 scales; a correct answer stays below with probability
    at most 1e-4, taking PyDP's tail share as 0.7 of Laplace's): noise truncated, or answers asked again while
    more than c scales out, fail surely for c <= 6.07, with probability exp(-5,700 (e^-6.07 - e^-c)) above
    (about 0.2 at c = 6.2, 0.01 at c = 6.5). Three more cases, 10 or 20 runs each, test only the absence of
    noise (never all equal; at most 3 answers within 1e-3 scales of the exact mean): 150,000 to 250,000
    values (epsilon 0.5 to 5), 2,000 to 9,000 values (epsilon 0.5 to 20) and epsilon 200 to 1,000 (300 to
    3,000 values) and 800,000 to 1,000,000 values (3 runs), so an answer exact above 40,000 values, between
    1,500 and 10,000, or above epsilon 100 fails (and 10 runs at each of 3, 4, 5, 8, 12 and 20 values, epsilon
    5 to 20: an answer exact for a handful of values fails; and 20 runs on each cell of a grid beside the
    statistical cases' epsilon 0.3-5, ``LOW_HIGH_EPSILON``: epsilon 0.02-0.06, 0.06-0.15 and 0.15-0.3 times 6-300,
    300-1,000 and 1,000-3,000 values, and epsilon 5-10, 10-20, 20-60 and 60-200 times 150-600 and 600-3,000 values,
    and 6 runs on each cell of ``LOW_EPSILON_LARGE`` (referee s38rA): epsilon 0.02-0.1, 0.1-0.3 and 0.3-0.5 times
    3,000-30,000 and 30,000-1,000,000 values in the middle 200th of the bounds, whose mean |noise| of at least 0.052
    noise scales (6 Laplace draws fall below with probability 1e-6) is also tested: bounds narrowed to the data give
    about 0.01 there;
    so an answer exact, or with bounds from the data, below epsilon 0.3 (0.5 from 3,000 values) or above epsilon 5
    for some sizes fails; the cells below epsilon 0.3 lie in
    the middle twentieth of the bounds, those of 300 values or more with the spread floor below, and their noise
    is ranked against PyDP's own answers on the same inputs (:mod:`~mic_dp_helpers.checks._mean_spread`: 100 runs
    of each cell of 300-3,000 values against 150 of PyDP's, the two cells of a band pooled, and 40 runs of each
    cell of 6-300 values against 80; a one-sided rank test of the distance to the clamped mean, p >= 1e-5 each of 6
    groups): epsilon floored at 0.1 (referee s37rA: up to 5 times too little noise, z = -11.7 at the default seed) or
    at 0.08, and bounds narrowed to the data for 6-299 values below epsilon 0.3, fail); the two large cases are sorted (the second with its halves
    interleaved) and their centre is tested (10 sd: the mean of a prefix, or of every other value, fails), and
    the first lies in the middle twentieth of the bounds (mean |z| of its 10 runs at least 0.12: bounds
    narrowed to the data fail). No two answers of a case average to the exact mean (mirrors at any lag fail). It leaves ``values`` unchanged (a list, and the first case's values as a NumPy array). Twelve answers on
    each kind of input the text allows (:func:`_check_value_kinds`: the example's integer bounds [0, 150], a lower
    bound of 0.0, symmetric bounds, whole-number values, a NumPy array) are never all equal and at most 3 are
    within 1e-3 noise scales of the exact mean (an answer exact for one kind fails). 120 answers on each of 22
    cases of :mod:`~mic_dp_helpers.checks._mean_few_values` (referees s39rA, s39rE: six kinds of data -- every value
    the same; 0/1 values with bounds [0, 1] and inside wider bounds; two to eight whole numbers in the middle third
    of the bounds; every value beyond one bound, on it or strictly beyond; values inside the bounds at epsilon
    1e-4-0.015 -- each at 20-300, 300-3,000 and 3,000-20,000 values, epsilons 0.1-1, 1-5, 5-20 paired at random; a
    4th tiny case 1/epsilon-5/epsilon values; 3 more all on a bound) are never all equal, at most 5 are within 1e-3 x min(noise scale, bound width) of an
    interior clamped mean, and they are not closer to the clamped mean than 240 of PyDP's own answers a case, in any
    one case (rank test, p >= 1e-6 a case) nor pooled over a kind's three cases (p >= 1e-6 a kind): an answer
    exact, or with bounds from the data, for such data or such epsilons fails; so do 120 answers on two cases for each count of 2 to 8 distinct values
    (``level_cases``: whole and real, 20-20,000 values, epsilon 0.1-20; the same tests, pooled over the seven whole
    and over the seven real cases). Per case, noise cut to a third failed in 156 of 156 cases whose data lie inside the
    bounds (seeds 0-5), half below epsilon 0.015, none beyond one bound (``benchmarks/few_values_power.py``).
    Limits: a rule that acts only in a part of a stratum that the seed's one draw misses passes, and so may noise
    shrunk by less than about a half for one kind; where PyDP's answers pile up on a bound, the share on a bound
    and the answers off it are tested too (referee s42: epsilon floored at 0.0045, and 3 x epsilon when every value
    lies beyond one bound, passed; both now fail at seeds 0-5, ``benchmarks/few_values_power.py``). The hint blames bounds taken
    from the data only when the noise of a case whose data span part of the bounds is below 0.85 times that of the
    case with values beyond both bounds (a wrong epsilon everywhere gets the scale hint). Limits: an answer exact
    only for 9,000-10,000 values, 40,000-150,000 values or epsilon 100-200 with more than 3,000 values (between the
    cases of a seed), or only in a part of one grid cell (a box of sizes and epsilons that the cell's one draw
    misses), or with noise of a wrong size only in the exactness cases other than those below epsilon 0.3 (the large
    sizes, 2,000-9,000 values, epsilon above 5: only a noiseless answer, or one within 1e-3 scales, fails there),
    or with noise shrunk below epsilon 0.3 to about 0.6 of PyDP's or more in a band (at the default seed epsilon
    floored at 0.04, a shrink to 0.64, 0.67 and 0.87 in the cells of 0.02-0.06, passed 10 of 10 runs, z -1.9 to
    -3.5; floored at 0.06, a shrink to 0.45-0.58, failed 15 of 15, z -4.5 to -7.5, against -4.26), or, above
    3,000 values below epsilon 0.5, noise shrunk by a factor up to about 10 (epsilon floored at 0.1 there: at most
    5 times too little noise; only a mean |noise| below 0.052 scales fails, so a shrink by 20 or more fails), passes; a mixture with a small share of
    calls at a larger epsilon (referee s36rA: 3% of calls at 10 epsilon, worst privacy loss 1.8 times epsilon at 0.3
    in a Laplace model: the mean |noise| moves by 3%, inside the band) or with a narrow component (0.5% of calls
    the clamped mean plus uniform noise of a twentieth of the scale) passes, as neither changes the spread,
    the tails or the 1e-3 window enough over these runs (nor does 20% of calls at 1.4 epsilon and the rest at 0.9,
    referee s39rA: its worst privacy loss is 1.4 epsilon); noise truncated beyond about 6.5 scales is rarely seen; outside the tested ranges
    (referee s35rca) an answer exact above epsilon 1,000, above 1,000,000 values, for a tuple or float32 input,
    or for negative integer bounds (the only integer bounds are [0, 150]) passes.

    Parameters
    ----------
    answer : callable
        The student's ``dp_mean_with_pydp`` (exercise 04.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    _check_array_unchanged(answer, seed)
    _check_value_kinds(answer, seed)
    _check_few_values(answer, seed)
    z_all, deviations, low_bands = [], {}, {}
    for index in range(_len(_mean_bank(seed))):
        values, lower, upper, epsilon, kind = _mean_case(seed, index)
        runs = MEAN_RUNS_BY_KIND[kind]
        try:
            first = _call("04.1", answer, values, lower, upper, epsilon)
        except TypeError as error:
            if "Int" in str(error):
                raise CheckFailed("PyDP rejected the numbers because it built the integer version of the "
                                  "algorithm: see the dtype trap in section 2 of the lecture.") from None
            raise
        outputs = [first] + _many("04.1", answer, runs - 1, values, lower, upper, epsilon)
        answers = _stats.as_numbers(outputs, "the noisy mean")
        given = values
        values, lower, upper, epsilon, kind = _mean_case(seed, index)
        if given != values:
            raise CheckFailed("your function changed the values it was given.")
        where = f"With {_len(values)} values, bounds [{lower:.6g}, {upper:.6g}] and epsilon={epsilon:.6g}"
        where += {"outside": " (some values beyond both bounds)", "inside": " (every value well inside the bounds)",
                  "negative": " (the values span most of the bounds)", "large": "", "tiny": "", "middle": "",
                  "single": " (one value, on the upper bound)", "huge": "", "gap": "", "huge epsilon": "",
                  "vast": "", "small": "", "low epsilon": "", "low epsilon few": "", "high epsilon": "",
                  "low epsilon large": ""}[kind]
        if _pydp_reference.outside_bounds(answers, lower, upper):
            raise CheckFailed(f"{where} {_pydp_reference.OUTSIDE_BOUNDS_HINT}")
        if answers.max() == answers.min():
            raise CheckFailed(f"{where} your answer never changes (property: noise): the mean is released "
                              "without noise, so nothing is private. Let PyDP's BoundedMean compute it.")
        clamped_mean = _float(_mean(_clip(_asarray(values, dtype=float), lower, upper)))
        if kind in EXACTNESS_KINDS:  # few runs: only no noise, or noise within a hair of 0, is tested
            sd = _noise_std(lower, upper, epsilon, _len(values), mean=clamped_mean)
            # |z| <= 1e-3 has probability about 1e-3 for Laplace-like noise (2e-3 allowed); more such answers
            # than Binomial(runs, 2e-3) gives with probability 1e-7 fail: 4 of 10 or of 20 do.
            if kind in LARGE_KINDS and _abs(_float(_mean(answers)) - clamped_mean) > 10 * sd:
                raise CheckFailed(f"{where} your answers are centred {_float(_mean(answers)) - clamped_mean:+.3g} from the "
                                  "mean of all the values clamped to the bounds, more than 10 noise standard deviations "
                                  "(property: centre, at every size): release the mean of every value, not of a part.")
            spread = _float(_mean(_abs(answers - clamped_mean))) / (sd / _sqrt(2))
            if spread < SPREAD_FLOORS.get(kind, 0.0):
                raise CheckFailed(f"{where} (every value in a narrow middle part of the bounds): your answers vary by "
                                  f"{spread:.2f} noise scales on average, where PyDP's noise gives about 1 (property: "
                                  "noise of the right size): too little noise here. Is epsilon changed (raised or "
                                  "floored at some value), or are the bounds narrowed to the data's own minimum and "
                                  "maximum? Pass epsilon and the declared bounds unchanged.")
            near = int((_abs((answers - clamped_mean) / (sd / _sqrt(2))) <= 1e-3).sum())
            if near and _float(_binom_sf(near - 1, runs, 2e-3)) < 1e-7:
                raise CheckFailed(f"{where} {near} of {runs} answers are the exact mean or within a hair of it "
                                  "(property: no noiseless output): every call must return PyDP's noisy answer, "
                                  "whatever the number of values or epsilon.")
            if kind in _mean_spread_kinds:
                _mean_spread.add_cell(low_bands, kind, answers, values, lower, upper, epsilon, clamped_mean)
            continue
        if kind == "tiny":  # PyDP clamps most answers to a bound here: only the absence of noise is tested
            if _float(_mean(_abs(answers - clamped_mean) <= 1e-9 * (upper - lower))) > 0.05:
                raise CheckFailed(f"{where} many answers are the exact clamped mean (property: no noiseless "
                                  "output): every call must add noise, also for a handful of values or a small "
                                  "epsilon.")
            continue
        if kind == "single":
            _pydp_reference.same_as_pydp_mean(answers, values, lower, upper, epsilon, where)
            continue
        sd = _noise_std(lower, upper, epsilon, _len(values), mean=clamped_mean)
        deviation = _float(_mean(_abs(answers - clamped_mean))) / (sd / _sqrt(2))
        # PyDP's mean noise is close to Laplace: mean |noise| = sd / sqrt(2), whose estimate over 1,500 runs
        # has a relative standard error of 1 / sqrt(1500) = 2.6%; the band [0.87, 1.15] is 5 of them. Over
        # 3,000 runs on 36 cases the ratio stayed within 0.956-1.037 (so the model's own error is small).
        # With 300 runs (the large case) the band is [0.72, 1.35], 5.3 standard errors of 5.8%.
        low, high = (0.87, 1.15) if runs >= MEAN_RUNS else (0.72, 1.35)
        centre_off = _abs(_float(_mean(answers)) - clamped_mean) > 6 * sd / _sqrt(runs)
        deviations[kind] = deviation
        if deviation < low:
            if _narrower_than_outside(kind, deviation, deviations):
                raise CheckFailed(f"{where}: your noise shrinks when the data span only part of the bounds "
                                  "(property: data-independent noise). The bounds must be the ones declared, "
                                  "never the data's own minimum and maximum.")
            raise CheckFailed(f"{where} your answers vary less than BoundedMean's noise at that epsilon (property: "
                              "scale): a larger epsilon than asked (weaker privacy than promised), or answers "
                              "rounded or shrunk afterwards. Pass epsilon unchanged and return PyDP's number as is.")
        if deviation > high and _centre_shifted(answers, clamped_mean):
            raise CheckFailed(f"{where} your answers are centred {_float(_mean(answers)) - clamped_mean:+.3g} from the mean "
                              "of the values clamped to the bounds, so they lie far from it (property: centre): "
                              f"{_CENTRE_HINT}")
        if deviation > high:
            raise CheckFailed(f"{where} your answers vary more than BoundedMean's noise at that epsilon (property: "
                              "scale): you add more noise than needed (is epsilon split or changed, or are the "
                              "bounds not the ones you were given?).")
        if centre_off:
            raise CheckFailed(f"{where} your answers are centred on the wrong value (property: centre): {_CENTRE_HINT}")
        _stats.check_fresh_noise(answers, clamped_mean, sd / _sqrt(2), "laplace", where + ":")
        _stats.check_no_mirrors(answers, clamped_mean, sd / _sqrt(2), where + ":")
        z = (answers - clamped_mean) / (sd / _sqrt(2))
        # Near-exact answers (the exact mean plus a tiny jitter): |z| <= 1e-3 has probability about 1e-3 for
        # Laplace-like noise (2e-3 allowed); more such answers than Binomial(runs, 2e-3) gives with probability
        # 1e-7 fail: 3% of answers near-exact gives about 45 of 1,500.
        near = int((_abs(z) <= 1e-3).sum())
        if near and _float(_binom_sf(near - 1, runs, 2e-3)) < 1e-7:
            raise CheckFailed(f"{where} {near} of {runs} answers are the exact clamped mean or within a hair of it "
                              "(property: no noiseless output): every call must return PyDP's noisy answer.")
        if _float(_max(_abs(z))) < 0.9 * _stats.laplace_tail_threshold(runs):
            raise CheckFailed(f"{where} your noise never reaches the tails that {runs} draws of PyDP's noise "
                              "reach (property: tails): clipped or bounded noise is not differentially private.")
        z_all.append(z)
    _mean_spread.check_bands(low_bands)  # epsilon 0.02-0.3: noise as large as PyDP's own (referee s37rA)
    # Pooled over the cases: odd and even calls averaging to the exact mean, or noise carried over from
    # call to call, show as a correlation between calls (see _stats.LESSON02_06_POWER for the power).
    _sweeps.check_independent_calls(z_all, "Over every case,", lags=MEAN_LAGS, unit="call")
    # Beyond 5 scales, pooled: about 38 of PyDP's answers expected (its mean noise put 0.6-1.3 times the Laplace
    # share there over 14 cases of 3,000-20,000 draws); noise truncated at 5 scales, or answers asked again until
    # they look plausible, put none. Fewer than a Poisson of 70% of the expectation gives with probability 1e-7 fail.
    far = sum(int((_abs(z) > 5).sum()) for z in z_all)
    expected_far = sum(z.size for z in z_all) * _exp(-5.0)
    if _float(_poisson_cdf(far, 0.7 * expected_far)) < 1e-7:
        raise CheckFailed(f"Over every case, {far} answers lie more than 5 noise scales from the clamped mean, where "
                          f"PyDP's noise puts about {expected_far:.0f} (property: tails): the noise is cut off (truncated, "
                          "or an answer asked again until it looks plausible, which also spends more than charged).")
    # Beyond 6 scales, pooled: the largest |z| of about 5,700 draws must reach far_tail_threshold (6.07 at 5,700,
    # with PyDP's tail share taken as 0.7 of Laplace's): a correct answer stays below with probability at most
    # 1e-4; noise truncated, or answers asked again while more than c <= 6 scales out, never reach it.
    largest = _float(_max([_float(_max(_abs(z))) for z in z_all]))
    threshold = far_tail_threshold(sum(z.size for z in z_all))
    if largest < threshold:
        raise CheckFailed(f"Over every case, no answer lies more than {largest:.2f} noise scales from the clamped mean, "
                          f"where PyDP's noise over that many answers reaches {threshold:.2f} (property: tails): the "
                          "noise is cut off (truncated, or an answer asked again until it looks plausible, which "
                          "also spends more than charged).")


# ------------------------------------------------------------------------------- 04.2
def _contribution_tables(seed: int) -> list[tuple[pd.DataFrame, str]]:
    """Tables whose person column is never first, with shuffled non-default indexes and repeated ids."""
    rng = _default_rng(seed)
    tables = []
    for kind in range(3):
        n_people = int(rng.integers(3, 25))
        rows = rng.integers(1, 12, n_people)
        rows[0] = 3  # somebody with exactly k rows for k = 3
        ids = np.repeat(np.arange(n_people), rows)
        person = [f"p{i:03d}" for i in ids] if kind != 1 else (ids * 7 + 100).tolist()
        n = len(ids)
        frame = pd.DataFrame({"amount": np.round(rng.uniform(1, 80, n), 2), "visit": np.arange(n),
                              "who": person, "day": rng.integers(1, 366, n)})
        frame.index = rng.permutation(np.arange(1000, 1000 + 3 * n, 3))
        tables.append((frame.sample(frac=1.0, random_state=int(rng.integers(0, 2**31))), "who"))
    return tables


def _uniformity_table(people: int = 30) -> pd.DataFrame:
    # ``people`` people with 7 rows each, in blocks: a person's rows are consecutive in index order. Within a
    # person the amounts double from row to row (1 to 64, slightly different per person), so a choice that
    # leans on the values (the largest rows, rows drawn with weights) keeps some positions far more often.
    amounts = np.tile(2.0 ** np.arange(7), people) * (1 + np.repeat(np.arange(people), 7) / (100 * people / 30))
    return pd.DataFrame({"amount": amounts, "person": np.repeat(np.arange(people), 7)},
                        index=np.arange(5000, 5000 + 7 * people))


def _call_bound(answer, df: pd.DataFrame, column: str, k: int, seed) -> pd.DataFrame:
    copy = df.copy()
    result = _call("04.2", answer, copy, column, k, _default_rng(seed))
    if not copy.equals(df):
        raise CheckFailed("your function changed the table it was given; return a new table instead.")
    if not _isinstance(result, pd.DataFrame):
        raise CheckFailed(f"it should return the kept rows as a DataFrame, not a {type(result).__name__}.")
    return result


@exercise("04.2", title="Contribution bounding: at most k rows per person", answer_name="bound_contributions")
def check_bound_contributions(answer, seed: int = SEED) -> None:
    """A correct answer returns real rows of the table (same columns, original index, no duplicates),
    min(rows, k) of each person (k = 1, 3 where somebody has exactly 3 rows, a random k, and a k above
    everyone's count), leaves the table unchanged, draws its choice from ``rng`` only (same seed, same
    rows), and keeps each of a person's rows with the same probability, whatever its values: over 60 calls
    on 30 people with 7 rows each (k = 2, amounts doubling from row to row), each row position is kept
    with frequency 2/7 within 0.06 (5.6 standard errors), and again over at least 1,800 person-calls on 300 to
    3,000 such people (a random choice only for small tables fails); then, for k = 1, 2, 3 and 5, 40 calls on
    a table of 30 people with each of 3, 7, 20 and 60 rows (rows shuffled, a text index): each row count's
    positions (in table order) are kept with frequency min(k, m) / m (two-sided binomial test at 1e-9 per
    position), now also with k = 8 and 10 people of 250 rows (referee s36rA: first rows above 60 rows, or for
    k >= 6, passed), and each single row is kept about as often as a random choice keeps it (the mean squared
    standardized count of a row count's rows below its Gamma approximation's 1e-7 quantile): that table has a
    date, a visit number and a day in an order unrelated to the rows', so each person's latest rows by date, or
    rows drawn with weights from a column, fail; on that table, for each row count with C(m, k) >= 100, the
    number of pairs of calls in which a person kept exactly the same set of rows is at most what a uniform
    choice of the set gives (Poisson, p >= 1e-7; :func:`_choice_subsets.check_subsets_uniform`): a random
    rotation (a random start and k consecutive rows, in any fixed order: each row kept with probability k / m,
    but only m of the C(m, k) sets possible) fails (referee s37rA: it passed; at k = 2 and 20 rows it repeats a
    set about 1,120 times against 123). Then a sweep (:func:`_choice_subsets.check_sweep`): every k from 1 to 12
    and a log grid of k (ratio 1.3, an offset from ``seed``) up to 1,000, 3 calls each, on a table of one person
    of each row count from 2 to 12 and of a log grid of row counts (ratio 1.3, another offset) up to 1,000:
    every person keeps min(k, m) rows, and the pairs of calls with the same kept set are not more than a uniform
    choice gives (their exact law, p >= 1e-7), so each person's first rows (any fixed choice) for some k or
    some row counts fails (referee s37rA: first rows for k = 4, 6, 7 or 9+, for 61-249 or more than 250 rows
    passed); and, pooled over the sweep, the kept rows' relative positions among each person's rows (table order)
    centre on the middle (``_choice_subsets.TREND_Z`` = 4.6 standard errors, two-sided 4e-6): weights rising from 1
    to 1.5 along the order for people above 100 rows fail (referee s38rA: they passed; z = 17.8 at the default
    seed), 1.5 to 1 above 300 rows too. In each call of the 7-row tables, no set of positions is kept by more than
    half of the people (:func:`_choice_pairs.check_not_shared`; independent choices: below 1e-12): one draw shared by every
    person (each person's set uniform, but the same for all; the text asks for a choice independently for each
    person) fails with its own hint; over the 7-row tables' calls, pairs with equal or mirrored sets are no more
    than independent choices give (:func:`_choice_pairs.check_ties`, z > 5.3), and on them and on each row count
    of the mixed tables (every k) any dependence between people fails (:mod:`._choice_agreement`, 3 tests at 1e-6:
    agreement over pairs of calls and overlap in a call of consecutive people in table or id order, agreement of
    all pairs): shared, disjoint, shifted, mirrored picks of consecutive people, of people far apart or only of some
    (referee s39rE: they passed), fail. Tables come from ``seed``; the person column is not the first column. The text states that the index labels each row once: a choice by index label (``df.loc[labels]``),
    which keeps extra rows when a label repeats, is then correct, and no table repeats a label (the reference
    solution's ``df.index.isin`` would keep them too). Limits: a choice weighted only weakly by a column can pass
    (weights (day + 1) ** 0.5, days 1-365, gave 3.2 times a random choice's spread, 2.24 allowed); a fixed choice
    only for k, or row counts, strictly between two points of a grid above 12 (a band narrower than a factor
    1.3 at the seed's offset), or above the grids' largest row count or k (770 to 1,000 by the offset; 779 rows
    and k = 786 at the default seed), passes; a fixed choice only where C(m, k) is
    small (people of 4-6 rows) is seen only by the position tests (k = 1, 2, 3, 5, 8 on 3 and 7 rows); a rotation
    used only for some k other than 2, 3, 5 and 8 passes (the sweep's 3 calls rarely repeat its sets); a choice
    weighted by position only for people above 1,000 rows (beyond the sweep), or too weakly for z = 4.6 over the
    sweep, passes; ties between people of different row counts, and disjoint picks (not a relabelling) of a few
    non-consecutive pairs, pass (power: ``_stats.LESSON02_06_POWER``).

    Parameters
    ----------
    answer : callable
        The student's ``bound_contributions`` (exercise 04.2).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(3):
        df, column = _contribution_tables(seed)[index]
        counts = df[column].value_counts()
        for k in (1, 3, int(_default_rng([seed, index]).integers(2, 8)), int(counts.max()) + 1):
            kept = _call_bound(answer, df, column, k, seed + k)
            if list(kept.columns) != list(df.columns):
                raise CheckFailed("keep every column of the table, in its order; only drop rows.")
            if kept.index.has_duplicates:
                raise CheckFailed("a row appears twice in your result: choose rows without replacement.")
            if not kept.index.isin(df.index).all() or not kept.equals(df.loc[kept.index]):
                raise CheckFailed("your result contains rows that are not rows of the table (with their original "
                                  "index and values); select rows, do not rebuild or renumber them.")
            kept_counts = kept[column].value_counts()
            if _len(kept_counts) and kept_counts.max() > k:
                raise CheckFailed(f"with k={k} somebody still has more than k rows (property: at most k).")
            if not kept_counts.reindex(counts.index, fill_value=0).equals(counts.clip(upper=k)):
                raise CheckFailed(f"with k={k} each person should keep min(their rows, k) rows (property: nobody "
                                  "loses rows they could keep); some people lost rows, or disappeared. A person "
                                  "with exactly k rows keeps them all.")
    df, column = _contribution_tables(seed)[0]
    if not _call_bound(answer, df, column, 2, seed).index.equals(_call_bound(answer, df, column, 2, seed).index):
        raise CheckFailed("two calls with generators seeded alike kept different rows: draw your randomness "
                          "from the rng argument (property: reproducible).")
    _choice_subsets.check_sweep(answer, seed, _THIS)  # every k 1-12 and row count 2-12, log grids to 1,000 (s37rA)
    _check_uniform_choice(answer, 30, 60, _default_rng(seed))
    # Again on 300 to 3,000 people (2,100 to 21,000 rows), at least 1,800 person-calls (referee rt0206: a random
    # choice up to 100 people or 1,000 rows and each person's first rows above passed).
    people = int(_log_uniform(_default_rng([seed, 43]), 300, 3_000))
    _check_uniform_choice(answer, people, max(2, -(-1800 // people)), _default_rng([seed, 43, 1]))
    for k in _uniform_choice.MIXED_KS:  # several row counts per table, k = 1, 2, 3, 5, a text index (s35rca)
        _uniform_choice.check_mixed_choice(answer, k, seed, _THIS)


def _check_uniform_choice(answer, people: int, calls: int, rng) -> None:
    """``calls`` calls (k = 2) on :func:`_uniformity_table` of ``people``: every row position kept alike."""
    given = _uniformity_table(people)
    outputs = _core.student_call("04.2", _THIS, call_repeatedly, answer, calls, given, "person", 2, rng)
    if not given.equals(_uniformity_table(people)):
        raise CheckFailed("your function changed the table it was given; return a new table instead.")
    kept_position, sets_by_call = np.zeros(7), []
    for kept in outputs:
        if not _isinstance(kept, pd.DataFrame):
            raise CheckFailed(f"it should return the kept rows as a DataFrame, not a {type(kept).__name__}.")
        kept_position += np.bincount((kept.index.to_numpy() - 5000) % 7, minlength=7)[:7]
        sets_by_call.append(_choice_pairs.kept_sets(kept.index.to_numpy() - 5000, people))
        _choice_pairs.check_not_shared(sets_by_call[-1], people)
    _choice_pairs.check_ties(sets_by_call)
    frequency = kept_position / (calls * people)
    # Each frequency averages at least 1,800 Bernoulli(2/7) draws (not independent within a person, which only
    # lowers the variance): standard error at most 0.0107; 0.06 is more than 5.6 of them.
    if frequency.max() - frequency.min() > 0.9:
        raise CheckFailed("you always keep the same rows of a person (for example the first ones); choose them at "
                          "random, using rng (property: uniform choice).")
    if _abs(frequency - 2 / 7).max() > 0.06:
        raise CheckFailed("some rows of a person are kept much more often than others: every row of a person "
                          "should have the same chance to be kept (property: uniform choice).")
