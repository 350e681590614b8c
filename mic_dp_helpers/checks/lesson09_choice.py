"""09.1's tests of the choice of days and rows that look at many customers in one call: the bounds themselves
(:func:`_check_bounded`), the one-call test at scale (126,000 rows), the kept-set test, and the sweep over every
bound from 1 to 40 partitions and 1 to 8 rows per partition (referee s37rB items 2 and 11).

Moved out of ``lesson09`` (which keeps the many-call uniformity tests and the check itself) when it reached 600
lines.
"""

from __future__ import annotations

import builtins
import math

import numpy as np
import pandas as pd
import scipy.stats

from mic_dp_helpers.checks._core import CheckFailed

_abs, _max, _len, _isinstance, _int = builtins.abs, builtins.max, builtins.len, builtins.isinstance, builtins.int
_sqrt = math.sqrt
_chi2_isf = scipy.stats.chi2.isf
_default_rng, _array, _repeat, _arange, _concatenate, _bincount = (np.random.default_rng, np.array, np.repeat,
                                                                   np.arange, np.concatenate, np.bincount)
_DataFrame, _frame_equal = pd.DataFrame, pd.DataFrame.equals

#: Every uniformity test of 09.1 allows this many standard deviations.
UNIFORMITY_SDS = 6.0


def _expect_frame(value, what: str):
    if not _isinstance(value, _DataFrame):
        raise CheckFailed(f"it should return {what} (a pandas DataFrame), but it returned a {type(value).__name__}.")
    return value


# ------------------------------------------------------------------------------------------- 09.1

def _check_bounded(log: pd.DataFrame, kept, l0: int, linf: int) -> None:
    kept = _expect_frame(kept, "the kept rows")
    if not kept.index.isin(log.index).all() or not kept.index.is_unique:
        raise CheckFailed("the result has rows that are not rows of the log (or a row twice): return rows of "
                          "the log you were given, with their original index.")
    if list(kept.columns) != list(log.columns) or not _frame_equal(kept, log.loc[kept.index]):
        raise CheckFailed("the kept rows differ from the log's rows (values or columns changed): select rows, "
                          "do not rebuild them.")
    days = kept.groupby("customer_id")["day"].nunique()
    if _len(days) and days.max() > l0:
        raise CheckFailed(f"a customer still contributes to more than max_partitions={l0} days: the number of "
                          "partitions per person is not bounded, so one person can move many daily counts.")
    cells = kept.groupby(["customer_id", "day"]).size()
    if _len(cells) and cells.max() > linf:
        raise CheckFailed(f"a customer still has more than max_per_partition={linf} rows on one day: the rows "
                          "per partition are not bounded.")
    all_days = log.groupby("customer_id")["day"].nunique()
    kept_days = days.reindex(all_days.index, fill_value=0)
    if (kept_days < all_days.clip(upper=l0)).any():
        raise CheckFailed("a customer lost more days than the bound requires (a customer with fewer days than "
                          "the bound, or exactly as many, must keep them all; one with more keeps exactly "
                          "max_partitions). Check the boundary: at most, not fewer than.")
    all_cells = log.groupby(["customer_id", "day"]).size()
    kept_cells = cells.reindex(all_cells.index, fill_value=0)
    kept_day_pairs = kept.groupby(["customer_id", "day"]).size().index
    required = all_cells.loc[kept_day_pairs].clip(upper=linf)
    if (kept_cells.loc[kept_day_pairs] < required).any():
        raise CheckFailed("on a kept day a customer lost more rows than the bound requires: keep "
                          "min(rows, max_per_partition) rows on each kept day.")




def _rank_mean_sd(n: int, k: int, calls: int) -> float:
    """sd of the mean normalised rank ((rank + 0.5) / n) of k of n items drawn without replacement, over calls."""
    variance = (n * n - 1) / (12 * n * n)
    return _sqrt(variance / k * (n - k) / _max(n - 1, 1) / calls)



