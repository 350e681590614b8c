"""Lesson 06's comparison: 3A with private groups (fixed ClustMix) beside MST and independent marginals.

On one task, one split and one (epsilon, delta), :func:`compare_once` releases synthetic data
with each method and scores it two ways: train on synthetic, test on real (:func:`evaluate_tstr`)
and the mean total variation distance of all two-way marginals (:func:`two_way_tv`) against the
real hold-out, on the same public bins. :func:`compare_methods` repeats over epsilons and seeds
and returns one tidy table; the lesson runs small sizes, ``benchmarks/synthetic_comparison.py``
the full sweep.

Neighbour relation: **replace one record** (``n`` and the class counts public), for every method,
so that the same (epsilon, delta) means the same guarantee. The real hold-out is used only to
score; it is not released.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import check_int_at_least
from mic_dp_helpers.evaluation import evaluate_tstr, load_task, split_real, two_way_tv
from mic_dp_helpers.group_means import SyntheticRelease, release_group_means, smallest_group_size
from mic_dp_helpers.binning import discretize, equal_width_bins, undiscretize
from mic_dp_helpers.marginals import independent_marginals, mst

__all__ = ["METHODS", "GROUPING_RELEASES", "compare_once", "compare_methods", "compare_groupings"]

#: The methods compared, in the order of the lesson's figure.
METHODS = ("real data", "3A, random groups", "MST", "independent marginals")

#: The group-mean releases of lesson 06, section 7: label -> (grouping, repeats).
GROUPING_RELEASES = {
    "ClustMix (paper)": ("cluster", 1),
    "k-d groups": ("kd", 1),
    "random groups": ("random", 1),
    "random mixing x4": ("random", 4),
}


def _group_size(y, dim, epsilon, delta, max_sigma) -> int:
    """Smallest l within the noise limit; one group per class when none is (a choice from public counts)."""
    counts = np.bincount(y)
    try:
        return smallest_group_size(counts[counts > 0], dim, epsilon, delta, max_sigma)
    except ValueError:
        return int(counts[counts > 0].min())


def compare_once(name: str, epsilon: float, delta: float, seed: int, *, n_bins: int = 3, max_sigma: float = 0.3,
                 models: Sequence[str] = ("logreg",), hgb_rounds: int = 10, task=None) -> list[dict]:
    """Rows ``{method, epsilon, seed, model, score, tv}`` for every method on one split of task ``name``.

    Features are discretised with ``n_bins`` equal-width bins between the task's public bounds;
    the label is one more column (its classes are public). MST and the independent baseline
    sample bin codes, turned into values uniformly inside each bin for training. The 3A release
    uses random groups (the grouping lesson 06 proves private) with the smallest ``l`` whose noise
    is at most ``max_sigma``, or one group per class when no ``l`` is.
    """
    X, y, lower, upper = load_task(name) if task is None else task
    X_train, X_test, y_train, y_test = split_real(X, y, random_state=seed)
    edges = equal_width_bins(lower, upper, n_bins)
    classes = np.unique(y)
    sizes = [n_bins] * X.shape[1] + [len(classes)]

    def codes_of(features, labels):
        return np.column_stack([discretize(features, edges), np.searchsorted(classes, labels)])

    test_codes = codes_of(X_test, y_test)
    rng = np.random.default_rng(seed)
    releases = {"real data": (X_train, y_train, codes_of(X_train, y_train))}
    l = _group_size(np.searchsorted(classes, y_train), X.shape[1], epsilon, delta, max_sigma)
    groups = release_group_means(X_train, y_train, lower, upper, epsilon, delta, l=l, rng=rng)
    releases["3A, random groups"] = (groups.X, groups.y, codes_of(groups.X, groups.y))
    train_codes = codes_of(X_train, y_train)
    for method, release in (("MST", mst), ("independent marginals", independent_marginals)):
        codes = release(train_codes, sizes, epsilon, delta, neighbours="replace", rng=rng).codes
        releases[method] = (undiscretize(codes[:, :-1], edges, rng), classes[codes[:, -1]], codes)
    rows = []
    for method, (features, labels, codes) in releases.items():
        tv = two_way_tv(codes, test_codes, sizes)
        if len(np.unique(labels)) < 2:  # a release with one class trains no classifier: score it as chance
            scores = {m: np.nan for m in models}
        else:
            scores = evaluate_tstr(features, labels, X_test, y_test, models=models, max_iter=hgb_rounds,
                                   random_state=seed)
        rows += [{"method": method, "epsilon": epsilon, "seed": seed, "model": m, "score": s, "tv": tv}
                 for m, s in scores.items()]
    return rows


def compare_methods(name: str, epsilons: Sequence[float], delta: float, n_seeds: int, progress=None,
                    **kwargs) -> pd.DataFrame:
    """:func:`compare_once` over ``epsilons`` x ``range(n_seeds)``: one tidy DataFrame.

    ``progress`` wraps the loop (for instance ``tqdm.auto.tqdm``).
    """
    n_seeds = check_int_at_least(n_seeds, "n_seeds", 1)
    task = load_task(name)
    grid = [(eps, seed) for seed in range(n_seeds) for eps in epsilons]
    rows = []
    for eps, seed in (progress(grid) if progress else grid):
        rows += compare_once(name, eps, delta, seed, task=task, **kwargs)
    return pd.DataFrame(rows)


def compare_groupings(task, epsilons: Sequence[float], delta: float, seed: int, *, max_sigma: float = 0.3,
                      hgb_rounds: int = 10, cluster_n_init: int = 2) -> tuple[list[dict], dict[tuple, SyntheticRelease]]:
    """Train on synthetic, test on real for every release of :data:`GROUPING_RELEASES` on one split.

    ``task`` is ``(X, y, lower, upper)`` (:func:`load_task`). Each release uses the smallest ``l``
    whose noise is at most ``max_sigma``; a release for which no ``l`` does is skipped. ClustMix is
    run with its paper's noise, which does not make it private. Returns rows ``{epsilon, release,
    model, score}`` (``"real data"`` once per epsilon) and the releases by ``(epsilon, label)``.
    """
    X, y, lower, upper = task
    X_train, X_test, y_train, y_test = split_real(X, y, random_state=seed)
    real = evaluate_tstr(X_train, y_train, X_test, y_test, max_iter=hgb_rounds, random_state=seed)
    rows = [{"epsilon": eps, "release": "real data", "model": m, "score": s} for eps in epsilons for m, s in real.items()]
    releases = {}
    for eps in epsilons:
        for label, (grouping, repeats) in GROUPING_RELEASES.items():
            try:
                release = release_group_means(X_train, y_train, lower, upper, eps, delta, grouping=grouping,
                                              max_sigma=max_sigma, repeats=repeats, rng=seed,
                                              cluster_n_init=cluster_n_init)
            except ValueError:  # no group size meets the noise limit: nothing is released
                continue
            releases[(eps, label)] = release
            scores = evaluate_tstr(release.X, release.y, X_test, y_test, max_iter=hgb_rounds, random_state=seed)
            rows += [{"epsilon": eps, "release": label, "model": m, "score": s} for m, s in scores.items()]
    return rows, releases
