"""Privacy budget accounting: a ledger that refuses to overspend, and a budget-tracking database.

Composition rules used here:

* **sequential**: queries on the same data add up, ``(sum epsilon_i, sum delta_i)``
  (Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, Theorem 3.16);
* **parallel**: queries on disjoint parts of the data, split by a rule fixed without looking
  at the data, cost ``(max epsilon_i, max delta_i)`` (McSherry 2009).

Also: advanced composition (Dwork, Rothblum & Vadhan 2010) and zero-concentrated DP
(Bun & Steinke 2016) helpers for comparing how total epsilon grows with the number of queries.

Rules of the ledger (lesson 03):

* **A budget is a hard limit.** Spends are added up exactly: each epsilon (and delta) counts
  as the decimal number it is written as (``0.1`` is one tenth; ``Fraction(repr(x))``), and a
  spend fits only if the exact sum stays at or below the total. So ``[0.1] * 10`` fits a budget
  of 1, and after it nothing more, however small, does. A float computation such as ``1 / 3``
  rounds; :func:`split_epsilon` splits a budget into parts that provably fit.
* **A query is charged when it is attempted.** Arguments that do not depend on the data (an
  epsilon, a column name, bounds) are checked first, and an invalid query spends nothing.
  Then the budget is checked; a refused query spends nothing and never touches the data.
  Then the charge is recorded, and only then does the query run: if it fails after that
  (which may depend on the data), the charge stays, because the failure is itself an output.

Neighbouring datasets in this module differ by adding or removing one row (one row per
person: the data curator must make it so, or use contribution bounding, lesson 04).

:class:`PrivateDatabase` (a table behind an accountant) lives in
:mod:`mic_dp_helpers.accounting.private_database` (it imports this module, so not the other way round).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    check_int_at_least,
    check_positive_float,
    check_probability,
)

__all__ = [
    "BudgetExceededError",
    "LedgerEntry",
    "PrivacyAccountant",
    "CONDITION_OPERATORS",
    "advanced_composition_epsilon",
    "split_epsilon",
    "zcdp_rho_gaussian",
    "zcdp_to_dp",
]


def _decimal(value: float) -> Fraction:
    """The exact decimal number a float is written as: ``0.1`` is ``Fraction(1, 10)``.

    ``repr`` gives the shortest decimal that reads back as the same float, so a plan typed as
    decimals (0.3 + 0.3 + 0.4) adds up exactly to what it was meant to.
    """
    return Fraction(repr(float(value)))


def split_epsilon(total: float, weights: Sequence[float]) -> list[float]:
    """Split ``total`` in proportion to positive ``weights`` into parts that fit it exactly.

    ``total * w / sum(w)`` in floating point may round up, and then the parts add up to a
    hair more than the total, which :class:`PrivacyAccountant` refuses. Here each part is
    the exact share rounded **down** (to the largest float whose decimal value does not
    exceed the share), so the parts always fit; they fall short of the total by at most a
    few units in the last place.

    Parameters
    ----------
    total : float
        The budget to split (> 0).
    weights : sequence of float
        One positive weight per part.

    Returns
    -------
    list of float

    Examples
    --------
    >>> parts = split_epsilon(1.0, [1, 1, 1])
    >>> accountant = PrivacyAccountant(1.0)
    >>> for part in parts:
    ...     _ = accountant.spend(part)
    >>> accountant.remaining_epsilon < 1e-15
    True
    """
    total_exact = _decimal(check_positive_float(total, "total"))
    if (isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, np.ndarray, pd.Series))
            or np.ndim(weights) != 1):
        raise TypeError(f"weights must be a list of positive numbers, got {type(weights).__name__}.")
    exact_weights = [Fraction(check_positive_float(w, f"weights[{i}]")) for i, w in enumerate(weights)]
    if not exact_weights:
        raise ValueError("weights is empty; give one weight per part.")
    weight_sum = sum(exact_weights)
    parts = []
    for weight in exact_weights:
        share = total_exact * weight / weight_sum
        part = float(share)
        while part > 0 and _decimal(part) > share:
            part = math.nextafter(part, 0.0)
        parts.append(part)
    return parts


def _number_list(values, name: str, what: str) -> list:
    """``values`` (a list, tuple, 1-D array or Series) as a list; anything else is a TypeError."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray, pd.Series)) or np.ndim(
            values) != 1:
        raise TypeError(f"{name} must be a list of {what}, got {type(values).__name__}.")
    return list(values)