def same_draw_hint(counts: np.ndarray, people: int, otherwise: str) -> str:
    """The advice for day counts that fail a test across customers who all shop on the same days.

    Parameters
    ----------
    counts : numpy.ndarray
        How many of the ``people`` kept each day.
    people : int
        The customers counted.
    otherwise : str
        The advice when the customers did not all keep the same days.

    Returns
    -------
    str
        When every day was kept by all or by none (one draw shared by everyone: each customer's days can be
        uniform, but they are not independent between customers; referee s38rB D8), advice that says so;
        else ``otherwise``.
    """
    if np.isin(counts, (0, people)).all():
        return ("Every customer kept the same days: the choices are not independent between customers (one draw "
                "shared by all). Draw each customer's days independently for each customer, from rng, as "
                "PipelineDP does.")
    return otherwise


#: The kept-set test at scale: 120 possible 3-of-10 sets, a chi-square beyond its 1 - CHOICE_SET_ALPHA quantile fails.
CHOICE_SET_ALPHA = 1e-4


def _check_no_shared_draws(answer, rng: np.random.Generator) -> None:
    """6,000 customers, all on the same 10 days and nobody else (60,000 rows in date order), one call with
    max_partitions = 3: :func:`_check_choices_independent`. Without a crowd every group that shares a draw is a
    group of these customers (at scale a hashed grouping mostly paired them with the crowd: 3 in 10 pairs)."""
    ids = _array([f"F{i:05d}" for i in range(SCALE_PEOPLE)], dtype=object)
    log = _DataFrame({"customer_id": _repeat(ids, 10), "day": np.tile(_arange(10), SCALE_PEOPLE)})
    log = log.iloc[rng.permutation(_len(log))]
    log = log.iloc[np.argsort(log["day"].to_numpy(), kind="stable")]
    original = log.copy()
    kept = answer(log, 3, 1, _default_rng(_int(rng.integers(1 << 30))))
    _check_bounded(original, kept, 3, 1)
    _check_choices_independent(kept, ids)


def _check_choices_independent(kept: pd.DataFrame, focal: np.ndarray) -> None:
    """Each of 6,000 customers (ids ``focal``) on the same 10 days draws their 3 kept days on their own (referee s36rB
    item 10).

    Under a correct answer each customer's set of 3 of the 10 days is uniform and independent of the others':
    (a) the 120 possible sets are kept by Multinomial(6,000, 1/120) customers: a chi-square (119 df) above its
    1 - 1e-4 quantile (185.1) fails; (b) two customers next to each other in id order share Hypergeometric(10,
    3, 3) days, mean 0.9, variance 0.49, and the 5,999 overlaps are uncorrelated: their sum beyond 6 sd (2e-9)
    fails. Customers in pairs sharing one draw double (a): 2 x chi-square(119) exceeds 185.1 with probability
    0.965 whatever the pairing (groups of 3: above 0.9999); pairs of neighbouring ids raise (b) by about 116 sd
    (always caught). Run at scale and on :func:`_check_no_shared_draws`'s log.
    """
    focal = kept[kept["customer_id"].isin(focal).to_numpy()]
    bits = (1 << focal["day"].to_numpy().astype(np.int64))
    sets = pd.Series(bits, index=focal["customer_id"].to_numpy()).groupby(level=0).sum().sort_index()
    counts = np.bincount(sets.to_numpy(), minlength=1 << 10)
    observed = counts[[mask for mask in range(1 << 10) if bin(mask).count("1") == 3]]
    expected = SCALE_PEOPLE / 120
    chi_square = float(((observed - expected) ** 2 / expected).sum())
    masks = sets.to_numpy()
    shared = np.array([bin(_int(m)).count("1") for m in masks[1:] & masks[:-1]])
    mean_shared, sd_shared = 0.9 * (_len(masks) - 1), _sqrt(0.49 * (_len(masks) - 1))
    if chi_square > _chi2_isf(CHOICE_SET_ALPHA, 119) or _abs(shared.sum() - mean_shared) > UNIFORMITY_SDS * sd_shared:
        raise CheckFailed(f"among {SCALE_PEOPLE:,} customers who each shop on the same 10 days "
                          "(max_partitions=3),"
                          f" the customers' sets of kept days are not uniform and independent: the 120 possible sets "
                          f"of 3 days were not kept equally often ({chi_square:.0f} on the chi-square scale; uniform "
                          "and independent: below "
                          f"{_chi2_isf(CHOICE_SET_ALPHA, 119):.0f}), and customers next to each other in id order "
                          f"shared {shared.sum() / _max(_len(shared), 1):.2f} days on average (independent: 0.90). "
                          "Draw "
                          "each customer's days uniformly from rng, on their own: a draw shared between customers "
                          "makes a customer's choice depend on who else is in the log.")


