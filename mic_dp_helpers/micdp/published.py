"""The MIC-DP method **as published**, re-implemented for an audit. NOT DIFFERENTIALLY PRIVATE.

Lesson 05 audits the claim of the ``mic_dp`` package (Yang, Al-masri & Kotevska, "mic_dp: A
Python package for maximum information coefficient differential privacy", JOSS submission
dated 14 April 2025) that noise guided by the Maximal Information Coefficient beats uniform
noise, "by up to 40%" at epsilon = 0.1. What was read: the paper text ``paper.md`` at commit
``0d1161a8eb8b46f18aff906835a02404f064635c`` and the code ``mic_dp/core.py`` at commit
``d5fbaec89c93917dca09a1b77e3dfc6cec100e7b`` of github.com/aeris-lab/mic-dp, and
``examples/supervised_experiment.py`` at commit ``0f80bca5f8e395d31b9e38dcaa686e0124a92b65``.
The PyPI release ``mic-dp`` 0.3 (April 2025) was also downloaded: its wheel holds only
metadata, no module. This module re-implements the method in the course's own code, flaws
included, so that each flaw can be measured. **Never use it to protect data**: use
:mod:`mic_dp_helpers.micdp.allocation`.

**Neighbours.** The published release perturbs every row on its own, so the only relation under
which it could be DP is replace one row, with the number of rows public; even then it is not
(the steps below).

The published pipeline, step by step (each step's flaw in brackets):

1. scale every column to [0, 1] with the data's own min and max
   [the bounds come from the private data and leak; nothing is clipped];
2. take each column's sensitivity as its max - min on that scaled data, i.e. 1
   [a property of this dataset, not a bound over all neighbouring datasets];
3. score each feature's relevance to the target: "MIC" is in fact scikit-learn's
   ``mutual_info_regression`` (a k-nearest-neighbour estimate of mutual information), the
   Pearson score is the *signed* correlation, and the Mahalanobis score compares the
   feature's mean with the target's mean [computed on the private data, target included,
   and paid for by nobody];
4. map relevance to noise factors ``f = A * (1 - (r - min r) / (max r - min r))`` with an
   amplification ``A = 5`` [the most relevant feature gets ``f = 0``: no noise at all];
5. release every value as ``x + f * randomise(x)`` where ``randomise(x)`` already returns
   ``x + noise`` [the value is added twice], with the noise calibrated for the full
   epsilon in every column [so the record's true cost is a sum over columns, and depends
   on ``f``]; the Gaussian noise uses the classic calibration, valid only for epsilon < 1;
6. the "uniform" baseline uses ``f = A`` for every column [the most noise of all methods:
   the comparison is not at equal privacy];
7. the target column is among the released features, and the prediction error is
   measured on the same rows the model was trained on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    ColumnError,
    as_generator,
    as_seed,
    check_choice,
    check_column_name,
    check_finite_array,
    check_flag,
    check_int_at_least,
    check_numeric_frame,
    check_positive_float,
    check_probability,
    check_size,
    describe,
    ndim_of,
)

__all__ = [
    "PUBLISHED_AMPLIFICATION",
    "PUBLISHED_DELTA",
    "PUBLISHED_METHODS",
    "published_scaling",
    "published_sensitivity",
    "published_relevance",
    "published_factors",
    "published_noise_scale",
    "published_release",
    "effective_epsilons",
    "published_pipeline",
    "published_row_sampler",
    "data_range_release",
]

#: The amplification factor ``A`` of the published experiments.
PUBLISHED_AMPLIFICATION = 5.0
#: The delta of the published experiments.
PUBLISHED_DELTA = 1e-5
#: Relevance methods of the published package (``"mic"`` is really mutual information).
PUBLISHED_METHODS = ("mic", "pearson", "mahalanobis", "uniform")


def published_scaling(X: pd.DataFrame) -> pd.DataFrame:
    """FLAWED: min-max scaling with the data's own min and max (the bounds leak).

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features, at least two rows (private).

    Returns
    -------
    pandas.DataFrame
        Every column scaled to [0, 1] by its own min and max.

    Examples
    --------
    >>> published_scaling(pd.DataFrame({"a": [10.0, 20.0, 30.0]}))["a"].tolist()
    [0.0, 0.5, 1.0]
    """
    X = check_numeric_frame(X, min_rows=2)
    low, high = X.min(), X.max()
    span = (high - low).replace(0.0, 1.0)  # a constant column scales to 0
    return ((X - low) / span).astype(float)


def published_sensitivity(X_scaled: pd.DataFrame) -> pd.Series:
    """FLAWED: each column's "sensitivity" taken as its max - min *on this dataset*.

    Parameters
    ----------
    X_scaled : pandas.DataFrame
        Scaled features, at least two rows (private).

    Returns
    -------
    pandas.Series
        Column -> ``max - min`` on this dataset.

    Examples
    --------
    >>> published_sensitivity(pd.DataFrame({"a": [0.0, 0.5, 1.0]})).tolist()
    [1.0]
    """
    X_scaled = check_numeric_frame(X_scaled, "X_scaled", min_rows=2)
    return (X_scaled.max() - X_scaled.min()).astype(float)


def published_relevance(X: pd.DataFrame, y, method: str, rng: int | np.random.Generator | None = 0) -> pd.Series:
    """Relevance as the published package computes it (on the private data, for free).

    Parameters
    ----------
    X : pandas.DataFrame
        Features (in the published experiments: min-max scaled, target included).
    y : array_like
        Target.
    method : {"mic", "pearson", "mahalanobis", "uniform"}
        ``"mic"`` calls :func:`sklearn.feature_selection.mutual_info_regression` (a k-NN
        estimate of mutual information; not MIC); ``"pearson"`` is the signed correlation;
        ``"mahalanobis"`` is ``|mean(x) - mean(y)| / sd(x - y)`` (infinite if ``x - y``
        is constant), which mixes the units of the feature and the target.
    rng : int, Generator or None, default 0
        Source of the k-NN estimator's jitter (an int is scikit-learn's ``random_state``).

    Returns
    -------
    pandas.Series

    Examples
    --------
    >>> X = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [4.0, 3, 2, 2]})
    >>> published_relevance(X, [1.0, 2, 3, 4], "pearson").round(3).tolist()
    [1.0, -0.944]
    """
    X = check_numeric_frame(X, min_rows=2)
    target = check_finite_array(y, "y")
    seed = as_seed(rng)
    if target.ndim != 1 or len(target) != len(X):
        raise ValueError(f"y must have one value per row of X ({len(X)}), got shape {target.shape}.")
    if check_choice(method, "method", PUBLISHED_METHODS) == "uniform":
        return pd.Series(1.0, index=X.columns, name=method)
    if method == "mic":
        from sklearn.feature_selection import mutual_info_regression

        scores = {c: float(mutual_info_regression(X[[c]].to_numpy(dtype=float), target,
                                                  random_state=seed)[0]) for c in X.columns}
        return pd.Series(scores, name=method, dtype=float)
    values = X.to_numpy(dtype=float)
    if method == "pearson":
        with np.errstate(invalid="ignore", divide="ignore"):
            r = [np.corrcoef(values[:, j], target)[0, 1] for j in range(values.shape[1])]
        return pd.Series(r, index=X.columns, name=method, dtype=float)
    distances = []
    for j in range(values.shape[1]):
        difference = values[:, j] - target
        spread = difference.var(ddof=1)
        mean_gap = values[:, j].mean() - target.mean()
        distances.append(math.inf if spread == 0 else math.sqrt(mean_gap**2 / spread))
    return pd.Series(distances, index=X.columns, name=method, dtype=float)


def published_factors(relevance: pd.Series, amplification: float = PUBLISHED_AMPLIFICATION, *,
                      uniform: bool = False) -> pd.Series:
    """FLAWED: noise factors ``A * (1 - (r - min r) / (max r - min r))``; the top feature gets 0.

    With ``uniform=True`` every factor is ``A`` (the published baseline). A score that makes
    the formula undefined (an infinite score, as the Mahalanobis score of the target with
    itself) gives NaN, which the published code replaces by ``A``.

    Parameters
    ----------
    relevance : pandas.Series
        Feature -> relevance score.
    amplification : float, default PUBLISHED_AMPLIFICATION
        The published constant ``A`` (> 0).
    uniform : bool, default False
        Give every feature ``A``.

    Returns
    -------
    pandas.Series
        Feature -> noise factor in ``[0, A]``.

    Examples
    --------
    >>> published_factors(pd.Series({"a": 0.9, "b": 0.5, "c": 0.1})).tolist()
    [0.0, 2.5, 5.0]
    """
    if not isinstance(relevance, pd.Series) or len(relevance) == 0:
        raise TypeError("relevance must be a non-empty pandas Series of scores.")
    amplification = check_positive_float(amplification, "amplification")
    check_flag(uniform, "uniform")
    if uniform:
        return pd.Series(amplification, index=relevance.index, name="factor")
    r = _scores(relevance, "relevance")
    with np.errstate(invalid="ignore", divide="ignore"):
        low, high = np.min(r), np.max(r)
        factors = (1.0 - (r - low) / (high - low)) * amplification
    factors = np.where(np.isnan(factors), amplification, factors)
    return pd.Series(factors, index=relevance.index, name="factor")


def published_noise_scale(sensitivity, epsilon: float, delta: float = PUBLISHED_DELTA,
                          mechanism: str = "gaussian"):
    """Noise scale the published code uses for the full epsilon in every column.

    Gaussian: the classic ``sensitivity * sqrt(2 ln(1.25 / delta)) / epsilon`` (Dwork & Roth
    2014, Theorem A.1; proved only for epsilon < 1). Laplace: ``sensitivity / epsilon``.

    Parameters
    ----------
    sensitivity : float or array_like
        Per-column sensitivity.
    epsilon : float
        Privacy parameter (> 0).
    delta : float, default PUBLISHED_DELTA
        For the Gaussian, in (0, 1).
    mechanism : {"gaussian", "laplace"}, default "gaussian"
        The noise distribution.

    Returns
    -------
    float or numpy.ndarray
        Gaussian sigma or Laplace scale, one per sensitivity.

    Examples
    --------
    >>> round(published_noise_scale(1.0, 0.5), 3)
    9.69
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    sensitivity = check_finite_array(sensitivity, "sensitivity")
    if (sensitivity < 0).any():
        raise ValueError("sensitivity must be >= 0 (the most one value can change).")
    if check_choice(mechanism, "mechanism", ("gaussian", "laplace")) == "gaussian":
        delta = check_probability(delta, "delta")
        scale = sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    else:
        scale = sensitivity / epsilon
    return float(scale) if scale.ndim == 0 else scale


