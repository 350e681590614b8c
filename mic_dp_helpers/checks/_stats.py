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
  at the true answer, which leaks its last digits.

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
_round = np.round
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
        raise CheckFailed(f"{where} the amount of noise is right but its distribution is not (property: shape, a "
                          "goodness-of-fit test): the Laplace mechanism needs Laplace noise, sharply peaked at 0 "
                          "with exponential tails, not another distribution with the same spread.")


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
    if step > 4 * tolerance:  # releases on a grid: it must not be anchored at the true answer
        offsets = (values - centres) / step
        on_answer_grid = bool((_abs(offsets - _round(offsets)) <= 1e-6).all())
        answer_on_zero_grid = bool((_abs(centres / step - _round(centres / step)) <= 1e-6).all())
        if on_answer_grid and not answer_on_zero_grid:
            raise CheckFailed(f"{where} every release is the true answer plus a multiple of {step:.3g}: the noise "
                              "is rounded before it is added, so the release's last digits are the true answer's "
                              "(property: no leak through rounding). Add the noise first; rounding the noisy "
                              "release afterwards is fine.")
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


# ===================================================================== lesson 07 (07.1, 07.3, 07.4, 07.5)
#: Power of lesson 07's tests against the failures they are there to catch, at the check's own sizes
#: (``mic_dp_helpers/checks/lesson07.py`` and ``lesson07_selection.py``). Each row: (exercise, failure, detection, and its limit).
#: A correct answer fails each test with probability below about 1e-6 (thresholds stated in the code).
LESSON07_POWER = (
    ("07.1", "coins shared by person i and person i + d (any d), the same uniform",
     "lag correlation z = sqrt(calls (n - d)), 548 at n = 1,500, d = 750, 400 calls; limit |z| 6.5",
     "antithetic coins (1 - u) give correlation -q / (1 - q): seen while that times sqrt(calls (n - d)) > 6.5"),
    ("07.1", "a call's coins reused in another call, or two people with one coin",
     "identical flip rows / columns found exactly; independent ones coincide with probability < e^-40",
     "only where n * 2f(1 - f) >= 40 (rows) or calls * 2f(1 - f) >= 40 (columns)"),
    ("07.1", "exact (no flips) above a size or an epsilon",
     "100,000 and 150,000 people x 20 calls at epsilon 10 expect 91 and 136 flips, 100,000 x 30 at epsilon 11.5 "
     "expect 30 (an exact answer: 0); 2 people x 4,000 calls at 0.01; 12,000 people x 200 calls at epsilon 1 for "
     "the per-person test (a person never randomised: z about 8.6)",
     "above epsilon about 12 the flip rate (< 6e-6) is too small for any feasible number of calls"),
    ("07.1", "exact (no flips) above a size beyond the distribution cases (referee: above 160,000 people)",
     "one call on 1,000,001 to 1,200,000 people at epsilon 1 (about 269,000 expected flips): the kept shares of "
     "true yes, true no and each tenth of the positions, z-tests at 5 (an exact answer: z above 500; 1 by "
     "construction, for any threshold below the case's size)",
     "an answer exact only above 1,200,000 people, or randomising with a slightly wrong rate only there "
     "(the z-test sees a keep rate off by about 0.0005), passes"),
    ("07.1", "coins shared between person i and person i + d only above a size (referee: i and i + n/2 above "
             "20,000 people)",
     "lag correlation over every d up to n - 14,000 in the one call on 1,000,001 to 1,200,000 people (centred on "
     "the call's flip rate): shared coins give z about sqrt(n - d), over 700 for d = n/2; limit |z| 6.5 "
     "(a correct answer: about 10^6 lags x 8e-11, below 1e-4)",
     "correlation rho between coins at one distance is seen while rho sqrt(n - d) > 6.5 (rho >= 0.01 at d = n/2)"),
    ("07.1", "exact (no flips) in a band of epsilons (referee: 2 < epsilon < 3)",
     "one call at each of 24 epsilons, log-uniform and jittered over 0.01 to 12, on max(2,000, 30 / (1 - p)) "
     "people (at most 1,000,000): an exact answer keeps all where a correct one expects 30 flips (none: "
     "e^-30; the test needs 25 expected); keep shares of true yes and true no z-tested at 5",
     "a band narrower than a grid step (a factor 1.35) can fall between the points; above epsilon about 10.4 "
     "the 1,000,000 people expect fewer than 25 flips and the all-kept test is off"),
    ("07.3", "candidates far behind dropped, Gumbel noise clipped, or the exact argmax when the gap is large",
     "one best and M candidates g Gumbel scales behind, M set for 150 (40 at g 12.6-13.2) expected picks in "
     "10,000 calls (200 at g 12.6-13.2, referee: noise clipped above at 12 scales picks about 40% of them, "
     "chi-square p below 1e-12); such answers pick none: chi-square p ~ 1e-10 (a correct answer picks none w.p. e^-40)",
     "thresholds beyond about 13 Gumbel scales (a candidate's chance e^-13) cannot be seen; noise clipped at 12.5 "
     "scales or more keeps about 2/3 of the far picks and passes; a floor on the Gumbel noise (at -1.5 scales, "
     "moving about 1% of the choices) passes"),
    ("07.3", "exact in a band of epsilons (referee: 5 < epsilon < 15)",
     "16 epsilons, log-uniform and jittered over 0.01 to 30, 8 candidates within 2 Gumbel scales, 600 calls each: "
     "an exact argmax picks one candidate every time, where the best expects at most 600 x 0.6",
     "a band narrower than a grid step (a factor 1.6) can fall between the points"),
    ("07.3", "exact above an epsilon or a number of candidates",
     "cases at epsilon 0.01 and 20 (scores on the noise's scale) and 100,000 close candidates x 400 calls",
     "an answer exact only where the exponential mechanism is itself near-certain is indistinguishable; an "
     "answer exact only above epsilon 20 passes"),
    ("07.3", "sampling among part of many candidates: the best k (top-k pruning), those within a gap of the best, "
             "or a prefix of the list (referee: the best 1,000 of 100,000)",
     "100,000 candidates x 400 calls, the candidates with expected count below 5 pooled into 10 groups of equal "
     "expected count (about 40 each) by rank and by position, chi-square on 9 df at p 1e-6 (limit about 46) "
     "each. Candidates left out holding a share m of the chance give about 400 m / (1 - m): power near 1 for "
     "m >= 0.2 (the best 59,000 of 100,000 or fewer, e.g. the best 1,000: 400 of 400 in the first group; the first "
     "80% of positions or fewer; candidates more than 1 Gumbel scale behind), about 0.5 at m = 0.11",
     "left-out candidates holding less than about 10% of the chance (the best 80,000 of 100,000, the first 90% "
     "of positions) are not seen; a wrong noise scale there is seen only as far as it moves 10% of the choices"),
    ("07.4", "a quantile range taken from the data (v.min() as its lower end)",
     "30 values in [50, 95], level 0.1: the DP quantile lands below the minimum about half the time; "
     "such an answer never does (KS and a share test)", "none at these sizes"),
    ("07.4", "exact mean below a size (referee: fewer than 5 values)",
     "cases with 1, 2, 3 and 4 values (n is public; 300 calls each): a noise-free mean is caught at once",
     "none at these sizes"),
    ("07.4", "exact bound or mean above a size or epsilon",
     "cases with 20,000 values (100 calls), 20,001-24,000 values (2,000 calls: KS sees a noise scale off by 0.7x "
     "or 1.43x), 3,000 values at epsilon 0.02 (the top interval is drawn often: a bound capped at the data's maximum "
     "fails the KS test of the bounds), epsilons 0.02, 20 and 30; noise-free releases are caught at once",
     "an answer wrong only above 24,000 values or epsilon 30, or by a scale factor within about 10% on the large "
     "case, passes, except that a release without noise (bound or mean) is caught up to 1,000,000 values (next row)"),
    ("07.4", "exact mean or bound far above the other sizes (referee: from 200,000 values)",
     "one case of 1,000,001 to 1,100,000 values, 12 calls: a noise-free mean or a bound that never varies is "
     "caught at once (1 by construction, for any threshold below the case's size)",
     "12 calls do not test the noise's scale there: half the noise only above 24,000 values passes"),
    ("07.4", "exact mean or bound in a band of epsilons (referee: 3 < epsilon < 15, 0.03 < epsilon < 0.09)",
     "12 epsilons, log-uniform and jittered over 0.02 to 30, 50 to 500 values, 100 calls each: a noise-free mean "
     "or a bound that never varies is caught at once", "a band narrower than a grid step (a factor 1.8) can fall "
     "between the points; a wrong noise scale in a band is seen only by the 100 calls' KS test (about 0.6x or 1.6x)"),
    ("07.4", "Laplace noise clipped or truncated at c scales",
     "pooled tails over all ~10,800 releases: the largest |z| must reach about 6.8 scales (check_pooled_tails)",
     "clipping beyond about 7 scales is not seen"),
    ("07.5", "a point estimate (frequency ratio, a bound at 50-60% confidence) instead of a confidence bound",
     "every round holds randomized response (true epsilon 1) claiming 0.985: point estimate about 1.00, the "
     "audit's 95% bound about 0.97; the expected answer is the course audit's verdict on the same outputs",
     "an answer using another valid 95% bound may disagree near the claim; the exercise names the course audit"),
    ("07.5", "the audit at a lower confidence (0.8, 0.9), on part of the samples (the first half or fifth), or "
             "with a margin added to the claim (referee: +0.05)",
     "every round adds two randomized-response entries whose claims are set from the course audit's own bounds on "
     "their outputs: one 0.002 (or less) below the 95% bound on all the samples and above the bounds on the first "
     "half and fifth, one halfway between the 95% and 90% bounds. Deterministic: the expected answer is the "
     "audit's verdict on the same outputs (a correct answer is never rejected); such answers miss the first or "
     "flag the second in every round where the bounds differ",
     "a margin below 0.002, or a confidence between 0.9 and 0.95, can pass; an audit on part of the samples "
     "passes a round where that part's bound happens to exceed the full one (it fails the others)"),
)


