"""04.2: are different people's choices independent (referee s39rA D3)?

Each person's kept rows can be a uniform choice while pairs of people are tied: consecutive people sharing one
draw, or one person keeping the mirror image (positions m - 1 - p) of another's. Removing one person then re-pairs
everybody after them, so the bounded tables of neighbouring inputs differ in more than that person's rows. The
earlier test caught only one draw shared by more than half of the people.

On the 7-row table (k = 2: 21 possible sets), each pair of people in one call is *tied* when their sets are equal
or mirror images. Independent uniform choices tie a pair with probability p = 39/441 (3 sets are their own mirror
image). The number of tied pairs over the calls is a sum, over calls, of U-statistics of degree 2; its exact mean
and variance under independence are in :func:`tie_moments`. More than ``TIE_Z`` standard deviations above the mean
fails (one-sided, about 6e-8 by the normal approximation of a sum of 60 independent calls' counts). Power: with 30
people and 60 calls, 15 pairs per call tied on purpose add about 820 ties over 60 calls (z about 13); even 2 tied
pairs per call (about 110 extra) give z about 1.8, so ties between few people are a limit. Any other dependence
between people (disjoint, shifted or reversed picks of one permutation, referee s39rE) is tested after the ties by
:func:`mic_dp_helpers.checks._choice_agreement.check_people_independent` on the same calls.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.checks import _choice_agreement
from mic_dp_helpers.checks._core import CheckFailed

#: One-sided z above which the tied pairs are too many (about 6e-8 under independence).
TIE_Z = 5.3
#: The 21 bitmasks of 2 of 7 positions, and each one's mirror image (position p to 6 - p).
_SETS = [(1 << a) | (1 << b) for a in range(7) for b in range(a + 1, 7)]
_MIRROR = {s: sum(1 << (6 - p) for p in range(7) if s >> p & 1) for s in _SETS}


def _tied_with(s: int) -> set:
    return {s, _MIRROR[s]}


def kept_sets(offsets: np.ndarray, people: int) -> np.ndarray:
    """Each person's kept rows as a bitmask of positions, from the kept rows' offsets in the 7-row table.

    Parameters
    ----------
    offsets : numpy.ndarray
        Kept rows' offsets from the table's first index (person ``offset // 7``, position ``offset % 7``).
    people : int
        People in the table.

    Returns
    -------
    numpy.ndarray
        One bitmask per person.

    Examples
    --------
    >>> kept_sets(np.array([0, 1, 12, 13]), 2).tolist()  # person 0 keeps positions 0, 1; person 1 keeps 5, 6
    [3, 96]
    """
    return np.bincount(offsets // 7, weights=2 ** (offsets % 7), minlength=people).astype(int)


def check_not_shared(sets: np.ndarray, people: int) -> None:
    """Fail when, in one call, more than half of the people (7 rows each) keep the same positions: independent
    uniform choices of 2 of 7 give each set to Binomial(people, 1/21) people (more than half: below 1e-12 from 30
    people), one shared draw for everybody (each person's set uniform, but the same for all) gives it to all.

    Parameters
    ----------
    sets : numpy.ndarray
        One call's bitmask per person (:func:`kept_sets`).
    people : int
        People in the table.

    Raises
    ------
    CheckFailed
        With the hint that one draw is shared by everybody.
    """
    if len(sets) and np.unique(sets, return_counts=True)[1].max() > people / 2:
        raise CheckFailed(f"in one call, most of the {people} people kept the same positions among their rows: "
                          "each person's choice is random, but one draw is shared by everybody. Draw each person's "
                          "rows separately, independently of the other people's (property: independent choice "
                          "for each person).")


def tie_moments(people: int) -> tuple[float, float]:
    """Mean and variance of the number of tied pairs among ``people`` independent uniform choices of 2 of 7.

    A U-statistic of degree 2: variance = C(n, 2) (Var h + 2 (n - 2) Cov(h12, h13)).

    Parameters
    ----------
    people : int
        People in one call.

    Returns
    -------
    tuple of float
        The mean and the variance.

    Examples
    --------
    >>> mean, variance = tie_moments(30)
    >>> round(mean / 435, 4)  # 39 / 441
    0.0884
    """
    share = {s: len(_tied_with(s)) / 21 for s in _SETS}
    p = sum(share.values()) / 21
    both = sum(v * v for v in share.values()) / 21  # P(h12 = h13 = 1)
    pairs = people * (people - 1) / 2
    return pairs * p, pairs * (p * (1 - p) + 2 * (people - 2) * (both - p * p))


def tied_pairs(sets: np.ndarray) -> int:
    """The number of pairs of people whose kept sets (bitmasks of 2 of 7 positions) are equal or mirror images.

    Parameters
    ----------
    sets : numpy.ndarray
        One bitmask per person.

    Returns
    -------
    int
        Tied pairs.

    Examples
    --------
    >>> tied_pairs(np.array([3, 3, 96, 5]))  # 3 = {0, 1}, its mirror 96 = {5, 6}
    3
    """
    values, counts = np.unique(sets, return_counts=True)
    count = dict(zip(values.tolist(), counts.tolist()))
    total = sum(c * (c - 1) // 2 for c in count.values())
    total += sum(c * count.get(_MIRROR.get(s, -1), 0) for s, c in count.items() if s < _MIRROR.get(s, -1))
    return int(total)


def check_ties(sets_by_call: list) -> None:
    """Fail when people's kept sets are tied (equal or mirrored) more often than independent choices allow.

    Parameters
    ----------
    sets_by_call : list of numpy.ndarray
        For each call, one bitmask per person (all people with 7 rows, k = 2).

    Raises
    ------
    CheckFailed
        With the hint that people's choices are tied to each other's.
    """
    observed, mean, variance = 0, 0.0, 0.0
    for sets in sets_by_call:
        observed += tied_pairs(sets)
        m, v = tie_moments(len(sets))
        mean, variance = mean + m, variance + v
    z = (observed - mean) / math.sqrt(variance) if variance > 0 else 0.0
    if z > TIE_Z:
        raise CheckFailed(f"over {len(sets_by_call)} calls, {observed} pairs of people kept the same rows or mirror "
                          f"images of each other's, where independent choices give about {mean:.0f} (z = {z:.1f}): "
                          "each person's choice is random, but tied to another person's (a shared or mirrored draw). "
                          "Removing one person would then change other people's kept rows. Draw each person's rows "
                          "separately, independently of the other people's (property: independent choice for each "
                          "person).")
    people = len(sets_by_call[0]) if sets_by_call else 0
    x = (np.asarray(sets_by_call)[:, :, None] >> np.arange(7)) & 1
    _choice_agreement.check_people_independent(x, 2, [np.arange(people)], f"over {len(sets_by_call)} calls with k=2 "
                                               f"on a table of {people} people")
