"""Checks of lesson 09's exercises 09.2 (the noise PipelineDP adds to a sum) and 09.3 (contribution bounds
from a public sample); 09.1 (contribution bounding) is in ``lesson09``.

Both answers are deterministic. Every check draws its inputs fresh from a seeded generator, over ranges wide
enough to exercise every branch of a correct answer (negative value bounds, epsilons with many digits, extra
columns in any order, quantiles that hit a share exactly). NumPy, pandas and builtin functions are bound at
import, so patching them later changes nothing here. Expected answers are computed after the student's
function has returned.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
import pandas as pd

from mic_dp_helpers.checks import _core
from mic_dp_helpers.checks._core import CheckFailed, exercise, expect_number

_abs, _max, _len, _isinstance, _int = builtins.abs, builtins.max, builtins.len, builtins.isinstance, builtins.int
_isclose = math.isclose
_default_rng, _array, _repeat, _arange = np.random.default_rng, np.array, np.repeat, np.arange
_DataFrame, _frame_equal = pd.DataFrame, pd.DataFrame.equals
_sort, _searchsorted = np.sort, np.searchsorted

# The course's own answers refuse to run while the student's function runs.
_core.FORBIDDEN["09.2"] = ("mic_dp_helpers.scale.pipeline:sum_noise_scale",)
_core.FORBIDDEN["09.3"] = ("mic_dp_helpers.scale.pipeline:public_contribution_bounds",)


# ------------------------------------------------------------------------------------------- 09.2
@exercise("09.2", title="The noise PipelineDP adds to a sum", answer_name="sum_noise_scale")
def check_sum_noise_scale(answer) -> None:
    """Properties of ``sum_noise_scale(max_partitions, max_per_partition, min_value, max_value, epsilon)``.

    It is the Laplace scale for a per-partition sum with values clamped to ``[min_value, max_value]``:
    proportional to each bound, to the largest absolute value a clamped value can take (so negative lower
    bounds count), and to 1/epsilon; tested on random arguments with epsilons of many digits, tiny and large, and
    on edges: integer arguments, |min_value| = max_value, min_value = max_value, tiny bounds, 10^11 contributions.

    Parameters
    ----------
    answer : callable
        The student's ``sum_noise_scale`` (exercise 09.2).

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    rng = _default_rng(902)
    cases = [(1, 1, 0.0, 1.0, 1.0), (2, 3, -50.0, 10.0, 0.123456789), (4, 1, -5.0, 20.0, 7.77)]
    for _ in range(30):
        low = _int(rng.integers(-200, 50)) + float(rng.choice([0.0, 0.5]))
        high = low + float(rng.uniform(0.5, 300))
        cases.append((_int(rng.integers(1, 20)), _int(rng.integers(1, 10)), low, high,
                      float(10 ** rng.uniform(-3, 1.5))))
    # edges: integer bounds and epsilon, |min_value| = max_value (a tie), min_value = max_value (negative,
    # positive), both bounds negative, tiny bounds, and a million partitions of 100,000 rows each
    cases += [(3, 2, -5, 5, 1), (1, 4, -2.5, -2.5, 0.5), (2, 2, 7, 7, 2), (5, 1, -7.25, -2.0, 0.3),
              (1, 1, -1e-9, 1e-12, 1e-3), (1_000_000, 100_000, -3.0, 1e6, 1e-6), (7, 3, 0, 12, 3)]
    for l0, linf, low, high, epsilon in cases:
        value = expect_number(answer(l0, linf, low, high, epsilon), "the noise scale")
        expected = l0 * linf * _max(_abs(low), _abs(high)) / epsilon
        if not _isclose(value, expected, rel_tol=1e-9):
            what = []
            if _isclose(value, expected / l0, rel_tol=1e-9) and l0 > 1 or _isclose(value, expected / linf, rel_tol=1e-9) and linf > 1:
                what.append("one of the two contribution bounds is missing: a person changes up to max_partitions "
                            "sums by up to max_per_partition values each")
            elif _isclose(value, l0 * linf * (high - low) / epsilon, rel_tol=1e-9):
                what.append("the largest change one value makes is its largest absolute value once clamped, "
                            "not the width of the interval")
            elif low < 0 < high and _isclose(value, l0 * linf * _abs(high) / epsilon, rel_tol=1e-9):
                what.append("a negative lower bound can be the largest in absolute value")
            raise CheckFailed(f"with max_partitions={l0}, max_per_partition={linf}, bounds [{low:g}, {high:g}] and "
                              f"epsilon={epsilon:.6g} the scale is wrong"
                              + (f": {what[0]}." if what else ". Scale = L1 sensitivity / epsilon."))


