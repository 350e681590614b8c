"""Privacy budget accounting: a ledger that refuses to overspend, and a budget-tracking database.

Composition rules used here:

* **sequential**: queries on the same data add up, ``(sum epsilon_i, sum delta_i)``;
* **parallel**: queries on disjoint parts of the data cost ``(max epsilon_i, max delta_i)``.

Also: advanced composition (Dwork, Rothblum & Vadhan 2010) and zero-concentrated DP
(Bun & Steinke 2016) helpers for comparing how total epsilon grows with the number of queries.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    as_generator,
    check_dataframe,
    check_finite_float,
    check_int_at_least,
    check_positive_float,
    check_probability,
)
from mic_dp_helpers.mechanisms import laplace_mechanism

__all__ = [
    "BudgetExceededError",
    "LedgerEntry",
    "PrivacyAccountant",
    "PrivateDatabase",
    "advanced_composition_epsilon",
    "zcdp_rho_gaussian",
    "zcdp_to_dp",
]

#: Relative slack allowed when comparing spends with the budget, so that splitting 1.0 into
#: ten spends of 0.1 (whose float sum is 0.9999999999999999) fits. Far below any meaningful epsilon.
RELATIVE_TOLERANCE = 1e-9


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
        super().__init__(
            f"{name} needs epsilon={requested_epsilon:g}, delta={requested_delta:g}, but only "
            f"epsilon={remaining_epsilon:g}, delta={remaining_delta:g} remain. Nothing was spent "
            "and no answer was released. Ask for a smaller epsilon (more noise), ask fewer "
            "questions, or reuse answers you already have: a new budget for the same data would "
            "void the privacy guarantee."
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

    A refused spend raises :class:`BudgetExceededError` and changes nothing. Spends are
    compared with the budget with a relative tolerance of ``1e-9``.

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
    >>> accountant.can_spend(0.1)
    False
    """

    def __init__(self, total_epsilon: float, total_delta: float = 0.0) -> None:
        self._total_epsilon = check_positive_float(total_epsilon, "total_epsilon")
        self._total_delta = check_probability(total_delta, "total_delta", allow_zero=True)
        self._ledger: list[LedgerEntry] = []
        self._epsilons: list[float] = []  # mirrors the ledger, for fast exact sums with math.fsum
        self._deltas: list[float] = []

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
        """Epsilon spent so far (sequential composition of the ledger)."""
        return math.fsum(self._epsilons)

    @property
    def spent_delta(self) -> float:
        """Delta spent so far."""
        return math.fsum(self._deltas)

    @property
    def remaining_epsilon(self) -> float:
        """Epsilon left (never negative)."""
        return max(self._total_epsilon - self.spent_epsilon, 0.0)

    @property
    def remaining_delta(self) -> float:
        """Delta left (never negative)."""
        return max(self._total_delta - self.spent_delta, 0.0)

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
        eps_ok = self.spent_epsilon + epsilon <= self._total_epsilon * (1 + RELATIVE_TOLERANCE)
        delta_ok = delta == 0 or self.spent_delta + delta <= self._total_delta * (1 + RELATIVE_TOLERANCE)
        return eps_ok and delta_ok

    @staticmethod
    def _check_cost(epsilon, delta) -> tuple[float, float]:
        epsilon = check_positive_float(epsilon, "epsilon")
        delta = check_probability(delta, "delta", allow_zero=True)
        return epsilon, delta

    def can_spend(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether a spend of ``(epsilon, delta)`` fits in what is left (nothing is recorded).

        Examples
        --------
        >>> PrivacyAccountant(1.0).can_spend(2.0)
        False
        """
        epsilon, delta = self._check_cost(epsilon, delta)
        return self._fits(epsilon, delta)

    def _record(self, entry: LedgerEntry) -> LedgerEntry:
        if not self._fits(entry.epsilon, entry.delta):
            raise BudgetExceededError(entry.epsilon, entry.delta, self.remaining_epsilon,
                                      self.remaining_delta, entry.label)
        self._ledger.append(entry)
        self._epsilons.append(entry.epsilon)
        self._deltas.append(entry.delta)
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
        if isinstance(epsilons, (str, bytes)) or not isinstance(epsilons, (Sequence, np.ndarray)):
            raise TypeError(f"epsilons must be a list of positive numbers, got {type(epsilons).__name__}.")
        if len(epsilons) == 0:
            raise ValueError("epsilons is empty; pass the epsilon of at least one part.")
        parts = tuple(check_positive_float(e, f"epsilons[{i}]") for i, e in enumerate(epsilons))
        if deltas is None:
            delta_parts = (0.0,) * len(parts)
        else:
            if isinstance(deltas, (str, bytes)) or not isinstance(deltas, (Sequence, np.ndarray)):
                raise TypeError(f"deltas must be a list of numbers in [0, 1), got {type(deltas).__name__}.")
            if len(deltas) != len(parts):
                raise ValueError(f"deltas has {len(deltas)} entries but epsilons has {len(parts)}; "
                                 "give one delta per part.")
            delta_parts = tuple(check_probability(d, f"deltas[{i}]", allow_zero=True) for i, d in enumerate(deltas))
        entry = LedgerEntry(_check_label(label), max(parts), max(delta_parts), "parallel", parts)
        return self._record(entry)

    def charge_and_run(self, query_fn: Callable[[], Any], epsilon: float, delta: float = 0.0,
                       label: str = "") -> Any:
        """Run ``query_fn()`` and charge ``(epsilon, delta)`` only if it succeeds (atomic).

        The budget is checked first: if it does not suffice, :class:`BudgetExceededError`
        is raised and ``query_fn`` is never called. If ``query_fn`` raises, the error
        propagates and nothing is spent. If ``query_fn`` itself spent budget from this
        accountant so that the charge no longer fits, the answer is withheld and
        :class:`BudgetExceededError` is raised.

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
        >>> from mic_dp_helpers.mechanisms import laplace_mechanism
        >>> accountant = PrivacyAccountant(1.0)
        >>> answer = accountant.charge_and_run(lambda: laplace_mechanism(120, 1.0, 0.5, rng=0),
        ...                                    epsilon=0.5, label="count")
        >>> accountant.spent_epsilon
        0.5
        """
        if not callable(query_fn):
            raise TypeError(f"query_fn must be a callable taking no arguments, got {type(query_fn).__name__}.")
        epsilon, delta = self._check_cost(epsilon, delta)
        label = _check_label(label)
        if not self._fits(epsilon, delta):
            raise BudgetExceededError(epsilon, delta, self.remaining_epsilon, self.remaining_delta, label)
        result = query_fn()
        self._record(LedgerEntry(label, epsilon, delta, "sequential", (epsilon,)))
        return result


class PrivateDatabase:
    """A DataFrame that answers only noisy aggregate queries, each charged to an accountant.

    Neighbouring datasets differ by adding or removing one row, so a count has sensitivity
    1 and a sum of values clipped to ``[lower, upper]`` has sensitivity
    ``max(|lower|, |upper|)``. Clipping bounds are declared by the analyst: they must not be
    taken from the data (its min and max would leak). Every query validates its arguments
    before spending; a refused or invalid query spends nothing. Noise is NumPy Laplace noise,
    for teaching only (see :mod:`mic_dp_helpers.mechanisms`).

    Parameters
    ----------
    data : pandas.DataFrame
        The private data (copied).
    budget : PrivacyAccountant or float
        An accountant to charge, or a total epsilon for a new one.
    rng : None, int or numpy.random.Generator, optional
        Source of noise.

    Examples
    --------
    >>> import pandas as pd
    >>> db = PrivateDatabase(pd.DataFrame({"age": [23, 35, 41, 58]}), 1.0, rng=0)
    >>> noisy = db.count(lambda df: df["age"] > 30, epsilon=0.5)
    >>> db.accountant.remaining_epsilon
    0.5
    """

    def __init__(self, data: pd.DataFrame, budget: PrivacyAccountant | float, rng=None) -> None:
        self._data = check_dataframe(data, "data").copy()
        if isinstance(budget, PrivacyAccountant):
            self._accountant = budget
        elif isinstance(budget, numbers.Real) and not isinstance(budget, bool):
            self._accountant = PrivacyAccountant(check_positive_float(budget, "budget"))
        else:
            raise TypeError(f"budget must be a PrivacyAccountant or a positive total epsilon, "
                            f"got {type(budget).__name__} {budget!r}.")
        self._rng = as_generator(rng)

    @property
    def accountant(self) -> PrivacyAccountant:
        """The accountant charged by every query."""
        return self._accountant

    @property
    def columns(self) -> list[str]:
        """Column names (public schema)."""
        return list(self._data.columns)

    def __repr__(self) -> str:
        return f"PrivateDatabase(columns={self.columns}, {self._accountant!r})"

    # ------------------------------------------------------------------- validation
    def _mask(self, predicate) -> np.ndarray:
        if predicate is None:
            return np.ones(len(self._data), dtype=bool)
        if callable(predicate):
            try:
                mask = predicate(self._data)
            except Exception as error:
                raise ValueError(f"predicate raised {type(error).__name__}: {error}") from error
        else:
            mask = predicate
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise TypeError(f"predicate must give a boolean mask (one True/False per row), got dtype {mask.dtype}.")
        if mask.shape != (len(self._data),):
            raise ValueError(f"predicate must give one True/False per row: expected shape ({len(self._data)},), "
                             f"got {mask.shape}.")
        return mask

    def _column_values(self, column) -> np.ndarray:
        if not isinstance(column, str):
            raise TypeError(f"column must be a column name (str), got {type(column).__name__} {column!r}.")
        if column not in self._data.columns:
            raise KeyError(f"column {column!r} is not in the data; available columns are {self.columns}.")
        series = self._data[column]
        if not pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series):
            raise TypeError(f"column {column!r} must be numeric, got dtype {series.dtype}.")
        values = series.to_numpy(dtype=float)
        if np.isnan(values).any():
            raise ValueError(f"column {column!r} has missing values; the data curator must drop or impute "
                             "them before building the PrivateDatabase.")
        return values

    @staticmethod
    def _bounds(lower, upper) -> tuple[float, float]:
        lower = check_finite_float(lower, "lower")
        upper = check_finite_float(upper, "upper")
        if not lower < upper:
            raise ValueError(f"lower must be < upper, got lower={lower}, upper={upper}; declare public bounds "
                             "that contain the plausible values (never the data's own min and max).")
        return lower, upper

    # ---------------------------------------------------------------------- queries
    def count(self, predicate, epsilon: float, label: str = "") -> float:
        """Noisy number of rows matching ``predicate`` (Laplace, sensitivity 1).

        Parameters
        ----------
        predicate : callable, boolean array or None
            ``predicate(df)`` returning a boolean mask, a boolean mask, or None for all rows.
        epsilon : float
            Cost (> 0).
        label : str, optional
            Ledger label (default ``"count"``).

        Returns
        -------
        float
            The noisy count (may be negative or fractional; round or clip it afterwards if
            needed, which is free post-processing).

        Examples
        --------
        >>> import pandas as pd
        >>> db = PrivateDatabase(pd.DataFrame({"x": [1, 2, 3]}), 1.0, rng=0)
        >>> isinstance(db.count(None, epsilon=0.1), float)
        True
        """
        label = _check_label(label) or "count"
        PrivacyAccountant._check_cost(epsilon, 0.0)
        mask = self._mask(predicate)
        true_count = float(mask.sum())
        return self._accountant.charge_and_run(
            lambda: laplace_mechanism(true_count, 1.0, epsilon, self._rng), epsilon, label=label)

    def bounded_sum(self, column: str, lower: float, upper: float, epsilon: float, label: str = "") -> float:
        """Noisy sum of ``column`` clipped to ``[lower, upper]`` (sensitivity ``max(|lower|, |upper|)``).

        Examples
        --------
        >>> import pandas as pd
        >>> db = PrivateDatabase(pd.DataFrame({"x": [1.0, 2.0, 30.0]}), 1.0, rng=0)
        >>> isinstance(db.bounded_sum("x", 0, 10, epsilon=0.5), float)
        True
        """
        label = _check_label(label) or f"bounded_sum({column})"
        lower, upper = self._bounds(lower, upper)
        PrivacyAccountant._check_cost(epsilon, 0.0)
        values = np.clip(self._column_values(column), lower, upper)
        sensitivity = max(abs(lower), abs(upper))
        true_sum = float(values.sum())
        return self._accountant.charge_and_run(
            lambda: laplace_mechanism(true_sum, sensitivity, epsilon, self._rng), epsilon, label=label)

    def bounded_mean(self, column: str, lower: float, upper: float, epsilon: float, label: str = "") -> float:
        """Noisy mean of ``column`` clipped to ``[lower, upper]``, charged ``epsilon`` in total.

        Method: values are clipped and centred on ``m = (lower + upper) / 2``; half of
        epsilon buys a noisy sum of ``x - m`` (sensitivity ``(upper - lower) / 2``), the other
        half a noisy count (sensitivity 1). The answer ``m + noisy_sum / max(noisy_count, 1)``
        is clipped to ``[lower, upper]``; both steps are post-processing and cost nothing.
        Centring makes the sum's noise smaller than for a plain sum.

        Examples
        --------
        >>> import pandas as pd
        >>> db = PrivateDatabase(pd.DataFrame({"age": [30.0, 40.0, 50.0] * 100}), 1.0, rng=0)
        >>> 0 <= db.bounded_mean("age", 0, 100, epsilon=1.0) <= 100
        True
        """
        label = _check_label(label) or f"bounded_mean({column})"
        lower, upper = self._bounds(lower, upper)
        epsilon, _ = PrivacyAccountant._check_cost(epsilon, 0.0)
        midpoint = (lower + upper) / 2.0
        centred = np.clip(self._column_values(column), lower, upper) - midpoint
        true_sum, true_count = float(centred.sum()), float(len(centred))

        def query() -> float:
            noisy_sum = laplace_mechanism(true_sum, (upper - lower) / 2.0, epsilon / 2.0, self._rng)
            noisy_count = laplace_mechanism(true_count, 1.0, epsilon / 2.0, self._rng)
            return float(np.clip(midpoint + noisy_sum / max(noisy_count, 1.0), lower, upper))

        return self._accountant.charge_and_run(query, epsilon, label=label)

    def histogram(self, column: str, categories: Sequence, epsilon: float, label: str = "") -> pd.Series:
        """Noisy count of rows in each of the public ``categories`` of ``column`` (parallel composition).

        The categories split the rows into disjoint groups, so adding or removing one row
        changes one count by 1: Laplace noise of scale ``1 / epsilon`` in every count gives
        epsilon-DP for the whole histogram (parallel composition, McSherry 2009). The ledger
        records a parallel spend costing ``epsilon``, not ``len(categories) * epsilon``.
        The categories must be public (declared by the analyst, never read off the data:
        a category list taken from the data would reveal which values occur). Rows whose
        value is not among them are not counted.

        Parameters
        ----------
        column : str
            Column to group by.
        categories : sequence
            The public list of categories (distinct, at least one).
        epsilon : float
            Cost (> 0).
        label : str, optional
            Ledger label (default ``"histogram(column)"``).

        Returns
        -------
        pandas.Series
            Noisy counts indexed by ``categories`` (floats; may be negative).

        Examples
        --------
        >>> import pandas as pd
        >>> db = PrivateDatabase(pd.DataFrame({"zip": ["021", "024", "021"]}), 1.0, rng=0)
        >>> noisy = db.histogram("zip", ["021", "024", "139"], epsilon=0.5)
        >>> list(noisy.index), db.accountant.spent_epsilon
        (['021', '024', '139'], 0.5)
        """
        label = _check_label(label) or f"histogram({column})"
        epsilon, _ = PrivacyAccountant._check_cost(epsilon, 0.0)
        if not isinstance(column, str):
            raise TypeError(f"column must be a column name (str), got {type(column).__name__} {column!r}.")
        if column not in self._data.columns:
            raise KeyError(f"column {column!r} is not in the data; available columns are {self.columns}.")
        if isinstance(categories, (str, bytes)) or not isinstance(categories, (Sequence, np.ndarray, pd.Index)):
            raise TypeError(f"categories must be a list of the public categories, got {type(categories).__name__}.")
        categories = list(categories)
        if len(categories) == 0:
            raise ValueError("categories is empty; declare at least one public category.")
        if len(set(categories)) != len(categories):
            raise ValueError("categories has repeated entries; each public category must appear once.")
        true_counts = self._data[column].value_counts().reindex(categories, fill_value=0).to_numpy(dtype=float)
        noisy = laplace_mechanism(true_counts, 1.0, epsilon, self._rng)
        self._accountant.spend_parallel([epsilon] * len(categories), label=label)  # raises, releasing nothing
        return pd.Series(noisy, index=pd.Index(categories, name=column), name="noisy count")


# --------------------------------------------------------------- composition theorems
def advanced_composition_epsilon(epsilon: float, delta_prime: float, k: int) -> float:
    """Total epsilon of ``k`` epsilon-DP queries by advanced composition.

    ``sqrt(2 k ln(1/delta')) * epsilon + k * epsilon * (exp(epsilon) - 1)`` (Dwork, Rothblum
    & Vadhan 2010; Dwork & Roth 2014, Theorem 3.20); the total delta is ``k * delta + delta'``.
    For few queries or large epsilon it can exceed the basic bound ``k * epsilon``: take the
    minimum of the two.

    Examples
    --------
    >>> round(advanced_composition_epsilon(0.01, 1e-6, 1000), 3)
    1.763
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    delta_prime = check_probability(delta_prime, "delta_prime")
    k = check_int_at_least(k, "k", 1)
    return math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * math.expm1(epsilon)


def zcdp_rho_gaussian(sensitivity: float, sigma: float) -> float:
    """zCDP parameter ``rho = sensitivity**2 / (2 sigma**2)`` of the Gaussian mechanism.

    rho adds up over queries (Bun & Steinke 2016): ``k`` queries cost ``k * rho``.

    Examples
    --------
    >>> zcdp_rho_gaussian(1.0, 1.0)
    0.5
    """
    sensitivity = check_positive_float(sensitivity, "sensitivity")
    sigma = check_positive_float(sigma, "sigma")
    return sensitivity**2 / (2 * sigma**2)


def zcdp_to_dp(rho: float, delta: float) -> float:
    """Epsilon such that rho-zCDP implies (epsilon, delta)-DP: ``rho + 2 sqrt(rho ln(1/delta))``.

    Examples
    --------
    >>> round(zcdp_to_dp(0.5, 1e-5), 3)
    5.299
    """
    rho = check_positive_float(rho, "rho")
    delta = check_probability(delta, "delta")
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))
