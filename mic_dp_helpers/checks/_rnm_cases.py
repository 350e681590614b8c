"""The cases of check 07.3 (report-noisy-max with Gumbel noise): fixed cases, far candidates, an epsilon grid, a
size sweep and a sensitivity sweep; the check itself is in ``lesson07_selection`` (split off from it at 600 lines).
"""

from __future__ import annotations

import math

import numpy as np

_arange = np.arange


def rnm_cases(generator):
    """(scores, sensitivity, epsilon, calls): 1 to 100,000 candidates, epsilons 0.01 to 30, and far candidates.

    The 100,000-candidate case (400 calls) is tested in groups of equal expected count by rank and by
    position (``_grouped_cells``): an answer sampling only among the best k candidates, among those within
    some gap of the best, or among a prefix of the list, fails there with power near 1 once the candidates left
    out would be chosen about 80 times in the 400 calls (20% of the chance), about half the time at 45 (11%).

    The "far" cases put many candidates a fixed number ``g`` of Gumbel scales (``2 sensitivity /
    epsilon``) below one best candidate: together they win with probability about ``M e^-g``, so an
    answer that drops them, clips its noise, or returns the exact argmax once the gap is large,
    never picks them. Power (``checks/_stats.py``): M is set so that a correct answer picks one of
    them in about 150 (200 for the farthest) of 10,000 calls, such an answer in none; g reaches 12.6
    to 13.2, beyond which the check cannot see a missing candidate (it would need e^g / 10,000 of them). Their
    sensitivities are log-uniform over 1e-3 to 1e3 (referee s38rC: 1 or 2.5 before, so a scale error only at large
    sensitivities never met a far case). Then the size sweep (sizes x epsilons) and the sensitivity sweep (sizes
    x sensitivities).

    Parameters
    ----------
    generator : numpy.random.Generator
        The check's generator (seeded from the check's seed).

    Returns
    -------
    list of tuple
        (scores, sensitivity, epsilon, calls) for each case, in the order the check runs them.
    """
    cases = [(np.array([3.0, 0.0]), 1.0, 1.0), (np.array([2.0, 2.0, 2.0]), 1.0, 0.5),
             (np.array([0.0] * 9 + [4.0]), 1.0, 1.0),  # separates Gumbel (0.452 for the best) from Laplace (0.500)
             (np.array([10.0, 9.0, 7.0, 3.0, 0.0]), 2.0, 2.0), (np.array([1e6, 1e6 - 4.0, 1e6 - 8.0]), 4.0, 1.5)]
    cases = [(scores, sensitivity, epsilon, 5_000) for scores, sensitivity, epsilon in cases]  # Gumbel vs Laplace: z 6.8
    cases.append((np.array([7.0]), 1.0, 1.0, 10))  # one candidate: index 0, always
    k = int(generator.integers(4, 13))
    cases.append((np.round(generator.normal(0, 3, k), 1), float(generator.uniform(0.5, 3)),
                  float(generator.uniform(0.3, 3)), 5_000))
    # Many close candidates: the best is chosen about 0.4% of the time, so an exact argmax returned in
    # even 1% of calls stands out (a noiseless choice is not private for any epsilon).
    cases.append((generator.uniform(0, 1, 300), 1.0, 0.5, 10_000))
    # Extreme epsilons, with scores on the scale of the noise (so the choice stays random).
    for epsilon in (0.01, 20.0):
        scale = 2.0 * 3.0 / epsilon
        cases.append((np.round(generator.normal(0, 1.5, 8) * scale, 6), 3.0, epsilon, 5_000))
    # Every epsilon: RNM_GRID epsilons over 0.01 to 30 and as many sensitivities over 1e-3 to 1e3, each on a grid with
    # one shared random offset (steps of a factor 1.22 and 1.41; referee s37rC: a factor-2 band of sensitivities
    # fell between 46 independent draws), paired at random; 8 candidates on the noise's scale, 600 calls each. An
    # answer exact, or with the factor 2 forgotten, in any band wider than a step of its grid fails there.
    epsilons = _shared_grid(generator, RNM_GRID, 0.01, 30.0)
    for epsilon, sensitivity in zip(epsilons, generator.permutation(_shared_grid(generator, RNM_GRID, *RNM_SENSITIVITIES))):
        scale = 2.0 * float(sensitivity) / float(epsilon)
        # (within 2 scales of each other: every candidate expects 11 or more choices, so the chi-square has no
        # near-empty cell, where a single choice would count as a large deviation)
        cases.append((np.round(generator.uniform(0, 2, 8) * scale, 6), float(sensitivity), float(epsilon), 600))
    # Far candidates: one best, M candidates g scales below it (g drawn, so no round threshold sits on it).
    for low, high, epsilon, expected in ((5.0, 7.0, 1.0, 150), (8.5, 10.5, 4.0, 150), (12.6, 13.2, 0.2, 200)):
        gap = float(generator.uniform(low, high))
        many = int(expected * math.exp(gap) / 10_000) + 20  # about `expected` of 10,000 calls pick one of them
        sensitivity = _log_uniform(generator, *RNM_SENSITIVITIES)  # referee s38rC: 1 or 2.5 before
        scale = 2.0 * sensitivity / epsilon
        scores = np.full(many + 1, -gap * scale)
        scores[int(generator.integers(many + 1))] = 0.0
        cases.append((scores, sensitivity, epsilon, 10_000))
    cases.append(_many_far_case(generator))
    # Many candidates (100,000), fewer calls: 400, so that the grouped tests (by rank and by position, see
    # ``_grouped_cells``) see an answer that only ever samples among part of them: left-out candidates that hold
    # a share m of the chance give a chi-square of about 400 m / (1 - m) against the limit 46 (9 df, p 1e-6), so
    # m >= 0.2 (the best 59,000 or fewer, the first 80% of positions or fewer) is caught with power near 1.
    cases.append((generator.uniform(0, 4, 100_000), 1.0, 1.0, 400))
    return cases + _rnm_size_sweep(generator) + _rnm_sensitivity_sweep(generator)


