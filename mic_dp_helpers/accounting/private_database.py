"""A table behind a privacy accountant: it answers only noisy counts, sums, means and histograms.

:class:`PrivateDatabase` is lesson 03's budget-tracking database. Its queries have a
sensitivity that holds **by construction**: counts select rows with declarative conditions
evaluated on each row alone (never the analyst's code on the table), sums and means clip to
declared bounds. Every query is validated against the public schema, then checked against
the budget, then charged, and only then reads the data (see
:meth:`mic_dp_helpers.accounting.ledger.PrivacyAccountant.charge_and_run`).

Neighbours: add or remove one row, one row per person. Noise: NumPy Laplace noise, for
teaching only (see :mod:`mic_dp_helpers.mechanisms.noise`).
"""

from __future__ import annotations

import numbers
import operator as operator_module
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    ColumnError,
    as_generator,
    check_column_name,
    check_dataframe,
    check_finite_float,
    check_positive_float,
)
from mic_dp_helpers.accounting.ledger import PrivacyAccountant, _check_label
from mic_dp_helpers.mechanisms.noise import laplace_mechanism

__all__ = ["CONDITION_OPERATORS", "PrivateDatabase"]

#: Operators a :meth:`PrivateDatabase.count` condition may use.
CONDITION_OPERATORS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
_ORDER_OPERATORS = ("<", "<=", ">", ">=")
_COMPARE = {"==": operator_module.eq, "!=": operator_module.ne, "<": operator_module.lt,
            "<=": operator_module.le, ">": operator_module.gt, ">=": operator_module.ge}


_SCALAR_TYPES = (str, bytes, numbers.Real, np.generic)


def _is_scalar(value) -> bool:
    return isinstance(value, _SCALAR_TYPES) and not isinstance(value, (complex, np.complexfloating))


def _list_kind(values: list) -> str:
    """"number" if every value is a number or boolean, "text" if all are plain scalars with some text, else "other"."""
    try:
        array = np.asarray(values) if values else np.zeros(0)
    except (TypeError, ValueError):  # ragged or unconvertible
        return "other"
    if array.ndim != 1:
        return "other"
    if array.dtype.kind in "biuf":
        return "number"
    if array.dtype.kind in "US":
        return "text"
    if all(_is_scalar(v) for v in values):
        return "number" if all(_is_number(v) for v in values) else "text"
    return "other"


def _is_number(value) -> bool:
    return isinstance(value, (numbers.Real, np.bool_, np.number)) and not isinstance(value, (complex, np.complexfloating))


