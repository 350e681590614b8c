"""The reconstruction attack of Dinur and Nissim (2003): too many accurate answers rebuild the data.

Take ``n`` people, each with a secret bit ``x_i`` (has a diagnosis or not). An analyst asks
for counts over subsets of the people, named by a public identifier: "how many of patients
3, 17, 42, ... have the diagnosis?". Each answer is ``sum of x_i over the subset`` plus noise.
With ``m`` random subsets the answers form a linear system ``A x + noise = y``; solving it
(least squares, or the linear program of Dinur & Nissim) and rounding gives a guess of every
secret bit. Dinur & Nissim (2003, *Revealing information while preserving privacy*) proved
that noise of magnitude ``o(sqrt(n))`` per answer lets an attacker rebuild almost all of ``x``
from polynomially many queries: *answering too many questions too accurately destroys
privacy*, whatever the answers look like one by one. The US Census Bureau ran this kind of
attack on its own 2010 publications (Abowd 2018; Abowd et al. 2023) and moved the 2020 census
to differential privacy.

Differential privacy stops it by construction: ``m`` counts on one budget ``epsilon`` get
Laplace noise of scale ``m / epsilon`` each (sequential composition), far above ``sqrt(n)``.

Noise here is NumPy noise, for teaching only (see :mod:`mic_dp_helpers.mechanisms.noise`).
Neighbours for the counts: add or remove one person (each count has sensitivity 1).
"""

from __future__ import annotations

import numpy as np

from mic_dp_helpers._threads import one_thread
from mic_dp_helpers._validation import as_generator, check_choice, check_finite_array, check_size, describe, ndim_of

__all__ = [
    "RECONSTRUCTION_METHODS",
    "random_subset_queries",
    "answer_subset_queries",
    "reconstruct",
    "reconstruction_accuracy",
]

#: How :func:`reconstruct` solves the noisy linear system.
RECONSTRUCTION_METHODS = ("least_squares", "linear_program")


def _check_secret(secret) -> np.ndarray:
    array = np.asarray(secret)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"secret must be a non-empty 1-D array of 0/1 values, got shape {array.shape}.")
    if not np.isin(array, (0, 1)).all():
        raise ValueError("secret must hold only 0/1 (or False/True) values, one per person.")
    return array.astype(float)


def _check_queries(queries, n_people: int | None = None) -> np.ndarray:
    array = np.asarray(queries)
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(f"queries must be a 2-D 0/1 matrix (one row per query, one column per person), "
                         f"got shape {array.shape}.")
    if not np.isin(array, (0, 1)).all():
        raise ValueError("queries must hold only 0/1 values: 1 where the person is in the subset.")
    if n_people is not None and array.shape[1] != n_people:
        raise ValueError(f"queries has {array.shape[1]} columns but there are {n_people} people; "
                         "give one column per person.")
    return array.astype(float)


def random_subset_queries(n_people: int, n_queries: int, rng=None) -> np.ndarray:
    """``n_queries`` random subsets of ``n_people`` people: each person is in each subset with probability 1/2.

    The subsets are chosen by the attacker, independently of the data.

    Parameters
    ----------
    n_people : int
        People in the database (>= 1).
    n_queries : int
        Subsets to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        A ``(n_queries, n_people)`` matrix of 0.0 and 1.0.

    Examples
    --------
    >>> random_subset_queries(4, 3, rng=0).shape
    (3, 4)
    """
    n_people = check_size(n_people, "n_people", 1)
    n_queries = check_size(n_queries, "n_queries", 1, per_item=n_people)
    return (as_generator(rng).random((n_queries, n_people)) < 0.5).astype(float)


def answer_subset_queries(secret, queries, noise_scale, rng=None) -> np.ndarray:
    """Noisy subset counts: ``queries @ secret`` plus Laplace noise of scale ``noise_scale``.

    A count has sensitivity 1 (add or remove one person), so scale ``b`` makes each answer
    ``1 / b``-DP, and ``m`` answers ``m / b``-DP by sequential composition. ``noise_scale``
    may be a number or an array of scales: the answers then get one column per scale, all
    from the same standard Laplace draws (common random numbers, so curves over the scale
    are smooth). A scale of 0 gives exact answers.

    Parameters
    ----------
    secret : array_like of 0/1
        One secret bit per person.
    queries : array_like, shape (m, n)
        0/1 subset matrix, e.g. from :func:`random_subset_queries`.
    noise_scale : float or array_like of float
        Laplace scale(s), each >= 0.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        Shape ``(m,)`` for one scale, ``(m, len(noise_scale))`` for several.

    Examples
    --------
    >>> queries = random_subset_queries(5, 3, rng=0)
    >>> answers = answer_subset_queries([1, 0, 1, 1, 0], queries, 0.0)
    >>> bool((answers == queries @ [1, 0, 1, 1, 0]).all())
    True
    """
    x = _check_secret(secret)
    a = _check_queries(queries, x.size)
    scales = check_finite_array(noise_scale, "noise_scale")
    if scales.ndim > 1 or (scales < 0).any():
        raise ValueError(f"noise_scale must be a number >= 0 or a 1-D array of them, got {noise_scale!r}.")
    draws = as_generator(rng).laplace(0.0, 1.0, size=a.shape[0])
    with one_thread():
        exact = a @ x
    if scales.ndim == 0:
        return exact + float(scales) * draws
    return exact[:, None] + draws[:, None] * scales[None, :]


