"""04.1: data with few distinct values, data beyond one bound, and tiny epsilons (referee s39rA D1, D6).

Every other case of 04.1 draws continuous values strictly inside the bounds, at epsilon 0.02 or more. Answers that
release the exact mean when every value is the same, when the values are 0/1 or take two or three values, when
every value lies beyond one bound (the clamped mean is then that bound), or below epsilon 0.015, passed; so did
bounds narrowed to the data when the data take at most two values. Each of these has an infinite privacy loss: on
[5.0] * 100 the exact answer is 5.0 every time, and never once one person with 6.0 joins.

Here each case of :func:`few_value_cases` and of :func:`level_cases` gets ``SPREAD_RUNS`` answers and
``REFERENCE_RUNS`` of PyDP's own, and:

- the answers are never all equal (a correct answer: at most about 2 x 0.55^120 = 2e-31, when half its answers sit
  on a bound);
- where the clamped mean lies strictly inside the bounds, few answers are within 1e-3 x min(noise scale, bound
  width) of it (each has probability about 2e-3 or less; :func:`near_allowance` allows the most that a correct
  answer exceeds with probability at most ``NEAR_P``: 3 of 40, 5 of 120);
- their distances to the clamped mean are not smaller than PyDP's (one-sided rank test with ties): in any one case
  (``CASE_P``), and pooled over a kind's cases (``SPREAD_P`` per kind). Bounds narrowed to 0/1 data inside wider
  bounds gave a pooled z about -9 with 40 answers and 80 of PyDP's a case; bounds narrowed to the data for 4-10
  whole-number levels (a referee's answer that CI's run of stop 41 accepted once: there its pooled z was -5.2 to
  -6.7, against a threshold of -4.75) gave a smallest per-case z of -7.2 to -8.9 and a pooled one of -7.9 to -9.9
  with 80 and 160 (15 runs), and answers narrowing for exactly 5 or exactly 7 values a smallest per-case z of
  -5.4 to -8.0 (24 runs); with 120 and 240 those two give -6.2 to -10.1 (20 runs), against -4.75
  (``CASE_P``). The per-case test catches an answer that narrows the bounds for one kind of data only (one count
  of levels, say): a case whose noise is cut to a third has z below -4.75 in every one of the 156 cases of seeds
  0-5 whose data lie strictly inside the bounds (the four kinds and the level cases), in half of those below
  epsilon 0.015 and in none beyond one bound, where PyDP's answers pile up on the bound
  (``benchmarks/few_values_power.py``). There the answers on a bound tie, so two more tests look at the pile
  (:func:`_off_the_bounds`, referee s42 D1, D2): the share of answers on a bound, and the same rank test among the
  answers off the bounds; with them an epsilon floored at 0.0045, or tripled for data beyond one bound, fails at
  every seed of 0-5 (they passed before). A correct answer: no rejection of the whole check at seeds 30-59
  (``tests/check_rates.py``, 2026-11-28), nor at seeds 0-12 of this stage (referee s42); seeds 0-29 were measured
  with the earlier setting (80 and 160 a case, ``CASE_P`` 1e-7).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._mean_spread import rank_shift
from mic_dp_helpers.checks._pydp_reference import OUTSIDE_BOUNDS_HINT, outside_bounds, pydp_means, snap_to_bounds
from mic_dp_helpers.scale.pydp_error import bounded_mean_noise_std

_default_rng = np.random.default_rng
_norm_cdf = scipy.stats.norm.cdf
_hypergeom_cdf = scipy.stats.hypergeom.cdf
_sqrt = math.sqrt
_float = float
_len = len

#: Answers and PyDP's own answers per case (of :func:`few_value_cases` and of :func:`level_cases`), and the
#: one-sided p-values of the spread test: per kind, its cases pooled (6 kinds and the level cases' whole and real
#: numbers: 8e-6), and per case (32 cases: 3.2e-5); and of the count of answers near the exact mean, per case.
SPREAD_RUNS, REFERENCE_RUNS, SPREAD_P, CASE_P, NEAR_P = 120, 240, 1e-6, 1e-6, 2e-6
#: An upper bound on the probability that one of PyDP's answers lies within 1e-3 x min(noise scale, bound width)
#: of the clamped mean (see the module's docstring).
NEAR_PROBABILITY = 2e-3
#: The kinds of data of :func:`few_value_cases`, each tested in every stratum of :data:`SIZES` x :data:`EPSILONS`.
KINDS = ("every value the same", "0/1 values with bounds [0, 1]", "0/1 values inside wider bounds",
         "two to eight distinct whole numbers", "every value beyond one bound", "epsilon below 0.015")
#: Size strata (numbers of values) and epsilon strata (the last kind's are ``TINY_EPSILONS``); each kind gets one
#: case per size stratum, its epsilon strata paired with the sizes by a seeded permutation.
SIZES = ((20, 300), (300, 3000), (3000, 20000))
EPSILONS = ((0.1, 1.0), (1.0, 5.0), (5.0, 20.0))
TINY_EPSILONS = ((1e-4, 1e-3), (1e-3, 4e-3), (4e-3, 0.015))


def _log_uniform(rng, low: float, high: float) -> float:
    return _float(math.exp(rng.uniform(math.log(low), math.log(high))))


def _case(rng, label: str, sizes: tuple, epsilons: tuple, on_bound: bool) -> tuple:
    n = int(_log_uniform(rng, *sizes))
    epsilon = _log_uniform(rng, *epsilons)
    lower = _float(rng.uniform(-50, 50))
    upper = lower + _log_uniform(rng, 2, 200)
    width = upper - lower
    if label == "every value the same":
        values = [_float(rng.uniform(lower + width / 5, upper - width / 5))] * n
    elif label == "0/1 values with bounds [0, 1]":
        lower, upper = 0.0, 1.0
        values = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(float).tolist()
    elif label == "0/1 values inside wider bounds":
        lower, upper = -_log_uniform(rng, 1, 10), 1.0 + _log_uniform(rng, 1, 10)
        values = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(float).tolist()
    elif label == "two to eight distinct whole numbers":  # in the middle third of [0, 150]: bounds from the data
        lower, upper = 0, 150                             # would cut the noise to a third or less
        levels = rng.choice(np.arange(50, 101), size=int(rng.integers(2, 9)), replace=False)
        values = rng.choice(levels, size=n).astype(float).tolist()
    elif label == "every value beyond one bound":
        side = upper if rng.random() < 0.5 else lower
        direction = 1.0 if side == upper else -1.0
        values = (side + direction * rng.uniform(width / 100, width, n)).tolist()
        if on_bound:
            values[0] = side  # one value exactly at the bound, the others beyond it
    else:  # epsilon below 0.015: the noise dwarfs the bounds, and PyDP's answers pile up on them
        values = rng.uniform(lower + width / 5, upper - width / 5, n).tolist()
    return values, lower, upper, epsilon, label


def few_value_cases(seed: int) -> list:
    """(values, lower, upper, epsilon, label): each of :data:`KINDS` once in each size stratum of :data:`SIZES`
    (20-20,000 values), with one epsilon from each of :data:`EPSILONS` (0.1-20; :data:`TINY_EPSILONS`, 1e-4-0.015,
    for the last kind) paired with the sizes at random. Data beyond one bound have one value on the bound in one
    case of three and lie strictly beyond it in the others.

    Parameters
    ----------
    seed : int
        The check's seed.

    Returns
    -------
    list of tuple
        Three cases per kind, kind by kind, then a fourth of the tiny-epsilon kind (:func:`_matched_tiny_case`) and
        three with every value on a bound (:func:`_on_one_bound_cases`).

    Examples
    --------
    >>> [case[4] for case in few_value_cases(1)][:18:3] == list(KINDS)
    True
    """
    rng = _default_rng([seed, 39])
    cases = []
    for label in KINDS:
        bands = TINY_EPSILONS if label == "epsilon below 0.015" else EPSILONS
        order = rng.permutation(len(SIZES))
        on_bound = int(rng.integers(len(SIZES)))
        cases += [_case(rng, label, SIZES[i], bands[order[i]], i == on_bound) for i in range(len(SIZES))]
    return cases + [_matched_tiny_case(_default_rng([seed, 42]))] + _on_one_bound_cases(_default_rng([seed, 43]))


def _on_one_bound_cases(rng) -> list:
    """Every value exactly on one bound, in each size stratum of :data:`SIZES` (2 to 20,000 values: the smallest
    stratum starts at 2), epsilon strata of :data:`EPSILONS` paired at random (referee s44, D1: the exact value there,
    or 3 to 1,000 times epsilon, passed; the kind beyond one bound puts at most one value on it; one case alone let
    3 x epsilon pass at 3 of seeds 0-9, so the kind has three cases, pooled)."""
    cases = []
    for sizes, epsilons in zip(((2, SIZES[0][1]),) + SIZES[1:], [EPSILONS[i] for i in rng.permutation(len(SIZES))]):
        n, epsilon = int(_log_uniform(rng, *sizes)), _log_uniform(rng, *epsilons)
        lower = _float(rng.uniform(-50, 50))
        upper = lower + _log_uniform(rng, 2, 200)
        cases.append(([upper if rng.random() < 0.5 else lower] * n, lower, upper, epsilon, "every value on one bound"))
    return cases


def _matched_tiny_case(rng) -> tuple:
    """A fourth case of the tiny-epsilon kind, its size matched to its epsilon (referee s42, D1: epsilon floored at
    0.0045 passed at the default seed, whose random pairing put few values at the least epsilon, where PyDP's
    answers all pile on the bounds): epsilon 3e-4 to 1e-3 and 1/epsilon to 5/epsilon values (1,000 to 16,700), so
    PyDP's noise is on a par with the bounds' width."""
    values, lower, upper, epsilon, label = _case(rng, "epsilon below 0.015", (2, 3), (3e-4, 1e-3), False)
    n = int(_log_uniform(rng, 1 / epsilon, 5 / epsilon))
    width = upper - lower
    return rng.uniform(lower + width / 5, upper - width / 5, n).tolist(), lower, upper, epsilon, label


#: Counts of distinct values of :func:`level_cases`: each once, so that an answer exact for one count of distinct
#: values fails whatever the count (CI's seed at stop 40 drew no two-level case among the three of its kind).
LEVEL_COUNTS = tuple(range(2, 9))


def level_cases(seed: int) -> list:
    """(values, lower, upper, epsilon, label): two cases for each count of distinct values in :data:`LEVEL_COUNTS`,
    one with whole-number levels and one with real ones, tested like those of :func:`few_value_cases` (the
    spread test pooled over the whole-number cases and over the real ones, :func:`level_kind`). Each has 20-20,000 values (log-uniform), epsilon 0.1-20 (log-uniform), random whole-number bounds, and
    its levels strictly inside the middle three fifths of them.

    Parameters
    ----------
    seed : int
        The check's seed.

    Returns
    -------
    list of tuple
        Two cases per count (whole, then real levels), in the order of :data:`LEVEL_COUNTS`.

    Examples
    --------
    >>> [len(set(case[0])) for case in level_cases(1)][::2] == list(LEVEL_COUNTS)
    True
    """
    rng = _default_rng([seed, 40])
    cases = []
    for count in LEVEL_COUNTS:
        for whole in (True, False):
            n = max(count, int(_log_uniform(rng, 20, 20000)))
            lower = _float(np.floor(rng.uniform(-100, 100)))
            width = _float(np.ceil(_log_uniform(rng, 20, 400)))
            inside = np.arange(np.ceil(lower + width / 5), np.floor(lower + 4 * width / 5) + 1)
            levels = (rng.choice(inside, size=count, replace=False) if whole
                      else rng.uniform(lower + width / 5, lower + 4 * width / 5, count))
            values = np.concatenate([levels, rng.choice(levels, size=n - count)])
            cases.append((rng.permutation(values).tolist(), lower, lower + width, _log_uniform(rng, 0.1, 20.0),
                          f"{count} distinct {'whole' if whole else 'real'} numbers"))
    return cases


def level_kind(label: str) -> str:
    """The kind under which a case of :func:`level_cases` is pooled: its levels whole numbers or not.

    Parameters
    ----------
    label : str
        The case's label.

    Returns
    -------
    str
        The kind, named in the spread test's hint.

    Examples
    --------
    >>> level_kind("5 distinct whole numbers"), level_kind("2 distinct real numbers")
    ('2 to 8 distinct whole numbers, each count once', '2 to 8 distinct real numbers, each count once')
    """
    first, last = LEVEL_COUNTS[0], LEVEL_COUNTS[-1]
    return f"{first} to {last} distinct {'whole' if 'whole' in label else 'real'} numbers, each count once"


def near_allowance(runs: int) -> int:
    """The most answers of ``runs`` that may lie within a hair of the clamped mean: the least k such that k + 1 or
    more, each with probability :data:`NEAR_PROBABILITY`, have probability at most :data:`NEAR_P`.

    Parameters
    ----------
    runs : int
        The number of answers.

    Returns
    -------
    int
        The allowance.

    Examples
    --------
    >>> near_allowance(40), near_allowance(120)
    (3, 5)
    """
    allowed = 0
    while float(scipy.stats.binom.sf(allowed, runs, NEAR_PROBABILITY)) > NEAR_P:
        allowed += 1
    return allowed


def check_noisy(answers, values, lower: float, upper: float, epsilon: float, label: str) -> None:
    """Fail a case whose answers are all equal, or within a hair of the exact (clamped) mean too often.

    Parameters
    ----------
    answers : numpy.ndarray
        The answer's ``SPREAD_RUNS`` outputs (numbers).
    values : list of float
        The case's values.
    lower, upper, epsilon : float
        Its bounds and epsilon.
    label : str
        Its kind of data, named in the hint.

    Raises
    ------
    CheckFailed
        With a hint that names the kind of data.
    """
    where = f"With {_len(values)} values ({label}), bounds [{lower:.6g}, {upper:.6g}] and epsilon={epsilon:.6g}:"
    clamped = np.clip(np.asarray(values, dtype=float), lower, upper)
    centre = _float(clamped.mean())
    rule = ("the noise must not depend on what the values look like: let PyDP's BoundedMean answer every call, "
            "with the bounds you were given, whatever the data (all equal, 0/1, a few values, beyond a bound) "
            "and however small epsilon is.")
    if answers.max() == answers.min():
        raise CheckFailed(f"{where} all {_len(answers)} answers are the same number (property: noise for every input): {rule}")
    if not (np.all(clamped == lower) or np.all(clamped == upper)):  # else PyDP's answers sit on that bound half the time
        scale = bounded_mean_noise_std(lower, upper, epsilon, _len(values), mean=centre) / _sqrt(2)
        window = 1e-3 * min(scale, upper - lower)
        near = int((np.abs(answers - centre) <= window).sum())
        if near > near_allowance(_len(answers)):
            raise CheckFailed(f"{where} {near} of {_len(answers)} answers are the exact mean or within a hair of it "
                              f"(property: noise for every input): {rule}")


def check_case(answers, values, lower: float, upper: float, epsilon: float, label: str) -> tuple[float, float]:
    """Fail a case whose answers are noiseless or near the exact mean too often (:func:`check_noisy`); else rank
    them among PyDP's.

    Parameters
    ----------
    answers : numpy.ndarray
        The answer's ``SPREAD_RUNS`` outputs (numbers).
    values : list of float
        The case's values.
    lower, upper, epsilon : float
        Its bounds and epsilon.
    label : str
        Its kind (one of :data:`KINDS`).

    Returns
    -------
    dict
        {"all answers": (shift, variance), "answers off the bounds": (shift, variance)}: the rank-sum shift of the
        answers' distances to the clamped mean among ``REFERENCE_RUNS`` of PyDP's, and its variance (see
        :func:`~mic_dp_helpers.checks._mean_spread.rank_shift`), over all answers and over those not on a bound
        (:func:`_off_the_bounds`), for :func:`check_spread`.

    Raises
    ------
    CheckFailed
        With a hint that names the kind of data.
    """
    check_noisy(answers, values, lower, upper, epsilon, label)
    where = f"With {_len(values)} values ({label}), bounds [{lower:.6g}, {upper:.6g}] and epsilon={epsilon:.6g}:"
    if outside_bounds(answers, lower, upper):
        raise CheckFailed(f"{where} {OUTSIDE_BOUNDS_HINT}")
    centre = _float(np.clip(np.asarray(values, dtype=float), lower, upper).mean())
    # Outputs within a hair of a bound count as on it, in both samples (an honest answer rounded to 6 decimals was
    # rejected where PyDP's answers all pile on the bounds: its distances no longer tied with PyDP's; referee s44).
    answers = snap_to_bounds(answers, lower, upper)
    reference = snap_to_bounds(pydp_means(values, lower, upper, epsilon, REFERENCE_RUNS), lower, upper)
    advice = ("too little noise here. Is epsilon changed (everywhere, or for some data or sizes), or are the bounds "
              "narrowed to the values present? The noise must come from the bounds and epsilon you were given, never "
              "from the data.")
    shift, variance = rank_shift(answers, reference, centre)
    if _lower_tail(shift, variance) < CASE_P:
        raise CheckFailed(f"{where} your answers lie closer to the clamped mean than PyDP's BoundedMean's own answers on "
                          f"the same input (rank test, z = {_z(shift, variance):.1f}; property: noise of the right "
                          f"size): {advice}")
    off = _off_the_bounds(answers, reference, centre, lower, upper, where, advice)
    return {"all answers": (shift, variance), "answers off the bounds": off}


def _z(shift: float, variance: float) -> float:
    return shift / _sqrt(variance) if variance > 0 else 0.0


def _lower_tail(shift: float, variance: float) -> float:
    return float(_norm_cdf(_z(shift, variance)))


def _off_the_bounds(answers, reference, centre: float, lower: float, upper: float, where: str,
                    advice: str) -> tuple[float, float]:
    """Where PyDP's answers pile up on a bound (referee s42, D1 and D2), two tests the rank test of all answers is
    weak at, as the answers on a bound tie: fewer answers on a bound than PyDP's (hypergeometric, given how many of
    both samples are on one; p >= ``CASE_P``), and the answers off the bounds closer to the clamped mean than PyDP's
    off the bounds (the same rank test among those only; under a correct answer both samples' answers off the
    bounds are alike, whatever their numbers). Both samples come snapped to the bounds
    (:func:`~mic_dp_helpers.checks._pydp_reference.snap_to_bounds`, one rule for both, so the tests stay exact for a
    correct answer). Measured with ``benchmarks/few_values_power.py`` (seeds 0-5, 120 and 240 runs a case): three
    times epsilon for data beyond one bound only (``--shrink 0.3333 --only``) is rejected in 17 of 18 cases and at
    every seed (the rank test of all answers alone: no case; at seeds 0-2 its z was -1.5 to -4.8 a case, off the
    bounds -4.4 to -7.7); epsilon floored at 0.0045 below 0.015 only (``--shrink 1
    --floor 0.0045``) in 13 of 24 cases and at every seed. Limits (referee s44): twice epsilon beyond one bound is
    rejected by the stage at 5 of seeds 0-5 (one whole-check run at the default seed passed it), 1.5 times at 2;
    twice epsilon with every value on one bound at 9 and 10 of seeds 0-9 in two runs, 1.5 times at 3 of them
    (the default seed rejects it); the bound itself returned in 30% of calls when every value is on it passes (a
    privacy loss of about ln(0.65 / 0.5) = 0.26 above epsilon there, as PyDP answers the bound half the time).
    Returns the rank shift off the bounds and its variance ((0, 0) where no answer of either sample is on a bound),
    pooled by kind in :func:`check_spread`."""
    on_answers, on_reference = (answers == lower) | (answers == upper), (reference == lower) | (reference == upper)
    if not (on_answers.any() or on_reference.any()):
        return 0.0, 0.0
    k, both = int(on_answers.sum()), int(on_answers.sum() + on_reference.sum())
    if float(_hypergeom_cdf(k, _len(answers) + _len(reference), both, _len(answers))) < CASE_P:
        raise CheckFailed(f"{where} {k} of {_len(answers)} of your answers sit on a bound, where "
                          f"{int(on_reference.sum())} of {_len(reference)} of PyDP's BoundedMean's own answers on the same "
                          "input do (property: distributed like PyDP's answers). Too little noise puts fewer answers on "
                          "the bounds (epsilon changed, or the bounds narrowed to the data), and so does moving PyDP's "
                          "answer off a bound afterwards; return PyDP's answer as it is, with the bounds and epsilon you "
                          "were given.")
    if on_answers.all() or on_reference.all():
        return 0.0, 0.0
    shift, variance = rank_shift(answers[~on_answers], reference[~on_reference], centre)
    if _lower_tail(shift, variance) < CASE_P:
        raise CheckFailed(f"{where} your answers that are not on a bound lie closer to the clamped mean than PyDP's "
                          f"BoundedMean's own answers not on a bound (rank test, z = {_z(shift, variance):.1f}; "
                          f"property: noise of the right size): {advice}")
    return shift, variance


def check_spread(pooled: dict) -> None:
    """Fail a kind whose answers, pooled over its cases, lie closer to the clamped means than PyDP's own.

    Parameters
    ----------
    pooled : dict
        {(kind, test): [sum of the cases' rank-sum shifts, sum of their variances]}, ``test`` a key of what
        :func:`check_case` returns.

    Raises
    ------
    CheckFailed
        With the kind and the z-score.
    """
    for (label, which), (shift, variance) in pooled.items():
        z = _z(shift, variance)
        if float(_norm_cdf(z)) < SPREAD_P:
            whose = "answers that are not on a bound" if "off" in which else "answers"
            raise CheckFailed(f"With data of the kind '{label}' (its cases pooled), your {whose} lie closer to the "
                              "clamped mean than PyDP's BoundedMean's own answers on the "
                              f"same inputs (rank test, z = {z:.1f}; property: noise of the right size): too little "
                              "noise for this kind of data. Are the bounds narrowed to the values present, or epsilon "
                              "changed? The noise must come from the bounds and epsilon you were given, never from "
                              "the data.")