#: Sensitivities of 07.3's epsilon grid and size sweep: log-uniform over this range.
RNM_SENSITIVITIES = (1e-3, 1e3)
#: Points of 07.3's epsilon grid: epsilons (0.01-30) and sensitivities (1e-3-1e3) on shared-offset grids this long.
RNM_GRID = 40
#: Points of 07.3's size sweep: a Fibonacci lattice of this many points on (log size, log epsilon) ...
RNM_SWEEP_SIZES = 34
#: ... with this multiplier (34 and 21 are consecutive Fibonacci numbers).
RNM_SWEEP_STEP = 21
#: Epsilons of 07.3's size sweep (the exercise promises 0.01 to 20).
RNM_SWEEP_EPSILONS = (0.01, 20.0)


def _log_uniform(generator, low: float, high: float) -> float:
    """One draw log-uniform over [low, high]."""
    return float(math.exp(generator.uniform(math.log(low), math.log(high))))


def _shared_grid(generator, n: int, low: float, high: float) -> np.ndarray:
    """``n`` points log-spaced over [low, high] with one shared random offset: a step of (high / low)^(1 / n)."""
    return np.exp(math.log(low) + (_arange(n) + generator.random()) / n * (math.log(high) - math.log(low)))


def _many_far_case(generator) -> tuple:
    """(scores, sensitivity, epsilon, calls): 20,000 to 100,000 candidates 12 to 12.6 Gumbel scales behind one best.

    Referee s37rC: the far cases had at most about 8,500 candidates, so an answer that drops the candidates more
    than 10 scales behind only above 10,000 candidates passed. Here M candidates (log-uniform over 20,000 to
    100,000) sit g scales behind (g uniform over 12 to 12.6) and the calls are set for 30 expected picks of
    them (106 to 475 calls): an answer that drops them picks none (chi-square about 30 on 1 df, p about 4e-8;
    a correct answer picks none with probability e^-30).
    """
    many = int(math.exp(generator.uniform(math.log(20_000), math.log(100_000))))
    gap = float(generator.uniform(12.0, 12.6))
    share = many * math.exp(-gap)
    sensitivity = _log_uniform(generator, *RNM_SENSITIVITIES)  # referee s38rC: 1 or 2.5 before
    scores = np.full(many + 1, -gap * 2.0 * sensitivity)  # epsilon 1: the scale is 2 * sensitivity
    scores[int(generator.integers(many + 1))] = 0.0
    return scores, sensitivity, 1.0, int(math.ceil(30.0 * (1.0 + share) / share))


