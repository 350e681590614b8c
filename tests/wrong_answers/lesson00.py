"""Wrong answers to lesson 00's exercises: each a mistake a student could make, and each must be rejected."""

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
        **cheats(lambda values, t: 0.5),
    },
}
