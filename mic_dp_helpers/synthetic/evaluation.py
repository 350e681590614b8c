"""Evaluating synthetic data: train on synthetic, test on real (lesson 06).

:func:`load_task` loads scikit-learn's bundled breast_cancer and digits data (nothing is
downloaded) with their public bounds; :func:`split_real` splits off a real hold-out;
:func:`evaluate_tstr` trains on (synthetic) data and tests on real data (ROC AUC for binary
tasks, accuracy for more classes). Evaluation uses the real hold-out, which is not released:
its scores are for the course's comparison, not something a data holder would publish.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mic_dp_helpers._threads import one_thread
from mic_dp_helpers._validation import (
    as_seed,
    check_choice,
    check_finite_matrix,
    check_labels,
    check_probability,
    check_size,
    describe,
)
from mic_dp_helpers.synthetic.group_means import public_bounds

__all__ = ["load_task", "split_real", "evaluate_tstr", "two_way_tv"]

_MAX_BOOSTING_ROUNDS = 10_000  # rounds of gradient boosting (each adds a tree; the course uses 10 to 20)
#: The models :func:`evaluate_tstr` trains.
MODELS = ("hgb", "logreg")


def _check_models(models) -> list[str]:
    if isinstance(models, str):
        models = [models]
    if not isinstance(models, (list, tuple)) or not models:
        raise TypeError(f"models must be a non-empty list of model names from {MODELS}, got {describe(models)}.")
    return [check_choice(m, f"models[{i}]", MODELS, unknown="unknown model {value!r}; choose from {choices}")
            for i, m in enumerate(models)]


def load_task(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Load a bundled scikit-learn dataset with its public bounds: ``X, y, lower, upper``.

    ``"breast_cancer"`` (569 x 30, binary) or ``"digits"`` (1,797 x 64, ten classes). Both ship
    with scikit-learn (``load_breast_cancer`` / ``load_digits``): nothing is downloaded.

    Parameters
    ----------
    name : {"breast_cancer", "digits"}
        The dataset.

    Returns
    -------
    X : numpy.ndarray
        Features, shape ``(n, d)``.
    y : numpy.ndarray
        Class labels.
    lower, upper : numpy.ndarray
        Public bounds of every feature.

    Examples
    --------
    >>> X, y, lower, upper = load_task("digits")
    >>> X.shape, len(np.unique(y))
    ((1797, 64), 10)
    """
    from sklearn.datasets import load_breast_cancer, load_digits

    loaders = {"breast_cancer": load_breast_cancer, "digits": load_digits}
    name = check_choice(name, "name (the task)", sorted(loaders),
                        unknown="unknown task {value!r}; choose from {choices}")
    data = loaders[name]()
    lower, upper = public_bounds(name)
    return data.data.astype(float), data.target, lower, upper


def split_real(X, y, test_size: float = 0.25, rng: int | np.random.Generator | None = 0):
    """Stratified split into a private training part and a real hold-out test part.

    Returns ``X_train, X_test, y_train, y_test`` (scikit-learn's ``train_test_split``).

    Parameters
    ----------
    X : array_like
        Features.
    y : array_like
        Class labels (the split is stratified on them).
    test_size : float, default 0.25
        Share of the rows held out.
    rng : int, Generator or None, default 0
        Source of the split's randomness (an int is scikit-learn's ``random_state``).

    Returns
    -------
    X_train, X_test : array_like
        The two parts of ``X`` (of its type).
    y_train, y_test : numpy.ndarray
        The two parts of ``y``.

    Examples
    --------
    >>> X_train, X_test, y_train, y_test = split_real(np.zeros((8, 1)), [0, 1] * 4)
    >>> len(X_test)
    2
    """
    from sklearn.model_selection import train_test_split

    if X is None or isinstance(X, (str, bytes, dict)) or np.ndim(X) == 0:
        raise TypeError(f"X must be a 2-D array or DataFrame of records, got {describe(X)}.")
    labels = check_labels(y, len(X), "y", "X")
    test_size = check_probability(test_size, "test_size")
    seed = as_seed(rng)
    classes, counts = np.unique(labels, return_counts=True)
    n_test = math.ceil(test_size * len(labels))
    if counts.min() < 2 or not len(classes) <= n_test <= len(labels) - len(classes):
        raise ValueError(f"a stratified split needs at least 2 rows of every class and room for every class on both "
                         f"sides: {len(labels)} rows, classes {classes.tolist()} with {counts.tolist()} rows, "
                         f"test_size={test_size} ({n_test} test rows). Use more rows or another test_size.")
    return train_test_split(X, labels, test_size=test_size, stratify=labels, random_state=seed)