#: Customers on the same 10 days, and the crowd on 3 of them and one other day, in the one-call test at scale
#: (126,000 rows; referee s37rB item 2: the crowd was within the bound and its ids sorted after everyone's).
SCALE_PEOPLE, SCALE_CROWD, SCALE_POPULAR = 6_000, 16_500, (2, 5, 8)


def _scale_log(rng: np.random.Generator) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """The log of :func:`_check_choice_at_scale`, in date order, and the ids of the 6,000 and of the crowd.

    Every id is ``C`` and a random number below 22,500, so the two groups' ids interleave at random: no rule on
    a customer's place in id order (or in the log sorted by customer) spares either group.
    """
    ids = _array([f"C{i:05d}" for i in rng.permutation(SCALE_PEOPLE + SCALE_CROWD)], dtype=object)
    focal, crowd = ids[:SCALE_PEOPLE], ids[SCALE_PEOPLE:]
    others = _array([day for day in range(10) if day not in SCALE_POPULAR])
    crowd_days = np.column_stack([np.tile(_array(SCALE_POPULAR), (SCALE_CROWD, 1)), rng.choice(others, SCALE_CROWD)])
    log = _DataFrame({"customer_id": _concatenate([_repeat(focal, 10), _repeat(crowd, 4)]),
                      "day": _concatenate([np.tile(_arange(10), SCALE_PEOPLE), crowd_days.ravel()])})
    log = log.iloc[rng.permutation(_len(log))]
    in_date_order = np.argsort(log["day"].to_numpy(), kind="stable")  # as logs are written
    return log.iloc[in_date_order], focal, crowd


