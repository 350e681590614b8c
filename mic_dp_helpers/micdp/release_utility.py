"""How useful a noisy table release is: per-value error, prediction error, clustering (lesson 05).

:func:`compare_allocations` releases the same training rows under several noise allocations of
:mod:`mic_dp_helpers.micdp.allocation`, at equal total epsilon, and measures each with the functions here.
The measures use scikit-learn's estimators and scores (k-means, adjusted Rand index, V-measure,
silhouette) and are computed on the released table against the real one, which is what a data
owner can do before publishing; they are not themselves private releases.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._threads import one_thread
from mic_dp_helpers._validation import (
    ColumnError,
    as_seed,
    check_finite_array,
    check_flag,
    check_int_at_least,
    check_numeric_frame,
    check_positive_floats,
    check_size,
    describe,
)
from mic_dp_helpers.accounting.ledger import PrivacyAccountant
from mic_dp_helpers.micdp.allocation import (
    _as_relevance,
    _numeric_columns,
    check_bounds,
    clip_to_bounds,
    count_outside_bounds,
    plan_budget,
)
from mic_dp_helpers.progress import progress_bar

__all__ = ["feature_mae", "prediction_mae", "clustering_utility", "compare_allocations"]


def feature_mae(real: pd.DataFrame, released: pd.DataFrame, bounds) -> float:
    """Mean absolute error of the released values, each column in units of its declared range.

    Averaged over the columns of ``released`` (so 0.1 means "off by a tenth of the range").

    Parameters
    ----------
    real : pandas.DataFrame
        The true values (with every column of ``released``).
    released : pandas.DataFrame
        The released values, same rows as ``real``.
    bounds : dict
        Column -> declared ``(lower, upper)``.

    Returns
    -------
    float
        The mean absolute error, in units of the range.

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

    Parameters
    ----------
    train_X : pandas.DataFrame
        Training features (a release).
    train_y : array_like
        Training target, one per row of ``train_X``.
    test_X : pandas.DataFrame
        Held-out real features (with ``train_X``'s columns).
    test_y : array_like
        Held-out real target.
    model : scikit-learn regressor, optional
        Cloned before fitting; least squares by default.

    Returns
    -------
    float
        The mean absolute error on the held-out rows, in the target's units.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 1, 2, 3]})
    >>> round(prediction_mae(X, [0.0, 2, 4, 6], X, [0.0, 2, 4, 6]), 6)
    0.0
    """
    from sklearn.base import clone
    from sklearn.linear_model import LinearRegression

    train_X = check_numeric_frame(train_X, "train_X")
    test_X = _numeric_columns(test_X, list(train_X.columns), "test_X")
    train_y = _target(train_y, len(train_X), "train_y", "train_X")
    test_y = _target(test_y, len(test_X), "test_y", "test_X")
    if model is not None and not (hasattr(model, "fit") and hasattr(model, "predict")):
        raise TypeError(f"model must be a scikit-learn regressor (with fit and predict) or None, "
                        f"got {describe(model)}.")
    model = LinearRegression() if model is None else clone(model)
    model.fit(train_X.to_numpy(dtype=float), train_y)
    predicted = model.predict(test_X.to_numpy(dtype=float))
    return float(np.mean(np.abs(predicted - test_y)))


def _target(y, n_rows: int, name: str, rows_of: str) -> np.ndarray:
    """A numeric target with one finite value per row of ``rows_of``."""
    values = check_finite_array(y, name)
    if values.ndim != 1 or len(values) != n_rows:
        raise ValueError(f"{name} must have one value per row of {rows_of} ({n_rows}), got shape {values.shape}.")
    return values


def _scaled(X: pd.DataFrame, bounds) -> np.ndarray:
    checked = check_bounds(bounds, list(X.columns))
    lower = np.array([checked[c][0] for c in X.columns])
    width = np.array([checked[c][1] - checked[c][0] for c in X.columns])
    return (X.to_numpy(dtype=float) - lower) / width


def _check_n_clusters(n_clusters, n_rows: int) -> int:
    n_clusters = check_int_at_least(n_clusters, "n_clusters", 2)
    if n_clusters > n_rows:
        raise ValueError(f"n_clusters={n_clusters} is more than the {n_rows} rows: k-means needs at least one row per "
                         "cluster; use fewer clusters.")
    return n_clusters


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
                       rng: int | np.random.Generator | None = 0, silhouette_sample: int | None = 500) -> dict[str, float]:
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
    rng : int, Generator or None, default 0
        Source of k-means' and the silhouette sample's randomness (an int is scikit-learn's ``random_state``).
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
    n_clusters = _check_n_clusters(n_clusters, len(released))
    if silhouette_sample is not None:
        silhouette_sample = check_int_at_least(silhouette_sample, "silhouette_sample", 2)
    seed = as_seed(rng)
    columns = list(released.columns)
    with one_thread():
        real_labels = _kmeans_labels(_scaled(real[columns], bounds), n_clusters, seed)
        return _clustering_scores(_scaled(released, bounds), real_labels, n_clusters, _seed(seed, 1),
                                  silhouette_sample)


def compare_allocations(train: pd.DataFrame, test: pd.DataFrame, target: str, bounds,
                        relevance: Mapping[str, pd.Series], epsilons: Sequence[float], *, n_seeds: int = 20,
                        target_share: float = 0.25, floor: float = 0.1, power: float = 1.0,
                        top_k: int | None = None, clustering: bool = True, n_clusters: int = 3,
                        silhouette_sample: int | None = 300, progress: bool = True,
                        rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Compare noise allocations at equal total epsilon: release, then measure utility.

    For every total epsilon, every seed and every method in ``relevance``, the training rows
    are released as :func:`release_table` does (Laplace): the target gets ``target_share``
    of the budget, the features share the rest by :func:`plan_budget`. A fresh
    :class:`~mic_dp_helpers.accounting.ledger.PrivacyAccountant` holding exactly that epsilon pays
    for each release (so no method can overspend). For a given seed and epsilon every method
    uses the same standard Laplace draws, scaled by its own noise scales: the comparison is
    paired, which makes differences between methods much less noisy. Each release is private
    under replace-one neighbours with the number of rows public (see :func:`release_table`);
    the measurements read the real data and are the analyst's, not a release. Because the
    noise is shared, the releases of one seed and epsilon must never be published together:
    two of them with different scales give the clipped private values exactly.

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
        Show a progress bar (:func:`mic_dp_helpers.progress.progress_bar`).
    rng : int, Generator or None, default 0
        Source of randomness; an int is the base seed of every run's noise and clustering.

    Returns
    -------
    pandas.DataFrame
        One row per (method, epsilon, seed), with the budget given to each column;
        ``attrs["clipped"]`` counts the training values clipped to the declared bounds per
        column (a warning without counts says when any are; both depend on the private values
        and are not to be published).

    Examples
    --------
    >>> from mic_dp_helpers.datasets import COFFEE_SHOP_BOUNDS, coffee_shop_revenue
    >>> df = coffee_shop_revenue(600, rng=0)
    >>> features = df.drop(columns="Daily_Revenue")
    >>> results = compare_allocations(df.iloc[:400], df.iloc[400:], "Daily_Revenue", COFFEE_SHOP_BOUNDS,
    ...     {"uniform": pd.Series(1.0, index=features.columns)}, [1.0], n_seeds=2, progress=False,
    ...     clustering=False)  # the clustering scores take seconds; the example skips them
    >>> results.shape[0], list(results.columns[:6])
    (2, ['method', 'epsilon', 'seed', 'feature_mae', 'prediction_mae', 'spent_epsilon'])
    """
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
            raise ColumnError(f"{name} has no column(s) {missing}, which the comparison needs (the features scored in "
                           f"relevance and the target {target!r}); {name} has {list(table.columns)}.")
    features = [c for c in train.columns if c in set(scored[0])]
    train = _numeric_columns(train, features + [target], "train")  # other columns (dates, names) are ignored
    test = _numeric_columns(test, features + [target], "test")
    epsilons = check_positive_floats(epsilons, "epsilons")
    n_seeds = check_size(n_seeds, "n_seeds", 1, per_item=len(epsilons))
    seed = as_seed(rng)
    check_flag(clustering, "clustering")
    if clustering:
        n_clusters = _check_n_clusters(n_clusters, len(train))
        if silhouette_sample is not None:
            silhouette_sample = check_int_at_least(silhouette_sample, "silhouette_sample", 2)
    columns = features + [target]
    checked = check_bounds(bounds, columns)
    lower = np.array([checked[c][0] for c in columns])
    width = np.array([checked[c][1] - checked[c][0] for c in columns])
    outside = count_outside_bounds(train[columns], checked)
    if outside.any():
        warnings.warn("train values outside the declared bounds are clipped before every release (counts per "
                      "column in the result's attrs['clipped']); check the bounds. This warning and the counts "
                      "depend on the private values: do not publish them.", UserWarning, stacklevel=2)
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
    with one_thread():  # hundreds of small matrix products
        for epsilon, s in progress_bar(runs, "releases", disable=not progress):
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
