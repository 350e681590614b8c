"""09.1's test that a customer's choice of days and rows ignores the other customers who share their days
(referee s38rB items D4 and D9).

Every other uniformity test of 09.1 gives its tested customers days that are all shared with others, or all
their own, so whether a day is shared never varies where it could be seen: keeping the days that other
customers also shop on ("they survive partition selection"), or on those days the rows nearest the others'
amounts, passed. Here each customer has days of both kinds, the others' rows are added to some of their days
and not to others (a neighbouring log of the same customer, inside one log), and the customer's kept days and
rows must be the same uniform choice on both kinds. The customers also have 1 to 4 rows a day, so a choice
of days weighted by their rows is seen in a log of about 106,000 rows (referee s38rB D9: above 10,000 rows it
passed).
"""

from __future__ import annotations

import builtins
import math

import numpy as np
import pandas as pd

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_helpers.checks.lesson09_choice import UNIFORMITY_SDS, _check_bounded, _expect_frame

_abs, _len, _int, _float = builtins.abs, builtins.len, builtins.int, builtins.float
_sqrt = math.sqrt
_default_rng, _array, _repeat, _arange, _concatenate = (np.random.default_rng, np.array, np.repeat, np.arange,
                                                        np.concatenate)
_DataFrame, _Series = pd.DataFrame, pd.Series

#: Customers tested, their days each, how many of those days other customers share, and the call's bounds.
NEIGHBOUR_PEOPLE, NEIGHBOUR_DAYS, NEIGHBOUR_SHARED, NEIGHBOUR_BOUNDS = 3_000, 10, 3, (4, 2)

#: The day attributes tested, with the words of the hint.
_DAY_TESTS = (("shared", "shared days", "days that other customers also shop on"),
              ("others", "other customers on the kept days", "days with more other customers"),
              ("rows", "own rows on the kept days", "days on which they have more rows"))


