"""Coins of one call reused in a call with another epsilon or other answers (exercise 07.1, referee s39rB D0).

Referee s39rB: uniforms memoised per number of people and reused at another epsilon (fresh only when the same
epsilon came again), and coins memoised per (people, epsilon) and reused on another truth array (fresh on the
same one), passed 07.1: every other case calls the answer repeatedly with the same truth and epsilon. Two
releases of the same people then have infinite privacy loss (one uniform u per person, kept iff u < p: a true
yes is reported (yes at epsilon 1, no at epsilon 0.5) with probability 0.108, and (no, yes) never).

:func:`check_calls_across_settings` calls the answer on the same people with two truth arrays A and B and
three epsilons e1, e2 and e1' = e1 (1 + 1e-12) (equal to e1 once rounded to 11 digits or to float32), in
rounds of six calls (A, e1), (A, e2), (B, e1), (B, e2), (A, e1'), (B, e1') on one generator, at
``SEQUENCE_SIZES`` sizes from 2 to 1,000,000 people. Flips are reports that differ from that call's truth;
every person flips with the probability of the call's epsilon, whatever their answer, so for independent coins
the flipped sets of two calls, given their sizes k1 and k2, are independent uniform subsets: the number of
people flipped in both is hypergeometric (n, k1, k2). Every pair of calls at most ``LAGS`` apart is tested at
both tails (``PAIR_TAIL`` each); per size the sum over those pairs is tested too (the pairs' counts are
uncorrelated given the sizes: given one call's flipped set, the count with another call has a mean that
depends on the set's size only), by a z-test at ``POOLED_Z``, where its variance is at least
``POOLED_VARIANCE``. Uniforms reused across epsilons nest the flips (those at the higher epsilon are among
those at the lower one: about k_min people flipped in both, where k1 k2 / n are expected); coins reused on
another truth repeat the flipped set; u and 1 - u make the sets nearly disjoint (the lower tail).

Power (``_power_lesson07.py``): one reused pair fails from about 60 people at epsilons below 1 (a pair tail of
1e-18 at 63 people; 3,000 people at 0.5 and 1: 807 flipped in both where 305 are expected, z about 38) and at
high epsilons wherever the cases expect a few flips (1,000,000 people at 10.8 and 6.5: about 20 in both where
0.03 are expected); the pooled sum sees reuse on every changed call at every size (seeds 0 and 5: z 9 to 23 at
4-5 people over 48 calls, 12 to 25 at 17-21 people, over 1,000 from 150,000 people). A cache keyed on the
number of people, on (people, epsilon) with a new truth, on (people, epsilon rounded to up to 11 digits or to
float32), or only on the first k calls of a size, reuses within the first round and fails. Limits: coins
reused by other people (shifted) across settings are tested only between calls with one setting
(:func:`_coin_pairs.check_cross_calls`); below 60 people reuse on under about a third of the changed calls can
pass; a cache used only after more calls of a size than the sequence makes (12 to 48) passes.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import hypergeom

from mic_dp_helpers.checks._core import CheckFailed

# References bound at import: patching numpy or scipy later changes nothing here.
_hypergeom_sf, _hypergeom_cdf = hypergeom.sf, hypergeom.cdf
_count_nonzero, _default_rng, _exp, _log = np.count_nonzero, np.random.default_rng, math.exp, math.log

__all__ = ["SEQUENCE_SIZES", "LAGS", "PAIR_TAIL", "POOLED_Z", "POOLED_VARIANCE", "sequence_cases",
           "check_calls_across_settings"]

#: Sizes of the sequences, log-spaced over 2 to 1,000,000 people with one random offset.
SEQUENCE_SIZES = 10
#: Pairs of calls at most this many calls apart are tested (a round is six calls).
LAGS = 6
#: Per pair of calls, the probability that a correct answer's count of common flips is declared off (each tail).
PAIR_TAIL = 1e-12
#: Per size, the |z| beyond which the pooled count of common flips is declared off (two-sided about 2e-9).
POOLED_Z = 6.0
#: Fewest variance of the pooled count for its z-test (a sum of at least that many small counts).
POOLED_VARIANCE = 30.0
#: Calls on the fewest people: about ``SMALL_ANSWERS`` answers per size, in whole rounds (2 to ``MOST_ROUNDS``;
#: each call costs about 2 ms of the check's guard, whatever its size).
SMALL_ANSWERS = 600
MOST_ROUNDS = 8
#: Relative step from e1 to e1': below the rounding of any cache key of up to 11 digits, or of float32.
NEAR = 1e-12


def _flip_rate(epsilon: float) -> float:
    return 1.0 / (1.0 + _exp(epsilon))


def sequence_cases(generator) -> list[tuple[int, float, float, int]]:
    """(people, e1, e2, rounds) of the sequences: sizes over 2 to 1,000,000, epsilons with flips to count.

    e1 is log-uniform over 0.02 to the epsilon at which n people expect 20 flips (at least 0.5, at most 12), a
    stratum of that range per size (strata shuffled), and e2 = e1 times a factor in 0.5-0.8 (more flips).

    Parameters
    ----------
    generator : numpy.random.Generator
        The check's generator.

    Returns
    -------
    list of tuple
        One (people, e1, e2, rounds) per size.
    """
    offset = float(generator.random())
    strata = generator.permutation(SEQUENCE_SIZES)
    cases = []
    for i in range(SEQUENCE_SIZES):
        n = int(_exp(_log(2.0) + (i + offset) / SEQUENCE_SIZES * (_log(1e6) - _log(2.0))))
        top = min(12.0, max(0.5, _log(max(n / 20.0 - 1.0, 1.0))))
        place = (float(strata[i]) + float(generator.random())) / SEQUENCE_SIZES
        e1 = _exp(_log(0.02) + place * (_log(top) - _log(0.02)))
        e2 = e1 * float(generator.uniform(0.5, 0.8))
        rounds = int(min(MOST_ROUNDS, max(2, math.ceil(SMALL_ANSWERS / (6 * n)))))
        cases.append((n, e1, e2, rounds))
    return cases


def _settings(e1: float, e2: float) -> list[tuple[int, float]]:
    """One round: (truth index, epsilon) of its six calls."""
    near = e1 * (1.0 + NEAR)
    return [(0, e1), (0, e2), (1, e1), (1, e2), (0, near), (1, near)]


def _run(answer, truths, settings, rounds: int, rng, reports, where: str) -> list[np.ndarray]:
    """The flipped answers of every call of the sequence, in call order."""
    n = truths[0].size
    flips = []
    for _ in range(rounds):
        for which, epsilon in settings:
            raw = answer(truths[which].copy(), epsilon, rng)
            flips.append(reports(raw, n, where) != truths[which])
    return flips


def _describe(call: int, settings, truths) -> str:
    which, epsilon = settings[call % len(settings)]
    return f"call {call + 1} (truth {'AB'[which]}, epsilon {epsilon:.15g})"


def _pair_tails(n: int, k1: int, k2: int, both: int) -> float:
    """The smaller tail probability of ``both`` common flips under Hypergeometric(n, k1, k2)."""
    return min(float(_hypergeom_sf(both - 1, n, k1, k2)), float(_hypergeom_cdf(both, n, k1, k2)))


def _fail(where: str, what: str, both: int, expected: float) -> None:
    reused = both > expected
    raise CheckFailed(
        f"{where} {what} flipped {both:,} answers in common, where fresh coins give about {expected:,.1f}: the "
        f"coins of one call are {'reused' if reused else 'tied to those of the other (such as u and 1 - u)'} in "
        "a call at another epsilon or on other answers. Two releases of the same people then show what their "
        "answers are (reports impossible under the other answer: infinite privacy loss). Draw new coins from `rng` "
        "on every call, whatever epsilon and the answers are, and keep no coins between calls.")


def _test_sequence(flips, settings, truths, where: str) -> None:
    """Every pair of calls at most ``LAGS`` apart, then their pooled sum (see the module docstring)."""
    n = flips[0].size
    counts = [int(_count_nonzero(f)) for f in flips]
    total = mean = variance = 0.0
    for i in range(len(flips)):
        for j in range(i + 1, min(i + LAGS + 1, len(flips))):
            k1, k2 = counts[i], counts[j]
            both = int(_count_nonzero(flips[i] & flips[j]))
            expected = k1 * k2 / n
            if abs(both - expected) > 4.0 * math.sqrt(expected) + 1.0 and _pair_tails(n, k1, k2, both) < PAIR_TAIL:
                what = f"{_describe(i, settings, truths)} and {_describe(j, settings, truths)}"
                _fail(where, what, both, expected)
            total += both
            mean += expected
            variance += expected * (n - k1) * (n - k2) / (n * (n - 1.0)) if n > 1 else 0.0
    if variance >= POOLED_VARIANCE and abs(total - mean) > POOLED_Z * math.sqrt(variance):
        _fail(where, f"over {len(flips)} calls, pairs of calls at most {LAGS} apart", int(total), mean)


def check_calls_across_settings(answer, generator, reports) -> None:
    """Test calls on the same people at other epsilons and with other answers for coins reused between them.

    Parameters
    ----------
    answer : callable
        The student's ``randomized_response`` (07.1).
    generator : numpy.random.Generator
        Draws the sizes, epsilons, truth arrays and the answer's generator seed.
    reports : callable
        ``reports(raw, n, where)``: the 0/1 reports of a raw return (raises CheckFailed on a bad shape).

    Raises
    ------
    CheckFailed
        If two calls flip too many (or too few) answers in common.
    """
    for n, e1, e2, rounds in sequence_cases(generator):
        share = float(generator.uniform(0.2, 0.8))
        truths = (generator.random(n) < share, generator.random(n) < share)
        settings = _settings(e1, e2)
        where = (f"For {n:,} people called in turn with two truth arrays A and B at epsilon {e1:.3g} and {e2:.3g} "
                 f"(and {e1:.3g} x (1 + 1e-12)), {rounds} rounds of six calls:")
        rng = _default_rng(int(generator.integers(2**31)))
        _test_sequence(_run(answer, truths, settings, rounds, rng, reports, where), settings, truths, where)