class PrivateDatabase:
    """A DataFrame that answers only noisy aggregate queries, each charged to an accountant.

    **Neighbours and what is public.** Neighbouring datasets differ by adding or removing
    one row, and one row is one person (the curator must make it so). What the analyst may
    know without spending anything: the schema (column names and dtypes), and everything the
    analyst writes in a query (conditions, declared bounds, categories, epsilons). The number
    of rows is *not* public: every query, even a plain count, adds noise to it.

    **Queries whose sensitivity holds by construction.** A count selects rows with a
    *declarative* condition (``{"age": (">=", 60), "rare_disease": True}``) that the
    database evaluates on each row's own values, so adding or removing one row changes the
    count by at most 1, whatever the condition. The analyst's code never runs on the data:
    a function of the table could read other rows (its "count" could then move by the size of
    the table when one person changes) or copy the rows out. Sums clip every value to bounds
    declared by the analyst, never taken from the data (its min and max would leak).

    **Charging.** Every query validates its arguments against the schema first (an invalid
    query spends nothing), then checks the budget (a refused query spends nothing and never
    touches the data), then charges the accountant, and only then reads the data
    (:meth:`PrivacyAccountant.charge_and_run`). Noise is NumPy Laplace noise, for teaching
    only (see :mod:`mic_dp_helpers.mechanisms.noise`; lesson 04 shows the library way).

    Parameters
    ----------
    data : pandas.DataFrame
        The private data (copied). Numeric columns must have no missing values: the curator
        drops or imputes them before building the database.
    budget : PrivacyAccountant or float
        An accountant to charge, or a total epsilon for a new one.
    rng : None, int or numpy.random.Generator, optional
        Source of noise.

    Examples
    --------
    >>> import pandas as pd
    >>> db = PrivateDatabase(pd.DataFrame({"age": [23, 35, 41, 58]}), 1.0, rng=0)
    >>> noisy = db.count({"age": (">", 30)}, epsilon=0.5)
    >>> db.accountant.remaining_epsilon
    0.5
    """

    def __init__(self, data: pd.DataFrame, budget: PrivacyAccountant | float, rng=None) -> None:
        data = check_dataframe(data, "data")
        if isinstance(budget, PrivacyAccountant):
            accountant = budget
        elif isinstance(budget, numbers.Real) and not isinstance(budget, bool):
            accountant = PrivacyAccountant(check_positive_float(budget, "budget"))
        else:
            raise TypeError(f"budget must be a PrivacyAccountant or a positive total epsilon, "
                            f"got {type(budget).__name__} {budget!r}.")
        duplicated = sorted({str(c) for c in data.columns[data.columns.duplicated()]})
        if duplicated:
            raise ValueError(f"data has more than one column named {duplicated}; give every column its own "
                             "name (e.g. data.columns = [...]) before building the PrivateDatabase.")
        numeric = [c for c in data.columns if self._is_numeric(data[c])]
        missing = [c for c in numeric if data[c].isna().any()]
        if missing:
            raise ValueError(f"numeric column(s) {missing} have missing values; the data curator must drop or "
                             "impute them before building the PrivateDatabase.")
        self._data = data.copy()
        self._dtypes = dict(self._data.dtypes.items())  # the public schema, looked up by every query
        self._numeric = frozenset(numeric)
        self._arrays: dict[str, np.ndarray] = {}
        self._accountant = accountant
        self._rng = as_generator(rng)

    @staticmethod
    def _is_numeric(series: pd.Series) -> bool:
        return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)

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

    # ------------------------------------------------- validation (schema only, never the data)
    def _check_column(self, column) -> str:
        # Any label the data has names a column (the schema's own, e.g. 0 for an unnamed column).
        if check_column_name(column, "column") not in self._data.columns:
            if not isinstance(column, str):
                raise TypeError(f"column must be a column name (str), got {type(column).__name__} {column!r}; "
                                f"the columns are {self.columns}.")
            raise ColumnError(f"column {column!r} is not in the data; available columns are {self.columns}.")
        return column

    def _check_numeric_column(self, column) -> str:
        column = self._check_column(column)
        if column not in self._numeric:
            raise TypeError(f"column {column!r} must be numeric, got dtype {self._dtypes[column]}.")
        return column

    def _check_where(self, where) -> list[tuple[str, str, Any]]:
        """Validate a count's condition against the schema; return ``[(column, operator, value), ...]``."""
        if where is None:
            return []
        if callable(where) or isinstance(where, (np.ndarray, pd.Series, list, tuple)):
            raise TypeError(
                "where must be None or a dict {column: condition}, e.g. {'age': ('>=', 60), 'rare_disease': "
                f"True}}; got {type(where).__name__}. Functions of the table and row masks are not accepted: "
                "a function could read other rows (or copy them out), so its count's sensitivity could not be "
                "guaranteed. The database evaluates declarative conditions on each row alone."
            )
        if not isinstance(where, Mapping):
            raise TypeError(f"where must be None or a dict {{column: condition}}, got {type(where).__name__}.")
        conditions = []
        for column, condition in where.items():
            column = self._check_column(column)
            if isinstance(condition, tuple):
                if len(condition) != 2 or not isinstance(condition[0], str):
                    raise ValueError(f"the condition on {column!r} must be a value or a pair (operator, value), "
                                     f"e.g. ('>=', 60); got {condition!r}.")
                operator, value = condition
            else:
                operator, value = "==", condition
            if operator not in CONDITION_OPERATORS:
                raise ValueError(f"unknown operator {operator!r} in the condition on {column!r}; use one of "
                                 f"{CONDITION_OPERATORS}.")
            if operator in ("in", "not in"):
                if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (Sequence, set, frozenset,
                                                                                     np.ndarray, pd.Index)):
                    raise TypeError(f"the condition ({operator!r}, value) on {column!r} needs a list of values, "
                                    f"got {type(value).__name__}.")
                value = list(value)
                kind = _list_kind(value)
                if kind == "other":
                    raise TypeError(f"the values listed for {column!r} must be plain numbers, strings or booleans.")
                all_numbers = kind == "number"
            elif not _is_scalar(value):
                raise TypeError(f"the condition on {column!r} compares with a plain number, string or boolean, "
                                f"got {type(value).__name__}.")
            else:
                all_numbers = _is_number(value)
            if any(isinstance(v, (float, np.floating)) and np.isnan(v) for v in (value if isinstance(value, list)
                                                                               else [value])):
                raise ValueError(f"the condition on {column!r} compares with NaN, which equals nothing (the "
                                 "database's numeric columns have no missing values); compare with a number.")
            dtype = self._dtypes[column]
            if operator in _ORDER_OPERATORS:
                if column not in self._numeric:
                    raise TypeError(f"operator {operator!r} needs a numeric column; {column!r} has dtype "
                                    f"{dtype}. Use '==', '!=', 'in' or 'not in'.")
                value = check_finite_float(value, f"the value compared with {column!r}")
            elif pd.api.types.is_numeric_dtype(dtype) and not all_numbers:
                raise TypeError(f"column {column!r} holds numbers (dtype {dtype}); compare it with numbers "
                                f"or booleans, not {value!r}.")
            conditions.append((column, operator, value))
        return conditions

    @staticmethod
    def _bounds(lower, upper) -> tuple[float, float]:
        lower = check_finite_float(lower, "lower")
        upper = check_finite_float(upper, "upper")
        if not lower < upper:
            raise ValueError(f"lower must be < upper, got lower={lower}, upper={upper}; declare public bounds "
                             "that contain the plausible values (never the data's own min and max).")
        return lower, upper

    # ----------------------------------------------------------- reading the data (after the charge)
    def _column(self, column: str) -> np.ndarray:
        if column not in self._arrays:  # read once, as a NumPy array (object dtype, None if missing, for text)
            series = self._data[column]
            numeric = pd.api.types.is_numeric_dtype(series)
            self._arrays[column] = series.to_numpy() if numeric else series.to_numpy(dtype=object, na_value=None)
        return self._arrays[column]

    def _mask(self, conditions: list[tuple[str, str, Any]]) -> np.ndarray:
        mask = np.ones(len(self._data), dtype=bool)
        for column, operator, value in conditions:
            array = self._column(column)
            if operator in ("in", "not in"):
                if array.dtype.kind in "biuf":  # numbers and booleans
                    selected = np.isin(array, np.asarray(value, dtype=array.dtype if array.dtype == bool else float))
                else:  # text: hash-based membership; a missing value is in no list
                    selected = pd.Series(array, copy=False).isin(value).to_numpy(dtype=bool)
                selected = ~selected if operator == "not in" else selected
            else:
                # Element-wise, row by row; a missing text value equals nothing and differs from everything.
                selected = _COMPARE[operator](array, value)
            mask &= np.asarray(selected, dtype=bool)
        return mask

    def _values(self, column: str) -> np.ndarray:
        return self._column(column).astype(float)

    # ---------------------------------------------------------------------- queries
    def count(self, where: Mapping | None, epsilon: float, label: str = "") -> float:
        """Noisy number of rows matching the condition ``where`` (Laplace, sensitivity 1).

        Neighbours: add or remove one row. Each row is selected by its own values only, so
        the count has sensitivity 1 for every condition.

        Parameters
        ----------
        where : dict or None
            None counts every row. A dict ``{column: condition}`` selects the rows meeting
            every condition; a condition is a value (equality) or a pair ``(operator, value)``
            with an operator from :data:`CONDITION_OPERATORS` (``"in"`` and ``"not in"`` take
            a list of values; ``"<"``, ``"<="``, ``">"``, ``">="`` need a numeric column).
            The condition is public: it is part of the question, not of the answer.
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
        >>> db = PrivateDatabase(pd.DataFrame({"x": [1, 2, 3], "g": ["a", "b", "a"]}), 1.0, rng=0)
        >>> isinstance(db.count({"g": "a", "x": ("<=", 2)}, epsilon=0.1), float)
        True
        """
        label = _check_label(label) or "count"
        epsilon, _ = PrivacyAccountant._check_cost(epsilon, 0.0)
        conditions = self._check_where(where)

        def query() -> float:
            true_count = float(self._mask(conditions).sum())
            return float(laplace_mechanism(true_count, 1.0, epsilon, self._rng))

        return self._accountant.charge_and_run(query, epsilon, label=label)

    def bounded_sum(self, column: str, lower: float, upper: float, epsilon: float, label: str = "") -> float:
        """Noisy sum of ``column`` clipped to ``[lower, upper]`` (sensitivity ``max(|lower|, |upper|)``).

        Neighbours: add or remove one row, which changes the clipped sum by at most
        ``max(|lower|, |upper|)``. Public: the declared bounds.

        Parameters
        ----------
        column : str
            A numeric column of the table.
        lower, upper : float
            Public bounds, ``lower < upper``, declared without looking at the data.
        epsilon : float
            Budget the query spends (> 0).
        label : str, optional
            Name of the spend in the ledger.

        Returns
        -------
        float
            The noisy sum.

        Raises
        ------
        BudgetExceededError
            If ``epsilon`` is more than what is left (nothing is spent then).

        Examples
        --------
        >>> import pandas as pd
        >>> db = PrivateDatabase(pd.DataFrame({"x": [1.0, 2.0, 30.0]}), 1.0, rng=0)
        >>> isinstance(db.bounded_sum("x", 0, 10, epsilon=0.5), float)
        True
        """
        label = _check_label(label) or f"bounded_sum({column})"
        lower, upper = self._bounds(lower, upper)
        epsilon, _ = PrivacyAccountant._check_cost(epsilon, 0.0)
        column = self._check_numeric_column(column)
        sensitivity = max(abs(lower), abs(upper))

        def query() -> float:
            true_sum = float(np.clip(self._values(column), lower, upper).sum())
            return float(laplace_mechanism(true_sum, sensitivity, epsilon, self._rng))

        return self._accountant.charge_and_run(query, epsilon, label=label)

    def bounded_mean(self, column: str, lower: float, upper: float, epsilon: float, label: str = "") -> float:
        """Noisy mean of ``column`` clipped to ``[lower, upper]``, charged ``epsilon`` in total.

        Method: values are clipped and centred on ``m = (lower + upper) / 2``; half of
        epsilon buys a noisy sum of ``x - m`` (sensitivity ``(upper - lower) / 2``), the other
        half a noisy count (sensitivity 1). The answer ``m + noisy_sum / max(noisy_count, 1)``
        is clipped to ``[lower, upper]``; both steps are post-processing and cost nothing.
        Centring makes the sum's noise smaller than for a plain sum.

        Neighbours: add or remove one row (both halves are then epsilon/2-DP, together
        epsilon-DP by sequential composition). Public: the declared bounds; not the number
        of rows, which is noised.

        Parameters
        ----------
        column : str
            A numeric column of the table.
        lower, upper : float
            Public bounds, ``lower < upper``, declared without looking at the data.
        epsilon : float
            Budget the query spends (> 0).
        label : str, optional
            Name of the spend in the ledger.

        Returns
        -------
        float
            The noisy mean, in ``[lower, upper]``.

        Raises
        ------
        BudgetExceededError
            If ``epsilon`` is more than what is left (nothing is spent then).

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
        column = self._check_numeric_column(column)
        midpoint = (lower + upper) / 2.0

        def query() -> float:
            centred = np.clip(self._values(column), lower, upper) - midpoint
            noisy_sum = laplace_mechanism(float(centred.sum()), (upper - lower) / 2.0, epsilon / 2.0, self._rng)
            noisy_count = laplace_mechanism(float(len(centred)), 1.0, epsilon / 2.0, self._rng)
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
        column = self._check_column(column)
        if isinstance(categories, (str, bytes)) or not isinstance(categories, (Sequence, np.ndarray, pd.Index)):
            raise TypeError(f"categories must be a list of the public categories, got {type(categories).__name__}.")
        categories = list(categories)
        if len(categories) == 0:
            raise ValueError("categories is empty; declare at least one public category.")
        if not all(_is_scalar(c) or c is None for c in categories):
            raise TypeError(f"categories must list plain values (strings, numbers, booleans), got {categories!r:.80}.")
        if len(set(categories)) != len(categories):
            raise ValueError("categories has repeated entries; each public category must appear once.")
        self._accountant.spend_parallel([epsilon] * len(categories), label=label)  # refuses before any data is read
        true_counts = self._data[column].value_counts().reindex(categories, fill_value=0).to_numpy(dtype=float)
        noisy = laplace_mechanism(true_counts, 1.0, epsilon, self._rng)
        return pd.Series(noisy, index=pd.Index(categories, name=column), name="noisy count")
