"""How relevant is each feature to a target? MIC, |Pearson|, a Mahalanobis score, and uniform.

Lesson 05 uses these scores to decide how to split a privacy budget across features. Every
function takes a table of features ``X`` (a DataFrame) and a target ``y`` and returns a
:class:`pandas.Series` of scores indexed by feature name, larger meaning more relevant.

* :func:`mic_relevance`: the Maximal Information Coefficient (Reshef et al., "Detecting
  novel associations in large data sets", Science 2011), computed with minepy (Albanese et
  al., Bioinformatics 2013). MIC lies in [0, 1]; it is about 1 for a noiseless functional
  relation of any shape and about 0 for independence. ``est="mic_e"`` selects the MIC_e
  estimator of Reshef et al. (JMLR 2016), which is faster and statistically better behaved.
* :func:`pearson_relevance`: the absolute Pearson correlation, which only sees linear trends.
* :func:`mahalanobis_relevance`: the Mahalanobis distance between the feature's mean among
  high-target rows and among low-target rows, in units of the feature's pooled within-group
  standard deviation. It does not depend on the units of the feature or the target.
* :func:`uniform_relevance`: every feature equally relevant (the baseline).

These scores read the data they are computed on. **None of them is differentially private**:
computed on private data, a score is a release like any other (one changed row can move it)
and must be paid for (see :func:`mic_dp_helpers.micdp.paid_relevance.private_relevance`, private under
replace-one neighbours with n public) or computed on public data, as lesson 05 does.

``y`` is matched to ``X`` by index when it is a Series (see :func:`align_target`), and a target
left among the features is refused.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import check_choice, check_positive_float

__all__ = [
    "RELEVANCE_METHODS",
    "MIC_ESTIMATORS",
    "mic_score",
    "mic_relevance",
    "pearson_relevance",
    "mahalanobis_relevance",
    "uniform_relevance",
    "relevance_scores",
    "align_target",
]

#: The minepy estimators :func:`mic_relevance` accepts.
MIC_ESTIMATORS = ("mic_approx", "mic_e")


# ------------------------------------------------------------------------------ validation
def _as_vector(values, name: str) -> np.ndarray:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of numbers, got a string.")
    if isinstance(values, pd.Series):
        if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
            raise TypeError(f"{name} must be numeric, got dtype {values.dtype}.")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be numeric, got {type(values).__name__}: {error}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (one value per row), got shape {array.shape}.")
    if array.size < 2:
        raise ValueError(f"{name} has {array.size} value(s); relevance needs at least 2 rows.")
    if np.isnan(array).any():
        raise ValueError(f"{name} contains NaN; drop or impute missing values before computing relevance.")
    if np.isinf(array).any():
        raise ValueError(f"{name} contains infinite values; clip them to finite bounds first.")
    if np.ptp(array) == 0:
        raise ValueError(f"{name} is constant (every value is {array[0]:g}); relevance to or from a constant "
                         "column is undefined. Drop the column.")
    return array


def align_target(X: pd.DataFrame, y):
    """Match ``y`` to the rows of ``X``: by index when ``y`` is a Series, else by position.

    A :class:`pandas.Series` ``y`` whose index holds the same labels as ``X``'s (in any order)
    is reordered to ``X``'s rows, as pandas aligns on labels. A Series with other labels is
    refused rather than matched by position, because a shuffled or re-indexed target would
    silently give wrong scores. Arrays and lists are matched by position.

    Parameters
    ----------
    X : pandas.DataFrame
        The features.
    y : pandas.Series or array_like
        The target, one value per row of ``X``.

    Returns
    -------
    pandas.Series or array_like
        A Series ``y`` reordered to ``X``'s index; any other ``y`` unchanged.

    Raises
    ------
    ValueError
        If a Series ``y`` has other labels than ``X``.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [1.0, 2.0, 3.0]}, index=[10, 11, 12])
    >>> align_target(X, pd.Series([30.0, 10.0, 20.0], index=[12, 10, 11])).tolist()
    [10.0, 20.0, 30.0]
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame of features, got {type(X).__name__}.")
    if not isinstance(y, pd.Series) or y.index.equals(X.index):
        return y
    if not (X.index.is_unique and y.index.is_unique) or len(y) != len(X) or not y.index.isin(X.index).all():
        raise ValueError(
            "y is a Series whose index does not match X's index (different labels), so its rows cannot be "
            "matched to X's. Align them first (for example y = y.loc[X.index]), or pass y.to_numpy() if "
            "they really are in the same order.")
    return y.reindex(X.index)


