"""More wrong answers to 02.1 and 02.4 (referee s36rA), kept apart because ``lesson02`` is nearly full (600 lines).

Each accepted answer of the referee, and at least one more member of its class with other numbers: a standard
draw kept when a setting other than the one the mixed round varied changes (epsilon in 02.1, the bounds in
02.4), no noise for epsilons or sensitivities beyond the old sweeps, no noise or a scale read from the data
between 120,000 and 800,000 values, and a narrow noise component in a small share of calls. Collected through
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import numpy as np

from wrong_answers import _hiding as hide
from wrong_answers.lesson02 import (_correct_laplace, _correct_sum, _data_scale_when, _exact_sum, _exact_value,
                                    _largest)

WRONG_ANSWERS: dict = {}


def _kept_laplace_draw(key_of, sign=1.0):
    """02.1: the standard draw of the last call with the same ``key_of(value, sensitivity)``, kept (times ``sign``)
    when epsilon changed since it."""
    cache = {}

    def laplace_mechanism(value, sensitivity, epsilon, rng):
        key = key_of(float(value), float(sensitivity))
        last = cache.get(key)
        z = sign * last[1] if last is not None and last[0] != epsilon else rng.laplace()
        cache[key] = (epsilon, z)
        return value + z * sensitivity / epsilon
    return laplace_mechanism


def _kept_sum_draw(key_of, sign=1.0):
    """02.4: the standard draw of the last call with the same ``key_of(values, epsilon)``, kept (times ``sign``)
    when the bounds changed since it."""
    cache = {}

    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        v = np.asarray(values)
        key = key_of(v.tobytes() + v.dtype.str.encode(), float(epsilon))
        last = cache.get(key)
        z = sign * last[1] if last is not None and last[0] != (lower, upper) else rng.laplace()
        cache[key] = ((lower, upper), z)
        return _exact_sum(values, lower, upper, epsilon, rng) + z * _largest(lower, upper) / epsilon
    return dp_bounded_sum


def _laplace_exact_when(condition):
    return hide.exact_when(_correct_laplace, _exact_value, lambda v, s, e, rng: condition(s, e))


def _sum_exact_when(condition):
    return hide.exact_when(_correct_sum, _exact_sum, lambda values, lo, up, e, rng: condition(len(values), e))


def _narrow_sometimes(exact, scale, share, narrow):
    """Laplace noise, but in a share ``share`` of calls ``narrow(rng, b)`` instead (a narrow component)."""
    def answer(*args):
        rng, b = args[-1], scale(*args)
        noise = narrow(rng, b) if rng.random() < share else rng.laplace(0.0, b)
        return exact(*args) + noise
    return answer


def _uniform(fraction):
    return lambda rng, b: rng.uniform(-b * fraction, b * fraction)


def _laplace(fraction):
    return lambda rng, b: rng.laplace(0.0, b * fraction)


def _laplace_scale(value, sensitivity, epsilon, rng):
    return sensitivity / epsilon


def _sum_scale(values, lower, upper, epsilon, rng):
    return _largest(lower, upper) / epsilon


MORE_WRONG_ANSWERS = {
    "02.1": {
        "non-private (calls): standard draw kept when epsilon changes, same value and sensitivity (s36rA)":
            _kept_laplace_draw(lambda value, sensitivity: (value, sensitivity)),
        "non-private (calls): standard draw negated when epsilon changes, same sensitivity (s36rA)":
            _kept_laplace_draw(lambda value, sensitivity: sensitivity, sign=-1.0),
        "non-private (parameters): no noise for epsilon 1e3 to 2e4 (s36rA)": _laplace_exact_when(
            lambda s, e: 1e3 < e < 2e4),
        "non-private (parameters): no noise for epsilon 2e3 to 5e3 (s36rA)": _laplace_exact_when(
            lambda s, e: 2e3 < e < 5e3),
        "non-private (parameters): no noise above epsilon 5e4 (s36rA)": _laplace_exact_when(lambda s, e: e > 5e4),
        "non-private (parameters): no noise above epsilon 2e5 (s36rA)": _laplace_exact_when(lambda s, e: e > 2e5),
        "non-private (parameters): no noise below epsilon 1e-3 (s36rA)": _laplace_exact_when(lambda s, e: e < 1e-3),
        "non-private (parameters): no noise below epsilon 1e-4 (s36rA)": _laplace_exact_when(lambda s, e: e < 1e-4),
        "non-private (parameters): no noise for a sensitivity below 1e-3 (s36rA)": _laplace_exact_when(
            lambda s, e: s < 1e-3),
        "non-private (parameters): no noise for a sensitivity below 1e-5 (s36rA)": _laplace_exact_when(
            lambda s, e: s < 1e-5),
        "non-private (noise): uniform within 1/20 of the scale in 0.5% of calls (s36rA)": _narrow_sometimes(
            _exact_value, _laplace_scale, 0.005, _uniform(1 / 20)),
        "non-private (noise): uniform within 1/30 of the scale in 0.4% of calls (s36rA)": _narrow_sometimes(
            _exact_value, _laplace_scale, 0.004, _uniform(1 / 30)),
        "non-private (noise): Laplace of 1/50 of the scale in 0.5% of calls (s36rA)": _narrow_sometimes(
            _exact_value, _laplace_scale, 0.005, _laplace(1 / 50)),
    },
    "02.4": {
        "non-private (calls): standard draw kept when the bounds change, same data and epsilon (s36rA)":
            _kept_sum_draw(lambda data, epsilon: (data, epsilon)),
        "non-private (calls): standard draw negated when the bounds change, same data (s36rA)":
            _kept_sum_draw(lambda data, epsilon: data, sign=-1.0),
        "non-private (size): the exact sum for 150,000 to 700,000 values (s36rA)": _sum_exact_when(
            lambda n, e: 150_000 <= n <= 700_000),
        "non-private (size): the exact sum for 200,000 to 400,000 values (s36rA)": _sum_exact_when(
            lambda n, e: 200_000 <= n <= 400_000),
        "non-private (data): a scale from the clipped data for 130,000 to 750,000 values (s36rA)":
            _data_scale_when(lambda v, lo, up: 130_000 <= len(v) <= 750_000),
        "non-private (data): a scale from the clipped data for 300,000 to 500,000 values (s36rA)":
            _data_scale_when(lambda v, lo, up: 300_000 <= len(v) <= 500_000),
        "non-private (parameters): the exact sum below epsilon 0.01 (s36rA)": _sum_exact_when(lambda n, e: e < 0.01),
        "non-private (parameters): the exact sum below epsilon 0.003 (s36rA)": _sum_exact_when(
            lambda n, e: e < 0.003),
        "non-private (noise): Laplace of 1/100 of the scale in 0.3% of calls (s36rA)": _narrow_sometimes(
            _exact_sum, _sum_scale, 0.003, _laplace(1 / 100)),
        "non-private (noise): Laplace of 1/30 of the scale in 0.5% of calls (s36rA)": _narrow_sometimes(
            _exact_sum, _sum_scale, 0.005, _laplace(1 / 30)),
        "non-private (noise): uniform within 1/20 of the scale in 0.5% of calls (s36rA)": _narrow_sometimes(
            _exact_sum, _sum_scale, 0.005, _uniform(1 / 20)),
        "non-private (noise): uniform within 1/40 of the scale in 0.4% of calls (s36rA)": _narrow_sometimes(
            _exact_sum, _sum_scale, 0.004, _uniform(1 / 40)),
    },
}
