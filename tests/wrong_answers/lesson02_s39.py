"""Wrong answers to 02.1 and 02.4 (referee s39rA): D2, Laplace noise rounded to a grid of ``share`` x the scale
*before* it is added (every release is the true answer plus a multiple of the step: its last digits leak); D4, a
noise scale read from the data at many values and a small epsilon jointly; D5, uniform noise of the right mean
|noise| in a joint box of sensitivity and epsilon.

The referee's accepted answers and members of the same classes with other numbers. Collected through
``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
"""

import numpy as np

from wrong_answers.lesson02 import _largest

WRONG_ANSWERS: dict = {}


def _laplace_on_grid(share):
    """02.1: Laplace noise rounded to a multiple of ``share`` scales, then added to the value."""
    def laplace_mechanism(value, sensitivity, epsilon, rng):
        step = sensitivity / epsilon * share
        return float(value + np.round(rng.laplace(0.0, sensitivity / epsilon) / step) * step)
    return laplace_mechanism


def _sum_on_grid(share):
    """02.4: Laplace noise rounded to a multiple of ``share`` scales, then added to the clipped sum."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        scale = _largest(lower, upper) / epsilon
        step = scale * share
        return float(np.clip(values, lower, upper).sum()) + float(np.round(rng.laplace(0.0, scale) / step) * step)
    return dp_bounded_sum


def _data_scale_in_box(min_n, max_epsilon):
    """02.4: the scale max |clipped value| / epsilon when there are more than ``min_n`` values and epsilon is below
    ``max_epsilon`` (referee: 1,000 and 0.05; 150,000 and 0.1)."""
    def dp_bounded_sum(values, lower, upper, epsilon, rng):
        clipped = np.clip(values, lower, upper)
        largest = _largest(lower, upper)
        if len(values) > min_n and epsilon < max_epsilon:
            largest = max(float(np.abs(clipped).max()), 1e-12)
        return float(clipped.sum()) + rng.laplace(0.0, largest / epsilon)
    return dp_bounded_sum


def _uniform_in_box(inside):
    """02.1: uniform noise of the right mean |noise| (half-width 2b) when ``inside(sensitivity, epsilon)``."""
    def laplace_mechanism(value, sensitivity, epsilon, rng):
        scale = sensitivity / epsilon
        if inside(sensitivity, epsilon):
            return float(value + rng.uniform(-2 * scale, 2 * scale))
        return float(value + rng.laplace(0.0, scale))
    return laplace_mechanism


MORE_WRONG_ANSWERS = {
    "02.1": {
        "(grid) noise rounded to 1e-6 scales before adding (s39rA D2)": _laplace_on_grid(1e-6),
        "(grid) noise rounded to 1e-3 scales before adding": _laplace_on_grid(1e-3),
        "(grid) noise rounded to 3e-7 scales before adding": _laplace_on_grid(3e-7),
        "(parameters) uniform noise for epsilon < 1e-3 and sensitivity < 1e-3 (s39rA D5)":
            _uniform_in_box(lambda sensitivity, epsilon: epsilon < 1e-3 and sensitivity < 1e-3),
        "(parameters) uniform noise for epsilon < 3e-4 and sensitivity < 1e-2":
            _uniform_in_box(lambda sensitivity, epsilon: epsilon < 3e-4 and sensitivity < 1e-2),
        "(parameters) uniform noise for epsilon > 1e4 and sensitivity > 10":
            _uniform_in_box(lambda sensitivity, epsilon: epsilon > 1e4 and sensitivity > 10),
        "(parameters) uniform noise for 0.01 < epsilon < 1 and 0.01 < sensitivity < 1":
            _uniform_in_box(lambda sensitivity, epsilon: 0.01 < epsilon < 1 and 0.01 < sensitivity < 1),
    },
    "02.4": {
        "(grid) noise rounded to 1e-6 scales before adding (s39rA D2)": _sum_on_grid(1e-6),
        "(grid) noise rounded to 1e-4 scales before adding": _sum_on_grid(1e-4),
        "(data) scale from the data above 1,000 values and below epsilon 0.05 (s39rA D4)": _data_scale_in_box(1_000, 0.05),
        "(data) scale from the data above 150,000 values and below epsilon 0.1 (s39rA D4)":
            _data_scale_in_box(150_000, 0.1),
        "(data) scale from the data above 5,000 values and below epsilon 0.01": _data_scale_in_box(5_000, 0.01),
        "(data) scale from the data above 300,000 values and below epsilon 0.02": _data_scale_in_box(300_000, 0.02),
    },
}
