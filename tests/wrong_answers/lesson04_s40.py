"""Wrong answers to 04.2 that referee s39rE found accepted (D3: two people's choices tied other than by equal or
mirrored sets, or only among people without 7 rows), each with more members of its class (other shifts, other
row counts, people far apart, a subset of people). Each person's choice is uniform; pairs of people are not
independent. They join the owner's answers as ``MORE_WRONG_ANSWERS`` (see
:func:`wrong_answers.collect_wrong_answers`).
"""

from __future__ import annotations

import numpy as np

MORE_WRONG_ANSWERS: dict = {}


# ------------------------------------------------------------------- the referee's answers (s39rE appendix)
def _pairwise(df, person_column, k, rng, second):
    keep = []; last = None
    for j, (p, idx) in enumerate(df.groupby(person_column, sort=False).indices.items()):
        m = len(idx)
        if m <= k:
            keep.extend(idx); last = None; continue
        if last is not None and last[0] == m:
            pos = second(last[1], m, last[2], k, rng); last = None
        else:
            perm = rng.permutation(m)
            pos = perm[:k]; last = (m, pos, perm)
        keep.extend(idx[np.asarray(pos)])
    return df.iloc[np.sort(np.array(keep, dtype=int))]


def _second_of_pair(second):
    def answer(df, person_column, k, rng):
        return _pairwise(df, person_column, k, rng, second)
    return answer


def _disjoint(pos, m, perm, k, rng):
    return perm[k:2 * k] if 2 * k <= m else perm[m - k:]


def _shift(step, rows=lambda m: True):
    def second(pos, m, perm, k, rng):
        return (pos + step) % m if rows(m) else rng.choice(m, k, replace=False)
    return second


def _share_unless_7(pos, m, perm, k, rng):
    return pos if m != 7 else rng.choice(m, k, replace=False)


def _reversed_perm(pos, m, perm, k, rng):
    return perm[::-1][:k]


def _disjoint_above_7(pos, m, perm, k, rng):
    return _disjoint(pos, m, perm, k, rng) if m > 7 else rng.choice(m, k, replace=False)


# ------------------------------------------------------------------- people far apart, or a few people only
def _linked(link):
    """Each person of a row count (in order of first appearance) reuses, through ``link(i, n, m)`` -> (j, how)
    or None, the permutation drawn for person j < i of that row count: positions ``how(perm, k, m)``."""
    def answer(df, person_column, k, rng):
        groups = list(df.groupby(person_column, sort=False).indices.values())
        sizes = np.array([len(idx) for idx in groups])
        perms, keep = {}, []
        for idx in groups:
            m = len(idx)
            if m <= k:
                keep.extend(idx); continue
            mine = perms.setdefault(m, [])
            rule = link(len(mine), int((sizes == m).sum()), m)
            perm = rng.permutation(m) if rule is None else rule[1](perms[m][rule[0]], k, m)
            mine.append(perm)
            keep.extend(idx[perm[:k]])
        return df.iloc[np.sort(np.array(keep, dtype=int))]
    return answer


def _half_apart_mirrored(i, n, m):  # person i + n/2 keeps the mirror image of person i's positions
    return (i - n // 2, lambda perm, k, m: m - 1 - perm) if 1 <= n // 2 <= i else None


def _first_six_share(i, n, m):  # only the first 6 people of each row count: 3 pairs share one draw
    return (i - 1, lambda perm, k, m: perm) if i < 6 and i % 2 == 1 else None


def _every_fifth_shift_two(i, n, m):  # person i + 5 keeps person i's positions shifted by 2, for 20+ rows
    return (i - 5, lambda perm, k, m: (perm + 2) % m) if m >= 20 and i % 10 >= 5 else None


def _half_apart_disjoint(i, n, m):  # person i + n/2 keeps the next k of person i's permutation (disjoint)
    return (i - n // 2, lambda perm, k, m: np.roll(perm, -k)) if 1 <= n // 2 <= i else None


def _every_fifth_disjoint(i, n, m):  # person i + 5 keeps the next k of person i's permutation (disjoint)
    return (i - 5, lambda perm, k, m: np.roll(perm, -k)) if i % 10 >= 5 else None


MORE_WRONG_ANSWERS["04.2"] = {
    "not independent: consecutive people keep disjoint picks of one permutation (referee s39rE)":
        _second_of_pair(_disjoint),
    "not independent: every second person keeps the previous one's positions + 1 (referee s39rE)":
        _second_of_pair(_shift(1)),
    "not independent: every second person keeps the previous one's positions + 3 (referee s39rE)":
        _second_of_pair(_shift(3)),
    "not independent: every second person keeps the end of the previous one's permutation (referee s39rE)":
        _second_of_pair(_reversed_perm),
    "not independent: consecutive people share a draw unless they have 7 rows (referee s39rE)":
        _second_of_pair(_share_unless_7),
    "not independent: positions + 2 for the second of two people, only from 20 rows":
        _second_of_pair(_shift(2, lambda m: m >= 20)),
    "not independent: disjoint picks of one permutation, only above 7 rows": _second_of_pair(_disjoint_above_7),
    "not independent: person i + n/2 of a row count keeps the mirror image of person i's rows":
        _linked(_half_apart_mirrored),
    "not independent: only the first 6 people of each row count share draws in pairs": _linked(_first_six_share),
    "not independent: person i + 5 keeps person i's rows shifted by 2, from 20 rows": _linked(_every_fifth_shift_two),
    "not independent: person i + n/2 of a row count keeps rows disjoint from person i's": _linked(_half_apart_disjoint),
    "not independent: person i + 5 keeps rows disjoint from person i's": _linked(_every_fifth_disjoint),
}
