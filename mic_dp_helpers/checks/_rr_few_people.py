"""Few people per call, many calls (exercise 07.1, referee s40rB D1, D2, D10).

Referee s40rB: answers that skip the coins when a call expects few liars passed 07.1: exact when
round(n q) == 0 or n q < 0.9 (q = 1 / (1 + e^epsilon), n people per call), exact for one person (a device
reporting its own bit, local DP's normal use), exact above epsilon 12 for up to 1,000,000 people, exact for
fewer than 40,000 (or 2,000) people above epsilon 6.2, and exact for 600-1,400 people from epsilon 1. Every
other case of the check expects about one flip per call or more, and its epsilon-and-size grid starts at
n0 = max(2,000, 30 (1 + e^epsilon)) people.

:func:`check_few_people` calls the answer, at the ladder's epsilons (:func:`ladder_epsilons`: half a grid step,
a factor 1.344^(1/2) = 1.159, above each of the grid's 24 epsilons, up to ``LADDER_TOP`` = 12, so the grid's and
the ladder's epsilons alternate) and at ``TOP_EPSILONS`` (5.29, 11.2 to 14.5), on a ladder of sizes: the smallest
size that ``MOST_CALLS`` calls can give ``FEW_FLIPS`` expected flips (:func:`smallest_size`: 1 person up to
epsilon 5.29, then 20 (1 + e^epsilon) / 4,000 people: 3 at 6.0, 31 at 8.7, 100 at 9.9, 300 at 11.0, 994 at
12.2, 9,914 at 14.5), then sizes a factor ``RUNG`` apart below :func:`n0` (the size where the grid starts; none
at ``TOP_EPSILONS``), shifted by (i mod 3 + u) / 3 of a rung at ladder epsilon i (u drawn once), so three
consecutive ladder epsilons see a size every factor 4^(1/3) = 1.5874 below n0, with ``ceil(FEW_FLIPS / (n q))``
calls per size (about 150 cases, 42,000 calls and 70,000,000 answers). A case where no report differs from the
truth fails (a correct answer: at most e^-20 = 2.1e-9 per case), and so does a number of flips outside its
Binomial(calls n, q) ``FLIP_TAIL`` tails (2e-9 per case).

Power: an answer exact when n q < t fails for any t above 20 / ``MOST_CALLS`` = 0.005 (the smallest size at
every epsilon from 5.29 up has n q of about 0.005; one person at epsilon 0.01 to 5.29 has q from 0.5 down to
0.005), so round(n q) == 0, int(n q) == 0 and n q < 0.9 fail at every epsilon from 0.01 on; one person exact
at any epsilon below 5.29 fails; an answer exact above epsilon E for at most N people fails wherever a ladder
epsilon above E has its smallest size at most N (above 12: 1,342 at 12.5; above 12.5: 3,648 at 13.5; above
13.5: 9,914 at 14.5); a band of sizes below n0 of a factor at least 4^(1/3) = 1.5874 over 3 grid steps of
epsilon (4 over one step) holds a rung; an answer exact at every size in a band of epsilons within 0.01-12
wider than half a grid step (a factor 1.159, the referee corpus's 7 < epsilon < 9) holds a grid or a ladder
epsilon and fails.

Limits: calls are capped at ``MOST_CALLS``, so fewer people than :func:`smallest_size` at an epsilon are not
tested there: an answer exact above epsilon E for fewer people than the smallest size of every ladder epsilon
above E passes (one person only above 5.29; up to 1,341 people only above 12; up to 3,647 only above 12.5; up
to 9,913 only above 13.5), since 20 (1 + e^epsilon) / n calls would be needed; an answer exact when n q < t
for t below 0.005 passes; between epsilon 12 and 14.5 the ladder has only its smallest sizes (at 12.5, 13.5
and 14.5), so an answer exact there only for a band of sizes between those and 1,000,000 passes (the check's
other cases there: 100,000 people at 11.5 and 2,000,000 at 14.5); above epsilon 14.5 see
``lesson07._highest_epsilon_flips``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binom

from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly

# References bound at import: patching numpy or scipy later changes nothing here.
_binom_sf, _binom_cdf = binom.sf, binom.cdf
_count_nonzero, _default_rng, _exp, _log, _ceil = np.count_nonzero, np.random.default_rng, math.exp, math.log, math.ceil

__all__ = ["FEW_FLIPS", "MOST_CALLS", "RUNG", "TOP_EPSILONS", "ROUND_ANSWERS", "FLIP_TAIL", "in_rounds",
           "LADDER_TOP", "flip_rate", "smallest_size", "ladder", "n0", "ladder_epsilons", "check_few_people"]

#: Expected flips of each case: a correct answer flips none with probability e^-20 = 2.1e-9.
FEW_FLIPS = 20.0
#: Most calls of one case (one person per call up to epsilon 5.29).
MOST_CALLS = 4000
#: Factor between the sizes of one epsilon's ladder.
RUNG = 4.0
#: Epsilons where only the smallest size is called: the last with one person per call, and above the grid's 12.
TOP_EPSILONS = (5.29, 11.2, 12.5, 13.5, 14.5)
#: Highest epsilon of the ladder between the grid's epsilons (above it: ``TOP_EPSILONS``).
LADDER_TOP = 12.0
#: Answers per round trip: the grader carries at most 5,000,000 values in one message
#: (``mic_dp_teacher.grading.wire.MAX_ITEMS``).
ROUND_ANSWERS = 4_000_000
#: Per case and tail, the probability that a correct answer's number of flips is declared off.
FLIP_TAIL = 1e-9


def in_rounds(answer, calls: int, per_round: int, *args):
    """``call_repeatedly(answer, calls, *args)`` in rounds of ``per_round`` calls, one after another.

    The grader carries at most 5,000,000 values in one round trip (``mic_dp_teacher.grading.wire.MAX_ITEMS``);
    the results are yielded one by one, so a round's answers can be reduced before the next round runs.

    Parameters
    ----------
    answer : callable
        The student's function.
    calls : int
        Number of calls in all.
    per_round : int
        Calls per round trip.
    *args
        Arguments of every call.

    Yields
    ------
    object
        Each call's result, in order.
    """
    for start in range(0, calls, per_round):
        yield from call_repeatedly(answer, min(per_round, calls - start), *args)


def flip_rate(epsilon: float) -> float:
    """q = 1 / (1 + e^epsilon), the chance that a correct answer flips a report.

    Parameters
    ----------
    epsilon : float
        The privacy parameter.

    Returns
    -------
    float
        The flip probability.

    Examples
    --------
    >>> round(flip_rate(0.0), 3)
    0.5
    """
    return 1.0 / (1.0 + _exp(epsilon))


def smallest_size(epsilon: float) -> int:
    """The fewest people that ``MOST_CALLS`` calls at ``epsilon`` give ``FEW_FLIPS`` expected flips.

    Parameters
    ----------
    epsilon : float
        The privacy parameter.

    Returns
    -------
    int
        At least 1.

    Examples
    --------
    >>> smallest_size(1.0), smallest_size(8.0), smallest_size(14.5)
    (1, 15, 9914)
    """
    return max(1, _ceil(FEW_FLIPS / (flip_rate(epsilon) * MOST_CALLS)))


def ladder(epsilon: float, below: int, shift: float) -> list[int]:
    """The sizes called at ``epsilon``: :func:`smallest_size`, then ``RUNG``-spaced sizes shifted by ``shift``
    rungs, all below ``below``.

    Parameters
    ----------
    epsilon : float
        The privacy parameter.
    below : int
        Every size after the first is below it (the grid's n0).
    shift : float
        The shift of the rungs, in rungs (0 to 1).

    Returns
    -------
    list of int
        Increasing sizes.

    Examples
    --------
    >>> ladder(1.0, 2000, 0.0)
    [1, 4, 16, 64, 256, 1024]
    """
    first = smallest_size(epsilon)
    sizes = [first]
    k = 0
    while True:
        n = int(first * RUNG ** (k + shift))
        if n >= below:
            return sizes
        if n > sizes[-1]:
            sizes.append(n)
        k += 1


def _flips(runs, truth: np.ndarray, where: str, reports) -> int:
    """The number of reports that differ from ``truth`` over all calls (each report checked by ``reports``)."""
    return sum(int(_count_nonzero(reports(raw, truth.size, where) != truth)) for raw in runs)


def _case(answer, generator, n: int, epsilon: float, reports) -> None:
    """``ceil(FEW_FLIPS / (n q))`` calls on n people at ``epsilon``: some flip, at the rate of randomized response."""
    q = flip_rate(epsilon)
    calls = max(1, _ceil(FEW_FLIPS / (n * q)))
    truth = generator.random(n) < float(generator.uniform(0.2, 0.8))
    plural = "s" if calls > 1 else ""
    where = f"For {n:,} answer{'s' if n > 1 else ''} at epsilon={epsilon:.3g}, over {calls:,} call{plural}:"
    runs = in_rounds(answer, calls, max(1, ROUND_ANSWERS // n), truth.copy(), epsilon,
                     _default_rng(int(generator.integers(2**31))))
    flips, trials = _flips(runs, truth, where, reports), calls * n
    if flips == 0:
        raise CheckFailed(f"{where} every report is the true answer, where randomized response flips about "
                          f"{trials * q:.0f} (about {n * q:.2g} per call): nothing is randomized for this few people "
                          "at this epsilon, so nothing is private. Skipping the coins when a call expects few or no "
                          "liars (one person, or n / (1 + e^epsilon) below 1) releases the truth: flip every "
                          "person's coin on every call, however few people there are and however large epsilon is.")
    if _binom_sf(flips - 1, trials, q) < FLIP_TAIL or _binom_cdf(flips, trials, q) < FLIP_TAIL:
        raise CheckFailed(f"{where} {flips:,} reports differ from the truth, where randomized response flips about "
                          f"{trials * q:.1f}: the chance of keeping the true answer is wrong for this few people at "
                          "this epsilon. Keep it with probability e^epsilon / (1 + e^epsilon), whatever the number "
                          "of people.")


def n0(epsilon: float) -> int:
    """The first size of the epsilon-and-size grid at ``epsilon``: max(2,000, 30 (1 + e^epsilon)), at most 1,000,000.

    Parameters
    ----------
    epsilon : float
        The privacy parameter.

    Returns
    -------
    int
        The size below which the grid calls no one.

    Examples
    --------
    >>> n0(1.0), n0(8.0), n0(13.0)
    (2000, 89458, 1000000)
    """
    return int(min(max(30.0 / flip_rate(epsilon), 2000.0), 1_000_000.0))


def ladder_epsilons(grid) -> list[float]:
    """The ladder's epsilons below the top ones: half a grid step above each grid epsilon, up to ``LADDER_TOP``.

    Parameters
    ----------
    grid : sequence of float
        The grid's epsilons, a constant factor apart, increasing.

    Returns
    -------
    list of float
        Each grid epsilon times the square root of the grid's step, those at most ``LADDER_TOP``.

    Examples
    --------
    >>> [round(e, 2) for e in ladder_epsilons([1.0, 4.0, 16.0])]
    [2.0, 8.0]
    """
    half = math.sqrt(grid[1] / grid[0])
    return [e * half for e in grid if e * half <= LADDER_TOP]


def check_few_people(answer, generator, grid, reports) -> None:
    """Call the answer on few people per call, many calls, between the grid's epsilons and at ``TOP_EPSILONS``.

    Parameters
    ----------
    answer : callable
        The student's ``randomized_response`` (07.1).
    generator : numpy.random.Generator
        Draws the ladder's shift, the truth arrays and the answer's generator seeds.
    grid : sequence of float
        The epsilons of the epsilon-and-size grid (a constant factor apart, increasing).
    reports : callable
        ``reports(raw, n, where)``: the 0/1 reports of a raw return (raises CheckFailed on a bad shape).

    Raises
    ------
    CheckFailed
        If a case flips no report, or a number of reports outside its binomial tails.
    """
    rotation = float(generator.random())
    cases = [(epsilon, n) for i, epsilon in enumerate(ladder_epsilons(grid))
             for n in ladder(epsilon, n0(epsilon), (i % 3 + rotation) / 3)]
    cases += [(epsilon, smallest_size(epsilon)) for epsilon in TOP_EPSILONS]
    for epsilon, n in cases:
        _case(answer, generator, n, epsilon, reports)