def _check_choice_at_scale(answer, rng: np.random.Generator) -> None:
    """The test of ``lesson09._check_choice_ignores_other_people``, once, on a log of 126,000 rows.

    The other uniformity tests use logs of at most 3,600 rows; the large logs (up to 50,000 rows) are only
    tested for the bounds. Here 6,000 customers shop on the same 10 days and 16,500 more on days 2, 5 and 8
    (the popular days, not the earliest or the latest) and one other day, with ids that interleave at random
    (:func:`_scale_log`), in date order (shuffled within a day; referee s36rB: in a shuffled log the first rows
    in table order are a uniform choice, and keeping them above 5,000 rows passed), one call with max_partitions
    = 3 (the kept sets: :func:`_check_choices_independent`): each of the 6,000 keeps each day with probability
    3/10, independently of the others, so each day's count among them has mean 1,800 and sd 35.5 (binomial), and
    the count on the three popular days together mean 5,400 and sd 54.2 (each customer keeps a hypergeometric
    number of them, variance 0.49); each of the crowd drops one of their 4 days at random, so they keep 2.25
    popular days on average (mean 37,125, sd 55.6: 2 plus a Bernoulli(1/4) each). 6 sd each (a correct answer
    fails one of the 12 tests with probability below 1e-8). Keeping the popular, the earliest or the latest days
    above some size (any size up to 126,000 rows or 22,500 customers) gives 6,000 on three days (over 110 sd);
    doing so only for the customers after (or before) some place in id order, or after the first 60,000 rows
    of the log sorted by customer (referee s37rB item 2: that passed while the 6,000 sorted first), moves the
    counts by 6 sd once about 160 of the 6,000, or 450 of the crowd (each crowd customer adds 0.75 popular
    days), are past that place: about 600 customers, 3,300 rows; the first or last rows in table order are the
    earliest or latest days (6,000 on days 0-2 or 7-9); a choice only nudged towards popular days is caught once
    it raises their keep rate from 0.3 to 0.318 (the sum moves by 6 sd; power in ``checks/_stats.py``).
    """
    log, focal, crowd = _scale_log(rng)
    original = log.copy()
    kept = answer(log, 3, 1, _default_rng(_int(rng.integers(1 << 30))))
    _check_bounded(original, kept, 3, 1)
    days = kept["day"].to_numpy()[kept["customer_id"].isin(focal).to_numpy()]
    counts = np.bincount(days.astype(np.int64), minlength=10)[:10]
    popular = int(counts[list(SCALE_POPULAR)].sum())
    mean, sd = SCALE_PEOPLE * 0.3, _sqrt(SCALE_PEOPLE * 0.3 * 0.7)
    if (np.abs(counts - mean).max() > UNIFORMITY_SDS * sd
            or _abs(popular - 3 * mean) > UNIFORMITY_SDS * _sqrt(SCALE_PEOPLE * 0.49)):
        raise CheckFailed(f"in a log of {_len(log):,} rows, {SCALE_PEOPLE:,} customers shop on the same 10 days and "
                          f"{SCALE_CROWD:,} others make days 2, 5 and 8 popular; with max_partitions=3 each day should "
                          f"be kept for about {mean:.0f} of the {SCALE_PEOPLE:,} (days 2, 5 and 8 together about "
                          f"{3 * mean:.0f}), but the counts were {counts.tolist()}. "
                          + same_draw_hint(counts, SCALE_PEOPLE,
                                           "Draw each customer's days at random on their own, from rng, at every "
                                           "size of log and whatever the customer's place in it: a choice that "
                                           "looks at other people's rows (popular days) is not private, and one "
                                           "that looks at the dates is not uniform. Customers who share a draw also give such "
                                           "counts (a generator seeded from few values, such as "
                                           "rng.integers(1000), gives many customers the same choice, so the "
                                           "counts vary far more than independent choices do): seed any "
                                           "sub-generator with rng.spawn(1)[0] or rng.integers(2**63)."))
    _check_crowd_choice(kept, crowd)
    _check_choices_independent(kept, focal)


def _check_crowd_choice(kept: pd.DataFrame, crowd: np.ndarray) -> None:
    """The crowd of :func:`_check_choice_at_scale` (days 2, 5, 8 and one other, max_partitions = 3) keeps 2.25
    popular days a customer on average (sd 0.433 each); 6 sd on the sum."""
    days = kept["day"].to_numpy()[kept["customer_id"].isin(crowd).to_numpy()]
    popular = int(np.isin(days, SCALE_POPULAR).sum())
    mean, sd = 2.25 * SCALE_CROWD, _sqrt(SCALE_CROWD * 3 / 16)
    if _abs(popular - mean) > UNIFORMITY_SDS * sd:
        raise CheckFailed(f"in a log of 126,000 rows, {SCALE_CROWD:,} customers shop on days 2, 5 and 8 (the popular "
                          "days) and one other day each; with max_partitions=3 each drops one of their 4 days at "
                          f"random, so they should keep about {mean:,.0f} popular days in all, but they kept "
                          f"{popular:,}. Draw each customer's days at random on their own, from rng, whatever the "
                          "customer's place in the log: a choice that prefers days other people made popular "
                          "depends on other people's rows.")


