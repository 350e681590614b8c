"""Relevance-guided noise allocation, done honestly (lesson 05); its utility is measured in
:mod:`mic_dp_helpers.micdp.release_utility`.

The release: every row of a table is published with noise added to each value (each person's
row is perturbed on its own, as in the MIC-DP paper). Done honestly,

1. every column is **clipped to bounds declared in advance** (never the data's own min and
   max, which would leak), so one person's value in column ``j`` can move by at most
   ``upper_j - lower_j``: that is the column's sensitivity under replace-one neighbours;
2. the **total budget is split** across the released columns, ``epsilon_j = epsilon * w_j``
   with positive weights ``w_j`` summing to 1, so every column gets noise; by sequential
   composition each row costs ``sum_j epsilon_j = epsilon``, and since rows are disjoint,
   parallel composition (McSherry 2009) makes the whole table epsilon-DP (Laplace noise,
   Dwork, McSherry, Nissim & Smith 2006);
3. the weights come from a relevance score computed on **public data**, or **paid for** from
   the same budget (:func:`mic_dp_helpers.micdp.paid_relevance.private_relevance`);
4. optionally only the **top-k** columns are released, and the budget is spent on them.

**Neighbours and what is public.** The guarantees here are for **replace-one** neighbours
(two tables of the same size that differ in one person's row), so the number of rows ``n`` is
assumed public: the per-row release shows it exactly. Under the add/remove neighbours of
lessons 02-04 the row count is itself a release, and a per-row table is not DP without more
work (a noisy count and padding). A per-row release is **local DP in all but name**: each row's
noise depends only on that row, so each person could have added it on their own device
(epsilon-local DP, Warner 1965; Kasiviswanathan et al. 2011). The cost is accuracy: an average
over ``n`` released rows has noise of order ``scale / sqrt(n)``, against ``scale / n`` for a
central release of the average itself.

For Gaussian noise the same split is done in zero-concentrated DP (Bun & Steinke 2016):
``rho`` adds up over columns and converts to (epsilon, delta) at the end.

Noise here comes from NumPy and is for teaching only (floating-point attacks, Mironov 2012).
"""

from __future__ import annotations

import difflib
import math
import numbers
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    ColumnError,
    as_generator,
    check_choice,
    check_column_name,
    check_finite_float,
    check_int_at_least,
    check_numeric_frame,
    check_positive_float,
    check_probability,
    ndim_of,
)
from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant, split_epsilon, zcdp_to_dp

__all__ = [
    "MECHANISMS",
    "relevance_weights",
    "split_budget",
    "top_k_features",
    "plan_budget",
    "epsilon_to_rho",
    "check_bounds",
    "clip_to_bounds",
    "count_outside_bounds",
    "release_table",
]

#: Noise mechanisms :func:`release_table` supports.
MECHANISMS = ("laplace", "gaussian")


# ----------------------------------------------------------------------------- weights
def _as_relevance(relevance, name: str = "relevance") -> pd.Series:
    if isinstance(relevance, Mapping):
        relevance = pd.Series(dict(relevance), dtype=object)
    if not isinstance(relevance, pd.Series):
        raise TypeError(f"{name} must be a pandas Series (or dict) of scores indexed by feature name, "
                        f"got {type(relevance).__name__}.")
    if len(relevance) == 0:
        raise ValueError(f"{name} is empty; give a score for at least one feature.")
    if relevance.index.has_duplicates:
        raise ValueError(f"{name} names a feature twice: {list(relevance.index)}.")
    try:
        values = relevance.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold numbers, got dtype {relevance.dtype}.") from None
    if not np.isfinite(values).all():
        bad = list(relevance.index[~np.isfinite(values)])
        raise ValueError(f"{name} has NaN or infinite scores for {bad}; every score must be a finite number.")
    return pd.Series(values, index=relevance.index, dtype=float)


