"""04.1: data with few distinct values, data beyond one bound, and tiny epsilons (referee s39rA D1, D6).

Every other case of 04.1 draws continuous values strictly inside the bounds, at epsilon 0.02 or more. Answers that
release the exact mean when every value is the same, when the values are 0/1 or take two or three values, when
every value lies beyond one bound (the clamped mean is then that bound), or below epsilon 0.015, passed; so did
bounds narrowed to the data when the data take at most two values. Each of these has an infinite privacy loss: on
[5.0] * 100 the exact answer is 5.0 every time, and never once one person with 6.0 joins.

Here each case of :func:`few_value_cases` gets ``RUNS`` answers and ``REFERENCE_RUNS`` of PyDP's own, and:

- the answers are never all equal (a correct answer: at most about 2 x 0.55^40 = 8e-11, when half its answers sit
  on a bound);
- where the clamped mean lies strictly inside the bounds, at most 3 answers are within 1e-3 x min(noise scale,
  bound width) of it (each has probability about 2e-3 or less: 4 or more of 40 about 1.5e-6);
- their distances to the clamped mean are not smaller than PyDP's (one-sided rank test with ties,
  ``SPREAD_P`` per case): bounds narrowed to 0/1 data inside wider bounds give z about -9.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._mean_spread import rank_shift
from mic_dp_helpers.checks._pydp_reference import pydp_means
from mic_dp_helpers.scale.pydp_error import bounded_mean_noise_std

_default_rng = np.random.default_rng
_norm_cdf = scipy.stats.norm.cdf
_sqrt = math.sqrt
_float = float
_len = len

#: Answers per case, PyDP's own answers per case, and the one-sided p-value of the spread test (7 cases: 7e-6).
RUNS, REFERENCE_RUNS, SPREAD_P = 40, 80, 1e-6
#: The labels of :func:`few_value_cases`, in order.
KINDS = ("every value the same", "0/1 values with bounds [0, 1]", "0/1 values inside wider bounds",
         "two or three distinct whole numbers", "every value beyond one bound", "epsilon 0.001 to 0.004",
         "epsilon 0.004 to 0.015")


def _log_uniform(rng, low: float, high: float) -> float:
    return _float(math.exp(rng.uniform(math.log(low), math.log(high))))


def _case(rng, label: str) -> tuple:
    n = int(_log_uniform(rng, 20, 3000))
    epsilon = _log_uniform(rng, 0.1, 5.0)
    lower = _float(rng.uniform(-50, 50))
    upper = lower + _log_uniform(rng, 2, 200)
    width = upper - lower
    if label == "every value the same":
        values = [_float(rng.uniform(lower + width / 5, upper - width / 5))] * n
    elif label == "0/1 values with bounds [0, 1]":
        lower, upper = 0.0, 1.0
        values = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(float).tolist()
    elif label == "0/1 values inside wider bounds":
        lower, upper = -_log_uniform(rng, 1, 10), 1.0 + _log_uniform(rng, 1, 10)
        values = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(float).tolist()
    elif label == "two or three distinct whole numbers":
        lower, upper = 0, 150
        levels = rng.choice(np.arange(20, 131), size=int(rng.integers(2, 4)), replace=False)
        values = rng.choice(levels, size=n).astype(float).tolist()
    elif label == "every value beyond one bound":
        side = upper if rng.random() < 0.5 else lower
        direction = 1.0 if side == upper else -1.0
        values = (side + direction * rng.uniform(0.0, width, n)).tolist()
        values[0] = side  # one value exactly at the bound, the others beyond it
    else:  # epsilon below 0.015: the noise dwarfs the bounds, and PyDP's answers pile up on them
        epsilon = _log_uniform(rng, 1e-3, 4e-3) if label == "epsilon 0.001 to 0.004" else _log_uniform(rng, 4e-3, 0.015)
        values = rng.uniform(lower + width / 5, upper - width / 5, n).tolist()
    return values, lower, upper, epsilon, label


def few_value_cases(seed: int) -> list:
    """(values, lower, upper, epsilon, label) for each of :data:`KINDS` (20-3,000 values, epsilon 0.1-5 except the
    last two kinds': 1e-3-4e-3 and 4e-3-0.015).

    Parameters
    ----------
    seed : int
        The check's seed.

    Returns
    -------
    list of tuple
        One case per kind.

    Examples
    --------
    >>> [case[4] for case in few_value_cases(1)] == list(KINDS)
    True
    """
    rng = _default_rng([seed, 39])
    return [_case(rng, label) for label in KINDS]


def check_case(answers, values, lower: float, upper: float, epsilon: float, label: str) -> None:
    """Fail a case whose answers are noiseless, near the exact mean too often, or less spread than PyDP's.

    Parameters
    ----------
    answers : numpy.ndarray
        The answer's ``RUNS`` outputs (numbers).
    values : list of float
        The case's values.
    lower, upper, epsilon : float
        Its bounds and epsilon.
    label : str
        Its kind (one of :data:`KINDS`).

    Raises
    ------
    CheckFailed
        With a hint that names the kind of data.
    """
    where = f"With {_len(values)} values ({label}), bounds [{lower:.6g}, {upper:.6g}] and epsilon={epsilon:.6g}:"
    clamped = np.clip(np.asarray(values, dtype=float), lower, upper)
    centre = _float(clamped.mean())
    rule = ("the noise must not depend on what the values look like: let PyDP's BoundedMean answer every call, "
            "with the bounds you were given, whatever the data (all equal, 0/1, a few values, beyond a bound) "
            "and however small epsilon is.")
    if answers.max() == answers.min():
        raise CheckFailed(f"{where} all {RUNS} answers are the same number (property: noise for every input): {rule}")
    if not (np.all(clamped == lower) or np.all(clamped == upper)):  # else PyDP's answers sit on that bound half the time
        scale = bounded_mean_noise_std(lower, upper, epsilon, _len(values), mean=centre) / _sqrt(2)
        window = 1e-3 * min(scale, upper - lower)
        near = int((np.abs(answers - centre) <= window).sum())
        if near > 3:
            raise CheckFailed(f"{where} {near} of {RUNS} answers are the exact mean or within a hair of it "
                              f"(property: noise for every input): {rule}")
    shift, variance = rank_shift(answers, pydp_means(values, lower, upper, epsilon, REFERENCE_RUNS), centre)
    z = shift / _sqrt(variance) if variance > 0 else 0.0
    if float(_norm_cdf(z)) < SPREAD_P:
        raise CheckFailed(f"{where} your answers lie closer to the clamped mean than PyDP's BoundedMean's own answers "
                          f"on the same input (rank test, z = {z:.1f}; property: noise of the right size): too little "
                          "noise for this kind of data. Are the bounds narrowed to the values present? The noise "
                          "must come from the bounds you were given, never from the data.")
