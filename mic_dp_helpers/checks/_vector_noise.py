"""Tests that the vector outputs of a student's Gaussian release (lesson 08) have the right noise.

``noise`` is an array (calls, p): the outputs of repeated calls minus their true centre. A correct
release adds independent ``N(0, scale^2)`` noise to every coordinate of every call (plus, for a
Poisson-sampled step, the spread of the sampling, given as ``extra_covariance``). The tests, each
set so that a correct answer fails it with probability at most about 1e-6 (the tail test 1e-5):

- **noise at all**: not every output is the same;
- **amount** (chi-square, two-sided) over all coordinates, then per coordinate (Bonferroni);
- **shape**: Kolmogorov-Smirnov against the normal, and **tails**: the largest ``|z|`` must reach
  what that many normal draws reach with probability ``1 - 1e-5``
  (:func:`mic_dp_helpers.checks._stats.gaussian_tail_threshold`); with 2,000,000 draws (lesson 08's
  20,000-coordinate cases) that is 4.535, so noise truncated at 4.5 scales always fails; truncation at 5
  scales passes (1.1 draws beyond 5 expected), a limit stated in the checks' docstrings;
- **independence between coordinates**: every pair's correlation (p <= 16), or for many
  coordinates the neighbouring pairs, the pairs ``(j, j + p // 2)`` and the sum of all coordinates;
- **independence between calls**: the autocorrelations at lags 1 to 16;
- **centre**: the mean of every coordinate within 5.4 standard errors of 0.

Their power against named alternatives is in :data:`mic_dp_helpers.checks._stats.POWER_LESSON08`.
All NumPy and SciPy functions are bound at import, so patching them later changes nothing.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._stats import gaussian_tail_threshold

_np_abs = np.abs
_np_all = np.all
_np_eye = np.eye
_np_corrcoef = np.corrcoef
_np_triu_indices = np.triu_indices
_np_max = np.max
_cholesky = np.linalg.cholesky
_solve = np.linalg.solve
_chi2_sf = stats.chi2.sf
_chi2_cdf = stats.chi2.cdf
_norm_isf = stats.norm.isf
_kstest = stats.kstest
_sqrt = math.sqrt
_abs = abs
_float = float

#: Two-sided tail probability below which a statistical test rejects.
P_REJECT = 1e-6
#: A standard normal beyond this many standard deviations has two-sided probability below P_REJECT.
Z_REJECT = 4.89
#: Largest lag between calls whose correlation is tested.
MAX_LAG = 16
#: Up to this many coordinates, the correlation of every pair is tested.
MAX_PAIRWISE = 16


def _chi2_outside(total: float, dof: int, p_reject: float) -> str | None:
    if _chi2_sf(total, dof) < p_reject:
        return "too much"
    if _chi2_cdf(total, dof) < p_reject:
        return "too little"
    return None


def _independence_between_coordinates(centred, where: str) -> None:
    draws, p = centred.shape
    threshold = Z_REJECT + 1.5
    unit = centred / centred.std(axis=0)
    if p <= MAX_PAIRWISE:
        corr = _np_corrcoef(centred.T)
        worst = _float(_np_abs(corr[_np_triu_indices(p, 1)]).max()) * _sqrt(draws)
    else:
        half = p // 2
        neighbours = _float((unit[:, 1:] * unit[:, :-1]).mean()) * _sqrt(draws * (p - 1))
        halves = _float((unit[:, :half] * unit[:, half:2 * half]).mean()) * _sqrt(draws * half)
        worst = max(abs(neighbours), abs(halves))
    # The sum of all coordinates: its variance is p only if the coordinates are uncorrelated on average.
    if _chi2_outside(_float((unit.sum(axis=1) ** 2).sum() / p), draws - 1, P_REJECT):
        worst = threshold + 1
    if worst > threshold:
        raise CheckFailed(f"{where} the noise on different coordinates is correlated: draw independent noise "
                          "for every coordinate, not one number (or a few) shared between coordinates.")


def _independence_between_calls(unit, where: str) -> None:
    # ``unit``: noise in units of its known spread around the true centre (a sample mean would correlate the calls)
    draws, p = unit.shape
    for lag in range(1, min(MAX_LAG, draws - 2) + 1):
        statistic = _float((unit[lag:] * unit[:-lag]).mean()) * _sqrt((draws - lag) * p)
        if abs(statistic) > Z_REJECT + 1.5:
            raise CheckFailed(_lag_hint(where, lag, p))


def _lag_hint(where: str, lag: int, p: int) -> str:
    """The hint for noise correlated ``lag`` rows apart; with one column (``p == 1``) the rows are draws pooled in
    the order drawn (the coordinates of one call, then the next call's), so the lag may be within a call (referee
    s39rC: noise correlated between neighbouring coordinates was told "one call predicts the noise 1 call later")."""
    if p == 1:
        return (f"{where} noise values {lag} apart in the order drawn (the coordinates of one call, then those of "
                "the next call) are correlated: the noise of neighbouring coordinates, or of successive calls, is "
                "not independent. Draw independent noise for every coordinate, fresh from rng in every call.")
    return (f"{where} the noise of one call predicts the noise {lag} call(s) later: draw fresh noise from rng in "
            "every call (no stored draws, no noise built from the last call's).")


def check_vector_noise(noise, scale: float, where: str, extra_covariance=None) -> None:
    """Test ``noise`` (calls x p, centre removed) for independent ``N(0, scale^2)`` entries.

    With ``extra_covariance`` (the spread that Poisson sampling adds) the covariance is
    ``scale^2 I + extra_covariance``; the outputs are then whitened with it and tested on their
    amount, correlations, independence and centre (they are not normal, so shape and tails are
    not tested).

    Parameters
    ----------
    noise : array_like, shape (calls, p)
        The outputs of repeated calls minus their true centre.
    scale : float
        The Gaussian noise's standard deviation (``noise_multiplier * clip_norm``).
    where : str
        The start of every hint (which input, which call sequence).
    extra_covariance : numpy.ndarray, optional
        Shape ``(p, p)``: the covariance Poisson sampling adds.

    Raises
    ------
    CheckFailed
        With a hint naming the property that fails.
    """
    noise = np.asarray(noise, dtype=float)
    draws, p = noise.shape
    if _np_all(noise == noise[0]):
        raise CheckFailed(f"{where} every call returned the same output: there is no noise (or a generator is "
                          "created afresh inside the function). A DP release must be random.")
    if extra_covariance is None:
        units = noise / scale
    else:
        factor = _cholesky(scale**2 * _np_eye(p) + extra_covariance)
        units = _solve(factor, noise.T).T
    sample_mean = units.mean(axis=0)
    centred = units - sample_mean
    dof = draws - 1
    if extra_covariance is None:
        amount = _chi2_outside(_float((centred**2).sum()), dof * p, P_REJECT)
        if amount:
            raise CheckFailed(f"{where} there is {amount} noise. Its standard deviation on every coordinate must be "
                              "the noise multiplier times the clipping norm, whatever the data, its size and the "
                              "batch.")
        per_coordinate = (centred**2).sum(axis=0)
        if (_chi2_cdf(per_coordinate, dof) < P_REJECT / p).any() or (_chi2_sf(per_coordinate, dof) < P_REJECT / p).any():
            raise CheckFailed(f"{where} some coordinates get a different amount of noise than others: every "
                              "coordinate needs its own noise of the same standard deviation.")
    else:
        ratio = (centred**2).sum(axis=0) / dof
        if (_np_abs(ratio - 1) > max(0.25, 6 * _sqrt(2 / dof))).any():  # a band: the sums are not quite normal
            amount = "too little" if (ratio < 0.75).any() else "too much"
            causes = ("the noise amount first: noise_multiplier * clip_norm on every coordinate, once per step "
                      "(not split over the examples, not sized by a clip norm read from the data), then"
                      if amount == "too little" else
                      "the sampling first: every example joins the batch at most once, independently with "
                      "probability sample_rate (no sampling with replacement), then the noise amount and")
            raise CheckFailed(f"{where} the updates vary {amount} around their centre for Gaussian noise of standard "
                              f"deviation noise_multiplier * clip_norm plus Poisson sampling. Check {causes} that you "
                              "clip each example's gradient (not the batch's) and divide by the expected_batch_size "
                              "you are given (not the batch you drew, nor sample_rate times the number of rows).")
    if p > 1:
        _independence_between_coordinates(centred, where)
    # Bonferroni over the coordinates, as for the amount per coordinate: a flat 5.39 sd let a correct answer fail
    # with probability about 7e-8 per coordinate, 1.4e-3 for 20,000 weights (a graded lesson-08 solution did).
    if (_np_abs(sample_mean * _sqrt(draws)) > max(Z_REJECT + 0.5, _float(_norm_isf(P_REJECT / (2 * p))))).any():
        raise CheckFailed(f"{where} the outputs are not centred where they should be: on average the noisy sum must "
                          "equal the sum of the clipped gradients (of the examples that can be in the batch). Check "
                          "that every example's gradient is clipped, whatever the number of examples, and which way "
                          "the step goes.")
    _independence_between_calls(units, where)
    if extra_covariance is None and p >= 8 and (2 + 12 / p) / draws <= 0.005:
        # The length of the noise vector: for independent N(0, 1) units its square is chi-square(p) in every call,
        # of variance 2p; its sample variance over the calls has a relative standard error sqrt((2 + 12/p) / draws)
        # <= 0.071, so below half of 2p is 7 standard errors out (a correct answer: probability below 1e-9).
        # Noise of a fixed length (a Gaussian vector rescaled to norm scale * sqrt(p): right per coordinate, bounded,
        # not private) has none (referee: 08.5 with 20,000 weights).
        squared = (units * units).sum(axis=1)
        if float(squared.var(ddof=1)) < 0.5 * 2 * p:
            raise CheckFailed(f"{where} the length of the noise vector hardly changes from call to call: noise "
                              "rescaled to a fixed norm is bounded, not the Gaussian mechanism. Add independent "
                              "Gaussian noise to every coordinate, and do not normalise it.")
    if extra_covariance is None:  # shape and tails, in units of the known scale around the true centre
        flat = units.ravel()
        if _float(_np_max(_np_abs(flat))) < gaussian_tail_threshold(flat.size):
            raise CheckFailed(f"{where} the noise never reaches the tails that {flat.size} Gaussian draws reach: "
                              "noise that is truncated, clipped or built from bounded parts is not the Gaussian "
                              "mechanism.")
        if _kstest(flat, "norm", method="asymp").pvalue < P_REJECT:
            raise CheckFailed(f"{where} the amount of noise is right but its distribution is not normal: DP-SGD "
                              "adds Gaussian noise.")
        if flat.size >= 100_000:
            # Excess kurtosis (referee redB: a sum of 12 uniforms, bounded at 6 sd with excess kurtosis -0.1, passed
            # the tail and KS tests): for normal draws the sample's is about N(0, 24 / N), and beyond 6 of those sd
            # fails (a correct answer: about 1e-8; N >= 100,000 keeps the estimator near normal). At 500,000 draws a
            # sum of 12 uniforms is 14 sd out; noise truncated at 5 sd (excess about -0.0004) is not seen.
            second = _float((flat * flat).mean())
            excess = _float((flat**4).mean()) / (second * second) - 3.0
            if _abs(excess) > 6 * _sqrt(24 / flat.size):
                raise CheckFailed(f"{where} the amount of noise is right but its distribution is not normal: its "
                                  f"tails are too {'light' if excess < 0 else 'heavy'} (excess kurtosis {excess:.3f}, "
                                  "0 for Gaussian noise). Noise built from bounded parts (a sum of uniforms) or "
                                  "another family is not the Gaussian mechanism: draw rng.normal.")