#: The bound sweep (referee s37rB item 11): one call at each max_partitions from 1 to SWEEP_L0, each paired at
#: random with a max_per_partition from 1 to SWEEP_LINF (each used SWEEP_L0 / SWEEP_LINF times), on SWEEP_PEOPLE
#: customers with 41-80 days of one row and as many with one day of 9-20 rows.
SWEEP_L0, SWEEP_LINF, SWEEP_PEOPLE = 40, 8, 30

#: The orders the sweep tests, for a customer's days and for the rows of a day, and the ends they name.
SWEEP_ORDERS = {"date": ("days", "earliest", "latest"),
                "table": ("days", "first in table order", "last in table order"),
                "amount": ("days", "smallest amounts", "largest amounts"),
                "index": ("days", "smallest index labels", "largest index labels"),
                "row table": ("rows", "first in table order", "last in table order"),
                "row amount": ("rows", "smallest amounts", "largest amounts"),
                "row index": ("rows", "smallest index labels", "largest index labels")}

_RANKED_BY = {"date": "date", "table": "place in the table", "amount": "amount", "index": "index label"}


def _sweep_log(rng: np.random.Generator) -> tuple[pd.DataFrame, dict, np.ndarray, np.ndarray]:
    """The sweep's log (shuffled, distinct amounts, index labels in another random order), each row's normalised
    rank ((rank + 0.5) / n) within its customer in each of :data:`SWEEP_ORDERS`, each row's person (0 to 2
    SWEEP_PEOPLE - 1: the day customers first) and each person's item count (days or rows)."""
    sizes = _concatenate([rng.integers(SWEEP_L0 + 1, 2 * SWEEP_L0 + 1, SWEEP_PEOPLE),
                          rng.integers(SWEEP_LINF + 1, 21, SWEEP_PEOPLE)])
    person = _repeat(_arange(2 * SWEEP_PEOPLE), sizes)
    day = _concatenate([rng.choice(366, n, replace=False) + 1 for n in sizes[:SWEEP_PEOPLE]]
                       + [np.full(n, 400 + i) for i, n in enumerate(sizes[SWEEP_PEOPLE:])])
    log = _DataFrame({"customer_id": _array([f"b{i:02d}" for i in person], dtype=object), "day": day,
                      "amount": (rng.permutation(person.size) + 100) / 100},
                     index=rng.permutation(person.size) * 3 + 7)
    order = rng.permutation(person.size)
    log, person = log.iloc[order], person[order]
    keys = {"date": log["day"].to_numpy(), "table": _arange(person.size), "amount": log["amount"].to_numpy(),
            "index": log.index.to_numpy()}
    ranks = {name: (pd.Series(key).groupby(person).rank(method="first").to_numpy() - 0.5) / sizes[person]
             for name, key in keys.items()}
    ranks.update({f"row {name}": ranks[name] for name in ("table", "amount", "index")})
    return log, ranks, person, sizes