def relevance_weights(relevance, floor: float = 0.1, power: float = 1.0) -> pd.Series:
    """Turn relevance scores into budget weights that are all positive and sum to 1.

    Negative scores count as 0. Each score is divided by the largest, raised to ``power``,
    and mapped to ``floor + (1 - floor) * score``; the results are normalized to sum to 1.
    So the least relevant feature still gets a share of at least ``floor`` times the most
    relevant one's: **no feature is ever released without noise**. If every score is 0,
    the weights are equal.

    ``power=1`` spends in proportion to relevance. ``power=0.5`` is the split that minimizes
    ``sum_j r_j / epsilon_j`` (a relevance-weighted sum of Laplace noise scales, by a
    Lagrange-multiplier argument); ``power=0`` or ``floor=1`` is the uniform split, which
    minimizes the plain sum of (range-normalized) noise scales.

    Parameters
    ----------
    relevance : pandas.Series or dict
        Score per feature (finite numbers).
    floor : float, default 0.1
        In (0, 1]: the least a feature gets, relative to the most relevant one.
    power : float, default 1.0
        >= 0; larger values concentrate the budget on the most relevant features.

    Returns
    -------
    pandas.Series
        Positive weights summing to 1, same index as ``relevance``.

    Examples
    --------
    >>> relevance_weights(pd.Series({"a": 0.8, "b": 0.4, "c": 0.0}), floor=0.2).round(3).tolist()
    [0.556, 0.333, 0.111]
    """
    scores = _as_relevance(relevance).clip(lower=0.0)
    floor = check_positive_float(floor, "floor")
    if floor > 1:
        raise ValueError(f"floor must be in (0, 1], got {floor}; it is the smallest weight relative to the largest.")
    if isinstance(power, bool) or not isinstance(power, numbers.Real) or not math.isfinite(power) or power < 0:
        raise ValueError(f"power must be a finite number >= 0, got {power!r}.")
    top = scores.max()
    normalized = scores / top if top > 0 else pd.Series(1.0, index=scores.index)
    raw = floor + (1.0 - floor) * normalized ** float(power)
    return raw / raw.sum()


def split_budget(total: float, weights) -> pd.Series:
    """Split a total budget in proportion to positive weights; the parts fit ``total`` exactly (see split_epsilon).

    Parameters
    ----------
    total : float
        The budget to split (> 0).
    weights : pandas.Series or dict
        Feature -> weight (> 0).

    Returns
    -------
    pandas.Series
        Feature -> its part; the parts sum to at most ``total``.

    Examples
    --------
    >>> split_budget(1.0, pd.Series({"a": 3.0, "b": 1.0})).tolist()
    [0.75, 0.25]
    """
    total = check_positive_float(total, "total")
    weights = _as_relevance(weights, "weights")
    if (weights <= 0).any():
        bad = list(weights.index[weights <= 0])
        raise ValueError(f"weights must all be > 0 (a zero weight means a release without noise); {bad} are not.")
    # Each part is its exact share rounded down, so the parts always fit the accountant's exact sum.
    return pd.Series(split_epsilon(total, weights.to_numpy()), index=weights.index, name=weights.name)


def top_k_features(relevance, k: int) -> list[str]:
    """Names of the ``k`` most relevant features, most relevant first (ties: original order).

    Parameters
    ----------
    relevance : pandas.Series or dict
        Feature -> relevance score.
    k : int
        How many to keep (1 to the number of features).

    Returns
    -------
    list of str
        The ``k`` feature names.

    Examples
    --------
    >>> top_k_features(pd.Series({"a": 0.1, "b": 0.9, "c": 0.5}), 2)
    ['b', 'c']
    """
    scores = _as_relevance(relevance)
    k = check_int_at_least(k, "k", 1)
    if k > len(scores):
        raise ValueError(f"k={k} but there are only {len(scores)} features.")
    order = np.argsort(-scores.to_numpy(), kind="stable")
    return [scores.index[i] for i in order[:k]]


