"""Checks for lesson 02 (the Laplace mechanism).

Neighbouring datasets differ by adding or removing one person (the course's convention). Every
check draws its inputs from a generator seeded with ``seed`` (fixed by default, so a check is
reproducible), over ranges wide enough to reach every branch of a correct answer: negative,
zero and positive bounds with either bound the larger in absolute value, epsilons from 1e-5 to
1e6 with many digits, values inside and outside the bounds. Random answers (02.1, 02.4) are
tested on their distribution with :mod:`mic_dp_helpers.checks._stats` (centre, scale, tails,
independence, goodness of fit against the exact Laplace law, no noiseless output); a correct
answer fails with probability below 1e-4 per check (measured: 0 of 1,000 seeds, see
``benchmarks/check_false_rejection.py``), plus at most 1e-4 for each scale scan of a band sweep
(:mod:`mic_dp_helpers.checks._scale_scan`: 02.1 one, 02.4 two; Bonferroni, simulated 0 of 1,000 seeds) and
for each shape scan (:mod:`mic_dp_helpers.checks._shape_scan`: 02.1 one, 02.4 two; exact binomial tails,
Bonferroni); the scans add at most 2e-4 (02.1) and 4e-4 (02.4). The student's function is called positionally, under
:func:`~mic_dp_helpers.checks._core.student_call`, and the expected answer is computed after it
returns.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from mic_dp_helpers.mechanisms import noise as _mechanisms
from mic_dp_helpers.checks import _core, _shared_calls, _stats, _sweeps
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise, expect_number
from mic_dp_helpers.checks._lesson02_inputs import (_mixed_laplace_cases, _mixed_sum_cases,  # noqa: F401
                                                    _shared_laplace_cases, _shared_sum_cases, with_outliers)
from mic_dp_helpers.checks._lesson02_bands import check_laplace_bands, check_not_float32, check_sum_bands
from mic_dp_helpers.checks._lesson02_sizes import check_sum_midsizes

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_clip = np.clip
_array = np.array
_array_equal = np.array_equal
_isclose = math.isclose
_log = math.log
_log1p = math.log1p
_expm1 = math.expm1
_fsum = math.fsum
_abs, _max, _float, _len = abs, max, float, len

SEED = 2024
N_DRAWS = 36_000
SUM_DRAWS = 24_000

_LESSON_HELPERS = tuple(f"mic_dp_helpers.mechanisms.noise:{name}" for name in
                        ("laplace_mechanism", "laplace_scale", "gaussian_mechanism"))
for _id in ("02.1", "02.2", "02.3", "02.4"):
    _core.FORBIDDEN[_id] = _LESSON_HELPERS


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args, extra_modules=(_shared_calls,))


def _many(exercise_id, answer, n, *args):
    return _core.student_call(exercise_id, _THIS, call_repeatedly, answer, n, *args)


def _log_uniform(rng, low, high) -> float:
    return _float(math.exp(rng.uniform(_log(low), _log(high))))


def _releases(exercise_id, answer, args_before_rng, seed: int, where: str, draws: int = N_DRAWS):
    """``draws`` releases from one generator seeded ``seed``, after a reproducibility test."""
    first = expect_number(_call(exercise_id, answer, *args_before_rng, _default_rng(seed)), "the noisy release")
    again = expect_number(_call(exercise_id, answer, *args_before_rng, _default_rng(seed)), "the noisy release")
    if first != again:
        raise CheckFailed(f"{where} two runs with identically seeded generators gave different releases "
                          "(property: reproducible). Draw all the noise from the `rng` argument, not from "
                          "np.random or a new generator.")
    outputs = _many(exercise_id, answer, draws, *args_before_rng, _default_rng(seed + 1))
    return _stats.as_numbers(outputs, "the noisy release")


# ------------------------------------------------------------------------------------- 02.1
def _laplace_cases(seed: int):
    """(value, sensitivity, epsilon, draw seed): four cases of extreme values and epsilons (1e-3 to 1e6),
    then the corners of sensitivity 1e-3 to 1e4 x epsilon 1e-2 to 20 (``_sweeps.corner_sweep``)."""
    rng = _default_rng(seed)
    cases = []
    for kind in range(4):
        sign = _float(rng.choice([-1.0, 1.0]))
        value = [int(sign * round(_log_uniform(rng, 1e8, 1e12))), _float(rng.uniform(-50, 50)), 0,
                 sign * _log_uniform(rng, 1e-3, 1e3)][kind]  # Python ints too, as in the exercise's example
        sensitivity = _log_uniform(rng, 1e-3, 1e3) if kind < 3 else _log_uniform(rng, 1e2, 1e4)
        epsilon = [_log_uniform(rng, 1e-3, 0.1), _log_uniform(rng, 0.1, 10), _log_uniform(rng, 10, 1e3),
                   _log_uniform(rng, 1e3, 1e6)][kind]
        cases.append((value, sensitivity, epsilon, int(rng.integers(1, 2**31))))
    for case in _sweeps.corner_sweep(rng, {"sensitivity": (1e-3, 1e4), "epsilon": _sweeps.EPSILONS}):
        value = _float(rng.choice([-1.0, 1.0])) * _log_uniform(rng, 1e-3, 1e6)
        cases.append((value, case["sensitivity"], case["epsilon"], int(rng.integers(1, 2**31))))
    return cases


def _fresh_generator_releases(exercise_id, answer, args_before_rng, seed: int, calls: int):
    """One release from each of ``calls`` new generators (seeded ``[seed, i]``): an answer that treats the
    first call of a generator differently (no noise, a fixed draw) shows here."""
    return _stats.as_numbers([_call(exercise_id, answer, *args_before_rng, _default_rng([seed, i]))
                              for i in range(calls)], "the noisy release")


FRESH_GENERATORS = 100


@exercise("02.1", title="Implement the Laplace mechanism", answer_name="laplace_mechanism")
def check_laplace_mechanism(answer, seed: int = SEED) -> None:
    """A correct answer: returns one number, uses only ``rng`` (same seed, same release), and over
    36,000 releases from one generator per case is ``value`` + Laplace(sensitivity / epsilon):
    centred, right scale, reaching the Laplace tails, independent from call to call, never the exact
    value, never the same release twice, and passing a KS test against the exact law, for values (0 to
    1e12 either side of 0), sensitivities (1e-6 to 1e4) and epsilons (1e-5 to 1e6, the far ends in the band
    sweep; every corner of
    sensitivity x epsilon 1e-2 to 20), many digits (two values given as Python ints, as in the exercise's
    example), drawn afresh from ``seed``, with no more releases within 1e-3 or 1e-2 scales of the value than
    Laplace noise puts there and no pairs of releases averaging to it (a call mirroring any earlier one fails,
    whatever the lag: ``_stats.check_near_answer`` and ``check_no_mirrors``), and a band sweep
    (:func:`_lesson02_bands.check_laplace_bands`): 20 releases at each of 300 cases stratified on sensitivity
    1e-6 to 1e4, epsilon 1e-5 to 1e6 and |value| / scale 1e-6 to 1e9 (one case per 1/300 of each log range, so
    consecutive values are a factor 1.080, 1.088 and 1.122 apart), 20 at each of 100 stratified on the scale
    1e-12 to 1e9: pooled over the 8,000 releases no more exact (2 fail) or near the value than Laplace puts
    there, no mirrored or equal pairs within a case, no correlation at lags 1-19, no grid anchored at the value
    over 8 neighbouring cases by any parameter (:func:`_band_calls.check_call_sequences`; referee s40rA: every
    10th call exact, mirrored or reused draws or a grid for sensitivities below 1e-3 passed); first releases: at
    most 4 of 400 within 1e-3 scales, Laplace pooled,
    and the mean |noise| of every window of 1, 4, 16 and 64 cases ordered by epsilon, sensitivity, scale or
    |value| / scale in its Gamma band (:func:`_scale_scan.check_band_scale`, 1e-4 over all: an epsilon
    floored at 3e-5 or more, or a scale capped at 1.5e8 or less, fails; ``LESSON02_06_POWER``), and the shape
    of the same windows (16, 32, 64 and 128 cases every quarter window, and 2, 3, 4, 6, ... cases from either end:
    :func:`_shape_scan.check_band_shape`, 1e-4 over all): Laplace's share of releases beyond 2 and 3 scales and
    between 0.5 and 2.7 (uniform or Gaussian noise of the right mean |noise| below an epsilon, a sensitivity or
    above a |value| / scale fails). Over all 9 cases together (324,000 releases) the noise
    reaches beyond 10 scales (noise clipped at 10 scales fails), no more releases lie within 1e-2 or 5e-2
    scales of the value than Laplace puts there (binomial tail 1e-6 each: a narrow component in 0.2% of calls
    or more fails, :func:`_sweeps.check_pooled_near_answer`), and no call's noise predicts a later call's
    (lags 1-20 and half the run). 100 releases, each from
    a new generator, pass the same tests. Then 25 rounds over 12 inputs of one scale from one shared
    generator (:func:`_shared_calls.check_shared_generator`): integral floats, 0.0, NumPy int64 and int32, a
    Python int, a float, and values 1e9 to 2e13 scales from 0 (two below 1e10, one 1e13 to 2e13); noise reused,
    negated or
    correlated between inputs, or an exact release for one kind of value, fails; on the values 1e9 scales or more
    from 0 the mean |noise| lies within 0.4 to 1.6 scales and, below 2e10 scales, no release repeats or mirrors
    another within a float spacing; then 25 rounds over 5 inputs of one value varying the sensitivity (1, 3
    times) and epsilon (1, 4 times), and a second value: a standard draw kept when any setting changes fails.
    Limits: noise truncated beyond about 12 scales
    passes (324,000 releases expect 2 beyond 12 scales: P(none) = 0.13); a scale mixture (Laplace of 0.8 and
    1.2 times the scale, half each: 1.1 epsilon) passes; (1) half the noise on values 1e9 scales or more from 0
    passes; (2) noise reused or mirrored between inputs only beyond 2e10 scales passes; (3) noise reused when
    the sensitivity, epsilon or value changes is tested on two values (5 inputs, 25 rounds, one generator: one
    pair of rescaled draws fails), not on other values; (4) correlation with the call 21 or more before (other than half the run)
    passes; (5) an exact release for a sensitivity below 1e-6, an epsilon
    below 1e-5 or above 1e6, or values beyond 2e13 scales passes (outside the ranges tested), and one exact only
    in a band narrower than a stratum (a factor 1.088 of epsilon, 1.080 of sensitivity, 1.122 of |value| /
    scale) is caught with probability its share of a stratum; another noise family of the right mean |noise| (7)
    is seen only over windows of 16 or more cases; an epsilon floored at 2e-5 passes with
    probability 0.6, at 1.5e-5 always, a scale capped at 2e8 with probability 0.55, at 3e8 0.95 (simulated, 20
    seeds); (6) a narrow noise component (uniform within b/20, say) in fewer than about 0.2% of calls passes;
    (7) in the band sweep, a Gaussian of the right mean |noise| over fewer than about 32 cases passes (32 cases,
    640 releases: caught with probability at least 0.78; 16 cases 0.13; 64 cases 1; uniform of the right mean
    |noise|: 1 from 8 neighbouring cases in one ordering), and noise bounded only beyond 3 scales, or mostly
    Laplace, passes where only the sweep looks (``"band sweep shape"`` in ``LESSON02_06_POWER``). Another family
    confined to a joint box of two parameters is tested on the cells of a 4 x 4 and an 8 x 8 cut of every pair by
    rank (25 and 6 cases a cell; :func:`_shape_scan.check_box_shape`): uniform in epsilon < 1e-3 x sensitivity <
    1e-3 (21 cases) or in 0.01-1 x 0.01-1 fails; a Gaussian in a box of a decade of epsilon x a decade of
    sensitivity (about 4 of the 400 cases, 80 releases) passes (referee s39rA ``gauss_box``); (8) noise rounded to a
    step before it is added (a grid anchored at the value) fails on a main case (36,000 releases) for steps of 1, 2
    or 5 x 10^k down to about 1e-7 scales at |value| <= 1e3 scales (1e-6 at 1e4, 1e-5 at 1e6, 1e-4 at 1e8 scales;
    ``_grid_anchor``; other steps: 1.2345e-4 but not 1.2345e-5 at 1e6 scales, not 1.2345e-3 at 1e8); over 8
    neighbouring band cases (160 releases) steps of 1e-5 scales or more fail (1.2345e-3 beyond 1e7 scales), 3e-7
    and 1.2345e-6 beyond 1e7 scales pass, and so does a grid, exact call or mirrored pair in a region holding fewer
    than 8 neighbouring band cases (grid) or no band case (exact, mirrors: ``"band calls"`` in the power table).

    Parameters
    ----------
    answer : callable
        The student's ``laplace_mechanism`` (exercise 02.1).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    z_all = []
    cases = _laplace_cases(seed)
    for index in range(_len(cases)):
        value, sensitivity, epsilon, draw_seed = _laplace_cases(seed)[index]
        where = f"For value={value:g}, sensitivity={sensitivity:.6g}, epsilon={epsilon:.6g}:"
        releases = _releases("02.1", answer, (value, sensitivity, epsilon), draw_seed, where)
        value, sensitivity, epsilon, _ = _laplace_cases(seed)[index]  # recomputed after the student ran
        scale = sensitivity / epsilon
        z = (releases - value) / scale
        check_not_float32([releases], where)  # before the near-answer test (referee s40rA D5: float32 arithmetic)
        _stats.check_laplace_noise(z, where, inverted=(epsilon / sensitivity) / scale,
                                   centre_hint="Add noise to the value; do not return the noise alone or shift it.")
        _stats.check_fresh_noise(releases, value, scale, "laplace", where)
        _stats.check_near_answer(releases, value, scale, "laplace", where)
        _stats.check_no_mirrors(releases, value, scale, where)
        z_all.append(z)
    _sweeps.check_independent_calls(z_all, "Over every case,", lags=tuple(range(1, 21)), unit="call")
    _sweeps.check_pooled_tails(z_all, "laplace", "Over every case,")
    _sweeps.check_pooled_near_answer(z_all, "Over every case,")
    value, sensitivity, epsilon, draw_seed = _laplace_cases(seed)[-1]
    releases = _fresh_generator_releases("02.1", answer, (value, sensitivity, epsilon), draw_seed, FRESH_GENERATORS)
    value, sensitivity, epsilon, _ = _laplace_cases(seed)[-1]
    where = f"With a new generator for every call (value={value:g}, sensitivity={sensitivity:.6g}, epsilon={epsilon:.6g}):"
    _stats.check_laplace_noise((releases - value) / (sensitivity / epsilon), where)
    _stats.check_fresh_noise(releases, value, sensitivity / epsilon, "laplace", where)
    _stats.check_no_mirrors(releases, value, sensitivity / epsilon, where)
    check_laplace_bands(lambda *args: _many("02.1", answer, *args), seed)
    _shared_calls.check_shared_generator(lambda *args: _call("02.1", answer, *args),
                                         lambda: _shared_laplace_cases(seed), seed,
                                         mixed=lambda: _mixed_laplace_cases(seed))


