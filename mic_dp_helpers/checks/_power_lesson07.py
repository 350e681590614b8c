"""The power of lesson 07's statistical tests (split from :mod:`mic_dp_helpers.checks._stats` at 600 lines).

Re-exported there as ``_stats.LESSON07_POWER``.
"""

from __future__ import annotations


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
     "expect 30 (an exact answer: 0); 20 calls on 2,000,000 people at epsilon 14.5 expect 20.2 (none: 1.7e-9); 2 people x 4,000 calls at 0.01; 12,000 people x 200 calls at epsilon 1 for "
     "the per-person test (a person never randomised: z about 8.6)",
     "an answer exact at every size from some epsilon below 14.5 fails; one exact only for fewer people is caught "
     "only where the few-people ladder (row below) calls that few people at a higher epsilon; above epsilon 14.5 "
     "the flip rate (< 5e-7) is too small for the grader's budget: an answer exact only above 14.5 passes; float32 "
     "coins are tested without counting flips (the coin-resolution row below)"),
    # Referee s40rB (2026-11-28): 07.1 D1, D2, D10 (fix40g).
    ("07.1", "exact when a call expects few liars, or for few people at a high epsilon (referee s40rB: round(n q) == "
             "0, n q < 0.9, one person per call; above epsilon 12 up to 1,000,000 people; fewer than 40,000 people "
             "above 6.2; 600-1,400 people from epsilon 1)",
     "_rr_few_people.check_few_people: half a grid step above each grid epsilon (to 12) a ladder of sizes from "
     "the smallest that 4,000 calls give 20 expected flips (1 person up to epsilon 5.29; 100 at 9.9, 994 at 12.2) "
     "up to the grid's n0, a factor 4 apart (shifted a third of a rung per epsilon: a rung every factor 1.5874 over "
     "3 steps; exact at every size in a band of epsilons wider than a factor 1.159 below 12: 1), "
     "and the smallest size at 5.29, 11.2, 12.5, 13.5 and 14.5 (1, 366, 1,342, 3,648 and 9,914 people), "
     "ceil(20 / (n q)) calls each (about 150 cases, 42,000 calls, 69 million answers): no flip fails (a correct "
     "answer: e^-20 = 2.1e-9 per case), flips outside Binomial(calls n, q) tails at 1e-9 fail. Exact when n q < t: "
     "1 for any t above 0.005 (round(n q) == 0, n q < 0.9); one person exact below epsilon 5.29: 1; exact above "
     "12 up to 1,000,000 people, below 40,000 or 2,000 above 6.2, 600-1,400 people from epsilon 1: 1",
     "calls are capped at 4,000: fewer people than 20 (1 + e^epsilon) / 4,000 at every ladder epsilon above an "
     "answer's threshold pass (one person only above epsilon 5.29; up to 1,341 people only above 12; up to 3,647 "
     "only above 12.5; up to 9,913 only above 13.5); exact when n q < 0.005 passes; between epsilon 12 and 14.5 only the smallest "
     "sizes, 100,000 people at 11.5 and 2,000,000 at 14.5 are called: a band of sizes between them there passes"),
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
     "s35rcb) can fall between the points, but the few-people ladder's epsilons sit half a step above them (to 12; "
     "row s40rB below): an answer exact at every size in a band wider than a factor 1.159 fails (fix40g; the corpus's "
     "7 < epsilon < 9 passed at fix40a's seed draws); above epsilon about 10.4 "
     "the 1,000,000 people expect fewer than 25 flips in one call, and the cases call up to 5 times for 30"),
    ("07.3", "candidates far behind dropped, Gumbel noise clipped, or the exact argmax when the gap is large",
     "one best and M candidates g Gumbel scales behind, M set for 150 (40 at g 12.6-13.2) expected picks in "
     "10,000 calls (200 at g 12.6-13.2, referee: noise clipped above at 12 scales picks about 40% of them, "
     "chi-square p below 1e-12); such answers pick none: chi-square p ~ 1e-10 (a correct answer picks none w.p. e^-40)",
     "thresholds beyond about 13 Gumbel scales (a candidate's chance e^-13) cannot be seen; noise clipped at 12.5 "
     "scales or more keeps about 2/3 of the far picks and passes; a floor on the Gumbel noise (at -1.5 scales, "
     "moving about 1% of the choices) passes"),
    ("07.3", "candidates far behind dropped only among many candidates (referee s37rC: more than 10 scales behind, "
             "above 10,000 candidates; the far cases had at most about 8,500)",
     "_many_far_case: 20,000-100,000 candidates (log-uniform) 12-12.6 scales behind one best, 106-475 calls for 30 "
     "expected far picks; an answer that drops them picks none: chi-square about 30 on 1 df, p about 4e-8 (a "
     "correct answer picks none w.p. e^-30): 1 for any drop threshold below 12 scales above any size below the "
     "case's", "a threshold of 12.6 scales or more, or dropping only above the case's size (100,000 at most), passes"),
    ("07.3", "exact in a band of epsilons (referee: 5 < epsilon < 15)",
     "40 epsilons over 0.01 to 30 on a grid with one shared offset (referee s37rC; 16 jittered before), 8 "
     "candidates within 2 Gumbel scales, 600 calls each: an exact argmax picks one candidate every time, where the "
     "best expects at most 600 x 0.6",
     "a band narrower than a grid step (a factor 1.22) can fall between the points"),
    ("07.3", "exact above an epsilon or a number of candidates",
     "cases at epsilon 0.01 and 20 (scores on the noise's scale) and 100,000 close candidates x 400 calls; the size "
     "sweep's Fibonacci lattice (34 points on log 2-100,000 candidates x log epsilon 0.01-20; referee s37rC: exact "
     "above 8 candidates at epsilon > 10, and above 50 at 8 or more, passed): every rectangle of sizes x epsilons "
     "holding more than 2/34 = 5.9% of the square on log scales holds a case (those two: 7.9% and 8.5%): 1",
     "an answer exact only where the exponential mechanism gives the best candidate more than 0.99993 (2 "
     "candidates), 0.9998 (3-10) or 0.9995 (11-300) of the chance, or only among more than 300 candidates, "
     "passes (the near-certain cases, see the referee s40rB D3 row); an "
     "answer exact only above epsilon 20 (the grid reaches 30 with 8 candidates), or in a rectangle of sizes x "
     "epsilons smaller than 5.9% of the square, passes"),
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
     "an answer wrong only above 100,000 values (referee s37rB: 24,000 before the scale cases, next rows) or "
     "epsilon 30, or by a scale factor within about 10% on the large case, passes; a release without noise (bound "
     "or mean) above a size up to 1,000,000 and an epsilon up to 30 is caught (the referee s40rB D4 row)"),
    ("07.4", "exact mean or bound far above the other sizes (referee: from 200,000 values)",
     "one case of 1,000,001 to 1,100,000 values at epsilon 0.05, 12 calls: a noise-free mean or a bound that never "
     "varies is caught at once (1 by construction, for a threshold on size alone below the case's size; a "
     "threshold on size and epsilon together: the referee s40rB D4 row)",
     "12 calls do not test the noise's scale there: half the noise only above 100,000 values passes"),
    ("07.4", "exact mean or bound in a band of epsilons (referee: 3 < epsilon < 15, 0.03 < epsilon < 0.09)",
     "12 epsilons log-spaced over 0.02 to 30 with one shared offset (a step of a factor 1.84; referee s38rB D5: "
     "the offsets were drawn per point, gaps up to 3.4), 50 to 500 values, 100 calls each: a noise-free mean or "
     "a bound that never varies is caught at once", "a band narrower than a factor 1.36 (the second grid's step, "
     "next row) can fall between the points; a wrong noise scale in a band is seen only by the 100 calls' KS and "
     "size tests (about 0.6x or 1.6x)"),
    ("07.4", "half the noise, or the whole epsilon on the bound, in a band of epsilon or of the mean's epsilon "
             "(1 - share) epsilon (referee s38rB D5: 3 < epsilon < 8 and 10 < (1 - share) epsilon < 14 passed)",
     "_bound_scale.between_grid_cases: 24 epsilons over 0.02 to 30 (a step of 1.36) at one share of 0.1-0.2, "
     "100 calls each, so the mean's epsilons are a grid of step 1.36 too: half the noise at a point averages "
     "0.5 scales over 100 releases (Gamma(100) tail far below 1e-8: 1); the whole epsilon on the bound moves it "
     "by 5-10x the bound's epsilon (KS: seen at 3.7 and at 1.1, referee's band and 1 < epsilon < 1.5)",
     "a band of epsilon or of the mean's epsilon narrower than a factor 1.36; the whole epsilon on the bound at "
     "epsilons below about 0.1, where Smith's quantile is mostly the top interval at either epsilon (0.05 < "
     "epsilon < 0.08 passed)"),
    ("07.4", "the mean given the whole epsilon at small bound shares (referee s38rB D6: below a share of 0.2 "
             "passed; the fixed cases had shares 0.25-0.7)",
     "the 24 grid points at a share of 0.1-0.2 and one case of 2,000 calls at 0.1-0.15 (4,400 releases) pooled "
     "in check_noise_size: an overspend by the share s leaves (1 - s) of the noise, z about s sqrt(4,400): 9 "
     "at the mean share 0.14 (1; below 0.15 only, the referee's other number, also caught)",
     "an overspend only at shares below 0.1 (no release there; it would leave over 90% of the noise, like 10% "
     "too little noise: seen with probability 0.15 at 2,000 releases)"),
    ("07.4", "Laplace noise clipped or truncated at c scales",
     "pooled tails over all 17,812 releases (13,412 before referee s38rB, 12,212 before s37rB): the largest |z| must "
     "reach 7.34 scales (check_pooled_tails; a correct answer fails with probability TAIL_FAILURE = 1e-5): clipped "
     "or truncated at c <= 7.34 scales, 1; at c = 7.4, 0.54; 7.5, 0.19 (exp(-N (e^-7.34 - e^-c)))",
     "truncation (redrawing) beyond 7.6 scales is seen with probability below 0.1 (the 13,212 releases before the "
     "20,001-24,000-value case's 2,000 calls became 1,000 had to reach 7.05: 7.0 scales, 1; 7.1, 0.54); clipping: "
     "see the point-mass row"),
    # Referee rt0709: answers exact, with shared coins or too few flips only for 20,000-60,000 people passed 07.1;
    # exact only for bound_share <= 0.2, public_high < 100, levels above 0.99 or 3,001-15,000 values, and 10% too
    # little noise or a scale upper / (n + 1), passed 07.4. All "1" rows below hold by construction.
    ("07.1", "exact, coins shared between i and i + d, or a wrong keep rate, in a band of sizes (referee rt0709: "
             "exact for 20,000-60,000 people)",
     "size sweep (lesson07._size_sweep): 40 sizes log-uniform over 2 to 1,000,000 with one shared random offset "
     "(referee s35rcb: per-point jitter left gaps of a factor 1.93), epsilon "
     "log-uniform over 0.05-1, calls for 40 expected flips: all kept fails (a correct answer: below e^-40); keep "
     "shares z-tested at 5.5 (80 tests, 3e-6 in all); coins of i and i + d from 2,000 people: _coins."
     "check_pairs_at_lags since referee s37rB (every lag to 131,072 people, lags 1-32 and n/k, k = 2-10, above; "
     "quasi-Poisson tails 1e-13 per lag). Exact or shared coins in a band [a, b] with (b + 1) / a above a grid step (a "
     "factor 1.388): 1; 1.1 times epsilon from 300,000 people: z about 30, 1",
     "a band narrower than a factor 1.388; above 131,072 people, coins shared at a distance not in that list; "
     "twice epsilon below 10 people (40 expected flips per size: z about 2; referee s35rcb)"),
    ("07.1", "a flip count that varies too little: exactly round(n (1 - p)) flips at random positions above a "
             "size (referee s35rcb: above 12,000 people)",
     "lesson07_sweeps.check_flip_count_spread: z of each call's flip count from 2,000 people up (about 20 sweep "
     "sizes and the two calls on over 1,000,000 people); every suffix of the calls by size has sum z^2 tested "
     "against chi^2(m)'s lower 1e-7 / (number of suffixes) quantile (a correct answer: below 1e-7 in all; "
     "simulated 4.9e-4 at a 1e-3 family tail). A fixed count above 12,000 or 400,000 people: 1 (sum z^2 below "
     "1e-5); a tenth of the binomial spread above 12,000 people: 1",
     "a fixed count only on over 1,000,000 people (four calls, at epsilon 1, 6 and 10: sum z^2 about 0.002, "
     "above the quantile), or a spread reduced by less than about half, passes; below "
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
     "17,812 releases 10% too little noise gives z about 13.3 (power 1 - 1e-9); per case, upper / (n + 1) at n = 1 "
     "(300 calls) averages 0.5 (1); pooled over the 1,200 releases of 1-4 values, 0.8x gives z about 7 (0.9)",
     "5% too little noise everywhere (z about 5.5, power 0.50); too little noise only in a band of sizes "
     "or parameters the fixed cases miss (the band sweep tests exactness there, not the scale: its pooled amount "
     "test allows a variance off by 103%); since referee s37rB the scale cases cover 4,000-16,000 and "
     "25,000-100,000 values (next rows)"),
    ("07.4", "Laplace noise truncated (redrawn) beyond 8 scales (rt0709)", "pooled tails: none",
     "3.4e-4 of Laplace draws lie beyond 8 scales, 6.0 expected among the 17,812 releases: not seen (power "
     "below 0.01). Clipping there (np.clip, a point mass) is the next row's"),
    ("07.4", "Laplace noise clipped at c scales beyond the tails test (referee s39rB D3: c = 8 passed)",
     "_bound_scale.check_pooled_point_mass: two or more of the 17,812 releases beyond 4 scales with the same |z| "
     "(within 1e-11 relative; a correct answer: below 1e-7): about 17,812 e^-c releases sit at exactly +-c, so "
     "c = 8 (6.0 expected), 0.98; 8.5, 0.88; 9, 0.64; 10, 0.19; at 4-7.3 scales the per-case repeated-noise test "
     "already fails, now with the clipping hint (referee s39rB D4: it said a stored draw is reused)",
     "clipping beyond about 9.5 scales (power below 0.4; delta below e^-9.5 / 2 = 3.7e-5)"),
    ("07.3", "Gumbel noise floored at c scales below 0 (referee s39rB D5: c = -1.5 passed)", "none measured",
     "the floor hits exp(-e^-c) of the draws (1.1% at -1.5) and lowers the chance of a candidate behind the best by "
     "at most that share (two candidates 8 scales apart: 3.4e-4 against 3.3e-4, 1.1% relative; among 10 "
     "candidates below 0.01%): seeing 1.1% needs about 10 million calls, far beyond the check's. Measured (fix39b2, "
     "default seed): a floor at -1 scale passes too (up to 6.5% relative, 4.6% for two candidates 2 scales apart: "
     "about 100,000 calls of such a case for z = 5), at -0.5 it fails (best of [3, 0] chosen 0.848). Stated, not "
     "tested: a floor at -1 scale or lower passes (two-candidate chances change by factors 0.935-1.0: the "
     "privacy loss grows by at most about 0.07)"),
    ("07.3", "noise memoised per setting (size, epsilon, sensitivity) or per size and reused when the scores change "
             "(referee s39rB D0b: 0 reuses in 118,435 calls; no case called one setting on two score vectors)",
     "1 for reuse on every changed call (100 of 100 rounds agree; at most about 3 expected); 0.73 at a reuse share of "
     "0.05, 0.99 from 0.08",
     "_data_pairs.check_rnm_data_pairs: 200 scores and a neighbour (one score + 1), epsilons 1 and 0.5 in rounds "
     "of four calls (400 calls); rounds with an agreeing pair against Binomial(100, mu) at 1e-6. Noise reused only "
     "between calls more than one round apart, or only at other sizes, is not tested"),
    ("07.4", "a Laplace draw memoised per setting (n, epsilon, bound share) or per n and reused when the values "
             "change (referee s39rB D0b: 0 reuses in 18,120 calls)",
     "1 (a repeated standardised or raw noise among the 200 calls; Spearman of the rounds' pairs at 5 sd)",
     "_data_pairs.check_mean_data_pairs: 200 values and a neighbour (one value + 1), epsilons 1 and 0.5 in rounds "
     "of four calls (200 calls). A draw reused only at other sizes or levels, or transformed (not the same "
     "standardised value, not rank-correlated), is not tested"),
    ("07.3", "the plain argmax when the exponential mechanism's best candidate is near-certain (referee s40rB D3: "
             "above 0.995, 0.999 or 0.9999 passed; no case had a best chance in 0.985 to 1 - 1e-16)",
     "_rnm_sure.check_near_certain: 2 candidates with the other's chance q drawn in 7e-5 to 9.5e-5, 3-10 in 2e-4 "
     "to 4e-4, 11-300 in 5e-4 to 1e-3 (in all), random epsilon and sensitivity, 16 / q calls each (16,000 to "
     "229,000, about 1 s of CPU for the reference): the others chosen fewer or more often than Binomial(calls, q)'s "
     "1e-6 tails fails (a correct answer never chooses them with probability e^-16 = 1.1e-7). 1 for every "
     "threshold on the best's chance up to 0.99990 (any number of candidates), 0.9996 from 3 candidates, 0.999 "
     "above 10; 1 for the runner-up more than 9.2 Gumbel scales behind",
     "an answer exact only where the others' chance is below 7e-5 (2 candidates), 2e-4 (3-10 candidates) or 5e-4 "
     "(11-300), or only above 300 candidates, passes: seeing a chance q takes about 16 / q calls (1e-5 would take "
     "1.6 million, about 5 s of CPU more)"),
    ("07.4", "the exact mean (or bound) on large data at a moderate epsilon (referee s40rB D4: above 150,000 values "
             "at epsilon 0.5 or more passed; the only case above 100,000 values was at epsilon 0.05)",
     "_mean_large.check_large_sizes: 1,000,001-1,100,000 values at epsilon 30 (3 calls), and 8 points of a "
     "Fibonacci lattice on log 100,001-1,000,000 values x log epsilon 0.05-30 (2 calls each): every mean within "
     "1e-10 of the clipped mean (a correct answer: at most 1.2e-7 in all, over 40 seeds), or the same bound on "
     "every call, fails. 1 for a release without noise above any size up to 1,000,000 at any epsilon above one "
     "up to 30; and in every rectangle of the lattice's log square larger than 1/4 of it (the largest empty one "
     "over 300 offsets: 0.2500; 150,001-900,000 values at epsilon 0.5 or more is 0.50 of it)",
     "a release without noise only above 1,100,000 values, only above epsilon 30, or in a smaller rectangle of "
     "sizes x epsilons (e.g. 400,000-600,000 values at epsilon 1-3) passes; the noise's scale is not tested on "
     "these cases"),
    ("07.3", "1% of the candidates, at random on each call, get no noise (rt0709)", "none",
     "moves each choice's probability by about 0.2% (two candidates a Gumbel scale apart: 0.731 vs 0.729); "
     "seeing it needs about 2 million calls, far beyond the check's"),
    ("07.3", "exact argmax, or a wrong noise scale, in a band of sizes or sensitivities (referee s36rC: 11-25, "
             "600-8,000, 10,000-99,999 candidates; sensitivity capped at 4, the 2 forgotten below 0.5; referee "
             "s37rC: the 2 forgotten for sensitivities 4.05-8.2)",
     "size sweep (lesson07_selection._rnm_size_sweep): 34 sizes over 2-100,000 (one shared offset, step 1.38x), "
     "300 or 50 calls: an exact argmax repeats one candidate (a correct answer: below 2e-17); sensitivities on "
     "shared-offset grids over 1e-3-1e3: the epsilon grid's 40 (step 1.41x, 600 calls, chi-square p 1e-6: the "
     "factor 2 forgotten fails there) and the sweep's 34 (step 1.50x). Each fails",
     "a band of sizes narrower than 1.38x; a scale error in a band of sensitivities narrower than the epsilon "
     "grid's step (1.41x: a factor-2 band always holds a grid point; the sweep's cases, with 50-300 calls, test "
     "the scale weakly)"),
    ("07.3", "a wrong noise scale only where the sensitivity and the number of candidates are both large (referee "
             "s38rC: the factor 2 forgotten above 100 candidates at sensitivity above 3 or 50; noise ten times too "
             "small for 101-1,000 candidates at sensitivity above 3)",
     "sensitivity sweep (_rnm_cases._rnm_sensitivity_sweep): 34 points of a Fibonacci lattice on log sizes (2-"
     "100,000) x log sensitivities (1e-3-1e3), epsilon log-uniform 0.01-20, scores uniform over 4 Gumbel scales, "
     "300 calls (100 above 1,000 candidates); every case's choices pass a rank test (sum of -log(1 - u), u the "
     "randomized rank transform, Gamma(calls, 1) under a correct answer; each tail p 1e-6). Power per point "
     "(simulated, 40 runs): the factor 2 forgotten 0.95 or more from 10 candidates (0.93 at 100 calls), 0.78 at "
     "5, 0.1 at 2; ten times too small 1 from 3 candidates. The far cases' sensitivities are log-uniform over "
     "1e-3-1e3 too. The referee's three and two more (31-300 candidates above 10, above 300 below 0.01) fail",
     "a rectangle of log sizes x log sensitivities holding less than 5.9% of the square may hold no point (e.g. "
     "1,000-20,000 candidates at sensitivity below 0.003, 2.2%: noise ten times too small there passed at the "
     "default seed); below about 5 candidates the rank test is weak (the epsilon grid's 8 candidates cover "
     "every sensitivity)"),
    ("07.3", "noise reused for two consecutive calls among many candidates (referee s37rC: 20,000-999,999)",
     "for 1,000 or more candidates (none far behind): repeated consecutive choices against Binomial(calls - 1, "
     "observed sum of squared shares)'s 1e-6 upper tail (a correct answer repeats about once in 400 calls at "
     "100,000 candidates; the observed shares overstate that, so the test is conservative); reuse in pairs "
     "repeats about calls / 2 times: 1 at the 100,000-candidate case (400 calls) and the sweep's cases above "
     "1,000 candidates (50 calls)", "reuse only for 100,001 to 1,000,000 candidates (no case there; above, the "
     "1,000,001-1,100,000 case's repeat test), or only after more calls than a case makes, passes"),
    ("07.3", "Laplace noise of scale 2 sensitivity / epsilon instead of Gumbel above some number of candidates "
             "(referee s37rC: above 10,000; epsilon-DP, so no privacy harm)", "none above 10 candidates",
     "the 10-candidate case separates them (best candidate 0.452 vs 0.500, 5,000 calls: z 6.8); among many "
     "candidates their choices differ by a few per cent (the far candidates' share 1.67x at a share of 0.007): "
     "seeing it at 1e-6 needs about 8,000 calls of 20,000 candidates, beyond the check's budget. The exercise "
     "text says the check tests the noise's distribution on a few candidates"),
    ("07.5", "a point estimate, 50,000 samples or fewer, a margin of 0.05, half the claim (referee s36rC, s37rC)",
     "claims below the bound of the most conservative valid audit (confidence 0.996, n_candidates 20) by 4.3 sd "
     "of its spread over orders (_far_below_claim), for randomized response and for it with a frequent (10%) and "
     "a rare (0.3%) leak; honest entries (randomized response alone and with a rare output of ratio e, true "
     "epsilon 1 and 1.0001) claiming 1.02-1.05. A correct audit in any order fails below 1e-3",
     "referee s37rC: the entries not to be flagged are all honest now, and valid audits pass (n_candidates 1 or "
     "20, a Bonferroni correction, confidence 0.97, delta 1e-3, the first 90,000 samples). So a lower confidence "
     "(0.5-0.93, which before failed on a leak that was not private at its claim) passes: with n_candidates=10 "
     "it evaluates each event at (1 - c) / 20, as a valid 95% audit with fewer candidate events does; and audits "
     "retried over orders or n_bins (the largest of up to 21 bounds, at most 0.08 higher) pass: stored samples "
     "do not show how often they were audited"),
    ("07.5", "an output seen on one side only taken as a refutation (referee s38rC: passed); audits of doubled or "
             "bootstrapped samples, or of both side orders (referee s38rC)",
     "an honest entry, randomized response with ten rare outputs of ratio e (about 2.7 and 1 per 100,000 each, "
     "epsilon 1.0002), claiming 1.02-1.05: some output shows on one side only in 99.3% of draws (3 or more times "
     "in 88%), so the one-sided rule fails at seeds 7005, 1 and 2 (3 rounds each)",
     "doubled, bootstrapped and swapped-order audits pass: over 20 draws of randomized response (true epsilon 1) "
     "their bounds averaged 0.983, 0.976 and 0.977 (valid: 0.977, sd 0.008), at most 0.998, below every honest "
     "claim (1.02 or more); a claim they refute and a valid audit does not would have to sit within about 0.01 of "
     "the true epsilon, where a valid audit also refutes it in up to 5% of runs (too many false rejections). The "
     "audit of 90,000 of the 100,000 samples is valid (weaker) and passes on purpose"),
    # Referee s36rB (2026-11-27): 07.1 and 07.4 (fix36b1).
    ("07.1", "exact, twice epsilon or a wrong keep rate for many people at a middle epsilon (referee s36rB: exact "
             "above 8,000 people for 1.05 < epsilon < 5.9; the sizes above 11,000 were tested only at epsilon <= 1, "
             "6, 10 and 11.5)",
     "lesson07._epsilon_size_grid: at each of the 24 epsilons, four more sizes, one drawn in each quarter of "
     "[n0, 1,000,000] on a log scale (n0 = max(2,000, 30 / (1 - p)); none above epsilon 10.4, where n0 is "
     "1,000,000): all kept where 30 or more flips are expected fails (a correct answer: e^-30), keep shares z-tested "
     "at 5 (240 tests, 1.4e-4 in all). Exact or twice epsilon above any size below the top quarter's draw (over "
     "210,000 people) in an epsilon band wider than a grid step: 1 (twice epsilon at 8,000 people, epsilon 1.05: z "
     "about 20)",
     "a band of sizes narrower than a quarter (a factor up to 4.7 below epsilon 4.2) together with a band of "
     "epsilons narrower than a step can fall between the cases; above epsilon 10.4 only 1,000,000 people"),
    # Referee s37rB (2026-11-27): 07.1 and 07.4 (fix37b1).
    ("07.1", "coins shared between people or reused between calls at a middle epsilon (referee s37rB: i and "
             "i + n/2, the same reports for the same truth, half the coins of the previous call, for 1.05 < "
             "epsilon < 5.9 from 2,000 people)",
     "every grid case (24 epsilons x up to 13 sizes, 2,000 to 1,000,000 people) is called twice on the same truth: "
     "_coins.check_pairs_at_lags on the first call (pairs of flips d apart against quasi-Poisson tails 1e-13 per "
     "d: every d to 131,072 people, and wherever at most 1,000 flips; else d = 1-32 and n/k) and "
     "_coins.check_calls_independent (people flipped in both calls, hypergeometric tails 1e-12). Shared at n/2 "
     "from 2,000 people: 222 pairs where 49 are expected (1); at n/3 from 50,000 at 3 < epsilon < 5, and "
     "persons 2i and 2i + 1 from 5,000 at 2 < epsilon < 4: 1; the memo: 439 common flips where 96 are expected "
     "(1); a fifth of the coins reused from 10,000 people at 1.5 < epsilon < 3: 1",
     "coins shared at a distance other than 1-32 and n/k above 131,072 people with over 1,000 flips pass the "
     "grid (the call on 1,000,001-1,200,000 people at epsilon 1 tests every distance); reuse after the second "
     "call passes the grid"),
    ("07.1", "the exact answer when the truth is unanimous (referee s37rB: above 501 people)",
     "one grid case per epsilon (drawn among its up to 13) has everyone yes or everyone no (a coin): all kept where "
     "30 or more flips are expected fails (e^-30). Above 501 people: 1; all no above 5,000 people and epsilon 2: 1",
     "unanimous truths only at one size per epsilon: an answer exact only for unanimous truths in a narrow band "
     "of sizes passes like any size band (see the grid's limit)"),
    ("07.1", "exact, twice epsilon or a fixed count in a narrow band of sizes at several epsilons (referee s37rB: "
             "400,000-480,000 people at epsilon 1.5-4, 250,000-400,000 at 1.5-4, a fixed count at 150,000-400,000)",
     "a ladder of 12 sizes per grid epsilon (lesson07.GRID_SIZES), 2,000 to 1,000,000 people a factor 1.68 apart, "
     "shifted by a third of a rung from one grid epsilon to the next: three consecutive grid epsilons see a size "
     "every factor 1.188, two every 1.296; a fixed count is seen where 5 or more cases fall in the band (24 bins of "
     "log size)",
     "met for sure: a band of sizes of a factor 1.188 over 3 grid steps of epsilon (the referee's exact band, "
     "w = 1.2 over 3.4 steps: 1 on CI's seed and on seeds 1-3), 1.296 over 2, 1.68 over 1; narrower bands with "
     "probability about ln w / ln(spacing) (w = 1.1 over 3 steps: 0.55). Drawn sizes (before stop 40) met the "
     "referee's band with probability 0.71, and CI's seed missed it"),
    ("07.4", "a range capped at the data's maximum, Gaussian, reused or halved noise, the whole epsilon on one "
             "part, or an exact quantile plus a jitter, in sizes the fixed cases skipped (referee s37rB: from "
             "5,000, 3,001-19,999 or 30,000 values)",
     "_bound_scale.scale_cases: 1,000 calls on 4,000-16,000 values and 200 on 25,000-100,000 (log-uniform), "
     "bound share 0.5-0.7, epsilon set so that Smith's bound lands above the largest value on 20-50% of the "
     "calls: the bounds' KS test (a capped range never lands there; the whole epsilon on the bound moves that "
     "share; a jittered exact quantile sits in one spot), check_noise_size (half the scale, or the whole epsilon "
     "on the mean, a scale 0.3-0.5x: z over 7 at 200 calls), check_laplace_shape at 1,000 calls (Gaussian: "
     "z about 8; truncated at 4 scales: the largest |z| must reach 4.46), check_no_repeated_noise (here and in "
     "the band sweep: a draw used twice). Each referee answer and its class member: 1",
     "between 16,000 and 20,000 values, above 100,000 values (to the 1,000,001-value case) and at epsilons or "
     "shares far from the case's, only the band sweep's single calls test these; Gaussian or truncated noise "
     "from 24,001 values passes (200 calls: the shape ratio's z about 3.6 against 5.5, truncation at 4 scales "
     "leaves the largest of 200 below 4 with probability 0.025; 1,000 calls there would cost about 5 s)"),
    ("07.4", "a bound from the exact quantile plus noise above a size (referee s36rB: plus Laplace(public_high / "
             "(n share epsilon)) above 200,000 values; the values rounded to cents hid it at 1,000,000)",
     "the 1,000,001-1,100,000-value case now at epsilon 0.05, share 0.5, public_high 1e5, 12 calls: "
     "check_bound_in_support counts bounds with F(upper) within 1e-4 of 0 or 1 under Smith's exact distribution F "
     "(3 of 12 fail; a correct answer: 2e-9); that noise (scale about 4 around a quantile near 75, Smith's bound "
     "within a few cents) puts about 12 of 12 there, for any size threshold below the case's: 1",
     "a noisy quantile of about Smith's spread (within a factor of a few) above 24,000 values, or any bound "
     "only above 1,100,000 values, passes"),
    ("07.4", "zeros dropped, so that n is a count read from the data (referee s36rB: no case had a zero)",
     "0-50% exact zeros in the band sweep's 200 cases and in seven fixed cases: the positive values' clipped mean "
     "is off the released mean by a factor up to 2, the bounds by a quantile's shift; the referee's answer and "
     "dropping zeros from the mean only fail (zeros_dropped gives the hint when the bounds and means fit the "
     "positive values)", "a release that drops zeros only where they are under about 1% of the values"),
    ("07.4", "nearly noise-free means on a share of calls (referee s36rB: noise x 1e-4 on 1% of calls)",
     "check_near_exact_share over the about 12,200 releases of the fixed cases: the count within 1e-4, 1e-3 and "
     "1e-2 scales against its Binomial upper 1e-8 tail (expected about 1.2, 12 and 121, limits 12, 37 and 189); noise x 1e-4 on 1%: about 77 "
     "within 1e-4 (1); noise x 1e-3 on 0.6%: about 46 more within 1e-3 (limit 37; 1); noise x 1e-2 on 1.5%: about 115 more "
     "within 1e-2 (limit 189; 1)", "noise x 1e-4 on fewer than about 0.14% of calls, noise x 1e-2 on under about "
     "1.2%, or noise x 0.1 on 1%, passes"),
    ("07.4", "Gaussian noise (or another shape) of the right size only above a size (referee s36rB: Gaussian of "
             "the Laplace's standard deviation above 30,000 values)", "none above 24,000 values: the band sweep "
     "has about 20 releases from 30,000 to 100,000 values and the large cases 20 calls, too few for a test of shape",
     "Laplace and Gaussian of one standard deviation differ by KL 0.056 per release: telling them apart at 1e-7 "
     "needs about 300 releases above the size, each a dp_quantile on that many values (about 300 x 25 ms at "
     "300,000 values, over 8 s); stated, not tested. Referee s37rB: the 1,000-call cases' KS test does not see "
     "it (KS distance 0.062, its 1e-6 limit 0.085 at 1,000 calls); since then check_laplace_shape does, on the "
     "cases with 1,000 calls or more (4,000-16,000 and 20,001-24,000 values; see the s37rB rows)"),
    ("07.1", "a fixed count or stratified coins at a middle or high epsilon (referee s36rB: from 2,000 people at "
             "epsilon > 1.05; the spread was tested only at epsilon <= 1)",
     "lesson07_sweeps.check_flip_count_spread_grid: the first call of each of the grid's cases (24 x 13 since "
     "referee s37rB); in every block (a window of epsilons x a window of 24 bins of log size since s37rB, 90,000 "
     "blocks) sum z^2 against chi^2(m)'s lower and upper 1e-7 / 90,000 quantiles; the epsilon 6 and 10 calls on 1,000,000 people join the size sweep's suffix test. A "
     "fixed count or stratified coins from 2,000 people at epsilon > 1.05 (about 45 cases, sum z^2 about 0.01): 1; "
     "above 30,000 people for 2 < epsilon < 7: 1",
     "a fixed count met by 4 cases or fewer (a band of sizes of a factor below about 1.7, or at fewer epsilons) "
     "passes unless its counts happen to be that close (see check_flip_count_spread_grid)"),
    # Referee s38rB (2026-11-28): 07.1 (fix38b1), the joint law of the coins (_coin_pairs).
    ("07.1", "a call's coins reused by other people in the next call (referee s38rB: a pool of uniforms read "
             "through windows overlapping by 2% or 10% of the people)",
     "_coin_pairs.check_cross_calls: for every offset d, people i flipped in call 2j + 1 with person i + d flipped "
     "in call 2j, summed over the disjoint pairs of calls, against both Poisson tails at 1e-13 per offset (the "
     "distribution cases, 2 to 150,000 people, every offset; the grid's cases, every offset to 32,768 people or "
     "where k1 k2 <= 250,000, else the first and last 16,384 people both ways; the two calls on over 1,000,000 "
     "people, likewise). Windows overlapping by k people give about k f pairs at d = n - k where k f^2 are "
     "expected: 2%: 4,565 where 1,715 (3,000 people, epsilon 0.5, 200 pairs of calls); 10%: 22,752 where 8,588; "
     "7 people: 549 where 200; 1% from 100,000 people: 2,784 where 732 (1,013,086 people): 1 for each",
     "above 32,768 people with many flips, reuse at offsets with n - |d| above 32,768 (overlaps of more than "
     "32,768 people, or not at the ends of the calls) passes the grid and the large case (the distribution cases "
     "see it at every size they have, to 150,000 people)"),
    ("07.1", "antithetic coins (u and 1 - u) between people at high epsilons (referee s38rB: persons i and i + n/2 "
             "above epsilon 5, 2i and 2i + 1 above 4: the tests of pairs d apart had no lower tail where fewer than "
             "about 30 double flips are expected, above epsilon about 4.9)",
     "_coin_pairs.check_pairings over 7 matchings (2i/2i+1, 2i+1/2i+2, i/i+n//2, i/i+(n+1)//2, i/n-1-i, the "
     "k-th true yes/k-th true no, the 2k-th/(2k+1)-th with the same answer), both Poisson tails: per case at "
     "1e-9 (every distribution and grid case, all its calls; the epsilon 6 and 10 calls); pooled per grid "
     "epsilon and over all grid epsilons from each one up at 1e-8 (default seed: 25.6 expected per matching at "
     "epsilon 5.79, 324 at 4.31); 200 calls on 200,000 people at epsilon 6.8 (lesson07.HIGH_PAIRS_CASE, about "
     "0.3 s of CPU): 24.9 expected per matching, antithetic coins give 0 (Poisson(24.9) gives 0 or 1 with "
     "probability 4.3e-10): 1 for every answer antithetic above any epsilon up to 6.8, or in a band holding a "
     "tested epsilon (the referee's answers, above 6.5, 2i + 1/2i + 2 above 5.5, i/n-1-i above 4.5)",
     "antithetic coins only above epsilon 6.8 pass: the flip rate there is below 1.1e-3, and at the grid's "
     "highest epsilons (7.78 and 10.45 at the default seed) its 8.8 and 2 million answers expect 0.8 and 0.0 "
     "double flips per matching; testing up to epsilon 8 would take about 4.5e8 coin draws (several seconds). "
     "A band of epsilons between two tested ones (5.79 and 6.8 at the default seed) passes likewise"),
    ("07.1", "coins shared between people paired by the data (referee s38rB: the k-th true-yes and the k-th "
             "true-no person share a uniform above 150,000 people, or above epsilon 4)",
     "the same matchings by rank among the true-yes and the true-no people: shared coins give about m f pairs "
     "where m f^2 are expected (the large case: 245,735 where 66,049; epsilon 10, 100,000 people x 20 calls: 36 "
     "where 0.0); from 400,000 people, antithetic above epsilon 5 and the same answer's 2k-th and (2k + 1)-th "
     "above epsilon 3: 1",
     "other data-dependent matchings (the k-th yes and the (k + j)-th no for j > 0, or matchings of more than "
     "two people) are not tested; the count spread and the lag tests see some of them"),
    # Referee s39rB D0, D1 (2026-11-28): 07.1 (fix40a).
    ("07.1", "coins of one call reused in a call at another epsilon or on another truth array (referee s39rB D0: "
             "uniforms memoised per size and reused at a new epsilon; coins memoised per (size, epsilon) and "
             "reused on a new truth)",
     "_rr_sequences.check_calls_across_settings: 10 sizes over 2 to 1,000,000 people (log-spaced, one random "
     "offset), each called in rounds of six, (A, e1), (A, e2), (B, e1), (B, e2), (A, e1'), (B, e1') with e1' = "
     "e1 (1 + 1e-12), 2 to 8 rounds (600 answers, where 8 rounds allow); e1 log-uniform from 0.02 to where n people expect "
     "20 flips (at most 12), e2 = 0.5-0.8 e1. Every pair of calls at most 6 apart: people flipped in both against "
     "Hypergeometric(n, k1, k2), both tails at 1e-12; per size their sum, z at 6 where its variance is 30 or more "
     "(400 seeds of the reference alone: no rejection; pooled z mean 0.02, sd 1.03, largest |z| 3.7 of 3,809; "
     "smallest pair tail 5e-6). Reuse at every new "
     "setting: pooled z 9 to 23 at 4-5 people (48 calls); one reused pair at 3,000 people, epsilon 0.5 and 1: 807 in both where "
     "305 (z about 38); at 1,000,000 people, epsilon 10.8 and 6.5: about 20 where 0.03. A cache keyed on the size, "
     "on (size, epsilon) with a new truth, on (size, epsilon rounded to up to 11 digits or float32), only on the "
     "first 4 calls of a size, only above 50,000 people, or reusing 1 - u (lower tail): 1 (tests/wrong_answers/"
     "lesson07_s40a.py)",
     "coins reused by other people (shifted) across settings are tested only between calls with one setting "
     "(check_cross_calls); below 60 people reuse on under about a third of the changed calls can pass; a cache "
     "used only after more calls of a size than the sequence makes (12 to 48) passes"),
    ("07.1", "coins too coarse for the flip probability at epsilon 16.7-20 (referee s39rB D1: float32 uniforms "
             "never flip above 17.3, p computed in float32 is 1.0 there)",
     "_coin_resolution.check_coin_resolution: at epsilon 16.7, 17.5, 18.5 and 20, 100 people (half yes) on two "
     "Generators over an MT19937 whose next 624 words the check chose: random() within 2^-48 of 1, and 0 or "
     "4e-15. A call is judged when the answer read 100 to 623 words; both judged and no flip fails. float32 "
     "uniforms against a NumPy p (16.7), against a Python float or with p in float32 (17.5), p rounded to 8 "
     "digits (18.5): 1, exactly (no statistics). Float64 coins by random, uniform, binomial, choice with p, "
     "exponential, integers over 2^32 or more, scipy.stats bernoulli/binom/uniform, a loop: flip on one stream "
     "(0 rejections, by construction; 20 seeds of each form tried)",
     "runs in-process only: in the grader's sandbox the student's generator is a fresh PCG64 (seeded from this "
     "one), so no call is judged and float32 coins pass there; coins from a child generator (default_rng(rng."
     "integers(...)), spawn) or through normal deviates are not judged; integers over a range below 2^32 flip on "
     "some people only where the range resolves the flip probability"),
)
