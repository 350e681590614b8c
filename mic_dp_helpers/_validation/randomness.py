"""Sources of randomness (Scientific Python's SPEC 7): ``rng`` as None, an int seed or a Generator."""

from __future__ import annotations

import numbers

import numpy as np


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