def _make_model(name: str, n_train: int, max_iter: int, random_state: int):
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if name == "hgb":
        # min_samples_leaf scales with the (often tiny) synthetic training set: the default 20
        # would make a constant model from 40 synthetic records.
        # Small, fast trees (8 leaves, 32 bins) with a larger learning rate keep a lesson's
        # dozens of fits within seconds.
        return HistGradientBoostingClassifier(max_iter=max_iter, learning_rate=0.3, max_leaf_nodes=8, max_bins=32,
                                              min_samples_leaf=int(min(20, max(2, n_train // 10))),
                                              early_stopping=False, random_state=random_state)
    if name == "logreg":
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    raise ValueError(f"unknown model {name!r}; choose from {MODELS}.")  # pragma: no cover - checked by the caller


def evaluate_tstr(X_train, y_train, X_test, y_test, models: Sequence[str] = ("hgb", "logreg"), *,
                  max_iter: int = 20, rng: int | np.random.Generator | None = 0) -> dict[str, float]:
    """Train on (synthetic) data, test on real data: one score per model.

    The metric is ROC AUC for a binary task and accuracy for more classes (decided by the
    test labels). Models: ``"hgb"`` (``HistGradientBoostingClassifier`` with ``max_iter``
    rounds of small trees: 8 leaves, 32 bins, learning rate 0.2, no early stopping,
    ``min_samples_leaf`` between 2 and 20 scaled to the training size) and ``"logreg"``
    (standardized logistic regression). Fits run single-threaded: on small data, OpenMP
    threads cost more than they save, and they stall on busy shared machines.

    Parameters
    ----------
    X_train, y_train : array_like
        Training features and labels (synthetic).
    X_test, y_test : array_like
        Real held-out features and labels.
    models : sequence of {"hgb", "logreg"}, default ("hgb", "logreg")
        Models to train.
    max_iter : int, default 20
        Boosting rounds of ``"hgb"``.
    rng : int, Generator or None, default 0
        Source of the models' randomness (an int is scikit-learn's ``random_state``).

    Returns
    -------
    dict of str to float
        Model -> score on the real test set.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] > 0).astype(int)
    >>> scores = evaluate_tstr(X[:100], y[:100], X[100:], y[100:], models=["logreg"])
    >>> scores["logreg"] > 0.95
    True
    """
    from sklearn.metrics import accuracy_score, roc_auc_score

    X_train, X_test = check_finite_matrix(X_train, "X_train"), check_finite_matrix(X_test, "X_test")
    if X_train.shape[1] != X_test.shape[1]:
        raise ValueError(f"X_train has {X_train.shape[1]} features but X_test has {X_test.shape[1]}; they must match.")
    y_train = check_labels(y_train, len(X_train), "y_train", "X_train")
    y_test = check_labels(y_test, len(X_test), "y_test", "X_test")
    models = _check_models(models)
    if len(np.unique(y_train)) < 2:
        raise ValueError("the training data must contain at least two classes.")
    binary = len(np.unique(y_test)) == 2
    if binary and np.max(y_test) not in set(np.unique(y_train).tolist()):
        raise ValueError(f"y_test's positive class {np.max(y_test).item()!r} never occurs in y_train: a model "
                         "trained without it cannot score it. Train on data with every class of the test set.")
    seed = as_seed(rng)
    max_iter = check_size(max_iter, "max_iter", 1, maximum=_MAX_BOOSTING_ROUNDS)
    scores = {}
    with one_thread():
        for name in models:
            model = _make_model(name, len(y_train), max_iter, seed).fit(X_train, y_train)
            if binary:
                positive = list(model.classes_).index(np.max(y_test))
                scores[name] = float(roc_auc_score(y_test == np.max(y_test), model.predict_proba(X_test)[:, positive]))
            else:
                scores[name] = float(accuracy_score(y_test, model.predict(X_test)))
    return scores


def two_way_tv(codes_a, codes_b, sizes) -> float:
    """Mean total variation distance between the two-way marginals of two discretised tables.

    For every pair of columns ``(i, j)``, ``TV = 0.5 * sum |P_a(i, j) - P_b(i, j)|`` over the
    cells of the pair's contingency table (shares, so tables of different sizes compare);
    the result is the mean over all ``d (d - 1) / 2`` pairs: 0 for identical pair
    distributions, 1 for disjoint ones. Both tables use the same public bins.

    Parameters
    ----------
    codes_a, codes_b : array_like
        Two tables of bin codes, ``d`` columns each.
    sizes : sequence of int
        Number of bins of each column.

    Returns
    -------
    float
        The mean TV distance, in [0, 1].

    Examples
    --------
    >>> two_way_tv([[0, 0], [1, 1]], [[0, 1], [1, 0]], [2, 2])
    1.0
    >>> two_way_tv([[0, 0], [1, 1]], [[1, 1], [0, 0]], [2, 2])
    0.0
    """
    from mic_dp_helpers.synthetic.marginals import pair_counts

    table_a, offsets = pair_counts(codes_a, sizes)
    table_b, _ = pair_counts(codes_b, sizes)
    if len(sizes) < 2:
        raise ValueError("the two-way total variation needs at least two columns.")
    diff = np.abs(table_a / np.asarray(codes_a).shape[0] - table_b / np.asarray(codes_b).shape[0])
    blocks = np.add.reduceat(np.add.reduceat(diff, offsets[:-1], axis=0), offsets[:-1], axis=1)
    upper = np.triu_indices(len(sizes), k=1)
    return float(0.5 * blocks[upper].mean())