def published_release(X_scaled: pd.DataFrame, factors: pd.Series, epsilon: float, *,
                      sensitivity: pd.Series | None = None, delta: float = PUBLISHED_DELTA,
                      mechanism: str = "gaussian", rng=None, size: int | None = None):
    """FLAWED: release every value as ``x + f * (x + noise)`` (the value added twice).

    Not DP under any neighbour relation (a column with ``f = 0`` is released exactly; the scaling
    and sensitivity come from the data). The relation it would have to satisfy is replace one
    row, with the number of rows public.

    Parameters
    ----------
    X_scaled : pandas.DataFrame
        Data scaled by :func:`published_scaling`.
    factors : pandas.Series
        Noise factor per column (:func:`published_factors`); a factor of 0 releases the
        column exactly.
    epsilon : float
        The claimed epsilon, used in full for every column.
    sensitivity : pandas.Series, optional
        Per column; default :func:`published_sensitivity` of ``X_scaled``.
    delta : float
        For the Gaussian mechanism.
    mechanism : {"gaussian", "laplace"}
    rng : None, int or numpy.random.Generator
    size : int, optional
        If given, return ``size`` independent releases as an array of shape
        ``(size, n_rows, n_columns)`` (for audits) instead of one DataFrame.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 1.0], "b": [1.0, 0.0]})
    >>> out = published_release(X, pd.Series({"a": 0.0, "b": 5.0}), 0.5, rng=0)
    >>> out["a"].tolist()  # factor 0: released exactly
    [0.0, 1.0]
    """
    X_scaled = check_numeric_frame(X_scaled, "X_scaled", min_rows=1)
    f = _per_column(factors, X_scaled.columns, "factors")
    if sensitivity is None:
        if len(X_scaled) < 2:
            raise ValueError("pass sensitivity when releasing a single row; the published one needs the whole data.")
        sensitivity = published_sensitivity(X_scaled)
    scale = published_noise_scale(_per_column(sensitivity, X_scaled.columns, "sensitivity"), epsilon, delta, mechanism)
    values = X_scaled.to_numpy(dtype=float)
    generator = as_generator(rng)
    shape = values.shape if size is None else (check_size(size, "size", 1, per_item=values.size), *values.shape)
    if mechanism == "gaussian":
        noise = generator.normal(0.0, 1.0, size=shape) * scale
    else:
        noise = generator.laplace(0.0, 1.0, size=shape) * scale
    randomised = values + noise  # what the library's randomise(x) returns: x plus noise
    released = values + f * randomised  # ... added to x once more
    if size is not None:
        return released
    return pd.DataFrame(released, index=X_scaled.index, columns=X_scaled.columns)


