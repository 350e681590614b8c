"""Lesson 06's comparison: 3A with private groups (fixed ClustMix) beside MST and independent marginals.

On one task, one split and one (epsilon, delta), :func:`compare_once` releases synthetic data
with each method and scores it two ways: train on synthetic, test on real (:func:`evaluate_tstr`)
and the mean total variation distance of all two-way marginals (:func:`two_way_tv`) against the
real hold-out, on the same public bins. :func:`compare_methods` repeats over epsilons and seeds
and returns one tidy table.

**Stored sweeps.** The lesson's multi-seed claims rest on two sweeps over 10 splits that take
longer than a lesson should (:data:`SWEEPS`). ``benchmarks/synthetic_comparison.py --write-stored``
runs them with :func:`run_sweep` and stores the tables in the package (:func:`stored_sweep`);
the lesson re-runs split 0 live and checks with :func:`reproduction_gap` that it matches the
stored row, and the test suite re-runs more splits.

Neighbour relation: **replace one record** (``n`` public), for every method. It is not quite the
same relation for all: 3A's group means replace a record's features and keep its label (so the
class counts are public too), while MST and the independent marginals treat the label as one more
column and also cover a changed label, a stronger guarantee at the same (epsilon, delta). 3A and
the independent marginals are charged with exact Gaussian DP (Gaussian noise only), MST with
Canonne, Kamath & Steinke's zCDP conversion, the one its authors use (its selection step is not
Gaussian; that conversion is not shown to be the tightest for MST). The real hold-out is used only to
score; it is not released.

**Noise streams.** No two releases share one: every release draws its own generator,
:func:`release_stream` of (split seed, dataset, release, epsilon). The split seed also fixes the
75/25 split (scikit-learn's ``random_state``) and the models; neither is a release. The one
exception is by design: the section-10 release "3A, random groups" is the section-7 release
"random groups" (same grouping, same rule for ``l``), so on the same split and epsilon it is the same
release, re-made, not a second one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    as_seed,
    check_choice,
    check_column_list,
    check_dataframe,
    check_int_at_least,
    check_positive_float,
    check_positive_floats,
    check_probability,
    check_size,
    describe,
    ndim_of,
)
from mic_dp_helpers.synthetic.evaluation import evaluate_tstr, load_task, split_real, two_way_tv
from mic_dp_helpers.synthetic.groupings import _MAX_RESTARTS
from mic_dp_helpers.synthetic.group_means import SyntheticRelease, release_group_means, smallest_group_size
from mic_dp_helpers.synthetic.binning import discretize, equal_width_bins, undiscretize
from mic_dp_helpers.synthetic.marginals import independent_marginals, mst

__all__ = ["METHODS", "GROUPING_RELEASES", "release_stream", "compare_once", "compare_methods", "compare_groupings",
           "Sweep", "SWEEPS", "run_sweep", "stored_sweep", "reproduction_gap"]

#: The methods compared, in the order of the lesson's figure.
METHODS = ("real data", "3A, random groups", "MST", "independent marginals")

#: The group-mean releases of lesson 06, section 7: label -> (grouping, repeats).
GROUPING_RELEASES = {
    "ClustMix (paper)": ("cluster", 1),
    "k-d groups": ("kd", 1),
    "random groups": ("random", 1),
    "random mixing x4": ("random", 4),
}

# The keys of the noise streams (release_stream): one per dataset and one per release. "3A, random groups"
# (section 10) is "random groups" (section 7): the same release, so the same stream.
_DATASET_KEYS = {"breast_cancer": 1, "digits": 2}
_RELEASE_KEYS = {"ClustMix (paper)": 1, "k-d groups": 2, "random groups": 3, "random mixing x4": 4,
                 "3A, random groups": 3, "MST": 5, "independent marginals": 6}


def release_stream(seed: int, name: str, release: str, epsilon: float) -> np.random.Generator:
    """The noise generator of one release: its own for every (split seed, dataset, release, epsilon).

    It is ``default_rng([seed, dataset key, release key, the 64 bits of epsilon])``: two releases
    that differ in any of the four draw different streams, none of them ``default_rng(seed)``
    (the list never ends in a zero word, so NumPy's zero padding makes it equal to no shorter seed).

    Parameters
    ----------
    seed : int
        The split seed (non-negative).
    name : str
        The dataset, a task of :func:`load_task`.
    release : str
        A release of :data:`GROUPING_RELEASES` or :data:`METHODS` (not ``"real data"``).
    epsilon : float
        The release's epsilon (> 0).

    Returns
    -------
    numpy.random.Generator
        A fresh generator.

    Examples
    --------
    >>> a = release_stream(0, "digits", "random groups", 10.0).normal()
    >>> a == release_stream(0, "digits", "3A, random groups", 10.0).normal()  # the same release
    True
    >>> a == release_stream(0, "breast_cancer", "random groups", 10.0).normal()
    False
    """
    seed = as_seed(check_int_at_least(seed, "seed", 0), "seed")
    name = check_choice(name, "name (the task)", sorted(_DATASET_KEYS))
    release = check_choice(release, "release", sorted(_RELEASE_KEYS))
    epsilon = check_positive_float(epsilon, "epsilon")
    bits = int(np.float64(epsilon).view(np.uint64))  # exact: every epsilon its own key
    return np.random.default_rng([seed, _DATASET_KEYS[name], _RELEASE_KEYS[release], bits])


def _group_size(y, dim, epsilon, delta, max_sigma) -> int:
    """Smallest l within the noise limit; one group per class when none is (a choice from public counts)."""
    counts = np.bincount(y)
    try:
        return smallest_group_size(counts[counts > 0], dim, epsilon, delta, max_sigma)
    except ValueError:
        return int(counts[counts > 0].min())


def compare_once(name: str, epsilon: float, delta: float, rng: int | np.random.Generator | None, *, n_bins: int = 3, max_sigma: float = 0.3,
                 models: Sequence[str] = ("logreg",), hgb_rounds: int = 10, task=None) -> list[dict]:
    """Rows ``{method, epsilon, seed, model, score, tv}`` for every method on one split of task ``name``.

    Features are discretised with ``n_bins`` equal-width bins between the task's public bounds;
    the label is one more column (its classes are public). MST and the independent baseline
    sample bin codes, turned into values uniformly inside each bin for training. The 3A release
    uses random groups (the grouping lesson 06 proves private) with the smallest ``l`` whose noise
    is at most ``max_sigma``, or one group per class when no ``l`` is.

    Parameters
    ----------
    name : str
        Task name (see :func:`load_task`).
    epsilon : float
        Privacy level of every release (> 0).
    delta : float
        Delta of every release, in (0, 1).
    rng : int, Generator or None
        Source of the one seed of the split and the models
        (:func:`~mic_dp_helpers._validation.as_seed`: an int is used as it is); the rows record it
        as ``seed``, which reproduces them. Each release's noise draws its own stream of it
        (:func:`release_stream`).
    n_bins : int, default 3
        Equal-width bins per feature.
    max_sigma : float, default 0.3
        Largest acceptable noise of the 3A release, in ``[0, 1]`` units.
    models : sequence of str, default ("logreg",)
        Models trained on each release.
    hgb_rounds : int, default 10
        Boosting rounds of the ``"hgb"`` model.
    task : tuple, optional
        ``(X, y, lower, upper)``, to skip loading ``name`` again.

    Returns
    -------
    list of dict
        One row per method and model. A release with a single class trains no classifier: its
        ``score`` is NaN (not a chance score), and means over seeds leave it out, so they say n.
    """
    X, y, lower, upper = load_task(name) if task is None else _check_task(task)
    check_positive_float(epsilon, "epsilon")
    check_positive_float(max_sigma, "max_sigma")  # checked here: _group_size falls back when no l meets it
    seed = as_seed(rng)
    X_train, X_test, y_train, y_test = split_real(X, y, rng=seed)
    edges = equal_width_bins(lower, upper, n_bins)
    classes = np.unique(y)
    sizes = [n_bins] * X.shape[1] + [len(classes)]

    def codes_of(features, labels):
        return np.column_stack([discretize(features, edges), np.searchsorted(classes, labels)])

    test_codes = codes_of(X_test, y_test)
    releases = {"real data": (X_train, y_train, codes_of(X_train, y_train))}
    l = _group_size(np.searchsorted(classes, y_train), X.shape[1], epsilon, delta, max_sigma)
    groups = release_group_means(X_train, y_train, lower, upper, epsilon, delta, l=l,
                                 rng=release_stream(seed, name, "3A, random groups", epsilon))
    releases["3A, random groups"] = (groups.X, groups.y, codes_of(groups.X, groups.y))
    train_codes = codes_of(X_train, y_train)
    for method, release in (("MST", mst), ("independent marginals", independent_marginals)):
        stream = release_stream(seed, name, method, epsilon)  # the release, then its values inside the bins
        codes = release(train_codes, sizes, epsilon, delta, neighbours="replace", rng=stream).codes
        releases[method] = (undiscretize(codes[:, :-1], edges, stream), classes[codes[:, -1]], codes)
    rows = []
    for method, (features, labels, codes) in releases.items():
        tv = two_way_tv(codes, test_codes, sizes)
        if len(np.unique(labels)) < 2:  # one class trains no classifier: NaN, left out of means (see Returns)
            scores = {m: np.nan for m in models}
        else:
            scores = evaluate_tstr(features, labels, X_test, y_test, models=models, max_iter=hgb_rounds, rng=seed)
        rows += [{"method": method, "epsilon": epsilon, "seed": seed, "model": m, "score": s, "tv": tv}
                 for m, s in scores.items()]
    return rows


def _check_task(task) -> tuple:
    """``(X, y, lower, upper)`` as :func:`load_task` returns it."""
    if not isinstance(task, (tuple, list)) or len(task) != 4:
        raise TypeError(f"task must be (X, y, lower, upper) as load_task(name) returns it, got {describe(task)}.")
    return tuple(task)


def compare_methods(name: str, epsilons: Sequence[float], delta: float, n_seeds: int, progress=None,
                    **kwargs) -> pd.DataFrame:
    """:func:`compare_once` over ``epsilons`` x ``range(n_seeds)``: one tidy DataFrame.

    ``progress`` wraps the loop (for instance ``tqdm.auto.tqdm``).

    Parameters
    ----------
    name : str
        Task name (see :func:`load_task`).
    epsilons : sequence of float
        Privacy levels (> 0).
    delta : float
        Delta of every release, in (0, 1).
    n_seeds : int
        Seeds ``0 .. n_seeds - 1``.
    progress : callable, optional
        Wraps the loop.
    **kwargs
        Passed to :func:`compare_once`.

    Returns
    -------
    pandas.DataFrame
        The rows of every :func:`compare_once` call.
    """
    epsilons = check_positive_floats(epsilons, "epsilons")
    n_seeds = check_size(n_seeds, "n_seeds", 1, per_item=len(epsilons))
    task = load_task(name)
    grid = [(eps, seed) for seed in range(n_seeds) for eps in epsilons]
    rows = []
    for eps, seed in (progress(grid) if progress else grid):
        rows += compare_once(name, eps, delta, seed, task=task, **kwargs)
    return pd.DataFrame(rows)


def compare_groupings(name: str, epsilons: Sequence[float], delta: float, rng: int | np.random.Generator | None, *,
                      max_sigma: float = 0.3, hgb_rounds: int = 10, cluster_n_init: int = 2, models: Sequence[str] = ("hgb", "logreg"),
                      task=None) -> tuple[list[dict], dict[tuple, SyntheticRelease]]:
    """Train on synthetic, test on real for every release of :data:`GROUPING_RELEASES` on one split.

    ``name`` is a task of :func:`load_task`. Each release uses the smallest ``l``
    whose noise is at most ``max_sigma``; a release for which no ``l`` does is skipped. ClustMix is
    run with its paper's noise, which does not make it private. ``models`` are those of
    :func:`evaluate_tstr`; the releases do not depend on them. Returns rows ``{epsilon, release,
    model, score}`` (``"real data"`` once per epsilon) and the releases by ``(epsilon, label)``.

    Parameters
    ----------
    name : str
        Task name (see :func:`load_task`); it keys the releases' noise streams.
    epsilons : sequence of float
        Privacy levels to compare (> 0).
    delta : float
        Delta of every release, in (0, 1).
    rng : int, Generator or None
        Source of the one seed of the split and the models
        (:func:`~mic_dp_helpers._validation.as_seed`: an int is used as it is); the rows record it
        as ``seed``, which reproduces them. Each release's noise (and ClustMix's clustering) draws
        its own stream of it (:func:`release_stream`).
    max_sigma : float, default 0.3
        Largest acceptable noise, in ``[0, 1]`` units.
    hgb_rounds : int, default 10
        Boosting rounds of the ``"hgb"`` model.
    cluster_n_init : int, default 2
        Restarts of the clustering.
    models : sequence of str, default ("hgb", "logreg")
        Models trained on each release.
    task : tuple, optional
        ``(X, y, lower, upper)``, to skip loading ``name`` again.

    Returns
    -------
    rows : list of dict
        One row per epsilon, release and model.
    releases : dict
        ``(epsilon, label)`` -> :class:`SyntheticRelease`.
    """
    name = check_choice(name, "name (the task)", sorted(_DATASET_KEYS),
                        unknown="unknown task {value!r}; choose from {choices}")
    X, y, lower, upper = load_task(name) if task is None else _check_task(task)
    epsilons = check_positive_floats(epsilons, "epsilons")
    check_probability(delta, "delta")  # checked here: a bad delta must not read as "no release met the noise limit"
    check_positive_float(max_sigma, "max_sigma")
    check_size(cluster_n_init, "cluster_n_init", 1, maximum=_MAX_RESTARTS)
    seed = as_seed(rng)
    X_train, X_test, y_train, y_test = split_real(X, y, rng=seed)
    real = evaluate_tstr(X_train, y_train, X_test, y_test, models=models, max_iter=hgb_rounds, rng=seed)
    rows = [{"epsilon": eps, "release": "real data", "model": m, "score": s} for eps in epsilons for m, s in real.items()]
    releases = {}
    for eps in epsilons:
        for label, (grouping, repeats) in GROUPING_RELEASES.items():
            try:
                release = release_group_means(X_train, y_train, lower, upper, eps, delta, grouping=grouping,
                                              max_sigma=max_sigma, repeats=repeats,
                                              rng=release_stream(seed, name, label, eps), cluster_n_init=cluster_n_init)
            except ValueError:  # no group size meets the noise limit: nothing is released
                continue
            releases[(eps, label)] = release
            scores = evaluate_tstr(release.X, release.y, X_test, y_test, models=models, max_iter=hgb_rounds, rng=seed)
            rows += [{"epsilon": eps, "release": label, "model": m, "score": s} for m, s in scores.items()]
    return rows, releases


@dataclass(frozen=True)
class Sweep:
    """One of lesson 06's stored sweeps: what it runs, and the columns that name a row.

    Attributes
    ----------
    name : str
        ``"groupings"`` (section 7, :func:`compare_groupings`) or ``"methods"`` (section 10,
        :func:`compare_methods`).
    tasks : tuple of str
        Tasks of :func:`~mic_dp_helpers.synthetic.evaluation.load_task`.
    epsilons : tuple of float
        Budgets, each at ``delta``.
    delta : float
        The delta of every release.
    n_seeds : int
        Splits ``0 .. n_seeds - 1`` (each a fresh 75/25 split and fresh noise).
    keys : tuple of str
        Columns that identify a row; the others (``score``, and ``tv`` for methods) are results.
    """

    name: str
    tasks: tuple[str, ...]
    epsilons: tuple[float, ...]
    delta: float
    n_seeds: int
    keys: tuple[str, ...]

    @property
    def file_name(self) -> str:
        return f"lesson06_{self.name}.csv"


#: The sweeps lesson 06 shows: all with the package's defaults (noise sd at most 0.3 on [0, 1]
#: features, 10 boosting rounds, 2 k-means starts for ClustMix, 3 bins for the marginal methods) and
#: logistic regression and gradient boosting for every release.
SWEEPS = {
    "groupings": Sweep("groupings", ("breast_cancer", "digits"), (1.0, 10.0), 1e-6, 10,
                       ("data", "seed", "epsilon", "release", "model")),
    "methods": Sweep("methods", ("breast_cancer", "digits"), (0.5, 1.0, 3.0, 10.0), 1e-6, 10,
                     ("data", "seed", "epsilon", "method", "model")),
}


def _sweep(name: str) -> Sweep:
    return SWEEPS[check_choice(name, "name (the sweep)", sorted(SWEEPS),
                               unknown="unknown sweep {value!r}; choose from {choices}")]


def run_sweep(name: str, seeds: Iterable[int] | None = None, progress: Callable | None = None) -> pd.DataFrame:
    """Run stored sweep ``name`` afresh (all its seeds, or only ``seeds``): one tidy table.

    The result has the columns of :func:`stored_sweep`; ``progress`` wraps the loop over
    ``(task, seed)`` (for instance ``tqdm.auto.tqdm``).

    Parameters
    ----------
    name : str
        A key of :data:`SWEEPS`.
    seeds : iterable of int, optional
        Seeds to run; all of the sweep's by default.
    progress : callable, optional
        Wraps the loop.

    Returns
    -------
    pandas.DataFrame
        The sweep's rows for those seeds.

    Examples
    --------
    >>> part = run_sweep("methods", seeds=[0])  # doctest: +SKIP
    >>> reproduction_gap(part, stored_sweep("methods"))  # doctest: +SKIP
    0.0
    """
    sweep = _sweep(name)
    if seeds is not None and (isinstance(seeds, (str, bytes, dict)) or ndim_of(seeds) != 1 or len(seeds) == 0):
        raise TypeError(f"seeds must be None (all of the sweep's) or a non-empty list of seeds, got {describe(seeds)}.")
    if seeds is None:
        seeds = list(range(sweep.n_seeds))
    else:
        seeds = [as_seed(check_int_at_least(s, "every entry of seeds", 0), "every entry of seeds") for s in seeds]
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be None or a function wrapping the loop (tqdm), got {describe(progress)}.")
    grid = [(task, seed) for task in sweep.tasks for seed in seeds]
    tables = {task: load_task(task) for task in sweep.tasks}
    rows = []
    for task, seed in (progress(grid) if progress else grid):
        if name == "groupings":
            found = compare_groupings(task, sweep.epsilons, sweep.delta, seed, task=tables[task])[0]
            rows += [dict(row, data=task, seed=seed) for row in found]
        else:
            for eps in sweep.epsilons:
                found = compare_once(task, eps, sweep.delta, seed, models=("logreg", "hgb"), task=tables[task])
                rows += [dict(row, data=task) for row in found]
    columns = [*sweep.keys, *(["score", "tv"] if name == "methods" else ["score"])]
    return pd.DataFrame(rows)[columns].sort_values(list(sweep.keys), ignore_index=True)


def stored_sweep(name: str) -> pd.DataFrame:
    """The stored result of sweep ``name`` (see :data:`SWEEPS`), as written by ``--write-stored``.

    Parameters
    ----------
    name : str
        A key of :data:`SWEEPS`.

    Returns
    -------
    pandas.DataFrame
        The stored rows.

    Examples
    --------
    >>> table = stored_sweep("groupings")
    >>> sorted(table["seed"].unique()) == list(range(SWEEPS["groupings"].n_seeds))
    True
    """
    sweep = _sweep(name)
    with resources.files("mic_dp_helpers").joinpath("stored", sweep.file_name).open("r") as handle:
        return pd.read_csv(handle)


def reproduction_gap(live: pd.DataFrame, stored: pd.DataFrame, keys: Sequence[str] | None = None) -> float:
    """Largest absolute difference between ``live`` results and the ``stored`` rows with the same keys.

    Every row of ``live`` must have a stored counterpart (matched on ``keys``: by default every
    column that both tables have and that is not a result), and results that are missing
    (no release) must be missing in both; otherwise a ``ValueError`` says which rows differ.

    Parameters
    ----------
    live : pandas.DataFrame
        Results computed now.
    stored : pandas.DataFrame
        The stored results.
    keys : sequence of str, optional
        Columns that match rows; by default the shared non-result columns.

    Returns
    -------
    float
        The largest absolute difference of a result (0.0 when equal).

    Raises
    ------
    ValueError
        If a live row has no stored counterpart, or a result is missing on one side only.

    Examples
    --------
    >>> a = pd.DataFrame({"seed": [0], "score": [0.9]})
    >>> reproduction_gap(a, pd.DataFrame({"seed": [0, 1], "score": [0.9, 0.8]}))
    0.0
    """
    check_dataframe(live, "live")
    check_dataframe(stored, "stored")
    results = [c for c in ("score", "tv") if c in live.columns]
    keys = [c for c in live.columns if c not in results and c in stored.columns] if keys is None else list(
        check_column_list(keys, "keys"))
    if not results or not keys:
        raise ValueError("live must have result columns (score, tv) and key columns shared with stored.")
    check_dataframe(live, "live", columns=keys)
    check_dataframe(stored, "stored", columns=keys + results)
    for table, label in ((live, "live"), (stored, "stored")):
        for column in results:
            if not pd.api.types.is_numeric_dtype(table[column]) or pd.api.types.is_bool_dtype(table[column]):
                raise TypeError(f"{label}[{column!r}] must hold numbers (scores), got dtype {table[column].dtype}.")
    merged = live.merge(stored, on=keys, how="left", suffixes=("", "_stored"), indicator=True)
    missing = merged[merged["_merge"] != "both"]
    if len(missing):
        raise ValueError(f"{len(missing)} live rows have no stored counterpart, e.g. {missing[keys].iloc[0].to_dict()}; "
                         "re-run benchmarks/synthetic_comparison.py --write-stored if the sweep changed.")
    gap = 0.0
    for column in results:
        a, b = merged[column].to_numpy(float), merged[f"{column}_stored"].to_numpy(float)
        if not np.array_equal(np.isnan(a), np.isnan(b)):
            raise ValueError(f"{column}: a release is missing on one side only.")
        both = ~np.isnan(a)
        if both.any():
            gap = max(gap, float(np.max(np.abs(a[both] - b[both]))))
    return gap