def _rnm_size_sweep(generator) -> list:
    """34 cases (scores, sensitivity, epsilon, calls) with 2 to 100,000 candidates and epsilons 0.01 to 20.

    Referee s36rC: the exact argmax for 11-25, 600-8,000 or 10,000-99,999 candidates passed, as the fixed
    cases use only a dozen sizes; referee s37rC: the exact argmax for more than 8 candidates at epsilon above
    10 passed, as the sweep drew epsilon over 0.05-10 only. The sizes and epsilons lie on a Fibonacci lattice
    (point i at ((i + a) / 34, (21 i / 34 + b) mod 1) on log 2-100,000 x log 0.01-20, offsets a and b shared):
    each size band wider than a factor 1.38 holds a point, and every rectangle of log sizes x log epsilons
    holding more than 2/34 = 5.9% of the square holds one (the largest empty one, at each of 1,000 offsets
    tried): e.g. more than 8 candidates at epsilon above 10 is 7.9% of it, more than 50 at 8 or more 8.5%. The
    sensitivities are a shared-offset grid over 1e-3 to 1e3 (a step of 1.50), in random order; the scores lie
    within 2 Gumbel scales of each other, so a correct answer varies its choice (the best candidate has at most
    e^2 / (1 + e^2) = 0.88 of the chance): 300 calls up to 1,000 candidates, 50 above (the grouped tests then
    hold 5 groups of 10 expected choices). An exact argmax picks one candidate in every call: caught at every
    point (a correct answer does so with probability below 0.88^300 = 2e-17 with 2 candidates; above 1,000
    candidates the best holds under 1% of the chance). The noise's scale is tested mainly by the epsilon grid.
    """
    sizes, where = _lattice(generator)
    sensitivities = generator.permutation(_shared_grid(generator, RNM_SWEEP_SIZES, *RNM_SENSITIVITIES))
    cases = []
    for k, epsilon, sensitivity in zip(sizes, _log_scaled(where, *RNM_SWEEP_EPSILONS), sensitivities):
        scale = 2.0 * float(sensitivity) / epsilon
        cases.append((generator.uniform(0, 2, k) * scale, float(sensitivity), epsilon, 300 if k <= 1_000 else 50))
    return cases


def _lattice(generator) -> tuple[list[int], np.ndarray]:
    """The Fibonacci lattice of 07.3's sweeps: point i at ((i + a) / 34, (21 i / 34 + b) mod 1), offsets a and b
    drawn; returns the first coordinate as sizes log-spaced over 2 to 100,000, and the second in [0, 1)."""
    offsets = generator.random(2)
    size_span = math.log(100_000) - math.log(2)
    sizes = [int(round(2 * math.exp((i + offsets[0]) / RNM_SWEEP_SIZES * size_span))) for i in range(RNM_SWEEP_SIZES)]
    return sizes, (_arange(RNM_SWEEP_SIZES) * RNM_SWEEP_STEP / RNM_SWEEP_SIZES + offsets[1]) % 1.0


def _log_scaled(where: np.ndarray, low: float, high: float) -> list[float]:
    """The points ``where`` of [0, 1) mapped log-uniformly onto [low, high]."""
    return [float(math.exp(math.log(low) + u * (math.log(high) - math.log(low)))) for u in where]


#: Calls of each case of 07.3's sensitivity sweep, up to 1,000 candidates and above.
RNM_SCALE_CALLS = (300, 100)
#: Spread of the scores in the sensitivity sweep, in Gumbel scales (2 sensitivity / epsilon).
RNM_SCALE_SPREAD = 4.0


def _rnm_sensitivity_sweep(generator) -> list:
    """34 cases (scores, sensitivity, epsilon, calls) with sizes and sensitivities swept together.

    Referee s38rC: the size sweep drew each case's sensitivity at random and, below about 1,000 candidates and
    with 50-300 calls, tested little but an exact argmax, so noise ten times too small for 100-1,000 candidates
    at sensitivity above 3, or the factor 2 forgotten above 100 candidates at sensitivity above 3, passed. Here
    sizes (2 to 100,000) and sensitivities (1e-3 to 1e3) lie on the Fibonacci lattice of :func:`_lattice` (every
    rectangle of log sizes x log sensitivities holding more than 5.9% of the square holds a point: more than 100
    candidates at sensitivity above 3 is 24% of it, 100-1,000 candidates above 3 is 9%), with an epsilon
    log-uniform over 0.01 to 20 each; the scores are uniform over 4 Gumbel scales and the calls 300 (200 above
    1,000 candidates), for the rank test of :func:`lesson07_selection._check_rank_transform`. Its power against
    the factor 2 forgotten (simulated, 40 runs each): 0.95 or more at 10 candidates or more, 0.78 at 5, 0.1 at 2;
    against noise ten times too small, 1 from 3 candidates on.
    """
    sizes, where = _lattice(generator)
    cases = []
    for k, sensitivity in zip(sizes, _log_scaled(where, *RNM_SENSITIVITIES)):
        epsilon = _log_uniform(generator, *RNM_SWEEP_EPSILONS)
        scale = 2.0 * sensitivity / epsilon
        calls = RNM_SCALE_CALLS[0] if k <= 1_000 else RNM_SCALE_CALLS[1]
        cases.append((generator.uniform(0, RNM_SCALE_SPREAD, k) * scale, sensitivity, epsilon, calls))
    return cases
