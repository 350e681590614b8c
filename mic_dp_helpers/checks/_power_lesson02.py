"""Power of checks 02.1 and 02.4 against the call patterns and clipping shortcuts of referee s40rA.

Kept apart from :mod:`mic_dp_helpers.checks._stats` (600 lines at most a module), which appends these rows to
``LESSON02_06_POWER``. Same columns: (exercise, alternative, power, how it is caught, or why not).
"""

LESSON02_S40_POWER = (
    ("02.1, 02.4", "in the band sweep (02.1 sensitivity 1e-6 to 1e-3, epsilon below 1e-3, |value| beyond 5e4 "
                   "scales; 02.4 epsilon below 0.01) or 02.4's mid-sizes (120,000 to 1,000,000 values): every k-th "
                   "call exact (referee s40rA: k = 10, 20), pairs of calls mirrored or one draw reused, at any lag "
                   "within a case", "1 (by construction) when the region holds 2 exact releases in 02.1 (1 in "
                   "02.4; Poisson tail 1e-5 against 3e-4 and 6e-6 expected from float rounding) or 11 or more "
                   "mirrored or equal pairs within cases (a case of 20 releases gives about 10 at lags 1-5: 2 "
                   "cases; 64-release mid-size cases about 32: 1 case; longer lags need more cases)",
     "_band_calls.check_call_sequences: every release of every case, exact within its float error (pooled); mirrored "
     "and bit-equal pairs within cases pooled (fresh noise: below 0.01 such pairs; more than 3 times that plus 10 fail); "
     "lags 1-19 pooled (5.5 standard errors); near-answer windows 1e-2 and 5e-2 scales pooled (1e-6 each)"),
    ("02.1, 02.4", "in the band sweep or the mid-sizes, noise rounded to g scales before it is added (a grid "
                   "anchored at the answer; referee s40rA: g = 1e-4 for sensitivity below 1e-3 or epsilon below "
                   "5e-4 or 0.009, or at 120,000 to 1,000,000 values; 1.2345e-3 beyond 1e7 scales from 0)",
     "1 (simulated on 02.1's cases, 1 run each: 1e-4 for sensitivity below 1e-3 or epsilon below 5e-4; 1.2345e-5 "
     "for sensitivity below 1e-4; 1.2345e-3 beyond 1e7 scales) when the region holds 8 neighbouring band cases "
     "(160 releases; 2 mid-size cases, 128) by some parameter; 0 for g = 3e-7 (sensitivity below 1e-4) and "
     "1.2345e-6 (beyond 1e7 scales): too fine for 160 releases, or within 200 float errors of the noise there; a "
     "step fixed in absolute units (not in scales) where only the band sweep looks: 0 (the pools are in scales)",
     "_band_calls.check_no_pooled_grid: standardised noise of runs of 8 cases ordered by each parameter "
     "(|answer| / scale below 1e3, and all), _grid_anchor.check_not_anchored with a grid at 0 not allowed"),
    ("02.1, 02.4", "main cases: noise rounded to g scales before it is added, g not 1, 2 or 5 times a power of 10 "
                   "(referee s40rA D4: 1.2345 times)", "at 36,000 releases (referee's simulation, 4 runs): 1 for "
                   "1e-6 steps at 1e4 scales from 0, 0 for 1.2345e-5 at 1e6 scales (1 for 1.2345e-4), 0 for "
                   "1.2345e-4 and 1.2345e-3 at 1e8 scales; with 2,000 releases at 500-1,000 scales a 1e-7 step is "
                   "caught in 0-1 of 6 runs; the fresh-generator stage (100 releases) sees steps of 1e-5 or more",
     "check_fresh_noise; far from 0 the band sweep's pooled grid test above sees steps of about 1e-3 scales"),
    ("02.4", "clipping skipped when a sample of the values (the first 1,000, 500 at random, the first and last 100) "
             "shows none outside the bounds, or skipped at some sizes (referee s40rA D1: 125,000-999,999 values; "
             "above 200,000 unless n is a multiple of 1,000)", "1 (by construction: one unclipped outlier moves "
     "the centre by 1e6 times the larger bound, 1,000 scales or more, against a median beyond 20 scales)",
     "1 to 3 values 1e6 to 1e8 times the larger bound beyond a bound, at random positions (the last in half the "
     "cases), in every fourth band case (100 cases, n 1 to 120,000), every mid-size case (16, 120,000 to "
     "1,000,000) and one case of 1,000,000 values: _band_calls.check_clipped_centre and the huge cases' centre; "
     "a sampler that happens to draw an outlier clips and passes there (500 of 120,000 values: 1.2% a case)"),
)
