"""The inputs of the shared-generator stages of checks 02.1 and 02.4 (:mod:`mic_dp_helpers.checks._shared_calls`).

Kept apart from :mod:`mic_dp_helpers.checks.lesson02` (600 lines at most a module). Each function returns
``(args before rng, exact answer, Laplace scale, label, kind)`` per input, recomputed from ``seed``.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.checks import _sweeps

_default_rng = np.random.default_rng
_clip = np.clip
_fsum = math.fsum
_abs = abs
_max = max
_float = float
_len = len


def _log_uniform(rng, low, high) -> float:
    return _float(math.exp(rng.uniform(math.log(low), math.log(high))))


def _shared_laplace_cases(seed: int):
    """02.1's inputs for :func:`_shared_calls.check_shared_generator`: one scale, values of every kind (integral floats,
    0.0, NumPy int64 and int32, a Python int, a plain float, and values 1e9 to 2e13 scales
    from 0, the largest 1e13 to 2e13)."""
    rng = _default_rng([seed, 27])
    sensitivity, epsilon = _log_uniform(rng, 1e-2, 1e2), _log_uniform(rng, *_sweeps.EPSILONS)
    scale = sensitivity / epsilon
    cap = _max(2.0, 1e5 * scale)  # values within 1e5 scales: the noise keeps 10 digits
    kinds = [("an integral float", _float(round(_log_uniform(rng, 1, cap)))),
             ("a negative integral float", -_float(round(_log_uniform(rng, 1, cap)))), ("0.0", 0.0),
             ("a NumPy int64", np.int64(round(_log_uniform(rng, 1, cap)))),
             ("a NumPy int32", np.int32(-round(_log_uniform(rng, 1, min(cap, 2e9))))),
             ("a Python int", int(round(_log_uniform(rng, 1, cap)))), ("a float", _float(rng.uniform(-50, 50)) * scale)]
    cases = [((value, sensitivity, epsilon), _float(value), scale, f"value {label}", "") for label, value in kinds]
    for power, width in ((9, 1), (9, 1), (11, 1), (12, 1), (13, 0.3)):  # two within 2e10 scales, where repeats and
        # mirrors are tested to a float spacing; the last 1e13 to 2e13 scales (referee s38rA: the largest tried was
        # 2.3e12 scales at the default seed, so an exact release beyond 3e12 scales passed)
        value = _float(rng.choice([-1.0, 1.0])) * 10.0 ** (power + rng.uniform(0, width)) * scale
        cases.append(((value, sensitivity, epsilon), value, scale, f"a value 1e{power} scales from 0", "huge"))
    return cases


def _shared_sum_cases(seed: int):
    """02.4's inputs for :func:`_shared_calls.check_shared_generator`: one Laplace scale (epsilon set per
    input), bounds and data of every kind the text allows: the example's integer bounds [0, 10], a bound
    exactly 0 (either side), symmetric bounds, int64 and float32 values, one value, equal values (ties) and
    every value beyond a bound."""
    rng = _default_rng([seed, 28])
    scale = _log_uniform(rng, 0.5, 50)
    c = _log_uniform(rng, 1, 10)
    kinds = [("the example's integer bounds [0, 10]", rng.uniform(-3, 14, 5), 0, 10),
             ("a lower bound of 0.0", rng.uniform(-1, 6, 20), 0.0, _log_uniform(rng, 1, 10)),
             ("an upper bound of 0.0", rng.uniform(-8, 2, 12), -_log_uniform(rng, 1, 10), 0.0),
             ("symmetric bounds", rng.uniform(-1.2 * c, 1.2 * c, 15), -c, c),
             ("int64 values", rng.integers(-5, 20, 30), -2.5, 12.5),
             ("float32 values", (rng.integers(-40, 40, 25) / 4).astype(np.float32), -5, 8),
             ("one value", rng.uniform(-2, 9, 1), -1.3, 7.7), ("equal values", np.full(10, 3.0), -4.1, 6.2),
             ("every value above the upper bound", rng.uniform(20, 30, 15), -1.0, 9.0),
             # referee s35rca: inside a tenth of the larger bound (a scale read from the data shrinks 10 times or
             # more; their spread is tested), int32 values, and the empty dataset (centre 0.0)
             ("int64 values inside a tenth of the bounds", rng.integers(-1, 3, 30), -25, 125),
             ("float32 values inside a tenth of the bounds", (rng.integers(-8, 8, 25) / 4).astype(np.float32),
              -30.0, 40.0),
             ("int32 values inside a tenth of the bounds", rng.integers(-2, 3, 20).astype(np.int32), -40.0, 30.0),
             ("every value above the upper bound, |lower| the larger", rng.uniform(20, 30, 15),
              -_log_uniform(rng, 50, 100), _log_uniform(rng, 1, 4)),
             ("an empty array", np.array([], dtype=float), -3.0, 7.0)]
    cases = []
    for label, values, lower, upper in kinds:
        largest = _max(_abs(_float(lower)), _abs(_float(upper)))
        centre = _fsum(_clip(np.asarray(values, dtype=float), _float(lower), _float(upper)))
        kind = "inside" if "inside" in label or "larger" in label else ""
        cases.append(((values, lower, upper, largest / scale), centre, scale, f"{_len(values)} values, {label}", kind))
    return cases


def _mixed_laplace_cases(seed: int):
    """02.1's inputs for the mixed round: every setting varied on its own and together (sensitivity 1 and 3
    times a base, epsilon 1 and 4 times a base, two values), so a standard draw kept when epsilon, the
    sensitivity or the value changes shows as a rescaled repeat."""
    rng = _default_rng([seed, 30])
    base, epsilon = _log_uniform(rng, 1e-2, 10), _log_uniform(rng, 0.1, 10)
    first, second = _float(rng.uniform(-100, 100)), _float(rng.uniform(-100, 100))
    settings = ((first, 1.0, 1.0), (first, 3.0, 1.0), (first, 1.0, 4.0), (first, 3.0, 4.0), (second, 1.0, 4.0))
    return [((value, base * f, epsilon * g), value, base * f / (epsilon * g),
             f"value {value:.3g}, sensitivity {base * f:.3g}, epsilon {epsilon * g:.3g}", "")
            for value, f, g in settings]


def _mixed_sum_cases(seed: int):
    """02.4's inputs for the mixed round: every setting varied on its own and together (epsilon 1 and 1/3
    times a base, bounds 1 and 2 times a base pair, two datasets), so a standard draw kept when epsilon, the
    bounds or the data change shows as a rescaled repeat."""
    rng = _default_rng([seed, 31])
    lower, upper = -_log_uniform(rng, 1, 10), _log_uniform(rng, 1, 10)
    values, epsilon = rng.uniform(lower, upper, 12), _log_uniform(rng, 0.5, 10)
    other = rng.uniform(lower, upper, 7)
    settings = ((values, 1.0, 1.0), (values, 1.0, 3.0), (values, 2.0, 1.0), (values, 2.0, 3.0), (other, 1.0, 3.0))
    cases = []
    for data, width, f in settings:
        low, high = lower * width, upper * width
        centre, largest = _fsum(_clip(data, low, high)), _max(_abs(low), _abs(high))
        cases.append(((data, low, high, epsilon / f), centre, largest * f / epsilon,
                      f"{_len(data)} values, bounds [{low:.3g}, {high:.3g}], epsilon {epsilon / f:.3g}", ""))
    return cases



#: Sparse outliers of 02.4's cases (referee s40rA D1): 1 to OUTLIERS values OUTLIER_REACH (powers of ten of the
#: larger bound) beyond a bound, at random positions, the last position among them in half the cases. Unclipped,
#: one moves the sum by 1e6 times the larger bound or more: 1,000 noise scales or more at epsilon 1e-3.
OUTLIERS, OUTLIER_REACH = 3, (6.0, 8.0)


def with_outliers(rng, values, lower: float, upper: float, below_only: bool = False):
    """``values`` with 1 to :data:`OUTLIERS` of them replaced by values far beyond a bound (the lower one when
    ``below_only``, else either), at random positions (the last among them in half the cases).

    A copy of the sum that clips only when a sample of the values (the first 1,000, say) shows one outside
    the bounds, or only at some sizes, moves its centre by thousands of scales here.

    Parameters
    ----------
    rng : numpy.random.Generator
        The case's generator.
    values : ndarray
        The values (not changed).
    lower, upper : float
        The bounds.
    below_only : bool, default False
        Put every outlier below the lower bound (the clipped values then keep their largest |value|).

    Returns
    -------
    ndarray
        A new array.
    """
    values = np.array(values, dtype=float)
    count = int(rng.integers(1, OUTLIERS + 1))
    positions = rng.choice(_len(values), size=min(count, _len(values)), replace=False)
    if rng.random() < 0.5:
        positions[0] = _len(values) - 1
    largest = _max(_abs(lower), _abs(upper))
    for position in positions:
        below = below_only or rng.random() < 0.5
        reach = largest * 10.0 ** rng.uniform(*OUTLIER_REACH)
        values[position] = lower - reach if below else upper + reach
    return values