def _per_column(values, columns: pd.Index, name: str) -> np.ndarray:
    """A Series with one finite number >= 0 per released column (any order), as an array in the columns' order."""
    if not isinstance(values, pd.Series):
        raise TypeError(f"{name} must be a pandas Series indexed by the columns {list(columns)}, "
                        f"got {describe(values)}.")
    if len(values) != len(columns) or not values.index.is_unique or not values.index.isin(columns).all():
        raise ValueError(f"{name} must have one factor per released column {list(columns)}; got the index "
                         f"{list(values.index)}.")
    try:
        array = values.reindex(columns).to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold numbers, got dtype {values.dtype}.") from None
    if not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(f"{name} must be finite numbers >= 0, got {values.to_dict()}.")
    return array


def _scores(series: pd.Series, name: str) -> np.ndarray:
    try:
        return series.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold numbers, got dtype {series.dtype}.") from None


def _check_holdout(holdout, n_rows: int) -> np.ndarray:
    """Row positions held out: distinct whole numbers in 0..n_rows-1, leaving at least 2 rows to train on."""
    if holdout is None:
        return np.zeros(0, dtype=int)
    if isinstance(holdout, (str, bytes, dict)) or ndim_of(holdout) != 1:
        raise TypeError(f"holdout must be a list of row positions, got {describe(holdout)}.")
    rows = np.asarray(holdout)
    if rows.size and (rows.dtype.kind not in "iu" or (rows < 0).any() or (rows >= n_rows).any()):
        raise ValueError(f"holdout must list row positions, whole numbers from 0 to {n_rows - 1}, "
                         f"got {describe(holdout)}.")
    if len(np.unique(rows)) != len(rows) or n_rows - len(rows) < 2:
        raise ValueError("holdout must list each row once and leave at least 2 rows to train on.")
    return rows.astype(int)


