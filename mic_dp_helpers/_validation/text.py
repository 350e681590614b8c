"""Text arguments and choices among named options, and the short description of a value used in every message."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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
