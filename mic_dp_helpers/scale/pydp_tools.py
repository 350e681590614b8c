"""Google's differential privacy library through PyDP, behind the course's privacy accountant.

PyDP (python-dp 1.1.5) wraps Google's C++ library. Its algorithms ``Count``, ``BoundedSum``
and ``BoundedMean`` (in ``pydp.algorithms.laplacian``) draw *secure* Laplace noise, but they
keep no budget: every ``quick_result`` call is a new release that spends its epsilon again.
This module adds what the course needs around them:

* :class:`AccountedPyDP` runs PyDP queries charged to a
  :class:`~mic_dp_helpers.accounting.ledger.PrivacyAccountant`, so one budget covers hand-made
  mechanisms and PyDP alike. It validates every argument and checks the budget *before*
  calling PyDP, and charges every query it attempts (a PyDP failure can depend on the data,
  so it is paid for like an answer);
* :func:`make_pydp_algorithm`, :func:`pydp_query` and :func:`pydp_repeat` build PyDP
  algorithms the safe way (``dtype="float"``, declared bounds) for experiments on synthetic
  data. They spend epsilon on every call and record nothing;
* :func:`limit_contributions` keeps at most ``k`` rows per person (contribution bounding);
* :mod:`mic_dp_helpers.scale.pydp_error` predicts the error of PyDP's ``BoundedMean`` (clamping
  bias and noise);

Why PyDP's secure noise matters (textbook floating-point Laplace noise leaks, Mironov 2012) is
shown in :mod:`mic_dp_helpers.attacks.floating_point`.

Neighbouring datasets and what is public. Google's library protects a *person* under
add/remove neighbours: the data with and without everything one person contributed, where
one person contributes to at most ``l0_sensitivity`` results and at most
``linf_sensitivity`` rows to each (the caller enforces this, :func:`limit_contributions`).
Public: the declared bounds, epsilon and the contribution limits; the number of rows is not
(counts and means are noised). With the defaults ``l0 = linf = 1``, one row is one person.

Facts about python-dp 1.1.5 used here (checked by introspection and experiment, see lesson 04):

* ``BoundedMean(epsilon)`` without ``dtype`` builds the integer version, which raises
  ``TypeError`` on float data: pass ``dtype="float"``;
* without ``lower_bound``/``upper_bound``, Google's library spends half of epsilon on
  estimating bounds from the data (``ApproxBounds``), and fails on small datasets. The split
  is read from Google's source, ``cc/algorithms/bounded-mean.h`` (``GenerateResult``:
  ``bounds_budget = privacy_budget / 2``, then the count gets half of the rest), at
  google/differential-privacy commit 1b1dc66, not necessarily the C++ bundled in 1.1.5;
* with bounds ``[L, U]``, ``BoundedMean`` spends epsilon/2 on a noisy count and epsilon/2 on
  a noisy sum of ``x - (L + U) / 2`` whose sensitivity is ``(U - L) / 2``; both Laplace
  scales are multiplied by ``l0_sensitivity * linf_sensitivity`` (the C++ library's
  ``max_partitions_contributed`` and ``max_contributions_per_partition``). PyDP does not
  enforce those bounds: the caller must limit each person's rows first;
* the algorithms' ``noise_confidence_interval`` wrapper is broken in 1.1.5 (it passes two
  arguments to a one-argument binding, whose return type cannot be converted) and
  ``result(level)`` returns a bare float; the mechanism-level
  ``pydp.algorithms.numerical_mechanisms.LaplaceMechanism(epsilon, sensitivity)
  .noise_confidence_interval(level, value)`` works and is used here.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    as_generator,
    check_choice,
    check_column_name,
    check_dataframe,
    check_finite_float,
    check_int_at_least,
    check_positive_float,
    check_size,
)
from mic_dp_helpers.accounting.ledger import PrivacyAccountant

__all__ = [
    "QUERY_KINDS",
    "require_pydp",
    "make_pydp_algorithm",
    "pydp_query",
    "pydp_repeat",
    "AccountedPyDP",
    "limit_contributions",
]

_MIN_PYDP_EPSILON = 2.0**-48
_MAX_PYDP_INT = 2**31 - 1  # PyDP's contribution bounds are C ints

#: The PyDP queries supported here, and the ``pydp.algorithms.laplacian`` class behind each.
QUERY_KINDS = {"count": "Count", "sum": "BoundedSum", "mean": "BoundedMean"}


# ------------------------------------------------------------------------------ PyDP import
@functools.lru_cache(maxsize=1)
def require_pydp():
    """Import and return ``pydp.algorithms.laplacian``, or explain how to get a working python-dp.

    Raises
    ------
    mic_dp_helpers.environment.CourseEnvironmentError
        If python-dp is missing or is the 0.1.0 placeholder that lacks the API (what pip
        installs on macOS, Windows and ARM Linux); the message says what to do instead.

    Examples
    --------
    >>> laplacian = require_pydp()
    >>> hasattr(laplacian, "BoundedMean")
    True
    """
    from mic_dp_helpers.environment import CourseEnvironmentError, check_environment

    check_environment(require=["python-dp"], verbose=False)
    try:
        from pydp.algorithms import laplacian
    except ImportError as error:  # installed metadata says >= 1.0 but the module is broken
        raise CourseEnvironmentError(f"python-dp is installed but cannot be imported ({error}).") from None
    return laplacian


# ------------------------------------------------------------------------------ validation
def _check_kind(kind) -> str:
    return check_choice(kind, "kind", QUERY_KINDS)


def _check_values(values, name: str = "values") -> np.ndarray:
    """A 1-D float array without NaN or infinity (it may be empty: an empty dataset is valid)."""
    if isinstance(values, (str, bytes, pd.DataFrame)) or values is None:
        raise TypeError(f"{name} must be a 1-D list, array or Series of numbers, got {type(values).__name__}.")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must contain numbers only: {error}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}.")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN. PyDP would silently skip those rows; the data curator "
                         "must drop or impute missing values before any query.")
    if np.isinf(array).any():
        raise ValueError(f"{name} contains infinite values; replace them before any query.")
    return array


def _check_bounds(kind: str, lower, upper) -> tuple[float | None, float | None]:
    if kind == "count":
        if lower is not None or upper is not None:
            raise ValueError("a count takes no bounds: its sensitivity does not depend on the values.")
        return None, None
    if lower is None or upper is None:
        raise ValueError(
            f"a {kind} needs declared bounds lower and upper. Without them PyDP estimates bounds from "
            "the private data, which spends half of epsilon, adds clamping bias and fails on small "
            "datasets. Choose bounds from public knowledge (e.g. prices on the menu, a legal maximum)."
        )
    lower = check_finite_float(lower, "lower")
    upper = check_finite_float(upper, "upper")
    if not lower < upper:
        raise ValueError(f"lower must be < upper, got lower={lower}, upper={upper}.")
    return lower, upper


def _check_sensitivities(l0_sensitivity, linf_sensitivity) -> tuple[int, int]:
    checked = []
    for name, value in (("l0_sensitivity", l0_sensitivity), ("linf_sensitivity", linf_sensitivity)):
        value = check_int_at_least(value, name, 1)
        if value > _MAX_PYDP_INT:
            raise ValueError(f"{name}={value} is too large: PyDP takes a 32-bit integer, at most "
                             f"{_MAX_PYDP_INT}.")
        checked.append(value)
    return checked[0], checked[1]


def _check_epsilon(epsilon, minimum: float = _MIN_PYDP_EPSILON) -> float:
    """An epsilon PyDP accepts: at least 2**-50 for one mechanism, 2**-48 for an algorithm (a mean splits it)."""
    epsilon = check_positive_float(epsilon, "epsilon")
    if epsilon < minimum:
        raise ValueError(f"epsilon={epsilon:g} is too small for PyDP, which needs at least {minimum:.3g} "
                         f"(2**{int(math.log2(minimum))}).")
    return epsilon


# ------------------------------------------------------------------------ building queries
def make_pydp_algorithm(kind: str, epsilon: float, lower: float | None = None, upper: float | None = None, *,
                        l0_sensitivity: int = 1, linf_sensitivity: int = 1):
    """Build a fresh PyDP algorithm for float data (``dtype="float"``) with declared bounds.

    Parameters
    ----------
    kind : {"count", "sum", "mean"}
        ``Count``, ``BoundedSum`` or ``BoundedMean`` from ``pydp.algorithms.laplacian``.
    epsilon : float
        Privacy parameter of one result (> 0).
    lower, upper : float, optional
        Clamping bounds (required for "sum" and "mean", not allowed for "count"). Values
        outside are clamped. They must come from public knowledge, not from the data.
    l0_sensitivity : int, default 1
        Maximum number of partitions (groups of a breakdown) one person contributes to.
    linf_sensitivity : int, default 1
        Maximum number of rows one person contributes to a partition. PyDP scales the noise
        by ``l0_sensitivity * linf_sensitivity`` but does not enforce it: limit the rows per
        person first (:func:`limit_contributions`).

    Returns
    -------
    pydp algorithm
        An object with ``quick_result(values)``; **each call spends epsilon again**.

    Examples
    --------
    >>> mean = make_pydp_algorithm("mean", 1.0, 0.0, 10.0)
    >>> 0.0 <= mean.quick_result([2.5, 3.5, 4.0] * 100) <= 10.0
    True
    """
    kind = _check_kind(kind)
    epsilon = _check_epsilon(epsilon)
    lower, upper = _check_bounds(kind, lower, upper)
    l0_sensitivity, linf_sensitivity = _check_sensitivities(l0_sensitivity, linf_sensitivity)
    algorithm_class = getattr(require_pydp(), QUERY_KINDS[kind])
    arguments: dict[str, Any] = {"epsilon": epsilon, "l0_sensitivity": l0_sensitivity,
                                 "linf_sensitivity": linf_sensitivity, "dtype": "float"}
    if kind != "count":
        arguments.update(lower_bound=lower, upper_bound=upper)
    return algorithm_class(**arguments)


def _result(algorithm, values: list[float]) -> float:
    # PyDP converts its input element by element; a list of Python floats is about twice as
    # fast to convert as a NumPy array.
    return float(algorithm.quick_result(values))


def pydp_query(kind: str, values, epsilon: float, lower: float | None = None, upper: float | None = None, *,
               l0_sensitivity: int = 1, linf_sensitivity: int = 1) -> float:
    """One PyDP release of a count, bounded sum or bounded mean of ``values`` (not accounted).

    Every call is a new release that spends ``epsilon``, and nothing records it: use it for
    experiments on synthetic or public data, and :class:`AccountedPyDP` for an analysis of
    real data. Neighbours: add or remove one row (one row per person, unless the
    sensitivities say otherwise); public: bounds, epsilon.
    Arguments are as in :func:`make_pydp_algorithm`; ``values`` is a 1-D sequence of numbers
    without NaN.

    Parameters
    ----------
    kind : {"count", "sum", "mean"}
        The PyDP algorithm.
    values : sequence of float
        The values.
    epsilon : float
        Privacy parameter of the release (> 0).
    lower, upper : float, optional
        Public clamping bounds (for "sum" and "mean").
    l0_sensitivity, linf_sensitivity : int, default 1
        Contribution bounds.

    Returns
    -------
    float
        The noisy answer (a count is a whole number; a mean lies within the bounds).

    Examples
    --------
    >>> abs(pydp_query("mean", [4.0] * 1000, epsilon=1.0, lower=0.0, upper=10.0) - 4.0) < 1.0
    True
    """
    algorithm = make_pydp_algorithm(kind, epsilon, lower, upper, l0_sensitivity=l0_sensitivity,
                                    linf_sensitivity=linf_sensitivity)
    return _result(algorithm, _check_values(values).tolist())


def pydp_repeat(kind: str, values, epsilon: float, repetitions: int, lower: float | None = None,
                upper: float | None = None, *, l0_sensitivity: int = 1, linf_sensitivity: int = 1) -> np.ndarray:
    """Run the same PyDP query ``repetitions`` times, to study its error on synthetic data.

    Together the answers cost ``repetitions * epsilon``, and averaging them removes the
    noise: never do this on data you protect. PyDP's noise cannot be seeded, so the answers
    differ from run to run.

    For speed the values are passed to PyDP once: their summary (``serialize``) is merged
    into a fresh algorithm for every repetition, which then adds fresh noise (``result``).
    This is PyDP's own API for distributed aggregation and gives the same distribution as
    calling ``quick_result`` each time, at a cost that does not grow with the data.

    Parameters
    ----------
    kind : {"count", "sum", "mean"}
        The PyDP algorithm.
    values : sequence of float
        The values (synthetic or public).
    epsilon : float
        Privacy parameter of each release (> 0).
    repetitions : int
        Number of releases (>= 1).
    lower, upper : float, optional
        Public clamping bounds (for "sum" and "mean").
    l0_sensitivity, linf_sensitivity : int, default 1
        Contribution bounds.

    Returns
    -------
    numpy.ndarray
        The ``repetitions`` noisy answers.

    Examples
    --------
    >>> answers = pydp_repeat("count", [1.0] * 50, epsilon=1.0, repetitions=200)
    >>> answers.shape, bool(abs(answers.mean() - 50) < 1)
    ((200,), True)
    """
    repetitions = check_size(repetitions, "repetitions", 1)
    entries = _check_values(values).tolist()

    def fresh():
        return make_pydp_algorithm(kind, epsilon, lower, upper, l0_sensitivity=l0_sensitivity,
                                   linf_sensitivity=linf_sensitivity)

    collector = fresh()  # also validates every argument before any work
    collector.add_entries(entries)
    summary = collector.serialize()
    answers = np.empty(repetitions)
    for repetition in range(repetitions):
        algorithm = fresh()
        algorithm.merge(summary)
        answers[repetition] = float(algorithm.result())
    return answers


class AccountedPyDP:
    """PyDP queries charged to a :class:`~mic_dp_helpers.accounting.ledger.PrivacyAccountant`.

    PyDP spends epsilon on every ``quick_result`` call and tracks nothing across calls. This
    class routes each query through the accountant, so one budget covers the whole analysis
    (queries by the course's own mechanisms, e.g. a
    :class:`~mic_dp_helpers.accounting.ledger.PrivateDatabase` sharing the same accountant, and
    PyDP's). For every query it:

    1. validates all arguments (a wrong argument raises and spends nothing);
    2. refuses with :class:`~mic_dp_helpers.accounting.ledger.BudgetExceededError` if the budget left
       is too small: nothing is spent and PyDP is not called;
    3. charges the accountant (the query is now attempted), then builds a fresh PyDP
       algorithm with that epsilon and ``dtype="float"`` and runs it. If PyDP raises, the
       charge stays: a failure on private data can depend on that data.

    Neighbours: add or remove one person, who owns at most ``linf_sensitivity`` of the
    ``values`` (and contributes to at most ``l0_sensitivity`` results); the caller limits
    the rows per person first. Public: bounds, epsilon, contribution limits.

    Sums and means need declared bounds: PyDP's automatic bounds spend half of epsilon on
    the data and can fail on small data, so they are not offered here.

    Parameters
    ----------
    accountant : PrivacyAccountant
        The budget to charge.

    Examples
    --------
    >>> from mic_dp_helpers.accounting.ledger import PrivacyAccountant
    >>> queries = AccountedPyDP(PrivacyAccountant(1.0))
    >>> noisy_mean = queries.bounded_mean([3.0, 4.0, 5.0] * 100, lower=0, upper=10, epsilon=0.5)
    >>> queries.accountant.remaining_epsilon, queries.pydp_calls
    (0.5, 1)
    """

    def __init__(self, accountant: PrivacyAccountant) -> None:
        if not isinstance(accountant, PrivacyAccountant):
            raise TypeError(f"accountant must be a PrivacyAccountant, got {type(accountant).__name__}.")
        self._accountant = accountant
        self._pydp_calls = 0

    @property
    def accountant(self) -> PrivacyAccountant:
        """The accountant charged by every query."""
        return self._accountant

    @property
    def pydp_calls(self) -> int:
        """How many times PyDP was actually run (refused queries do not call it)."""
        return self._pydp_calls

    def __repr__(self) -> str:
        return f"AccountedPyDP({self._accountant!r}, pydp_calls={self._pydp_calls})"

    def query(self, kind: str, values, epsilon: float, lower: float | None = None, upper: float | None = None, *,
              l0_sensitivity: int = 1, linf_sensitivity: int = 1, label: str = "") -> float:
        """Run one PyDP query of ``kind`` ("count", "sum" or "mean"), charged ``epsilon``.

        Arguments are as in :func:`make_pydp_algorithm`; ``label`` names the ledger entry
        (default: the kind and the PyDP class).

        Parameters
        ----------
        kind : {"count", "sum", "mean"}
            The PyDP algorithm.
        values : sequence of float
            The values.
        epsilon : float
            Budget the query spends (> 0).
        lower, upper : float, optional
            Public clamping bounds (for "sum" and "mean").
        l0_sensitivity, linf_sensitivity : int, default 1
            Contribution bounds, as in :func:`make_pydp_algorithm`.
        label : str, optional
            Name of the ledger entry.

        Returns
        -------
        float
            The noisy answer.

        Raises
        ------
        BudgetExceededError
            If ``epsilon`` does not fit in what is left; nothing is spent, PyDP is not called.
        TypeError, ValueError
            For invalid arguments; nothing is spent.
        RuntimeError
            If PyDP itself fails; the query was attempted and stays charged.
        """
        kind = _check_kind(kind)
        if not isinstance(label, str):
            raise TypeError(f"label must be a string, got {type(label).__name__} {label!r}.")
        entries = _check_values(values).tolist()
        epsilon = _check_epsilon(epsilon)
        lower, upper = _check_bounds(kind, lower, upper)
        l0_sensitivity, linf_sensitivity = _check_sensitivities(l0_sensitivity, linf_sensitivity)
        require_pydp()

        def run() -> float:
            algorithm = make_pydp_algorithm(kind, epsilon, lower, upper, l0_sensitivity=l0_sensitivity,
                                            linf_sensitivity=linf_sensitivity)
            self._pydp_calls += 1
            return _result(algorithm, entries)

        return self._accountant.charge_and_run(run, epsilon, label=label or f"PyDP {QUERY_KINDS[kind]}")

    def count(self, values, epsilon: float, *, l0_sensitivity: int = 1, linf_sensitivity: int = 1,
              label: str = "") -> float:
        """Noisy number of entries in ``values`` (PyDP ``Count``), charged ``epsilon``.

        Parameters
        ----------
        values : sequence
            The entries to count.
        epsilon : float
            Budget the query spends (> 0).
        l0_sensitivity, linf_sensitivity : int, default 1
            Contribution bounds, as in :func:`make_pydp_algorithm`.
        label : str, optional
            Name of the ledger entry.

        Returns
        -------
        float
            The noisy count (a whole number).

        Examples
        --------
        >>> from mic_dp_helpers.accounting.ledger import PrivacyAccountant
        >>> answer = AccountedPyDP(PrivacyAccountant(1.0)).count([1.0] * 40, epsilon=1.0)
        >>> float(answer).is_integer()
        True
        """
        return self.query("count", values, epsilon, l0_sensitivity=l0_sensitivity,
                          linf_sensitivity=linf_sensitivity, label=label)

    def bounded_sum(self, values, lower: float, upper: float, epsilon: float, *, l0_sensitivity: int = 1,
                    linf_sensitivity: int = 1, label: str = "") -> float:
        """Noisy sum of ``values`` clamped to ``[lower, upper]`` (PyDP ``BoundedSum``), charged ``epsilon``.

        Parameters
        ----------
        values : sequence of float
            The values.
        lower, upper : float
            Public clamping bounds.
        epsilon : float
            Budget the query spends (> 0).
        l0_sensitivity, linf_sensitivity : int, default 1
            Contribution bounds, as in :func:`make_pydp_algorithm`.
        label : str, optional
            Name of the ledger entry.

        Returns
        -------
        float
            The noisy sum.
        """
        return self.query("sum", values, epsilon, lower, upper, l0_sensitivity=l0_sensitivity,
                          linf_sensitivity=linf_sensitivity, label=label)

    def bounded_mean(self, values, lower: float, upper: float, epsilon: float, *, l0_sensitivity: int = 1,
                     linf_sensitivity: int = 1, label: str = "") -> float:
        """Noisy mean of ``values`` clamped to ``[lower, upper]`` (PyDP ``BoundedMean``), charged ``epsilon``.

        Parameters
        ----------
        values : sequence of float
            The values (one row per person, unless the sensitivities say otherwise).
        lower, upper : float
            Public clamping bounds.
        epsilon : float
            Budget the query spends (> 0).
        l0_sensitivity, linf_sensitivity : int, default 1
            Contribution bounds, as in :func:`make_pydp_algorithm`.
        label : str, optional
            Name of the ledger entry.

        Returns
        -------
        float
            The noisy mean, within the bounds.
        """
        return self.query("mean", values, epsilon, lower, upper, l0_sensitivity=l0_sensitivity,
                          linf_sensitivity=linf_sensitivity, label=label)


# -------------------------------------------------------------------- contribution bounding
def limit_contributions(df: pd.DataFrame, person_column: str, k: int, rng=None) -> pd.DataFrame:
    """Keep at most ``k`` rows per person, chosen uniformly at random among that person's rows.

    After this, adding or removing one person changes a row count by at most ``k``, so a
    row-level count has sensitivity ``k`` (pass ``linf_sensitivity=k`` to PyDP). Each
    person's kept rows are a uniform choice among their own rows, independent across people.
    This holds in distribution, not draw by draw: the sort keys come from one stream by row
    position, so adding a person shifts the keys the others get. The rows keep their original
    index and order.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per contribution (e.g. per purchase).
    person_column : str
        Column identifying the person (the privacy unit).
    k : int
        Maximum rows kept per person (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness for the choice of rows.

    Returns
    -------
    pandas.DataFrame
        A subset of the rows of ``df``: ``min(rows of the person, k)`` rows per person.

    Examples
    --------
    >>> log = pd.DataFrame({"person": ["a", "a", "a", "b"], "amount": [1.0, 2.0, 3.0, 4.0]})
    >>> limit_contributions(log, "person", k=2, rng=0)["person"].value_counts().to_dict()
    {'a': 2, 'b': 1}
    """
    check_dataframe(df, "df", columns=[check_column_name(person_column, "person_column")])
    k = check_int_at_least(k, "k", 1)
    generator = as_generator(rng)
    person, _ = pd.factorize(df[person_column], use_na_sentinel=False)
    n_rows = len(df)
    # Sort the rows by person, and within a person in random order; keep the first k of each.
    order = np.lexsort((generator.random(n_rows), person))
    sorted_person = person[order]
    starts = np.flatnonzero(np.r_[True, sorted_person[1:] != sorted_person[:-1]])
    position_in_person = np.arange(n_rows) - np.repeat(starts, np.diff(np.r_[starts, n_rows]))
    keep = np.zeros(n_rows, dtype=bool)
    keep[order] = position_in_person < k
    return df[keep]