def _check_uniform_across_bounds(answer, rng: np.random.Generator) -> None:
    """The choice is uniform at every max_partitions from 1 to 40 and every max_per_partition from 1 to 8.

    Referee s37rB item 11: the uniformity tests ran at (3, 1), (1, 2), (3, 9), (14, 3) and (40, 8) only, so the
    largest purchases for max_per_partition 3-7, the days of largest total for max_partitions below 40, the
    earliest days for 15-39 and the first rows in table order for 4-7 passed. Here one call at each
    max_partitions from 1 to 40 (in random order), each with a max_per_partition from 1 to 8 (each 5 times, paired
    at random), on the log of :func:`_sweep_log`: 30 customers with 41-80 days of one row each (all above any
    of these bounds) and 30 with one day of 9-20 rows, every row with its own amount, the table shuffled and
    the index labels in another random order. In each call, for each order of :data:`SWEEP_ORDERS` (date, table
    position, amount and index label for days; table position, amount and index label for the rows of a day),
    the normalised ranks of the kept items summed over the 30 customers have mean 15 k and variance
    sum k (n + 1)(n - k) / (12 n^2) (k of n drawn without replacement); beyond 6 sd fails (280 tests, each
    below 2e-9 by the normal tail, lighter for these bounded sums: below 6e-7 in all). The first or last k items
    in any of these orders move the sum by 2.1-5.5 sd per customer, so 11 sd or more over the 30 (for a
    single bound): rejected with certainty at whichever bound the answer switches. Limit: a choice only tilted
    in one of these orders (mean normalised rank within 0.06-0.2 of 1/2, by the bound: 6 sd of the call), an
    order not among these (say by the weekday or the note column), a switch only above 40 partitions or 8 rows
    per partition, or only for customers with more than 80 days or days of more than 20 rows (up to the 4,000
    days and 300 rows of the other tests), passes.
    """
    log, ranks, person, sizes = _sweep_log(rng)
    shared = _default_rng(_int(rng.integers(1 << 30)))
    row_bounds = rng.permutation(np.tile(_arange(1, SWEEP_LINF + 1), SWEEP_L0 // SWEEP_LINF))
    for l0, linf in zip(rng.permutation(_arange(1, SWEEP_L0 + 1)).tolist(), row_bounds.tolist()):
        kept = _expect_frame(answer(log, l0, linf, shared), "the kept rows")
        positions = log.index.get_indexer(kept.index)
        wanted = _concatenate([np.full(SWEEP_PEOPLE, l0), np.full(SWEEP_PEOPLE, linf)])
        if ((positions < 0).any() or _len(np.unique(positions)) != _len(positions)
                or not (_bincount(person[positions], minlength=2 * SWEEP_PEOPLE) == wanted).all()):
            raise CheckFailed(f"at max_partitions={l0}, max_per_partition={linf}, for customers with 41-80 days of one "
                              "row and others with one day of 9-20 rows, the result did not keep exactly the "
                              f"{l0} days and the {linf} rows the bounds allow (as real rows of the log).")
        for name in SWEEP_ORDERS:
            _check_sweep_order(name, ranks[name][positions], person[positions], sizes, l0, linf)


def _check_sweep_order(name: str, kept_ranks: np.ndarray, kept_person: np.ndarray, sizes: np.ndarray, l0: int,
                       linf: int) -> None:
    """One z test of :func:`_check_uniform_across_bounds`: the kept items' normalised ranks in order ``name``."""
    items, low, high = SWEEP_ORDERS[name]
    group = slice(SWEEP_PEOPLE, None) if items == "rows" else slice(0, SWEEP_PEOPLE)
    k = linf if items == "rows" else l0
    n = sizes[group].astype(float)
    mine = (kept_person >= SWEEP_PEOPLE) if items == "rows" else (kept_person < SWEEP_PEOPLE)
    total, mean = float(kept_ranks[mine].sum()), 0.5 * k * SWEEP_PEOPLE
    sd = _sqrt(float((k * (n + 1) * (n - k) / (12 * n * n)).sum()))
    if _abs(total - mean) > UNIFORMITY_SDS * sd:
        whose = "one day of 9-20 rows" if items == "rows" else "41-80 days"
        raise CheckFailed(f"at max_partitions={l0}, max_per_partition={linf} the choice is not uniform: for "
                          f"{SWEEP_PEOPLE} customers with {whose}, the kept {items} sit on average at "
                          f"{total / (k * SWEEP_PEOPLE):.2f} of the way through their {items} ranked by "
                          f"{_RANKED_BY[name.split()[-1]]} "
                          f"(uniform: 0.50 +- {sd / (k * SWEEP_PEOPLE):.3f}): they lean to the "
                          f"{low if total < mean else high}. Keep a uniformly random subset at every bound, whatever "
                          "the dates, amounts, index or order of the rows.")
