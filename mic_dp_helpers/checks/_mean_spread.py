"""04.1: is the noise of the low-epsilon cells as large as PyDP's own (referee s37rA)?

The low-epsilon exactness cells (epsilon 0.02-0.3, ``_mean_cases.LOW_HIGH_EPSILON``) were tested for the absence
of noise and, from 300 values, a spread floor of 0.12 noise scales: epsilon floored at 0.1 (up to 5 times too
little noise) and bounds narrowed to the data for fewer than 300 values passed. Here each cell's answers are
ranked, by their distance to the clamped mean, among as many again of PyDP's own answers on the same inputs
(``REFERENCE_RUNS``), and the rank sums of the two cells of 300-3,000 values of an epsilon band are pooled (the
cell of 6-300 values is tested alone): a rank sum too low for a random mixture (a one-sided normal test at
``SPREAD_P``, with the variance corrected for ties, which the bounds' atoms make) fails. Nothing is assumed about the shape of PyDP's noise (clamped to a bound or not).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._pydp_reference import pydp_means

_rankdata = scipy.stats.rankdata
_norm_cdf = scipy.stats.norm.cdf
_sqrt = math.sqrt
_abs = np.abs
_asarray = np.asarray
_len = len

#: PyDP's own answers per cell, by kind, and the one-sided p-value below which a group fails (6 groups: 6e-5 in all;
#: the normal approximation of a rank sum, bounded, errs on the safe side in the tails).
REFERENCE_RUNS, SPREAD_P = {"low epsilon": 150, "low epsilon few": 80}, 1e-5
#: The epsilon bands of the low cells (as in ``LOW_HIGH_EPSILON``).
LOW_BANDS = ((0.02, 0.06), (0.06, 0.15), (0.15, 0.3))


def rank_shift(answers, reference, centre: float) -> tuple[float, float]:
    """(rank sum of the answers' |answer - centre| minus its mean, its variance) among the pooled distances.

    Under the same law for both samples the rank sum has mean n1 (n1 + n2 + 1) / 2 and, with ties, variance
    n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))), n = n1 + n2, t the sizes of tied groups.

    Parameters
    ----------
    answers, reference : sequence of float
        The answer's and PyDP's outputs.
    centre : float
        The clamped mean.

    Returns
    -------
    tuple of float
        The centred rank sum and its variance.

    Examples
    --------
    >>> shift, variance = rank_shift([0.0, 0.1], [1.0, 2.0, 3.0], 0.0)
    >>> shift, round(variance, 2)
    (-3.0, 3.0)
    """
    first, second = _abs(_asarray(answers, dtype=float) - centre), _abs(_asarray(reference, dtype=float) - centre)
    n1, n2 = _len(first), _len(second)
    n = n1 + n2
    pooled = np.concatenate([first, second])
    ranks = _rankdata(pooled)
    _, ties = np.unique(pooled, return_counts=True)
    variance = n1 * n2 / 12 * ((n + 1) - float((ties ** 3 - ties).sum()) / (n * (n - 1)))
    return float(ranks[:n1].sum() - n1 * (n + 1) / 2), float(variance)


def band_of(epsilon: float) -> int:
    """The index of the band of ``LOW_BANDS`` holding ``epsilon``.

    Parameters
    ----------
    epsilon : float
        A low cell's epsilon.

    Returns
    -------
    int
        0, 1 or 2.

    Examples
    --------
    >>> band_of(0.03), band_of(0.2)
    (0, 2)
    """
    return next(i for i, (low, high) in enumerate(LOW_BANDS) if epsilon < high or i == _len(LOW_BANDS) - 1)


def add_cell(pooled: dict, kind: str, answers, values, lower: float, upper: float, epsilon: float,
             centre: float) -> None:
    """Rank one cell's answers among ``REFERENCE_RUNS`` of PyDP's and add the result to its group (its band and
    kind) in ``pooled``.

    Parameters
    ----------
    pooled : dict
        {(band, kind): [rank-sum shift, variance, cells]}, updated.
    kind : str
        "low epsilon" or "low epsilon few".
    answers : numpy.ndarray
        The answer's outputs.
    values : list of float
        The cell's values.
    lower, upper, epsilon : float
        The cell's bounds and epsilon.
    centre : float
        The clamped mean.
    """
    reference = pydp_means(values, lower, upper, epsilon, REFERENCE_RUNS[kind])
    shift, variance = rank_shift(answers, reference, centre)
    band = pooled.setdefault((band_of(epsilon), kind), [0.0, 0.0, 0])
    band[0] += shift
    band[1] += variance
    band[2] += 1


def check_bands(pooled: dict) -> None:
    """Fail a band whose pooled rank sum is too low (answers closer to the clamped mean than PyDP's).

    Parameters
    ----------
    pooled : dict
        As filled by :func:`add_cell`.

    Raises
    ------
    CheckFailed
        With the band and the z-score.
    """
    for (index, kind), (shift, variance, cells) in sorted(pooled.items()):
        z = shift / _sqrt(variance) if variance > 0 else 0.0
        if float(_norm_cdf(z)) < SPREAD_P:
            low, high = LOW_BANDS[index]
            sizes = "6-300 values" if kind == "low epsilon few" else "300-3,000 values"
            raise CheckFailed(f"With epsilon {low:g} to {high:g} ({cells} case(s) of {sizes}, in the middle twentieth "
                              "of the bounds), your answers lie closer to the clamped mean than PyDP's BoundedMean's own "
                              f"answers on the same inputs (rank test, z = {z:.1f}; property: noise of the right "
                              "size at small epsilon): too little noise here. Is epsilon changed (raised or "
                              "floored at some value), or are the bounds narrowed to the data? Pass epsilon and "
                              "the declared bounds to BoundedMean unchanged.")