def epsilon_to_rho(epsilon: float, delta: float) -> float:
    """Largest zCDP ``rho`` whose conversion ``rho + 2 sqrt(rho ln(1/delta))`` equals ``epsilon``.

    Inverse of :func:`mic_dp_helpers.accounting.ledger.zcdp_to_dp` (Bun & Steinke 2016, Proposition 1.3).

    Parameters
    ----------
    epsilon : float
        Target epsilon (> 0).
    delta : float
        Target delta, in (0, 1).

    Returns
    -------
    float
        rho (> 0).

    Examples
    --------
    >>> from mic_dp_helpers.accounting.ledger import zcdp_to_dp
    >>> round(zcdp_to_dp(epsilon_to_rho(1.0, 1e-6), 1e-6), 12)
    1.0
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    log_term = math.log(1.0 / delta)
    root = epsilon / (math.sqrt(log_term + epsilon) + math.sqrt(log_term))  # = sqrt(L + e) - sqrt(L), stably
    return root * root


def plan_budget(relevance, total_epsilon: float, *, floor: float = 0.1, power: float = 1.0,
                top_k: int | None = None, mechanism: str = "laplace", delta: float | None = None,
                reserve: Mapping[str, float] | None = None, columns: Sequence[str] | None = None) -> pd.Series:
    """Per-column budget for :func:`release_table`: epsilon (Laplace) or rho (Gaussian, zCDP).

    Parameters
    ----------
    relevance : pandas.Series or dict
        Relevance of each feature (computed on public data, or paid for).
    total_epsilon : float
        Total epsilon of the whole release (> 0).
    floor, power : float
        See :func:`relevance_weights`.
    top_k : int, optional
        Release only the ``top_k`` most relevant features (the others are dropped and get
        no budget).
    mechanism : {"laplace", "gaussian"}, default "laplace"
        For "gaussian" the values returned are zCDP ``rho`` (summing to
        ``epsilon_to_rho(total_epsilon, delta)``), and ``delta`` is required.
    delta : float, optional
        The delta of the whole release (Gaussian only).
    reserve : dict, optional
        Columns that get a fixed share of the total, whatever their relevance, for example
        ``{"Daily_Revenue": 0.25}`` for a target released next to the features. The shares
        must sum to less than 1; the rest is split across the features by relevance.
    columns : sequence of str, optional
        The columns of the table the plan is for (for example ``df.columns``). When given,
        every planned column must be one of them, so a misspelt ``reserve`` name fails here
        rather than at the release. Without it, a reserved name that is one typo away from a
        feature's name is refused.

    Returns
    -------
    pandas.Series
        Budget per released column; positive, summing to the total (epsilon or rho).

    Examples
    --------
    >>> plan = plan_budget({"a": 1.0, "b": 0.0}, 1.0, floor=0.5, reserve={"y": 0.4})
    >>> plan.round(3).to_dict()
    {'a': 0.4, 'b': 0.2, 'y': 0.4}
    """
    total_epsilon = check_positive_float(total_epsilon, "total_epsilon")
    mechanism = check_choice(mechanism, "mechanism", MECHANISMS)
    if mechanism == "gaussian":
        if delta is None:
            raise ValueError("the Gaussian mechanism needs delta (for example 1e-6, much smaller than 1/n).")
        total = epsilon_to_rho(total_epsilon, check_probability(delta, "delta"))
    else:
        if delta not in (None, 0, 0.0):
            raise ValueError("delta is only used with mechanism='gaussian'; the Laplace release is pure epsilon-DP.")
        total = total_epsilon
    scores = _as_relevance(relevance)
    if top_k is not None:
        scores = scores[top_k_features(scores, top_k)]
    if reserve is not None and not isinstance(reserve, Mapping):
        raise TypeError(f"reserve must be a dict {{column: share of the total}}, got {type(reserve).__name__}.")
    reserve = dict(reserve or {})
    if columns is not None:
        if isinstance(columns, (str, bytes, Mapping)) or ndim_of(columns) != 1:
            raise TypeError(f"columns must be a list of column names (for example df.columns), got "
                            f"{type(columns).__name__} {columns!r:.60}.")
        known = list(columns)
        for kind, names in (("reserve", list(reserve)), ("relevance", list(_as_relevance(relevance).index))):
            unknown = [c for c in names if c not in known]
            if unknown:
                hints = {c: difflib.get_close_matches(str(c), [str(k) for k in known], n=1) for c in unknown}
                hint = "; ".join(f"{c!r}: did you mean {h[0]!r}?" for c, h in hints.items() if h)
                raise ColumnError(f"{kind} names column(s) {unknown} that the table does not have"
                               f"{' (' + hint + ')' if hint else ''}; its columns are {known}.")
    shares = {}
    for column, share in reserve.items():
        if not isinstance(column, str):
            raise TypeError(f"reserve keys must be column names (str), got {column!r}.")
        if column in scores.index:
            raise ValueError(f"column {column!r} is both reserved and in relevance; reserve it or rank it, not both.")
        close = difflib.get_close_matches(column, [str(c) for c in scores.index], n=1, cutoff=0.85)
        if columns is None and close:
            raise ValueError(f"reserve names {column!r}, which is not a feature but looks like the feature "
                             f"{close[0]!r}: a typo? Pass columns=df.columns to check the names against the table.")
        shares[column] = check_positive_float(share, f"reserve[{column!r}]")
    reserved = math.fsum(shares.values())
    if reserved >= 1:
        raise ValueError(f"the reserved shares sum to {reserved:g}; they must leave part of the budget (< 1).")
    weights = relevance_weights(scores, floor, power) * (1.0 - reserved)
    for column, share in shares.items():
        weights[column] = share
    plan = split_budget(total, weights)
    return plan.rename("rho" if mechanism == "gaussian" else "epsilon")


# ----------------------------------------------------------------------------- release
def _numeric_columns(X, columns: Sequence[str], name: str) -> pd.DataFrame:
    """``X[columns]``, checked numeric and complete; other columns (a date, a name) are ignored."""
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(X).__name__}.")
    missing = [c for c in columns if c not in X.columns]
    if missing:
        raise ColumnError(f"{name} has no column(s) {missing}; it has {list(X.columns)}.")
    return check_numeric_frame(X[list(columns)], name)


def check_bounds(bounds, columns: Sequence[str]) -> dict[str, tuple[float, float]]:
    """Validate declared bounds: a ``(lower, upper)`` pair with ``lower < upper`` for every column.

    Parameters
    ----------
    bounds : dict
        Column -> ``(lower, upper)``, declared before looking at the data.
    columns : sequence of str
        Columns that need bounds.

    Returns
    -------
    dict
        Column -> ``(lower, upper)`` as floats, for ``columns``.

    Raises
    ------
    TypeError
        If ``bounds`` is not a mapping or a pair is not two numbers.
    ValueError
        If a column has no bounds, or ``lower >= upper``.

    Examples
    --------
    >>> check_bounds({"a": (0, 1)}, ["a"])
    {'a': (0.0, 1.0)}
    """
    if not isinstance(bounds, Mapping):
        raise TypeError(f"bounds must be a dict {{column: (lower, upper)}} declared in advance, "
                        f"got {type(bounds).__name__}.")
    if isinstance(columns, (str, bytes)):
        columns = [columns]
    if isinstance(columns, Mapping) or ndim_of(columns) != 1:
        raise TypeError(f"columns must be a list of column names, got {type(columns).__name__} {columns!r:.60}.")
    checked = {}
    for column in columns:
        if check_column_name(column, "every column") not in bounds:
            raise ColumnError(f"no declared bounds for column {column!r}. Declare (lower, upper) from domain knowledge "
                           "before looking at the data; never use the data's own min and max.")
        pair = bounds[column]
        if isinstance(pair, np.ndarray) and pair.ndim == 1:
            pair = pair.tolist()
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise TypeError(f"bounds[{column!r}] must be a (lower, upper) pair, got {pair!r}.")
        lower = check_finite_float(pair[0], f"lower bound of {column!r}")
        upper = check_finite_float(pair[1], f"upper bound of {column!r}")
        if not lower < upper:
            raise ValueError(f"bounds of {column!r} must have lower < upper, got ({lower}, {upper}).")
        checked[column] = (lower, upper)
    return checked


def clip_to_bounds(X: pd.DataFrame, bounds) -> pd.DataFrame:
    """Clip every column of ``X`` to its declared ``(lower, upper)`` bounds (a new float DataFrame).

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features.
    bounds : dict
        Column -> ``(lower, upper)`` for every column of ``X``.

    Returns
    -------
    pandas.DataFrame
        The clipped values, same index and columns.

    Examples
    --------
    >>> clip_to_bounds(pd.DataFrame({"a": [-5.0, 0.5, 9.0]}), {"a": (0, 1)})["a"].tolist()
    [0.0, 0.5, 1.0]
    """
    X = check_numeric_frame(X)
    checked = check_bounds(bounds, list(X.columns))
    lower = np.array([checked[c][0] for c in X.columns])
    upper = np.array([checked[c][1] for c in X.columns])
    return pd.DataFrame(np.clip(X.to_numpy(dtype=float), lower, upper), index=X.index, columns=X.columns)


def count_outside_bounds(X: pd.DataFrame, bounds) -> pd.Series:
    """How many values of each column of ``X`` lie outside its declared bounds (and would be clipped).

    The counts read the private data: they help the data holder check their bounds, and are
    **not** differentially private. Do not publish them.

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features (private).
    bounds : dict
        Column -> ``(lower, upper)`` for every column of ``X``.

    Returns
    -------
    pandas.Series
        Values outside the bounds, per column (not private).

    Examples
    --------
    >>> count_outside_bounds(pd.DataFrame({"a": [-5.0, 0.5, 9.0], "b": [1.0, 2.0, 3.0]}),
    ...                      {"a": (0, 1), "b": (0, 5)}).to_dict()
    {'a': 2, 'b': 0}
    """
    X = check_numeric_frame(X)
    checked = check_bounds(bounds, list(X.columns))
    values = X.to_numpy(dtype=float)
    lower = np.array([checked[c][0] for c in X.columns])
    upper = np.array([checked[c][1] for c in X.columns])
    return pd.Series(((values < lower) | (values > upper)).sum(axis=0), index=X.columns, name="clipped", dtype=int)


def release_table(X: pd.DataFrame, bounds, budget, *, mechanism: str = "laplace", delta: float | None = None,
                  accountant: PrivacyAccountant | None = None, rng=None, label: str = "") -> pd.DataFrame:
    """Release every row of ``X`` with noise: clip to declared bounds, add per-column noise.

    **Neighbours: replace one row**; the number of rows is assumed public (the release shows
    it). Under add/remove neighbours the row count would be released unprotected. Each row's
    noise depends only on that row, so this is in effect local DP (see the module docstring
    for what that costs). The columns named in ``budget`` are released, the others dropped
    (they may be of any type: a date or a name that is not released does not stop the release).
    Column ``j`` has sensitivity ``upper_j - lower_j``.

    * ``mechanism="laplace"``: ``budget[j]`` is ``epsilon_j``; the noise scale is
      ``(upper_j - lower_j) / epsilon_j`` and the table is ``sum_j epsilon_j``-DP. The
      accountant records one spend of ``epsilon_j`` per column.
    * ``mechanism="gaussian"``: ``budget[j]`` is zCDP ``rho_j``; the noise standard
      deviation is ``(upper_j - lower_j) / sqrt(2 rho_j)`` and the table is
      ``sum_j rho_j``-zCDP, hence (``zcdp_to_dp(sum rho, delta)``, delta)-DP. The accountant
      records that (epsilon, delta) once, with the rhos in the label.

    Nothing is released, and nothing is spent, if the accountant cannot pay for it.

    Values outside the declared bounds are clipped. How many were clipped in each column is
    stored in ``released.attrs["clipped"]`` (a dict), and a :class:`UserWarning` without counts says
    that some were; many clipped values mean the bounds are too tight (biased release). The counts,
    and whether the warning appears at all, depend on the private values: they are a look for the
    data holder, not private, and never to be published.

    Parameters
    ----------
    X : pandas.DataFrame
        The private table (numeric, no missing values).
    bounds : dict
        Declared ``(lower, upper)`` per released column.
    budget : pandas.Series or dict
        Budget per released column, for example from :func:`plan_budget`; all > 0.
    mechanism : {"laplace", "gaussian"}
    delta : float, optional
        Required for the Gaussian mechanism.
    accountant : PrivacyAccountant, optional
        Charged for the release.
    rng : None, int or numpy.random.Generator
        Source of noise.
    label : str, optional
        Prefix of the ledger labels.

    Returns
    -------
    pandas.DataFrame
        The noisy table: same index, the columns of ``budget`` in its order;
        ``attrs["clipped"]`` holds the number of clipped values per column and
        ``attrs["neighbours"]`` the neighbour relation of the guarantee.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.2, 0.9], "b": [5.0, 50.0]})
    >>> accountant = PrivacyAccountant(1.0)
    >>> noisy = release_table(X, {"a": (0, 1), "b": (0, 100)}, {"a": 0.5, "b": 0.5},
    ...                       accountant=accountant, rng=0)
    >>> noisy.shape, accountant.spent_epsilon
    ((2, 2), 1.0)
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame, got {type(X).__name__}.")
    budget = _as_relevance(budget, "budget")
    if (budget <= 0).any():
        bad = list(budget.index[budget <= 0])
        raise ValueError(f"every released column needs a budget > 0 (no noise-free columns); {bad} have none.")
    missing = [c for c in budget.index if c not in X.columns]
    if missing:
        hints = [f"{c!r}: did you mean {m[0]!r}?" for c in missing
                 for m in [difflib.get_close_matches(str(c), [str(k) for k in X.columns], n=1)] if m]
        hint = f" ({'; '.join(hints)})" if hints else ""
        raise ColumnError(f"budget names column(s) {missing} that X does not have{hint}; X has {list(X.columns)}. "
                       "(Pass columns=X.columns to plan_budget to catch this when planning.)")
    X = check_numeric_frame(X[list(budget.index)])  # only the released columns must be numeric
    mechanism = check_choice(mechanism, "mechanism", MECHANISMS)
    if accountant is not None and not isinstance(accountant, PrivacyAccountant):
        raise TypeError(f"accountant must be a PrivacyAccountant or None, got {type(accountant).__name__}.")
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {type(label).__name__}.")
    columns = list(budget.index)
    checked = check_bounds(bounds, columns)
    width = np.array([checked[c][1] - checked[c][0] for c in columns])
    clipped = count_outside_bounds(X[columns], checked)
    values = clip_to_bounds(X[columns], checked).to_numpy()
    amounts = budget.to_numpy()
    prefix = f"{label}: " if label else ""
    if mechanism == "laplace":
        if delta not in (None, 0, 0.0):
            raise ValueError("delta is only used with mechanism='gaussian'; the Laplace release is pure epsilon-DP.")
        total_epsilon, total_delta = math.fsum(amounts), 0.0
    else:
        if delta is None:
            raise ValueError("the Gaussian mechanism needs delta (for example 1e-6, much smaller than 1/n).")
        total_delta = check_probability(delta, "delta")
        total_epsilon = zcdp_to_dp(math.fsum(amounts), total_delta)
    if accountant is not None and not accountant.can_spend(total_epsilon, total_delta):
        raise BudgetExceededError(total_epsilon, total_delta, accountant.remaining_epsilon,
                                  accountant.remaining_delta, prefix + "release")
    generator = as_generator(rng)
    if mechanism == "laplace":
        noise = generator.laplace(0.0, 1.0, size=values.shape) * (width / amounts)
    else:
        noise = generator.normal(0.0, 1.0, size=values.shape) * (width / np.sqrt(2.0 * amounts))
    released = pd.DataFrame(values + noise, index=X.index, columns=columns)
    released.attrs["clipped"] = {c: int(v) for c, v in clipped.items()}
    released.attrs["neighbours"] = "replace one row (number of rows public)"
    if clipped.any():
        warnings.warn(f"{prefix}values outside the declared bounds were clipped (counts per column in "
                      "released.attrs['clipped']). Many clipped values bias the release; check the bounds. This "
                      "warning and the counts depend on the private values: do not publish them.",
                      UserWarning, stacklevel=2)
    if accountant is not None:
        if mechanism == "laplace":
            for column, epsilon in zip(columns, amounts):
                accountant.spend(float(epsilon), label=f"{prefix}{column} (Laplace, every row)")
        else:
            rhos = ", ".join(f"{c}={r:.3g}" for c, r in zip(columns, amounts))
            accountant.spend(total_epsilon, total_delta, label=f"{prefix}Gaussian release, zCDP rho: {rhos}")
    return released