def effective_epsilons(factors: pd.Series, epsilon: float) -> pd.Series:
    """The epsilon each column of a published release really costs: ``epsilon * (1 + f) / f``.

    The release ``x + f (x + Z)`` equals ``(1 + f) x + f Z``: the signal is multiplied by
    ``1 + f`` (so its sensitivity is ``(1 + f)`` times the column's) and the noise by ``f``.
    Against Laplace noise calibrated for ``epsilon`` that is ``epsilon (1 + f) / f``-DP per
    column, and infinite for ``f = 0``. (For Gaussian noise the same ratio of sensitivity to
    noise holds, with the classic calibration's caveat that it is only proved for effective
    epsilons below 1.) A record's row costs the sum over its columns. Neighbours: replace one
    row (number of rows public), and this assumes the sensitivity were a real bound, which in the
    published code it is not (:func:`published_sensitivity`).

    Parameters
    ----------
    factors : pandas.Series
        Column -> published noise factor ``f`` (>= 0).
    epsilon : float
        The epsilon the noise is calibrated for (> 0).

    Returns
    -------
    pandas.Series
        Column -> effective epsilon (``inf`` where ``f = 0``).

    Examples
    --------
    >>> effective_epsilons(pd.Series({"a": 0.0, "b": 1.0, "c": 5.0}), 0.5).round(2).tolist()
    [inf, 1.0, 0.6]
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    if not isinstance(factors, pd.Series) or len(factors) == 0:
        raise TypeError("factors must be a non-empty pandas Series.")
    f = _scores(factors, "factors")
    if (f < 0).any() or np.isnan(f).any():
        raise ValueError("factors must be >= 0.")
    with np.errstate(divide="ignore"):
        values = np.where(f == 0, math.inf, epsilon * (1 + f) / np.where(f == 0, 1.0, f))
    return pd.Series(values, index=factors.index, name="effective_epsilon")


def published_pipeline(df: pd.DataFrame, target: str, method: str, epsilon: float, *,
                       include_target: bool = True, amplification: float = PUBLISHED_AMPLIFICATION,
                       delta: float = PUBLISHED_DELTA, mechanism: str = "gaussian", model=None,
                       holdout: Sequence[int] | np.ndarray | None = None, rng=None,
                       relevance_rng: int | np.random.Generator | None = 0, factors: pd.Series | None = None) -> dict:
    """Run the published experiment once: scale, score, factor, release, fit, evaluate.

    Not differentially private under any neighbour relation (see the module docstring).

    Parameters
    ----------
    df : pandas.DataFrame
        The whole (private) table, target included.
    target : str
        Target column.
    method : {"mic", "pearson", "mahalanobis", "uniform"}
    epsilon : float
        The claimed epsilon.
    include_target : bool, default True
        Keep the target among the released features, as the published experiment does.
    amplification, delta, mechanism
        As published: ``A = 5``, ``delta = 1e-5``, classic Gaussian.
    model : scikit-learn regressor, optional
        Default :class:`~sklearn.linear_model.LinearRegression` (the published experiment uses a
        ``RandomForestRegressor``, and its target is ``Daily_Revenue.astype('category').cat.codes``,
        the rank of each distinct revenue, not dollars; the course predicts dollars; the flaws are the same).
    holdout : array of row positions, optional
        If given, the model is trained on the other released rows and also scored on these
        released rows, which it has not seen (``"holdout_mae"``).
    rng : None, int or numpy.random.Generator
        Noise.
    relevance_rng : int, Generator or None, default 0
        Source of the mutual-information estimator's jitter (see :func:`published_relevance`).
    factors : pandas.Series, optional
        Noise factors from an earlier run on the same table (relevance is deterministic, so
        this only saves time); by default they are computed.

    Returns
    -------
    dict
        ``factors`` (Series), ``relevance`` (Series, or None when ``factors`` was given), ``released`` (DataFrame), ``feature_mae`` (on the scaled data, as
        published), ``in_sample_mae`` (the published metric, in the target's units) and
        ``holdout_mae`` (NaN without ``holdout``).

    Examples
    --------
    >>> from mic_dp_helpers.datasets import coffee_shop_revenue
    >>> out = published_pipeline(coffee_shop_revenue(300), "Daily_Revenue", "pearson", 0.5, rng=0)
    >>> float(out["factors"]["Daily_Revenue"])  # the target itself: no noise
    0.0
    """
    from sklearn.base import clone
    from sklearn.linear_model import LinearRegression

    df = check_numeric_frame(df, "df", min_rows=2)
    if check_column_name(target, "target") not in df.columns:
        raise ColumnError(f"target {target!r} is not a column of df.")
    check_flag(include_target, "include_target")
    test = _check_holdout(holdout, len(df))
    if model is not None and not (hasattr(model, "fit") and hasattr(model, "predict")):
        raise TypeError(f"model must be a scikit-learn regressor (with fit and predict) or None, "
                        f"got {describe(model)}.")
    features = df if include_target else df.drop(columns=target)
    y = df[target].to_numpy(dtype=float)
    scaled = published_scaling(features)
    relevance = None
    if factors is None:
        relevance = published_relevance(scaled, y, method, rng=relevance_rng)
        factors = published_factors(relevance, amplification, uniform=method == "uniform")
    else:
        _per_column(factors, scaled.columns, "factors")
    released = published_release(scaled, factors, epsilon, delta=delta, mechanism=mechanism, rng=rng)
    train = np.setdiff1d(np.arange(len(df)), test)
    fitted = (LinearRegression() if model is None else clone(model)).fit(released.iloc[train], y[train])
    in_sample = float(np.mean(np.abs(fitted.predict(released.iloc[train]) - y[train])))
    held = (float(np.mean(np.abs(fitted.predict(released.iloc[test]) - y[test]))) if len(test) else math.nan)
    return {"factors": factors, "relevance": relevance, "released": released,
            "feature_mae": float(np.mean(np.abs(released.to_numpy() - scaled.to_numpy()))),
            "in_sample_mae": in_sample, "holdout_mae": held}


def published_row_sampler(target: str, method: str, epsilon: float, *, row: int = 0, include_target: bool = True,
                          amplification: float = PUBLISHED_AMPLIFICATION, delta: float = PUBLISHED_DELTA,
                          mechanism: str = "gaussian", relevance_rng: int | np.random.Generator | None = 0):
    """A vectorized sampler of the published release of one row, for :func:`~mic_dp_helpers.attacks.audit.audit_epsilon`.

    Returns ``sampler(data, size, rng)``, which runs the published pipeline on the DataFrame
    ``data`` (scaling, relevance and factors are computed once, as they are deterministic)
    and returns ``size`` independent releases of row number ``row`` (audit it on two tables that
    differ in one row, replace-one neighbours, the number of rows public): an array of shape
    ``(size, n_columns)``.

    Parameters
    ----------
    target : str
        Name of the target column.
    method : str
        Relevance method (see :data:`~mic_dp_helpers.micdp.relevance.RELEVANCE_METHODS`).
    epsilon : float
        The epsilon the published code claims (> 0).
    row : int, default 0
        Position of the audited row.
    include_target : bool, default True
        Release the target column too.
    amplification : float, default PUBLISHED_AMPLIFICATION
        The published constant ``A``.
    delta : float, default PUBLISHED_DELTA
        For the Gaussian, in (0, 1).
    mechanism : {"gaussian", "laplace"}, default "gaussian"
        The noise distribution.
    relevance_rng : int, Generator or None, default 0
        Source of the mutual-information estimator's jitter, drawn once: every call of the sampler
        computes the same relevance on the same data, as the published pipeline does.

    Returns
    -------
    callable
        ``sampler(data, size, rng) -> numpy.ndarray`` of shape ``(size, n_columns)``.

    Examples
    --------
    >>> from mic_dp_helpers.datasets import coffee_shop_revenue
    >>> sampler = published_row_sampler("Daily_Revenue", "pearson", 0.5)
    >>> sampler(coffee_shop_revenue(100), 3, np.random.default_rng(0)).shape
    (3, 7)
    """
    epsilon = check_positive_float(epsilon, "epsilon")
    check_choice(method, "method", PUBLISHED_METHODS)
    check_column_name(target, "target")
    row = check_int_at_least(row, "row", 0)
    check_flag(include_target, "include_target")
    relevance_seed = as_seed(relevance_rng, "relevance_rng")

    def sampler(data: pd.DataFrame, size: int, rng) -> np.ndarray:
        size = check_size(size, "size", 1)
        data = check_numeric_frame(data, "data", min_rows=2)
        if target not in data.columns:
            raise ColumnError(f"target {target!r} is not a column of the data.")
        if row >= len(data):
            raise ValueError(f"row={row} is not a row of the data, which has {len(data)} rows (0 to {len(data) - 1}).")
        features = data if include_target else data.drop(columns=target)
        scaled = published_scaling(features)
        relevance = published_relevance(scaled, data[target].to_numpy(dtype=float), method, rng=relevance_seed)
        factors = published_factors(relevance, amplification, uniform=method == "uniform")
        return published_release(scaled.iloc[[row]], factors, epsilon, sensitivity=published_sensitivity(scaled),
                                 delta=delta, mechanism=mechanism, rng=rng, size=size)[:, 0, :]

    return sampler


def data_range_release(values, epsilon: float, size: int, rng=None) -> np.ndarray:
    """FLAWED (bounds only): Laplace release of every value after scaling by the data's own range.

    Each value of a 1-D column is min-max scaled with the column's own min and max and
    released with Laplace noise of scale ``1 / epsilon`` (the scaled range). Noise is added
    correctly, once; the only flaw left is that the scaling depends on everybody's data: one
    person's value moves everyone else's release. Returns ``size`` releases, shape
    ``(size, n)``. The claim it breaks is epsilon-DP under replace-one neighbours (``n`` public).

    Parameters
    ----------
    values : array_like
        A 1-D column of ``n`` numbers (private).
    epsilon : float
        The epsilon the release claims (> 0).
    size : int
        Independent releases to draw (>= 1).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        Shape ``(size, n)``.

    Examples
    --------
    >>> data_range_release([1.0, 2.0, 3.0], 1.0, size=4, rng=0).shape
    (4, 3)
    """
    column = check_finite_array(values, "values")
    if column.ndim != 1 or len(column) < 2:
        raise ValueError("values must be a 1-D array of at least two numbers.")
    span = column.max() - column.min()
    scaled = (column - column.min()) / (span if span > 0 else 1.0)
    epsilon = check_positive_float(epsilon, "epsilon")
    size = check_size(size, "size", 1, per_item=len(column))
    return scaled + as_generator(rng).laplace(0.0, 1.0 / epsilon, size=(size, len(column)))
