"""Noise rounded before it is added: releases on a grid anchored at the true answer.

A release ``answer + round(noise / g) * g`` leaks the answer's digits below ``g``: the releases of two
neighbours lie on two disjoint lattices, so the privacy loss is infinite. Rounding the *release* (``round(answer
+ noise, 2)``, post-processing) puts it on a grid anchored at 0 instead, which is allowed.

The step ``g`` is estimated robustly: a tolerant Euclid over the smallest gaps between the distinct ``release -
answer`` differences, refined by least squares over every difference (the minimum gap alone is off by about 1e-9
relative, which at ``1e7`` steps from the answer misses the lattice by a whole step). The residues ``release -
answer (mod g)`` must then all lie within float error of one common point ``r0`` near 0, and the answer must not
itself lie near the zero grid. The float error of each difference is a few units in the last place of the release,
the answer and the difference, so grids down to about 200 of those units (``g > 200 * err``, about ``1.3e-12 x
|release|``) are tested; finer ones are hidden by float rounding and are not distinguishable from a correct release.

A correct (continuous) release passes with probability at least ``1 - 0.05 ** (n - 33)`` (every residue outside the
33 values the step was fitted on must land in a window of at most 5% of the step by chance): with ``n >= 100``
calls, as the checks use, that is ``1 - 1e-80``.
"""

from __future__ import annotations

import math

import numpy as np

from mic_dp_helpers.checks._core import CheckFailed

_asarray = np.asarray
_abs = np.abs
_spacing = np.spacing
_rint = np.rint
_unique = np.unique
_diff = np.diff
_argsort = np.argsort
_float = float
_larger = max

#: Fewest releases the test needs (the step is fitted on 33 of them, the others must confirm it).
MIN_RELEASES = 100
#: Gaps between distinct differences used to estimate the step.
STEP_GAPS = 32
#: The step must exceed this many units of float error to be tested.
FINEST_STEP_IN_ERRORS = 200.0
#: The common residue of an anchored grid is within this share of the step from 0 (the student's sum may
#: round differently from the check's).
ANCHOR_SHARE = 0.05


def _approx_gcd(a: float, a_error: float, b: float, b_error: float) -> tuple[float, float]:
    """Greatest common step of two positive numbers known within ``a_error`` and ``b_error``, and its error.

    Euclid with the nearest remainder; a remainder within 4 of its own propagated errors of 0 counts as 0."""
    while b > 4 * b_error:
        q = _rint(a / b)
        r, r_error = _abs(a - q * b), a_error + q * b_error
        a, a_error, b, b_error = b, b_error, _float(r), _float(r_error)
    return a, a_error


def _step_estimate(differences, error: float) -> tuple[float, float]:
    """The grid step of ``differences`` and its error ((0, 0) when no step above float error is seen)."""
    gaps = np.sort(_diff(_unique(differences)))[:STEP_GAPS]  # the smallest: few steps each, little error
    if gaps.size == 0:
        return 0.0, 0.0
    step, step_error = _float(gaps[0]), 2 * error
    for gap in gaps[1:]:
        step, step_error = _approx_gcd(_float(gap), 2 * error, step, step_error)
    if step <= FINEST_STEP_IN_ERRORS * _larger(error, step_error):
        return 0.0, 0.0
    return _refined_step(differences, step, _larger(error, step_error), error)


def _refined_step(differences, step: float, step_error: float, error: float) -> tuple[float, float]:
    """Least squares over the differences within ``reach`` steps of 0, ``reach`` growing as the step sharpens.

    A multiple ``k`` is read right while ``k`` times the step's error stays below a twentieth of a step."""
    limit = _float(_abs(differences).max())
    while True:
        reach = step / (20 * step_error)
        used = differences[_abs(differences) <= reach * step]
        k = _rint(used / step)
        weight = _float((k * k).sum())
        if weight == 0:
            return 0.0, 0.0
        step = _float((k * used).sum()) / weight
        new_error = 2 * error / _float(np.sqrt(weight))
        if reach * step >= limit or new_error >= step_error:
            return (step, new_error) if reach * step >= limit else (0.0, 0.0)
        step_error = new_error


