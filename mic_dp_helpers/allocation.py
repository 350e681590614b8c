"""Relevance-guided noise allocation, done honestly, and how to measure its utility (lesson 05).

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
   the same budget (:func:`private_relevance`);
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
    as_generator,
    check_finite_float,
    check_int_at_least,
    check_numeric_frame,
    check_positive_float,
    check_probability,
)
from mic_dp_helpers.accounting import BudgetExceededError, PrivacyAccountant, split_epsilon, zcdp_to_dp
from mic_dp_helpers.relevance import RELEVANCE_METHODS, _refuse_target_among_features, align_target, relevance_scores

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
    "private_relevance",
    "feature_mae",
    "prediction_mae",
    "clustering_utility",
    "compare_allocations",
]

#: Noise mechanisms :func:`release_table` supports.
MECHANISMS = ("laplace", "gaussian")


# ----------------------------------------------------------------------------- weights
def _as_relevance(relevance, name: str = "relevance") -> pd.Series:
    if isinstance(relevance, Mapping):
        relevance = pd.Series(dict(relevance), dtype=float)
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

    Inverse of :func:`mic_dp_helpers.accounting.zcdp_to_dp` (Bun & Steinke 2016, Proposition 1.3).

    Examples
    --------
    >>> from mic_dp_helpers.accounting import zcdp_to_dp
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
    if not isinstance(mechanism, str) or mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}.")
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
        if isinstance(columns, (str, bytes)):
            raise TypeError("columns must be a list of column names (for example df.columns), not one string.")
        known = list(columns)
        for kind, names in (("reserve", list(reserve)), ("relevance", list(_as_relevance(relevance).index))):
            unknown = [c for c in names if c not in known]
            if unknown:
                hints = {c: difflib.get_close_matches(str(c), [str(k) for k in known], n=1) for c in unknown}
                hint = "; ".join(f"{c!r}: did you mean {h[0]!r}?" for c, h in hints.items() if h)
                raise KeyError(f"{kind} names column(s) {unknown} that the table does not have"
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
        raise KeyError(f"{name} has no column(s) {missing}; it has {list(X.columns)}.")
    return check_numeric_frame(X[list(columns)], name)


def check_bounds(bounds, columns: Sequence[str]) -> dict[str, tuple[float, float]]:
    """Validate declared bounds: a ``(lower, upper)`` pair with ``lower < upper`` for every column.

    Examples
    --------
    >>> check_bounds({"a": (0, 1)}, ["a"])
    {'a': (0.0, 1.0)}
    """
    if not isinstance(bounds, Mapping):
        raise TypeError(f"bounds must be a dict {{column: (lower, upper)}} declared in advance, "
                        f"got {type(bounds).__name__}.")
    checked = {}
    for column in columns:
        if column not in bounds:
            raise KeyError(f"no declared bounds for column {column!r}. Declare (lower, upper) from domain knowledge "
                           "before looking at the data; never use the data's own min and max.")
        pair = bounds[column]
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
    reported with a :class:`UserWarning` and stored in ``released.attrs["clipped"]`` (a dict);
    many clipped values mean the bounds are too tight (biased release). These counts are for
    the data holder and are not private: do not publish them.

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
        raise KeyError(f"budget names column(s) {missing} that X does not have{hint}; X has {list(X.columns)}. "
                       "(Pass columns=X.columns to plan_budget to catch this when planning.)")
    X = check_numeric_frame(X[list(budget.index)])  # only the released columns must be numeric
    if not isinstance(mechanism, str) or mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}.")
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
        shown = {c: int(v) for c, v in clipped.items() if v}
        warnings.warn(f"{prefix}values outside the declared bounds were clipped (count per column: {shown}). "
                      "Many clipped values bias the release; check the bounds (the counts are not private: "
                      "do not publish them).", UserWarning, stacklevel=2)
    if accountant is not None:
        if mechanism == "laplace":
            for column, epsilon in zip(columns, amounts):
                accountant.spend(float(epsilon), label=f"{prefix}{column} (Laplace, every row)")
        else:
            rhos = ", ".join(f"{c}={r:.3g}" for c, r in zip(columns, amounts))
            accountant.spend(total_epsilon, total_delta, label=f"{prefix}Gaussian release, zCDP rho: {rhos}")
    return released


def _bounded_block_score(X: pd.DataFrame, y: np.ndarray, method: str, options: dict) -> np.ndarray:
    """Score of each feature on one block, mapped into [0, 1]; a degenerate block scores 0."""
    scores = np.zeros(X.shape[1])
    for j, column in enumerate(X.columns):
        try:
            score = float(relevance_scores(X[[column]], y, method, **options).iloc[0])
        except ValueError:  # constant column or target in this block: no evidence of relevance
            continue
        if method == "mahalanobis":
            score = score / (1.0 + score)  # map [0, inf) into [0, 1)
        scores[j] = min(max(score, 0.0), 1.0)
    return scores


def private_relevance(X: pd.DataFrame, y, method: str, epsilon: float, *, n_blocks: int = 10,
                      accountant: PrivacyAccountant | None = None, rng=None, **options) -> pd.Series:
    """Relevance computed on private data and paid for: subsample and aggregate with Laplace noise.

    The rows are split at random (independently of their values) into ``n_blocks`` disjoint
    blocks; each feature's score is computed on every block, mapped into [0, 1] (MIC and
    |Pearson| already are; the Mahalanobis score ``d`` becomes ``d / (1 + d)``) and averaged
    over the blocks (Nissim, Raskhodnikova & Smith 2007). **Neighbours: replace one row**, with
    the number of rows public (the block sizes depend on it). Replacing one row changes one
    block, so each average moves by at most ``1 / n_blocks`` and the vector of ``d`` averages
    by at most ``d / n_blocks`` in L1: Laplace noise of scale ``d / (n_blocks * epsilon)``
    makes it epsilon-DP. The result is clipped to [0, 1] (free post-processing).
    ``y`` is matched to ``X`` by index when it is a Series; a target among the features is refused.

    More blocks mean less noise but smaller blocks, on which the scores are less accurate.

    Parameters
    ----------
    X : pandas.DataFrame
        Private features.
    y : array_like
        Private target.
    method : {"mic", "pearson", "mahalanobis"}
        Relevance score ("uniform" needs no data and costs nothing; it is refused here).
    epsilon : float
        Budget spent on the relevance (> 0).
    n_blocks : int, default 10
        Number of blocks (>= 2, and at most half the number of rows).
    accountant : PrivacyAccountant, optional
        Charged ``epsilon``.
    rng : None, int or numpy.random.Generator
        Randomness for the partition and the noise.
    **options
        Passed to the score (for MIC: ``alpha``, ``c``, ``est``).

    Returns
    -------
    pandas.Series
        Noisy relevance in [0, 1] per feature.

    Examples
    --------
    >>> from mic_dp_helpers.datasets import coffee_shop_revenue
    >>> df = coffee_shop_revenue(1000, random_state=0)
    >>> scores = private_relevance(df.drop(columns="Daily_Revenue"), df["Daily_Revenue"], "pearson",
    ...                            epsilon=5.0, rng=0)
    >>> scores.idxmax()
    'Number_of_Customers_Per_Day'
    """
    X = check_numeric_frame(X)
    y = align_target(X, y)
    target = np.asarray(y, dtype=float)
    if target.ndim != 1 or len(target) != len(X):
        raise ValueError(f"y must have one value per row of X ({len(X)}), got shape {target.shape}.")
    _refuse_target_among_features(X, y, target)
    if not isinstance(method, str) or method not in RELEVANCE_METHODS or method == "uniform":
        raise ValueError(f"method must be 'mic', 'pearson' or 'mahalanobis', got {method!r}.")
    epsilon = check_positive_float(epsilon, "epsilon")
    n_blocks = check_int_at_least(n_blocks, "n_blocks", 2)
    if 2 * n_blocks > len(X):
        raise ValueError(f"n_blocks={n_blocks} is too many for {len(X)} rows; each block needs at least 2 rows.")
    if accountant is not None and not isinstance(accountant, PrivacyAccountant):
        raise TypeError(f"accountant must be a PrivacyAccountant or None, got {type(accountant).__name__}.")
    if accountant is not None and not accountant.can_spend(epsilon):
        raise BudgetExceededError(epsilon, 0.0, accountant.remaining_epsilon, accountant.remaining_delta,
                                  f"relevance ({method})")
    generator = as_generator(rng)
    blocks = np.array_split(generator.permutation(len(X)), n_blocks)
    scores = np.mean([_bounded_block_score(X.iloc[rows], target[rows], method, options) for rows in blocks], axis=0)
    d = X.shape[1]
    noisy = scores + generator.laplace(0.0, d / (n_blocks * epsilon), size=d)
    if accountant is not None:
        accountant.spend(epsilon, label=f"relevance ({method}, subsample and aggregate, {n_blocks} blocks)")
    return pd.Series(np.clip(noisy, 0.0, 1.0), index=X.columns, name=f"private_{method}")


# ----------------------------------------------------------------------------- utility
def feature_mae(real: pd.DataFrame, released: pd.DataFrame, bounds) -> float:
    """Mean absolute error of the released values, each column in units of its declared range.

    Averaged over the columns of ``released`` (so 0.1 means "off by a tenth of the range").

    Examples
    --------
    >>> real = pd.DataFrame({"a": [0.0, 1.0]})
    >>> feature_mae(real, pd.DataFrame({"a": [0.5, 1.0]}), {"a": (0, 2)})
    0.125
    """
    released = check_numeric_frame(released, "released")
    columns = list(released.columns)
    real = _numeric_columns(real, columns, "real")
    if len(real) != len(released):
        raise ValueError(f"real and released must hold the same rows; real has {len(real)}, released {len(released)}.")
    checked = check_bounds(bounds, columns)
    width = np.array([checked[c][1] - checked[c][0] for c in columns])
    error = np.abs(released.to_numpy(dtype=float) - real[columns].to_numpy(dtype=float)) / width
    return float(error.mean())


def prediction_mae(train_X: pd.DataFrame, train_y, test_X: pd.DataFrame, test_y, model=None) -> float:
    """Train a model on (released) training rows, return its MAE on real held-out rows.

    ``model`` defaults to ordinary least squares (:class:`sklearn.linear_model.LinearRegression`);
    any scikit-learn regressor works. ``test_X`` is restricted to ``train_X``'s columns.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 1, 2, 3]})
    >>> round(prediction_mae(X, [0.0, 2, 4, 6], X, [0.0, 2, 4, 6]), 6)
    0.0
    """
    from sklearn.base import clone
    from sklearn.linear_model import LinearRegression

    train_X = check_numeric_frame(train_X, "train_X")
    test_X = check_numeric_frame(test_X, "test_X")
    model = LinearRegression() if model is None else clone(model)
    model.fit(train_X.to_numpy(dtype=float), np.asarray(train_y, dtype=float))
    predicted = model.predict(test_X[list(train_X.columns)].to_numpy(dtype=float))
    return float(np.mean(np.abs(predicted - np.asarray(test_y, dtype=float))))


def _scaled(X: pd.DataFrame, bounds) -> np.ndarray:
    checked = check_bounds(bounds, list(X.columns))
    lower = np.array([checked[c][0] for c in X.columns])
    width = np.array([checked[c][1] - checked[c][0] for c in X.columns])
    return (X.to_numpy(dtype=float) - lower) / width


def _kmeans_labels(points: np.ndarray, n_clusters: int, random_state: int) -> np.ndarray:
    """scikit-learn's k-means (Lloyd's algorithm, k-means++ seeding, one initialization)."""
    from sklearn.cluster import KMeans

    return KMeans(n_clusters=n_clusters, n_init=1, random_state=random_state).fit(points).labels_


def _seed(*parts: int) -> int:
    """A 32-bit seed for scikit-learn derived from several integers."""
    return int(np.random.default_rng(list(parts)).integers(2**31 - 1))


def _clustering_scores(points: np.ndarray, real_labels: np.ndarray, n_clusters: int, random_state: int,
                       silhouette_sample: int | None) -> dict[str, float]:
    from sklearn.metrics import adjusted_rand_score, silhouette_score, v_measure_score

    labels = _kmeans_labels(points, n_clusters, random_state)
    if len(np.unique(labels)) < 2:  # k-means collapsed to one cluster: no silhouette is defined
        silhouette = 0.0
    else:
        sample = silhouette_sample if silhouette_sample is not None and silhouette_sample < len(points) else None
        silhouette = float(silhouette_score(points, labels, sample_size=sample, random_state=random_state))
    return {"silhouette": silhouette, "ari": float(adjusted_rand_score(real_labels, labels)),
            "v_measure": float(v_measure_score(real_labels, labels))}


def clustering_utility(real: pd.DataFrame, released: pd.DataFrame, bounds, *, n_clusters: int = 3,
                       random_state: int = 0, silhouette_sample: int | None = 500) -> dict[str, float]:
    """How well k-means on the released table reproduces k-means on the real one.

    Both tables are scaled by the declared bounds (to [0, 1] for the real data), k-means is
    run on each (scikit-learn's :class:`~sklearn.cluster.KMeans`: Lloyd's algorithm with
    k-means++ seeding, one initialization, fixed seed), and the result has

    * ``silhouette``: the silhouette (Rousseeuw 1987) of the k-means clusters of the
      *released* data, on the released data (what the MIC-DP paper reports; k-means finds
      well-separated clusters even in pure noise, so a good silhouette alone proves little);
    * ``ari`` (adjusted Rand index, Hubert & Arabie 1985) and ``v_measure`` (Rosenberg &
      Hirschberg 2007): agreement between the clusterings of the real rows and of their
      released versions (1 = same partition, about 0 = unrelated).

    The three scores are scikit-learn's ``silhouette_score``, ``adjusted_rand_score`` and
    ``v_measure_score`` (:mod:`sklearn.metrics`). These are measurements for the analyst who
    compares methods; the real clustering reads the private data and is not released.

    Parameters
    ----------
    real, released : pandas.DataFrame
        The same rows, real and released; only ``released``'s columns are used.
    bounds : dict
        Declared bounds.
    n_clusters : int, default 3
    random_state : int, default 0
    silhouette_sample : int or None, default 500
        Rows sampled for the silhouette (None: all; it costs O(n^2)).

    Returns
    -------
    dict
        ``{"silhouette": ..., "ari": ..., "v_measure": ...}``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> real = pd.DataFrame({"a": np.r_[rng.normal(0.2, 0.02, 50), rng.normal(0.8, 0.02, 50)]})
    >>> clustering_utility(real, real, {"a": (0, 1)}, n_clusters=2)["ari"]
    1.0
    """
    released = check_numeric_frame(released, "released")
    real = _numeric_columns(real, list(released.columns), "real")
    if len(real) != len(released):
        raise ValueError(f"real and released must hold the same rows; real has {len(real)}, released {len(released)}.")
    n_clusters = check_int_at_least(n_clusters, "n_clusters", 2)
    if silhouette_sample is not None:
        silhouette_sample = check_int_at_least(silhouette_sample, "silhouette_sample", 2)
    from threadpoolctl import threadpool_limits

    if isinstance(random_state, bool) or not isinstance(random_state, numbers.Integral) or random_state < 0:
        raise ValueError(f"random_state must be a non-negative integer, got {random_state!r}.")
    columns = list(released.columns)
    with threadpool_limits(1):
        real_labels = _kmeans_labels(_scaled(real[columns], bounds), n_clusters, int(random_state))
        return _clustering_scores(_scaled(released, bounds), real_labels, n_clusters, _seed(int(random_state), 1),
                                  silhouette_sample)


def compare_allocations(train: pd.DataFrame, test: pd.DataFrame, target: str, bounds,
                        relevance: Mapping[str, pd.Series], epsilons: Sequence[float], *, n_seeds: int = 20,
                        target_share: float = 0.25, floor: float = 0.1, power: float = 1.0,
                        top_k: int | None = None, clustering: bool = True, n_clusters: int = 3,
                        silhouette_sample: int | None = 300, progress: bool = True, seed: int = 0) -> pd.DataFrame:
    """Compare noise allocations at equal total epsilon: release, then measure utility.

    For every total epsilon, every seed and every method in ``relevance``, the training rows
    are released as :func:`release_table` does (Laplace): the target gets ``target_share``
    of the budget, the features share the rest by :func:`plan_budget`. A fresh
    :class:`~mic_dp_helpers.accounting.PrivacyAccountant` holding exactly that epsilon pays
    for each release (so no method can overspend). For a given seed and epsilon every method
    uses the same standard Laplace draws, scaled by its own noise scales: the comparison is
    paired, which makes differences between methods much less noisy. Each release is private
    under replace-one neighbours with the number of rows public (see :func:`release_table`);
    the measurements read the real data and are the analyst's, not a release.

    The features are the columns that ``relevance`` scores; other columns of ``train`` and
    ``test`` (a date, a name) are ignored, and a relevance that scores the target is refused.

    Measured per run: ``feature_mae`` (in units of each declared range, released features
    only), ``prediction_mae`` (least squares trained on the released rows, scored on the real
    ``test`` rows, in the target's units) and, with ``clustering=True``, the scores of
    :func:`clustering_utility` on the released features.

    Parameters
    ----------
    train, test : pandas.DataFrame
        Private rows to release, and real held-out rows to score on (features and target).
    target : str
        Target column.
    bounds : dict
        Declared bounds of every column.
    relevance : dict
        ``{method name: relevance Series over the features}``; compute it on public data.
    epsilons : sequence of float
        Total budgets to compare.
    n_seeds : int, default 20
    target_share, floor, power, top_k
        See :func:`plan_budget`.
    clustering : bool, default True
    n_clusters : int, default 3
    silhouette_sample : int or None, default 300
    progress : bool, default True
        Show a tqdm progress bar.
    seed : int, default 0
        Base seed.

    Returns
    -------
    pandas.DataFrame
        One row per (method, epsilon, seed), with the budget given to each column;
        ``attrs["clipped"]`` counts the training values clipped to the declared bounds per
        column (also reported with a warning when any are).

    Examples
    --------
    >>> from mic_dp_helpers.datasets import COFFEE_SHOP_BOUNDS, coffee_shop_revenue
    >>> df = coffee_shop_revenue(600, random_state=0)
    >>> features = df.drop(columns="Daily_Revenue")
    >>> results = compare_allocations(df.iloc[:400], df.iloc[400:], "Daily_Revenue", COFFEE_SHOP_BOUNDS,
    ...     {"uniform": pd.Series(1.0, index=features.columns)}, [1.0], n_seeds=2, progress=False)
    >>> results.shape[0]
    2
    """
    from threadpoolctl import threadpool_limits
    from tqdm.auto import tqdm

    for name, table in (("train", train), ("test", test)):
        if not isinstance(table, pd.DataFrame):
            raise TypeError(f"{name} must be a pandas DataFrame, got {type(table).__name__}.")
    if not isinstance(target, str):
        raise TypeError(f"target must be a column name (str), got {target!r}.")
    if not isinstance(relevance, Mapping) or not relevance:
        raise TypeError("relevance must be a non-empty dict {method name: Series of relevance per feature}.")
    scored = [list(_as_relevance(scores, f"relevance[{name!r}]").index) for name, scores in relevance.items()]
    for (name, _), names in zip(relevance.items(), scored):
        if target in names:
            raise ValueError(f"relevance[{name!r}] scores the target {target!r} as a feature; the target must not "
                             "be among the features (it would leak into its own prediction). Drop it.")
        if sorted(map(str, names)) != sorted(map(str, scored[0])):
            raise ValueError(f"relevance[{name!r}] scores {names}, but relevance[{next(iter(relevance))!r}] scores "
                             f"{scored[0]}; every method must score the same features.")
    for name, table in (("train", train), ("test", test)):
        missing = [c for c in scored[0] + [target] if c not in table.columns]
        if missing:
            raise KeyError(f"{name} has no column(s) {missing}, which the comparison needs (the features scored in "
                           f"relevance and the target {target!r}); {name} has {list(table.columns)}.")
    features = [c for c in train.columns if c in set(scored[0])]
    train = _numeric_columns(train, features + [target], "train")  # other columns (dates, names) are ignored
    test = _numeric_columns(test, features + [target], "test")
    if isinstance(epsilons, (str, bytes)) or not isinstance(epsilons, Sequence | np.ndarray) or len(epsilons) == 0:
        raise TypeError("epsilons must be a non-empty list of positive numbers.")
    epsilons = [check_positive_float(e, "epsilon") for e in epsilons]
    n_seeds = check_int_at_least(n_seeds, "n_seeds", 1)
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}.")
    columns = features + [target]
    checked = check_bounds(bounds, columns)
    lower = np.array([checked[c][0] for c in columns])
    width = np.array([checked[c][1] - checked[c][0] for c in columns])
    outside = count_outside_bounds(train[columns], checked)
    if outside.any():
        warnings.warn("train values outside the declared bounds are clipped before every release (count per "
                      f"column: { {c: int(v) for c, v in outside.items() if v} }); check the bounds (the counts are "
                      "not private: do not publish them).", UserWarning, stacklevel=2)
    clipped = clip_to_bounds(train[columns], checked).to_numpy()
    scaled_train = (clipped[:, :-1] - lower[:-1]) / width[:-1]
    test_x, test_y = test[features].to_numpy(dtype=float), test[target].to_numpy(dtype=float)
    real_labels = _kmeans_labels(scaled_train, n_clusters, _seed(seed, 2)) if clustering else None
    plans = {(name, e): plan_budget(scores, e, floor=floor, power=power, top_k=top_k,
                                    reserve={target: target_share})
             for name, scores in relevance.items() for e in epsilons}
    position = {c: i for i, c in enumerate(columns)}
    rows = []
    runs = [(e, s) for e in epsilons for s in range(n_seeds)]
    with threadpool_limits(1):  # hundreds of small matrix products: BLAS threads only add overhead
        for epsilon, s in tqdm(runs, desc="releases", disable=not progress):
            rows.extend(_compare_one_run(epsilon, s, relevance, plans, columns, position, target, clipped, width,
                                         lower, test_x, test_y, scaled_train, real_labels, clustering, n_clusters,
                                         silhouette_sample, seed))
    results = pd.DataFrame(rows)
    results.attrs["clipped"] = {c: int(v) for c, v in outside.items()}
    return results


def _compare_one_run(epsilon, s, relevance, plans, columns, position, target, clipped, width, lower, test_x,
                     test_y, scaled_train, real_labels, clustering, n_clusters, silhouette_sample, seed) -> list[dict]:
    """One (epsilon, seed) of :func:`compare_allocations`: every method on the same standard draws."""
    rows = []
    n_features = len(columns) - 1
    draws = np.random.default_rng([seed, s, int(round(epsilon * 1000))]).laplace(0.0, 1.0, size=clipped.shape)
    for name in relevance:
        plan = plans[(name, epsilon)]
        accountant = PrivacyAccountant(epsilon)
        for column, amount in plan.items():  # the same spends release_table records
            accountant.spend(float(amount), label=f"{column} (Laplace, every row)")
        index = np.array([position[c] for c in plan.index if c != target])
        budget = plan[[columns[i] for i in index]].to_numpy()
        noisy_x = clipped[:, index] + draws[:, index] * (width[index] / budget)
        noisy_y = clipped[:, -1] + draws[:, -1] * (width[-1] / plan[target])
        design = np.column_stack([np.ones(len(noisy_x)), noisy_x])
        coefficients = np.linalg.lstsq(design, noisy_y, rcond=None)[0]
        predicted = coefficients[0] + test_x[:, index] @ coefficients[1:]
        row = {"method": name, "epsilon": epsilon, "seed": s,
               "feature_mae": float((np.abs(noisy_x - clipped[:, index]) / width[index]).mean()),
               "prediction_mae": float(np.abs(predicted - test_y).mean()),
               "spent_epsilon": accountant.spent_epsilon}
        if clustering:
            points = (noisy_x - lower[index]) / width[index]
            labels = real_labels if len(index) == n_features else _kmeans_labels(
                scaled_train[:, index], n_clusters, _seed(seed, 2))
            row.update(_clustering_scores(points, labels, n_clusters, _seed(seed, s, 3), silhouette_sample))
        row.update({f"budget[{c}]": float(plan[c]) for c in plan.index})
        rows.append(row)
    return rows
