"""Argument checks shared by the helpers: each raises an error naming the argument and what is allowed."""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd


def check_positive_float(value, name: str, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking it is a finite number > 0.

    Parameters
    ----------
    value : float
        The number to check.
    name : str
        Name of the argument, for the error message.
    allow_inf : bool, default False
        Accept ``inf`` (an unlimited budget, say).

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (booleans included).
    ValueError
        If ``value`` is NaN, infinite (unless ``allow_inf``) or <= 0.

    Examples
    --------
    >>> check_positive_float(0.5, "epsilon")
    0.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive number, got {type(value).__name__} {value!r}.")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{name} is NaN; pass a positive number such as 1.0.")
    if math.isinf(value) and not allow_inf:
        raise ValueError(f"{name} must be finite, got {value}.")
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}.")
    return value


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


def check_in_float_range(value: float, what: str) -> float:
    """Return ``value`` after checking it is a finite number > 0 (a noise scale, a ratio of parameters).

    Parameters far apart (a sensitivity of 1e300 with an epsilon of 1e-300) can push a derived
    quantity out of floating point: this says so instead of releasing infinite noise, or none.

    Parameters
    ----------
    value : float
        A derived quantity (``sensitivity / epsilon``, say).
    what : str
        Words that describe ``value`` in the error message.

    Returns
    -------
    float
        ``value``, unchanged.

    Raises
    ------
    ValueError
        If ``value`` is infinite, NaN or not > 0 (it underflowed or overflowed).

    Examples
    --------
    >>> check_in_float_range(2.0, "the noise scale sensitivity / epsilon")
    2.0
    """
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{what} is {value:g}, out of floating-point range: the sensitivity and epsilon (or "
                         "sigma) given are too far apart. Use values of ordinary size.")
    return value


def check_int_at_least(value, name: str, minimum: int) -> int:
    """Return ``value`` as an int after checking it is an integer >= ``minimum``.

    Parameters
    ----------
    value : int
        The number to check (a bool is refused).
    name : str
        Name of the argument, for the error message.
    minimum : int
        Smallest allowed value.

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    TypeError
        If ``value`` is not an integer.
    ValueError
        If ``value < minimum``.

    Examples
    --------
    >>> check_int_at_least(5, "k", 1)
    5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {type(value).__name__} {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}.")
    return int(value)


#: Most values (draws, rows, cells) one helper call may create: 10**8 floats take 800 MB.
MAX_VALUES = 10**8


def check_size(value, name: str, minimum: int = 1, *, per_item: int = 1, maximum: int = MAX_VALUES) -> int:
    """Return ``value`` as an int >= ``minimum`` after checking ``value * per_item <= maximum``.

    The one cap on sizes and counts (samples, rows, categories, repetitions): a size that
    would allocate more than ``maximum`` values, or loop that many times, is refused with a
    ValueError before anything is allocated, instead of a MemoryError (or hours of work).
    ``per_item`` is how many values each unit of ``value`` creates (the columns of a row,
    the candidates of a draw).

    Parameters
    ----------
    value : int
        The size or count to check.
    name : str
        Name of the argument, for the error message.
    minimum : int, default 1
        Smallest allowed value.
    per_item : int, default 1
        Values created per unit of ``value``.
    maximum : int, default MAX_VALUES
        Most values one call may create.

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    TypeError
        If ``value`` is not an integer.
    ValueError
        If ``value < minimum`` or ``value * per_item > maximum``.

    Examples
    --------
    >>> check_size(1000, "size")
    1000
    >>> check_size(10**12, "size")
    Traceback (most recent call last):
    ...
    ValueError: size=1000000000000 is too large: at most 100000000 per call; use a smaller size, or split the work \
