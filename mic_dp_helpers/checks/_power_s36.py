"""Power rows of the lesson 02-06 release checks added after referee s36rA (2026-11-27).

Kept apart from :mod:`mic_dp_helpers.checks._stats` (600 lines at most a module), which appends them to its
``LESSON02_06_POWER``: (exercise, alternative, power, how it is caught, or why not), as there.
"""

LESSON02_06_POWER_S36 = (
    ("02.1", "exact for epsilon 1e3-2e4, above 5e4 or below 1e-3, or a sensitivity below 1e-3 (referee s36rA)",
     "1 - (1 - f)^300 with f = 0.12, 0.12, 0.18, 0.30: above 1 - 1e-16", "band_sweep over sensitivity 1e-6 to 1e4 "
     "and epsilon 1e-5 to 1e6 (BAND_SENSITIVITIES, BAND_EPSILONS); a scale below 1e-10 holds 1.8% of the cases "
     "(an answer exact only there passes with probability 0.004)"),
    ("02.4", "exact below epsilon 0.01 (referee s36rA)", "1 - (1 - 0.23)^300: 1", "band_sweep over epsilon 1e-3 "
     "to 20 (SUM_BAND_EPSILONS); below 1e-3 is not called"),
    ("02.4", "exact, or a scale read from the data, for 120,000 to 800,000 values (referee s36rA: 150,000-700,000 "
             "exact, 130,000-750,000 data scale)", "1 for a band covering one of 8 log strata (a factor 1.27 each); "
     "a narrower band: its share of the stratum it lies in", "_lesson02_sizes.check_sum_midsizes: 25 releases on "
     "one case per stratum (data inside a tenth of the bounds): none exact, mean |z| at least 0.25"),
    ("02.1, 02.4", "a narrow component in a share w of calls (referee s36rA: uniform within b/20 in 0.5%, Laplace "
                   "of b/100 in 0.3%)", "1 for those (02.1: 12.5 and 10.8 sd over 324,000 releases; 02.4: 9.7 and "
     "8.3 sd over about 200,000), against 4.75 sd (binomial tail 1e-6); a component of weight w inside h scales "
     "adds about w n (1 - h) releases to the window of h: seen when that exceeds about 5 sqrt(n h), i.e. w >= "
     "0.2% (02.1) or 0.25% (02.4) at h = 0.05, less for narrower components",
     "_sweeps.check_pooled_near_answer: windows 1e-2 and 5e-2 scales pooled over every main case"),
    ("06.4", "no noise for groups above 10,000 records, beyond 100 features when l > 1, below sigma 1e-6, or "
             "sigma capped at 2e4 (referee s36rA)", "1 (by construction: every output tested)", "_beyond_cases: "
     "l 10,000-40,000 and 40,000-160,000; 65-400 and 1,500-3,000 features with l 2-10; sigma 1e-9 to 2e-9 and "
     "5e6 to 1e7. Not called: l above 160,000 with noise, more than 3,000 features with l > 1, sigma beyond them"),
    ("06.4", "grouping and standard noise kept when sigma changes (referee s36rA)", "1 (by construction: thousands "
     "of equal |z| against none allowed; a correct answer has one with probability about 2e-6)",
     "lesson06_grouping._check_mixed_sigmas: 30 rounds of 5 inputs (sigma 1 and 3 times, l 4 and 5, two datasets)"),
)
