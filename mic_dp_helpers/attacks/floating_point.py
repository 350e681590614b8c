"""Mironov's floating-point attack: textbook Laplace noise in doubles leaks the true value (lesson 04).

Mironov ("On significance of the least significant bits for differential privacy", CCS 2012)
showed that adding floating-point Laplace noise to a true answer, as textbooks write it, is not
differentially private: the noise comes from a uniform draw on a finite grid, so many doubles
near ``true_value + noise`` can never come out, and which ones depends on ``true_value``.

* :func:`numpy_laplace_reachable` inverts NumPy's Laplace sampler (the one behind the course's
  :func:`~mic_dp_helpers.mechanisms.noise.laplace_mechanism`) and says, for each released value,
  whether a candidate true value can produce it exactly: an attacker who sees an output often
  learns the true value;
* :func:`power_of_two_granularity` measures the grid of released values: production libraries
  (Google's, through PyDP) put every answer on a power-of-two grid set by the noise scale, so the
  gaps this attack exploits do not exist.

The neighbours attacked are those of the mechanism under test (for a count, one record added or
removed moves the true value by 1); the attacker is assumed to know the noise scale, which is
public.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers._validation import check_finite_float, check_finite_vector, check_positive_float, check_size

__all__ = ["numpy_laplace_reachable", "power_of_two_granularity"]


_TWO_53 = 2.0**53
_MAX_WINDOW = 10**7  # uniform draws tried per output, one at a time in Python


def _numpy_laplace_output(j: int, true_value: float, scale: float) -> float:
    """What ``true_value + Generator.laplace(0, scale)`` returns when the uniform draw is ``j / 2**53``.

    NumPy (``random_laplace`` in its C distributions) draws ``U = k / 2**53`` and returns
    ``scale * log(U + U)`` if ``U < 0.5``, else ``-scale * log(2 - U - U)``; ``math.log`` is
    the same C library function, so this reproduces the sampler bit for bit.
    """
    u = j / _TWO_53
    noise = scale * math.log(u + u) if u < 0.5 else -(scale * math.log(2.0 - u - u))
    return true_value + noise


def numpy_laplace_reachable(outputs, true_value: float, scale: float, *, max_window: int = 100_000) -> np.ndarray:
    """For each output, can ``true_value + numpy Laplace noise of this scale`` produce it exactly?

    This is the test behind Mironov's floating-point attack (CCS 2012). The course's
    :func:`~mic_dp_helpers.mechanisms.noise.laplace_mechanism` adds NumPy Laplace noise, which is
    computed from a uniform draw on a grid of ``2**53`` points: many floating-point numbers
    near ``true_value + noise`` can never come out, and which ones depends on
    ``true_value``. An attacker who sees an output and checks which candidate true value
    can produce it often learns the true value exactly. The test inverts the sampler and
    tries every uniform draw that could give the output.

    Parameters
    ----------
    outputs : array_like
        Released values.
    true_value : float
        Candidate true answer.
    scale : float
        Laplace scale (sensitivity / epsilon) of the mechanism.
    max_window : int, default 100000
        Largest number of uniform draws to try per output; a ``true_value`` much larger than
        ``scale`` needs many, and then :class:`ValueError` is raised.

    Returns
    -------
    numpy.ndarray of bool

    Examples
    --------
    >>> from mic_dp_helpers.mechanisms.noise import laplace_mechanism
    >>> released = laplace_mechanism([0.0] * 200, sensitivity=1.0, epsilon=1.0, rng=0)
    >>> bool(numpy_laplace_reachable(released, 0.0, 1.0).all())
    True
    >>> bool(numpy_laplace_reachable(released, 1.0, 1.0).mean() < 0.5)
    True
    """
    array = check_finite_vector(outputs, "outputs", allow_empty=True)
    true_value = check_finite_float(true_value, "true_value")
    scale = check_positive_float(scale, "scale")
    max_window = check_size(max_window, "max_window", 1, maximum=_MAX_WINDOW)
    reachable = np.zeros(array.size, dtype=bool)
    for position, output in enumerate(array.tolist()):
        d = (output - true_value) / scale
        u = math.exp(d) / 2.0 if d < 0 else 1.0 - math.exp(-d) / 2.0  # the uniform draw, inverted
        # Rounding in the output hides up to about ulp(output) / scale of the noise: cover it.
        spread = _TWO_53 * max(u if d < 0 else 1.0 - u, 2.0**-53) * (math.ulp(output) + math.ulp(true_value)) / scale
        window = int(spread) + 4
        if window > max_window:
            raise ValueError(f"true_value={true_value} is too large relative to scale={scale} to test "
                             f"exactly (would need {window} draws per output).")
        centre = int(u * _TWO_53)
        for j in range(max(centre - window, 1), min(centre + window, int(_TWO_53) - 1) + 1):
            if _numpy_laplace_output(j, true_value, scale) == output:
                reachable[position] = True
                break
    return reachable


def power_of_two_granularity(values) -> float:
    """The largest power of two of which every value is a whole multiple (``inf`` if all are 0).

    PyDP's secure Laplace noise (Google's "Secure noise generation", 2020) rounds the true
    answer to a multiple of a power of two set by the noise scale, and adds a whole number of
    those steps, so every answer lies on that grid, whatever the data: the gaps that Mironov's
    attack exploits do not exist. Textbook floating-point noise has no such grid.

    Parameters
    ----------
    values : array_like
        A 1-D list or array of finite numbers (released answers).

    Returns
    -------
    float
        The power of two, or ``inf`` when every value is 0 (or there are none).

    Examples
    --------
    >>> power_of_two_granularity([0.75, 1.5, -2.25])
    0.25
    """
    array = check_finite_vector(values, "values", allow_empty=True)
    nonzero = np.abs(array[array != 0])
    if nonzero.size == 0:
        return math.inf
    mantissa, exponent = np.frexp(nonzero)  # x = mantissa * 2**exponent, 0.5 <= mantissa < 1
    # Trailing zero bits of the 53-bit integer mantissa give the lowest set bit of each value.
    integer_mantissa = (mantissa * 2.0**53).astype(np.int64)
    trailing = np.array([(int(m) & -int(m)).bit_length() - 1 for m in integer_mantissa])
    lowest_bit = exponent - 53 + trailing
    return float(2.0 ** int(lowest_bit.min()))
