"""Wrong answers to 02.1 and 02.4 (referee s39rA D2): Laplace noise rounded to a grid of ``share`` x the scale
*before* it is added, so every release is the true answer plus a multiple of the step (its last digits leak).

The referee's accepted answers (``grid``, ``s_grid``: a millionth of the scale) and members of the same class with
other steps. Collected through ``MORE_WRONG_ANSWERS`` (see :func:`wrong_answers.collect_wrong_answers`).
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


MORE_WRONG_ANSWERS = {
    "02.1": {
        "(grid) noise rounded to 1e-6 scales before adding (s39rA D2)": _laplace_on_grid(1e-6),
        "(grid) noise rounded to 1e-3 scales before adding": _laplace_on_grid(1e-3),
        "(grid) noise rounded to 3e-7 scales before adding": _laplace_on_grid(3e-7),
    },
    "02.4": {
        "(grid) noise rounded to 1e-6 scales before adding (s39rA D2)": _sum_on_grid(1e-6),
        "(grid) noise rounded to 1e-4 scales before adding": _sum_on_grid(1e-4),
    },
}
