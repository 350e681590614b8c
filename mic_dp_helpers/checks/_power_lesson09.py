"""The power of lesson 09's check (09.1) against the non-private choices it is there to catch (split from
:mod:`mic_dp_helpers.checks._stats` at 600 lines; joined to ``_stats.LESSON02_06_POWER`` there).

Each row: (exercise, alternative, power, how it is caught, or why not), as in ``_stats``.
"""

from __future__ import annotations

#: Power of 09.1's tests (``mic_dp_helpers/checks/lesson09*.py``) against the named alternatives.
LESSON09_POWER = (
    ("09.1", "a window of consecutive days (random start, wrapping or not) or every step-th day: each day kept "
             "k/n of the time, but not independently", "1 (window: 126 sd; every 4.3rd day: 38 sd, at 60 days; "
             "9 sd or more at 240 days)", "kept neighbour pairs in date and table order against a uniform k-of-n "
             "(_check_adjacent_pairs, 6 sd; 300 calls at 60 days, 100 at 240)"),
    ("09.1", "the globally popular, the earliest or the latest days above a size of log (referee redB: popular "
             "days above 5,000 rows passed; the uniformity tests used logs of at most 3,600 rows)",
     "1 (6,000 on three days against 1,800 +- 35.5: over 110 sd); a nudge towards the popular days (a key "
     "lowered by a constant for them) raising their keep rate from 0.3 to 0.318 puts their sum 6 sd above 5,400 "
     "(power about 1/2; near 1 from 0.325, a key lowered by 0.03; a key lowered by 0.025, rate 0.319, passed once)",
     "lesson09_choice._check_choice_at_scale: one call on 126,000 rows (6,000 customers on the same 10 days, 16,500 "
     "on days 2, 5, 8 and one other), per-day counts and the popular days' sum at 6 sd; an answer switching only "
     "above 126,000 rows or 22,500 customers passes"),
    ("09.1", "the globally popular days only for customers past some place in id order or in the log sorted by "
             "customer (referee s37rB: past the first 60,000 rows passed, since the 6,000 sorted first and the "
             "crowd was within the bound)", "1 once about 160 of the 6,000 (2.1 popular days more each) or 450 of "
             "the crowd (0.75 more each) are past that place, about 600 customers or 3,300 rows at either end "
             "(the ids interleave at random)", "_check_choice_at_scale: the 6,000's popular days' sum and the "
             "crowd's (2.25 a customer, sd 0.433; 6 sd); a place within the last 600 customers passes"),
    ("09.1", "a biased choice at bounds between the tested ones (referee s37rB: the largest purchases for "
             "max_per_partition 3-7, the days of largest total below 40 partitions, the earliest days for 15-39, "
             "the first rows in table order for 4-7)", "1 at any single bound: the first or last k in an order move "
             "the call's rank sum by 11 sd or more (30 customers); a tilt within 0.06-0.2 of mean rank 1/2 passes",
     "lesson09_choice._check_uniform_across_bounds: one call at each max_partitions 1-40 with max_per_partition "
     "1-8 (each 5 times), 30 customers of 41-80 one-row days and 30 with a day of 9-20 rows; rank sums by date, "
     "table position, amount and index label at 6 sd (280 tests)"),
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
     "lesson09_choice._check_choices_independent: the 120 kept 3-of-10 sets of 6,000 customers on the same 10 "
     "days (chi-square, alpha 1e-4) and the days shared by neighbours in id order (6 sd), at scale and on a "
     "60,000-row log of those customers alone (at scale a hashed grouping pairs most of them with the crowd: triples passed there)"),
    ("09.1", "rows of a day not a uniform subset at max_per_partition >= 3: a window of consecutive rows, the "
             "smallest or largest amounts (referee s36rB)", "1 (window of 8 of 300 rows: 70 neighbour pairs "
             "against 1.9, threshold 9.9; smallest 8 amounts: mean rank 0.013 against 0.5 +- 0.032, 15 sd)",
     "_check_uniform_at_large_bounds: neighbour pairs of r's kept rows in table order (alpha about 3e-5, nearly "
     "Poisson) and the mean amount rank of w's days and r's rows (6 sd); only above 8 rows per partition or 300 "
     "rows a day passes"),
    ("09.1", "a choice of days or rows that depends on other customers' rows (referee s38rB D4: days other customers "
             "also shop on first, days of at least 5 customers first, on shared days the rows nearest the day's "
             "median or the first in table order passed, since no test log varied whether a day is shared)",
     "1 (shared days first: 9,000 kept shared days against 3,600 +- 41, 130 sd; at least 5 customers: 60 sd; "
     "rows nearest the median: mean amount rank 0.70 against 0.50 +- 0.004, 50 sd; first rows: 0.29, 52 sd); a "
     "preference acting on 3% of the customers moves the shared-day sum by 6 sd",
     "lesson09_neighbours.check_choice_ignores_neighbours: one call on 106,000 rows, 3,000 customers with 10 days "
     "of their own, 3 of them shared with 1-6 others (max_partitions 4, max_per_partition 2); kept shared days, "
     "others and own rows summed, kept rows' table and amount ranks on shared and unshared days, 6 sd each (7 "
     "tests, 2e-9 each); a rule acting only above 106,000 rows, 6 others on a day or 4 own rows passes"),
    ("09.1", "days weighted by their number of rows in large logs (referee s38rB D9: above 10,000 rows passed)",
     "1 (own rows on the kept days 34,500 against 30,074 +- 95: 46 sd)", "check_choice_ignores_neighbours (1-4 "
     "rows a day, 106,000 rows); a switch only above 106,000 rows passes"),
    ("09.1", "a customer's kept days memoised and reused when their rows or the bounds change (referee s39rB D0b: "
             "no case showed one customer twice with other rows; 0 reuses in 1,378 calls)",
     "1 for reuse on every changed log, with or without the bounds in the memo's key (referee s40rB D5: a memo "
     "per customer and bound repeats a choice two calls later and passed the consecutive test; now 78 of 80 calls "
     "repeat an earlier one); from about 4% of the calls (3 repeats expected at 0.04 x 80 = 3.2)",
     "lesson09_neighbours.check_choice_fresh_on_changed_rows: one customer with 30 days, logs differing by one row, "
     "max_partitions 6, max_per_partition 1 and 2 in rounds of four calls (80 calls); 3 or more calls keeping the "
     "same days as any earlier call fail (every pair of calls compared; a correct answer: about 2.6e-8). A memo "
     "reused only when the days also change, or only after other customers' calls, is not tested"),
    ("09.1", "each customer's stream seeded by their id (rng unused: the same choice in every call; referee s39rB "
             "D6, told its days lean to the first ones)",
     "1 (100 of 100 calls keep the same 14 of 240 days)",
     "_check_uniform_for_heavy_customers: two equal kept sets of the 240-day customer in 100 calls (a correct "
     "answer: below 1e-18) fail with the hint that the choice repeats between calls, before the position tests"),
)