# ===========================================================================================


# Lesson 08 (08.2, 08.5): power of the vector-noise tests (mic_dp_helpers.checks._vector_noise) against
# named alternatives, per check case. Output of ``benchmarks/lesson08_power.py --reps 200`` (fewer
# replicates, 20, for the 500,000-draw cases); a correct release was rejected in 0 of 200 replicates.
# A check rejects an answer if any case does, so the power of the check is at least the largest entry
# of an alternative. Kept apart from the other lessons' rows to ease merging.
# Not detectable at these sizes (stated limits, not measured power): noise truncated at 5 scales, since
# P(|Z| > 5) = 5.7e-7 and the largest case (25 calls x 20,000 coordinates) expects 0.29 exceedances of a
# correct release, so a truncated one differs in fewer than one draw; and in 08.5 a batch capped at
# 3 x expected_batch_size, which no case's Poisson batch reaches with a noticeable probability. Empty and
# all-zero gradient inputs (08.2) and rows at 1e-3 C (08.2, 08.5) are cases, so skipping the noise there or
# a clip norm read from the data fails check_fresh_noise or the amount test. Above 100,000 examples only the
# 1,000,001-1,100,000-example cases (few calls) are tested: no noise, and in 08.5 the batch's sampling and
# normaliser; less noise than needed only above 100,000 examples is not seen. The 100,000-example rows are the
# chi-square amount test's exact power (800 draws, level 1e-6), not simulated; the range-end rows and 08.5's
# rows hold by construction (no noise fails check_fresh_noise; a multiplier capped at 20 or 30 gives at most
# 0.6x the noise at 50; taking every example at q 0.9-0.97 leaves the whitened variance at most 0.08, not 1).
# ==================================================================================================
#: (alternative, check case, power)
POWER_LESSON08 = (
    ("noise truncated at 4 scales", "tails (25 calls, 20,000 coordinates)", 1.0),
    ("noise truncated at 3 scales", "generic (1,500 calls, 2 coordinates)", 0.035),
    ("Student-t (5) noise of the same variance", "tails (25 calls, 20,000 coordinates)", 1.0),
    ("10% too little noise", "generic (1,500 calls, 2 coordinates)", 1.0),
    ("10% too little noise", "100,000 examples (400 calls, 2 coordinates)", 0.23),
    ("20% too little noise", "100,000 examples (400 calls, 2 coordinates)", 1.0),
    ("no noise at C = 1e-4 or 1e4, or at multiplier 0.05 or 50", "the range ends (500 or 1,500 calls)", 1.0),
    ("noise multiplier capped at 30", "multiplier 50, one example (500 calls)", 1.0),
    ("correlation 0.1 between successive calls", "generic (1,500 calls, 2 coordinates)", 0.19),
    ("correlation 0.1 between successive calls", "tails (25 calls, 20,000 coordinates)", 1.0),
    ("correlation 0.1 between two coordinates", "16 coordinates (3,000 calls)", 0.185),
    ("correlation 0.1 between coordinates j and j + p/2", "tails (25 calls, 20,000 coordinates)", 1.0),
    ("correlation 0.1 between all coordinates", "16 coordinates (3,000 calls)", 1.0),
    ("a scale read from the data (rows at 1e-3 C: noise x 1e-3)", "rows far below C (1,500 calls)", 1.0),
    ("no noise in 1% of calls", "generic (1,500 calls, 2 coordinates)", 1.0),
    ("08.5: no noise at C = 1e-4 or 1e4, multiplier 0.05 or 50, q up to 0.999", "range ends (1,500 calls)", 1.0),
    ("08.5: noise multiplier capped at 20", "multiplier 50 (1,500 calls)", 1.0),
    ("08.5: every example, no Poisson sampling, at large q", "1,000 equal examples, q 0.9-0.97 (1,500 calls)", 1.0),
    # Far above 100,000 examples (referee, lesson 08 pass 4): by construction, for any threshold below the size.
    ("08.2: no noise above a size (150,000 to 1,000,000 examples)",
     "1,000,001-1,100,000 examples, 2 coordinates (6 calls): every value on the true sum", 1.0),
    ("08.5: no noise above a size (up to 1,000,000 examples)",
     "1,000,001-1,100,000 equal examples, 20-40 expected in a batch (40 calls)", 1.0),
    ("08.5: a fixed-size batch (rng.choice(n, round(q n))) above a size",
     "same case: the step's variance along the gradient is 1/(1 + 20-40 / sigma^2) of Poisson's (chi-square "
     "lower tail, 39 df, p 1e-6)", 1.0),
    ("08.5: dividing by the realised batch size above a size",
     "same case: expected_batch_size is 0.5-0.8 or 1.25-2 times q n, so the steps sit 6 or more batch-size "
     "standard deviations off centre, and their variance along the gradient collapses", 1.0),
    # Referee red0708: Gaussian noise rescaled to a fixed norm (right per coordinate, bounded). The length test of
    # check_vector_noise: sample variance of the squared norm over the calls against 2p, rejected below half of it
    # (7 relative standard errors or more; a correct answer: below 1e-9). Power 1 by construction (variance 0).
    ("08.2: noise rescaled to a fixed norm", "16 coordinates (3,000 calls) and every case with p >= 8", 1.0),
    ("08.5: noise rescaled to a fixed norm", "every gradient zero, 64 weights (1,500 calls)", 1.0),
)
# ===================================================================== lessons 02-06 (02.1, 02.4, 04.1, 04.4, 06.4)
#: Power of the release checks of lessons 02-06 against the named non-private alternatives of issue 26:
#: (exercise, alternative, power, how it is caught, or why not). "Simulated" figures come from
#: ``benchmarks/check_power.py --reps 20`` (the checks' own tests and sample sizes on noise drawn from the
#: alternative; 20 repetitions, so 20/20 means a 95% lower bound of 0.83); "by construction" rows hold for
#: every run. A correct answer fails the tests of one check with probability below 1e-4 (measured in
#: ``benchmarks/check_false_rejection.py``).
LESSON02_06_POWER = (
    ("02.1", "noise truncated at 4 sd or clipped at 10 scales", "1 (by construction)",
     "pooled tails: 324,000 releases must reach 10.25 scales (check_pooled_tails)"),
    ("02.1", "a 1% point mass", "1 (simulated 20/20)", "repeated releases (check_fresh_noise)"),
    ("02.1", "correlation 0.1 between calls", "1 (z = 0.1 sqrt(324,000) = 57 against 5.5)",
     "check_independent_calls, lags 1-3 and half the run, pooled over 9 cases"),
    ("02.1", "10% too little noise", "1 (variance 0.81 against a band of 0.077 at 36,000 draws)",
     "check_laplace_noise's scale test on every case"),
    ("02.1", "exact in a corner of sensitivity x epsilon (1e-2 to 20)", "1 (by construction)",
     "corner_sweep puts a case in every corner; no noise there fails"),
    ("02.4", "noise truncated at 4 sd (5.7 scales)", "1 (simulated 20/20; below every case's tail threshold)",
     "check_laplace_noise's tail test"),
    ("02.4", "noise clipped at c scales", "1 for c < 9.9 (by construction); 0 above",
     "pooled tails over about 230,000 releases; repeated values at the clip point also fail"),
    ("02.4", "correlation 0.1 between calls, a 1% point mass, 10% too little noise", "1 (as 02.1, 24,000 per case)",
     "check_independent_calls, check_fresh_noise, check_laplace_noise"),
    ("02.4", "a scale read from the data", "1 when the data span a quarter of the bound (simulated 20/20)",
     "cases with every value inside a tenth or a quarter of the bounds, and the neighbour adding one person"),
    ("02.4", "exact above a size or epsilon (n 1 to 120,000, epsilon 1e-2 to 20)", "1 (by construction)",
     "corner_sweep's corners of n x epsilon, one with integer values"),
    ("02.1", "exact only for epsilon or sensitivity in a band holding a share f of its log range (referee: epsilon "
             "1.5-3, f = 0.05 of 1e-3 to 1e3)", "1 - (1 - f)^300: 1 - 2e-7 at f = 0.05, 0.998 at 0.02, 0.95 at 0.01",
     "band_sweep: 300 cases across the range, one release each (check_noise_in_every_band)"),
    ("02.4", "exact only for epsilon or n in a band (referee: epsilon 1.5-3, f = 0.09 of 1e-2 to 20; n 500-5,000, "
             "f = 0.19 of 1 to 120,000)", "1 - (1 - f)^300: above 1 - 1e-12 for both", "as 02.1"),
    ("02.4", "a scale read from the data above a size (referee: max |clipped value| above 1,000 values)",
     "1 (spread 0.1 of the scale against a floor of 0.8)", "data inside a tenth of the bounds at 1,000-10,000 and "
     "10,000-120,000 values"),
    ("04.1", "the caller's NumPy array clipped in place", "1 (by construction)", "one call on the first case as an array"),
    ("04.4", "sums or means exact below epsilon 0.05 or from 5", "1 (by construction)",
     "the second plan holds a sum or mean at 0.01-0.05 and one at 5-20 (15 runs: never constant, not near-exact)"),
    ("04.4", "queries run on part of the values above a size (referee: the first 10,000)", "1 (by construction: "
             "a sum or count off by thousands of values, 10 sd allowed)", "centre of each query over the second "
             "plan's 15 runs (10,000-100,000 values)"),
    ("09.1", "a window of consecutive days (random start, wrapping or not) or every step-th day: each day kept "
             "k/n of the time, but not independently", "1 (window: 126 sd; every 4.3rd day: 38 sd, at 60 days; "
             "9 sd or more at 240 days)", "kept neighbour pairs in date and table order against a uniform k-of-n "
             "(_check_adjacent_pairs, 6 sd; 300 calls at 60 days, 100 at 240)"),
    ("04.1", "a 1% point mass", "1 (simulated 20/20)", "check_fresh_noise"),
    ("04.1", "correlation 0.1 between calls (odd and even calls averaging to the mean: -0.5)", "0.9 (simulated 18/20)",
     "check_independent_calls over 4,800 calls: z = 0.1 sqrt(4,800) = 6.9 against 5.5; antithetic: 1"),
    ("04.1", "half the calls mirroring the call d before (pairs averaging to the exact mean), d = 1 to 20",
     "1 (correlation -0.5 at lag d: z about -0.5 sqrt(5,700) = -38 against 5.5)",
     "check_independent_calls at every lag 1-20 and half the run (MEAN_LAGS); d above 20 (other than half the "
     "run) is not tested"),
    ("04.1", "noise truncated, or the answer asked again while more than c scales out",
     "1 for c <= 6.07; exp(-5,700 (e^-6.07 - e^-c)) above (0.2 at c = 6.2, 0.01 at c = 6.5)",
     "pooled largest |z| over about 5,700 draws must reach far_tail_threshold (6.07); a correct answer stays "
     "below with probability at most 1e-4 (PyDP's tail share taken as 0.7 of Laplace's)"),
    ("04.1", "exact (or within 1e-3 scales) above 40,000 values, for 1,500-10,000 values, or above epsilon 100",
     "1 (by construction)", "cases of 150,000-250,000 values, 2,000-9,000 values and epsilon 200-1,000 (10-20 "
     "runs each: never all equal, at most 3 near-exact); ranges between a seed's cases are not covered"),
    ("04.1", "10% too little noise", "0.45 (simulated 9/20)",
     "the mean-absolute-deviation band [0.87, 1.15] of PyDP's model, whose own error is up to 4%"),
    ("04.1", "noise truncated at 4 sd (5.66 scales)", "1 (by construction: below the pooled threshold 6.07)",
     "the pooled largest |z| (far_tail_threshold, added after the 0/20 simulated with the per-case tests only)"),
    ("04.1", "noise clipped at 10 scales", "0 (simulated 0/20)",
     "about 5,700 PyDP draws reach 10 scales with probability 0.23: clipping there is rarely seen"),
    ("04.1", "exact for many values or a large epsilon, or for a handful of values", "1 (by construction)",
     "the large corner (20,000-40,000 values, epsilon 5-20) and the small one (1-5 values, epsilon 0.01-0.1)"),
    ("04.4", "a repeated query reusing or mirroring an earlier answer", "1 (correlation +-1 against 0.32)",
     "pairwise correlation of repeated queries over 300 runs"),
    ("04.4", "exact beyond the first queries", "1 (by construction)", "plans of 6 to 10 queries, every column tested"),
    ("04.4", "exact above 1,000 values, above epsilon 0.5 (sums and means), or from the 10th query on",
     "1 (by construction)", "a second plan of 10,000-100,000 values, 12-14 queries, epsilons up to 5, 15 runs: "
     "no constant column, sums and means not near-exact; counts above epsilon 0.7 are not tested (PyDP's are "
     "mostly exact there)"),
    ("04.4", "bounds narrowed to the data's min and max when the data lie inside them", "1 (below 1e-12 to pass)",
     "the second plan's values span at most a quarter of the bounds: mean |z| of its sums or means at most 0.25 "
     "against a floor of 0.45 (60 draws each)"),
    ("04.4", "counts and sums truncated, or asked again, at c scales",
     "1 for c <= 6; P(Poisson(15 (1 - e^(6 - c))) <= 1), 0.25 at c = 6.2, 0.02 at c = 6.5",
     "answers beyond 6 scales pooled over counts and sums (about 15 expected): 0 or 1 fail"),
    ("04.4", "a budget pre-check with a tolerance (1e-9, relative 1e-10, math.isclose)", "1 (by construction)",
     "the all-or-nothing plan overspends what is left by 1e-12 of it: the ledger refuses its last query after "
     "two were charged"),
    ("04.4", "correlation 0.1, truncation beyond 6.5 scales, a 1% point mass or 10% too little noise",
     "0 (simulated 0/20, with 300 runs per query)",
     "not re-simulated at 1,500 runs; 04.1 tests PyDP's noise itself, 04.4 tests the plan's accounting"),
    ("06.4", "Gaussian noise truncated at 4 sigma", "1 (by construction)",
     "pooled tails: about 250,000-280,000 values must reach about 4.1 sigma"),
    ("06.4", "correlation 0.1 between calls, coordinates or people (group means)", "1 (simulated 20/20 each)",
     "check_coordinate_correlation and check_independent_calls on each case"),
    ("06.4", "a 1% point mass, 10% too little noise", "1 (simulated 20/20)", "check_fresh_noise, check_gaussian_noise"),
    ("06.4", "exact for large n, groups of one, or a small or large sigma", "1 (by construction)",
     "cases of 200, 100,000 and 1,000 records (l 10, 50, 1), sigma 0.2, 1e-3 to 1e-2, 10 to 100"),
    ("06.4", "noise skipped beyond some feature, or exact for n or l in a range of a factor 2.35 or more "
             "(n 2 to 10,000, l 1 to 10,000)", "1 (by construction)",
     "ten cases, one in each tenth of the log ranges of n, l and the features (1 to 64); every output tested"),
    ("06.4", "near-Gaussian noise with light or bounded tails: a sum of 12 uniforms (P(|Z| > 4) = 1.7e-5), a sum "
             "of 24, Gaussian redrawn beyond 4.2 sigma",
     "1 - 2e-7 (sum of 12: P(Poisson(21.8) >= 46)); about 0.4 (sum of 24: 47.5 expected) and 0.45 (redrawn at 4.2: "
     "46.9 expected)", "count beyond 4 sigma of 1,280,000 draws (81.1 expected) below 46 fails (a correct answer: "
     "P(Poisson(81.1) < 46) = 9e-6); a sum of 6 uniforms fails the per-case tail test as well"),
    ("06.4", "exact for sigma in any decade from 1e-6 to 1e4", "1 (by construction)",
     "one stratified case in every decade, and fixed cases at 1e-6 to 1e-5 and 1e3 to 1e4"),
    ("06.4", "a noise scale read from the data (SD, range, 'nearly constant' branches)",
     "1 for a factor off by 25% or more on some feature (tolerance at most 0.16); simulated 10/10 seeds for each "
     "of the four in the corpus",
     "five datasets with per-feature spreads 1e-9 to 1: each feature's noise SD within 6.5 standard errors "
     "(at least 800 values: 0.16); data-dependent noise also moves every mean in the coupled neighbour tests"),
    ("06.4", "groups from the data only for large n or 3+ features (sorted, nearest neighbours), ties dealt "
             "first, leftovers placed by their values", "1 (by construction: simulated 10/10 each)",
     "coupled neighbours (same rng) on 300-2,500 records and 3-8 features, with duplicate rows, n % l != 0; "
     "every record of 23-51 moved from 0.001 to 0.999"),
    ("06.4", "half the noise for some feature counts",
     "high when the range holds a tenth of log(65) (1.52x); not measured",
     "the scale test of the stratified case with that many features (4,000 values, or fewer for large n)"),
)


