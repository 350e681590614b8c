"""Table arguments: DataFrames, column names and lists of columns."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._validation.text import describe


class ColumnError(KeyError, ValueError):
    """A column (or a key) the table does not have.

    A KeyError, as pandas raises for a missing column, and also a ValueError (the argument is
    wrong); its message prints as plain text, not in quotes.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def check_column_name(value, name: str = "column"):
    """Return ``value`` after checking it can name one column: a string (or another hashable label).

    Parameters
    ----------
    value : hashable
        The column label to check.
    name : str, default "column"
        Name of the argument, for the error message.

    Returns
    -------
    hashable
        ``value``, unchanged.

    Raises
    ------
    TypeError
        If ``value`` is unhashable (a list, a Series) or NaN.

    Examples
    --------
    >>> check_column_name("age")
    'age'
    >>> check_column_name(["age"], "person")
    Traceback (most recent call last):
    ...
    TypeError: person must be one column name (a string), got list ['age'].
    """
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"{name} must be one column name (a string), got {describe(value)}.") from None
    if isinstance(value, (float, np.floating)) and math.isnan(value):
        raise TypeError(f"{name} must be one column name (a string), got NaN.")
    return value


def check_dataframe(df, name: str = "df", *, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Check ``df`` is a non-empty DataFrame that has every column in ``columns``.

    A column name that cannot name a column (a list, a Series) raises TypeError; a missing one
    raises :class:`ColumnError` (a KeyError and a ValueError) that lists the columns there are.

    Parameters
    ----------
    df : pandas.DataFrame
        The table to check.
    name : str, default "df"
        Name of the argument, for the error message.
    columns : sequence of str, optional
        Columns ``df`` must have.

    Returns
    -------
    pandas.DataFrame
        ``df``, unchanged.

    Raises
    ------
    TypeError
        If ``df`` is not a DataFrame, or a column name cannot name a column.
    ValueError
        If ``df`` has no rows.
    ColumnError
        If a column of ``columns`` is missing.

    Examples
    --------
    >>> check_dataframe(pd.DataFrame({"age": [30]}), columns=["age"]).shape
    (1, 1)
    >>> check_dataframe(pd.DataFrame({"age": [30]}), columns=["zip"])
    Traceback (most recent call last):
    ...
    mic_dp_helpers._validation.frames.ColumnError: df has no column(s) ['zip']; available columns are ['age'].
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}.")
    if len(df) == 0:
        raise ValueError(f"{name} is empty; pass a DataFrame with at least one row.")
    if columns is not None:
        missing = [c for c in columns if check_column_name(c, "every column name") not in df.columns]
        if missing:
            raise ColumnError(f"{name} has no column(s) {missing}; available columns are {list(df.columns)}.")
    return df


def check_column_list(columns, name: str = "columns") -> list[str]:
    """Return ``columns`` as a non-empty list of column names (a single name is accepted).

    Parameters
    ----------
    columns : str or sequence of str
        One column name or a list of them.
    name : str, default "columns"
        Name of the argument, for the error message.

    Returns
    -------
    list
        The column names, in order.

    Raises
    ------
    TypeError
        If ``columns`` is not a sequence of hashable names.
    ValueError
        If ``columns`` is empty or names a column twice.

    Examples
    --------
    >>> check_column_list("age")
    ['age']
    """
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, Sequence) or isinstance(columns, bytes):
        raise TypeError(f"{name} must be a list of column names, got {type(columns).__name__}.")
    columns = [check_column_name(c, f"every entry of {name}") for c in columns]
    if not columns:
        raise ValueError(f"{name} is empty; name at least one column.")
    if len(set(columns)) != len(columns):
        raise ValueError(f"{name} lists a column twice: {columns}.")
    return columns


def check_numeric_frame(X, name: str = "X", *, min_rows: int = 1) -> pd.DataFrame:
    """Check ``X`` is a DataFrame of numeric (not boolean) columns, without missing values.

    Parameters
    ----------
    X : pandas.DataFrame
        The table to check.
    name : str, default "X"
        Name of the argument, for the error message.
    min_rows : int, default 1
        Fewest rows allowed.

    Returns
    -------
    pandas.DataFrame
        ``X``, unchanged.

    Raises
    ------
    TypeError
        If ``X`` is not a DataFrame or has a non-numeric or boolean column.
    ValueError
        If ``X`` has too few rows, no columns or missing values.

    Examples
    --------
    >>> check_numeric_frame(pd.DataFrame({"a": [1.0, 2.0]})).shape
    (2, 1)
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(X).__name__}.")
    if len(X) < min_rows or X.shape[1] == 0:
        what = "is empty" if len(X) == 0 or X.shape[1] == 0 else f"has {len(X)} row(s)"
        raise ValueError(f"{name} {what}; it needs at least {min_rows} row(s) and one column.")
    for column in X.columns:
        if pd.api.types.is_bool_dtype(X[column]) or not pd.api.types.is_numeric_dtype(X[column]):
            raise TypeError(f"column {column!r} of {name} must be numeric, got dtype {X[column].dtype}.")
    if X.isna().to_numpy().any():
        raise ValueError(f"{name} has missing values; drop or impute them first.")
    return X
