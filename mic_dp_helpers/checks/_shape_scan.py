"""A shape test on a band sweep: the noise is Laplace wherever a parameter lies, not only pooled (referee s38rA).

:func:`_scale_scan.check_band_scale` tests the mean |noise| of every window of neighbouring cases, which is blind to
the noise's family: uniform or Gaussian noise of the right mean |noise| passed where only the band sweep looked
(02.1: epsilon below 1e-3, sensitivity below 1e-3, values more than 1e6 scales from 0; 02.4: epsilon below 1e-2,
bounds below 0.5, more than 120,000 values). :func:`check_band_shape` orders the cases by each parameter in turn
and counts, in every window of neighbouring cases (and every window from either end, where an answer that changes
the noise below or above some value hides), the standardised releases ``|z|`` (Exp(1) under Laplace noise)

* beyond 2 and beyond 3 scales (too few: noise bounded within 2 or 3 scales, or a Gaussian), and
* between 0.5 and 2.7 scales (too many: uniform, Gaussian or any family lighter in the centre and the tails),

each count against its exact binomial law, Bonferroni over every window, parameter and count. Power: the rows
``"band sweep shape"`` of ``LESSON02_06_POWER`` in :mod:`mic_dp_helpers.checks._stats`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binom as _binom

from mic_dp_helpers.checks._core import CheckFailed

_asarray = np.asarray
_float = float
_exp = math.exp

#: Windows of neighbouring cases (in the order of one parameter) whose counts are tested, each every quarter
#: window (so a region of 1.25 windows holds a whole window); besides them, windows of 2, 3, 4, 6, 8, 12, ... cases
#: from either end (:func:`_ends`).
SHAPE_WINDOWS = (16, 32, 64, 128)
#: A correct answer fails one scan with probability at most SHAPE_ALPHA (Bonferroni over every window, parameter
#: and count; the windows overlap, so the true rate is lower).
SHAPE_ALPHA = 1e-4
#: The counts: ``(low, high, side)``: the releases with ``low < |z| <= high`` (scales), and the side that fails.
SHAPE_COUNTS = ((2.0, math.inf, "few"), (3.0, math.inf, "few"), (0.5, 2.7, "many"))


def _starts(cases: int, window: int) -> list[int]:
    """The first case of each window: every quarter window, and the last window flush with the end."""
    if window > cases:
        return []
    return sorted(set(range(0, cases - window + 1, max(1, window // 4))) | {cases - window})


def _ends(cases: int) -> list[int]:
    """Lengths of the windows that start at the first case or end at the last (where an answer that changes the
    noise below or above some value of a parameter hides): 2, 3, 4, 6, 8, 12, ... up to all the cases."""
    lengths = {cases}
    length = 2
    while length < cases:
        lengths |= {length, min(cases, length * 3 // 2)}
        length *= 2
    return sorted(lengths)


def _windows(cases: int, windows) -> np.ndarray:
    """``(start, stop)`` of every window tested: each size of ``windows`` every quarter window, and the windows of
    :func:`_ends` lengths from either end."""
    pairs = {(start, start + window) for window in windows for start in _starts(cases, window)}
    pairs |= {(0, length) for length in _ends(cases)} | {(cases - length, cases) for length in _ends(cases)}
    return np.array(sorted(pairs), dtype=int).reshape(-1, 2)


def shape_alpha(cases: int, parameters: int, windows=SHAPE_WINDOWS, alpha: float = SHAPE_ALPHA) -> float:
    """The false-rejection probability of one count of one window (Bonferroni).

    Parameters
    ----------
    cases : int
        Cases of the sweep.
    parameters : int
        How many parameters the cases are ordered by.
    windows : tuple of int, default SHAPE_WINDOWS
        The window sizes (in cases), besides the windows from either end.
    alpha : float, default SHAPE_ALPHA
        The scan's false-rejection probability.

    Returns
    -------
    float

    Examples
    --------
    >>> 1e-8 < shape_alpha(400, 4) < 1e-7
    True
    """
    return alpha / (parameters * len(_windows(cases, windows)) * len(SHAPE_COUNTS))


def _share(low: float, high: float) -> float:
    """P(low < |z| <= high) for standard Laplace z."""
    return _exp(-low) - (0.0 if high == math.inf else _exp(-high))


def _log_p(hits: np.ndarray, draws: np.ndarray, share: float, side: str) -> np.ndarray:
    """The log binomial tail of each window's count, on the side that fails."""
    if side == "few":
        return _binom.logcdf(hits, draws, share)
    return _binom.logsf(hits - 1, draws, share)