def _refuse_target_among_features(X: pd.DataFrame, y, target: np.ndarray) -> None:
    """Refuse a feature equal to the target value for value: the target left among the features."""
    for column in X.columns:
        if np.array_equal(X[column].to_numpy(dtype=float), target):
            named = f" (y is named {y.name!r})" if isinstance(y, pd.Series) and y.name is not None else ""
            raise ValueError(f"feature {column!r} equals the target y value for value{named}: the target is still "
                             f"among the features. Drop it from X (X.drop(columns={column!r})); a target scored "
                             "against itself leaks into the plan.")


def _features_and_target(X, y) -> tuple[pd.DataFrame, np.ndarray]:
    """Validate ``X`` (a numeric DataFrame) and ``y`` (one value per row of X, aligned on the index)."""
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame of features (one column per feature), got {type(X).__name__}.")
    if X.shape[1] == 0:
        raise ValueError("X has no columns; pass at least one feature.")
    if len(set(X.columns)) != X.shape[1]:
        raise ValueError(f"X has duplicate column names: {list(X.columns)}.")
    y = align_target(X, y)
    target = _as_vector(y, "y")
    if len(target) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(target)} values; they must match row by row.")
    for column in X.columns:
        series = X[column]
        if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
            raise TypeError(f"feature {column!r} must be numeric, got dtype {series.dtype}.")
        _as_vector(series.to_numpy(dtype=float), f"feature {column!r}")
    _refuse_target_among_features(X, y, target)
    return X, target


def _mine(alpha, c, est):
    try:
        import minepy
    except ImportError:  # pragma: no cover - depends on the installation
        raise ImportError(
            "MIC needs minepy, which is not installed. Run `./course lab` from the course folder "
            "(it builds minepy), or open the course on Binder; check_environment(require=['minepy']) "
            "explains the details."
        ) from None
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"alpha must be a number in (0, 1] (or >= 4 for a fixed grid size), got {alpha!r}.")
    if not (0 < alpha <= 1 or 4 <= alpha < float("inf")):
        raise ValueError(f"alpha must be in (0, 1] (the maximum grid size is n**alpha) or >= 4, got {alpha}.")
    c = check_positive_float(c, "c")
    check_choice(est, "est", MIC_ESTIMATORS)
    return minepy.MINE(alpha=float(alpha), c=c, est=est)


# ---------------------------------------------------------------------------------- scores
def mic_score(x, y, alpha: float = 0.6, c: float = 15, est: str = "mic_approx") -> float:
    """Maximal Information Coefficient of two variables, computed with minepy.

    Parameters
    ----------
    x, y : array_like
        Two numeric vectors of the same length (at least 2, not constant, no NaN).
    alpha : float, default 0.6
        The grids searched have at most ``n**alpha`` cells (Reshef et al. 2011 use 0.6).
    c : float, default 15
        How many more clumps than columns the search may use (minepy's default is 15).
    est : {"mic_approx", "mic_e"}, default "mic_approx"
        The original approximate estimator, or MIC_e (Reshef et al. 2016).

    Returns
    -------
    float
        MIC in [0, 1].

    Examples
    --------
    >>> x = np.linspace(0, 1, 200)
    >>> round(mic_score(x, np.sin(6 * x)), 2)
    1.0
    """
    x_values, y_values = _as_vector(x, "x"), _as_vector(y, "y")
    if len(x_values) != len(y_values):
        raise ValueError(f"x has {len(x_values)} values but y has {len(y_values)}; they must match.")
    mine = _mine(alpha, c, est)
    mine.compute_score(x_values, y_values)
    return float(np.clip(mine.mic(), 0.0, 1.0))


def mic_relevance(X: pd.DataFrame, y, alpha: float = 0.6, c: float = 15, est: str = "mic_approx") -> pd.Series:
    """MIC of every feature with the target.

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features, one column each.
    y : array_like
        Target, one value per row of ``X``.
    alpha, c, est
        Passed to minepy; see :func:`mic_score`. Time grows quickly with the number of rows:
        about 0.1 s per feature for 2,000 rows with the defaults.

    Returns
    -------
    pandas.Series
        MIC per feature (index: the columns of ``X``), named ``"mic"``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"signal": rng.uniform(-1, 1, 300), "noise": rng.uniform(-1, 1, 300)})
    >>> scores = mic_relevance(X, X["signal"] ** 2)
    >>> scores.idxmax()
    'signal'
    """
    X, target = _features_and_target(X, y)
    mine = _mine(alpha, c, est)
    scores = {}
    for column in X.columns:
        mine.compute_score(X[column].to_numpy(dtype=float), target)
        scores[column] = float(np.clip(mine.mic(), 0.0, 1.0))
    return pd.Series(scores, name="mic", dtype=float)


