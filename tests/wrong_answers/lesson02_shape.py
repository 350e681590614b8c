"""More wrong answers to 02.1 and 02.4 (referee s38rA): noise of the right mean |noise| but the wrong family
(uniform, Gaussian) where only the band sweep or the sizes above 120,000 looked, and an exact release for values
beyond some trillions of scales.

Each accepted answer of the referee, and at least one more member of its class with other numbers. Collected through
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import math

from wrong_answers import _hiding as hide
from wrong_answers.lesson02 import _correct_laplace, _correct_sum, _exact_sum, _exact_value, _largest

WRONG_ANSWERS: dict = {}

#: Noise families of mean |noise| b (the Laplace scale): uniform on (-2b, 2b) and a Gaussian of SD b sqrt(pi / 2).
FAMILIES = {"uniform": lambda rng, b: rng.uniform(-2 * b, 2 * b),
            "gaussian": lambda rng, b: rng.normal(0.0, b * math.sqrt(math.pi / 2))}


def _laplace_family_when(family, condition):
    """02.1: ``value`` plus noise of ``family`` (mean |noise| sensitivity / epsilon) when
    ``condition(value, sensitivity, epsilon)``, else the Laplace mechanism."""
    def laplace_mechanism(value, sensitivity, epsilon, rng):
        if condition(float(value), sensitivity, epsilon):
            return value + FAMILIES[family](rng, sensitivity / epsilon)
        return _correct_laplace(value, sensitivity, epsilon, rng)
    return laplace_mechanism


def _sum_family_when(family, condition):
    """02.4: the clipped sum plus noise of ``family`` (mean |noise| the Laplace scale) when
    ``condition(n, larger bound, epsilon)``, else the correct release."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        if condition(len(values), _largest(lower, upper), epsilon):
            scale = _largest(lower, upper) / epsilon
            return _exact_sum(values, lower, upper, epsilon, rng) + FAMILIES[family](rng, scale)
        return _correct_sum(values, lower, upper, epsilon, rng)
    return dp_bounded_sum


def _laplace_exact_beyond(scales):
    """02.1: the exact value when it lies more than ``scales`` Laplace scales from 0."""
    return hide.exact_when(_correct_laplace, _exact_value,
                           lambda v, s, e, rng: abs(float(v)) > scales * s / e)


#: 02.1: (family, where, tag, condition(value, sensitivity, epsilon)) of the answers with another noise family.
_LAPLACE_FAMILIES = (
    ("uniform", "for epsilon below 1e-3", "s38rA", lambda v, s, e: e < 1e-3),
    ("uniform", "for epsilon below 3e-4", "s38rA class", lambda v, s, e: e < 3e-4),
    ("Gaussian", "for epsilon below 1e-3", "s38rA class", lambda v, s, e: e < 1e-3),
    ("Gaussian", "for a sensitivity below 1e-3", "s38rA", lambda v, s, e: s < 1e-3),
    ("Gaussian", "for a sensitivity below 1e-4", "s38rA class", lambda v, s, e: s < 1e-4),
    ("uniform", "more than 1e6 scales from 0", "s38rA", lambda v, s, e: abs(v) > 1e6 * s / e),
    ("uniform", "more than 1e8 scales from 0", "s38rA class", lambda v, s, e: abs(v) > 1e8 * s / e),
    ("Gaussian", "more than 1e6 scales from 0", "s38rA class", lambda v, s, e: abs(v) > 1e6 * s / e))
#: 02.4: (family, where, tag, condition(n, larger bound, epsilon)); "size" marks a class hidden in the size.
_SUM_FAMILIES = (
    ("Gaussian", "above 120,000 values", "s38rA", lambda n, b, e: n > 120_000),
    ("Gaussian", "above 200,000 values", "s38rA class", lambda n, b, e: n > 200_000),
    ("uniform", "above 300,000 values", "s38rA class", lambda n, b, e: n > 300_000),
    ("uniform", "for epsilon below 1e-2", "s38rA", lambda n, b, e: e < 1e-2),
    ("uniform", "for epsilon below 3e-3", "s38rA class", lambda n, b, e: e < 3e-3),
    ("Gaussian", "for epsilon below 1e-2", "s38rA", lambda n, b, e: e < 1e-2),
    ("Gaussian", "for epsilon below 2e-2", "s38rA class", lambda n, b, e: e < 2e-2),
    ("uniform", "for bounds below 0.5", "s38rA", lambda n, b, e: b < 0.5),
    ("Gaussian", "for bounds below 1", "s38rA class", lambda n, b, e: b < 1.0))


def _name(family, where, tag):
    kind = "size" if "values" in where else "shape"
    return f"non-private ({kind}): {family} noise of the same mean |noise| {where} ({tag})"


MORE_WRONG_ANSWERS = {
    "02.1": {
        **{_name(family, where, tag): _laplace_family_when(family.lower(), condition)
           for family, where, tag, condition in _LAPLACE_FAMILIES},
        "non-private (parameters): the exact value more than 3e12 scales from 0 (s38rA)": _laplace_exact_beyond(3e12),
        "non-private (parameters): the exact value more than 8e12 scales from 0 (s38rA class)":
            _laplace_exact_beyond(8e12),
    },
    "02.4": {_name(family, where, tag): _sum_family_when(family.lower(), condition)
             for family, where, tag, condition in _SUM_FAMILIES},
}
