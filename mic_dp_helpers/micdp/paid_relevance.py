"""Relevance computed on private data and paid for from the budget (lesson 05).

The weights of :mod:`mic_dp_helpers.micdp.allocation` must come from public data or be paid
for; :func:`private_relevance` pays: subsample and aggregate (Nissim, Raskhodnikova & Smith
2007) with Laplace noise, under **replace-one** neighbours with the number of rows public.

Noise here comes from NumPy and is for teaching only (floating-point attacks, Mironov 2012).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    as_generator,
    check_choice,
    check_int_at_least,
    check_numeric_frame,
    check_positive_float,
)
from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant
from mic_dp_helpers.micdp.relevance import RELEVANCE_METHODS, align_target, relevance_scores

__all__ = ["private_relevance"]


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


def _refuse_target_by_name(X: pd.DataFrame, y) -> None:
    """Refuse a feature named like the target: a check on public names, never on private values."""
    if isinstance(y, pd.Series) and y.name is not None and y.name in X.columns:
        raise ValueError(f"X has a column named {y.name!r}, the name of the target y: the target is still among the "
                         f"features. Drop it from X (X.drop(columns={y.name!r})); a target scored against itself "
                         "leaks into the plan.")


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
    ``y`` is matched to ``X`` by index when it is a Series. A target left among the features is
    refused **by name only** (a column of ``X`` named like the Series ``y``): a refusal that
    depended on the private values would be an output outside the guarantee. Comparing the
    values (a feature equal to the target row by row) is a non-private sanity check the data
    holder runs before any release, e.g. with the public-data ``relevance_scores``, which does.

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
    >>> df = coffee_shop_revenue(1000, rng=0)
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
    _refuse_target_by_name(X, y)
    method = check_choice(method, "method", [m for m in RELEVANCE_METHODS if m != "uniform"])
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