# ------------------------------------------------------------------------------------------- 09.3
def _public_sample(rng: np.random.Generator) -> tuple[pd.DataFrame, str, str]:
    person_col, partition_col = rng.choice(["who", "member", "cid"]), rng.choice(["when", "date_key", "week"])
    n_people = _int(rng.integers(3, 60))
    days = rng.integers(1, 12, n_people)
    records = []
    for i in range(n_people):
        for d in rng.choice(40, days[i], replace=False):
            for _ in range(_int(rng.integers(1, 5)) if rng.random() < 0.3 else 1):
                records.append((f"m{i}", _int(d), float(rng.uniform(0, 9))))
    frame = _DataFrame(records, columns=[str(person_col), str(partition_col), "spent"])
    columns = list(rng.permutation(frame.columns))
    return frame[columns].sample(frac=1.0, random_state=_int(rng.integers(1 << 30))), str(person_col), str(partition_col)


def _covering(counts: np.ndarray, quantile: float) -> int:
    """The smallest count k with ``mean(counts <= k) >= quantile`` (the largest count if none: quantile > 1)."""
    values = _sort(counts)
    shares = _searchsorted(values, values, side="right") / _len(values)  # = mean(counts <= value), same rounding
    reached = np.flatnonzero(shares >= quantile)
    return _int(values[reached[0]] if reached.size else values[-1])