into batches.
    """
    value = check_int_at_least(value, name, minimum)
    per_item = max(int(per_item), 1)
    if value * per_item > maximum:
        each = "" if per_item == 1 else f" with {per_item} values each"
        raise ValueError(f"{name}={value} is too large: at most {maximum // per_item}{each} per call; "
                         f"use a smaller {name}, or split the work into batches.")
    return value


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
    mic_dp_helpers._validation.ColumnError: df has no column(s) ['zip']; available columns are ['age'].
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


class ChoiceTypeError(TypeError, ValueError):
    """A choice (a method, a mechanism's name) that is not a string at all.

    A TypeError, and also a ValueError, so that code written for the ValueError these checks
    used to raise for any wrong choice still catches it.
    """


def describe(value, limit: int = 60) -> str:
    """``type value`` for an error message, the value's repr cut to ``limit`` characters.

    Parameters
    ----------
    value : object
        Any value.
    limit : int, default 60
        Most characters of the repr to keep.

    Returns
    -------
    str
        The type name and the (cut) repr.

    Examples
    --------
    >>> describe([1, 2])
    'list [1, 2]'
    """
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= limit else text[:limit] + '...'}"


def check_text(value, name: str) -> str:
    """Return ``value`` after checking it is a string (a name, a file name, some source code).

    Parameters
    ----------
    value : str
        The value to check.
    name : str
        Name of the argument, for the error message.

    Returns
    -------
    str
        ``value``, unchanged.

    Raises
    ------
    TypeError
        If ``value`` is not a string.

    Examples
    --------
    >>> check_text("numpy", "distribution")
    'numpy'
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {describe(value)}.")
    return value


def check_choice(value, name: str, choices: Iterable[str], *,
                 unknown: str = "{name} must be one of {choices}, got {value!r}") -> str:
    """Return ``value`` after checking it is one of the strings in ``choices``.

    A value that is not a string (a Series, a list, None) raises :class:`ChoiceTypeError`; a
    string that is not allowed raises ValueError, with the closest allowed name if there is one.
    ``unknown`` words that ValueError (``{name}``, ``{value}`` and ``{choices}`` are filled in).

    Parameters
    ----------
    value : str
        The choice to check.
    name : str
        Name of the argument, for the error message.
    choices : iterable of str
        The allowed strings.
    unknown : str, optional
        Format of the ValueError message.

    Returns
    -------
    str
        ``value``, unchanged.

    Raises
    ------
    ChoiceTypeError
        If ``value`` is not a string.
    ValueError
        If ``value`` is not one of ``choices``.

    Examples
    --------
    >>> check_choice("laplace", "mechanism", ("laplace", "gaussian"))
    'laplace'
    >>> check_choice("gausian", "mechanism", ("laplace", "gaussian"))
    Traceback (most recent call last):
    ...
    ValueError: mechanism must be one of ('laplace', 'gaussian'), got 'gausian' (did you mean 'gaussian'?).
    """
    choices = tuple(choices)
    if not isinstance(value, str):
        raise ChoiceTypeError(f"{name} must be one of {choices} (a string), got {describe(value)}.")
    if value not in choices:
        close = difflib.get_close_matches(value, choices, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(unknown.format(name=name, value=value, choices=choices) + f"{hint}.")
    return value


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


def check_probability(value, name: str, *, allow_zero: bool = False) -> float:
    """Return ``value`` as a float after checking it lies in (0, 1), or [0, 1) if ``allow_zero``.

    Parameters
    ----------
    value : float
        The number to check.
    name : str
        Name of the argument, for the error message.
    allow_zero : bool, default False
        Accept 0.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    ValueError
        If ``value`` is NaN or out of range.

    Examples
    --------
    >>> check_probability(1e-5, "delta")
    1e-05
    >>> check_probability(0, "delta", allow_zero=True)
    0.0
    """
    allowed = "[0, 1)" if allow_zero else "(0, 1)"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in {allowed}, got {type(value).__name__} {value!r}.")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{name} is NaN; pass a number in {allowed} such as 1e-6.")
    low_ok = value >= 0 if allow_zero else value > 0
    if not (low_ok and value < 1):
        raise ValueError(f"{name} must be in {allowed}, got {value}.")
    return value


def check_finite_float(value, name: str) -> float:
    """Return ``value`` as a float after checking it is a finite real number (any sign).

    Parameters
    ----------
    value : float
        The number to check.
    name : str
        Name of the argument, for the error message.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    ValueError
        If ``value`` is NaN or infinite.

    Examples
    --------
    >>> check_finite_float(-2, "lower")
    -2.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite number, got {type(value).__name__} {value!r}.")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"{name} is NaN; pass a finite number.")
    if math.isinf(value):
        raise ValueError(f"{name} must be finite, got {value}.")
    return value


def as_generator(rng, name: str = "rng") -> np.random.Generator:
    """Turn ``rng`` (None, an int seed or a Generator) into a ``numpy.random.Generator``.

    ``None`` gives a fresh generator seeded from the operating system, an integer gives a
    reproducible generator, and a Generator is returned unchanged (so the caller's stream
    advances). Nothing global is read or modified.

    Parameters
    ----------
    rng : None, int or numpy.random.Generator
        Source of randomness.
    name : str, default "rng"
        Name of the argument, for the error message.

    Returns
    -------
    numpy.random.Generator
        A new generator, or ``rng`` itself.

    Raises
    ------
    TypeError
        If ``rng`` is of another type (a float, a ``RandomState``).
    ValueError
        If ``rng`` is a negative integer.

    Examples
    --------
    >>> gen = as_generator(42)
    >>> gen is as_generator(gen)
    True
    """
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if rng < 0:
            raise ValueError(f"{name} must be a non-negative integer seed, got {rng}.")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"{name} must be None, a non-negative int seed or a numpy.random.Generator, "
        f"got {type(rng).__name__} {rng!r}."
    )



#: Seeds handed to scikit-learn stay below this (its ``random_state`` takes 0 .. 2**32 - 1).
_MAX_SEED = 2**32


def as_seed(rng, name: str = "rng") -> int:
    """Turn ``rng`` (None, an int seed or a Generator) into one int seed, for a library that wants one.

    scikit-learn's ``random_state`` takes an int but not a NumPy ``Generator``, and a seed is what a
    table of results records. An int is checked and returned unchanged (so ``rng=0`` means
    ``random_state=0``); a Generator gives one draw below ``2**31 - 1`` (its stream advances); ``None``
    gives a draw from a fresh generator seeded by the operating system.

    Parameters
    ----------
    rng : None, int or numpy.random.Generator
        Source of randomness (SPEC 7).
    name : str, default "rng"
        Name of the argument, for the error message.

    Returns
    -------
    int
        A seed from 0 to ``2**32 - 1``.

    Raises
    ------
    TypeError
        If ``rng`` is of another type.
    ValueError
        If ``rng`` is a negative int or one of ``2**32`` or more.

    Examples
    --------
    >>> as_seed(7)
    7
    >>> as_seed(np.random.default_rng(0)) == as_seed(np.random.default_rng(0))
    True
    """
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        as_generator(rng, name)  # the same checks and messages
        if rng >= _MAX_SEED:
            raise ValueError(f"{name}={rng} is too large: seeds go up to 2**32 - 1.")
        return int(rng)
    return int(as_generator(rng, name).integers(2**31 - 1))

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