# ------------------------------------------------------------------------------------- 02.2
def _sensitivity_cases(seed: int):
    rng = _default_rng(seed)
    cases = [(0.0, 10.0, 16), (-5.0, 3.0, 50), (-20.0, -4.0, 7)]
    for _ in range(24):
        shape = rng.integers(0, 5)
        a, b = sorted(rng.uniform(-1000, 1000, 2))
        if shape == 1:
            a, b = _float(rng.uniform(-1000, -1)), _float(rng.uniform(0, 10))   # |lower| the larger
        elif shape == 2:
            a, b = _float(rng.uniform(1, 100)), _float(rng.uniform(100, 1000))  # positive lower bound
        elif shape == 3:
            a, b = _float(rng.uniform(-1000, -100)), _float(rng.uniform(-99, -1))  # both negative
        cases.append((_float(a), _float(b), int(rng.integers(1, 100_000))))
    return cases + _sensitivity_edge_cases(_default_rng([seed, 22]))


def _sensitivity_edge_cases(rng):
    """(lower, upper, n) at the edges the text allows: a bound exactly 0 (upper 0, lower 0), |lower| equal
    to |upper|, bounds a hair apart, tiny (1e-9 to 1e-3) and huge (1e6 to 1e12) bounds, n = 1 and n up to
    1e12, and Python int and NumPy int32/int64 bounds (the text's own example is in integers). No float32
    bounds: a mean computed from them in float32 is off by a relative 1e-8, above the check's 1e-9."""
    tiny, huge = _log_uniform(rng, 1e-9, 1e-3), _log_uniform(rng, 1e6, 1e12)
    width = _log_uniform(rng, 1, 100)
    return [
        (-width, 0.0, int(rng.integers(2, 1000))), (0.0, width, 1), (-width, width, int(rng.integers(2, 1000))),
        (-tiny, tiny / 3, int(rng.integers(1, 50))), (tiny / 4, tiny, int(rng.integers(1, 50))),
        (-huge, -huge / 7, int(rng.integers(1, 10**6))), (width, width * (1 + 1e-12), 10**12),
        (-5, 3, 100), (int(rng.integers(-90, -10)), int(rng.integers(1, 9)), int(rng.integers(2, 30))),
        (np.int64(rng.integers(-9, 0)), np.int64(rng.integers(10, 99)), np.int64(rng.integers(3, 40))),
        (np.int32(rng.integers(-999, -100)), np.int32(rng.integers(-99, -1)), int(rng.integers(3, 40))),
    ]


