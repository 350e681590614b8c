"""Power rows of lesson 07's checks added for referee s36rB (joined to ``_stats.LESSON07_POWER``).

Same shape as the rows of :data:`mic_dp_helpers.checks._stats.LESSON07_POWER`: (exercise, failure, detection and
its power, limit). 07.1: the epsilon-and-size grid (``lesson07._epsilon_size_grid``) and its flip-count spread test;
07.4: zeros in the values, the tails of the bound, near-exact means, and a shape not tested at large sizes.
"""

from __future__ import annotations

LESSON07_REGION_POWER = (
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
     "300,000 values, over 8 s); stated, not tested. Below 24,000 values the 1,000-call case's KS test sees it"),
    ("07.1", "a fixed count or stratified coins at a middle or high epsilon (referee s36rB: from 2,000 people at "
             "epsilon > 1.05; the spread was tested only at epsilon <= 1)",
     "lesson07_sweeps.check_flip_count_spread_grid: the first call of each of the grid's 24 x 5 cases; in every "
     "block (a window of epsilons x a window of size quarters, 4,500 blocks) sum z^2 against chi^2(m)'s lower "
     "1e-7 / 4,500 quantile; the epsilon 6 and 10 calls on 1,000,000 people join the size sweep's suffix test. A "
     "fixed count or stratified coins from 2,000 people at epsilon > 1.05 (about 45 cases, sum z^2 about 0.01): 1; "
     "above 30,000 people for 2 < epsilon < 7: 1",
     "a fixed count confined to one epsilon of the grid and one or two size quarters (sum z^2 of 1-2 cases must "
     "fall below about 1e-10) passes"),
)