def _worst(counts: dict, number: np.ndarray, order: np.ndarray, windows) -> tuple:
    """(log p, start, stop, count index, hits, draws) of the least likely window count, cases in ``order``."""
    pairs = _windows(len(order), windows)
    starts, stops = pairs[:, 0], pairs[:, 1]
    drawn = np.concatenate([[0], np.cumsum(number[order])])
    draws = drawn[stops] - drawn[starts]
    worst = (0.0, 0, 0, 0, 0, 0)
    for key, (low, high, side) in enumerate(SHAPE_COUNTS):
        total = np.concatenate([[0], np.cumsum(counts[key][order])])
        hits = total[stops] - total[starts]
        log_p = _log_p(hits, draws, _share(low, high), side)
        best = int(np.argmin(log_p))
        if log_p[best] < worst[0]:
            worst = (_float(log_p[best]), int(starts[best]), int(stops[best]), key, int(hits[best]), int(draws[best]))
    return worst


def _hint(where: str, span: str, found: tuple) -> str:
    _, start, stop, key, hits, draws = found
    low, high, side = SHAPE_COUNTS[key]
    region = f"beyond {low:g} scales" if high == math.inf else f"between {low:g} and {high:g} scales"
    expected = draws * _share(low, high)
    what = ("too few: the noise is bounded or its tails are too light there (uniform, Gaussian or clipped noise)"
            if side == "few" else "too many: the noise is too concentrated there, away from 0 and from the tails "
            "(uniform or Gaussian noise of the same average size)")
    return (f"{where} {span} ({stop - start} case(s), {draws} releases) {hits} releases lie {region} of the exact "
            f"answer, where Laplace noise puts about {expected:.0f}; {what} (property: Laplace noise for every parameter). "
            "Draw the noise from the Laplace distribution (rng.laplace) for every input: another family of the "
            "same average size is not the Laplace mechanism, whose rare large values are what make it private.")


def check_band_shape(z, keys: dict, where: str, windows=SHAPE_WINDOWS, alpha: float = SHAPE_ALPHA) -> None:
    """Test the shape of the noise in every window of neighbouring cases, ordered by each parameter in turn.

    Parameters
    ----------
    z : sequence of array_like
        Standardised Laplace noise of each case (Laplace(0, 1) for a correct answer), any number per case.
    keys : dict
        ``parameter name -> its value per case`` (the cases are ordered by each).
    where : str
        Start of the hint ("Over 400 cases across the whole range,").
    windows : tuple of int, default SHAPE_WINDOWS
        Window sizes, in cases.
    alpha : float, default SHAPE_ALPHA
        The scan's false-rejection probability (Bonferroni over windows, parameters and counts).

    Raises
    ------
    CheckFailed
        If a window's count is beyond its binomial tail of probability :func:`shape_alpha` (the least likely is
        named).
    """
    arrays = [np.abs(_asarray(case, dtype=float)).ravel() for case in z]
    number = np.array([a.size for a in arrays])
    counts = {key: np.array([int(((a > low) & (a <= high)).sum()) for a in arrays])
              for key, (low, high, _) in enumerate(SHAPE_COUNTS)}
    limit = math.log(shape_alpha(len(arrays), len(keys), windows, alpha))
    found = None
    for name, values in keys.items():
        values = _asarray(values, dtype=float)
        order = np.argsort(values, kind="stable")
        worst = _worst(counts, number, order, windows)
        if worst[0] < limit and (found is None or worst[0] < found[0][0]):
            found = (worst, name, values, order)
    if found is None:
        return
    worst, name, values, order = found
    _, start, stop, *_ = worst
    span = f"for {name} from {values[order[start]]:.3g} to {values[order[stop - 1]]:.3g}"
    raise CheckFailed(_hint(where, span, worst))