def _expected_sensitivity(query: str, lower: float, upper: float, n: int) -> float:
    largest = _max(_abs(_float(lower)), _abs(_float(upper)))
    return {"count": 1.0, "sum": largest, "mean": largest / _float(n)}[query]


@exercise("02.2", title="Sensitivity of a count, a bounded sum and a bounded mean", answer_name="sensitivity")
def check_sensitivity(answer, seed: int = SEED) -> None:
    """A correct answer returns, for add/remove neighbours, 1 for a count, max(|lower|, |upper|) for a
    sum and that divided by the public n for a mean, for bounds drawn from ``seed`` covering both signs,
    a positive lower bound, both bounds negative and |lower| > |upper|, and n from 1 to 100,000; and the
    edge cases: a bound exactly 0, |lower| = |upper|, bounds a hair apart, tiny (1e-9) and huge (1e12)
    bounds, n = 1 and n = 1e12, Python int and NumPy int32/int64 bounds (to a relative 1e-9).

    Parameters
    ----------
    answer : callable
        The student's ``sensitivity`` (exercise 02.2).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(len(_sensitivity_cases(seed))):
        for query in ("count", "sum", "mean"):
            lower, upper, n = _sensitivity_cases(seed)[index]
            got = expect_number(_call("02.2", answer, query, lower, upper, n), "a sensitivity")
            lower, upper, n = _sensitivity_cases(seed)[index]
            expected = _expected_sensitivity(query, lower, upper, n)
            if _isclose(got, expected, rel_tol=1e-9):
                continue
            where = f"For query={query!r} with bounds [{lower:.6g}, {upper:.6g}] and n={n}:"
            if got <= 0:
                raise CheckFailed(f"{where} a sensitivity is a largest change, so it must be > 0.")
            if query == "count":
                raise CheckFailed(f"{where} the count's sensitivity is off. By how much can a count change when "
                                  "one person is added or removed? The bounds and n do not matter.")
            lower, upper = _float(lower), _float(upper)
            replace_one = (upper - lower) if query == "sum" else (upper - lower) / n
            if _isclose(got, replace_one, rel_tol=1e-9):
                raise CheckFailed(f"{where} that would be right if neighbours differed by *replacing* one person "
                                  "(property: neighbour relation). Here one person is added or removed: by how "
                                  "much can one added value in [lower, upper] move the sum?")
            if query == "mean" and _isclose(got, _expected_sensitivity("sum", lower, upper, n), rel_tol=1e-9):
                raise CheckFailed(f"{where} you returned the sum's sensitivity; how does the (public) n enter "
                                  "the mean?")
            if _isclose(got, _float(np.float32(expected)), rel_tol=1e-12) or _abs(got - expected) <= 1e-6 * expected:
                raise CheckFailed(f"{where} the sensitivity is off by a rounding (property: exact): compute it in "
                                  "double precision, without rounding it (the bounds may be tiny or huge).")
            raise CheckFailed(f"{where} the sensitivity is off. Find the largest amount the answer can move when "
                              "one person with any value in [lower, upper] is added or removed (the bounds may "
                              "both be negative, or both positive).")


# ------------------------------------------------------------------------------------- 02.3
def _epsilon_cases(seed: int):
    rng = _default_rng(seed)
    cases = [(1.0, 5.0, 0.95)]
    for _ in range(20):
        confidence = [_float(rng.uniform(0.01, 0.5)), _float(rng.uniform(0.5, 0.99)),
                      1 - _log_uniform(rng, 1e-9, 1e-2)][int(rng.integers(0, 3))]
        cases.append((_log_uniform(rng, 1e-3, 1e5), _log_uniform(rng, 1e-3, 1e5), confidence))
    return cases + _epsilon_edge_cases(_default_rng([seed, 23]))


def _epsilon_edge_cases(rng):
    """(sensitivity, max_error, confidence) at the edges the text allows: confidences from 1e-8 to 1e-3 and
    exactly 0.5, sensitivities and errors of 1e-8 and 1e8, max_error equal to the sensitivity, Python int and
    NumPy int64 sensitivities and errors (the text's own example is in integers) and float32 ones."""
    return [
        (1.0, _log_uniform(rng, 1, 100), _log_uniform(rng, 1e-8, 1e-3)),
        (_log_uniform(rng, 1e-3, 10), _log_uniform(rng, 1e-3, 10), _log_uniform(rng, 1e-8, 1e-5)),
        (_log_uniform(rng, 1e-9, 1e-7), _log_uniform(rng, 1e7, 1e9), 0.5),
        (_log_uniform(rng, 1e7, 1e9), _log_uniform(rng, 1e-9, 1e-7), _float(rng.uniform(0.5, 0.999))),
        (3.25, 3.25, 1 - _log_uniform(rng, 1e-6, 1e-2)),
        (1, 5, 0.95), (int(rng.integers(1, 20)), int(rng.integers(1, 200)), _float(rng.uniform(0.01, 0.99))),
        (np.int64(rng.integers(1, 20)), np.int64(rng.integers(1, 200)), _float(rng.uniform(0.01, 0.99))),
        (np.float32(rng.uniform(0.1, 10)), np.float32(rng.uniform(0.1, 10)), _float(rng.uniform(0.5, 0.99))),
    ]


@exercise("02.3", title="The smallest epsilon that meets an accuracy goal", answer_name="smallest_epsilon")
def check_smallest_epsilon(answer, seed: int = SEED) -> None:
    """A correct answer returns sensitivity * ln(1 / (1 - confidence)) / max_error (to 1e-6), the
    epsilon at which P(|Laplace| <= max_error) is exactly ``confidence``, for sensitivities and
    errors from 1e-3 to 1e5 and confidences from 0.01 to 1 - 1e-9 drawn from ``seed``, and the edge
    cases: confidences from 1e-8 to 1e-3 and 0.5, sensitivities and errors of 1e-8 and 1e8, max_error
    equal to the sensitivity, Python int, NumPy int64 and float32 sensitivities and errors.

    Parameters
    ----------
    answer : callable
        The student's ``smallest_epsilon`` (exercise 02.3).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for index in range(len(_epsilon_cases(seed))):
        sensitivity, max_error, confidence = _epsilon_cases(seed)[index]
        got = expect_number(_call("02.3", answer, sensitivity, max_error, confidence), "an epsilon")
        sensitivity, max_error, confidence = _epsilon_cases(seed)[index]
        sensitivity, max_error = _float(sensitivity), _float(max_error)
        expected = sensitivity * -_log1p(-confidence) / max_error
        if _isclose(got, expected, rel_tol=1e-6):
            continue
        where = f"For sensitivity={sensitivity:.6g}, max_error={max_error:.6g}, confidence={confidence:.10g}:"
        if got <= 0:
            raise CheckFailed(f"{where} epsilon must be > 0.")
        achieved = -_expm1(-max_error * got / sensitivity)  # P(|Laplace(sensitivity/got)| <= max_error)
        if achieved < confidence:
            raise CheckFailed(f"{where} with your epsilon the noise is too large (property: the goal is met): the "
                              "release lands within max_error of the truth less often than asked. Use the tail "
                              "probability of Laplace noise: P(|noise| > t) for scale b.")
        raise CheckFailed(f"{where} your epsilon meets the goal but is not the smallest (property: smallest): a "
                          "smaller epsilon, which protects people better, would still reach the confidence.")


# ------------------------------------------------------------------------------------- 02.4
def _sum_cases(seed: int):
    """(values, lower, upper, epsilon, draw seed, kind). Five small cases of chosen shapes (n 5 to 60), a
    neighbouring pair (data well inside the bounds, then the same data plus one person far beyond the
    larger bound: a bound read from the data moves), data inside a tenth of the bounds at 1,000-10,000 and
    10,000-120,000 values (a scale read from the data only above a size), and the corners of n 1 to 120,000 x
    epsilon 1e-2 to 20 (integer values in one of them)."""
    rng = _default_rng(seed)
    cases = []
    for kind in range(5):
        n = int(rng.integers(5, 60))
        if kind == 0:    # values on both sides of the bounds, negative lower bound, |lower| largest
            lower, upper = -_log_uniform(rng, 5, 50), _log_uniform(rng, 1, 5)
            values = rng.uniform(2 * lower, 3 * upper, n)
        elif kind == 1:  # positive lower bound: values below it must be raised to it, not dropped
            lower = _log_uniform(rng, 1, 20)
            upper = lower + _log_uniform(rng, 1, 50)
            values = rng.uniform(0, 2 * upper, n)
        elif kind == 2:  # every value strictly inside the bounds, spanning only part of them
            lower, upper = -_log_uniform(rng, 1, 10), _log_uniform(rng, 10, 100)
            values = rng.uniform(lower / 4, upper / 4, n)
        elif kind == 3:  # a value exactly on each bound, both bounds negative
            upper = -_log_uniform(rng, 1, 10)
            lower = upper - _log_uniform(rng, 1, 10)
            values = np.concatenate([[lower, upper], rng.uniform(lower - 5, upper + 5, n)])
        else:            # every value inside, |lower| the larger bound, no value near it
            lower, upper = -_log_uniform(rng, 10, 100), _log_uniform(rng, 1, 10)
            values = rng.uniform(lower / 4, upper, n)
        epsilon = _log_uniform(rng, 0.01, 10)
        cases.append((rng.permutation(values), _float(lower), _float(upper), epsilon, int(rng.integers(1, 2**31)),
                      "inside" if kind in (2, 4) else "shape"))
    # A neighbouring pair chosen to hurt a data-derived bound: D inside a tenth of the bounds, D + one person.
    lower, upper = -_log_uniform(rng, 1, 10), _log_uniform(rng, 10, 100)
    values = rng.uniform(lower / 10, upper / 10, int(rng.integers(20, 400)))
    epsilon = _log_uniform(rng, 0.1, 10)
    cases.append((values, _float(lower), _float(upper), epsilon, int(rng.integers(1, 2**31)), "inside"))
    cases.append((rng.permutation(np.append(values, 5 * upper)), _float(lower), _float(upper), epsilon,
                  int(rng.integers(1, 2**31)), "neighbour"))
    for low_n, high_n in ((1_000, 10_000), (10_000, 120_000)):  # a scale read from the data only above a size
        lower, upper = -_log_uniform(rng, 1, 10), _log_uniform(rng, 10, 100)
        values = rng.uniform(lower / 10, upper / 10, int(_log_uniform(rng, low_n, high_n)))
        cases.append((values, _float(lower), _float(upper), _log_uniform(rng, 0.1, 10), int(rng.integers(1, 2**31)),
                      "inside"))
    # Far beyond the sweep's sizes (1,000,000 values, from its own generator so the other cases stay as they were):
    # an answer exact, or with less noise, above some size below 1,000,000 fails here (referee s37rA: with a size
    # drawn from 800,000 to 1,000,000, a scale from the data above 850,000 values passed).
    # "huge": every value inside a tenth of the bounds (a scale read from the data shrinks); "huge clip": values
    # beyond both bounds, 3 releases (values not clipped above a size move the centre by thousands of scales).
    far = _default_rng([seed, 25])
    # "huge sparse": inside the bounds but for 1 to 3 far beyond (referee s40rA D1: clipping only when the first
    # 1,000 values show one outside passed).
    for kind, spread in (("huge", 0.1), ("huge clip", 1.5), ("huge sparse", 1.0)):
        lower, upper = -_log_uniform(far, 0.1, 100), _log_uniform(far, 0.1, 100)
        values = far.uniform(spread * lower, spread * upper, HUGE_SIZE)
        values = with_outliers(far, values, lower, upper) if kind == "huge sparse" else values
        cases.append((values, _float(lower), _float(upper), _log_uniform(far, 0.01, 20), int(far.integers(1, 2**31)),
                      kind))
    for number, case in enumerate(_sweeps.corner_sweep(rng, {"n": _sweeps.SIZES, "epsilon": _sweeps.EPSILONS})):
        lower, upper = -_log_uniform(rng, 0.1, 100), _log_uniform(rng, 0.1, 100)
        values = rng.uniform(1.5 * lower, 1.5 * upper, case["n"])
        if number == 0:
            values = np.round(values).astype(np.int64)
        cases.append((values, _float(lower), _float(upper), case["epsilon"], int(rng.integers(1, 2**31)), "sweep"))
    return cases


#: Releases of the case of HUGE_SIZE values (each call clips them all). Their mean |noise| / scale
#: (1 for Laplace, standard error 1 / sqrt(250) = 0.063) must lie within [0.62, 1.38] (6 standard errors; a
#: correct answer fails with probability below 1e-7): half the noise (0.5) fails; no noise fails
#: check_fresh_noise.
HUGE_DRAWS, HUGE_BAND, HUGE_SIZE = 250, 6 / math.sqrt(250), 1_000_000


def _sum_draws(n: int) -> int:
    """Releases per case: 24,000, fewer for large inputs (each call then clips n values)."""
    return int(_max(3_000, min(SUM_DRAWS, 400_000_000 // _max(n, 1))))


@exercise("02.4", title="A differentially private bounded sum", answer_name="dp_bounded_sum")
def check_dp_bounded_sum(answer, seed: int = SEED) -> None:
    """A correct answer leaves ``values`` unchanged, uses only ``rng``, and its releases (24,000 per case,
    3,000 or more for 100,000 values, 3,000 for the two large cases inside the bounds) are the sum of the values clipped to [lower, upper] plus
    Laplace(max(|lower|, |upper|) / epsilon) noise: centred on the clipped sum (values outside are
    moved to the nearest bound, not dropped), with the scale set by the declared bounds whatever the
    data (cases keep every value well inside them, at sizes up to 60, 400, 10,000 and 120,000, either bound
    the larger, and a neighbouring pair adds one person far beyond), Laplace tails, independent draws, never
    the exact sum, never the same release twice, no grid anchored at the sum, and a KS fit, on 14 cases drawn
    from ``seed``: negative, positive and mixed bounds, values exactly on the bounds, integer values, and
    every corner of n 1 to 120,000 x epsilon 1e-2 to 20, plus 3 releases on 1,000,000 values inside the bounds
    but for 1 to 3 far beyond (centre within 20 scales), 250 releases on 1,000,000 values
    (inside a tenth of the bounds; mean |noise| within [0.62, 1.38] scales: exact, half the noise or a scale
    from the data above a size fails) and 3 on as many beyond both bounds (centre within 20 scales: values
    not clipped above a size fail), no more releases
    within 1e-3 or 1e-2 scales of the sum than Laplace noise puts there and no pairs of releases averaging to
    it (mirrors at any lag). Over all cases the noise reaches the pooled tails
    (noise clipped below 9.5 scales fails) and no call's noise predicts a later call's (lags 1-20 and half the
    run); 100 releases from
    new generators pass the same tests. Then a band sweep (:func:`_lesson02_bands.check_sum_bands`): 20 releases
    at each of 300 cases stratified on n 1 to 120,000, epsilon 1e-3 to 20 and the larger bound 0.1 to 100 (one case
    per 1/300 of each log range: consecutive values a factor 1.040, 1.034 and 1.023 apart), 20 at each of 100
    stratified on the scale 5e-3 to 1e6: every fourth case inside the bounds but for 1 to 3 values far beyond
    one at random positions (median within 20 scales of the clipped sum: clipping only when a sample of the
    values shows one outside fails; referee s40rA D1), the call tests of 02.1's band sweep on every release
    (:func:`_band_calls.check_call_sequences`), first releases: at most 4 of 400 within 1e-3
    scales of it, Laplace pooled, and the mean |noise| of every window of 1, 4, 16 and 64 cases ordered by n,
    epsilon, the larger bound or the scale in its Gamma band (:func:`_scale_scan.check_band_scale`, 1e-4 over
    all: an epsilon floored at 0.002 or more, or a scale capped at 1e5 or less, fails; ``LESSON02_06_POWER``),
    and the shape of those windows and of joint cells as in 02.1; the odd band cases keep every value inside a
    tenth of the bounds (mean |noise| at least 0.256 scales each: a scale read from the data, 0.1, at any n and
    epsilon jointly fails; :func:`_lesson02_bands.check_inside_spread`).
    Then 64 releases on one case in each of 16 log strata of 120,000 to 1,000,000 values (one offset shared:
    sizes exactly a factor 1.142 apart), at epsilons in 16 strata of 1e-3 to 20 paired with the sizes at random,
    inside a tenth of the bounds but for 1 to 3 far below the lower one (:func:`_lesson02_sizes.check_sum_midsizes`:
    centred on the clipped sum, the band's call tests over pairs of cases, mean |noise| at least 0.51 scales, Laplace pooled,
    windows of 1, 4 and 16 cases ordered by n in their Gamma band: exact, or a scale from the data, in a band of
    sizes wider than a factor 1.142 fails; with the 1,000,000-value case, the shape of windows of 4 and 8 cases
    and of 2 to 17 from either end: Gaussian noise above 120,000 or 200,000 values fails). Over the main
    cases no more releases lie within 1e-2 or 5e-2 scales of the sum than Laplace puts there
    (:func:`_sweeps.check_pooled_near_answer`). Then 25
    rounds over 14 inputs of one scale from one shared generator (:func:`_shared_calls.check_shared_generator`):
    the example's integer bounds [0, 10], a bound of 0.0 either side, symmetric bounds, int64 and float32
    values, one value, equal values, every value above the upper bound, an empty array (the sum is 0.0), and
    int64, float32 and int32 values inside a tenth of the larger bound and values all above an upper bound
    a tenth of |lower| or less (their mean |noise| at least 0.25 scales: a scale read from the data fails);
    noise reused, negated or correlated between inputs, or an exact sum for one kind of input, fails; then 25
    rounds over 5 inputs varying epsilon (1, 1/3 times), the bounds (1, 2 times) and the data: a standard draw
    kept when any setting changes fails.
    Limits: an answer exact, short of noise or with a scale from the data only above 1,000,000 values passes (not
    called); one exact or with a scale from the data in a band of sizes narrower than a factor 1.142 between
    120,000 and 1,000,000 is caught with probability its log width over log 1.142, and less noise there (not from
    the data) only below 0.74 scales over 4 strata or 0.51 in one; a Gaussian of the right mean |noise| only
    above a size passes with probability at most 0.003 above 200,000 values (954 releases from 11 strata and the
    1,000,000-value case), 0.15 above 500,000 (570), 0.52 above 800,000 (378); uniform noise of the right mean
    |noise| there fails (power 1 from 378 releases); (1) exact for epsilon above 20 or below 1e-3
    passes (not called), one exact in a band narrower than a stratum of the band sweep (n a factor 1.040, epsilon
    1.034, the larger bound 1.023) is caught with probability its share of a stratum, and an epsilon floored at
    0.0015 or a scale capped at 5e5 passes (0 of 20 simulated seeds fail; the ends tried are 1e-3 and 1e6);
    (2) noise reused when epsilon, the bounds or the data change is tested on two datasets (5 inputs, 25
    rounds, one generator: one pair of rescaled draws fails), not on others; (3) noise correlated with the call
    21 or more before (other than half the run) passes; (4) a narrow noise component (uniform within b/20, say)
    in fewer than about 0.25% of calls passes; (5) another noise family of the right mean |noise| in the band
    sweep: as 02.1's limit (7); (6) a scale read from the data is caught in a box of n x epsilon holding one odd
    band case (200 of 400; a box of n 1,000-120,000 x epsilon 1e-3 to 0.05 holds about 33) or, above 120,000
    values, one mid-size case (a box of a size stratum x an epsilon stratum, 1/256 of the log area, may hold none:
    above 150,000 values and below epsilon 0.1, 6-8 cases at seeds 0-3); a data scale above 1/4 of the bound
    (mean |noise| above 0.256) passes the per-case floor.

    Parameters
    ----------
    answer : callable
        The student's ``dp_bounded_sum`` (exercise 02.4).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    z_all, huge_z = [], None
    for index in range(_len(_sum_cases(seed))):
        values, lower, upper, epsilon, draw_seed, kind = _sum_cases(seed)[index]
        where = f"For {len(values)} values, bounds [{lower:.6g}, {upper:.6g}], epsilon={epsilon:.6g}:"
        given = values.copy()
        _call("02.4", answer, given, lower, upper, epsilon, _default_rng(draw_seed))
        if not _array_equal(given, values):
            raise CheckFailed(f"{where} your function changed the `values` array it was given; clip a copy.")
        draws = 3_000 if kind == "inside" and _len(values) > 1_000 else _sum_draws(_len(values))  # spread only
        draws = {"huge": HUGE_DRAWS, "huge clip": 3, "huge sparse": 3}.get(kind, draws)
        releases = _releases("02.4", answer, (given, lower, upper, epsilon), draw_seed, where, draws=draws)
        values, lower, upper, epsilon, _, kind = _sum_cases(seed)[index]
        centre = _fsum(_clip(values.astype(float), lower, upper))
        scale = _max(_abs(lower), _abs(upper)) / epsilon
        outside = bool(((values < lower) | (values > upper)).any())
        hint = ("They should centre on the sum after each value is clipped to [lower, upper]: values outside the "
                "bounds are moved to the nearest bound, not dropped or kept as they are." if outside else
                "Every value here lies inside [lower, upper], so the centre is the plain sum.")
        if kind == "inside":
            where += " (every value inside the bounds)"
            spread = _float(np.mean(np.abs(releases - np.median(releases)))) / scale
            if spread < 0.8 and _float(np.ptp(releases)) > 0:  # (no noise at all gets its own hint below)
                raise CheckFailed(f"{where} your noise shrinks when the data stay inside the bounds (property: "
                                  "data-independent scale). The sensitivity comes from the declared bounds, "
                                  "never from the data's own minimum or maximum.")
        z = (releases - centre) / scale
        if kind in ("huge clip", "huge sparse"):  # 3 releases: noise, and a centre within 20 scales (Laplace: beyond w.p. 2e-9)
            if _float(np.ptp(z)) == 0:
                raise CheckFailed(f"{where} every release is the same number: no noise is added above some size.")
            if _abs(_float(np.median(z))) > 20:
                raise CheckFailed(f"{where} the releases are {_float(np.median(z)):+.3g} scales from the sum of the "
                                  "clipped values (property: centre, at every size). " + hint
                                  + (" Clip every value: the few outside can be anywhere in the array, so a sample of "
                                     "the values does not tell whether clipping is needed." if kind == "huge sparse"
                                     else ""))
            continue
        if kind == "huge" and _float(np.ptp(z)) > 0 and _abs(_float(np.mean(np.abs(z))) - 1) > HUGE_BAND:
            raise CheckFailed(f"{where} the releases vary by {_float(np.mean(np.abs(z))):.2f} Laplace scales on "
                              "average, where the noise gives 1 (property: scale, at every size). The noise scale "
                              "is max(|lower|, |upper|) / epsilon whatever the number of values.")
        _stats.check_laplace_noise(z, where, centre_hint=hint)
        huge_z = z if kind == "huge" else huge_z
        _stats.check_fresh_noise(releases, centre, scale, "laplace", where)
        _stats.check_near_answer(releases, centre, scale, "laplace", where)
        _stats.check_no_mirrors(releases, centre, scale, where)
        z_all.append(z)
    _sweeps.check_independent_calls(z_all, "Over every case,", lags=tuple(range(1, 21)), unit="call")
    _sweeps.check_pooled_tails(z_all, "laplace", "Over every case,")
    _sweeps.check_pooled_near_answer(z_all, "Over every case,")
    values, lower, upper, epsilon, draw_seed, _ = _sum_cases(seed)[-1]
    releases = _fresh_generator_releases("02.4", answer, (values.copy(), lower, upper, epsilon), draw_seed,
                                         FRESH_GENERATORS)
    values, lower, upper, epsilon, _, _ = _sum_cases(seed)[-1]
    centre, scale = _fsum(_clip(values.astype(float), lower, upper)), _max(_abs(lower), _abs(upper)) / epsilon
    where = f"With a new generator for every call ({len(values)} values, epsilon={epsilon:.6g}):"
    _stats.check_laplace_noise((releases - centre) / scale, where)
    _stats.check_fresh_noise(releases, centre, scale, "laplace", where)
    _stats.check_no_mirrors(releases, centre, scale, where)
    check_sum_bands(lambda *args: _many("02.4", answer, *args), seed)
    check_sum_midsizes(lambda *args: _many("02.4", answer, *args), seed, huge=huge_z)
    _shared_calls.check_shared_generator(lambda *args: _call("02.4", answer, *args),
                                         lambda: _shared_sum_cases(seed), seed, mixed=lambda: _mixed_sum_cases(seed))
