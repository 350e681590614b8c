"""Checks for lesson 07's local DP (07.1, 07.2); choosing privately (07.3-07.5) is in ``lesson07_selection``.

Each check calls the student's function on inputs it makes. Every input is drawn fresh from a seeded generator over wide ranges (sizes that are small and
large, shares of 0 and 1, scores with ties and huge values). Random answers are checked on their
distribution: the exact distribution is computed by the check *after* the student's calls, and
compared with binomial z-tests, chi-square and Kolmogorov-Smirnov tests. Each test rejects a
correct answer with probability at most about 1e-6 (stated next to it), so a correct answer
fails a whole check far less often than 1 time in 1000. The student's function is called only
positionally, with plain data (NumPy arrays, numbers, dicts of arrays, a NumPy Generator), and
many calls go through ``call_repeatedly``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binom, poisson

from mic_dp_helpers.checks import _core, _stats
from mic_dp_helpers.checks import lesson07_sweeps as _sweeps07
from mic_dp_helpers.checks._coin_pairs import PairPool, check_cross_calls, check_pairings, pairing_counts
from mic_dp_helpers.checks._coin_resolution import check_coin_resolution
from mic_dp_helpers.checks._coins import check_calls_independent, check_pairs_at_lags, independence_of_coins, lag_z_scores
from mic_dp_helpers.checks._rr_few_people import check_few_people, in_rounds, n0 as _grid_start
from mic_dp_helpers.checks._rr_sequences import check_calls_across_settings
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise, expect_number

# References bound at import: patching numpy, scipy or the course package later changes nothing here.
_exp, _sqrt, _log, _asarray, _arange = math.exp, math.sqrt, math.log, np.asarray, np.arange
_ceil = math.ceil
_poisson_isf = poisson.isf
_binom_sf, _binom_cdf = binom.sf, binom.cdf
_exp_array = np.exp
_array_equal, _default_rng = np.array_equal, np.random.default_rng
_count_nonzero = np.count_nonzero
# The course functions that already solve 07.1 and 07.2 (the exercise names the first; the others give the
# same release) refuse to run while the student's function runs.
_core.FORBIDDEN["07.1"] = ("mic_dp_helpers.mechanisms.local:randomized_response",
                            "mic_dp_helpers.mechanisms.local:generalized_randomized_response")
_core.FORBIDDEN["07.2"] = ("mic_dp_helpers.mechanisms.local:rr_estimate", "mic_dp_helpers.mechanisms.local:rr_standard_error",
                            "mic_dp_helpers.mechanisms.local:grr_estimate")

#: z beyond which a binomial share is declared off: two-sided probability 5.7e-7 for a correct answer.
Z_LIMIT = 5.0
#: p-value below which a chi-square or KS test rejects (a correct answer: probability 1e-6 per test).
P_LIMIT = 1e-6
#: Sizes per grid epsilon of 07.1's epsilon-and-size grid, evenly spaced on a log scale over 2,000 to 1,000,000
#: people and shifted by a third of a step from one grid epsilon to the next, so that any three consecutive grid
#: epsilons together see a size every factor 500^(1/36) = 1.18842 (referee s37rB: an answer exact for 400,000-480,000
#: people at epsilon 1.5-4 passed; with sizes drawn at random it was met with probability 0.71, and CI's seed missed it).
GRID_SIZES = 12


def _keep_probability(epsilon: float) -> float:
    return 1.0 / (1.0 + _exp(-epsilon))


def _z_off(successes: float, trials: float, p: float) -> float:
    return abs(successes - trials * p) / _sqrt(trials * p * (1 - p))


# --------------------------------------------------------------------------------------- 07.1
def _reports(raw, n: int, where: str) -> np.ndarray:
    try:
        reports = _asarray(raw)
    except Exception:  # noqa: BLE001 - any failure to convert is the student's
        raise CheckFailed(f"{where} it should return an array of reports, got {type(raw).__name__}.") from None
    if reports.shape != (n,):
        raise CheckFailed(f"{where} it should return one report per person ({n}), got shape {reports.shape}.")
    if reports.dtype == bool:
        return reports.astype(int)
    if reports.dtype.kind not in "iuf" or not np.isin(reports, (0, 1)).all():
        raise CheckFailed(f"{where} every report must be a yes/no answer (True/False or 1/0).")
    return reports.astype(int)


def _rr_cases(generator):
    """(truth, epsilon) cases: sizes 1 to 100,000, shares 0, 1 and in between, epsilons 0.01 to 20."""
    cases = []
    for n, share, epsilon in [(1, 1.0, 1.0), (7, 0.0, 0.05), (3000, 0.3, 0.5), (501, 1.0, 6.0), (2, 0.5, 0.01),
                              (50, 0.5, 20.0), (100_000, 0.4, 10.0),
                              (int(generator.integers(200, 2000)), float(generator.uniform(0.05, 0.95)),
                               float(generator.uniform(0.1, 4.0)))]:
        truth = generator.random(n) < share
        cases.append((truth, epsilon))
    return cases


def _rr_distribution_cases(generator):
    """(truth, epsilon, calls) for the distribution tests: 2 to 150,000 people, epsilons 0.01 to 11.5.

    At epsilon 10 a correct answer flips about 1 answer in 22,000, so 100,000 people x 20 calls
    expect 91 flips (150,000 x 20: 136; at epsilon 11.5, 100,000 x 30: 30): an answer exact above
    some size or epsilon fails there (the check adds one call on 1,000,001 to 1,200,000 people at epsilon 1,
    about 269,000 expected flips, for sizes far above these). An answer exact at every size above some epsilon below
    14.5 fails the case of 40,000,000 answers at epsilon 14.5 (``_highest_epsilon_flips``); one exact above it only for
    fewer people fails the few-people ladder (:mod:`_rr_few_people`) wherever a ladder epsilon above it calls that few
    people (1 person up to epsilon 5.29; at epsilon 14.5, 9,914 people and more); above epsilon 14.5 (flip rate below 5e-7)
    no feasible number of calls tells an exact answer from a correct one by counting flips: the check cannot, and says
    so in ``checks/_stats.py``. Coins too coarse to flip there (float32 uniforms, p in float32 or rounded) are found
    without counting, from chosen random numbers (:mod:`_coin_resolution`, in-process only).
    """
    cases = []
    for n, share, epsilon, calls in [(3000, 0.3, 0.5, 400), (501, 1.0, 6.0, 400), (1500, 0.5, 2.0, 400),
                                     (2, 0.5, 0.01, 4000), (100_000, 0.4, 10.0, 20),
                                     # above 100,000 people (136 expected flips) and at epsilon 11.5 (30 expected
                                     # flips): a correct answer flips none with probability below e^-30
                                     (150_000, 0.4, 10.0, 20), (100_000, 0.4, 11.5, 30),
                                     # many people and enough calls for the per-person test (a person never
                                     # randomised keeps 200 of 200, z about 8.6 > 6.5)
                                     (12_000, 0.5, 1.0, 200),
                                     (int(generator.integers(200, 2000)), float(generator.uniform(0.05, 0.95)),
                                      float(generator.uniform(0.1, 4.0)), 400)]:
        cases.append((generator.random(n) < share, epsilon, calls))
    return cases


@exercise("07.1", title="Randomized response", answer_name="randomized_response")
def check_randomized_response(answer, seed: int = 7001) -> None:
    generator = _default_rng(seed)
    # Shape, input left alone, reproducible from the rng alone.
    for truth, epsilon in _rr_cases(generator):
        given = truth.copy()
        where = f"For {len(truth)} answers at epsilon={epsilon:.3g}:"
        first = _reports(answer(given, epsilon, _default_rng(11)), len(truth), where)
        if not _array_equal(given, truth):
            raise CheckFailed(f"{where} your function changed the `truth` array it was given.")
        again = _reports(answer(given, epsilon, _default_rng(11)), len(truth), where)
        if not _array_equal(first, again):
            raise CheckFailed("two calls with identically seeded generators gave different reports: draw every coin "
                              "from the `rng` argument, not from np.random or a new generator.")

    # Distribution over many calls on the same people: independence, then the rate.
    for truth, epsilon, calls in _rr_distribution_cases(generator):
        n = len(truth)
        where = f"For {n} answers at epsilon={epsilon:.3g}:"
        runs = [_reports(r, n, where) for r in call_repeatedly(answer, calls, truth.copy(), epsilon,
                                                              _default_rng(int(generator.integers(2**31))))]
        reports = np.stack(runs)
        p = _keep_probability(epsilon)
        kept = reports == truth.astype(int)[None, :]
        trials = calls * n
        if kept.all() and trials * (1 - p) >= 20:  # a correct answer flips none with probability below e^-20
            raise CheckFailed(f"{where} every report is the true answer: nothing is randomized, so nothing is private.")
        if not kept.any() and trials * p >= 20:
            raise CheckFailed(f"{where} every report is the opposite of the truth: anyone can flip it back.")
        independence_of_coins(kept, where)
        check_cross_calls(~kept, where)  # referee s38rB: a call's coins reused by other people in the next
        check_pairings(*pairing_counts(~kept, truth), where)  # and coins tied between people, by position or data
        # Independence first: the number of flips per call is Binomial(n, f) for the flip rate f. Its sample
        # variance over 400 calls has a relative standard error of about 7%; outside [0.6, 1.5] is over 5 of them.
        flips = (~kept).sum(axis=1)
        f = float(flips.mean()) / n  # the observed flip rate: this test is about independence, not the rate
        ratio = flips.var(ddof=1) / (n * f * (1 - f)) if 0 < f < 1 else 1.0
        if calls >= 200 and n * f * (1 - f) >= 5 and not 0.6 <= ratio <= 1.5:  # below 5 flips: too skewed
            raise CheckFailed(f"{where} the coins are not independent: the number of flipped answers varies "
                              f"{'too much' if ratio > 1 else 'too little'} from call to call. Draw one coin per "
                              "person, independently.")
        # The rate: many calls on the same people. For true-yes and true-no separately, and for each quarter of
        # the positions, the share of kept answers must be p = e^eps / (1 + e^eps) within 5 binomial standard
        # errors (a correct answer fails one of these tests with probability < 5e-6).
        for label, mask in (("true yes", truth), ("true no", ~truth)):
            if mask.sum() == 0:
                continue
            trials = calls * int(mask.sum())
            share = kept[:, mask].mean()
            if _z_off(kept[:, mask].sum(), trials, p) > Z_LIMIT:
                direction = "too often" if share > p else "too rarely"
                raise CheckFailed(f"{where} answers that are {label} are kept {direction} ({share:.3f}). Each person "
                                  "must tell the truth with the probability that makes the ratio of the chances of a "
                                  "'yes' report for a true yes and a true no exactly e^epsilon, whatever their answer.")
        # Each person on their own: over 400 calls, everyone's count of kept answers is Binomial(400, p);
        # the largest of n such z-scores stays below 6.5 (a correct answer fails with probability < 1e-6).
        if calls * p * (1 - p) >= 25:
            person_z = np.abs(kept.sum(axis=0) - calls * p) / _sqrt(calls * p * (1 - p))
            if float(person_z.max()) > 6.5:
                who = int(np.argmax(person_z))
                raise CheckFailed(f"{where} person {who} keeps their true answer in {int(kept[:, who].sum())} of "
                                  f"{calls} calls, where a fair coin gives about {calls * p:.0f}: every person, the "
                                  "first and the last included, must flip their own coin on every call.")
        for quarter in np.array_split(_arange(n), 4):
            if len(quarter) and _z_off(kept[:, quarter].sum(), calls * len(quarter), p) > Z_LIMIT:
                raise CheckFailed(f"{where} people in different positions are treated differently: every person "
                                  "must flip their own coin with the same probability.")

    # Referee s39rB, after the tests of one setting (their hints are more specific): coins reused at another
    # epsilon or on other answers (D0); coins too coarse to flip at epsilon 16.7-20 (D1).
    # Their own generator, so that every other case draws what it drew before them.
    check_calls_across_settings(answer, _default_rng((seed, 40)), _reports)
    check_coin_resolution(answer, _default_rng((seed, 41)), _reports)

    # Far above the largest case: two calls on 1,000,001 to 1,200,000 people at epsilon 1 (about 269,000 expected
    # flips). An answer exact above some size up to there keeps every answer (z above 500); the share of kept
    # answers, for true yes and true no and for each tenth of the positions, must be p within 5 standard errors.
    n = int(generator.integers(1_000_001, 1_200_000))
    truth = generator.random(n) < float(generator.uniform(0.2, 0.8))
    epsilon = 1.0
    where = f"For {n} answers at epsilon={epsilon:.3g}:"
    # Two calls on the same people (referee redB: coins memoised or reused between calls only above the 150,000
    # people of the distribution cases): the two calls' flips are uncorrelated, so corr * sqrt(n) is about
    # standard normal (above 6.5 with probability 8e-11); reused coins give about 1,000, coins copied from the
    # previous call for 1% of the people about 10.
    pair = call_repeatedly(answer, 2, truth.copy(), epsilon, _default_rng(int(generator.integers(2**31))))
    kept, kept_next = (_reports(raw, n, where) == truth.astype(int) for raw in pair)
    p = _keep_probability(epsilon)
    for call in (kept, kept_next):
        if call.all():
            raise CheckFailed(f"{where} every report is the true answer: nothing is randomized for this many people, "
                              "so nothing is private. Flip every person's coin, however many people there are.")
        for label, mask in (("true yes", truth), ("true no", ~truth)):
            if _z_off(call[mask].sum(), int(mask.sum()), p) > Z_LIMIT:
                share = float(call[mask].mean())
                raise CheckFailed(f"{where} answers that are {label} are kept {'too often' if share > p else 'too rarely'}"
                                  f" ({share:.4f}): every person, however many there are, must tell the truth with "
                                  "probability e^epsilon / (1 + e^epsilon), on every call.")
    # The two calls' flip counts join the size sweep's test of the count's spread (referee s35rcb).
    big_counts = [(n, int((~call).sum()), 1 - p) for call in (kept, kept_next)]
    check_cross_calls((~kept, ~kept_next), where)
    check_pairings(*pairing_counts(~np.stack((kept, kept_next)), truth), where)
    if abs(float(np.corrcoef(kept, kept_next)[0, 1])) * _sqrt(n) > 6.5:
        raise CheckFailed(f"{where} two calls on the same people flipped correlated sets of answers: the coins of one "
                          "call are reused in the next. Draw new coins from `rng` on every call, however many people "
                          "there are.")
    # High epsilons (referee redB: coins shared between person i and i + n/2 only above epsilon 5 passed; the lag
    # test runs at epsilon 1, and at high epsilon flips are too rare for it). One call each at epsilon 6 and 10 (about
    # 2,700 and 50 flips): the pairs of flips at each distance d are Poisson((n - d) f^2) for independent coins (at
    # most 7 and 0.003); more than its 1e-11 upper quantile at any of the 10^6 distances fails (a correct answer:
    # below 1e-5). Coins shared at one distance give about k / 2 pairs there (1,350 and 25); a call with no flip
    # where 25 or more are expected fails as exact.
    # (n and n - 1 people: one odd, one even, so coins shared only for odd or even sizes show too). These test only
    # too many pairs; too few (antithetic coins, u and 1 - u) are tested by the pairings' lower tails: here, in
    # the grid's pools and in the 200-call case at epsilon 6.8 (_high_epsilon_pairs; referee s38rB).
    for high, size in ((6.0, n), (10.0, n - 1)):
        where_high = f"For {size} answers at epsilon={high:.3g}:"
        part = truth[:size]
        (raw,) = call_repeatedly(answer, 1, part.copy(), high, _default_rng(int(generator.integers(2**31))))
        flips_high = _reports(raw, size, where_high) != part.astype(int)
        flipped = np.flatnonzero(flips_high)
        if flipped.size == 0 and size * (1 - _keep_probability(high)) >= 25:
            raise CheckFailed(f"{where_high} every report is the true answer: nothing is randomized at this epsilon "
                              "and size, so nothing is private. Flip every person's coin, whatever epsilon is.")
        # The number of flips is Binomial(size, 1 - keep): outside its 1e-10 tails, flips are too rare or too
        # common at this epsilon (and a count far above it would also make the pair count below too costly).
        flip_rate = 1 - _keep_probability(high)
        if (_binom_sf(flipped.size - 1, size, flip_rate) < 1e-10 or _binom_cdf(flipped.size, size, flip_rate) < 1e-10):
            raise CheckFailed(f"{where_high} {flipped.size:,} reports differ from the truth, where randomized response "
                              f"flips about {size * flip_rate:,.0f}: the chance of keeping the true answer is wrong at "
                              "this epsilon and size. Keep it with probability e^epsilon / (1 + e^epsilon).")
        big_counts.append((size, int(flipped.size), flip_rate))  # to the count-spread test (referee s36rB)
        check_pairings(*pairing_counts(flips_high, part), where_high)
        if flipped.size >= 2:
            rows, cols = np.triu_indices(flipped.size, 1)
            counts = np.bincount(flipped[cols] - flipped[rows])
            if counts.max() > _poisson_isf(1e-11, flipped.size**2 / size):
                d = int(np.argmax(counts))
                raise CheckFailed(f"{where_high} {int(counts.max())} pairs of people d = {d:,} apart both flipped, where "
                                  "independent coins give about none: people share coins at this epsilon. Each person, "
                                  "at every epsilon, must flip their own coin.")
    for part in np.array_split(_arange(n), 10):
        if _z_off(kept[part].sum(), len(part), p) > Z_LIMIT:
            raise CheckFailed(f"{where} people in different positions are treated differently (positions "
                              f"{part[0]:,} to {part[-1]:,}): every person must flip their own coin with the same "
                              "probability.")
    # The same call: coins shared or correlated between person i and person i + d, for every d up to n - 14,000
    # (centred on the call's flip rate; one row, so each lag's z is about standard normal for independent coins,
    # and the largest of about 10^6 stays below 6.5 but with probability 8e-5). Coins shared between i and
    # i + n/2 give z about sqrt(n / 2), over 700 (referee: coins shared only above 20,000 people).
    flips = (~kept).astype(float)
    lags, z = lag_z_scores(flips[None, :] - float(flips.mean()), 1000.0)
    if z.size and float(np.abs(z).max()) > 6.5:
        d = int(lags[int(np.argmax(np.abs(z)))])
        raise CheckFailed(f"{where} the coins of person i and person i + {d:,} are correlated: each person, however "
                          "many there are, must flip their own coin, independent of everyone else's.")

    _high_epsilon_pairs(answer, generator)
    _highest_epsilon_flips(answer, generator)
    grid = _epsilon_size_grid(answer, generator)
    _size_sweep(answer, generator, big_counts)
    # Referee s40rB (D1, D2, D10): few people per call and many calls, below the grid's sizes and above its epsilons.
    check_few_people(answer, generator, grid, _reports)


#: 07.1's many-call case at a high epsilon (referee s38rB: antithetic coins, u and 1 - u, between person i and
#: i + n/2 or 2i and 2i + 1 above epsilon 4-5 passed): calls x people, and its epsilon.
HIGH_PAIRS_CASE = (200, 200_000, 6.8)
#: Calls of :data:`HIGH_PAIRS_CASE` per round trip (2,000,000 answers): the grader's wire carries at most
#: 5,000,000 values in one message (``mic_dp_teacher.grading.wire.MAX_ITEMS``).
HIGH_PAIRS_BATCH = 10


def _high_epsilon_pairs(answer, generator) -> None:
    """200 calls on 200,000 people (half true yes) at epsilon 6.8 (flip rate 1.11e-3): each pairing of
    ``_coin_pairs.PAIRINGS`` (about 100,000 pairs per call) expects 24.8 double flips over the calls; coins
    tied within a pairing at any epsilon up to 6.8 (antithetic: none; shared: about 22,000) fail its
    ``PAIRING_TAIL`` tails (Poisson(24.8) gives 0 or 1 with probability 4.3e-10). Limit: antithetic coins only
    above epsilon 6.8 pass (see ``_stats.LESSON07_POWER``)."""
    calls, n, epsilon = HIGH_PAIRS_CASE
    truth = generator.permutation(n) < n // 2  # half yes: the matchings by answer have n / 2 pairs too
    where = f"For {n:,} answers (half of them true yes) at epsilon={epsilon:.3g}, over {calls} calls:"
    runs = in_rounds(answer, calls, HIGH_PAIRS_BATCH, truth.copy(), epsilon, _default_rng(int(generator.integers(2**31))))
    flips = np.stack([_reports(raw, n, where) != truth for raw in runs])
    check_pairings(*pairing_counts(flips, truth), where)


#: 07.1's case at the highest epsilon tested (referee s39rB D2: noise skipped above epsilon 12 or 14 passed):
#: calls x people, and its epsilon. A correct answer flips 5.0e-7 of the answers, about 20 of the 40,000,000.
HIGHEST_EPSILON_CASE = (20, 2_000_000, 14.5)
#: Calls of :data:`HIGHEST_EPSILON_CASE` per round trip (4,000,000 answers, below the wire's 5,000,000 values).
HIGHEST_EPSILON_BATCH = 2


def _highest_epsilon_flips(answer, generator) -> None:
    """20 calls on 2,000,000 people at epsilon 14.5, in rounds of :data:`HIGHEST_EPSILON_BATCH` calls.

    Fails when no report differs from the truth: a correct answer expects 20.2 flips and flips none with
    probability e^-20.2 = 1.7e-9 (the test's alpha). An answer exact for 2,000,000 people at or above any epsilon below 14.5
    fails with probability 1 (exact only for fewer people: :mod:`_rr_few_people`, 9,914 people at 14.5). Limit: an answer exact only above epsilon 14.5 passes (at epsilon 16 a correct answer flips
    1.1e-7 of its answers: telling it from an exact one needs about 2e8 answers, beyond the grader's budget).
    """
    calls, n, epsilon = HIGHEST_EPSILON_CASE
    truth = generator.random(n) < 0.5
    where = f"For {n:,} answers at epsilon={epsilon:.3g}, over {calls} calls:"
    runs = in_rounds(answer, calls, HIGHEST_EPSILON_BATCH, truth.copy(), epsilon,
                      _default_rng(int(generator.integers(2**31))))
    flipped = sum(int((_reports(raw, n, where) != truth).sum()) for raw in runs)
    if flipped == 0:
        raise CheckFailed(f"{where} every report is the true answer, where randomized response flips about "
                          f"{calls * n * (1 - _keep_probability(epsilon)):.0f}: nothing is randomized at this epsilon, so "
                          "nothing is private. Flip every person's coin with probability 1 / (1 + e^epsilon), however "
                          "large epsilon is.")


def _epsilon_size_grid(answer, generator) -> list[float]:
    """Every epsilon, with every size (referees: exact only for 2 < epsilon < 3; s36rB: exact, twice epsilon or
    a fixed number of liars above 8,000 people for 1.05 < epsilon < 5.9 passed; s37rB: coins shared between
    people or reused between calls, and the exact answer for a unanimous truth, at 1.05 < epsilon < 5.9 passed).

    24 epsilons spread log-uniformly over 0.01 to 12 (one random offset shared by all, so neighbours are exactly
    a step apart, a factor 1.344). At each, one case on n0 = max(2,000, 30 / (1 - p)) people (at most
    1,000,000) and every size of a log-spaced ladder over 2,000 to 1,000,000 people (``GRID_SIZES`` rungs, a factor
    1.68 apart) above n0; the ladder of grid epsilon i is shifted by (i mod 3 + u) / 3 of a rung (u drawn once), so
    three consecutive grid epsilons together have a rung every factor 500^(1/36) = 1.18842, two every
    500^(1/24) = 1.29577 and one every 500^(1/12) = 1.67868 (sizes are rounded down, which only adds to a band).
    Every case expects at least 30 flips (at most 1,000,000 people, with enough calls above epsilon 10.4). One
    case per epsilon (drawn) has a unanimous truth, all yes or all no (a coin). Every case is called at least
    twice on the same truth. An answer exact in any band of epsilons wider than a grid step and above any size
    below the top rung (at least 596,000 people at every epsilon) keeps all where a correct one flips none with probability below e^-25; the kept
    shares of true yes and true no must be p within 5 standard errors (5.7e-7 each: twice epsilon gives z
    about 20 on 8,000 people at epsilon 1.05 to 5.9). The first call's flips are tested for pairs of people
    d apart (:func:`_coins.check_pairs_at_lags`: every d up to 131,072 people, and above wherever at most 1,000
    flips; else d = 1 to 32 and n/k) and against the second call's (:func:`_coins.check_calls_independent`),
    and their count goes to :func:`lesson07_sweeps.check_flip_count_spread_grid` (epsilon bands x bands of
    sizes, both tails). Referee s38rB: every call's double flips in the pairings of :data:`_coin_pairs.PAIRINGS`
    (by position, and by rank among the true-yes and true-no people) are tested per case
    (:func:`_coin_pairs.check_pairings`, both tails at 1e-9) and pooled per grid epsilon and over all
    epsilons from each one up (:class:`_coin_pairs.PairPool`, both tails at 1e-8); calls 2j and 2j + 1 are
    tested for a person's coin reused by another person (:func:`_coin_pairs.check_cross_calls`: every offset up
    to 32,768 people or where the flips are few, else the first and last 16,384 people of the two calls).

    Limits: a band of sizes is met for sure only where it holds a rung: a band of a factor w above 1.1885 over
    a band of epsilons at least 3 grid steps wide (a factor 2.43: it holds 3 consecutive grid epsilons), above
    1.2958 over 2 steps, above 1.6787 over 1 step (the referee's 400,000-480,000 people at epsilon 1.5-4: w = 1.2
    over 3.4 steps, met for sure; referee s40rB D9: 674,790-801,935 people, w = 1.188418 just below 1.18842, can
    pass); narrower bands are met with probability about ln w / ln(rung spacing) (w = 1.1 over 3 steps: 0.55). The
    grid has no size below n0 (2,000 people up to epsilon 4.2, 30 (1 + e^epsilon) above it): sizes below
    it are called by the few-people ladder (:mod:`_rr_few_people`, a rung every factor 1.5874 over 3 grid steps),
    whose limits are its own. Coins shared at a
    distance other than 1-32 and n/k only above 131,072 people and with more than 1,000 flips pass the grid; coins of
    one call reused by other people in the next at offsets d with n - |d| above 32,768, only above 32,768
    people and with many flips, pass the grid (the distribution cases test every offset, to 150,000 people).
    Returns the grid's epsilons, in order, for the few-people ladder.
    """
    grid = _log(0.01) + (_arange(24) + generator.random()) / 24 * (_log(12.0) - _log(0.01))
    rotation = float(generator.random())
    spread = []  # (epsilon index, size index, people, flips, flip rate)
    pool = PairPool(_exp_array(grid))
    for i, epsilon in enumerate(float(_exp_array(g)) for g in grid):
        p = _keep_probability(epsilon)
        n0 = _grid_start(epsilon)
        shift = (i % 3 + rotation) / 3
        ladder = (int(_exp(_log(2000.0) + (k + shift) / GRID_SIZES * _log(500.0))) for k in range(GRID_SIZES))
        sizes = [n0] + [n for n in ladder if n > n0]
        unanimous = int(generator.integers(len(sizes)))
        for j, n in enumerate(sizes):
            share = float(generator.integers(2)) if j == unanimous else float(generator.uniform(0.2, 0.8))
            kept = _grid_case(answer, generator, n, epsilon, share, pool.adder(i))
            spread.append((i, _sweeps07.size_bin(n), n, int((~kept).sum()), 1 - p))
    _sweeps07.check_flip_count_spread_grid(spread)
    pool.check()
    return [float(e) for e in _exp_array(grid)]


def _grid_case(answer, generator, n: int, epsilon: float, share: float, add_pairs) -> np.ndarray:
    """Two calls or more on n people at ``epsilon`` for 30 expected flips; the first call's kept answers."""
    p = _keep_probability(epsilon)
    calls = max(2, _ceil(30.0 / (n * (1 - p))))
    truth = generator.random(n) < share
    where = f"For {n} answers ({truth.mean():.0%} true yes) at epsilon={epsilon:.3g}:"
    runs = call_repeatedly(answer, calls, truth.copy(), epsilon, _default_rng(int(generator.integers(2**31))))
    kept = np.stack([_reports(raw, n, where) == truth for raw in runs])
    if kept.all() and calls * n * (1 - p) >= 25:
        raise CheckFailed(f"{where} every report is the true answer: nothing is randomized at this epsilon and "
                          "size, so nothing is private. Flip every person's coin, whatever epsilon, the number of "
                          "people and their answers are.")
    yes = int(_count_nonzero(truth))
    kept_yes = int(_count_nonzero(kept & truth))  # without copying kept[:, truth] (a second of CPU over the grid)
    for label, people, kept_here in (("true yes", yes, kept_yes), ("true no", n - yes, int(_count_nonzero(kept)) - kept_yes)):
        if people and _z_off(kept_here, calls * people, p) > Z_LIMIT:
            share = kept_here / (calls * people)
            raise CheckFailed(f"{where} answers that are {label} are kept {'too often' if share > p else 'too rarely'}"
                              f" ({share:.4f}): at every epsilon and for every number of people, every person must "
                              "tell the truth with probability e^epsilon / (1 + e^epsilon), whatever the others answer.")
    check_pairs_at_lags(~kept[0], where)
    check_calls_independent(~kept[0], ~kept[1], where)
    flips = ~kept
    check_cross_calls(flips, where)
    observed, expected = pairing_counts(flips, truth)
    check_pairings(observed, expected, where)
    add_pairs(observed, expected, calls * n)
    return kept[0]


def _size_sweep(answer, generator, big_counts) -> None:
    """Every size (referee rt0709: an answer exact only for 20,000 to 60,000 people passed).

    One case at each of 40 sizes spread log-uniformly over 2 to 1,000,000 people (one random offset shared by
    all, so neighbours are exactly a step apart before rounding down to an integer), each at an epsilon drawn
    log-uniformly from 0.05 to 1 (flip rate 0.27 to 0.49), with enough calls for 40 expected flips: an answer
    exact (or wrong in its rate) in any band of sizes [a, b] with (b + 1) / a above a grid step (a factor
    500,000^(1/40) = 1.388) keeps every answer where a correct one flips none with probability below e^-40,
    and the kept shares of true yes and true no must be p within 5.5 standard errors (a correct answer: 3.8e-8
    per test, 80 tests). The count of flipped answers per call from 2,000 people up (about 20 sizes, and the two
    calls on over 1,000,000 people) is tested by :func:`lesson07_sweeps.check_flip_count_spread` (referee
    s35rcb: exactly round(n (1 - p)) flips at random positions above 12,000 people passed). Limit (referee
    s35rcb): twice epsilon below 10 people passes; the few calls there (40 expected flips) see a keep rate
    0.607 -> 0.705 at z about 2.
    From 2,000 people the first call's pairs of flips d apart are tested by :func:`_coins.check_pairs_at_lags`
    (every d up to 131,072 people, above it d = 1 to 32 and n/k for k = 2 to 10; quasi-Poisson tails at 1e-13
    per distance); coins shared at one distance for a band of sizes give about n f / 2 pairs where n f^2 are
    expected. Limit: above 131,072 people (to 1,000,000) coins shared at another distance pass this sweep.
    """
    grid = _log(2.0) + (_arange(40) + generator.random()) / 40 * (_log(1e6) - _log(2.0))
    counts = list(big_counts)  # (people, flips, flip rate) of one call each
    for size in (int(_exp_array(g)) for g in grid):
        epsilon = float(_exp_array(generator.uniform(_log(0.05), 0.0)))
        p = _keep_probability(epsilon)
        calls = max(1, _ceil(40.0 / (size * (1 - p))))
        truth = generator.random(size) < float(generator.uniform(0.2, 0.8))
        where = f"For {size} answers at epsilon={epsilon:.3g}:"
        runs = call_repeatedly(answer, calls, truth.copy(), epsilon, _default_rng(int(generator.integers(2**31))))
        kept = np.stack([_reports(raw, size, where) for raw in runs]) == truth.astype(int)[None, :]
        if kept.all():
            raise CheckFailed(f"{where} every report is the true answer: nothing is randomized for this many people, "
                              "so nothing is private. Flip every person's coin, however many people there are.")
        for label, mask in (("true yes", truth), ("true no", ~truth)):
            if mask.any() and _z_off(kept[:, mask].sum(), calls * int(mask.sum()), p) > 5.5:
                share = float(kept[:, mask].mean())
                raise CheckFailed(f"{where} answers that are {label} are kept {'too often' if share > p else 'too rarely'}"
                                  f" ({share:.4f}): for every number of people, every person must tell the truth with "
                                  "probability e^epsilon / (1 + e^epsilon).")
        if size >= 2000:
            counts.append((size, int((~kept[0]).sum()), 1 - p))
            check_pairs_at_lags(~kept[0], where)
    _sweeps07.check_flip_count_spread(counts)


# --------------------------------------------------------------------------------------- 07.2
def _pair(raw, where: str) -> tuple[float, float]:
    if isinstance(raw, dict) or isinstance(raw, (str, bytes)):
        raise CheckFailed(f"{where} it should return two numbers: (estimate, standard_error).")
    try:
        items = list(raw)
    except TypeError:
        raise CheckFailed(f"{where} it should return two numbers, (estimate, standard_error), not one.") from None
    if len(items) != 2:
        raise CheckFailed(f"{where} it should return exactly two numbers, (estimate, standard_error); got {len(items)}.")
    return expect_number(items[0], "the estimated share"), expect_number(items[1], "its standard error")


def _estimate_edge_cases(generator) -> list[tuple[np.ndarray, float]]:
    """Reports as 07.1's check accepts them (bool, or 0/1 of an integer or float dtype): int64, int8, uint8,
    float64 and float32 0/1 arrays, one report of each kind, a million int8 reports, an integer epsilon."""
    cases = []
    for dtype in (np.int64, np.int8, np.uint8, np.float64, np.float32):
        n = int(generator.integers(2, 5_000))
        cases.append(((generator.random(n) < generator.random()).astype(dtype), float(generator.uniform(0.05, 8))))
        cases.append((_asarray([1 if dtype is np.int8 else 0], dtype=dtype), 1.5))
    cases.append(((generator.random(1_000_000) < 0.41).astype(np.int8), 0.3))
    cases.append(((generator.random(500) < 0.5).astype(np.int64), 2))
    return cases


@exercise("07.2", title="De-biasing randomized response, with a standard error", answer_name="estimate_share")
def check_estimate_share(answer, seed: int = 7002) -> None:
    """A correct answer returns ``((y - (1 - p)) / (2p - 1), sqrt(p (1 - p) / n) / (2p - 1))`` with ``y`` the
    share of yes reports and ``p = e^eps / (1 + e^eps)``, to a relative 1e-7, on 20 cases drawn from ``seed``
    (1 to 100,000 reports, all no and all yes, epsilon 0.01 to 20) and the edge cases of
    ``_estimate_edge_cases`` (0/1 reports of integer and float dtypes, one report, a million reports).

    Parameters
    ----------
    answer : callable
        The student's ``estimate_share`` (exercise 07.2).
    seed : int, default 7002
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    generator = _default_rng(seed)
    cases = [(int(generator.integers(2, 20_000)), float(generator.random()), float(generator.uniform(0.05, 8)))
             for _ in range(12)]
    cases += [(40, 0.5, 3.0), (10_000, 0.93, 0.7), (5, 0.0, 0.2), (1, 1.0, 1.0)]  # boundaries: all no, all yes
    cases += [(100_000, 0.37, 20.0), (3, 0.5, 0.01), (50_000, 0.0, 15.0), (2, 1.0, 0.01)]  # sizes and epsilons far out
    reports_list = [generator.random(n) < yes_share for n, yes_share, _ in cases]
    for reports, epsilon in _estimate_edge_cases(generator):
        reports_list.append(reports)
        cases.append((len(reports), None, epsilon))
    for (n, _, epsilon), reports in zip(cases, reports_list):
        given = reports.copy()
        y = _count_nonzero(reports) / n
        where = f"For {n} reports of dtype {reports.dtype} ({y:.1%} yes) at epsilon={epsilon:.3g}:"
        estimate, standard_error = _pair(answer(given, epsilon), where)
        if not _array_equal(given, reports) or given.dtype != reports.dtype:
            raise CheckFailed(f"{where} your function changed the reports it was given.")
        p = _keep_probability(epsilon)
        expected = (y - (1 - p)) / (2 * p - 1)
        expected_se = _sqrt(p * (1 - p) / n) / (2 * p - 1)
        if not math.isclose(estimate, expected, rel_tol=1e-7, abs_tol=1e-10):
            if 0 <= estimate <= 1 and math.isclose(estimate, min(max(expected, 0.0), 1.0), rel_tol=1e-7, abs_tol=1e-10):
                raise CheckFailed(f"{where} the estimate was clipped into [0, 1]. Clipping biases it; report the "
                                  "unbiased value even when it falls outside.")
            if math.isclose(estimate, y, rel_tol=1e-9, abs_tol=1e-12):
                raise CheckFailed(f"{where} that is the raw share of 'yes' reports; it is pulled towards 1/2 by the "
                                  "flips. Solve E[share of yes reports] = (2p - 1) * pi + (1 - p) for pi.")
            raise CheckFailed(f"{where} the estimate is off. Its expected value must be the true share of yes: "
                              "check p = e^epsilon / (1 + e^epsilon) and how you undo the flips.")
        if not math.isclose(standard_error, expected_se, rel_tol=1e-7):
            plug_in = _sqrt(y * (1 - y) / n) / (2 * p - 1)
            if n > 1 and math.isclose(standard_error, plug_in, rel_tol=1e-7):
                raise CheckFailed(f"{where} that standard error uses the share of yes reports; the only randomness "
                                  "is the coins, each kept with probability p whatever the answer: use p(1 - p).")
            if math.isclose(standard_error, expected_se * (2 * p - 1), rel_tol=1e-7):
                raise CheckFailed(f"{where} the standard error forgets that de-biasing divides by (2p - 1), which "
                                  "multiplies the error too.")
            raise CheckFailed(f"{where} the standard error is off: it is the standard deviation of your estimate "
                              "over the coin flips, for these n people.")


# --------------------------------------------------------------------------------------- 07.3