#: Grids of the joint-box scan (:func:`check_box_shape`): each pair of parameters cut into g x g cells of equal
#: rank (25 and 6 cases a cell for 400 cases).
BOX_GRIDS = (4, 8)


def _cells(first: np.ndarray, second: np.ndarray, grid: int) -> np.ndarray:
    """Cell index of each case in a ``grid`` x ``grid`` cut of two parameters by rank."""
    rank = [np.argsort(np.argsort(values, kind="stable"), kind="stable") * grid // len(values) for values in
            (first, second)]
    return rank[0] * grid + rank[1]


def check_box_shape(z, keys: dict, where: str, grids=BOX_GRIDS, alpha: float = SHAPE_ALPHA) -> None:
    """Test the shape of the noise in every cell of a grid over each pair of parameters (referee s39rA D5).

    The windows of :func:`check_band_shape` follow one parameter at a time, so another family confined to a joint
    box (epsilon and sensitivity both below 1e-3, say) is scattered in every ordering. Here every pair of
    parameters is cut into ``g x g`` cells of equal rank and each cell's counts (:data:`SHAPE_COUNTS`) are tested
    against their binomial law, Bonferroni over every cell, pair, grid and count (``alpha`` in all).

    Parameters
    ----------
    z : sequence of array_like
        Standardised Laplace noise of each case.
    keys : dict
        ``parameter name -> its value per case``.
    where : str
        Start of the hint.
    grids : tuple of int, default BOX_GRIDS
        Cells per side.
    alpha : float, default SHAPE_ALPHA
        The scan's false-rejection probability.

    Raises
    ------
    CheckFailed
        If a cell's count is beyond its binomial tail (the least likely cell is named).
    """
    arrays = [np.abs(_asarray(case, dtype=float)).ravel() for case in z]
    number = np.array([a.size for a in arrays])
    counts = [np.array([int(((a > low) & (a <= high)).sum()) for a in arrays]) for low, high, _ in SHAPE_COUNTS]
    names = list(keys)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    tests = len(pairs) * sum(g * g for g in grids) * len(SHAPE_COUNTS)
    limit, found = math.log(alpha / max(tests, 1)), None
    for first, second in pairs:
        for grid in grids:
            cells = _cells(_asarray(keys[first], dtype=float), _asarray(keys[second], dtype=float), grid)
            draws = np.bincount(cells, weights=number, minlength=grid * grid).astype(int)
            for key, (low, high, side) in enumerate(SHAPE_COUNTS):
                hits = np.bincount(cells, weights=counts[key], minlength=grid * grid).astype(int)
                log_p = np.where(draws > 0, _log_p(hits, draws, _share(low, high), side), 0.0)
                cell = int(np.argmin(log_p))
                if log_p[cell] < limit and (found is None or log_p[cell] < found[0]):
                    found = (_float(log_p[cell]), first, second, grid, cell, key, int(hits[cell]), int(draws[cell]))
    if found is None:
        return
    _, first, second, grid, cell, key, hits, draws = found
    members = np.flatnonzero(_cells(_asarray(keys[first], dtype=float), _asarray(keys[second], dtype=float), grid)
                             == cell)
    span = " and ".join(f"{name} from {_float(np.min(_asarray(keys[name])[members])):.3g} to "
                        f"{_float(np.max(_asarray(keys[name])[members])):.3g}" for name in (first, second))
    raise CheckFailed(_hint(where, f"for {span}", (found[0], 0, members.size, key, hits, draws)))
