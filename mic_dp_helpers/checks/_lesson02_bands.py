"""The band sweeps of checks 02.1 and 02.4: hundreds of cases across the whole box of parameters, a few releases each.

Referee s36rA: an answer exact only for epsilon in a band passed; referee s37rA: the sweep's cases were drawn
independently (gaps of a factor 1.96 in epsilon) and only exactness was tested, so an epsilon floored at 1e-3 or a
scale capped at 1e6 passed. Now every parameter is stratified (:func:`_sweeps.band_sweep`, one case per 1/300 of
its log range; :func:`_sweeps.scale_sweep` adds 100 cases stratified on the noise scale) and the mean |noise| of
every window of neighbouring cases is tested (:func:`_scale_scan.check_band_scale`). Referee s38rA: uniform or
Gaussian noise of the right mean |noise| passed where only the sweep looked (epsilon below 1e-3, say); now the
shape of every window is tested too (:func:`_shape_scan.check_band_shape`, 20 releases a case). Kept apart from
:mod:`mic_dp_helpers.checks.lesson02` (600 lines at most a module). Power: ``LESSON02_06_POWER``.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.stats

from mic_dp_helpers.checks import _stats, _sweeps
from mic_dp_helpers.checks._band_calls import check_call_sequences, check_clipped_centre
from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks._lesson02_inputs import _log_uniform, with_outliers
from mic_dp_helpers.checks._scale_scan import check_band_scale
from mic_dp_helpers.checks._shape_scan import check_band_shape, check_box_shape

_default_rng = np.random.default_rng
_fsum, _abs, _max, _float, _len = math.fsum, abs, max, float, len

#: Releases per band case (one generator a case; the first is the release the exactness test sees), and cases
#: stratified on the noise scale besides the BAND_CASES of the band sweep, SCALE_RELEASES releases each.
BAND_RELEASES, SCALE_CASES, SCALE_RELEASES = 20, 100, 20
#: 02.1: sensitivity, epsilon, and |value| / scale (values up to 1e9 scales from 0: the noise keeps 6 digits).
BAND_SENSITIVITIES, BAND_EPSILONS, BAND_RATIOS = (1e-6, 1e4), (1e-5, 1e6), (1e-6, 1e9)
#: 02.4: n, epsilon and the larger bound max(|lower|, |upper|) (up to 1e3 in the scale-stratified cases); the
#: scales the scale-stratified cases span (5e-3 to 1e6).
SUM_BAND_EPSILONS, SUM_BAND_LARGEST, SUM_SCALE_LARGEST = (1e-3, _sweeps.EPSILONS[1]), (0.1, 100.0), (0.1, 1e3)
SUM_BAND_SCALES = (SUM_SCALE_LARGEST[0] / SUM_BAND_EPSILONS[1], SUM_SCALE_LARGEST[1] / SUM_BAND_EPSILONS[0])
#: 02.4: the odd band cases keep every value inside this share of the bounds; their mean |noise| floor (scales).
INSIDE_SPREAD = 0.1
INSIDE_SPREAD_FLOOR = float(scipy.stats.gamma.ppf(1e-4 / 200, BAND_RELEASES)) / BAND_RELEASES
LAPLACE_BAND_SCALES = (BAND_SENSITIVITIES[0] / BAND_EPSILONS[1], BAND_SENSITIVITIES[1] / BAND_EPSILONS[0])


def _signs(rng, count: int) -> np.ndarray:
    return rng.choice([-1.0, 1.0], count)


def laplace_band_cases(seed: int):
    """(value, sensitivity, epsilon) of 02.1's band sweep: :data:`_sweeps.BAND_CASES` cases stratified on sensitivity
    :data:`BAND_SENSITIVITIES`, epsilon :data:`BAND_EPSILONS` and |value| / scale :data:`BAND_RATIOS`, then
    :data:`SCALE_CASES` stratified on the scale (1e-12 to 1e9) and |value| / scale.

    Parameters
    ----------
    seed : int
        The check's seed.

    Returns
    -------
    list of tuple
        ``(value, sensitivity, epsilon)`` per case.
    """
    rng = _default_rng([seed, 21])
    cases = [(case["sensitivity"], case["epsilon"], case["ratio"]) for case in _sweeps.band_sweep(
        rng, {"sensitivity": BAND_SENSITIVITIES, "epsilon": BAND_EPSILONS, "ratio": BAND_RATIOS})]
    cases += [(case["numerator"], case["epsilon"], case["ratio"]) for case in _sweeps.scale_sweep(
        _default_rng([seed, 21, 0, 1]), LAPLACE_BAND_SCALES, BAND_EPSILONS, BAND_SENSITIVITIES, {"ratio": BAND_RATIOS},
        SCALE_CASES)]
    signs = _signs(rng, _len(cases))
    return [(_float(sign * ratio * sensitivity / epsilon), sensitivity, epsilon)
            for sign, (sensitivity, epsilon, ratio) in zip(signs, cases)]


def _band_releases(many, cases, seed_key, args_of) -> list:
    """The releases of each case (:data:`BAND_RELEASES`, :data:`SCALE_RELEASES` for the last :data:`SCALE_CASES`),
    one generator ``[*seed_key, i]`` a case."""
    count = _len(cases)
    return [_stats.as_numbers(many(SCALE_RELEASES if i >= count - SCALE_CASES else BAND_RELEASES, *args_of(i, case),
                                   _default_rng([*seed_key, i])), "the noisy release") for i, case in enumerate(cases)]


def check_not_float32(releases, where: str) -> None:
    """Fail, naming float32, when every release is a float32 number and some are not whole numbers.

    A float64 release is exactly a float32 number with probability about 2^-29, so a correct answer never fails
    (rounding to whole numbers, also float32-exact below 2^24, is left to the other tests). Referee s39rA D8: a
    release cast to ``np.float32`` failed the band sweep's scale test with "too much noise", which sent the
    student to the noise scale; float32 rounding moves a release 1e9 scales from 0 by tens of scales.

    Parameters
    ----------
    releases : sequence of ndarray
        The releases of each case.
    where : str
        Start of the hint.

    Raises
    ------
    CheckFailed
        If the releases are float32 numbers.
    """
    flat = np.concatenate([np.ravel(r) for r in releases])
    with np.errstate(over="ignore", invalid="ignore"):
        as_float32 = flat.astype(np.float32).astype(float)
    if np.array_equal(as_float32, flat) and bool((flat != np.round(flat)).any()):
        raise CheckFailed(f"{where} every release is a float32 number (np.float32 keeps about 7 digits): rounding "
                          "it moves a release far from 0 by more than the noise, by tens of noise scales 1e9 scales "
                          "from 0 (property: accuracy; the release stays private). Return a Python float (float64), "
                          "e.g. float(value + noise) with value and noise as float64.")


def check_laplace_bands(many, seed: int) -> None:
    """02.1's band sweep: never exact, rarely near the value, Laplace pooled (first release of each case), and the
    full scale and the Laplace shape (:func:`_shape_scan.check_band_shape`) in every window of cases ordered by
    epsilon, sensitivity, scale or |value| / scale.

    Parameters
    ----------
    many : callable
        ``many(n, value, sensitivity, epsilon, rng)``: n releases of the student's answer, under the guard.
    seed : int
        The check's seed.

    Raises
    ------
    CheckFailed
        With a hint naming the case (or the band of cases) and the property.
    """
    releases = _band_releases(many, laplace_band_cases(seed), (seed, 21), lambda i, case: case)
    cases = laplace_band_cases(seed)  # recomputed after the student ran
    values, sensitivities, epsilons = (np.array(column) for column in zip(*cases))
    scales = sensitivities / epsilons
    tolerances = 4 * np.spacing(np.abs(values))

    def describe(i):
        return f"For value={cases[i][0]:g}, sensitivity={cases[i][1]:.6g}, epsilon={cases[i][2]:.6g}:"

    check_not_float32(releases, f"Over {_len(cases)} cases across the whole range,")
    check_call_sequences(releases, values, scales, tolerances, describe,
                         f"Over {_len(cases)} cases across the whole range ({BAND_RELEASES} releases each),",
                         {"epsilon": epsilons, "sensitivity": sensitivities, "scale": scales})
    z = [(r - value) / scale for r, value, scale in zip(releases, values, scales)]
    keys = {"epsilon": epsilons, "the sensitivity": sensitivities, "the scale sensitivity / epsilon": scales,
            "|value| / scale": np.abs(values) / scales}
    where = f"Over {_len(cases)} cases across the whole range,"
    check_band_scale(z, keys, where, "is epsilon floored, the scale capped, or the noise shrunk for some values? The "
                     "scale is sensitivity / epsilon for every sensitivity, epsilon and value.", describe)
    check_band_shape(z, keys, where)
    check_box_shape(z, keys, where)
    _sweeps.check_noise_in_every_band([r[0] for r in releases], values, scales, tolerances, describe)


def _sum_band_specs(seed: int):
    """(n, epsilon, larger bound) of 02.4's band cases: stratified on n, epsilon and the larger bound, then
    :data:`SCALE_CASES` stratified on n and the scale (5e-3 to 1e6)."""
    ranges = {"n": _sweeps.SIZES, "epsilon": SUM_BAND_EPSILONS, "largest": SUM_BAND_LARGEST}
    specs = [(case["n"], case["epsilon"], case["largest"])
             for case in _sweeps.band_sweep(_default_rng([seed, 24]), ranges)]
    return specs + [(case["n"], case["epsilon"], case["numerator"]) for case in _sweeps.scale_sweep(
        _default_rng([seed, 24, 1, 1]), SUM_BAND_SCALES, SUM_BAND_EPSILONS, SUM_SCALE_LARGEST, {"n": _sweeps.SIZES},
        SCALE_CASES)]


def sum_band_case(seed: int, index: int, specs=None):
    """(values, lower, upper, epsilon) of 02.4's band case ``index``: mixed bounds, either the larger (the other
    0.1 to it), values beyond both (``index`` a multiple of 4), inside both but for 1 to 3 far beyond one (``index``
    2 more than a multiple of 4: :func:`_lesson02_inputs.with_outliers`, clipping skipped when a sample of the values
    shows none outside, or at some sizes, fails; referee s40rA D1) or inside a tenth of both (odd: a scale read
    from the data shrinks to a tenth, at every n and epsilon jointly; referee s39rA D4).

    Parameters
    ----------
    seed : int
        The check's seed.
    index : int
        The case.
    specs : list, optional
        ``_sum_band_specs(seed)``, when the caller has it (else computed).

    Returns
    -------
    tuple
        ``(values, lower, upper, epsilon)``.
    """
    n, epsilon, largest = (_sum_band_specs(seed) if specs is None else specs)[index]
    rng = _default_rng([seed, 24, index])
    other = _log_uniform(rng, SUM_BAND_LARGEST[0], _max(largest, SUM_BAND_LARGEST[0]))
    lower, upper = (-largest, other) if rng.random() < 0.5 else (-other, largest)
    spread = INSIDE_SPREAD if index % 2 else (1.0 if index % 4 == 2 else 1.5)
    values = rng.uniform(spread * lower, spread * upper, n)
    return (with_outliers(rng, values, lower, upper) if index % 4 == 2 else values), lower, upper, epsilon


def check_inside_spread(z, describe) -> None:
    """Fail when a band case with every value inside a tenth of the bounds (odd index) has too little noise.

    Its mean |noise| over :data:`BAND_RELEASES` releases, in scales, is Gamma(20, 1/20) for a correct answer; below
    :data:`INSIDE_SPREAD_FLOOR` (0.256) happens with probability 1e-4 / 200 a case, 1e-4 over the sweep. A scale
    read from the data (max |clipped value|) gives about 0.1.

    Parameters
    ----------
    z : sequence of ndarray
        Standardised noise of each band case.
    describe : callable
        ``describe(i)``: the parameters of case ``i``.

    Raises
    ------
    CheckFailed
        With a hint naming the case.
    """
    for index in range(1, _len(z), 2):
        spread = _float(np.mean(np.abs(z[index])))
        if spread < INSIDE_SPREAD_FLOOR:
            raise CheckFailed(f"{describe(index)} (every value inside a tenth of the bounds) your releases are "
                              f"{spread:.2f} Laplace scales from the sum on average, where the noise gives 1 "
                              "(property: data-independent scale). The sensitivity comes from the declared bounds, "
                              "max(|lower|, |upper|), never from the data's values.")


def check_sum_bands(many, seed: int) -> None:
    """02.4's band sweep: never exact, rarely near the sum, Laplace pooled (first release of each case), and the
    full scale and the Laplace shape (:func:`_shape_scan.check_band_shape`) in every window of cases ordered by n,
    epsilon, the larger bound or the scale.

    Parameters
    ----------
    many : callable
        ``many(n, values, lower, upper, epsilon, rng)``: n releases of the student's answer, under the guard.
    seed : int
        The check's seed.

    Raises
    ------
    CheckFailed
        With a hint naming the case (or the band of cases) and the property.
    """
    specs = _sum_band_specs(seed)
    count = _len(specs)
    releases = _band_releases(many, range(count), (seed, 24, 0), lambda i, _: sum_band_case(seed, i, specs))
    specs = _sum_band_specs(seed)  # recomputed after the student ran
    cases = [sum_band_case(seed, i, specs) for i in range(count)]
    centres = np.array([_fsum(np.clip(values, lower, upper)) for values, lower, upper, _ in cases])
    largest = np.array([_max(_abs(lower), _abs(upper)) for _, lower, upper, _ in cases])
    sizes = np.array([_len(values) for values, *_ in cases])
    epsilons = np.array([epsilon for *_, epsilon in cases])
    scales = largest / epsilons
    tolerances = 64 * sizes * np.finfo(float).eps * largest + 4 * np.spacing(np.abs(centres))  # a float sum's error

    def describe(i):
        return f"For {sizes[i]} values, bounds [{cases[i][1]:.6g}, {cases[i][2]:.6g}], epsilon={cases[i][3]:.6g}:"

    check_not_float32(releases, f"Over {count} cases across the whole range,")
    for i, (r, centre, scale) in enumerate(zip(releases, centres, scales)):
        check_clipped_centre((r - centre) / scale, describe(i))
    check_call_sequences(releases, centres, scales, tolerances, describe,
                         f"Over {count} cases across the whole range ({BAND_RELEASES} releases each),",
                         {"n": sizes, "epsilon": epsilons, "largest": largest, "scale": scales})
    z = [(r - centre) / scale for r, centre, scale in zip(releases, centres, scales)]
    keys = {"n": sizes, "epsilon": epsilons, "max(|lower|, |upper|)": largest,
            "the scale max(|lower|, |upper|) / epsilon": scales}
    where = f"Over {count} cases across the whole range,"
    check_inside_spread(z, describe)
    check_band_scale(z, keys, where, "is epsilon floored, the scale capped, or the noise shrunk for some sizes? The "
                     "scale is max(|lower|, |upper|) / epsilon for every size, bound and epsilon.", describe)
    check_band_shape(z, keys, where)
    check_box_shape(z, keys, where)
    _sweeps.check_noise_in_every_band([r[0] for r in releases], centres, scales, tolerances, describe)
