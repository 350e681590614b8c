"""The power of the checks' statistical tests against the failures they are there to catch.

One table per lesson: each row names a non-private or wrong answer (the alternative), the check case that
meets it, and how often it is rejected (computed, simulated with ``benchmarks/check_power.py``, or measured
on the wrong-answer corpus), with the limit of what a black-box check can see. The tests themselves (tails,
shape, centre, independence between calls, fresh noise) are in :mod:`mic_dp_helpers.checks._noise_tests`
and are re-exported here, where the checks call them.
"""

from __future__ import annotations

from mic_dp_helpers.checks._noise_tests import (  # noqa: F401  (re-exported: the checks call _stats.*)
    KS_P_VALUE,
    TAIL_FAILURE,
    as_numbers,
    check_fresh_noise,
    check_gaussian_noise,
    check_laplace_noise,
    check_near_answer,
    check_no_mirrors,
    gaussian_tail_threshold,
    laplace_tail_threshold,
)


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
     "one call at each of 24 epsilons, log-uniform over 0.01 to 12, on max(2,000, 30 / (1 - p)) "
     "people (at most 1,000,000): an exact answer keeps all where a correct one expects 30 flips (none: "
     "e^-30; the test needs 25 expected); keep shares of true yes and true no z-tested at 5",
     "a band narrower than a grid step (a factor 1.344; one random offset shared by the 24 points since referee "
     "s35rcb) can fall between the points; above epsilon about 10.4 "
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
    ("07.1", "coins reused or memoised between calls only above a size (referee redB: coins cached per size above "
             "150,000 people)",
     "two calls on the same 1,000,001 to 1,200,000 people: corr(kept flags of call 1, call 2) x sqrt(n) against "
     "6.5 (a correct answer: 8e-11); reused coins give about 1,000 (1 by construction), coins copied from the "
     "previous call for a share c of the people about 1,000 c (seen from c about 0.7%)",
     "coins reused only after more calls than the check makes (about 6,000 in all) cannot be seen"),
    ("07.1", "coins shared between person i and person i + d only at high epsilons (referee redB: i and i + n/2 "
             "above epsilon 5; the lag test runs at epsilon 1, and flips are too rare for it at high epsilon)",
     "one call each at epsilon 6 and 10 on the 1,000,001-1,200,000 people and one fewer (one size odd, one even: "
     "referee redB, persons 2i and 2i + 1 sharing a coin only for odd sizes passed too; about 2,700 and 50 flips): the pairs "
     "of flips at each distance, against the 1e-11 upper quantile of Poisson(k^2 / n) (a correct answer: below "
     "1e-5 over the 10^6 distances); shared coins give about k / 2 pairs at one distance (1,350 and 25): 1",
     "sharing only between epsilon 1 and 6 or 6 and 10 is seen only where another case has enough flips "
     "(the distribution cases at 0.5-4 and 6); above epsilon about 12 too few flips for any test"),
    ("07.1", "a wrong chance of keeping the truth at high epsilon (the flip count of the epsilon 6 and 10 calls, "
             "r33c3)", "epsilon 6 (about 2,720 flips, accepted 2,395-3,058): a flip rate 15% off 0.89-0.96, 20% off 1, "
             "10% off 0.11-0.14; epsilon 10 (about 50, accepted 12-101): twice the rate 0.43, 2.5 times 0.98 "
             "(binomial, computed by referee fix26)", "Binomial(size, 1 - keep) outside its 1e-10 tails at each "
             "call; smaller errors are left to the distribution cases at epsilon 0.5-6"),
    ("07.3", "exact argmax, or noise reused between calls, above 100,000 candidates (referee redB: exact above "
             "100,000 passed; the largest case had 100,000)",
     "16 calls on 1,000,001 to 1,100,000 candidates (scores uniform on [0, 4], epsilon 1): the randomized PIT of "
     "each choice under the exponential mechanism, KS test at p 1e-6, and at most one repeated choice. The exact "
     "argmax (PIT about 2e-6 each time) fails the KS test with p about 1e-14, the same noise every call the repeat "
     "test (15 repeats; a correct answer repeats twice with probability below 1e-8): both 1 by construction",
     "above 1,000,000 candidates this test is weak against a distorted choice (an outside referee's simulation: "
     "all 16 choices in the best 50% of the chance give p about 1e-4, caught in 1.1% of runs; the best 40% in "
     "29%; 30% or less always), and Gumbel noise of half the scale there was never caught in 5,000 runs (the "
     "100,000-candidate cases test the scale and see sampling among the best down to about 90%); an answer exact only above 1,100,000 candidates, or only after more calls "
     "than the check makes (about 90,000), passes"),
    ("07.4", "a quantile range taken from the data (v.min() as its lower end)",
     "30 values in [50, 95], level 0.1: the DP quantile lands below the minimum about half the time; "
     "such an answer never does (KS and a share test)", "none at these sizes"),
    ("07.4", "exact mean below a size (referee: fewer than 5 values)",
     "cases with 1, 2, 3 and 4 values (n is public; 300 calls each): a noise-free mean is caught at once",
     "none at these sizes"),
    ("07.4", "exact bound or mean above a size or epsilon",
     "cases with 20,000 values (100 calls), 20,001-24,000 values (1,000 calls: check_noise_size sees a noise scale "
     "off by 0.7x or 1.43x with probability 1 - 1e-8), 3,000 values at epsilon 0.02 (the top interval is drawn "
     "often: a bound capped at the data's maximum fails the KS test of the bounds), epsilons 0.02, 20 and 30; "
     "noise-free releases are caught at once",
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
     "pooled tails over all 12,212 releases: the largest |z| must reach 6.97 scales (check_pooled_tails; a "
     "correct answer fails with probability TAIL_FAILURE = 1e-5): clipped or truncated at c <= 6.97 scales, 1; at "
     "c = 7.0, 0.69; 7.1, 0.24 (exp(-N (e^-6.97 - e^-c)))",
     "clipping beyond 7.2 scales is seen with probability below 0.1 (the 13,212 releases before the "
     "20,001-24,000-value case's 2,000 calls became 1,000 had to reach 7.05: 7.0 scales, 1; 7.1, 0.54)"),
    # Referee rt0709: answers exact, with shared coins or too few flips only for 20,000-60,000 people passed 07.1;
    # exact only for bound_share <= 0.2, public_high < 100, levels above 0.99 or 3,001-15,000 values, and 10% too
    # little noise or a scale upper / (n + 1), passed 07.4. All "1" rows below hold by construction.
    ("07.1", "exact, coins shared between i and i + d, or a wrong keep rate, in a band of sizes (referee rt0709: "
             "exact for 20,000-60,000 people)",
     "size sweep (lesson07._size_sweep): 40 sizes log-uniform over 2 to 1,000,000 with one shared random offset "
     "(referee s35rcb: per-point jitter left gaps of a factor 1.93), epsilon "
     "log-uniform over 0.05-1, calls for 40 expected flips: all kept fails (a correct answer: below e^-40); keep "
     "shares z-tested at 5.5 (80 tests, 3e-6 in all); coins of i and i + d from 2,000 people: every lag with 300 "
     "expected double flips to 150,000 people, lags 1-32 and n/2, n/3, n/4, n/5, n/8, n/10 above, |z| > 7 (about "
     "600,000 lags, 2e-6 in all). Exact or shared coins in a band [a, b] with (b + 1) / a above a grid step (a "
     "factor 1.388): 1; 1.1 times epsilon from 300,000 people: z about 30, 1",
     "a band narrower than a factor 1.388; above 150,000 people, coins shared at a distance not in that list; "
     "twice epsilon below 10 people (40 expected flips per size: z about 2; referee s35rcb)"),
    ("07.1", "a flip count that varies too little: exactly round(n (1 - p)) flips at random positions above a "
             "size (referee s35rcb: above 12,000 people)",
     "lesson07_sweeps.check_flip_count_spread: z of each call's flip count from 2,000 people up (about 20 sweep "
     "sizes and the two calls on over 1,000,000 people); every suffix of the calls by size has sum z^2 tested "
     "against chi^2(m)'s lower 1e-7 / (number of suffixes) quantile (a correct answer: below 1e-7 in all; "
     "simulated 4.9e-4 at a 1e-3 family tail). A fixed count above 12,000 or 400,000 people: 1 (sum z^2 below "
     "1e-5); a tenth of the binomial spread above 12,000 people: 1",
     "a fixed count only on over 1,000,000 people, or a spread reduced by less than about half, passes; below "
     "2,000 people only the 200- and 400-call distribution cases test the spread (variance ratio)"),
    ("07.4", "exact mean or bound in a band of sizes, bound shares, public bounds or levels (referee rt0709)",
     "band sweep (lesson07_sweeps.bound_mean_band_sweep): 200 cases, n 1-100,000, epsilon 0.01-30 and public_high "
     "10-100,000 log-uniform, bound_share uniform 0.02-0.98, 1 - level log-uniform 0.001-0.95, one call each: a "
     "mean within 1e-12 relative of the clipped mean, or a bound equal to an exact quantile (NumPy's linear or "
     "midpoint; every other method returns a value) or a value, fails. A band holding 5% of a parameter's range "
     "is met with probability 0.99996, 1 then",
     "a band narrower than about 2% of a range (met with probability 0.98); 200 single calls do not test the "
     "noise's scale in a band (only the pooled Laplace KS test over the 200)"),
    ("07.4", "too little noise: 10% too little, a scale upper / (n + 1), 0.8x for fewer than 10 values",
     "check_noise_size: sum of |noise| / scale is Gamma(N, 1), outside its 1e-8 tails fails; pooled over the "
     "12,212 releases 10% too little noise gives z about 11 (power 1 - 1e-9); per case, upper / (n + 1) at n = 1 "
     "(300 calls) averages 0.5 (1); pooled over the 1,200 releases of 1-4 values, 0.8x gives z about 7 (0.9)",
     "5% too little noise everywhere (z about 5.5, power 0.50); too little noise only in a band of sizes "
     "or parameters the fixed cases miss (the band sweep tests exactness there, not the scale)"),
    ("07.4", "Laplace noise truncated beyond 8 scales (rt0709)", "pooled tails: none",
     "3.4e-4 of Laplace draws lie beyond 8 scales, 4.1 expected among the 12,212 releases: not seen (power "
     "below 0.01)"),
    ("07.3", "1% of the candidates, at random on each call, get no noise (rt0709)", "none",
     "moves each choice's probability by about 0.2% (two candidates a Gumbel scale apart: 0.731 vs 0.729); "
     "seeing it needs about 2 million calls, far beyond the check's"),
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
    # Referee redB: the fixed cases left noise multipliers 4.3-44 (08.2) and 2.3-50 (08.5) and sizes 47-100,000
    # untried, so no noise for 5 < sigma < 40 passed both. _band_sweep: 32 cases, a Latin hypercube on log scales
    # of sigma (0.05-50), C (1e-4-1e4), n (1-200,000) and, in 08.5, q (1e-3-0.999), 4 calls each; a case whose 8
    # values all lie within 0.05 noise sd of the centre fails (a correct answer: 7e-12 per case).
    ("08.2/08.5: no noise in a band of sigma wider than a factor 1.24, of C wider than 1.78 or of n wider than 1.47",
     "band sweep (32 cases x 4 calls): the case in that stratum releases its centre", 1.0),
    ("08.2: half the noise for 2 < sigma < 10 (a fifth of the log range)", "band sweep, pooled amount test", 0.0),
    ("08.2/08.5: half the noise over more than about 58% of the range", "band sweep, pooled amount test (256 draws)", 0.5),
    # Referee redB: a sum of 12 uniforms (bounded at 6 sd, excess kurtosis -0.1) passed the tail and KS tests.
    ("08.2/08.5: noise from a sum of 12 uniforms", "excess-kurtosis test (check_vector_noise, 500,000 draws of the "
     "20,000-coordinate cases): 14 sd against 6", 1.0),
    ("08.2: noise truncated at 5 sd (excess kurtosis about -0.0004)", "excess-kurtosis test: 0.06 sd", 0.0),
    # 08.3 (lesson08_accounting): deterministic, seeded cases; an answer below 0.995 x the lower of fine PLD and
    # RDP (exact at q = 1) fails. Powers below are on the wrong-answer corpus at the check's default seed (referee s35rcb).
    ("08.3: steps capped at 100,000, 120,000 or 150,000", "run of 185,000-200,000 steps: a cap at 150,000 answers "
     "10-13% low (epsilon about sqrt(steps)) where RDP's gap is smaller; limit: a cap above about "
     "150,000-170,000 (by the gap), or above 200,000, passes", 1.0),
    ("08.3: noise multiplier rounded up to 1 decimal", "q = 1, sigma 0.5-0.9 plus 0.003-0.02: epsilon 7-13% low, "
     "RDP's gap there 5-10%; limit: rounding only where q < 1 passes", 1.0),
    ("08.3: q truncated to 4 decimals or to 1 significant figure", "q = d e-4 + 0.7e-4..0.95e-4, sigma 3-4, 150,000-"
     "190,000 steps: RDP answers far below RDP and fine PLD at the true q (seed 2024: 0.197 against 0.217); limit: q cut to 2 significant figures passes (at most 9% of q lost, "
     "inside RDP's gap)", 1.0),
    # Referee s36rB: each passed while no case sampled its range or asked a (q, sigma, steps) twice.
    ("08.3: cached per (q, sigma, steps) whatever the delta, or per (q, sigma, delta) whatever the steps",
     "three triples asked again at a 100 times smaller delta, one at 3 times the steps: the same value twice fails "
     "(1 by construction); a cache keyed without q or sigma passes", 1.0),
    ("08.3: sqrt(steps) extrapolation above 20,000 or 25,000 steps", "q 0.02-0.05, sigma 0.7-1.2, 50,000-150,000 "
     "steps: epsilon grows faster than sqrt(steps) there (answer / lower edge at seeds 2024 and 0-9: 0.67-0.90 from "
     "20,000, 0.71-0.93 from 25,000)", 1.0),
    ("08.3: q in (0.9, 1) treated as 0.9 or 0.88", "q 0.97-0.999, sigma 0.8-1.5 (answer / lower edge at seeds "
     "2024 and 0-9: 0.906-0.996 for 0.9, 0.880-0.966 for 0.88); limit: q lowered by less than about 0.05 (e.g. to "
     "0.95) passed at 4 of seeds 0-9 (inside RDP's gap), and q in (0.999, 1) is not drawn", 1.0),
    ("08.3: epsilon 0 (or one step's) above a noise multiplier of 20 or 25", "sigma 25-60 at q 0.3-0.9 (1 by "
     "construction); limit: a switch above 60, or between 20 and 25 (the large-q case draws 5-20), passes", 1.0),
    ("08.3: noise multiplier floored at 0.5 or 0.4", "sigma 0.25-0.35 at q 0.003-0.03 (answer / lower edge at "
     "seeds 2024 and 0-9: 0.14-0.40 for 0.5, 0.29-0.76 for 0.4); limit: a floor below 0.25 passes", 1.0),
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
     "check_independent_calls, lags 1-20 and half the run, pooled over 9 cases"),
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
    ("09.1", "the globally popular, the earliest or the latest days above a size of log (referee redB: popular "
             "days above 5,000 rows passed; the uniformity tests used logs of at most 3,600 rows)",
     "1 (6,000 on three days against 1,800 +- 35.5: over 110 sd); a nudge towards the popular days (a key "
     "lowered by a constant for them) raising their keep rate from 0.3 to 0.318 puts their sum 6 sd above 5,400 "
     "(power about 1/2; near 1 from 0.325, a key lowered by 0.03; a key lowered by 0.025, rate 0.319, passed once)",
     "_check_choice_at_scale: one call on 126,000 rows (6,000 customers on the same 10 days, 22,000 on days 2, 5 "
     "and 8), per-day counts and the popular days' sum at 6 sd; an answer switching only above 126,000 rows or "
     "28,000 customers passes"),
    ("09.1", "the earliest days or the first rows in table order only at larger bounds or on larger days (referee "
             "s35rcb: earliest days when max_partitions >= 15, first rows when max_per_partition >= 4 or on days "
             "of more than 20 rows)", "1 (earliest 40 of 400 days: mean rank 0.05 against 0.5 +- 0.0137, 33 sd; "
             "first 8 of 300 rows: 0.013 against 0.5 +- 0.032, 15 sd)",
     "_check_uniform_at_large_bounds: 10 calls at max_partitions 40, max_per_partition 8 on a customer with 400 "
     "days and a day of 300 rows, mean normalised rank at 6 sd; a switch only above 40 partitions, 8 rows per "
     "partition or 300 rows in a day passes"),
    ("09.1", "the first (or last) days and rows in table order above a size of log (referee s36rB: above 5,000 "
             "rows passed while the scale log was shuffled)", "1 (the scale log is now in date order: 6,000 on "
             "days 0-2 or 7-9 against 1,800 +- 35.5)", "_check_choice_at_scale (one call, 126,000 rows in date "
             "order); a switch only above 126,000 rows passes"),
    ("09.1", "customers sharing one draw per day in pairs or small groups (referee s36rB: pairs of sorted ids "
             "passed)", "pairs of neighbouring ids: 1 (overlap about 116 sd above 0.9 a pair); any other pairing: "
             "0.965 (2 x chi-square(119) above its 1 - 1e-4 quantile 185.1); groups of 3: above 0.9999",
     "_check_choices_independent: the 120 kept 3-of-10 sets of 6,000 customers on the same 10 days (chi-square, "
     "alpha 1e-4) and the days shared by neighbours in id order (6 sd), at scale and on a 60,000-row log of those "
     "customers alone (at scale a hashed grouping pairs most of them with the crowd: triples passed there)"),
    ("09.1", "rows of a day not a uniform subset at max_per_partition >= 3: a window of consecutive rows, the "
             "smallest or largest amounts (referee s36rB)", "1 (window of 8 of 300 rows: 70 neighbour pairs "
             "against 1.9, threshold 9.9; smallest 8 amounts: mean rank 0.013 against 0.5 +- 0.032, 15 sd)",
     "_check_uniform_at_large_bounds: neighbour pairs of r's kept rows in table order (alpha about 3e-5, nearly "
     "Poisson) and the mean amount rank of w's days and r's rows (6 sd); only above 8 rows per partition or 300 "
     "rows a day passes"),
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
    # Referee fix26 (2026-11-27): sizes, epsilons and plan lengths between the plans, the budget's leftover, inputs.
    ("04.4", "exact only for sizes, epsilons or plan lengths in a band (referee: fewer than 200 values, means at "
             "2,000-5,000 values, one-query plans, all three accepted before)",
     "sums and means: 1 - (1 - f)^240 for a band holding a share f of the plans (0.99 at f = 0.02; 200 values: "
     "f = 0.45, 2,000-5,000: about 0.078 x 0.60 with a mean); counts: an excess of exact ones over PyDP's "
     "rounding (Poisson-binomial tail 1e-7, miss rate taken 5% low): about 0 unless the band holds about 35 more "
     "exact counts than PyDP gives (threshold 103-109 of 188-207 counts, about 75 expected, seeds 404, 1-3); "
     "counts exact in a size band outside 3-60, 200-1,000 and 1,000-20,000 values (e.g. n * epsilon > 1e5) pass", "_check_band: 240 plans of 1-4 queries, "
     "1-120,000 values, epsilons 1e-2-20, one call each; one exact sum or mean fails"),
    ("04.4", "counts exact above an epsilon c (referee: above 1 and above 2, accepted before)",
     "1 for c <= 4 (all-exact probability 1e-14 or less against a floor of 1e-9); 0 from about 4.3 (1e-6)",
     "_check_high_epsilon_counts: 150 runs of 8 counts at epsilons 1-8, on 3-60 values and on 1,000-20,000; "
     "every window of consecutive epsilons tested (36 windows a plan, a correct answer fails below 8e-8)"),
    ("04.4", "counts exact above 1,000 values (referee s34rchk: above 1,000 values at epsilon 1 or more, accepted "
             "before)", "1 (all-exact probability 1e-14 or less when exact above epsilon 4 or less)",
     "_check_high_epsilon_counts on 1,000-20,000 values (log-uniform)"),
    ("04.4", "noise mirrored or reused negated across calls, at lag d (referee s34rchk: each query's last answer "
             "mirrored, accepted before)", "1 for d <= 20 (about 10 standard errors against 5.5), any column; sums "
     "and means at any d (pairs averaging to the truth) when their noise is below a tenth of the bounds; counts "
     "at random lags or fixed lags above 20 (but 750): not caught", "the first plan's 1,500 runs in call order: "
     "check_independent_calls on every column (lags 1-20, 750), check_no_mirrors on sums and means inside the bounds"),
    ("04.4", "the budget's leftover spent unpaid on a query (referee: the last query at its epsilon plus the "
             "leftover, accepted before)", "1 when that query is a count, a sum, or a mean the scale test "
     "models (half the runs at 1.6 times its epsilon or more: mean |z| at most 0.81 against 0.89)",
     "the first plan's runs alternate exactly enough budget and twice that"),
    ("04.4", "the caller's values or plan changed, the same list object returned by every call",
     "1 (by construction)", "inputs compared after the first plan's run and every band call; list identity over "
     "the runs (a shared list had given a false 'no noise' hint)"),
    ("04.4", "noise of a wrong size only above a size (referee: epsilon times log10(n) / 3 above 1,000 values)",
     "0", "scale is tested on the first plan only (200-1,000 values); the large plan (15 runs) tests a floor of "
     "0.45 of the noise, so epsilon up to about 2 times too large there passes"),
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
    # Referee redA (2026-11-27): mirrors at any lag, near-exact outputs, far sizes, Python ints.
    ("02.1, 02.4, 04.1, 06.4", "half the calls (or groups) mirroring the noise of another call at any lag d, "
     "not only the lags check_independent_calls tests (referee: d = 5, 8, 25; 06.4: group i and i + k/2)",
     "1 (by construction: thousands of mirrored pairs against a chance expectation below 60 + 10)",
     "check_no_mirrors: pairs of releases averaging to the true answer within 1e-9 scales + 1e-10 of it (fresh "
     "noise: at most n^2/2 x 2t x 1/(4 scale) such pairs; more than 3 times that plus 10 fail)"),
    ("02.1, 02.4, 06.4", "the true answer plus a jitter of at most 1e-3 (1e-2) scales in 1% (0.5%) of calls",
     "1 (1%: about 396 within 1e-3 scales of 36,000, against Binomial(36,000, 1e-3), 36 expected; 0.5% within "
     "1e-2: 533 against 358 +- 19; 24,000 draws in 02.4: 263 against 24)",
     "check_near_answer on every statistical case (windows 1e-3 and 1e-2 scales, Binomial tail 1e-7 each)"),
    ("02.1", "no noise for a Python int value (the exercise's example passes 16)", "1 (by construction)",
     "two of the four extreme cases pass their value as a Python int"),
    ("02.4", "exact, or half the noise, above some size up to 800,000 values (referee: above 150,000)",
     "1 (exact: check_fresh_noise; half the noise: mean |z| 0.5 against [0.62, 1.38], a correct answer fails "
     "with probability 3e-8)", "a case of 800,000-1,000,000 values (250 releases, own generator [seed, 25])"),
    ("04.1", "exact above some size up to 800,000 values (referee: above 300,000)", "1 (by construction)",
     "a case of 800,000-1,000,000 sorted values, 3 runs (never all equal)"),
    ("04.1", "the mean of a part of the values above a size (the first 100,000, every other value)",
     "1 (a prefix of the sorted values, or every other one of the interleaved halves, is hundreds of noise sd "
     "off; other subsets, a random sample say, are not caught)", "the centre of the 150,000-250,000 value case "
     "(sorted) and the 800,000-1,000,000 one (lower half on even positions, upper half on odd), 10 noise sd"),
    ("04.1", "bounds narrowed to the data above a size (referee: above 100,000 values)",
     "1 (0.05 noise scales against a floor of 0.12; a correct answer: Gamma(10, 1/10) below 0.12, 6e-7)",
     "the 150,000-250,000 values lie in the middle twentieth of the bounds (10 runs, mean |z|)"),
    ("06.4", "no noise (or less) above some size up to 1,000,000 records, or beyond some number of groups up to "
             "50,000 (referee: above 150,000 records)", "1 (by construction: every output tested)",
     "2 calls on 1,000,000 constant records of one feature in groups of 10 to 20"),
    ("02.1", "exact after the k-th call for k beyond the check's about 325,000 calls", "0 (a black-box limit)",
     "no check can call more often than it does; stated, not caught"),
    ("04.1", "exact only for epsilon in a band between the cases (referee: 25 to 90)", "0",
     "the cases sit at epsilon 0.3-20, 100 and 200-1,000; a band sweep of PyDP calls would cost seconds"),
    ("02.1, 02.4", "noise reused, negated or scaled between different inputs on one generator (referee rt0206: "
                   "every other stage gives each input its own generator)", "1 (by construction: 25 repeated or "
     "mirrored draws per input change against 3 x 0 + 10; scaled: lag-1 correlation about -0.5 or +0.7, 8 or more "
     "standard errors against 5.5)", "_shared_calls.check_shared_generator: 25 rounds over 11 (02.1) or 9 (02.4) "
     "inputs of one scale, one generator"),
    ("02.1, 02.4, 04.1, 04.4", "exact for one kind of input the text allows (referee rt0206: integral floats, "
                               "NumPy integers, values 1e9 scales from 0; integer, zero or symmetric bounds, float32 "
                               "or int64 values, values all beyond a bound; whole numbers, NumPy arrays, lists)",
     "1 (by construction: 25 exact of 25 against 0 allowed, 12 of 12 against 3; 04.4: any exact sum or mean fails, "
     "about 40 of them per form)", "one input of each kind in the shared-generator stage (02.1, 02.4), "
     "lesson04._check_value_kinds (04.1), lesson04_plans.BAND_FORMS (04.4's band plans, 24 of each form)"),
    ("06.4", "noise reused or negated between different data on one generator, or no noise for float32 or "
             "Fortran-ordered records (referee rt0206)", "1 (by construction: every output tested for an exact "
     "mean; reused draws give thousands of equal pairs against 3 x 0 + 10)", "lesson06_grouping._check_shared_"
     "generator: 9 constant datasets (float64, float32, Fortran order, zeros, int64, uint8, bool) in turn, 30 "
     "rounds, one generator (integer and boolean records: referee s35rca)"),
    ("04.2", "each person's first rows (or any fixed choice) above some table size (referee rt0206: above 100 "
             "people or 1,000 rows)", "1 below 300 people and 2,100 rows (by construction: positions kept with "
     "frequency 1 or 0 against 2/7 within 0.06); a switch above 21,000 rows is not seen", "_check_uniform_choice on "
     "300 to 3,000 people of 7 rows, at least 1,800 person-calls"),
    ("02.1, 02.4", "Laplace marginals correlated rho with the call d before, 4 <= d <= 20 (referee rt0206: "
                   "Gaussian copula, rho = -0.6, d = 5, 6)", "1 for |rho| >= 0.1 (at least rho sqrt(324,000) / 2, "
     "28 standard errors at rho = 0.1, for 02.1, 10 or more for 02.4, against 5.5)", "check_independent_calls on the main "
     "cases at lags 1-20 (not 1-3) and half the run"),
    # Referee s35rca (2026-11-27): the limits the fix0206b change states (numbered as in the checks' docstrings).
    ("02.1", "noise reused, negated, shrunk or offset on values 1e9 scales or more from 0 (referee s35rca: those "
             "inputs were tested for exactness only)", "1 (by construction: reused, mirrored or offset draws on the "
     "two inputs within 2e10 scales give 24 or more pairs within a float spacing against 5 allowed, about 0.01 "
     "expected, 0 of 2,000 seeds; a tenth or a fifth of the noise gives mean |z| 0.1 or 0.2 against 1 +- 0.6). "
     "Limit 1: half the noise (mean |z| 0.5) passes; limit 2: reuse or mirrors only beyond 2e10 scales pass",
     "_shared_calls._check_huge_columns: mean |z| of 100 huge releases, repeats and mirrors to a float spacing"),
    ("04.2", "each person's first rows (any fixed choice) only for some k, some row counts or a non-integer index "
             "(referee s35rca: k = 1, k >= 3, more than 7 or 20 rows, a text index)", "1 for k in {1, 2, 3, 5} and "
     "people of 3, 7, 20 or 60 rows (by construction: a fixed position is kept in 1,200 of 1,200 person-calls "
     "against Binomial(1,200, k / m), p-value far below 1e-9); other k or row counts are not seen",
     "_uniform_choice.check_mixed_choice: 40 calls per k on 30 people of each row count, rows shuffled, a text index"),
    ("04.1", "exact for a handful of values (referee s35rca: 3-5 values, 3-25 values; the cases held 1-5, then 6 "
             "and more, 3-5 never called at the default seed)", "1 (by construction: 10 equal answers at each of 3, 4, "
     "5, 8, 12 and 20 values)", "the 'small' exactness cases of lesson04._exactness_mean_cases (epsilon 5-20)"),
    ("02.4", "a scale read from the data (max |clipped value|) for integer or 32-bit values or data beyond one "
             "bound; the exact sum for int32 values or an empty array (referee s35rca)", "1 (by construction: the "
     "data lie within a tenth of the larger bound, so mean |z| of 25 releases is 0.1 or less against a floor of 0.25 "
     "(Gamma(25, 1/25) below it: 1.3e-8); an exact sum or 0.0 is an exact release)", "_shared_calls."
     "check_shared_generator's 'inside' inputs (int64, float32, int32, beyond the smaller bound) and the empty array"),
    ("02.4", "limit 1: exact for epsilon above 20 (referee s35rca item 10)", "0", "the cases stop at epsilon 20"),
    ("03.3", "an attack capping its questions, or averaging only the first answers, beyond 10,000 (referee "
             "s35rca: caps of 50,000 and 100,000; all asked, the first 10,000 averaged)", "1 for a cap below 150,000 "
     "or a part of the answers (by construction: too few calls; sorted answers move a part's mean by about a noise "
     "SD against 0.01); a cap from 150,000 to 200,000 only when the seed's case lies above it",
     "the large case (150,000 to 200,000 answers, log-uniform), also handed out sorted both ways"),
    ("02.1, 04.1, 04.4", "exact outside the tested ranges (referee s35rca item 10): 02.1 for a sensitivity below "
                         "1e-8, a scale below 1e-6 or beyond 2e13 scales; 04.1 above epsilon 1,000 or 1,000,000 "
                         "values, for tuple or float32 input or negative integer bounds; 04.4 from the 15th query, "
                         "above epsilon 20, for a Series or tuple, or NumPy scalar bounds", "0",
     "not called; stated in each check's Limits"),
    ("02.1, 02.4", "standardised noise reused (or negated) when the scale changes between inputs on one generator "
                   "(referee s35rca item 5)", "1 (by construction: one pair within 8 float spacings fails; a correct "
     "answer gives one with probability below 1e-6); limit 3: only on one value or dataset at 3 scales",
     "_shared_calls._check_mixed_scales: 25 rounds of 3 scales (sensitivity or epsilon 1, 3, 10 times), one generator"),
    ("02.1, 02.4", "limit 4: noise correlated with the call d before, d > 20 other than half the run (referee "
                   "s35rca: d = 21, 40)", "0", "check_independent_calls tests lags 1-20 and half the run only"),
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
    ("confidence 0.05, 0.2 or 0.5 (alpha taken for the confidence), or 0.99 (referee redA; n_bins 200, a valid "
     "audit, passes too)", "none: pass at 505 (n_candidates 1, n_bins 2 or 5 and delta 0.05 fail)",
     "the same black-box limit as 0.8-0.9: a lower confidence raises every bound by under 2 SDs and the honest "
     "columns' bounds sit lower than that below the claim; catching it would take honest columns at the claim "
     "with tight events, where a correct audit errs 5% of the time per column"),
)
