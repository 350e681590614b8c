"""Checks for lesson 02 (the Laplace mechanism).

Neighbouring datasets differ by adding or removing one person (the course's convention). Random
answers are checked statistically: each check draws many outputs from a generator with a fixed
seed and compares their centre, spread and shape with the Laplace mechanism's. The tolerances
are stated next to each test; at these sample sizes a correct answer fails with probability
below about 1e-5 (and, the seeds being fixed, the reference solution is verified to pass).
The student's function is always called with positional arguments.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number

N_DRAWS = 20_000
#: Relative tolerance on the variance of the noise. The sample variance of Laplace noise has a
#: relative standard error of sqrt(5 / N) = 1.6% at N = 20,000, so 10% is about 6 standard errors.
VARIANCE_TOLERANCE = 0.10
#: The median of the releases must be within this many standard deviations / sqrt(N) of the
#: true value (the median's standard error for Laplace noise is 0.71 of that unit: 8.5 SEs).
CENTRE_TOLERANCE_SDS = 6.0
#: Kolmogorov-Smirnov p-value below which the noise is declared "not Laplace". Gaussian noise of
#: the same variance sits 0.062 away in KS distance, which at N = 20,000 gives p < 1e-60.
SHAPE_P_VALUE = 1e-6


def _releases(call, seed: int, n: int = N_DRAWS) -> np.ndarray:
    """Call ``call(rng)`` ``n`` times with one seeded generator; return the outputs as floats."""
    first = expect_number(call(np.random.default_rng(seed)), "the noisy release")
    again = expect_number(call(np.random.default_rng(seed)), "the noisy release")
    if first != again:
        raise CheckFailed(
            "two runs with identically seeded generators gave different releases. Draw all the noise "
            "from the `rng` argument you are given (not from np.random or a new generator), so results "
            "can be reproduced."
        )
    rng = np.random.default_rng(seed)
    return np.array([expect_number(call(rng), "the noisy release") for _ in range(n)])


def _check_laplace_releases(releases: np.ndarray, centre: float, scale: float, where: str,
                            inverted_scale: float | None = None, centre_hint: str = "") -> None:
    """Statistical test that ``releases`` look like ``centre + Laplace(scale)``."""
    noise = releases - centre
    if np.ptp(releases) == 0:
        raise CheckFailed(f"{where} every release is the same number: no noise is added, so nothing is private.")
    n = len(noise)
    spread = float(noise.std())
    if abs(float(np.median(noise))) > CENTRE_TOLERANCE_SDS * spread / math.sqrt(n):
        raise CheckFailed(
            f"{where} the releases are not centred on the true answer: the noise must be symmetric around 0, "
            "so the release is right on average." + (f" {centre_hint}" if centre_hint else "")
        )
    ratio = float(noise.var()) / (2 * scale**2)
    if abs(ratio - 1) > VARIANCE_TOLERANCE:
        if inverted_scale is not None and abs(float(noise.var()) / (2 * inverted_scale**2) - 1) <= VARIANCE_TOLERANCE:
            raise CheckFailed(
                f"{where} the amount of noise is wrong: it looks as if sensitivity and epsilon are the wrong "
                "way round in the noise scale. More sensitivity, or a smaller epsilon, must mean more noise."
            )
        amount = "too little noise: the release is not epsilon-DP" if ratio < 1 else "more noise than the mechanism needs"
        raise CheckFailed(
            f"{where} the releases vary the wrong amount ({amount}). Check how the noise scale is computed "
            "from the sensitivity and epsilon."
        )
    p_value = float(stats.kstest(noise / scale, "laplace").pvalue)
    if p_value < SHAPE_P_VALUE:
        raise CheckFailed(
            f"{where} the amount of noise is right but its distribution is not: the Laplace mechanism needs "
            "Laplace noise (sharply peaked at 0, with exponential tails), not another distribution with the "
            "same variance."
        )


# ------------------------------------------------------------------------------------- 02.1
LAPLACE_CASES = ((16.0, 1.0, 0.5, 101), (-3.5, 10.0, 2.0, 102), (1000.0, 0.25, 0.1, 103))


@exercise("02.1", title="Implement the Laplace mechanism", answer_name="laplace_mechanism")
def check_laplace_mechanism(answer) -> None:
    for value, sensitivity, epsilon, seed in LAPLACE_CASES:
        where = f"For value={value}, sensitivity={sensitivity}, epsilon={epsilon}:"
        releases = _releases(lambda rng: answer(value, sensitivity, epsilon, rng), seed)
        _check_laplace_releases(
            releases, value, sensitivity / epsilon, where, inverted_scale=epsilon / sensitivity,
            centre_hint="Add noise to the value; do not return the noise alone or shift it.")


# ------------------------------------------------------------------------------------- 02.2
SENSITIVITY_BOUNDS = ((0.0, 10.0), (-5.0, 3.0), (2.0, 10.0), (-20.0, -4.0), (0.0, 1.0), (0.0, 200_000.0))
SENSITIVITY_N = (16, 50, 1000)


def _expected_sensitivity(query: str, lower: float, upper: float, n: int) -> float:
    largest = max(abs(lower), abs(upper))
    return {"count": 1.0, "sum": largest, "mean": largest / n}[query]


@exercise("02.2", title="Sensitivity of a count, a bounded sum and a bounded mean", answer_name="sensitivity")
def check_sensitivity(answer) -> None:
    for query in ("count", "sum", "mean"):
        for lower, upper in SENSITIVITY_BOUNDS:
            for n in SENSITIVITY_N:
                got = expect_number(answer(query, lower, upper, n), "a sensitivity")
                expected = _expected_sensitivity(query, lower, upper, n)
                if math.isclose(got, expected, rel_tol=1e-9):
                    continue
                where = f"For query={query!r} with bounds [{lower:g}, {upper:g}] and n={n}:"
                if got <= 0:
                    raise CheckFailed(f"{where} a sensitivity is a largest change, so it must be > 0.")
                if query == "count":
                    raise CheckFailed(
                        f"{where} the count's sensitivity is off. By how much can the number of patients with a "
                        "condition change when one person is added or removed? The bounds and n do not matter.")
                replace_one = (upper - lower) if query == "sum" else (upper - lower) / n
                if math.isclose(got, replace_one, rel_tol=1e-9):
                    raise CheckFailed(
                        f"{where} that would be right if neighbours differed by *replacing* one person. Here they "
                        "differ by adding or removing one person: by how much can one added value in "
                        "[lower, upper] move the sum?")
                if query == "mean" and math.isclose(got, _expected_sensitivity("sum", lower, upper, n), rel_tol=1e-9):
                    raise CheckFailed(f"{where} you returned the sum's sensitivity; how does the (public) n enter the mean?")
                raise CheckFailed(
                    f"{where} the sensitivity is off. Find the largest amount the answer can move when one person "
                    "with any value in [lower, upper] is added or removed (the bounds may be negative).")


# ------------------------------------------------------------------------------------- 02.3
EPSILON_CASES = ((1.0, 5.0, 0.95), (1.0, 1.0, 0.5), (10.0, 100.0, 0.99), (0.5, 2.0, 0.9),
                 (1000.0, 50.0, 0.999), (2.0, 0.1, 0.8), (200_000.0, 10_000.0, 0.9))


@exercise("02.3", title="The smallest epsilon that meets an accuracy goal", answer_name="smallest_epsilon")
def check_smallest_epsilon(answer) -> None:
    for sensitivity, max_error, confidence in EPSILON_CASES:
        got = expect_number(answer(sensitivity, max_error, confidence), "an epsilon")
        expected = sensitivity * math.log(1 / (1 - confidence)) / max_error
        if math.isclose(got, expected, rel_tol=1e-6):
            continue
        where = f"For sensitivity={sensitivity:g}, max_error={max_error:g}, confidence={confidence:g}:"
        if got <= 0:
            raise CheckFailed(f"{where} epsilon must be > 0.")
        achieved = -math.expm1(-max_error * got / sensitivity)  # P(|Laplace(sensitivity/got)| <= max_error)
        if achieved < confidence:
            raise CheckFailed(
                f"{where} with your epsilon the noise is too large: the release lands within max_error of the "
                f"truth only {achieved:.1%} of the time, less than the {confidence:.1%} asked for. Use the tail "
                "probability of Laplace noise: P(|noise| > t) for scale b.")
        raise CheckFailed(
            f"{where} your epsilon meets the goal ({achieved:.2%} of releases within max_error) but is not the "
            "smallest: a smaller epsilon, which protects people better, would still reach the confidence asked for.")


# ------------------------------------------------------------------------------------- 02.4
SUM_CASES = (
    (np.array([3.0, 7.0, 2.0, 25.0, -4.0, 10.0]), 0.0, 10.0, 1.0, 201),
    (np.array([-8.0, -1.0, 0.5, 2.0, 6.0, 3.0, -5.0]), -5.0, 3.0, 0.5, 202),
    (np.array([0.0, 4.0, 12.0, 9.5, 2.0, 1.0, 30.0, 5.0]), 2.0, 10.0, 2.0, 203),
)


@exercise("02.4", title="A differentially private bounded sum", answer_name="dp_bounded_sum")
def check_dp_bounded_sum(answer) -> None:
    for values, lower, upper, epsilon, seed in SUM_CASES:
        where = f"For values {values.tolist()}, bounds [{lower:g}, {upper:g}], epsilon={epsilon}:"

        given = values.copy()
        answer(given, lower, upper, epsilon, np.random.default_rng(seed))
        if not np.array_equal(given, values):
            raise CheckFailed(f"{where} your function changed the `values` array it was given; clip a copy.")

        def call(rng, given=given, lower=lower, upper=upper, epsilon=epsilon):
            return answer(given, lower, upper, epsilon, rng)

        releases = _releases(call, seed)
        centre = float(np.clip(values, lower, upper).sum())
        _check_laplace_releases(
            releases, centre, max(abs(lower), abs(upper)) / epsilon, where,
            centre_hint="They should centre on the sum after each value is clipped to [lower, upper]: values "
                        "outside the bounds are moved to the nearest bound, not dropped or kept as they are.")
