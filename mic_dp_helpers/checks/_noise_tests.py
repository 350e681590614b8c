"""Statistical tests the checks apply to the outputs of a student's DP release.

A release is tested on its distribution, not only on its moments. For noise ``z`` in units of
the mechanism's scale (Laplace scale ``b``, or Gaussian ``sigma``) the tests are:

- **noise at all**: the outputs are not all equal;
- **centre**: the median (Laplace) or mean (Gaussian) of ``z`` is within 6 standard errors of 0;
- **amount**: the variance of ``z`` (Laplace: 2, Gaussian: 1) within 6.5 standard errors;
- **tails**: the largest ``|z|`` reaches a value a sample of this size reaches with probability
  at least ``1 - 1e-5`` (noise clamped to a few scales fails);
- **independence between calls**: the lag-1 correlation of ``z`` within 7 standard errors of 0
  (reused or antithetic draws fail);
- **shape**: a Kolmogorov-Smirnov test against the exact distribution at ``p >= 1e-6`` (uniform
  or Gaussian noise with the right spread fails);
- **no noiseless output, no repeated draw, no grid anchored at the answer**
  (:func:`check_fresh_noise`): continuous noise is never exactly 0 and never repeats, so the true
  answer returned in a few calls, noise drawn once and reused, or drawn from a small set of seeds
  all show as releases that coincide. Releases rounded to a grid (post-processing, which is
  allowed) coincide too, as often as the grid predicts: the test compares the coincidences with
  what the grid explains. Noise rounded *before* it is added puts every release on a grid anchored
  at the true answer, which leaks its last digits (:mod:`mic_dp_helpers.checks._grid_anchor`: a robust
  step estimate, and residues that must cluster at the answer within float error, not at 0).

A correct release fails each test with probability at most about 1e-5, so a check running them
on up to 5 cases fails a correct answer in well under 1 of 1,000 seeds (measured by
``tests/test_check_false_rejection.py`` and ``benchmarks/check_false_rejection.py``).
All NumPy and SciPy functions are bound here at import, so patching them later does nothing.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._grid_anchor import check_not_anchored

_asarray = np.asarray
_abs = np.abs
_median = np.median
_mean = np.mean
_std = np.std
_max = np.max
_ptp = np.ptp
_corrcoef = np.corrcoef
_isfinite = np.isfinite
_kstest = scipy.stats.kstest
_binom_sf = scipy.stats.binom.sf
_diff = np.diff
_unique_counts = np.unique
_spacing = np.spacing
_float32 = np.float32
_array_equal = np.array_equal
_broadcast_to = np.broadcast_to
_erf = math.erf
_larger = builtins.max
_smaller = builtins.min
_exp = math.exp
_log = math.log
_sqrt = math.sqrt
_float = float

KS_P_VALUE = 1e-6
TAIL_FAILURE = 1e-5


def as_numbers(outputs, what: str):
    """The student's outputs (one per call) as a float array, failing like ``expect_number`` would.

    Parameters
    ----------
    outputs : sequence
        One output of the student's function per call.
    what : str
        What each output should be, for the hint.

    Returns
    -------
    numpy.ndarray
        The outputs as floats.

    Raises
    ------
    CheckFailed
        If an output is not a single finite number.
    """
    from mic_dp_helpers.checks._core import expect_number

    try:
        array = _asarray(outputs)
    except (TypeError, ValueError):
        array = None
    if array is not None and array.ndim == 1 and array.dtype.kind == "f" and _isfinite(array).all():
        return array.astype(float)
    return _asarray([expect_number(o, what) for o in outputs], dtype=float)


def laplace_tail_threshold(n: int) -> float:
    """The largest |z| of n standard Laplace draws is below this with probability TAIL_FAILURE.

    Parameters
    ----------
    n : int
        Number of draws.

    Returns
    -------
    float
        The threshold on ``max |z|``.
    """
    # P(max |z| < t) = (1 - e^-t)^n ~ exp(-n e^-t) = TAIL_FAILURE
    return _log(n / -_log(TAIL_FAILURE))


def gaussian_tail_threshold(n: int) -> float:
    """The largest |z| of n standard normal draws is below this with probability TAIL_FAILURE.

    Parameters
    ----------
    n : int
        Number of draws.

    Returns
    -------
    float
        The threshold on ``max |z|``.
    """
    # P(max |z| < t) = (1 - 2 Phi(-t))^n ~ exp(-2 n Phi(-t)) = TAIL_FAILURE
    return _float(-scipy.stats.norm.ppf(-_log(TAIL_FAILURE) / (2 * n)))


def _lag_correlation(z) -> float:
    if len(z) < 3 or _std(z[:-1]) == 0 or _std(z[1:]) == 0:
        return 0.0
    return _float(_corrcoef(z[:-1], z[1:])[0, 1])


def check_laplace_noise(z, where: str, *, inverted: float | None = None, centre_hint: str = "") -> None:
    """Test that ``z`` (noise divided by the Laplace scale, one value per call) is standard Laplace.

    ``inverted``: the scale ratio an answer with sensitivity and epsilon swapped would show.

    Parameters
    ----------
    z : array_like
        Noise divided by the Laplace scale, one value per call.
    where : str
        Start of every hint.
    inverted : float, optional
        Scale ratio of an answer with sensitivity and epsilon swapped.
    centre_hint : str, optional
        Added to the hint when the releases are off-centre.

    Raises
    ------
    CheckFailed
        If the noise is missing, off-centre, of the wrong scale or not Laplace.
    """
    z = _asarray(z, dtype=float)
    n = len(z)
    if _ptp(z) == 0:
        raise CheckFailed(f"{where} every release is the same number: no noise is added, so nothing is private.")
    se = 1.0 / _sqrt(n)  # SE of the median and of mean |z| of standard Laplace noise
    if _abs(_median(z)) > 6 * se * max(1.0, _float(_mean(_abs(z)))):
        raise CheckFailed(f"{where} the releases are not centred on the true answer (property: centre). The noise "
                          "must be symmetric around 0." + (f" {centre_hint}" if centre_hint else ""))
    # The variance of standard Laplace noise is 2; its sample variance has relative SE sqrt(5 / n).
    amount = _float(_mean(z * z)) / 2
    tolerance = 6.5 * _sqrt(5.0 / n)
    if _abs(amount - 1) > tolerance:
        if inverted is not None and _abs(amount / inverted**2 - 1) <= tolerance:
            raise CheckFailed(f"{where} the amount of noise is wrong (property: scale): it looks as if sensitivity "
                              "and epsilon are the wrong way round. More sensitivity, or a smaller epsilon, must mean "
                              "more noise.")
        spread = _float(_mean(_abs(z)))  # mean |z| is 1 for Laplace, SE 1 / sqrt(n)
        if amount > 1 and _abs(spread - 1) <= 6 * se:
            raise CheckFailed(f"{where} the releases lie {spread:.3f} noise scales from the true answer on average, "
                              f"as Laplace noise does, but their variance is {amount:.3f} times Laplace's (property: "
                              "scale): the noise scale varies from call to call (a mixture of scales), so some calls "
                              "get less noise than sensitivity / epsilon and are not epsilon-DP. Use the one scale "
                              "b = sensitivity / epsilon in every call.")
        what = "too little noise: the release is not epsilon-DP" if amount < 1 else "more noise than needed"
        raise CheckFailed(f"{where} the releases vary the wrong amount (property: scale; {what}). Check how the "
                          "noise scale is computed from the sensitivity and epsilon.")
    if _float(_max(_abs(z))) < laplace_tail_threshold(n):
        raise CheckFailed(f"{where} the noise never reaches the far tails that {n} Laplace draws reach (property: "
                          "tails). Noise that is clipped, bounded or light-tailed is not the Laplace mechanism.")
    if _abs(_lag_correlation(z)) > 7 * se:
        raise CheckFailed(f"{where} the noise of one release predicts the next one (property: independence). "
                          "Draw fresh noise for every release.")
    if _float(_kstest(z, "laplace").pvalue) < KS_P_VALUE:
        raise CheckFailed(f"{where} the noise does not follow Laplace noise of the expected scale (property: "
                          "shape, a goodness-of-fit test; the amount test above lets the variance be off by up to "
                          f"{tolerance:.0%} at {n:,} releases, so the amount may be wrong too): check the noise's "
                          "scale (sensitivity / epsilon, with the epsilon this release may spend) and that it is "
                          "Laplace noise, sharply peaked at 0 with exponential tails.")


def check_gaussian_noise(z, where: str) -> None:
    """Test that the array ``z`` (calls x groups x coordinates, noise / sigma) is i.i.d. standard normal.

    Parameters
    ----------
    z : array_like
        Noise divided by sigma, shape ``(calls, groups, coordinates)``.
    where : str
        Start of every hint.

    Raises
    ------
    CheckFailed
        If the noise is missing, shared, or not standard normal.
    """
    z = _asarray(z, dtype=float)
    flat = z.ravel()
    n = flat.size
    if _ptp(flat) == 0 or _float(_std(flat)) < 1e-6:
        raise CheckFailed(f"{where} the outputs come out without noise: add Gaussian noise to every coordinate.")
    calls, groups, dims = z.shape
    checks = []  # (within variance, pairs): the ratio's standard error is about 1 / sqrt(pairs)
    if dims > 1:  # spread across the coordinates of one group (0 if one draw is shared by the coordinates)
        checks.append((_float(_mean(z.var(axis=2, ddof=1))), calls * groups * dims * (dims - 1) / 2))
    if groups > 1:  # spread across the groups of one coordinate
        checks.append((_float(_mean(z.var(axis=1, ddof=1))), calls * dims * groups * (groups - 1) / 2))
    total = _float(flat.var(ddof=1))
    for within, pairs in checks:  # as a share of the total variance: 1 for independent draws
        if _abs(within / total - 1) > max(0.15, 5.5 / _sqrt(pairs)):
            raise CheckFailed(f"{where} the noise on different coordinates of one release is not independent "
                              "(property: independence): draw a separate Gaussian value for every coordinate of "
                              "every group mean.")
    se_sd = 1.0 / _sqrt(2 * n)
    sd = _float(_std(flat))
    if _abs(_float(_mean(flat))) > 6 / _sqrt(n) * max(sd, 1.0):
        raise CheckFailed(f"{where} the noise is not centred on 0 (property: centre).")
    if _abs(sd - 1) > 6.5 * se_sd:
        raise CheckFailed(f"{where} the noise has standard deviation {sd:.3f} sigma, not sigma (property: scale): "
                          "add noise with standard deviation sigma to each coordinate (sigma is already on the "
                          "scale of a mean).")
    if _float(_max(_abs(flat))) < gaussian_tail_threshold(n):
        raise CheckFailed(f"{where} the noise never reaches the tails that {n} Gaussian draws reach (property: "
                          "tails). Clipped or bounded noise is not the Gaussian mechanism.")
    if _abs(_lag_correlation(flat)) > 7 / _sqrt(n):
        raise CheckFailed(f"{where} the noise on one coordinate predicts the next (property: independence): draw "
                          "a separate Gaussian value for every coordinate.")
    if _float(_kstest(flat, "norm").pvalue) < KS_P_VALUE:
        raise CheckFailed(f"{where} the amount of noise is right but its distribution is not Gaussian (property: "
                          "shape, a goodness-of-fit test).")


def check_fresh_noise(releases, centre, scale: float, law: str, where: str) -> None:
    """Test that no release is the true answer itself and that no noise draw is used twice.

    ``releases``: one value per call (or calls x coordinates); ``centre``: the true answer
    (broadcast against ``releases``); ``scale``: the Laplace scale or Gaussian sigma; ``law``:
    ``"laplace"`` or ``"gaussian"``. A scale per release (an array) is allowed: the tests then use
    the smallest, which makes them more lenient, never stricter.

    - **No noiseless output.** A release within ``h`` of the true answer, where ``h`` is the
      release's grid step (0 for unrounded output) or a rounding tolerance, happens to a correct
      release with probability ``p = P(|noise| <= h + step/2)``. More such releases than a
      Binomial(n, p) gives with probability 1e-7 fail: over 20,000 calls, the true answer
      returned in 1 call of 1,000 does.
    - **No repeated draw.** Pairs of equal releases: a continuous release on a grid of step ``g``
      has about ``n^2/2 * g * integral(f^2)`` of them (``f`` the noise density), about 0 without
      rounding. More than ``3 x`` that plus 10 fail: a buffer of draws cycled through, or a
      generator seeded from a small set of seeds, does. Releases that are all float32 values
      (a correct release cast to float32 is post-processing) get float32's resolution in ``g``:
      their equal pairs from rounding are expected, not reuse (a reused buffer in float32 is then
      seen only if it repeats more than about n^2 * 1e-7 pairs' worth).
    - **No grid anchored at the answer** (:func:`_grid_anchor.check_not_anchored`, 100 releases or more):
      noise rounded to a step ``g`` before it is added fails for ``g`` down to about 1e-7 scales when the
      answer is within 1e3 scales of 0 (1e-6 at 1e4, 1e-5 at 1e6, 1e-4 at 1e8 scales); finer grids are not
      told apart from float rounding. A correct release fails it with probability below 1e-80.

    Parameters
    ----------
    releases : array_like
        One value per call (or calls x coordinates).
    centre : float or array_like
        The true answer, broadcast against ``releases``.
    scale : float or array_like
        Laplace scale or Gaussian sigma (per release allowed).
    law : {"laplace", "gaussian"}
        The noise distribution.
    where : str
        Start of every hint ("For value=3:").

    Raises
    ------
    CheckFailed
        If a test fails.
    """
    releases = _asarray(releases, dtype=float)
    values = releases.ravel()
    centres = _broadcast_to(_asarray(centre, dtype=float), releases.shape).ravel()
    n = values.size
    if n < 2:
        return
    scale = _float(_asarray(scale, dtype=float).min())
    if not scale > 0:
        return
    distinct, counts = _unique_counts(values, return_counts=True)  # sorted
    gaps = _diff(distinct)
    step = _float(gaps.min()) if gaps.size else 0.0  # the release's grid if it is rounded, else tiny
    resolution = _float(_max(_spacing(_abs(values))))  # of the floats themselves
    with np.errstate(over="ignore"):
        as_float32 = values.astype(_float32)
    if _array_equal(as_float32.astype(float), values):  # float32 releases (post-processing): their resolution,
        resolution_32 = _float(_max(_spacing(_abs(as_float32))))  # unless they sit on a coarser grid anyway
        if step < resolution_32:
            resolution = _larger(resolution, resolution_32)
    tolerance = 1e-12 * _float(_max(_abs(centres))) + 4 * resolution
    window = _larger(step, tolerance)
    reach = window + step / 2  # how far a noise draw may be from 0 and still land in the window
    if law == "laplace":
        p_hit = 1.0 - _exp(-reach / scale)
        overlap = 1.0 / (4.0 * scale)            # integral of the squared Laplace density
    else:
        p_hit = _erf(reach / (scale * _sqrt(2.0)))
        overlap = 1.0 / (2.0 * scale * _sqrt(math.pi))
    check_not_anchored(values, centres, where, scale)
    hits = int((_abs(values - centres) <= window).sum())
    if hits and _float(_binom_sf(hits - 1, n, _smaller(p_hit, 1.0))) < 1e-7:
        raise CheckFailed(f"{where} {hits} of {n} releases are the true answer itself, with no noise (property: no "
                          "noiseless output). Every call must add fresh noise; a release without noise, even in "
                          "a few calls, is not differentially private.")
    pairs = _float((counts * (counts - 1) / 2).sum())
    expected = n * n / 2 * (step + resolution) * overlap
    if pairs > 3 * expected + 10 and len(counts) > 2 and counts[0] + counts[-1] - 2 > 0.5 * _float((counts - 1).sum()):
        raise CheckFailed(f"{where} many releases sit exactly on the smallest or the largest value the releases take "
                          f"({int(counts[0])} and {int(counts[-1])} times; property: tails): the noise is clipped at "
                          "a bound. Laplace and Gaussian noise are unbounded; clipped noise is not the mechanism "
                          "and not private.")
    if pairs > 3 * expected + 10:
        raise CheckFailed(f"{where} the same release comes out again and again ({int(pairs)} pairs of equal "
                          f"releases, where fresh noise gives about {expected:.2g}; property: independence). Draw "
                          "new noise from `rng` in every call: do not reuse a stored batch of draws or start a "
                          "new generator from a few seeds.")


#: Windows (in noise scales) of :func:`check_near_answer`: a correct release lands within ``h`` of the true
#: answer with probability ``1 - exp(-h)`` (Laplace) or ``erf(h / sqrt(2))`` (Gaussian).
NEAR_WINDOWS = (1e-3, 1e-2)


def check_near_answer(releases, centre, scale: float, law: str, where: str) -> None:
    """Test that no more releases land within a hair of the true answer than the noise puts there.

    For each window ``h`` of :data:`NEAR_WINDOWS` (in scales), the releases within ``h * scale`` of the
    answer are compared with a Binomial(n, P(|noise| <= h * scale + r)), ``r`` twice the float spacing of the
    releases (rounding moves a release by at most half of it): more than it gives with probability
    1e-7 fail. An answer that returns the true answer plus a tiny jitter in 1% of its calls (a point mass
    smeared over 1e-3 scales, which check_fresh_noise's exact test does not see) puts about 10 times the
    expected count there. Power: see ``LESSON02_06_POWER``.

    Parameters
    ----------
    releases : array_like
        One value per call.
    centre : float
        The true answer.
    scale : float
        Laplace scale or Gaussian sigma.
    law : {"laplace", "gaussian"}
        The noise distribution.
    where : str
        Start of the hint.

    Raises
    ------
    CheckFailed
        If a window holds too many releases.
    """
    values = _asarray(releases, dtype=float).ravel()
    z = _abs((values - _float(centre)) / _float(scale))
    n = z.size
    if n == 0:
        return
    slack = 2 * _float(_max(_spacing(_abs(values)))) / _float(scale)  # float rounding of a large answer, in scales
    for h in NEAR_WINDOWS:
        p = 1.0 - _exp(-(h + slack)) if law == "laplace" else _erf((h + slack) / _sqrt(2.0))
        hits = int((z <= h).sum())
        if hits and _float(_binom_sf(hits - 1, n, p)) < 1e-7:
            raise CheckFailed(f"{where} {hits} of {n} releases lie within {h:g} noise scales of the true answer, where "
                              f"the noise puts about {n * p:.0f} (property: no near-noiseless output). Some calls "
                              "return the true answer, or it plus a tiny jitter: every call must add the full noise.")


def check_no_mirrors(releases, centre, scale: float, where: str) -> None:
    """Test that no release mirrors another about the true answer (two calls whose noises cancel).

    A pair of releases whose average is the true answer within ``t`` happens by chance with probability
    at most ``2 t * integral(f^2)`` (``f`` the noise density: ``1 / (4 scale)`` for Laplace and
    ``1 / (2 sqrt(pi) sigma)`` for a Gaussian; the test uses the larger of the two), with ``t`` the float
    error of the sum (1e-9 scales, 1e-10 of the answer, and 8 spacings of the releases). Noise drawn on a
    coarse grid (from float32 uniforms, say) makes mirrored pairs as common as *equal* pairs, which fresh
    draws on that grid also give, so the expectation is raised to the number of bit-equal pairs when that is
    larger: noise reused negated gives mirrors but no extra equal pairs. Only bit-equal pairs count (pairs
    within the tolerance would let draws reused with a tiny jitter, which no other test sees, excuse as many
    mirrors); as :func:`check_fresh_noise` (run first) fails more than 10 equal pairs of unrounded releases,
    an answer adding equal pairs on purpose can excuse at most about 40 mirrored pairs. More pairs than 3 times that
    expectation plus 10 fail: an answer that negates the noise of the call ``d`` before,
    at any lag ``d`` (not only the lags ``check_independent_calls`` tests), or that keeps a buffer of draws
    and reuses them negated, does, so the average of the two releases is the true answer.

    Parameters
    ----------
    releases : array_like
        One value per call (a constant true answer).
    centre : float
        The true answer.
    scale : float
        Laplace scale or Gaussian sigma.
    where : str
        Start of the hint.

    Raises
    ------
    CheckFailed
        If too many pairs mirror each other.
    """
    values = np.sort(_asarray(releases, dtype=float).ravel())
    n, centre, scale = values.size, _float(centre), _float(scale)
    if n < 2 or not scale > 0:
        return
    tolerance = 1e-9 * scale + 1e-10 * _abs(centre) + 8 * _float(_max(_spacing(_abs(values))))
    targets = 2.0 * centre - values
    matches = np.searchsorted(values, targets + tolerance, side="right") - np.searchsorted(
        values, targets - tolerance, side="left")
    selves = int((_abs(values - centre) <= tolerance / 2).sum())
    pairs = (_float(matches.sum()) - selves) / 2
    expected = n * n / 2 * 2 * tolerance * 1.0 / (2.0 * scale * _sqrt(math.pi))
    expected = _larger(expected, n * n / 2 * 2 * tolerance / (4.0 * scale))
    counts = _unique_counts(values, return_counts=True)[1]  # bit-equal releases only: near-equal ones (a draw
    equal_pairs = _float((counts * (counts - 1) / 2).sum())  # reused with a 1e-12 jitter) must not raise it
    expected = _larger(expected, equal_pairs)
    if pairs > 3 * expected + 10:
        raise CheckFailed(f"{where} {int(pairs)} pairs of releases average to the true answer (their noises cancel "
                          f"exactly, where fresh noise gives about {expected:.2g} such pairs; property: "
                          "independence). Draw fresh noise from `rng` in every call; never reuse an earlier draw "
                          "negated.")
