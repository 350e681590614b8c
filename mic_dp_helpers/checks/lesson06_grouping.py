"""Check of lesson 06's exercise 06.4 (a random-grouping release that passes the audit); 06.1-06.3 are in
``lesson06``, 06.5 and 06.6 in ``lesson06_marginals``.

The check calls the student's function on inputs drawn from a generator seeded with ``seed`` (fixed by
default, ``lesson06.SEED``): group sizes, sigmas and dimensions over wide ranges (l = 1, dim = 1 included),
record counts that are not multiples of l. The random answer is tested on its distribution
(:mod:`mic_dp_helpers.checks._stats`: centre, scale, tails, independence across coordinates and groups, a KS
fit to the normal law, no noiseless output), on the randomness of its groups and with the lesson's audit; a
correct answer fails in well under 1 of 1,000 seeds (``benchmarks/check_false_rejection.py``).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from mic_dp_helpers import synthetic
from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.checks import _core, _group_release, _stats, _sweeps, lesson06
from mic_dp_helpers.checks._core import CheckFailed, call_repeatedly, exercise
from mic_dp_helpers.checks.lesson06 import _SOLVERS, SEED, _log_uniform

_THIS = sys.modules[__name__]
_default_rng = np.random.default_rng
_sqrt = math.sqrt
_exp = math.exp
_log = math.log
_abs = abs
_float = float
_array = np.array
_asarray = np.asarray
_array_equal = np.array_equal
_len = len
_sigma = synthetic.group_mean_sigma
# lesson06 is watched too: its _log_uniform (and SEED) serve this check, as when 06.4 lived there.
_WATCHED = (_group_release, lesson06)
_matched_rows = _group_release.matched_rows
_rank_shift_pair = _group_release.rank_shift_pair

_core.FORBIDDEN["06.4"] = _SOLVERS


def _call(exercise_id, answer, *args):
    return _core.student_call(exercise_id, _THIS, answer, *args, extra_modules=_WATCHED)


def _call06(function, *args):
    return _core.student_call("06.4", _THIS, function, *args, extra_modules=_WATCHED)


# --------------------------------------------------------------------------------------- 06.4
def _release(answer, X, l, sigma, rng) -> np.ndarray:
    copy = X.copy(order="K")  # the layout kept (a Fortran-ordered case)
    out = _call("06.4", answer, copy, l, sigma, rng)
    if not np.array_equal(copy, X):
        raise CheckFailed("your function changed the data it was given; shuffle indices, not the records.")
    try:
        out = np.asarray(out, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed(f"it should return an array of group means, got {type(out).__name__}.") from None
    expected_shape = (len(X) // l, X.shape[1])
    if out.shape != expected_shape:
        raise CheckFailed(f"for {len(X)} records with {X.shape[1]} features and l={l} it should return "
                          f"{expected_shape[0]} noisy means (every group has at least l records), got shape {out.shape}.")
    return out


def _shape_cases(seed: int):
    rng = _default_rng(seed)
    cases = [(10, 10, 1), (7, 1, 2)]
    for _ in range(4):
        l = int(rng.integers(2, 30))
        cases.append((l * int(rng.integers(1, 6)) + int(rng.integers(1, l)), l, int(rng.integers(1, 6))))
    return cases


NOISE_CALLS = 400
#: (records, features, sigma) of the far-tail tests: one release of 1,280,000 noise draws in groups of one.
TAIL_CASE = _group_release.TAIL_CASE


def _noise_cases(seed: int):
    """(records, features, l, sigma, calls) of the noise test: seven fixed sizes (small and large n, l = 1,
    l >= 100, a single group, and 500 records with sigma 1e-6 to 1e-5 and 1e3 to 1e4), then ten drawn
    from ``seed``, one in each tenth of the log ranges (a factor 2.35): n from 2 to 10,000, l from 1 to
    10,000 (at most n) and, in shuffled orders, 1 to 64 features and sigma from 1e-6 to 1e4 (one case in
    every decade); calls enough for 4,000 values, or as many as 300,000 record-features allow (3 at least); last,
    2 calls on 1,000,000 records of one feature in groups of 10 to 20 (an answer exact, or short of noise,
    above some size or beyond some number of groups up to 50,000 fails there)."""
    rng = _default_rng([seed, 5])
    large_l = int(rng.integers(100, 400))
    single = int(rng.integers(2, 300))
    cases = [(200, 3, 10, 0.2, NOISE_CALLS), (100_000, 2, 50, _log_uniform(rng, 1e-3, 1e-2), 30),
             (1_000, 2, 1, _log_uniform(rng, 10, 100), 50),
             (large_l * int(rng.integers(8, 20)) + int(rng.integers(0, large_l)), 2, large_l,
              _log_uniform(rng, 0.01, 1), 100),
             (single, 2, single, _log_uniform(rng, 0.01, 10), NOISE_CALLS)]
    extremes = _default_rng([seed, 13])
    cases += [(500, 2, 5, _log_uniform(extremes, 1e-6, 1e-5), 20), (500, 2, 5, _log_uniform(extremes, 1e3, 1e4), 20)]
    strata = 10
    dims, decades = rng.permutation(strata), extremes.permutation(strata)
    for stratum in range(strata):  # every tenth of the log ranges of n and l (a factor 2.35), and of dim
        n = int(_exp(_log(2) + (stratum + rng.random()) / strata * _log(10_000 / 2)))
        l = min(n, int(_exp((stratum + rng.random()) / strata * _log(10_000))))
        dim = min(64, int(_exp((dims[stratum] + rng.random()) / strata * _log(65))))
        calls = max(3, min(math.ceil(4_000 / ((n // l) * dim)), 300_000 // (n * dim)))
        cases.append((n, dim, l, 10.0 ** (decades[stratum] - 6 + rng.random()), calls))
    far = _default_rng([seed, 14])  # far beyond the other sizes: 1,000,000 records, 50,000 to 500,000 groups
    cases.append((1_000_000, 1, int(far.integers(10, 21)), _log_uniform(far, 1e-3, 1.0), 2))
    return cases + _beyond_cases(seed)


def _beyond_cases(seed: int):
    """(records, features, l, sigma, calls) beyond the stratified ranges (referee s36rA): groups of l = 10,000 to
    40,000 and 40,000 to 160,000 records (2 or 3 groups, 2 features), 65 to 400 and 1,500 to 3,000 features with
    l = 2 to 10, and sigma 1e-9 to 2e-9 and 5e6 to 1e7 (an answer exact below a sigma, or capping sigma, between
    them fails)."""
    rng = _default_rng([seed, 15])
    cases = []
    for low, high in ((10_000, 40_000), (40_000, 160_000)):
        l = int(_log_uniform(rng, low, high))
        cases.append((l * int(rng.integers(2, 4)) + int(rng.integers(0, l)), 2, l, _log_uniform(rng, 1e-3, 1.0), 20))
    for low, high in ((65, 400), (1_500, 3_000)):
        n, dim = int(rng.integers(20, 60)), int(_log_uniform(rng, low, high))
        cases.append((n, dim, int(rng.integers(2, 11)), _log_uniform(rng, 1e-2, 10), 3))
    for sizes, sigmas in (((300, 480), (1e-9, 2e-9)), ((520, 700), (5e6, 1e7))):  # sizes: not the other cases' 500
        cases.append((int(rng.integers(*sizes)), 2, 5, _log_uniform(rng, *sigmas), 20))
    return cases


def _stacked(outputs, calls: int, n: int, l: int, dim: int) -> np.ndarray:
    """The outputs of ``calls`` releases of n records of ``dim`` features as one array, or a hint."""
    try:
        releases = _asarray(outputs, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailed("it should return an array of group means of the same shape every time.") from None
    if releases.shape != (calls, n // l, dim):
        raise CheckFailed(f"for {n} records with {dim} features and l={l} it should return {n // l} noisy "
                          f"means of {dim} coordinates every time.")
    return releases


def _check_no_repeats(releases: np.ndarray, where: str) -> None:
    """Symptoms that continuous noise never shows (probability 0), each named by its own hint, in order:
    an output equal to the noiseless mean 0.5, the same release on every call, the same noise on two groups, outputs exactly on 0 or 1 (the
    output clipped to the data's range) and one value taken five times or more (a point mass)."""
    calls, groups = releases.shape[0], releases.shape[1]
    exact = releases == 0.5
    if bool(exact.any()):
        share = "every output is" if bool(exact.all()) else f"{int(exact.sum())} of {exact.size} outputs are"
        raise CheckFailed(f"{where} {share} exactly the true group mean 0.5, without noise: add Gaussian noise to "
                          "every coordinate of every group mean, on every call (property: no noiseless output).")
    if calls > 1 and bool(np.all(releases == releases[:1])):
        raise CheckFailed(f"{where} every call returns the same release again and again (memoised, or noise from a "
                          "fixed seed): draw fresh noise from rng on every call (property: fresh noise).")
    if groups > 1 and bool(np.any(np.all(releases[:, 1:] == releases[:, :1], axis=2))):
        raise CheckFailed(f"{where} two groups of one release get the same noisy mean, so the same noise: draw a "
                          "separate Gaussian value for every group (property: independent groups).")
    if bool(np.any((releases == 0.0) | (releases == 1.0))):
        raise CheckFailed(f"{where} some outputs are exactly 0 or 1: the output looks clipped to the data's range. "
                          "Clipping the output (np.clip(release, 0, 1)) is valid post-processing and stays private, "
                          "but this check needs the unclipped noisy means: return them, and clip afterwards.")
    _, counts = np.unique(releases, return_counts=True)
    if _len(counts) and int(counts.max()) >= 5:
        if bool(np.all(releases == releases.astype(np.float32))):
            raise CheckFailed(f"{where} one output value occurs {int(counts.max())} times: your outputs are float32 "
                              "numbers (about 7 significant digits), and rounding the noise that coarsely makes "
                              "values repeat when sigma is small. Compute and return the means in float64 "
                              "(property: no point masses).")
        raise CheckFailed(f"{where} one output value occurs {int(counts.max())} times: the noise has a point mass "
                          "(clipped, rounded or reused draws), which continuous Gaussian noise never has "
                          "(property: no point masses).")


def _data_dependence(answer, first, second, l, generator, what, replaced: int = 1) -> None:
    """Fail with the hint for two neighbours whose releases (same rng, sigma 0.05) differ in several group
    means: the grouping depends on the values if, with sigma 1e-12, more rows than the ``replaced`` records still
    differ (row by row: a grouping by rank shifts records from group to group, so the set of means barely changes),
    else the noise."""
    before = _release(answer, first, l, 1e-12, _default_rng(generator))
    after = _release(answer, second, l, 1e-12, _default_rng(generator))
    if int(np.any(np.abs(before - after) > 1e-9, axis=1).sum()) > replaced:
        raise CheckFailed(f"{what} Your groups (or the order of the records you split) depend on the values "
                          "(sorted by a coordinate, a norm or a projection, "
                          "clustered, grouped with nearest neighbours, duplicate rows dealt out first, or leftover "
                          "records placed by their values), so with the same rng one record moves many group means "
                          "(property: data-independent grouping, as the text asks: one replaced record may change one "
                          "group mean, no more). Such a grouping is not private, unless a uniformly random partition "
                          "is drawn after the value-dependent step: a sort followed by a uniform shuffle is private, "
                          "but it still moves many means for the same rng, which the text rules out. Choose the "
                          "groups from a permutation of the row positions drawn from rng alone, leftovers included, "
                          "before looking at the values.")
    raise CheckFailed(f"{what} With sigma=1e-12 only the replaced records' means change, so your groups are fine but your noise "
                      "follows the data (its scale read from the data's spread or range, or draws that depend on "
                      "the values). sigma is fixed by the privacy calibration before the data are seen: add noise "
                      "of standard deviation sigma, never rescaled by the data (property: data-independent noise).")


#: Rounds of the shared-generator stage (:func:`_check_shared_generator`): 9 inputs called in turn, 270 calls.
SHARED_ROUNDS = 30


def _shared_cases(seed: int):
    """(X, l, label): constant records (so every group mean is the constant, exactly, in float32 too) of several
    constants, dtypes and layouts: float64, float32 (two shapes), Fortran order, all zeros, int64, uint8 and bool."""
    rng = _default_rng([seed, 13])
    n = int(rng.integers(30, 60))
    return [(np.full((n, 2), 0.25), 4, "float64 records of 0.25"), (np.full((n, 2), 0.75), 4, "float64 records of 0.75"),
            (np.full((n, 2), 0.5, dtype=np.float32), 4, "float32 records of 0.5"),
            (np.full((n, 3), 0.125, dtype=np.float32), 5, "float32 records of 0.125, 3 features"),
            (np.asfortranarray(np.full((n, 2), 0.375)), 4, "Fortran-ordered records of 0.375"),
            (np.zeros((n, 2)), 4, "records of 0.0"),
            # referee s35rca: integer records (binary data in [0, 1]^D) were never called
            (np.ones((n, 2), dtype=np.int64), 4, "int64 records of 1"), (np.zeros((n, 3), dtype=np.uint8), 5,
                                                                        "uint8 records of 0, 3 features"),
            (np.ones((n, 2), dtype=bool), 4, "boolean records of True")]


def _check_shared_generator(answer, seed: int) -> None:
    """Call the answer on 9 constant datasets in turn, :data:`SHARED_ROUNDS` rounds, from one generator: noise
    reused or negated between different data on one generator, or left out for float32, Fortran-ordered,
    integer or boolean records, fails (no exact means, no repeated or mirrored draw, Gaussian noise, no correlation at lags 1-20
    or one call apart; every other stage gives each dataset its own generator)."""
    generator = _default_rng([seed, 13, 1])
    sigma = _log_uniform(_default_rng([seed, 13, 2]), 0.01, 1.0)
    noise, orders = [], _default_rng([seed, 13, 6])  # rows in any order (referee s39rE D7)
    for _ in range(SHARED_ROUNDS):
        for X, l, label in _shared_cases(seed):
            out = _release(answer, X, l, sigma, generator)
            if np.any(out == float(X.flat[0])):
                raise CheckFailed(f"With one generator shared by 9 datasets called in turn ({label}, l={l}, sigma="
                                  f"{sigma:.3g}), a group mean came out exact (property: noise for every input): add "
                                  "Gaussian noise to every coordinate of every mean, whatever the dtype or layout.")
            noise.append(_group_release.rows_shuffled((out[None] - float(X.flat[0])) / sigma, orders).ravel())
    z = np.concatenate(noise)
    where = f"With one generator shared by 9 constant datasets called in turn ({SHARED_ROUNDS} rounds, noise in sigmas),"
    _stats.check_fresh_noise(z, 0.0, 1.0, "gaussian", where)
    _stats.check_no_mirrors(z, 0.0, 1.0, where)
    _sweeps.check_independent_calls([z], where, lags=tuple(range(1, 21)) + (_len(noise[0]),))
    _stats.check_gaussian_noise(z.reshape(-1, 1, 1), where)


def _mixed_sigma_cases(seed: int):
    """(X, l, sigma) of the mixed round: constant records of 0.25 and 0.75, l = 4 and 5, sigma 1 and 3 times a
    base (0.01 to 1), each setting varied on its own and together."""
    sigma = _log_uniform(_default_rng([seed, 13, 3]), 0.01, 1.0)
    n = int(_default_rng([seed, 13, 4]).integers(30, 60))
    first, second = np.full((n, 2), 0.25), np.full((n, 2), 0.75)
    return [(first, 4, sigma), (first, 4, 3 * sigma), (first, 5, sigma), (second, 4, 3 * sigma), (second, 5, sigma)]


def _check_mixed_sigmas(answer, seed: int) -> None:
    """The mixed round (referee s36rA): 5 inputs varying sigma, l and the data called in turn for SHARED_ROUNDS rounds
    from one generator. Standardised noise repeated or mirrored, to 16 float spacings of 0.75 in sigmas, fails: a
    correct answer has such a pair among the 2,000 to 3,900 draws with probability about 2e-6 (8e6 pairs, each
    within 2e-13 sigmas with probability 2e-13)."""
    generator = _default_rng([seed, 13, 5])
    z = []
    for _ in range(SHARED_ROUNDS):
        for X, l, sigma in _mixed_sigma_cases(seed):
            z.append(((_release(answer, X.copy(), l, sigma, generator) - X[0, 0]) / sigma).ravel())
    z = np.sort(np.abs(np.concatenate(z)))
    base = _mixed_sigma_cases(seed)[0][2]
    pairs = int((np.diff(z) <= 16 * np.spacing(0.75) / base).sum())
    if pairs:
        raise CheckFailed(f"With one generator shared by 5 inputs called in turn (records of 0.25 and 0.75, l = 4 and "
                          f"5, sigma {base:.3g} and {3 * base:.3g}; {SHARED_ROUNDS} rounds): {pairs} noisy means carry "
                          "the same noise as another, or its negative, in sigmas (property: fresh noise for every "
                          "call, whatever sigma). Draw new noise in every call; never rescale an earlier draw.")


@exercise("06.4", title="A random-grouping release that passes the audit", answer_name="random_group_release")
def check_random_group_release(answer, seed: int = SEED) -> None:
    """A correct answer leaves X unchanged and returns len(X) // l noisy means of D coordinates (also
    when l does not divide len(X), for l = 1 and len(X) = l); draws everything from ``rng`` (same seed,
    same release); adds to every coordinate of every mean its own N(0, sigma^2) draw (releases of
    constant data of 200, 100,000 and 1,000 records (l = 10, 50, 1; sigma 0.2, 1e-3 to 1e-2, 10 to 100),
    of 800 to 8,000 records in groups of l = 100 to 400 (sigma 0.01 to 1), of a single group (n = l,
    2 to 300; sigma 0.01 to 10), of 500 records with sigma 1e-6 to 1e-5 and 1e3 to 1e4, and ten drawn from
    ``seed``, one in each tenth of the log ranges of n (2 to 10,000), l (1 to n) and the features (1 to 64)
    and one in each decade of sigma from 1e-6 to 1e4, so that noise skipped or shrunk beyond some feature,
    or for n, l or sigma in a range of a factor 2.35 (10 for sigma), fails), and 2 calls on 1,000,000 records
    of one feature (l = 10 to 20: no noise above a size fails): no release repeated across
    calls, no noisy mean shared by two groups, no two outputs averaging to 0.5 (mirrored noise, any lag or
    group), no more outputs within 1e-3 or 1e-2 sigma of 0.5 than Gaussian noise puts there,
    no output exactly on 0 or 1 (an output clipped to the data's range, valid post-processing, gets a
    hint asking for the unclipped means) and no value taken 5 times or more (a point mass, which
    continuous noise never has: clipping the noise at 3.5 sigma or less piles values on the bounds);
    centre, SD within 6.5 standard errors, KS fit, no correlation between coordinates, between groups
    or between calls (5.5 standard errors; the rows of each release first put in a random order of the check's, so
    rows sorted afterwards, post-processing, pass: referee s39rE D7; between calls also each coordinate's sum over
    a call's groups, pooled over the cases, lags 1-3 calls), tails pooled over every case (noise truncated at 4 sigma
    fails), mean square 1 and excess kurtosis 0 of the 1,280,000 draws below (each within 5 standard errors, a
    correct answer fails with probability about 1.1e-6: a scale mixture of 0.9 and 1.095 sigma fails, 26 standard
    errors), at least 46 of 1,280,000 draws beyond 4 sigma (one release of 1,000 constant records of 1,280
    features, l = 1; about 81 expected, fewer with probability 9e-6: a sum of 12 uniforms, 22 expected,
    fails) and at least one beyond 4.5 sigma (about 8.7 expected, none with probability below 2e-4): noise
    truncated at
    4.5 sigma fails; it would cost a delta of about 7e-6 at the lesson's mu = 0.24 (epsilon = 1;
    P(4.26 < Z < 4.5)) and 4e-3 at mu = 1.85 (epsilon = 10), far above the lesson's delta = 1e-6.
    Truncation at c > 4.5 sigma passes with probability 1 - exp(-2.56e6 (Q(4.5) - Q(c))): 0.54 at 4.52, 0.84 at
    4.55, 0.96 at 4.6, 0.9987 at 4.8, 1 - 3e-4 at 5 (see Limits)); the same noise scale on data that are not constant
    (five datasets
    whose features spread by 1e-9 to 1, sigma 1e-6 to 1e4, far above a group mean's spread: the SD of every
    feature's noise within 6.5 standard errors of sigma, so a scale read from the data's spread or range
    fails); keeps every record, leftovers included, in exactly one group of size
    floor or ceil of n / k (one marked record among 59, l = 10, 30 releases); groups records at random
    (data sorted in two halves give almost no pure groups) and keeps the data's mean; groups records
    independently of their values: with the same rng, replacing one record (of 60, 2 features, l = 6; 300
    to 900, 1-2 features; 40 to 100, 3 to 6 features; 1,000 to 2,500, 3 to 8 features; 200 to 600 with
    duplicate rows, one made distinct or a distinct one duplicated; and, varied records beyond those sizes
    (:func:`_group_release.large_independence_cases`), in each of 14 strata of features from 1 to 3,000 (1, 2, 3,
    4, 5-6, 7-8, 9-12, 13-16, 17-32, 33-64, 65-128, 129-400, 401-1,000, 1,001-3,000) a drawn count with the
    largest size (records x features = 1,000,000, so 1,000,000 records of 1 feature, 500,000 of 2, 333 of 3,000;
    four records replaced at once, at most four means may change) and one size from 2,500 to an 8th of it, 20
    to 60 records of 9 to 64 and 20 to 40 of 65 to 3,000 features; n % l != 0 beyond the first) by one
    whose rank moves far (lowest first or second coordinate to the top, the record nearest the
    centre to a corner, lowest sum of coordinates to the opposite corner) changes at most one noisy
    group mean (sorting by a coordinate, a norm, a projection or an angle, round-robin or in chunks, and
    clustering, nearest neighbours or ties dealt first all change several; if several rows still differ
    with sigma 1e-12 the hint names the grouping, else the noise), and moving any one record of 23 to 51
    (n % l != 0) from 0.001 to 0.999 changes at most one (leftovers joined to the nearest group or dealt in
    value order change two); draws the grouping from rng (60 distinct 1-D values, sigma 1e-12,
    four generators: groupings all the same fail, with a hint that a fixed partition is private but
    not the random groups the exercise asks for); and is not refuted at epsilon = 1 by the lesson's
    audit on the four-corners pair, nor on a rank-shift pair (96 records, first coordinate increasing,
    second alternating 0, 1; the lowest record replaced by one at the top, so every rank shifts: the
    summary is every group's second-coordinate mean, which has the same law on both datasets for
    groups chosen independently of the values, and swaps 0 and 1 for a sorted round-robin grouping).
    Shapes and seeds come from ``seed``.

    Then nine constant datasets (float64, float32 in two shapes, Fortran-ordered, all zeros, int64 ones, uint8
    zeros, boolean True) are released in turn for 30 rounds from one shared generator
    (:func:`_check_shared_generator`): noise reused or negated between different data, or left out for a
    dtype or layout, fails. Then 5 inputs varying sigma (1, 3 times), l (4, 5) and the data (0.25, 0.75) are
    released in turn for 30 rounds from one generator (:func:`_check_mixed_sigmas`): a standard draw kept when
    sigma changes fails. Beyond the strata (:func:`_beyond_cases`): groups of 10,000 to 160,000 records, 65 to
    400 and 1,500 to 3,000 features with l = 2 to 10, and sigma 1e-9 to 2e-9 and 5e6 to 1e7.

    Limits: no noise only for groups above 160,000 records, beyond 3,000 features with l > 1, for sigma below
    1e-9 or above 1e7, or only in a band of l between 10,000 and 160,000 or of features between 400 and 1,500
    that misses the drawn cases, passes; a grouping from the values only above 1,000,000 records, beyond 3,000
    features, for N records and more of some features with N x features above 1,000,000 (500,000 records of 2
    features, 1,000 of 1,000), for exactly some number of features (or a narrow range) that misses the one drawn
    in its stratum, or in a band of sizes below an 8th of a stratum's largest that misses its drawn size,
    passes; Gaussian noise truncated at c > 4.5 sigma passes with the probability above (0.84 at 4.55): up to
    about 4.9 sigma it costs a delta above the lesson's 1e-6 at mu = 0.24 (1.8e-6 at 4.8, P(4.56 < Z < 4.8)),
    and catching it would take some 10 million more draws (a release of 100 MB or more), while a student draws
    with rng.normal; a scale mixture of Gaussians closer than 0.95 and 1.05 sigma (excess kurtosis below 0.03)
    passes with probability above 0.03, about 5% more epsilon for the smaller part; noise correlated between one
    group and the same row of the next call is seen only through the calls' sums (rows may come in any order:
    z = 0.1 sqrt(about 23,000 sums) = 14 for correlation 0.1 at seed 404; 0.03 gives about 4.6 and can pass).

    Parameters
    ----------
    answer : callable
        The student's ``random_group_release`` (exercise 06.4).
    seed : int, default SEED
        Seed of the test cases.

    Raises
    ------
    CheckFailed
        With a hint that describes the error, when the answer is wrong.
    """
    for n, l, dim in _shape_cases(seed):
        _release(answer, _default_rng([seed, n]).random((n, dim)), l, 0.1, _default_rng(0))

    X = _default_rng([seed, 1]).random((60, 3))
    first = _release(answer, X, 6, 0.1, _default_rng(seed))
    again = _release(answer, X, 6, 0.1, _default_rng(seed))
    if not np.allclose(first, again):
        raise CheckFailed("two calls with generators seeded alike gave different releases: draw all randomness "
                          "(the grouping and the noise) from the rng argument (property: reproducible).")

    # Groups must be random: half the records are 0 and half 1 (in index order). Random groups of 10
    # are pure (all 0 or all 1) with probability 2 * C(50,10)/C(100,10) ~ 0.1%; 100 groups give about
    # 0.1 pure ones, so more than 10 fails a correct answer with probability below 1e-15.
    halves = np.repeat([[0.0], [1.0]], 50, axis=0)
    outputs = _call06(call_repeatedly, answer, 10, halves.copy(), 10, 1e-9, _default_rng([seed, 4]))
    means = np.concatenate([_asarray(o, dtype=float).ravel() for o in outputs])
    if int(((means < 1e-6) | (means > 1 - 1e-6)).sum()) > 10:
        raise CheckFailed("your groups follow the order of the records (or their values), not a random partition: "
                          "shuffle the record indices before splitting them (property: random groups).")
    if _abs(_float(means.mean()) - 0.5) > 1e-6:
        raise CheckFailed("the group means do not average to the mean of the data: is every record in exactly "
                          "one group, and do you divide each sum by its own group's size?")

    # Data-independent groups: with the same generator (so the same draws), a neighbour of X (one record
    # replaced, its rank moved far under any order of the data, or a tie made or broken) must give the same
    # groups, so every group mean but one (the changed record's) comes out exactly the same, noise included.
    # Sorting by a coordinate, a norm, a projection or an angle, then dealing round-robin or in chunks,
    # clustering, nearest neighbours and ties dealt first move several means. The datasets go up to 1,000,000
    # records and 3,000 features, varied (referee s37rA: sorting above 2,500 records or 8 features passed), and
    # none has n % l == 0 (see _group_release.independence_cases).
    for index, (label, X, l, neighbours, replaced) in enumerate(_group_release.independence_cases(seed)):
        generator = [seed, 6] if index == 0 else [seed, 6, index]
        before = _release(answer, X, l, 0.05, _default_rng(generator))
        for other in neighbours:
            moved = _len(before) - _matched_rows(before, _release(answer, other, l, 0.05, _default_rng(generator)))
            if moved > replaced:
                records = "one record" if replaced == 1 else f"{replaced} records"
                _data_dependence(answer, X, other, l, generator, f"on {label} (l={l}), with the same rng, replacing "
                                 f"{records} changed {moved} of the {_len(before)} noisy group means ({replaced} at "
                                 "most may change: the replaced records' groups).", replaced)

    # Leftover records must be grouped at random too: n % l != 0 and few records; every record in turn is
    # moved to 0.001 and to 0.999 with the same rng. A grouping drawn from rng alone changes one group mean;
    # leftovers joined to the nearest group (or dealt in the order of their values) change two or more.
    for index, (X, l) in enumerate(_group_release.leftover_cases(seed)):
        n, left = _len(X), _len(X) % l
        for j in range(n):
            low, high = X.copy(), X.copy()
            low[j], high[j] = 0.001, 0.999
            first = _release(answer, low, l, 0.05, _default_rng([seed, 12, index]))
            moved = _len(first) - _matched_rows(first, _release(answer, high, l, 0.05, _default_rng([seed, 12, index])))
            if moved > 1:
                _data_dependence(answer, low, high, l, [seed, 12, index], f"with {n} records and l={l} ({left} left "
                                 f"over after {n // l} groups of {l}) and the same rng, moving record {j} from a low "
                                 f"to a high value changed {moved} noisy group means (one at most may change).")

    # Random groups: distinct 1-D values, sigma tiny, four different generators: the sets of group means
    # (the groupings) must not all be the same. Two random partitions of 60 records into 10 groups
    # coincide with probability below 1e-40.
    values = _default_rng([seed, 7]).permutation(60)[:, None] / 60.0
    releases = [_release(answer, values, 6, 1e-12, _default_rng([seed, 7, j])).ravel() for j in range(4)]
    if all(_array_equal(r, releases[0]) for r in releases[1:]):
        raise CheckFailed("calls with four different generators return the same release again and again (memoised, "
                          "or noise from a fixed seed): draw the groups and fresh noise from rng on every call "
                          "(property: fresh noise).")
    groupings = [np.sort(r) for r in releases]
    if all(np.allclose(g, groupings[0], rtol=0.0, atol=1e-9) for g in groupings[1:]):
        raise CheckFailed("your groups are the same whatever the generator rng: the grouping ignores rng. A fixed "
                          "partition (by index, say) does not look at the values, so it is private, but the exercise "
                          "asks for groups chosen at random: draw a permutation of the indices from rng and split it "
                          "(property: groups chosen at random).")

    # Noise: constant records, so every group mean is exactly 0.5 and each output is 0.5 + noise. Five
    # fixed cases sweep the sizes and scales: 200 records (3 features, l = 10, sigma 0.2, 400 calls), 100,000
    # records (2 features, l = 50, sigma 1e-3 to 1e-2, 30 calls), 1,000 records in groups of one (l = 1,
    # 2 features, sigma 10 to 100, 50 calls), groups of l = 100 to 400 (100 calls) and a single group
    # (n = l, 400 calls); ten more are stratified over n, l and 1 to 64 features (see _noise_cases): an
    # answer exact or short of noise for some sizes or some features meets one of them.
    z_all = []
    for n, dim, l, sigma, calls in _noise_cases(seed):
        where = f"With sigma={sigma:.6g} on {n} constant records of {dim} features (l={l}),"
        constant = np.full((n, dim), 0.5)
        outputs = _call06(call_repeatedly, answer, calls, constant.copy(), l, sigma, _default_rng([seed, 2, n]))
        n, dim, l, sigma, calls = _noise_cases(seed)[_len(z_all)]
        releases = _stacked(outputs, calls, n, l, dim)
        _check_no_repeats(releases, where)
        noise = _group_release.rows_shuffled((releases - 0.5) / sigma, _default_rng([seed, 2, n, 1]))  # (D7)
        _stats.check_gaussian_noise(noise, where)
        _sweeps.check_coordinate_correlation(noise, where)
        _sweeps.check_independent_calls([noise.ravel()], where, lags=(1, dim, (n // l) * dim))
        _stats.check_fresh_noise(releases, 0.5, sigma, "gaussian", where)
        _stats.check_near_answer(releases, 0.5, sigma, "gaussian", where)
        _stats.check_no_mirrors(releases, 0.5, sigma, where)
        z_all.append(noise)
    _sweeps.check_pooled_tails(z_all, "gaussian", "Over every case,")
    # Between calls, in any row order (rows sorted afterwards are correct, D7): each coordinate's sum over a call's
    # groups, one sequence over the calls per case and coordinate, pooled (noise correlated 0.1 with the call before)
    _sweeps.check_independent_calls([c for z in z_all for c in z.sum(axis=1).T / _sqrt(z.shape[1])],
                                    "Over every case (each call's noise summed over its groups),", (1, 2, 3), "call")
    _check_shared_generator(answer, seed)
    _check_mixed_sigmas(answer, seed)

    # The noise scale may not follow the data: records that spread by 1e-9 (nearly constant) to 1, per feature,
    # with sigma from 1e-6 to 1e4 and far above the spread of a group mean (_group_release.spread_cases).
    for index, (X, l, sigma, calls) in enumerate(_group_release.spread_cases(seed)):
        outputs = _call06(call_repeatedly, answer, calls, X.copy(), l, sigma, _default_rng([seed, 11, index]))
        X, l, sigma, calls = _group_release.spread_cases(seed)[index]
        (n, dim), spreads = X.shape, X.max(axis=0) - X.min(axis=0)
        where = (f"With sigma={sigma:.3g} on {n} records of {dim} features spread by "
                 f"{np.array2string(spreads, precision=1)} (l={l}),")
        releases = _stacked(outputs, calls, n, l, dim)
        noise = _group_release.rows_shuffled((releases - X.mean(axis=0)) / sigma, _default_rng([seed, 11, index, 1]))
        sd = noise.reshape(-1, dim).std(axis=0)
        worst = int(np.argmax(np.abs(sd - 1)))
        if _abs(_float(sd[worst]) - 1) > 6.5 / _sqrt(2 * calls * (n // l)):
            raise CheckFailed(f"{where} the noise has standard deviation {_float(sd[worst]):.3g} sigma on feature "
                              f"{worst} (spread {_float(spreads[worst]):.1g}), where on constant records it had "
                              "sigma: your noise scale seems to follow the data (their spread, range or values). "
                              "sigma is fixed by the privacy calibration before the data are seen; add noise of "
                              "standard deviation sigma to every coordinate, never rescaled by the data (property: "
                              "data-independent noise scale).")
        _stats.check_gaussian_noise(noise, where)

    # Far tails: one release of 1,000 constant records of 1,280 features in groups of one gives 1,280,000
    # noise draws; a Gaussian puts about 8.7 of them beyond 4.5 sigma, and none at all fails (probability
    # e^-8.7 < 2e-4 for a correct answer). Noise truncated at 4.5 sigma (or redrawn until inside) fails: at
    # the lesson's mu = 0.24 (epsilon = 1) it costs a delta of 7e-6, at mu = 1.85 (epsilon = 10) 4e-3, both
    # far above the lesson's delta = 1e-6.
    n, dim, sigma = TAIL_CASE
    far = (_release(answer, np.full((n, dim), 0.5), 1, sigma, _default_rng([seed, 9])) - 0.5) / sigma
    n, dim, sigma = TAIL_CASE
    signed, far = far, np.abs(far)
    beyond, floor = int((far > 4.0).sum()), _group_release.TAIL_FLOOR_BEYOND_4
    if beyond < floor:
        raise CheckFailed(f"With sigma={sigma} on {n} constant records of {dim} features (l=1), only {beyond} of the "
                          f"{n * dim:,} noisy means are more than 4 sigma from the true mean, where Gaussian noise "
                          f"puts about {_group_release.TAIL_EXPECTED_BEYOND_4:.0f} (fewer than {floor} happens with "
                          "probability below 1e-5): the noise has thinner tails than a Gaussian, as a sum of "
                          "uniforms or noise bounded or redrawn near 4 sigma has. Draw it with rng.normal(0, sigma) "
                          "(property: tails).")
    if int((far > 4.5).sum()) == 0:
        raise CheckFailed(f"With sigma={sigma} on {n} constant records of {dim} features (l=1), none of the "
                          f"{n * dim:,} noisy means is more than 4.5 sigma from the true mean, where Gaussian noise "
                          "puts about 9: the noise looks truncated (redrawn or cut beyond some multiple of sigma). "
                          "Truncation at 4.5 sigma costs a delta of about 7e-6 at epsilon = 1 (mu = 0.24), far "
                          "above the lesson's 1e-6: add untruncated Gaussian noise (property: tails).")
    _group_release.check_tail_moments(signed, f"With sigma={sigma} on {n} constant records of {dim} features (l=1),")

    # Leftover records: one record is 1, the others 0; 59 records, l = 10, so 5 groups of 11 or 12.
    # Without noise exactly one mean is 1/11 or 1/12 and the others are 0, whatever the grouping.
    marked = np.zeros((59, 1))
    marked[int(_default_rng([seed, 3]).integers(0, 59))] = 1.0
    outputs = _call06(call_repeatedly, answer, 30, marked.copy(), 10, 1e-12, _default_rng([seed, 3]))
    for out in outputs:
        means = _asarray(out, dtype=float).ravel()
        nonzero = means[np.abs(means) > 1e-6]
        if _len(nonzero) == 0:
            raise CheckFailed("with 59 records and l=10 a record sometimes ends up in no group (property: every "
                              "record used): the n % l leftover records must join the groups, not be dropped.")
        if _len(nonzero) > 1 or not any(_abs(nonzero[0] - 1 / size) < 1e-6 for size in (11, 12)):
            raise CheckFailed("with 59 records and l=10 the groups are not 5 groups of 11 or 12 records, each record "
                              "in exactly one (property: sizes as equal as possible). Split a permutation of "
                              "the indices into len(X) // l parts.")

    # The audit: the four-corners pair on which clustering flips. With sigma calibrated for epsilon = 1
    # (delta = 1e-5), a correct random grouping is refuted with probability <= 5% at most (the audit's
    # confidence); in practice its bound is 0: measured over 1,000 seeds by the benchmark.
    A, B = synthetic.four_corners_pair()
    sigma = _sigma(48, 2, 1.0, 1e-5)

    def spread(dataset, size, generator):
        outs = call_repeatedly(answer, size, dataset.copy(), 48, sigma, generator)
        return _array([_asarray(o, dtype=float).max(axis=0) - _asarray(o, dtype=float).min(axis=0) for o in outs])

    result = _call06(lambda: audit_epsilon(spread, A, B, n_samples=3000, rng=seed, delta=1e-5))
    if result.refutes(1.0):
        raise CheckFailed(f"the audit refutes epsilon = 1 for your release ({result}): either the grouping depends "
                          "on the data, so one changed record moves more than one group mean (property: "
                          "data-independent grouping), or the noise is missing or smaller than sigma on some "
                          "coordinates or for some sizes (l = 48, 2 features here; property: noise on every "
                          "coordinate).")

    # The audit on a rank-shift pair: the replaced record moves every other record one rank down, so a
    # grouping by rank (sorted, then dealt round-robin) swaps the groups' second-coordinate means (0 and 1).
    # That coordinate is the same in A and B, so a random grouping's summary has the same law on both.
    A, B = _rank_shift_pair()

    def second_coordinate(dataset, size, generator):
        outs = call_repeatedly(answer, size, dataset.copy(), 48, sigma, generator)
        return _array([_asarray(o, dtype=float)[:, 1] for o in outs])

    result = _call06(lambda: audit_epsilon(second_coordinate, A, B, n_samples=2000, rng=_default_rng([seed, 8]),
                                           delta=1e-5))
    if result.refutes(1.0):
        raise CheckFailed(f"the audit refutes epsilon = 1 for your release ({result}) on a pair where replacing one "
                          "record shifts the rank of every other record: your groups follow an order of the data "
                          "(sorted by a coordinate, a norm or a projection), so one record moves every group mean "
                          "(property: data-independent grouping); or the noise is missing or smaller than sigma "
                          "(l = 48, 2 features here).")
