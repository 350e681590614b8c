"""Sweeps and scale tests of 07.4 (a private clipping bound, then the mean), apart from ``lesson07_selection``.

Referee rt0709: answers exact only for ``bound_share <= 0.2`` or ``public_high < 100``, exact for sizes the
cases skip, and noise 10% too small or scaled by ``upper / (n + 1)`` passed 07.4. :func:`check_noise_size`
tests the average size of the standardised noise (per case and pooled); :func:`bound_mean_band_sweep` draws
200 cases across sizes 1 to 100,000, epsilons 0.01 to 30, bound shares 0.02 to 0.98, levels 0.05 to 0.999 and
public bounds 10 to 100,000, one call each.

Referee s36rB: an answer dropping the zeros (n read from the data) passed, as no case had a zero; a bound from the
exact quantile plus Laplace noise above 200,000 values, and nearly noise-free means on 1% of calls passed.
:func:`with_zeros` puts 0 to 50% of exact zeros in the band sweep's values (and the check in some fixed cases);
:func:`check_bound_in_support` tests each fixed case's bounds against the tails of Smith's distribution;
:func:`check_near_exact_share` counts the fixed cases' means within 1e-4, 1e-3 and 1e-2 scales of the clipped mean.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from mic_dp_helpers.checks import _sweeps
from mic_dp_helpers.checks._bound_scale import check_no_repeated_noise
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly

_abs, _asarray, _clip, _default_rng = np.abs, np.asarray, np.clip, np.random.default_rng
_sort, _concatenate, _cumsum, _searchsorted = np.sort, np.concatenate, np.cumsum, np.searchsorted
_gamma_cdf, _gamma_sf, _quantile = stats.gamma.cdf, stats.gamma.sf, np.quantile
_chi2_cdf, _chi2_sf, _binom_sf = stats.chi2.cdf, stats.chi2.sf, stats.binom.sf
_kstest = stats.kstest
_float = float

#: Per test, the probability that a correct answer's noise size is declared off (each tail).
SIZE_TAIL = 1e-8
#: The cases of the 07.4 band sweep (one call each): a band holding 5% of a parameter's range is met with
#: probability 1 - 0.95^200 = 0.99996.
BAND_CASES_07_4 = 200
# NumPy's quantile methods that interpolate between two values; the others ("lower", "higher", "nearest",
# "inverted_cdf", "closest_observation", ...) return one of the values, which the sweep tests directly.
_INTERPOLATING_METHODS = ("linear", "midpoint")


def clipped_means(values, uppers) -> np.ndarray:
    """``mean(clip(values, 0, u))`` for every ``u`` of ``uppers`` (all >= 0), in one pass.

    Prefix sums (in extended precision) of the sorted values: the values below ``u`` keep their value,
    the others count ``u``. Agrees with ``np.clip(values, 0, u).mean()`` to about 1e-16 relative, and
    takes one sort instead of one clip per bound (2,000 bounds of 23,000 values: 0.4 s less).

    Parameters
    ----------
    values : array_like
        The data.
    uppers : array_like
        The released bounds (>= 0).

    Returns
    -------
    numpy.ndarray
        One clipped mean per bound.

    Examples
    --------
    >>> clipped_means([1.0, 5.0, -2.0], [0.0, 2.0, 9.0]).tolist()
    [0.0, 1.0, 2.0]
    """
    data = _sort(_clip(_asarray(values, dtype=float), 0.0, None))
    uppers = _asarray(uppers, dtype=float)
    prefix = _concatenate([[0.0], _cumsum(data, dtype=np.longdouble)])
    below = _searchsorted(data, uppers, side="left")  # values < u keep their value, the rest count u
    return ((prefix[below] + uppers * (data.size - below)) / data.size).astype(float)


def check_noise_size(standardized, where: str) -> None:
    """Test that Laplace noise divided by its scale has the right average size.

    For Laplace noise of scale 1, |z| is Exp(1), so the sum of N of them is Gamma(N, 1): outside its
    ``SIZE_TAIL`` tails (each side) the noise is too small or too large. Power: 10% too little noise is
    seen with probability 0.15 at N = 2,000, 0.008 at N = 1,000 and 1 - 1e-9 pooled over 07.4's 17,812
    releases (z about 13); a scale 0.7x or 1.43x with probability 1 - 1e-8 at N = 1,000; half the noise
    (``upper / (n + 1)`` at n = 1) with probability about 1 at N = 300.

    Parameters
    ----------
    standardized : array_like
        Noise / scale, one per release.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        If the average |z| is off.
    """
    signed = _asarray(standardized, dtype=float).ravel()
    z = _abs(signed)
    if z.size < 20:
        return
    # Centre first (a sign test: Binomial(N, 1/2) beyond 5.5 standard deviations, 4e-8), so that a mean clipped
    # to another bound is not reported as too much noise.
    if abs(_float((signed > 0).sum()) - z.size / 2) > 5.5 * math.sqrt(z.size / 4):
        raise CheckFailed(f"{where} the DP mean is not centred on the mean of the values clipped to the released "
                          "bound [0, upper]: clip to the bound you release, and add noise centred on 0.")
    total = _float(z.sum())
    if _gamma_cdf(total, z.size) < SIZE_TAIL or _gamma_sf(total, z.size) < SIZE_TAIL:
        ratio = total / z.size
        verdict = ("too little noise: it is not (1 - bound_share) * epsilon-DP" if ratio < 1 else
                   "more noise than the budget left needs, or a mean not centred on the values clipped to the "
                   "released bound [0, upper] on some calls")
        raise CheckFailed(f"{where} its distance from the mean of the values clipped to the released bound averages "
                          f"{ratio:.3f} times the Laplace scale upper / (n * (1 - "
                          f"bound_share) * epsilon) over {z.size:,} releases, where Laplace noise of that scale "
                          f"averages 1: {verdict}. The clipped mean moves by at most upper / n (n, not n + 1 or "
                          "anything else); use exactly (1 - bound_share) * epsilon for it.")


def bound_mean_band_sweep(answer, generator, bound_and_mean) -> None:
    """Call ``answer`` once at each of 200 cases drawn across every parameter, and test the releases.

    The bound must lie in [0, public_high] and never equal an exact quantile of the values (NumPy's
    methods; Smith's mechanism lands on one with probability 0); the means are tested for a noise draw used
    twice (:func:`_bound_scale.check_no_repeated_noise`, referee s37rB) and by
    :func:`mic_dp_helpers.checks._sweeps.check_noise_in_every_band` (never exact, rarely within 0.001
    scales, Laplace over all; its amount test allows a variance off by up to 103% at 200 cases, so it does not
    test the scale: the fixed cases do).

    Parameters
    ----------
    answer : callable
        The student's ``private_bound_and_mean``.
    generator : numpy.random.Generator
        The check's generator.
    bound_and_mean : callable
        ``bound_and_mean(raw, where)``: the (upper, dp_mean) pair of a raw return.

    Raises
    ------
    CheckFailed
        If a bound is exact or out of range, or the means fail the band test.
    """
    cases = _sweeps.band_sweep(generator, {"n": (1, 100_000), "epsilon": (0.01, 30.0), "high": (10.0, 1e5)},
                               count=BAND_CASES_07_4)
    releases, centres, scales, tolerances, described = [], [], [], [], []
    for case in cases:
        n, epsilon, high = case["n"], case["epsilon"], case["high"]
        # 1 - level log-uniform over 0.001 to 0.95: levels near 1 (0.99 to 0.999) are a third of the cases
        level = 1.0 - _sweeps.log_uniform(generator, 0.001, 0.95)
        share = _float(generator.uniform(0.02, 0.98))
        values = with_zeros(generator, np.round(generator.lognormal(3.0, 0.8, n), 2))
        where = (f"For {n} values, level={level:.3g}, public_high={high:.4g}, epsilon={epsilon:.3g}, "
                 f"bound_share={share:.3g}:")
        (raw,) = call_repeatedly(answer, 1, values.copy(), level, high, epsilon, share,
                                 _default_rng(int(generator.integers(2**31))))
        upper, mean = bound_and_mean(raw, where)
        if not 0.0 <= upper <= high:
            raise CheckFailed(f"{where} the upper bound {upper:.6g} fell outside the public range [0, public_high].")
        exact = [_float(_quantile(values, level, method=method)) for method in _INTERPOLATING_METHODS]
        if upper in exact or bool((values == upper).any()):
            raise CheckFailed(f"{where} the upper bound is an exact quantile (or a value) of the data, which Smith's "
                              "DP quantile never returns: it leaks the data. Choose it with dp_quantile(values, level, "
                              "0, public_high, bound_share * epsilon, rng), whatever the size and parameters.")
        centre = _float(_clip(values, 0.0, upper).mean())
        scale = upper / (n * (1 - share) * epsilon)
        if scale <= 0:
            continue
        releases.append(mean)
        centres.append(centre)
        scales.append(scale)
        tolerances.append(1e-12 * max(1.0, abs(centre)) + 1e-9 * scale)
        described.append(where)
    z = (_asarray(releases) - _asarray(centres)) / _asarray(scales)
    check_no_repeated_noise(z, centres, scales, lambda i: described[i])
    _sweeps.check_noise_in_every_band(releases, centres, scales, tolerances, lambda i: described[i])


#: Family-wise probability that a correct 07.1 answer's flip counts are declared too steady (all suffixes).
SPREAD_TAIL = 1e-7
#: Bins of log(people) over 2,000 to 1,000,000 for the blocks of :func:`check_flip_count_spread_grid`.
SIZE_BINS = 24


def size_bin(people: int) -> int:
    """The bin of ``people`` (2,000 to 1,000,000, log scale) among ``SIZE_BINS``; sizes outside go to the ends.

    Parameters
    ----------
    people : int
        A case's number of people.

    Returns
    -------
    int
        Its bin, 0 to ``SIZE_BINS`` - 1.

    Examples
    --------
    >>> size_bin(2000), size_bin(1_000_000), size_bin(45_000)
    (0, 23, 12)
    """
    place = math.log(max(people, 2000) / 2000.0) / math.log(500.0)
    return min(int(place * SIZE_BINS), SIZE_BINS - 1)


def check_flip_count_spread(counts) -> None:
    """Test that the number of flipped answers per call varies like a binomial count (07.1, referee s35rcb).

    For each call on n people at flip rate f, z = (flips - n f) / sqrt(n f (1 - f)) is about standard
    normal; the sum of z^2 over the m calls on the most people is chi^2(m). Every such suffix (m = 1 to
    all, about 24 calls from 2,000 people up: the size sweep's, the two epsilon-1 calls and, since referee s36rB,
    the epsilon 6 and 10 calls on over 1,000,000 people) is tested against its lower ``SPREAD_TAIL`` / (number of
    suffixes) quantile (a correct answer: below 1e-7 in all, the counts' lattice aside, on which z lies
    at least 20 standard errors apart by 1/20 and which the rate's random fractional part averages out).
    Exactly round(n f) flips gives |z| <= 0.5 / sqrt(n f (1 - f)) on each call: an answer fixing the count
    from the third-largest call up (about 500,000 people; the two calls on over 1,000,000 included) fails,
    and from 12,000 people (16 calls) up z^2 sums to below 1e-3 where the quantile is about 1.3. A count
    with a tenth of the binomial spread from 2,000 people up sums to about 0.2 against about 2.6. Limit: a
    fixed count only on calls on over 1,000,000 people (the four calls there, at epsilon 1, 6 and 10, sum
    z^2 to about 0.002, above the quantile) or a spread reduced by less than about half passes; other epsilons are tested by
    :func:`check_flip_count_spread_grid`.

    Parameters
    ----------
    counts : list of tuple
        (people, flipped answers, flip rate) of one call each.

    Raises
    ------
    CheckFailed
        If the counts of some suffix vary too little.
    """
    ordered = sorted(counts, key=lambda c: -c[0])
    z2 = [(k - n * f) ** 2 / (n * f * (1 - f)) for n, k, f in ordered]
    tail = SPREAD_TAIL / max(len(z2), 1)
    total = 0.0
    for m, (value, (n, _, f)) in enumerate(zip(z2, ordered), start=1):
        total += value
        if _chi2_cdf(total, m) < tail:
            raise CheckFailed(f"For {n:,} people and more, the number of flipped answers stays within "
                              f"{_float(math.sqrt(total / m)):.3g} standard errors (root mean square over {m} calls) of "
                              "n / (1 + e^epsilon), far closer than independent coins allow (it is Binomial(n, "
                              "1 / (1 + e^epsilon)), not a fixed number; at the extreme, a fixed number of liars makes "
                              "the report differ from the truth in a known number of places, which is not private). Flip every "
                              "person's coin independently, however many people there are.")


def check_flip_count_spread_grid(cases) -> None:
    """Test the flip counts of 07.1's epsilon-and-size grid for too little or too much spread, in every block.

    Referee s36rB: exactly round(n (1 - p)) flips (or stratified coins) from 2,000 people for epsilon above
    1.05 passed. Each case gives z = (flips - n f) / sqrt(n f (1 - f)), about standard normal. The cases sit in
    cells (epsilon index x size bin: since referee s37rB, ``SIZE_BINS`` bins of log n over 2,000 to 1,000,000
    people, a factor 1.30 each, so that a band of sizes is one window of bins at every epsilon); over every
    block of cells (a window of consecutive epsilons x a window of consecutive bins, 300 x 300 = 90,000 blocks)
    the sum of z^2 over the block's m cases is chi^2(m), tested against both its ``SPREAD_TAIL`` / 90,000
    quantiles (about 1.1e-12; a correct answer: below 2e-7 in all, the lattice of the counts averaged out by
    the random rate and sizes, as in :func:`check_flip_count_spread`). A fixed count gives z^2 <= 0.25 /
    (n f (1 - f)) per case, at most 0.008 (every case expects 30 flips or more): over the 90 or so cases
    from 2,000 people up at epsilon above 1.05 it sums to about 0.02 where the lower quantile is about 25; on
    100,000 people at flip rate 0.2 z^2 averages (1/12) / (n f (1 - f)), about 5e-6, so 6 such cases sum to
    about 3e-5 where the quantile of chi^2(6) is 3.8e-4 (5 cases: 2.5e-5 against 5.3e-5; 4: 2e-5 against
    3e-6): a fixed count in a band of sizes spanning two bins (a factor 1.7) fails where 5 or more of the grid's
    cases fall in it (the referee's 150,000-400,000 people at epsilon 1.05-5.9: about 9). Coins shared in pairs
    double the variance (z^2 about 2 per case), seen by the upper tail over a block of about 200 cases (the
    quantile of chi^2(200) is 374) and caught by the lag test anyway. Limit: a fixed count met by 4 cases or
    fewer passes unless its counts happen to be that close.

    Parameters
    ----------
    cases : list of tuple
        (epsilon index, size bin, people, flipped answers, flip rate) of one call each.

    Raises
    ------
    CheckFailed
        If the counts of some block vary too little.
    """
    rows = 1 + max(c[0] for c in cases)
    columns = 1 + max(c[1] for c in cases)
    z2, m = np.zeros((rows, columns)), np.zeros((rows, columns))
    for i, j, n, k, f in cases:
        z2[i, j] += (k - n * f) ** 2 / (n * f * (1 - f))
        m[i, j] += 1.0
    # Prefix sums over both axes: a block's total in four lookups.
    sums = [np.pad(a, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1) for a in (z2, m)]
    blocks = [(a, b, c, d) for a in range(rows) for b in range(a + 1, rows + 1)
              for c in range(columns) for d in range(c + 1, columns + 1)]
    index = np.array(blocks).T
    total, count = (s[index[1], index[3]] - s[index[0], index[3]] - s[index[1], index[2]] + s[index[0], index[2]]
                    for s in sums)
    usable = count > 0
    low, high = np.ones(len(blocks)), np.ones(len(blocks))
    low[usable] = _chi2_cdf(total[usable], count[usable])
    high[usable] = _chi2_sf(total[usable], count[usable])
    worst = int(np.argmin(np.minimum(low, high)))
    if min(low[worst], high[worst]) < SPREAD_TAIL / len(blocks):
        a, b, c, d = blocks[worst]
        people = [n for i, j, n, _, _ in cases if a <= i < b and c <= j < d]
        rms = _float(math.sqrt(total[worst] / count[worst]))
        start = (f"For {min(people):,} to {max(people):,} people at some epsilons, the number of flipped answers "
                 f"strays {rms:.3g} standard errors (root mean square over {int(count[worst])} calls) from "
                 "n / (1 + e^epsilon), ")
        if high[worst] < low[worst]:
            raise CheckFailed(start + "far more than independent coins allow (Binomial(n, 1 / (1 + e^epsilon))): "
                              "people's coins move together (shared or tied coins). Flip every person's coin "
                              "independently, whatever epsilon and the number of people are.")
        raise CheckFailed(start + "far less than independent coins allow (it is Binomial(n, 1 / (1 + e^epsilon)), "
                          "not a fixed number; a fixed number of liars makes the report differ from the truth in a "
                          "known number of places, which is not private). Flip every person's coin independently, "
                          "whatever epsilon and the number of people are.")


#: A bound whose place in Smith's distribution, F(upper), lies within BOUND_TAIL of 0 or 1 is in its tail.
BOUND_TAIL = 1e-4
#: Per test, the probability that a correct answer fails the counts of bounds in the tails or of near-exact means.
COUNT_TAIL = 1e-8
#: The distances (in Laplace scales) at which near-exact means are counted.
NEAR_DISTANCES = (1e-4, 1e-3, 1e-2)


def with_zeros(generator, values: np.ndarray) -> np.ndarray:
    """``values`` with a share of them, drawn uniformly from 0 to 0.5, set to exactly 0 (purchase amounts of 0).

    Parameters
    ----------
    generator : numpy.random.Generator
        The check's generator.
    values : numpy.ndarray
        The values (changed in place and returned).

    Returns
    -------
    numpy.ndarray
        ``values``, with zeros.
    """
    values[generator.random(values.size) < generator.uniform(0.0, 0.5)] = 0.0
    return values


def _fewest_failing(calls: int, rate: float) -> int:
    """The smallest count k with P(Binomial(calls, rate) >= k) below ``COUNT_TAIL``."""
    k = 1
    while _binom_sf(k - 1, calls, rate) >= COUNT_TAIL:
        k += 1
    return k


def check_bound_in_support(places, where: str) -> None:
    """Test that the released bounds do not sit in the far tails of Smith's distribution (07.4, referee s36rB).

    ``places`` are F(upper) for Smith's exact distribution F: uniform on [0, 1] for a correct answer, so a
    place within ``BOUND_TAIL`` of 0 or 1 has probability 2e-4; ``_fewest_failing`` such places fail (a correct
    answer: below 1e-8 per case; 3 of 10 calls, 7 of 2,000). An exact quantile plus Laplace noise of scale
    public_high / (n x bound_share x epsilon) lands far outside the ranks Smith's mechanism reaches in the
    1,000,001 to 1,100,000-value case at epsilon 0.05 and public_high 1e5 (a noise of scale about 4 around a
    quantile near 75, where Smith's bound stays within a few cents): its places are 0 or 1 on about every call,
    whatever the size above which the answer does it (up to that case's).

    Parameters
    ----------
    places : array_like
        F(upper) for each call's bound.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        If too many bounds lie in the tails.
    """
    places = _asarray(places, dtype=float)
    outside = int(((places < BOUND_TAIL) | (places > 1 - BOUND_TAIL)).sum())
    if outside >= _fewest_failing(places.size, 2 * BOUND_TAIL):
        raise CheckFailed(f"{where} {outside} of {places.size} bounds lie where Smith's DP quantile (with "
                          "bound_share * epsilon and public range [0, public_high]) almost never goes (below its "
                          f"{BOUND_TAIL:g} or above its {1 - BOUND_TAIL:g} quantile): the bound is not drawn by the "
                          "DP quantile. A quantile computed exactly and then noised has no sensitivity of "
                          "public_high / n and is not private; use dp_quantile(values, level, 0, public_high, "
                          "bound_share * epsilon, rng), whatever the size.")


def check_near_exact_share(standardized, where: str) -> None:
    """Test that few means are nearly noise-free (07.4, referee s36rB: noise x 1e-4 on 1% of calls passed).

    For Laplace noise of scale 1, |z| < t has probability 1 - e^-t; over the N releases of the fixed cases
    (about 12,200) the count within t scales is Binomial(N, 1 - e^-t), for t = 1e-4, 1e-3 and 1e-2, each
    tested at its upper ``COUNT_TAIL`` tail (limits 12, 37 and 189 where about 1.2, 12 and 121 are expected).
    Noise x 1e-4 on a share s of the calls puts about 0.63 s N of them within 1e-4 scales (77 for s = 1%):
    seen from s about 0.14%; noise x 1e-3 on 0.6% of calls about 46 more within 1e-3; noise x 1e-2 on 1.5%
    about 115 more within 1e-2 (on 1%, about 77 more: borderline). Limit: noise x 1e-4 on fewer than about
    0.14% of calls, noise x 1e-2 on under about 1.2%, or noise x 0.1 on 1%, pass.

    Parameters
    ----------
    standardized : array_like
        Noise / scale of every release.
    where : str
        Which releases, for the hint.

    Raises
    ------
    CheckFailed
        If too many releases are within one of the distances.
    """
    z = _abs(_asarray(standardized, dtype=float))
    for distance in NEAR_DISTANCES:
        rate = -math.expm1(-distance)
        near = int((z < distance).sum())
        if _binom_sf(near - 1, z.size, rate) < COUNT_TAIL:
            raise CheckFailed(f"{where} {near} of {z.size:,} releases are within {distance:g} Laplace scales of the "
                              f"mean of the values clipped to the released bound, where Laplace noise puts about "
                              f"{z.size * rate:.0f}: some calls add (almost) no noise. Add Laplace noise of scale "
                              "upper / (n * (1 - bound_share) * epsilon) on every call.")


def zeros_dropped(values, mean_epsilon: float, results, where: str) -> None:
    """On a failed test of a case with zeros, tell whether the answer dropped them.

    Called only after a test of the bounds or the means failed (referee s36rB: an answer dropping the zeros, so
    that n becomes a count read from the data, passed when no case had a zero): if
    the means fit Laplace noise of scale upper / (n' x mean_epsilon) around the positive values' clipped mean
    (n' of them; KS p-value above 1e-3), the hint says so.

    Parameters
    ----------
    values : numpy.ndarray
        The case's values.
    mean_epsilon : float
        The epsilon of the mean.
    results : list of tuple
        The (upper, dp_mean) of every call.
    where : str
        The case, for the hint.

    Raises
    ------
    CheckFailed
        If the zeros were dropped.
    """
    positive = values[values > 0]
    uppers, means = (_asarray([r[k] for r in results], dtype=float) for k in (0, 1))
    if positive.size in (0, values.size) or uppers.size < 20 or uppers.min() <= 0:
        return
    z = (means - clipped_means(positive, uppers)) * positive.size * mean_epsilon / uppers
    if _kstest(z, stats.laplace.cdf).pvalue > 1e-3:
        raise CheckFailed(f"{where} the DP means follow the clipped mean of the positive values only, with noise "
                          "for their count: values of 0 are values too (purchases of 0). Keep every value, and n = "
                          "len(values), the public number of values, zeros included; a count of the positive values "
                          "is read from the data and is not public.")
