"""Scalar arguments: positive, finite and bounded floats, integers, sizes, probabilities and switches."""

from __future__ import annotations

import math
import numbers

import numpy as np

from mic_dp_helpers._validation.text import describe


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


def check_flag(value, name: str) -> bool:
    """Return ``value`` as a bool after checking it is ``True`` or ``False`` (a NumPy bool too).

    A number or a string is refused, so ``"False"`` or ``0`` cannot be mistaken for a switch.

    Parameters
    ----------
    value : object
        The switch to check.
    name : str
        Name of the argument, for the error message.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        If ``value`` is not a boolean.

    Examples
    --------
    >>> check_flag(np.bool_(True), "monotonic")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {describe(value)}.")
    return bool(value)
