"""Exact relations in lesson 08's Gaussian noise: draws repeated or negated, noise confined to a subspace.

An outside referee (s37rC) found noise that the moment tests of :mod:`mic_dp_helpers.checks._vector_noise`
cannot see: a standard-normal draw stored and reused on the first call with other data (the two releases
then reveal the difference of the clipped sums exactly), coordinates built in blocks ``[z, w, -z, w]`` (the
sum of two coordinates is released without noise) and noise with its component along one direction removed.
Each is an exact linear relation, which independent Gaussian noise has with probability 0:

- :func:`repeated_rows`: two rows of a matrix equal, or opposite, to within :data:`REPEAT_TOLERANCE`; used on
  the calls of a whole check run (:func:`check_no_repeated_noise`) and on the coordinates of one case;
- :func:`check_full_rank`: the smallest singular value of a case's ``calls x p`` noise matrix far below that of a
  Gaussian matrix (with ``calls >= p + 10`` this finds any direction without noise; with ``calls <= p - 10``
  any call whose noise is a combination of the others').

A correct release fails each with probability far below 1e-6 (see each function). All NumPy functions are
bound at import, so patching them later changes nothing.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers._threads import one_thread
from mic_dp_helpers.checks._core import CheckFailed

_np_abs = np.abs
_np_argsort = np.argsort
_np_concatenate = np.concatenate
_np_diff = np.diff
_np_flatnonzero = np.flatnonzero
_svdvals = np.linalg.svd
_key_rng = np.random.default_rng
_np_spacing = np.spacing
_float32 = np.float32
_asarray = np.asarray
_sqrt = math.sqrt

#: Two noise values (in units of the noise's standard deviation) closer than this, relative to ``1 + |value|``,
#: count as equal. Float error leaves a reused draw within about 1e-8 of itself (1e-6 for a sum of a million
#: rows); two independent rows of m values all meet it with probability about (3.2e-7)^m per pair of rows, 1e-13
#: for m = 2 (at most 4e-6 for the largest group of a check run, 2 coordinates x 6,000 calls).
REPEAT_TOLERANCE = 1e-7
#: Noise is compared only where the releases can resolve it: where the gap between neighbouring floats at the
#: released values, in units of the noise's standard deviation, is below this (a release cast to float32, or
#: one far larger than its noise, sits on a grid whose points coincide by chance; such blocks are left out).
RESOLUTION_LIMIT = 1e-8
#: A case fails :func:`check_full_rank` when its smallest singular value is below this fraction of
#: ``|sqrt(calls) - sqrt(p)|``, the smallest singular value of a Gaussian matrix of that shape: simulated
#: minimum ratio 0.38 over 20,000 matrices with ``|calls - p| = 10``, above 0.7 with ``|calls - p| >= 30``.
RANK_FLOOR = 0.1
#: :func:`check_full_rank` tests a case only when its number of calls and of coordinates differ by this much.
RANK_MARGIN = 10


def unit_resolution(released, scale: float) -> float:
    """The gap between neighbouring floats at the largest released value, in units of ``scale``.

    Parameters
    ----------
    released : array_like
        The releases (float32 outputs are recognised: every value is a float32).
    scale : float
        The noise's standard deviation.

    Returns
    -------
    float
        Compare with :data:`RESOLUTION_LIMIT`.

    Examples
    --------
    >>> unit_resolution(np.array([1.1, 2.5]), 1.0) < 1e-15, unit_resolution(np.float32([1.1, 2.5]), 1.0) > 1e-7
    (True, True)
    """
    values = _np_abs(_asarray(released, dtype=float))
    single = bool((values.astype(_float32) == values).all())
    return float(_np_spacing(values.astype(_float32) if single else values).max(initial=0.0)) / scale


def repeated_rows(matrix: np.ndarray) -> tuple[int, int, int] | None:
    """Two rows of ``matrix`` that are equal (sign 1) or opposite (sign -1), each value within the tolerance.

    Rows are sorted by the absolute value of their projection on a fixed random vector (equal or opposite rows
    share it); only neighbours in that order are compared, so the cost is ``k log k`` for ``k`` rows.

    Parameters
    ----------
    matrix : numpy.ndarray, shape (k, m)
        Noise in units of its standard deviation, one row per call (or per coordinate).

    Returns
    -------
    tuple of int or None
        ``(i, j, sign)`` for the first such pair found, else None.

    Examples
    --------
    >>> draws = np.random.default_rng(0).standard_normal((5, 3))
    >>> repeated_rows(draws) is None, repeated_rows(np.vstack([draws, -draws[2]]))[2]
    (True, -1)
    """
    rows, width = matrix.shape
    if rows < 2 or width < 1:
        return None
    with one_thread():
        key = _np_abs(matrix @ _key_rng(20_250).standard_normal(width))
    order = _np_argsort(key)
    ordered = key[order]
    for index in _np_flatnonzero(_np_diff(ordered) <= REPEAT_TOLERANCE * (1 + ordered[1:])):
        first, second = matrix[order[index]], matrix[order[index + 1]]
        for sign in (1, -1):
            if (_np_abs(first - sign * second) <= REPEAT_TOLERANCE * (1 + _np_abs(first))).all():
                return int(order[index]), int(order[index + 1]), sign
    return None


def check_no_repeated_noise(blocks: list[tuple[np.ndarray, str, float]]) -> None:
    """Fail if two calls of a check run, anywhere in it, drew the same noise vector (or its negative).

    ``blocks`` holds every case's noise (calls x p, in units of the noise's standard deviation) with the start
    of its hint and its :func:`unit_resolution`. Blocks with the same ``p >= 2`` and a resolution below
    :data:`RESOLUTION_LIMIT` are compared together, so noise stored in one case and reused in another (a cache
    keyed by the number of coordinates, say, that hands the last draw to the first call on new data) shows,
    whichever inputs the two calls had.

    Parameters
    ----------
    blocks : list of (numpy.ndarray, str, float)
        Each case's noise matrix, the start of its hint and its resolution.

    Raises
    ------
    CheckFailed
        Naming the two inputs whose calls shared their noise.
    """
    by_width: dict[int, list[tuple[np.ndarray, str]]] = {}
    for units, where, resolution in blocks:
        if units.ndim == 2 and units.shape[1] >= 2 and resolution <= RESOLUTION_LIMIT:
            by_width.setdefault(units.shape[1], []).append((units, where))
    for group in by_width.values():
        owners = [where for units, where in group for _ in range(len(units))]
        pair = repeated_rows(_np_concatenate([units for units, _ in group]))
        if pair is not None:
            first, second, sign = pair
            same = "the same noise" if sign > 0 else "the same noise with its sign flipped"
            raise CheckFailed(f"{owners[first]} one call drew {same} as another call (here: "
                              f"{owners[second].rstrip(':')}). Draw fresh noise from rng in every call, also when "
                              "the data change: two releases that share their noise give away the difference of "
                              "their clipped sums exactly.")


def check_no_repeated_coordinates(units: np.ndarray, where: str, resolution: float) -> None:
    """Fail if two coordinates of one case got the same (or opposite) noise in every one of its calls.

    With 3 or more calls a pair of independent coordinates matches with probability below 1e-19 (at most
    2e8 pairs for 20,000 coordinates); blocks such as ``[z, w, -z, w]`` match in every call.

    Parameters
    ----------
    units : numpy.ndarray, shape (calls, p)
        The case's noise in units of its standard deviation.
    where : str
        The start of the hint.
    resolution : float
        The releases' :func:`unit_resolution`: above :data:`RESOLUTION_LIMIT` the case is not tested.

    Raises
    ------
    CheckFailed
        If two coordinates' noise is equal or opposite in every call.
    """
    calls, p = units.shape
    if calls < 3 or p < 2 or resolution > RESOLUTION_LIMIT:
        return
    pair = repeated_rows(units.T)
    if pair is not None:
        first, second, sign = pair
        relation = "the same" if sign > 0 else "opposite"
        raise CheckFailed(f"{where} coordinates {min(first, second)} and {max(first, second)} got {relation} noise "
                          f"in every call, so their {'difference' if sign > 0 else 'sum'} is released without noise. "
                          "Draw independent noise for every coordinate.")


def check_full_rank(units: np.ndarray, where: str) -> None:
    """Fail if the noise of a case lies (almost) in a subspace: a direction without noise, or calls that depend.

    Independent ``N(0, 1)`` noise in a ``calls x p`` matrix has smallest singular value near
    ``|sqrt(calls) - sqrt(p)|``; below :data:`RANK_FLOOR` of it fails, when ``|calls - p| >= RANK_MARGIN``
    (a correct answer: probability far below 1e-9, by the tail bound ``(C eps)^(|calls - p| + 1)`` of
    Rudelson and Vershynin). With more calls than coordinates this is a direction of the coordinates that gets
    (almost) no noise; with fewer, a call whose noise is a combination of the other calls' noise.

    Parameters
    ----------
    units : numpy.ndarray, shape (calls, p)
        The case's noise in units of its standard deviation, around the true centre.
    where : str
        The start of the hint.

    Raises
    ------
    CheckFailed
        With a hint naming the relation.
    """
    calls, p = units.shape
    if abs(calls - p) < RANK_MARGIN or min(calls, p) < 1:
        return
    with one_thread():  # BLAS threads on a busy machine: 0.7 s instead of 0.01 s for 550 x 255
        smallest = float(_svdvals(units, compute_uv=False)[-1])
    if smallest >= RANK_FLOOR * abs(_sqrt(calls) - _sqrt(p)):
        return
    if calls > p:
        raise CheckFailed(f"{where} some combination of the coordinates gets (almost) no noise: over {calls} calls the "
                          f"noise vectors lie (nearly) in a subspace of fewer than {p} dimensions. Draw independent "
                          "Gaussian noise for every coordinate (no coordinates built from others, no component "
                          "removed): every direction must get noise of standard deviation noise_multiplier * "
                          "clip_norm.")
    raise CheckFailed(f"{where} the noise of one call is (nearly) a combination of other calls' noise: draw fresh, "
                      "independent noise from rng in every call (no stored, negated or combined draws).")
