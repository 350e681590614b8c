"""07.4 on large data at many epsilons: a mean (or bound) released without noise there must fail.

Referee s40rB D4: an answer that releases the exact mean above 150,000 values at epsilon 0.5 or more passed, as
the only case above 100,000 values (1,000,001 to 1,100,000, in ``lesson07_selection._clipping_cases``) is at
epsilon 0.05. :func:`large_cases` adds a corner case of 1,000,001 to 1,100,000 values at epsilon 30 (the largest
epsilon of the check) and :data:`LARGE_POINTS` cases of 100,001 to 1,000,000 values on a Fibonacci lattice of
log sizes x log epsilons over 0.05 to 30, each called only a few times: a release without noise is seen in one
call, so these cases test only that (and that the bound varies); the noise's scale is tested on the other cases.
"""

from __future__ import annotations

import numpy as np

from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly
from mic_dp_helpers.checks._rnm_cases import _log_scaled

_default_rng, _clip, _abs = np.random.default_rng, np.clip, np.abs

#: Points of the lattice (log sizes x log epsilons), its multiplier (8 and 5: consecutive Fibonacci numbers), and
#: calls per point.
LARGE_POINTS, LARGE_STEP, LARGE_CALLS = 8, 5, 2
#: The lattice's sizes and epsilons (log-spaced, one random offset each).
LARGE_SIZES, LARGE_EPSILONS = (100_001, 1_000_000), (0.05, 30.0)
#: The corner case: sizes (drawn uniformly), epsilon and calls.
CORNER_SIZES, CORNER_EPSILON, CORNER_CALLS = (1_000_001, 1_100_000), 30.0, 3
#: The level and public bound of every case, and the range of their bound shares.
LARGE_LEVEL, LARGE_HIGH, LARGE_SHARES = 0.95, 1000.0, (0.3, 0.6)
#: A release counts as noise-free when it is within this much (relative to max(1, |clipped mean|)) of the mean of
#: the values clipped to its bound. A correct answer's noise is that small with chance below 1e-10 |m| n
#: (1 - share) epsilon / upper per call (|m| about 18-27, upper about 74): at most 7e-4 at 1,000,000 values and
#: epsilon 30, so 2e-7 for the corner's 3 calls and 5e-7 for a lattice point's 2 (7e-7 at most in all).
NOISE_FREE = 1e-10


def large_cases(generator, rounded_values) -> list[tuple]:
    """The corner case, then the lattice's: (values, level, public_high, epsilon, bound_share, calls).

    Point i of the lattice lies at ((i + a) / 8, (5 i / 8 + b) mod 1) on the unit square of log sizes x log
    epsilons, offsets a and b drawn: every rectangle of that square larger than 2/8 of it holds a point (the
    sizes above 150,000 at epsilon 0.5 or more are 0.64 x 0.82 of it). The corner case lies above every
    threshold of size up to 1,000,000 and of epsilon up to 30: an answer without noise on all sizes above some N
    below 1,000,001 and all epsilons above some E up to 30 fails there.

    Parameters
    ----------
    generator : numpy.random.Generator
        The check's generator.
    rounded_values : callable
        ``rounded_values(n)``: n values as the other cases draw them.

    Returns
    -------
    list of tuple
        1 + :data:`LARGE_POINTS` cases.
    """
    corner = int(generator.integers(*CORNER_SIZES))
    points = [(corner, CORNER_EPSILON, CORNER_CALLS)]
    offsets, i = generator.random(2), np.arange(LARGE_POINTS)
    sizes = _log_scaled((i + offsets[0]) / LARGE_POINTS, *LARGE_SIZES)
    epsilons = _log_scaled((i * LARGE_STEP / LARGE_POINTS + offsets[1]) % 1.0, *LARGE_EPSILONS)
    points += [(int(n), epsilon, LARGE_CALLS) for n, epsilon in zip(sizes, epsilons)]
    return [(rounded_values(n), LARGE_LEVEL, LARGE_HIGH, epsilon, float(generator.uniform(*LARGE_SHARES)), calls)
            for n, epsilon, calls in points]


def check_large_sizes(answer, generator, rounded_values, bound_and_mean) -> None:
    """Call the answer on each of :func:`large_cases` and fail a release without noise or a fixed bound.

    Parameters
    ----------
    answer : callable
        The student's ``private_bound_and_mean(values, level, public_high, epsilon, bound_share, rng)``.
    generator : numpy.random.Generator
        The check's generator (the cases and the answer's generators are drawn from it).
    rounded_values : callable
        ``rounded_values(n)``: n values as the other cases draw them.
    bound_and_mean : callable
        ``bound_and_mean(raw, where)``: the (upper, mean) pair of one result, or CheckFailed.

    Raises
    ------
    CheckFailed
        When every call's mean is within :data:`NOISE_FREE` of the clipped mean, every call's bound is the same,
        or a bound lies outside [0, public_high].
    """
    for values, level, high, epsilon, share, calls in large_cases(generator, rounded_values):
        where = (f"For {len(values):,} values, level={level:.3g}, public_high={high:.4g}, epsilon={epsilon:.3g}, "
                 f"bound_share={share:.3g}:")
        results = [bound_and_mean(r, where) for r in call_repeatedly(
            answer, calls, values.copy(), level, high, epsilon, share, _default_rng(int(generator.integers(2**31))))]
        uppers = np.array([r[0] for r in results])
        if uppers.min() < 0 or uppers.max() > high:
            raise CheckFailed(f"{where} an upper bound fell outside the public range [0, public_high].")
        if np.ptp(uppers) == 0:
            raise CheckFailed(f"{where} the upper bound is the same on every call: it is computed from the data "
                              "without noise, however many values there are, so it leaks. Choose it with a DP quantile.")
        clipped = np.array([_clip(values, 0.0, upper).mean() for upper in uppers])
        means = np.array([r[1] for r in results])
        if np.all(_abs(means - clipped) <= NOISE_FREE * np.maximum(1.0, _abs(clipped))):
            raise CheckFailed(f"{where} the mean is released without noise. With many values the Laplace noise, of "
                              "scale upper / (n * (1 - bound_share) * epsilon), is tiny, but without it the mean is "
                              "not private: one person's value changes the exact mean, and the release shows it. "
                              "Add the noise however many values there are and whatever epsilon is.")