def _check_label(label) -> str:
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {type(label).__name__} {label!r}.")
    return label
class BudgetExceededError(Exception):
    """Raised when a query would spend more privacy budget than is left; nothing was spent.

    Attributes
    ----------
    requested_epsilon, requested_delta : float
        What the refused query asked for.
    remaining_epsilon, remaining_delta : float
        What was (and still is) left.
    label : str
        The query's label.

    Examples
    --------
    >>> error = BudgetExceededError(0.5, 0.0, 0.2, 0.0, label="count")
    >>> "0.2" in str(error)
    True
    """

    def __init__(self, requested_epsilon: float, requested_delta: float, remaining_epsilon: float,
                 remaining_delta: float, label: str = "") -> None:
        self.requested_epsilon = requested_epsilon
        self.requested_delta = requested_delta
        self.remaining_epsilon = remaining_epsilon
        self.remaining_delta = remaining_delta
        self.label = label
        name = f"Query {label!r}" if label else "This query"
        pairs = [(requested_epsilon, remaining_epsilon), (requested_delta, remaining_delta)]
        shown = [(f"{a:g}", f"{b:g}") if f"{a:g}" != f"{b:g}" or a == b else (repr(a), repr(b)) for a, b in pairs]
        rounding = any(f"{a:g}" == f"{b:g}" and a != b for a, b in pairs)
        super().__init__(
            f"{name} needs epsilon={shown[0][0]}, delta={shown[1][0]}, but only "
            f"epsilon={shown[0][1]}, delta={shown[1][1]} remain. Nothing was spent "
            "and no answer was released. Ask for a smaller epsilon (more noise), ask fewer "
            "questions, or reuse answers you already have: a new budget for the same data would "
            "void the privacy guarantee."
            + (" The two differ only in the last digits: parts computed in floating point (such as "
               "total / 3) can add up to a hair more than the total; split a budget with "
               "mic_dp_helpers.accounting.ledger.split_epsilon." if rounding else "")
        )


@dataclass(frozen=True)
class LedgerEntry:
    """One recorded spend.

    Attributes
    ----------
    label : str
        What the spend was for.
    epsilon, delta : float
        What it cost (for a parallel spend, the maximum over the parts).
    kind : {"sequential", "parallel"}
        Which composition rule was used.
    parts : tuple of float
        For a parallel spend, the epsilon of each disjoint part; otherwise ``(epsilon,)``.
    """

    label: str
    epsilon: float
    delta: float
    kind: str = "sequential"
    parts: tuple[float, ...] = ()


