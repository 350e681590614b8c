"""More wrong answers to 02.1 and 02.4 (referee s37rA): noise shrunk below some epsilon or capped above some scale,
and answers exact (or with a scale from the data) in the gaps the unstratified band sweeps left.

Each accepted answer of the referee, and at least one more member of its class with other numbers. Collected through
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

from wrong_answers import _hiding as hide
from wrong_answers.lesson02 import _correct_laplace, _correct_sum, _data_scale_when, _exact_sum, _exact_value, _largest

WRONG_ANSWERS: dict = {}


def _laplace_scaled(scale_of):
    """02.1: Laplace noise of scale ``scale_of(sensitivity, epsilon)`` instead of sensitivity / epsilon."""
    def laplace_mechanism(value, sensitivity, epsilon, rng):
        return value + rng.laplace(0.0, scale_of(sensitivity, epsilon))
    return laplace_mechanism


def _sum_scaled(scale_of):
    """02.4: Laplace noise of scale ``scale_of(larger bound, epsilon)`` instead of larger bound / epsilon."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        return _exact_sum(values, lower, upper, epsilon, rng) + rng.laplace(0.0, scale_of(_largest(lower, upper),
                                                                                          epsilon))
    return dp_bounded_sum


def _half_noise_above(size):
    """02.4: half the Laplace scale above ``size`` values."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        factor = 0.5 if len(values) > size else 1.0
        scale = factor * _largest(lower, upper) / epsilon
        return _exact_sum(values, lower, upper, epsilon, rng) + rng.laplace(0.0, scale)
    return dp_bounded_sum


def _laplace_exact_when(condition):
    """02.1: the exact value when ``condition(value, sensitivity, epsilon)``."""
    return hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: condition(float(v), s, e))


def _sum_exact_when(condition):
    """02.4: the exact clipped sum when ``condition(n, larger bound, epsilon)``."""
    return hide.exact_when(_correct_sum, _exact_sum,
                           lambda values, lo, up, e, rng: condition(len(values), _largest(lo, up), e))


MORE_WRONG_ANSWERS = {
    "02.1": {
        "non-private (parameters): epsilon floored at 1e-3 (s37rA)": _laplace_scaled(lambda s, e: s / max(e, 1e-3)),
        "non-private (parameters): epsilon floored at 1e-4 (s37rA)": _laplace_scaled(lambda s, e: s / max(e, 1e-4)),
        "non-private (parameters): epsilon floored at 3e-5 (s37rA class)": _laplace_scaled(
            lambda s, e: s / max(e, 3e-5)),
        "non-private (parameters): scale capped at 1e6 (s37rA)": _laplace_scaled(lambda s, e: min(s / e, 1e6)),
        "non-private (parameters): scale capped at 1e7 (s37rA)": _laplace_scaled(lambda s, e: min(s / e, 1e7)),
        "non-private (parameters): scale capped at 3e7 (s37rA class)": _laplace_scaled(lambda s, e: min(s / e, 3e7)),
        "non-private (parameters): no noise for epsilon 4.3e4 to 8.2e4 (s37rA)": _laplace_exact_when(
            lambda v, s, e: 4.3e4 < e < 8.2e4),
        "non-private (parameters): no noise for epsilon 3e2 to 3.6e2 (s37rA class)": _laplace_exact_when(
            lambda v, s, e: 3e2 < e < 3.6e2),
        "non-private (parameters): no noise for a sensitivity of 2.11e-4 to 3.19e-4 (s37rA)": _laplace_exact_when(
            lambda v, s, e: 2.11e-4 < s < 3.19e-4),
        "non-private (parameters): no noise for a sensitivity of 40 to 48 (s37rA class)": _laplace_exact_when(
            lambda v, s, e: 40 < s < 48),
        "non-private (values): no noise 1e7 to 1e9 scales from 0 (s37rA)": _laplace_exact_when(
            lambda v, s, e: 1e7 * s / e < abs(v) < 1e9 * s / e),
        "non-private (values): no noise 1e3 to 2e3 scales from 0 (s37rA class)": _laplace_exact_when(
            lambda v, s, e: 1e3 * s / e < abs(v) < 2e3 * s / e),
    },
    "02.4": {
        "non-private (parameters): epsilon floored at 0.01 (s37rA)": _sum_scaled(lambda b, e: b / max(e, 0.01)),
        "non-private (parameters): epsilon floored at 0.005 (s37rA)": _sum_scaled(lambda b, e: b / max(e, 0.005)),
        "non-private (parameters): epsilon floored at 0.003 (s37rA class)": _sum_scaled(lambda b, e: b / max(e, 0.003)),
        "non-private (parameters): scale capped at 1e4 (s37rA)": _sum_scaled(lambda b, e: min(b / e, 1e4)),
        "non-private (parameters): scale capped at 3e4 (s37rA class)": _sum_scaled(lambda b, e: min(b / e, 3e4)),
        "non-private (size): the exact sum for 155,000 to 215,000 values (s37rA)": _sum_exact_when(
            lambda n, b, e: 155_000 <= n <= 215_000),
        "non-private (size): the exact sum for 400,000 to 480,000 values (s37rA class)": _sum_exact_when(
            lambda n, b, e: 400_000 <= n <= 480_000),
        "non-private (data): a scale from the clipped data for 155,000 to 215,000 values (s37rA)":
            _data_scale_when(lambda v, lo, up: 155_000 <= len(v) <= 215_000),
        "non-private (data): a scale from the clipped data above 850,000 values (s37rA)":
            _data_scale_when(lambda v, lo, up: len(v) > 850_000),
        "non-private (data): a scale from the clipped data for 600,000 to 700,000 values (s37rA class)":
            _data_scale_when(lambda v, lo, up: 600_000 <= len(v) <= 700_000),
        "non-private (parameters): the exact sum for epsilon 0.00213 to 0.00253 (s37rA)": _sum_exact_when(
            lambda n, b, e: 0.00213 < e < 0.00253),
        "non-private (parameters): the exact sum for epsilon 0.4 to 0.45 (s37rA class)": _sum_exact_when(
            lambda n, b, e: 0.4 < e < 0.45),
        "non-private (parameters): the exact sum for a scale of 14,500 to 28,000 (s37rA)": _sum_exact_when(
            lambda n, b, e: 14_500 < b / e < 28_000),
        "non-private (parameters): the exact sum for a scale of 40 to 50 (s37rA class)": _sum_exact_when(
            lambda n, b, e: 40 < b / e < 50),
        "non-private (size): half the noise above 850,000 values (s37rA class)": _half_noise_above(850_000),
    },
}