def _snapped(step: float, step_error: float, scale: float) -> tuple[float, float]:
    """The exact step when the estimate is 1, 2 or 5 times a power of ten of 1 (``round(release, k)``) or of the
    noise scale (``round(noise / (scale * 1e-6))``), with the error of a float product; else the estimate."""
    for base in (1.0, scale):
        ratio = step / base
        power = 10.0 ** _float(_rint(math.log10(ratio)))
        for factor in (1.0, 2.0, 5.0, 0.5, 0.2):
            if _abs(ratio - factor * power) <= 1e-6 * ratio:
                return base * (factor * power), 4 * _float(_spacing(step))
    return step, step_error


def _centred_residue(x, step: float):
    """``x`` modulo ``step``, in [-step/2, step/2]."""
    return x - _rint(x / step) * step


def check_not_anchored(releases, centres, where: str, scale: float = 1.0, errors=None,
                       zero_grid_allowed: bool = True) -> None:
    """Fail when every release is the true answer plus a multiple of one step (noise rounded before adding).

    Parameters
    ----------
    releases : ndarray
        Releases, flat, float.
    centres : ndarray
        The true answer for each release, same shape.
    where : str
        Start of the hint.
    scale : float, default 1.0
        The noise scale: a step of 1, 2 or 5 times a power of ten of it (or of 1) is taken as exact.
    errors : ndarray, optional
        The float error of each difference ``release - centre`` (default: a few units in the last place of the
        release, the answer and the difference). Standardised noise pooled over cases passes its own.
    zero_grid_allowed : bool, default True
        Whether releases on the grid anchored at 0 pass (a rounded release, post-processing). False for
        standardised noise pooled over cases (``centres`` 0): a grid there is noise rounded in scale units.

    Raises
    ------
    CheckFailed
        If the releases lie on a grid anchored at the true answers and not on the grid anchored at 0.
    """
    values, centres = _asarray(releases, dtype=float), _asarray(centres, dtype=float)
    if values.size < MIN_RELEASES:
        return
    differences = values - centres
    if errors is None:
        errors = 2 * (_spacing(_abs(values)) + _spacing(_abs(centres)) + _spacing(_abs(differences)))
    errors = _asarray(errors, dtype=float)
    error = _float(errors.max())
    if not error < math.inf:
        return
    step, step_error = _step_estimate(differences, error)
    if step <= 0:
        return
    step, step_error = _snapped(step, step_error, scale)
    centre_error = _float(_abs(centres).max()) * step_error / step  # of an answer's residue on the zero grid
    if centre_error > 0.1 * step:
        return  # the answer is too many steps from 0 to tell whether it sits on the zero grid
    residues = _centred_residue(differences, step)
    anchor = _float(np.median(residues))
    multiples = _abs(_rint(differences / step))
    slack = 4 * errors + multiples * (8 * error / _float(np.sqrt((multiples * multiples).sum())))
    if not (_abs(residues - anchor) <= slack).all() or _abs(anchor) > ANCHOR_SHARE * step:
        return
    if not zero_grid_allowed:
        _fail(where, step)
    on_zero = 2 * _abs(anchor) + _float(slack.max()) + centre_error
    if _float(_abs(_centred_residue(values, step)).max()) <= on_zero:
        return  # the answers sit on the zero grid too: the two grids coincide, nothing leaks
    _fail(where, step)


def _fail(where: str, step: float) -> None:
    raise CheckFailed(f"{where} every release is the true answer plus a multiple of {step:.3g}: the noise is rounded "
                      "before it is added, so the release's last digits are the true answer's (property: no leak "
                      "through rounding). Add the noise first; rounding the noisy release afterwards is fine.")