def reconstruct(queries, answers, method: str = "least_squares") -> np.ndarray:
    """The attacker's guess of every secret bit from noisy subset counts.

    * ``"least_squares"``: the ``x`` minimizing ``||A x - y||_2``, rounded at 1/2;
    * ``"linear_program"``: Dinur & Nissim's program, the ``x`` in ``[0, 1]^n`` minimizing
      ``||A x - y||_1`` (solved with SciPy's HiGHS), rounded at 1/2.

    Parameters
    ----------
    queries : array_like, shape (m, n)
        The 0/1 subsets that were asked.
    answers : array_like, shape (m,) or (m, k)
        Their noisy answers; with ``k`` columns (least squares only), ``k`` guesses at once.
    method : {"least_squares", "linear_program"}

    Returns
    -------
    numpy.ndarray of int
        Shape ``(n,)`` or ``(n, k)``: the guessed bits.

    Examples
    --------
    >>> secret = np.array([1, 0, 0, 1, 1, 0, 1, 0])
    >>> queries = random_subset_queries(8, 40, rng=1)
    >>> guess = reconstruct(queries, answer_subset_queries(secret, queries, 0.3, rng=2))
    >>> reconstruction_accuracy(secret, guess)
    1.0
    """
    a = _check_queries(queries)
    y = check_finite_array(answers, "answers")
    if y.ndim not in (1, 2) or y.shape[0] != a.shape[0]:
        raise ValueError(f"answers must be finite, with one row per query ({a.shape[0]}), got shape {y.shape}.")
    check_choice(method, "method", RECONSTRUCTION_METHODS)
    if method == "least_squares":
        with one_thread():
            try:  # normal equations: with more random queries than people, A^T A is well conditioned (and fast)
                if a.shape[0] < a.shape[1]:
                    raise np.linalg.LinAlgError("fewer queries than people")
                estimate = np.linalg.solve(a.T @ a, a.T @ y)
            except np.linalg.LinAlgError:
                estimate = np.linalg.lstsq(a, y, rcond=None)[0]
        return (estimate >= 0.5).astype(int)
    if y.ndim != 1:
        raise ValueError("the linear program takes one answer vector at a time (answers of shape (m,)).")
    from scipy.optimize import linprog  # imported here: only the linear program needs it

    m, n = a.shape
    identity = np.eye(m)
    # Variables: x (n values in [0, 1]) and t (m slacks >= 0); minimize sum t with |A x - y| <= t.
    result = linprog(np.r_[np.zeros(n), np.ones(m)],
                     A_ub=np.block([[a, -identity], [-a, -identity]]), b_ub=np.r_[y, -y],
                     bounds=[(0.0, 1.0)] * n + [(0.0, None)] * m, method="highs")
    if not result.success:  # pragma: no cover - the program is always feasible and bounded
        raise RuntimeError(f"the linear program failed: {result.message}")
    return (result.x[:n] >= 0.5).astype(int)


def reconstruction_accuracy(secret, guess) -> float | np.ndarray:
    """Share of people whose secret bit the guess gets right (one value per column of ``guess``).

    Parameters
    ----------
    secret : array_like
        The true bits, one per person.
    guess : array_like
        Guessed bits: 1-D, or 2-D with one column per guess.

    Returns
    -------
    float or numpy.ndarray
        Share right, one value per column for a 2-D ``guess``.

    Examples
    --------
    >>> reconstruction_accuracy([1, 0, 1, 0], [1, 0, 0, 0])
    0.75
    """
    x = _check_secret(secret)
    g = np.asarray(guess) if ndim_of(guess) in (1, 2) else None
    if g is None or g.dtype.kind not in "biuf":
        raise TypeError(f"guess must be a 1-D (or 2-D, one column per guess) array of guessed bits, "
                        f"got {describe(guess)}.")
    if g.shape[0] != x.size:
        raise ValueError(f"guess has {g.shape[0]} rows but secret has {x.size} people.")
    right = (g == (x if g.ndim == 1 else x[:, None])).mean(axis=0)
    return float(right) if g.ndim == 1 else right

