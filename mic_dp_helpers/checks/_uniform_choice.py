"""04.2's uniform-choice test on tables of people with several row counts, for several k (referee s35rca).

Uniform choice of a person's rows was tested only with k = 2 and people of exactly 7 rows: each person's first
rows for k = 1, for k >= 3, for people with more than 7 or 20 rows, or with a non-integer index, passed. Power:
``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import scipy.stats

from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly

_default_rng = np.random.default_rng
_binom_sf = scipy.stats.binom.sf
_binom_cdf = scipy.stats.binom.cdf
_abs = np.abs
_len = len
_isinstance = isinstance


#: 04.2's mixed tables: MIXED_PEOPLE people of each row count in MIXED_ROWS, rows shuffled, a string index,
#: MIXED_CALLS calls for each k in MIXED_KS. Each (row count, position) is kept in Binomial(1,200, min(k, m) / m)
#: person-calls; a two-sided binomial p-value below MIXED_P fails (4 x 90 positions x 2 sides: 7e-7 in all).
MIXED_ROWS, MIXED_PEOPLE, MIXED_CALLS, MIXED_KS, MIXED_P = (3, 7, 20, 60), 30, 40, (1, 2, 3, 5), 1e-9


def _mixed_table(seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """(table, row count of each row's person, each row's position among its person's rows in table order)."""
    rng = _default_rng([seed, 44])
    person = rng.permutation(np.repeat(np.arange(MIXED_PEOPLE * _len(MIXED_ROWS)),
                                       np.repeat(MIXED_ROWS, MIXED_PEOPLE)))
    frame = pd.DataFrame({"person": person})
    position, size = frame.groupby("person").cumcount().to_numpy(), np.asarray(MIXED_ROWS)[person // MIXED_PEOPLE]
    frame.insert(0, "amount", 2.0 ** position * (1 + person / 1000))  # values double with the position
    frame.index = [f"row-{i}" for i in rng.permutation(_len(frame))]
    return frame, size, position


def check_mixed_choice(answer, k: int, seed: int, check_module) -> None:
    """``MIXED_CALLS`` calls with ``k`` on :func:`_mixed_table`: each row count's positions kept min(k, m) / m.

    Parameters
    ----------
    answer : callable
        The student's ``bound_contributions``.
    k : int
        Rows kept per person.
    seed : int
        The check's seed (the table and the generator come from it).
    check_module : module
        The calling check's module (watched during the calls).

    Raises
    ------
    CheckFailed
        If a position of some row count is kept more or less often than a uniform choice allows.
    """
    given, size, position = _mixed_table(seed)
    outputs = _core.student_call("04.2", check_module, call_repeatedly, answer, MIXED_CALLS, given, "person", k,
                                 _default_rng([seed, 44, k]), extra_modules=(sys.modules[__name__],))
    if not given.equals(_mixed_table(seed)[0]):
        raise CheckFailed("your function changed the table it was given; return a new table instead.")
    kept = np.zeros(_len(given))
    lookup = pd.Series(np.arange(_len(given)), index=given.index)
    for output in outputs:
        if not _isinstance(output, pd.DataFrame):
            raise CheckFailed(f"it should return the kept rows as a DataFrame, not a {type(output).__name__}.")
        kept[lookup.reindex(output.index).dropna().to_numpy(dtype=int)] += 1
    for m in MIXED_ROWS:
        counts, trials, share = (np.bincount(position[size == m], weights=kept[size == m], minlength=m),
                                 MIXED_CALLS * MIXED_PEOPLE, min(k, m) / m)
        low, high = _binom_cdf(counts, trials, share), _binom_sf(counts - 1, trials, share)
        if share < 1 and min(low.min(), high.min()) < MIXED_P:
            worst = int(np.argmax(_abs(counts / trials - share)))
            raise CheckFailed(f"with k={k}, people with {m} rows (a table of people with 3, 7, 20 and 60 rows, a "
                              f"text index): their row {worst + 1} (in table order) is kept in "
                              f"{counts[worst] / trials:.0%} of calls, where a random choice keeps each row in "
                              f"{share:.0%} (property: uniform choice, whatever k, the row count or the index). "
                              "Choose each person's rows at random, using rng.")