class PrivacyAccountant:
    """Track a total (epsilon, delta) budget and refuse any spend that would exceed it.

    A refused spend raises :class:`BudgetExceededError` and changes nothing. The budget is a
    hard limit: spends are added up exactly, each read as the decimal number it is written as
    (``0.1`` is one tenth), so a plan whose parts add up to the total in exact arithmetic fits,
    and nothing beyond the total ever does. Split a budget with :func:`split_epsilon` when the
    parts come from a float computation such as ``total / 3``.

    Parameters
    ----------
    total_epsilon : float
        Total epsilon budget (> 0).
    total_delta : float, default 0.0
        Total delta budget, 0 <= total_delta < 1. Zero allows only pure-DP spends.

    Examples
    --------
    >>> accountant = PrivacyAccountant(total_epsilon=1.0)
    >>> for _ in range(10):
    ...     _ = accountant.spend(0.1, label="count")
    >>> accountant.remaining_epsilon
    0.0
    >>> accountant.can_spend(1e-12)
    False
    """

    def __init__(self, total_epsilon: float, total_delta: float = 0.0) -> None:
        self._total_epsilon = check_positive_float(total_epsilon, "total_epsilon")
        self._total_delta = check_probability(total_delta, "total_delta", allow_zero=True)
        self._total_exact = (_decimal(self._total_epsilon), _decimal(self._total_delta))
        self._spent_exact = (Fraction(0), Fraction(0))
        self._ledger: list[LedgerEntry] = []

    # ----------------------------------------------------------------- read-only state
    @property
    def total_epsilon(self) -> float:
        """The total epsilon budget."""
        return self._total_epsilon

    @property
    def total_delta(self) -> float:
        """The total delta budget."""
        return self._total_delta

    @property
    def ledger(self) -> tuple[LedgerEntry, ...]:
        """All recorded spends, oldest first (a tuple: it cannot be edited)."""
        return tuple(self._ledger)

    @property
    def spent_epsilon(self) -> float:
        """Epsilon spent so far (sequential composition of the ledger; the exact sum, rounded once)."""
        return float(self._spent_exact[0])

    @property
    def spent_delta(self) -> float:
        """Delta spent so far."""
        return float(self._spent_exact[1])

    @property
    def remaining_epsilon(self) -> float:
        """Epsilon left (never negative)."""
        return float(self._total_exact[0] - self._spent_exact[0])

    @property
    def remaining_delta(self) -> float:
        """Delta left (never negative)."""
        return float(self._total_exact[1] - self._spent_exact[1])

    @property
    def remaining(self) -> tuple[float, float]:
        """``(remaining_epsilon, remaining_delta)``."""
        return self.remaining_epsilon, self.remaining_delta

    def __repr__(self) -> str:
        return (f"PrivacyAccountant(total_epsilon={self._total_epsilon:g}, total_delta={self._total_delta:g}, "
                f"spent_epsilon={self.spent_epsilon:g}, spent_delta={self.spent_delta:g}, "
                f"queries={len(self._ledger)})")

    def to_frame(self) -> pd.DataFrame:
        """The ledger as a DataFrame (one row per spend), for display in a notebook.

        Returns
        -------
        pandas.DataFrame
            Columns ``label``, ``epsilon``, ``delta``, ``kind``, ``parts``.

        Examples
        --------
        >>> accountant = PrivacyAccountant(1.0)
        >>> _ = accountant.spend(0.25, label="mean age")
        >>> accountant.to_frame()["epsilon"].tolist()
        [0.25]
        """
        columns = ["label", "epsilon", "delta", "kind", "parts"]
        return pd.DataFrame([[getattr(e, c) for c in columns] for e in self._ledger], columns=columns)

    # ----------------------------------------------------------------------- spending
    def _fits(self, epsilon: float, delta: float) -> bool:
        # Exact comparison of decimal values: no tolerance, no overspend.
        return (self._spent_exact[0] + _decimal(epsilon) <= self._total_exact[0]
                and self._spent_exact[1] + _decimal(delta) <= self._total_exact[1])

    @staticmethod
    def _check_cost(epsilon, delta) -> tuple[float, float]:
        epsilon = check_positive_float(epsilon, "epsilon")
        delta = check_probability(delta, "delta", allow_zero=True)
        return epsilon, delta

    def can_spend(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether a spend of ``(epsilon, delta)`` fits in what is left (nothing is recorded).

        Parameters
        ----------
        epsilon : float
            The spend's epsilon (> 0).
        delta : float, default 0.0
            The spend's delta, in [0, 1).

        Returns
        -------
        bool
            True if the spend fits in the remaining budget.

        Examples
        --------
        >>> PrivacyAccountant(1.0).can_spend(2.0)
        False
        """
        epsilon, delta = self._check_cost(epsilon, delta)
        return self._fits(epsilon, delta)

    def can_spend_all(self, epsilons: Sequence[float], deltas: Sequence[float] | None = None) -> bool:
        """Whether spending every one of ``epsilons`` (and ``deltas``), one after the other, fits.

        Use it to run a plan all or nothing. It adds the parts exactly, as the ledger will:
        ``can_spend(math.fsum(parts))`` is not the same, because a float sum rounds (three
        spends of 0.1 fit in 0.3, but ``math.fsum([0.1] * 3)`` is 0.30000000000000004).

        Parameters
        ----------
        epsilons : sequence of float
            The epsilon of each part (> 0).
        deltas : sequence of float, optional
            The delta of each part; zeros by default.

        Returns
        -------
        bool
            True if all the parts together fit.

        Raises
        ------
        ValueError
            If ``deltas`` and ``epsilons`` differ in length, or a part is invalid.

        Examples
        --------
        >>> accountant = PrivacyAccountant(1.0)
        >>> _ = accountant.spend(0.7)
        >>> accountant.can_spend_all([0.1, 0.1, 0.1]), accountant.can_spend_all([0.1, 0.1, 0.2])
        (True, False)
        """
        epsilons = _number_list(epsilons, "epsilons", "positive numbers")
        deltas = [0.0] * len(epsilons) if deltas is None else _number_list(deltas, "deltas", "numbers in [0, 1)")
        if len(deltas) != len(epsilons):
            raise ValueError(f"deltas has {len(deltas)} entries but epsilons has {len(epsilons)}; give one per part.")
        costs = [self._check_cost(e, d) for e, d in zip(epsilons, deltas)]
        return (self._spent_exact[0] + sum(_decimal(e) for e, _ in costs) <= self._total_exact[0]
                and self._spent_exact[1] + sum(_decimal(d) for _, d in costs) <= self._total_exact[1])

    def _record(self, entry: LedgerEntry) -> LedgerEntry:
        if not self._fits(entry.epsilon, entry.delta):
            raise BudgetExceededError(entry.epsilon, entry.delta, self.remaining_epsilon,
                                      self.remaining_delta, entry.label)
        self._ledger.append(entry)
        self._spent_exact = (self._spent_exact[0] + _decimal(entry.epsilon),
                             self._spent_exact[1] + _decimal(entry.delta))
        return entry

    def spend(self, epsilon: float, delta: float = 0.0, label: str = "") -> LedgerEntry:
        """Record a spend of ``(epsilon, delta)`` (sequential composition).

        Parameters
        ----------
        epsilon : float
            Cost of the query (> 0).
        delta : float, default 0.0
            Cost of the query, 0 <= delta < 1.
        label : str, default ""
            What the spend is for, shown in the ledger.

        Returns
        -------
        LedgerEntry
            The recorded entry.

        Raises
        ------
        BudgetExceededError
            If the spend does not fit; then nothing is recorded.

        Examples
        --------
        >>> accountant = PrivacyAccountant(1.0)
        >>> accountant.spend(0.3, label="count").epsilon
        0.3
        """
        epsilon, delta = self._check_cost(epsilon, delta)
        return self._record(LedgerEntry(_check_label(label), epsilon, delta, "sequential", (epsilon,)))

    def spend_parallel(self, epsilons: Sequence[float], label: str = "", *,
                       deltas: Sequence[float] | None = None) -> LedgerEntry:
        """Record queries on disjoint parts of the data: they cost the maximum, not the sum.

        Parallel composition holds only if every record falls in exactly one part, and the
        parts are defined without looking at the private data (e.g. by a public attribute).

        Parameters
        ----------
        epsilons : sequence of float
            Epsilon of the query on each part (each > 0).
        label : str, default ""
            What the spend is for.
        deltas : sequence of float, optional
            Delta of each part (same length as ``epsilons``); default all zero.

        Returns
        -------
        LedgerEntry
            The entry, with ``epsilon = max(epsilons)`` and ``kind="parallel"``.

        Examples
        --------
        >>> accountant = PrivacyAccountant(1.0)
        >>> accountant.spend_parallel([0.5, 0.5, 0.5], label="histogram").epsilon
        0.5
        >>> accountant.remaining_epsilon
        0.5
        """
        epsilons = _number_list(epsilons, "epsilons", "positive numbers")
        if len(epsilons) == 0:
            raise ValueError("epsilons is empty; pass the epsilon of at least one part.")
        parts = tuple(check_positive_float(e, f"epsilons[{i}]") for i, e in enumerate(epsilons))
        if deltas is None:
            delta_parts = (0.0,) * len(parts)
        else:
            deltas = _number_list(deltas, "deltas", "numbers in [0, 1)")
            if len(deltas) != len(parts):
                raise ValueError(f"deltas has {len(deltas)} entries but epsilons has {len(parts)}; "
                                 "give one delta per part.")
            delta_parts = tuple(check_probability(d, f"deltas[{i}]", allow_zero=True) for i, d in enumerate(deltas))
        entry = LedgerEntry(_check_label(label), max(parts), max(delta_parts), "parallel", parts)
        return self._record(entry)

    def charge_and_run(self, query_fn: Callable[[], Any], epsilon: float, delta: float = 0.0,
                       label: str = "") -> Any:
        """Charge ``(epsilon, delta)`` for an attempted query, then run ``query_fn()``.

        The rule: **a query is paid for when it is attempted.**

        1. ``epsilon``, ``delta``, ``label`` and ``query_fn`` are validated (an invalid
           argument spends nothing; it does not depend on the data);
        2. if the budget left is too small, :class:`BudgetExceededError` is raised, nothing
           is spent and ``query_fn`` is never called;
        3. the charge is recorded, and only then is ``query_fn`` called. If it raises, the
           error propagates and **the charge stays**: whether a query on private data fails
           can depend on that data, so the failure is itself a release.

        So check everything that does not depend on the data *before* calling this.

        Parameters
        ----------
        query_fn : callable
            Zero-argument function computing the noisy answer with ``epsilon``.
        epsilon, delta : float
            Cost of the query.
        label : str, default ""
            Ledger label.

        Returns
        -------
        object
            Whatever ``query_fn`` returns.

        Examples
        --------
        >>> from mic_dp_helpers.mechanisms.noise import laplace_mechanism
        >>> accountant = PrivacyAccountant(1.0)
        >>> answer = accountant.charge_and_run(lambda: laplace_mechanism(120, 1.0, 0.5, rng=0),
        ...                                    epsilon=0.5, label="count")
        >>> accountant.spent_epsilon
        0.5
        """
        if not callable(query_fn):
            raise TypeError(f"query_fn must be a callable taking no arguments, got {type(query_fn).__name__}.")
        epsilon, delta = self._check_cost(epsilon, delta)
        self._record(LedgerEntry(_check_label(label), epsilon, delta, "sequential", (epsilon,)))
        return query_fn()


# --------------------------------------------------------------- composition theorems
def advanced_composition_epsilon(epsilon: float, delta_prime: float, k: int) -> float:
    """Total epsilon of ``k`` epsilon-DP queries by advanced composition.

    ``sqrt(2 k ln(1/delta')) * epsilon + k * epsilon * (exp(epsilon) - 1)`` (Dwork, Rothblum
    & Vadhan 2010; Dwork & Roth 2014, Theorem 3.20); the total delta is ``k * delta + delta'``.
    For few queries or large epsilon it can exceed the basic bound ``k * epsilon``: take the
    minimum of the two.

    Parameters
    ----------
    epsilon : float
        Epsilon of each query (> 0).
    delta_prime : float
        The extra delta of the bound, in (0, 1).
    k : int
        Number of queries (>= 1).

    Returns
    -------
    float
        The total epsilon (``inf`` when ``exp(epsilon)`` overflows).

    Examples
    --------
    >>> round(advanced_composition_epsilon(0.01, 1e-6, 1000), 3)
    1.763
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    delta_prime = check_probability(delta_prime, "delta_prime")
    k = check_int_at_least(k, "k", 1)
    try:
        growth = math.expm1(epsilon)
    except OverflowError:  # exp(epsilon) overflows a float: the bound is infinite (useless), not an error
        return math.inf
    return math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * growth


def zcdp_rho_gaussian(sensitivity: float, sigma: float) -> float:
    """zCDP parameter ``rho = sensitivity**2 / (2 sigma**2)`` of the Gaussian mechanism.

    rho adds up over queries (Bun & Steinke 2016): ``k`` queries cost ``k * rho``.

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity of the query (> 0).
    sigma : float
        Noise standard deviation (> 0).

    Returns
    -------
    float
        rho.

    Examples
    --------
    >>> zcdp_rho_gaussian(1.0, 1.0)
    0.5
    """
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    sigma = check_positive_float(sigma, "sigma")
    try:
        return sensitivity**2 / (2 * sigma**2)
    except (OverflowError, ZeroDivisionError):  # a square out of float range: the ratio first (inf or 0)
        ratio = sensitivity / sigma
        return 0.5 * ratio * ratio


def zcdp_to_dp(rho: float, delta: float) -> float:
    """Epsilon such that rho-zCDP implies (epsilon, delta)-DP: ``rho + 2 sqrt(rho ln(1/delta))``.

    Parameters
    ----------
    rho : float
        The zCDP parameter (> 0).
    delta : float
        Target delta, in (0, 1).

    Returns
    -------
    float
        The epsilon (Bun & Steinke 2016, Proposition 1.3).

    Examples
    --------
    >>> round(zcdp_to_dp(0.5, 1e-5), 3)
    5.299
    """
    rho = check_positive_float(rho, "rho")
    delta = check_probability(delta, "delta")
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))