def pearson_relevance(X: pd.DataFrame, y) -> pd.Series:
    """Absolute Pearson correlation of every feature with the target (pandas' ``DataFrame.corrwith``).

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features.
    y : pandas.Series or array_like
        The target, one value per row of ``X``.

    Returns
    -------
    pandas.Series
        Feature -> ``|r|`` in [0, 1].

    Examples
    --------
    >>> X = pd.DataFrame({"up": [1.0, 2, 3, 4], "down": [4.0, 3, 2, 2]})
    >>> pearson_relevance(X, [2.0, 4, 6, 8]).round(3).tolist()
    [1.0, 0.944]
    """
    X, target = _features_and_target(X, y)
    r = X.astype(float).corrwith(pd.Series(target, index=X.index))
    return r.abs().clip(0.0, 1.0).astype(float).rename("abs_pearson")


def mahalanobis_relevance(X: pd.DataFrame, y) -> pd.Series:
    """Mahalanobis distance between a feature's distribution among high-target and low-target rows.

    The rows are split at the median of ``y`` into a *high* group (``y`` above the median)
    and a *low* group (the rest). For each feature the score is the Mahalanobis distance
    between the two group means with the pooled within-group variance,
    ``|mean_high - mean_low| / s_pooled`` (in one dimension this is also called Cohen's d).

    Unlike a distance between a feature and the target themselves (which subtracts dollars
    from customers and changes with the units), this score is unchanged when a feature is
    rescaled or shifted, and when the target is transformed by any increasing function.
    Like Pearson, it misses a U-shaped relation, whose two groups have the same mean.

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features.
    y : pandas.Series or array_like
        The target, one value per row of ``X``.

    Returns
    -------
    pandas.Series
        Non-negative scores (index: the columns of ``X``), named ``"mahalanobis"``.

    Raises
    ------
    ValueError
        If ``y`` has fewer than two distinct values on either side of its median, or a
        feature is constant within both groups.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "b": [3.0, 1, 2, 2, 1, 3]})
    >>> scores = mahalanobis_relevance(X, [10.0, 20, 30, 40, 50, 60])
    >>> bool(scores["a"] > scores["b"])
    True
    """
    X, target = _features_and_target(X, y)
    high = target > np.median(target)
    if high.sum() < 2 or (~high).sum() < 2:
        raise ValueError("y has too few distinct values: at least two rows must lie above its median and two "
                         "at or below it.")
    values = X.to_numpy(dtype=float)
    a, b = values[high], values[~high]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(values) - 2)
    if (pooled == 0).any():
        bad = list(X.columns[pooled == 0])
        raise ValueError(f"feature(s) {bad} are constant within both target groups; the distance is undefined.")
    distance = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)
    return pd.Series(distance, index=X.columns, name="mahalanobis", dtype=float)


def uniform_relevance(X: pd.DataFrame, y=None) -> pd.Series:
    """Every feature equally relevant (score 1): the baseline that ignores the target.

    ``y`` is accepted for a uniform call signature and not read.

    Parameters
    ----------
    X : pandas.DataFrame
        The features.
    y : optional
        Ignored.

    Returns
    -------
    pandas.Series
        Feature -> 1.0.

    Examples
    --------
    >>> uniform_relevance(pd.DataFrame({"a": [1, 2], "b": [3, 4]})).tolist()
    [1.0, 1.0]
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame of features, got {type(X).__name__}.")
    if X.shape[1] == 0:
        raise ValueError("X has no columns; pass at least one feature.")
    return pd.Series(1.0, index=X.columns, name="uniform", dtype=float)


#: Relevance methods by name; each maps ``(X, y, **options)`` to a Series of scores.
RELEVANCE_METHODS: dict[str, Callable[..., pd.Series]] = {
    "mic": mic_relevance,
    "pearson": pearson_relevance,
    "mahalanobis": mahalanobis_relevance,
    "uniform": uniform_relevance,
}


def relevance_scores(X: pd.DataFrame, y, method: str, **options) -> pd.Series:
    """Relevance of every feature by ``method`` ("mic", "pearson", "mahalanobis" or "uniform").

    ``options`` are passed on (for MIC: ``alpha``, ``c``, ``est``).

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features.
    y : pandas.Series or array_like
        The target, one value per row of ``X``.
    method : {"mic", "pearson", "mahalanobis", "uniform"}
        The relevance measure.
    **options
        Passed to the MIC estimator.

    Returns
    -------
    pandas.Series
        Feature -> score (higher is more relevant).

    Examples
    --------
    >>> X = pd.DataFrame({"a": [1.0, 2, 3, 5], "b": [2.0, 1, 2, 1]})
    >>> relevance_scores(X, [1.0, 2, 3, 4], "pearson").idxmax()
    'a'
    """
    check_choice(method, "method", RELEVANCE_METHODS)
    if method != "mic" and options:
        raise TypeError(f"method {method!r} takes no options, got {sorted(options)}.")
    return RELEVANCE_METHODS[method](X, y, **options)
