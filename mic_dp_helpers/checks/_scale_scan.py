"""A scale test on a band sweep: the Laplace noise has its full scale wherever a parameter lies (referee s37rA).

A band sweep (:func:`mic_dp_helpers.checks._sweeps.band_sweep`) calls the answer a few times at each of
hundreds of cases across a box of parameters. Testing only that no release is exact lets an answer shrink its
noise where a parameter is extreme (epsilon floored at 1e-3, the scale capped at 1e6): :func:`check_band_scale`
orders the cases by each parameter in turn and tests the mean |noise| / scale of every window of 1, 4, 16 and 64
neighbouring cases (half-overlapping) against the Gamma law it has under Laplace noise. Power: the rows
``"band sweep scale"`` of ``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import gamma as _gamma

from mic_dp_helpers.checks._core import CheckFailed

_asarray = np.asarray
_float = float

#: Windows of neighbouring cases (in the order of one parameter) whose mean |noise| / scale is tested.
SCALE_WINDOWS = (1, 4, 16, 64)
#: A correct answer fails the scan of one sweep with probability at most SCALE_ALPHA (Bonferroni over every
#: window, parameter and side; the windows overlap, so the true rate is lower).
SCALE_ALPHA = 1e-4


def _starts(cases: int, window: int) -> list[int]:
    """The first case of each window: every half window, and the last window flush with the end."""
    if window > cases:
        return []
    return sorted(set(range(0, cases - window + 1, max(1, window // 2))) | {cases - window})


def _windows(cases: int) -> list[tuple[int, int]]:
    return [(window, start) for window in SCALE_WINDOWS for start in _starts(cases, window)]


def _alpha(cases: int, parameters: int) -> float:
    """The false-rejection probability of one window on one side (Bonferroni)."""
    return SCALE_ALPHA / (2 * parameters * len(_windows(cases)))


def scale_bounds(draws: int, cases: int, parameters: int) -> tuple[float, float]:
    """The band ``(low, high)`` of a window's mean |noise| / scale outside which the scan fails.

    Parameters
    ----------
    draws : int
        Releases in the window.
    cases : int
        Cases of the sweep.
    parameters : int
        How many parameters the cases are ordered by.

    Returns
    -------
    tuple of float

    Examples
    --------
    >>> low, high = scale_bounds(10, 400, 4)
    >>> 0.05 < low < 0.1 and 3.5 < high < 4.5
    True
    """
    alpha = _alpha(cases, parameters)
    return _float(_gamma.ppf(alpha, draws)) / draws, _float(_gamma.isf(alpha, draws)) / draws


def _worst_window(sizes, counts, values):
    """(log p, window, start, draws, mean) of the window of cases (ordered by ``values``) least likely under
    Laplace noise, among equally unlikely windows the widest; and the order."""
    order = np.argsort(values, kind="stable")
    total = np.concatenate([[0.0], np.cumsum(sizes[order])])
    number = np.concatenate([[0], np.cumsum(counts[order])])
    worst = (0.0, 0, 0, 1, 1.0)
    for window in SCALE_WINDOWS:
        starts = np.array(_starts(len(values), window), dtype=int)
        if not starts.size:
            continue
        sums, draws = total[starts + window] - total[starts], number[starts + window] - number[starts]
        log_p = np.minimum(_gamma.logcdf(sums, draws), _gamma.logsf(sums, draws))
        best = int(np.argmin(log_p))
        if (log_p[best], -window) <= (worst[0], -worst[1]):
            worst = (_float(log_p[best]), window, int(starts[best]), int(draws[best]),
                     _float(sums[best]) / int(draws[best]))
    return worst, order


def check_band_scale(z, keys: dict, where: str, fix: str, describe=None) -> None:
    """Test the mean |z| of every window of neighbouring cases, ordered by each parameter in turn.

    Parameters
    ----------
    z : sequence of array_like
        Standardised Laplace noise of each case (|z| is Exp(1) for a correct answer), any number per case.
    keys : dict
        ``parameter name -> its value per case`` (the cases are ordered by each).
    where : str
        Start of the hint ("Over 400 cases across the whole range,").
    fix : str
        The hint's last sentence, on too little noise: what to look at in the answer.
    describe : callable, optional
        ``describe(i)``: the parameters of case ``i``, for a hint about one case.

    Raises
    ------
    CheckFailed
        If a window's sum of |z| is beyond its Gamma law's tail of probability ``SCALE_ALPHA`` divided among
        every window, parameter and side (the least likely window is named).
    """
    arrays = [np.abs(_asarray(case, dtype=float)).ravel() for case in z]
    sizes = np.array([_float(a.sum()) for a in arrays])
    counts = np.array([a.size for a in arrays])
    limit = _float(np.log(_alpha(len(arrays), len(keys))))
    found = None
    for name, values in keys.items():
        values = _asarray(values, dtype=float)
        (log_p, window, start, draws, mean), order = _worst_window(sizes, counts, values)
        if log_p < limit and (found is None or (log_p, -window) < (found[0], -found[1])):
            found = (log_p, window, start, draws, mean, name, values, order)
    if found is None:
        return
    _, window, start, draws, mean, name, values, order = found
    low, high = scale_bounds(draws, len(arrays), len(keys))
    if window == 1 and describe is not None:
        span = describe(int(order[start])).rstrip(":")
    else:
        span = f"for {name} from {values[order[start]]:.3g} to {values[order[start + window - 1]]:.3g}"
    raise CheckFailed(
        f"{where} {span} ({window} case(s), {draws} releases) your releases lie {mean:.3g} noise scales from the "
        f"exact answer on average, where Laplace noise gives 1 (below {low:.2f} or above {high:.2f} happens with "
        "probability below 1e-8) (property: the full noise scale for every parameter). "
        + (f"Too little noise there: {fix}" if mean < 1 else
           "Too much noise there: is epsilon or the scale changed for some values?"))