def _neighbour_log(rng: np.random.Generator) -> tuple[pd.DataFrame, dict, np.ndarray]:
    """The log of :func:`check_choice_ignores_neighbours`, the customers' day attributes, and each row's cell.

    3,000 customers have 10 days of their own each (distinct day numbers in random order) with 1 to 4 rows a
    day; on 3 of each customer's 10 days, chosen at random, 1 to 6 other customers (a companion per slot,
    three slots each, one row a slot) shop too. The customers' amounts are distinct and all below the
    companions'. The log is in date order (shuffled within a day), ids of both groups interleave at random.

    Returns
    -------
    log : pandas.DataFrame
        Columns customer_id, day, amount; index labels in random order.
    attributes : dict
        ``shared``, ``others`` and ``rows``: arrays of shape (3,000, 10) over the customers' days.
    cell : numpy.ndarray
        For each row of ``log``, its customer's day number (customer * 10 + day) or -1 for a companion.
    """
    people, width = NEIGHBOUR_PEOPLE, NEIGHBOUR_DAYS
    days = (rng.permutation(people * width) * 7 + 3).reshape(people, width)
    shared = rng.random((people, width)).argsort(axis=1) < NEIGHBOUR_SHARED
    others = np.where(shared, rng.integers(1, 7, (people, width)), 0)
    rows = rng.integers(1, 5, (people, width))
    cell = _repeat(_arange(people * width), rows.ravel())
    slots = _repeat(days[shared], others[shared])
    companion = rng.permutation(slots.size) // 3
    ids = _array([f"N{i:05d}" for i in rng.permutation(people + _int(companion.max()) + 1)], dtype=object)
    focal_amount = (rng.permutation(cell.size) + 100) / 100
    log = _DataFrame({"customer_id": _concatenate([ids[cell // width], ids[people + companion]]),
                      "day": _concatenate([days.ravel()[cell], slots]),
                      "amount": _concatenate([focal_amount, focal_amount.max() + 1 + rng.permutation(slots.size)])},
                     index=rng.permutation(cell.size + slots.size) * 3 + 11)
    cell = _concatenate([cell, np.full(slots.size, -1)])
    order = rng.permutation(_len(log))
    order = order[np.argsort(log["day"].to_numpy()[order], kind="stable")]  # date order, as logs are written
    attributes = {"shared": shared.astype(float), "others": others.astype(float), "rows": rows.astype(float)}
    return log.iloc[order], attributes, cell[order]


def _check_days(kept_cells: np.ndarray, attributes: dict, l0: int) -> None:
    """Per customer, the kept days' sum of each attribute is that of a uniform l0-of-10 subset: mean l0 x the
    customer's mean, variance l0 (10 - l0) / 9 x its variance; the sum over the customers beyond 6 sd fails."""
    kept = np.zeros(NEIGHBOUR_PEOPLE * NEIGHBOUR_DAYS, dtype=bool)
    kept[kept_cells] = True
    kept = kept.reshape(NEIGHBOUR_PEOPLE, NEIGHBOUR_DAYS)
    width = NEIGHBOUR_DAYS
    for name, counted, words in _DAY_TESTS:
        values = attributes[name]
        total = _float((values * kept).sum())
        mean = l0 * _float(values.mean(axis=1).sum())
        sd = _sqrt(l0 * (width - l0) / (width - 1) * _float(values.var(axis=1).sum()))
        if _abs(total - mean) > UNIFORMITY_SDS * sd:
            raise CheckFailed(f"{NEIGHBOUR_PEOPLE:,} customers each shop on 10 days of their own, 1 to 4 rows a day, "
                              "and on 3 of each customer's days, chosen at random, 1 to 6 other customers shop too; "
                              f"with max_partitions={l0} a uniformly random choice keeps {counted} adding up to about "
                              f"{mean:,.0f} (+- {sd:,.0f}), but yours gave {total:,.0f}: it "
                              f"{'prefers' if total > mean else 'avoids'} {words}. "
                              + _DAY_ADVICE[name])


_DAY_ADVICE = {
    "shared": "Which of a customer's days are kept must not depend on other customers' rows: adding or removing "
              "one other customer would then change what everyone sharing their days keeps, so one person moves "
              "more counts than the bounds allow. Draw each customer's days from rng alone.",
    "rows": "Choose among a customer's distinct days, each equally likely, not among their rows."}
_DAY_ADVICE["others"] = _DAY_ADVICE["shared"]


def _check_rows(log: pd.DataFrame, kept_pos: np.ndarray, cell: np.ndarray, shared: np.ndarray, linf: int) -> None:
    """On kept days with more rows than ``linf``, the kept rows' normalised ranks ((rank + 0.5) / rows) within
    their day, by table position and by amount, sum to linf / 2 per day, variance linf (r + 1)(r - linf) / (12
    r^2); tested on shared and on unshared days apart, 6 sd each."""
    focal = cell >= 0
    frame = _DataFrame({"cell": cell[focal], "amount": log["amount"].to_numpy()[focal], "pos": _arange(_len(log))[focal]})
    size = frame.groupby("cell")["cell"].transform("size").to_numpy()
    ranks = {"table position": frame.groupby("cell").cumcount().to_numpy(),
             "amount": frame.groupby("cell")["amount"].rank(method="first").to_numpy() - 1}
    chosen = np.isin(frame["pos"].to_numpy(), kept_pos) & (size > linf)
    kept_cell = frame["cell"].to_numpy()[chosen]
    days = np.unique(kept_cell)
    r = np.bincount(frame["cell"].to_numpy(), minlength=shared.size)[days].astype(float)
    is_shared = shared.ravel()[days] > 0
    cell_shared = shared.ravel()[kept_cell] > 0
    for order, rank in ranks.items():
        normalised = (rank[chosen] + 0.5) / size[chosen]
        for group, label in ((True, "days other customers also shop on"), (False, "days of their own")):
            total = _float(normalised[cell_shared == group].sum())
            mine = r[is_shared == group]
            mean, sd = 0.5 * linf * mine.size, _sqrt(_float((linf * (mine + 1) * (mine - linf) / (12 * mine * mine)).sum()))
            if _abs(total - mean) > UNIFORMITY_SDS * sd:
                raise CheckFailed(f"{NEIGHBOUR_PEOPLE:,} customers have 1 to 4 rows a day; on the {label} with more "
                                  f"than max_per_partition={linf} rows the kept rows sit on average at "
                                  f"{total / (linf * mine.size):.2f} of the way through the day's rows by {order} "
                                  f"(uniform: 0.50 +- {sd / (linf * mine.size):.3f}). Keep a uniformly random subset "
                                  "of a customer's rows on every day, drawn from rng alone: a choice that looks at "
                                  "other customers' rows or at the order of the table makes what one customer "
                                  "contributes depend on who else is in the log.")


def check_choice_ignores_neighbours(answer, rng: np.random.Generator) -> None:
    """Each customer keeps the same uniform choice of days and rows whether or not others share their days.

    One call on :func:`_neighbour_log` (about 106,000 rows, 13,500 customers) with max_partitions = 4,
    max_per_partition = 2. Days (:func:`_check_days`): the kept days' count of shared days, of other customers
    and of own rows, each summed over the 3,000 customers (mean 3,600, 12,600 and 30,000; sd 41, 164 and 95),
    6 sd each. Rows (:func:`_check_rows`): on the about 6,000 kept days with 3 or 4 rows (1,800 of them shared),
    the kept rows' mean normalised rank by table position and by amount, on shared and on unshared days apart,
    6 sd each (sd 0.004 on shared days). Seven tests at a normal tail of 2e-9 each (sums of thousands of bounded
    independent terms): false rejection below 2e-8. Keeping shared days first gives 9,000 shared days against
    3,600 (130 sd); days with at least 5 customers first, about 60 sd; days in the order of their first row in
    a shuffled table (weighted by their rows), about 45 sd; on shared days the first rows in table order, or
    the rows nearest the day's median amount (the others' amounts are above the customer's), about 50 sd: any
    such rule is caught once it moves a sum by 6 sd, e.g. a preference for shared days that acts on 3% of the
    customers. Limit: a rule that acts only above 106,000 rows or 13,500 customers, only on days of more than 6
    other customers or more than 4 own rows, or that depends on the others only through something this log
    keeps constant (their amounts are all above the customer's), passes here.

    Parameters
    ----------
    answer : callable
        The student's answer to exercise 09.1.
    rng : numpy.random.Generator
        Draws the log and the generator handed to the answer.

    Raises
    ------
    CheckFailed
        With a hint that names the dependence, when a sum is off by more than 6 sd.
    """
    l0, linf = NEIGHBOUR_BOUNDS
    log, attributes, cell = _neighbour_log(rng)
    original = log.copy()
    kept = _expect_frame(answer(log, l0, linf, _default_rng(_int(rng.integers(1 << 30)))), "the kept rows")
    _check_bounded(original, kept, l0, linf)
    kept_pos = original.index.get_indexer(kept.index)
    kept_cells = np.unique(cell[kept_pos][cell[kept_pos] >= 0])
    _check_days(kept_cells, attributes, l0)
    _check_rows(original, kept_pos, cell, attributes["shared"], linf)


#: Referee s39rB D0b: rounds of four calls, the customer's days, max_partitions and the two max_per_partition.
CHANGED_ROUNDS, CHANGED_DAYS, CHANGED_L0, CHANGED_LINF = 20, 30, 6, (1, 2)
#: Calls whose kept days equal an earlier call's at which the test fails (a correct answer: below 3e-8).
CHANGED_REPEATS = 3


def _changed_logs(rng: np.random.Generator) -> list[pd.DataFrame]:
    """One customer with 30 days of 1-3 rows, and the same log with one more row on one of those days."""
    rows = rng.integers(1, 4, CHANGED_DAYS)
    log = _DataFrame({"customer_id": "m", "day": _repeat(_arange(CHANGED_DAYS), rows),
                      "amount": np.round(rng.uniform(1.0, 100.0, int(rows.sum())), 2)})
    extra = _DataFrame({"customer_id": ["m"], "day": [_int(rng.integers(CHANGED_DAYS))], "amount": [1.0]})
    return [log, pd.concat([log, extra], ignore_index=True)]


def check_choice_fresh_on_changed_rows(answer, rng: np.random.Generator) -> None:
    """The same customer in two logs that differ by one row, at two bounds, in rounds of four calls (referee s39rB
    D0b: kept days memoised per customer and reused when their rows change passed; no case showed one customer
    twice with other rows).

    The customer has 30 days and max_partitions is 6, so two independent uniform choices keep the same 6 days
    with chance 1 / C(30, 6) = 1.7e-6. Every pair of the 80 calls is compared, not only consecutive ones
    (referee s40rB D5: a memo per customer and bound, reused whenever the rows change, repeats a choice two calls
    later, A@1 B@1, and passed the consecutive test): :data:`CHANGED_REPEATS` or more calls whose kept days equal
    an earlier call's fail. A correct answer expects 3,160 x 1.7e-6 = 5.3e-3 equal pairs; 3 repeats need three
    disjoint equal pairs (5.3e-3^3 / 6 = 2.5e-8), three equal calls and a pair (1.2e-9) or four equal calls (7e-12),
    so it fails with probability about 2.6e-8. A memo reused on every changed log repeats 78 times (power 1); one
    reused on a fraction f of the calls about 80 f times, so it fails from f about 0.04.

    Parameters
    ----------
    answer : callable
        The student's 09.1 function, called 80 times on small logs.
    rng : numpy.random.Generator
        Draws the two logs and the seed of the generator shared by the 80 calls.

    Raises
    ------
    CheckFailed
        If :data:`CHANGED_REPEATS` or more calls keep the same days as an earlier call.
    """
    logs = _changed_logs(rng)
    shared = _default_rng(_int(rng.integers(1 << 30)))
    kept_days = []
    for _ in range(CHANGED_ROUNDS):
        for log, linf in ((logs[0], CHANGED_LINF[0]), (logs[0], CHANGED_LINF[1]), (logs[1], CHANGED_LINF[0]),
                          (logs[1], CHANGED_LINF[1])):
            kept = _expect_frame(answer(log.copy(), CHANGED_L0, linf, shared), "the kept rows")
            _check_bounded(log, kept, CHANGED_L0, linf)
            kept_days.append(tuple(sorted(set(log.loc[kept.index, "day"].tolist()))))
    repeats = _len(kept_days) - _len(set(kept_days))
    if repeats >= CHANGED_REPEATS:
        raise CheckFailed(f"for one customer with {CHANGED_DAYS} days (max_partitions={CHANGED_L0}) in two logs that "
                          f"differ by one row, called in turn at max_per_partition {CHANGED_LINF[0]} and "
                          f"{CHANGED_LINF[1]}, {repeats} of {_len(kept_days)} calls kept the same days as an earlier "
                          "call, where two independent choices agree about once in 600,000 pairs: the choice repeats "
                          "between calls. Either a choice stored for the customer is reused when they come again "
                          "(also when their rows or the bounds change), or its randomness does not come from `rng` (a generator seeded by the "
                          "customer id or a fixed number repeats its choice), or it comes through a seed with few "
                          "possible values (one seeded by rng.integers(1000) repeats one of 1,000 choices). Draw every "
                          "call's choice afresh from `rng`, or seed any sub-generator with rng.spawn(1)[0] or "
                          "rng.integers(2**63).")
