"""Array arguments: numbers only, finite, one value per row, per-column bounds, class labels."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from mic_dp_helpers._validation.scalars import check_positive_float
from mic_dp_helpers._validation.text import describe


def ndim_of(values) -> int:
    """``numpy.ndim(values)``, or -1 for a ragged nest of lists that has no number of dimensions.

    Parameters
    ----------
    values : object
        An array, a list, a nest of lists or a scalar.

    Returns
    -------
    int
        The number of dimensions, or -1 when ``values`` is ragged.

    Examples
    --------
    >>> ndim_of([[1, 2], [3, 4]]), ndim_of([[1], [2, 3]])
    (2, -1)
    """
    try:
        return int(np.ndim(values))
    except (TypeError, ValueError):
        return -1


def check_positive_floats(values, name: str) -> list[float]:
    """Return ``values`` as a non-empty list of finite numbers > 0 (a list of epsilons, of weights).

    Parameters
    ----------
    values : sequence of float
        A 1-D list, tuple or array of numbers.
    name : str
        Name of the argument, for the error message.

    Returns
    -------
    list of float
        The values as floats, in order.

    Raises
    ------
    TypeError
        If ``values`` is not 1-D (a string, a dict, a scalar, a nested list) or an entry is not a number.
    ValueError
        If ``values`` is empty or an entry is not a finite number > 0.

    Examples
    --------
    >>> check_positive_floats((0.5, 1), "epsilons")
    [0.5, 1.0]
    """
    if isinstance(values, (str, bytes, dict)) or ndim_of(values) != 1:
        raise TypeError(f"{name} must be a list of positive numbers, e.g. [0.5, 1.0]; got {describe(values)}.")
    if len(values) == 0:
        raise ValueError(f"{name} is empty; give at least one positive number.")
    return [check_positive_float(v, f"{name}[{i}]") for i, v in enumerate(values)]


def value_kind(values) -> str:
    """numpy's kind of ``values`` (``"b"`` booleans, ``"M"`` dates, ...), or ``"O"`` if it has none.

    Parameters
    ----------
    values : object
        A scalar, a list or an array.

    Returns
    -------
    str
        One character, numpy's ``dtype.kind``.

    Examples
    --------
    >>> value_kind([1.5, 2.0]), value_kind([[1], [2, 3]])
    ('f', 'O')
    """
    try:
        return np.asarray(values).dtype.kind
    except (TypeError, ValueError):  # ragged nests of lists
        return "O"


def is_boolean(values) -> bool:
    """Whether ``values`` is a boolean or holds only booleans (a bool, a bool array, Series or list).

    Parameters
    ----------
    values : object
        A scalar, a list, an array or a Series.

    Returns
    -------
    bool
        True for a bool or a non-empty collection of booleans only.

    Examples
    --------
    >>> is_boolean([True, False]), is_boolean([1, 0])
    (True, False)
    """
    return isinstance(values, (bool, np.bool_)) or (not isinstance(values, (str, bytes)) and value_kind(values) == "b"
                                                    and np.size(values) > 0)


def as_number_array(values, name: str, *, hint: str = "") -> np.ndarray:
    """``values`` as a float array (any size), or a TypeError naming ``name`` if they are not numbers.

    ``hint`` is added to the error for values that cannot be read as numbers (say how to fix them).

    Parameters
    ----------
    values : array_like
        Numbers of any shape.
    name : str
        Name of the argument, for the error message.
    hint : str, optional
        Text added to the error message.

    Returns
    -------
    numpy.ndarray
        ``values`` as floats (NaN and inf are kept).

    Raises
    ------
    TypeError
        If ``values`` is None, a string, a dict, or holds something that is not a number.

    Examples
    --------
    >>> as_number_array([1, 2], "x")
    array([1., 2.])
    """
    if values is None or isinstance(values, (str, bytes, dict)):
        raise TypeError(f"{name} must be an array of numbers, got {describe(values)}.")
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold numbers only, got {describe(values)}{hint}.") from None


def check_finite_array(values, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """Return ``values`` as a float array after checking it has no NaN or inf (and is non-empty, unless allowed).

    Dates, durations and complex numbers are refused (they would silently become nanoseconds or
    lose their imaginary part).

    Parameters
    ----------
    values : array_like
        Numbers of any shape.
    name : str
        Name of the argument, for the error message.
    allow_empty : bool, default False
        Accept an array with no values.

    Returns
    -------
    numpy.ndarray
        ``values`` as floats.

    Raises
    ------
    TypeError
        If ``values`` are not numbers, or are dates, durations or complex numbers.
    ValueError
        If ``values`` is empty (unless allowed) or contains NaN or inf.

    Examples
    --------
    >>> check_finite_array([1, 2.5], "x")
    array([1. , 2.5])
    """
    if value_kind(values) in "mMc":
        raise TypeError(f"{name} must be numeric, got {describe(values)}.")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be numeric, got {type(values).__name__}: {error}") from None
    if array.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty; pass at least one value.")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN; drop or impute missing values first.")
    if np.isinf(array).any():
        raise ValueError(f"{name} contains infinite values; clip them to finite bounds first.")
    return array


def check_finite_vector(values, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """:func:`check_finite_array`, and one-dimensional (a list, 1-D array or Series of numbers).

    Parameters
    ----------
    values : array_like
        A 1-D list, array or Series of numbers.
    name : str
        Name of the argument, for the error message.
    allow_empty : bool, default False
        Accept an empty vector.

    Returns
    -------
    numpy.ndarray
        ``values`` as a 1-D float array.

    Raises
    ------
    ValueError
        If ``values`` is not one-dimensional, or as :func:`check_finite_array` does.

    Examples
    --------
    >>> check_finite_vector([[1.0, 2.0]], "x")
    Traceback (most recent call last):
    ...
    ValueError: x must be one-dimensional, got shape (1, 2).
    """
    array = check_finite_array(values, name, allow_empty=allow_empty)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}.")
    return array



def check_finite_matrix(values, name: str = "X") -> np.ndarray:
    """:func:`check_finite_array`, and two-dimensional (records x features).

    Parameters
    ----------
    values : array_like
        A 2-D array, nested list or DataFrame of numbers.
    name : str, default "X"
        Name of the argument, for the error message.

    Returns
    -------
    numpy.ndarray
        The values as a 2-D float array.

    Raises
    ------
    TypeError
        If the values are not numbers.
    ValueError
        If they are empty, hold NaN or infinity, or are not 2-D.

    Examples
    --------
    >>> check_finite_matrix([[0.0, 1.0], [2.0, 3.0]]).shape
    (2, 2)
    """
    array = check_finite_array(values, name)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (records x features), got shape {array.shape}.")
    return array

def check_column_bounds(lower, upper, n_columns: int | None = None, *,
                        what: str = "column") -> tuple[np.ndarray, np.ndarray]:
    """Public bounds as two float arrays with one value per column, ``lower < upper`` in every column.

    Each of ``lower`` and ``upper`` is one number (the same bound for every column) or a 1-D list
    with one bound per column: ``n_columns`` of them, or, without ``n_columns``, as many as the
    other list has. ``what`` names a column in the messages ("feature").

    Parameters
    ----------
    lower, upper : float or array_like
        One bound for every column, or one per column.
    n_columns : int, optional
        The number of columns; by default the longer of the two lists.
    what : str, default "column"
        What a column is called in the messages.

    Returns
    -------
    lower, upper : numpy.ndarray
        Two float arrays of length ``n_columns``.

    Raises
    ------
    ValueError
        If a bound is not finite, is not 1-D, has the wrong length, or ``lower >= upper`` in a column.

    Examples
    --------
    >>> [b.tolist() for b in check_column_bounds(0, [10, 20])]
    [[0.0, 0.0], [10.0, 20.0]]
    >>> check_column_bounds([0, 0, 0], [1, 1], 2)
    Traceback (most recent call last):
    ...
    ValueError: lower has 3 values but there are 2 columns; give one bound per column, or one number for all.
    """
    lower, upper = check_finite_array(lower, "lower"), check_finite_array(upper, "upper")
    for name, bound in (("lower", lower), ("upper", upper)):
        if bound.ndim > 1:
            raise ValueError(f"{name} must be a number or a 1-D list with one bound per {what}, "
                             f"got shape {bound.shape}.")
    if n_columns is None:
        n_columns = max(lower.size, upper.size)
    for name, bound in (("lower", lower), ("upper", upper)):
        if bound.size not in (1, n_columns):
            raise ValueError(f"{name} has {bound.size} values but there are {n_columns} {what}s; give one bound per "
                             f"{what}, or one number for all.")
    lower = np.broadcast_to(lower.ravel(), (n_columns,)).copy()
    upper = np.broadcast_to(upper.ravel(), (n_columns,)).copy()
    if not (lower < upper).all():
        bad = int(np.argmax(~(lower < upper)))
        raise ValueError(f"every lower bound must be < its upper bound; {what} {bad} has lower={lower[bad]}, "
                         f"upper={upper[bad]}. Use public bounds, never the data's own min and max.")
    return lower, upper


def check_labels(y, n_rows: int, name: str, rows_of: str) -> np.ndarray:
    """Class labels: a 1-D array with one label per row of ``rows_of``, none missing, of one type.

    Parameters
    ----------
    y : array_like
        Class labels.
    n_rows : int
        The number of rows ``y`` must match.
    name : str
        Name of the argument, for the error message.
    rows_of : str
        Name of the table whose rows ``y`` labels, for the error message.

    Returns
    -------
    numpy.ndarray
        The labels as a 1-D array.

    Raises
    ------
    TypeError
        If ``y`` is not a list or array, or mixes label types.
    ValueError
        If ``y`` has the wrong shape or missing or infinite labels.

    Examples
    --------
    >>> check_labels([0, 1, 1], 3, "y", "X").tolist()
    [0, 1, 1]
    """
    if y is None or isinstance(y, (str, bytes, dict)):
        raise TypeError(f"{name} must be a 1-D list or array of class labels, got {describe(y)}.")
    labels = np.asarray(y)
    if labels.ndim != 1 or len(labels) != n_rows:
        raise ValueError(f"{name} must have one class label per row of {rows_of} ({n_rows}), got shape {labels.shape}.")
    if pd.isna(labels).any():
        raise ValueError(f"{name} has missing labels (NaN or None); drop those rows first.")
    if labels.dtype.kind == "f" and not np.isfinite(labels).all():
        raise ValueError(f"{name} has infinite labels; class labels must be classes, such as 0 and 1.")
    if labels.dtype.kind == "O" and len({type(v) for v in labels}) > 1:
        raise TypeError(f"{name} mixes labels of different types ({sorted({type(v).__name__ for v in labels})}); "
                        "use one type, such as all ints.")
    return labels
