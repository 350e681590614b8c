"""Wrong answers to lesson 00's exercises: each a mistake a student could make, and each must be rejected."""

import math

import numpy as np

from wrong_answers._cheats import cheats


def _sorted_position(values, t):  # assumes the values are sorted
    for i, v in enumerate(values):
        if v > t:
            return (len(values) - i) / len(values)
    return 0.0


def _pops_values(values, t):  # empties the caller's list while counting
    above, n = 0, len(values)
    while values:
        above += values.pop() > t
    return above / n


def _float32_comparison(values, t):  # a threshold of 1e6 and a value one float step above look equal
    return float(np.mean(np.asarray(values, dtype=np.float32) > np.float32(t)))


def _first_thousand(values, t):  # a sample of the first 1,000 values, to be fast on long lists
    head = values[:1000]
    return sum(v > t for v in head) / len(head)


WRONG_ANSWERS = {
    "00.1": {
        "count instead of share": lambda values, t: sum(v > t for v in values),
        "at-or-above": lambda values, t: sum(v >= t for v in values) / len(values),
        "constant": lambda values, t: 0.5,
        "assumes sorted values": _sorted_position,
        "rounded to two decimals": lambda values, t: round(sum(v > t for v in values) / len(values), 2),
        "share of distinct values": lambda values, t: sum(v > t for v in set(values)) / len(set(values)),
        "sorts the list in place": lambda values, t: (values.sort(), sum(v > t for v in values) / len(values))[1],
        "removes the values it counts": _pops_values,
        "(data) compares in float32": _float32_comparison,
        "(data) compares with an absolute tolerance of 1e-9": lambda values, t: sum(v > t + 1e-9 for v in values) / len(values),
        "(data) a value close to the threshold (math.isclose) is not above it":
            lambda values, t: sum(v > t and not math.isclose(v, t) for v in values) / len(values),
        "(size) looks at the first 1,000 values only": _first_thousand,
        **cheats(lambda values, t: 0.5),
    },
}