# ===================================================================== lesson 05 (05.4)
#: Power of check 05.4 (``mic_dp_helpers/checks/lesson05_audit.py``, ``_near_claim_case`` and ``_tight_case``,
#: and the calls it records of its own ``release``) against answers that
#: do not audit, or audit too little: (answer, rejected seeds, why), measured on seeds 0-99 or 0-29
#: (``tests/wrong_answers/lesson05.py`` holds each answer). The reference solution (the course audit,
#: 20,000 samples per side) was rejected in 0 of 200 seeds (``tests/check_rates.py``'s
#: ``rejection_rate("05.4", range(200))``; 217-254 s before the tight case, 1,044 s with it on a machine
#: loaded about 8 times over; and 0 of seeds 200-229). Answers that read epsilon from a spread fail by
#: construction: a margin below 0.93 flags an honest column just below the claim (estimates 0.93-0.97), and
#: one above 0.82 misses the mixture column (estimates 0.73-0.82).
LESSON05_POWER = (
    ("epsilon from the mean absolute deviation (or SD, or IQR) above a margin times the claim, with a repeat or "
     "exact-value test (referee: margins 1.0-1.3)",
     "100 of 100 seeds (mean absolute deviation, margins 1.0-1.3), 30 of 30 (SD and IQR, margins 1.1-2)",
     "the clipped and the rounded honest columns repeat values (and the clipped one's estimate is 2.5 claims or "
     "more); the mixture column's estimate is 0.73-0.82 claims, so it is missed at any margin"),
    ("the same without a repeat test (margin 1.3 or 1.4)", "30 of 30 seeds",
     "the mixture column, and the exact-value leaks of the other releases, are missed"),
    ("the course audit with 5,000 samples per side", "100 of 100 seeds",
     "the rare leak (0.4-0.5% of releases without noise) is refuted in at most 5% of runs (20,000 samples: every "
     "run, bounds of 2.7 claims or more), and a column at 1.45 to 1.5 times the claim in 76-90% (20,000: every "
     "run); without the rare leak this answer was rejected in only 39 of 100 seeds"),
    ("the course audit with 2,000 samples per side", "100 of 100 seeds", "the rare leak is never refuted, a "
     "column at 1.45 times the claim in about a third of runs"),
    ("the course audit, flagged above twice the claim", "by construction (every seed)",
     "the four columns at 1.45 to 1.5 times the claim have lower bounds of 1.14 to 1.5 claims"),
    ("the course audit with 10,000, 15,000 or 19,000 samples per side (referee: 10,000 and 15,000 passed 2 and 4 "
     "of seeds 0-3 before the check recorded its release's calls)", "by construction (every seed)",
     "the check owns release and refuses a call of 100 to 19,999 releases of either dataset"),
    ("the same noise on both datasets (a fixed seed or a reset generator in the column function; dataset_b's "
     "releases made from dataset_a's) (referee: passed 4 of 4 seeds before)", "by construction (every seed)",
     "release logs its generator's state at each call: a dataset_b call starting from a state a dataset_a call "
     "started from, or no dataset_b call, is refused"),
    ("an audit retried until it refutes (2 or 3 tries); both directions audited, the larger bound kept (referee: "
     "passed 4 of 4 before)", "by construction (every seed)",
     "more dataset_b calls than columns, or a dataset_b call first in a pair, is refused. Not caught: an answer "
     "that draws all its tries in one call and slices them"),
    ("a point estimate: the audit's event counts, their ratio above the claim (referee)",
     "3 of 4 seeds before (0-3); 8 of 9 since (0-2, 4-9; seed 5 passes), and 505",
     "four honest columns at 0.93-0.97 of a small claim (0.33-0.37) instead of two: the point estimate "
     "exceeds the claim on each in about a quarter of runs, the 95% bound stays 4.2 SD below. Not every seed: a "
     "case that caught it at every seed would need honest columns nearer the claim than a correct audit allows"),
    ("a point estimate scanned over events, or above a margin of 1.3 claims, or a bound above 1.5 claims",
     "6 of 6 seeds (4-9) and 505",
     "the tight case (claim 1-1.5): its alarm column's rare events (10-30 counts) give a ratio above the claim in "
     "most runs, and its flawed columns at 1.2-1.3 times the claim have bounds of 1.08 claims or more"),
    ("delta 0.01 or 0.005; n_bins 5 or 3 (referee)", "6 of 6 seeds (4-9) and 505 (0.01 and 5 bins; 0.005 and 3 "
     "bins at 505)",
     "a delta of 0.005 or more forgives the rare leak (0.4-0.5% of releases); 5 bins miss the mixture's sharp centre. "
     "Not caught: n_bins 10, delta 0.001 (they judge every case right)"),
    ("confidence 0.8 or 0.9 instead of 0.95 (referee)", "none: passes (seeds 0-3 before, 505 since)",
     "a black-box limit: the confidence leaves no trace in the calls, and 0.8 raises a bound by about half its "
     "SD; a case that caught it would need honest columns at the claim, where a correct audit errs about once "
     "in 1,500 per column, beyond the 1 in 1,000 allowed per check"),
)