def _edge_samples(rng: np.random.Generator) -> list[tuple[pd.DataFrame, str, str, float]]:
    """The edge cases the exercise's text allows: keys holding separators (person "a_1" in partition "2" and
    person "a" in partition "1_2" join to one text key; "c1"/"11" and "c11"/"1" without a separator), NaN and
    None in the other columns (``count()`` or ``dropna`` undercount), integer person ids with int8 partitions and a
    float32 column, one person with one row, and a sample of 2,000 people (9,000 rows)."""
    keys = [("a_1", "2"), ("a", "1_2"), ("c1", "11"), ("c11", "1"), ("b", "2"), ("b", "3")]
    keys += [(f"p{i}", str(i % 4)) for i in range(12)]
    separators = _DataFrame(keys, columns=["who", "week"]).assign(spent=1.0)
    separators = separators.iloc[rng.permutation(_len(separators))]
    missing, person, partition = _public_sample(rng)
    missing = missing.assign(spent=missing["spent"].where(rng.random(_len(missing)) > 0.4),
                             note=_array([None, "x"], dtype=object)[rng.integers(0, 2, _len(missing))])
    n = 40
    ids = _repeat(_arange(n), rng.integers(1, 6, n))
    typed = _DataFrame({"amount": rng.uniform(0, 9, ids.size).astype(np.float32), "member": ids,
                        "day": rng.integers(-5, 6, ids.size).astype(np.int8)})
    one = _DataFrame({"cid": ["only"], "date_key": [3], "spent": [2.5]})
    people = 2_000  # rows per person rise with the id: the first 1,000 people are not a fair sample
    big_ids = _repeat(_array([f"u{i}" for i in range(people)], dtype=object), 1 + _arange(people) // 250)
    large = _DataFrame({"week": rng.integers(0, 30, big_ids.size), "spent": rng.uniform(0, 9, big_ids.size),
                        "member": big_ids}).sample(frac=1.0, random_state=_int(rng.integers(1 << 30)))
    return [(separators, "who", "week", 1.0), (missing, person, partition, 1.0), (missing, person, partition, 0.9),
            (typed, "member", "day", 1.0), (typed, "member", "day", 0.75), (one, "cid", "date_key", 0.5),
            (one, "cid", "date_key", 1.0), (large, "member", "week", 0.5)]


@exercise("09.3", title="Contribution bounds from a public sample", answer_name="bounds_from_public_sample")
def check_bounds_from_public_sample(answer) -> None:
    """Properties of ``bounds_from_public_sample(sample, person, partition, quantile)`` -> ``(L0, Linf)``.

    ``L0`` is the smallest integer k such that at least ``quantile`` of the sample's people contribute to at
    most k distinct partitions; ``Linf`` likewise over (person, partition) cells. Both are ints; columns are
    taken by name (in any order, with extra columns); quantiles hit a share exactly (0.5 of an even count), have many digits, and include 1.0;
    one sample repeats identical rows (a repeated purchase is a row, not a duplicate to drop); and the edge
    samples of ``_edge_samples`` (separators inside keys, NaN in other columns, integer and float32 columns,
    one row, 2,000 people).

    Parameters
    ----------
    answer : callable
        The student's ``bounds_from_public_sample`` (exercise 09.3).

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    rng = _default_rng(903)
    exact = _DataFrame({"p": ["a", "a", "b", "b", "b", "b", "c", "d"], "q": [1, 2, 1, 2, 3, 4, 1, 1]})
    cases = [(exact, "p", "q", 0.5), (exact, "p", "q", 0.75), (exact, "p", "q", 1.0)]
    # 25 people on 1 to 25 partitions, each cell's rows identical copies (a repeated purchase: dropping
    # duplicate rows undercounts max_per_partition). Quantile 0.55: 13.75 people, far from a float tie (at
    # 0.56 = 14/25, 0.56 * 25 is 14.000000000000002 and the double 0.56 exceeds 14/25, so both 14 and 15 are
    # defensible answers; such ties are not tested).
    cells = [(f"c{i}", d) for i in range(25) for d in range(i + 1)]
    repeated = _DataFrame([(who, d, 1.0) for who, d in cells for _ in range(1 + (_int(who[1:]) + d) % 3)],
                          columns=["who", "when", "spent"])
    cases.append((repeated, "who", "when", 0.55))
    for _ in range(12):
        sample, person, partition = _public_sample(rng)
        cases.append((sample, person, partition, float(rng.choice([0.5, 0.9, 0.95, 1.0, rng.uniform(0.3, 0.99)]))))
    cases += _edge_samples(rng)
    for sample, person, partition, quantile in cases:
        original = sample.copy()
        result = answer(sample, person, partition, quantile)
        if not _frame_equal(sample, original):
            raise CheckFailed("your function changed the sample it was given.")
        if not (_isinstance(result, tuple) and _len(result) == 2):
            raise CheckFailed("it should return a tuple (max_partitions, max_per_partition).")
        for value, name in zip(result, ("max_partitions", "max_per_partition")):
            if _isinstance(value, (bool, np.bool_)) or not _isinstance(value, (int, np.integer)):
                raise CheckFailed(f"{name} should be a whole number (an int): PipelineDP's bounds are counts.")
        per_person = original.groupby(person)[partition].nunique().to_numpy()
        per_cell = original.groupby([person, partition]).size().to_numpy()
        expected = (_covering(per_person, quantile), _covering(per_cell, quantile))
        for got, want, name, unit in ((result[0], expected[0], "max_partitions", "distinct partitions per person"),
                                      (result[1], expected[1], "max_per_partition", "rows per (person, partition)")):
            if got != want:
                direction = "too large" if got > want else "too small"
                raise CheckFailed(f"with quantile={quantile:.6g}, {name} is {direction}: it must be the smallest "
                                  f"whole number that at least that share of the {unit} do not exceed (count "
                                  "distinct values where the exercise says so, and check the boundary: a share "
                                  "exactly equal to the quantile is enough).")
