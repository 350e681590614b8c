"""Wrong answers to lesson 00's exercises: each a mistake a student could make, and each must be rejected."""

WRONG_ANSWERS = {
    "00.1": {
        "count instead of share": lambda values, t: sum(v > t for v in values),
        "at-or-above": lambda values, t: sum(v >= t for v in values) / len(values),
        "constant": lambda values, t: 0.5,
    },
}
