"""Lesson 06's full comparison: 3A with random groups, MST, independent marginals and real data.

Usage::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/synthetic_comparison.py             # both tasks, 10 seeds
    PYTHONPATH=$PWD .venv/bin/python benchmarks/synthetic_comparison.py --seeds 5 --tasks breast_cancer
    PYTHONPATH=$PWD .venv/bin/python benchmarks/synthetic_comparison.py --groupings   # lesson 06, section 7
    PYTHONPATH=$PWD .venv/bin/python benchmarks/synthetic_comparison.py --write-stored  # the lesson's stored sweeps

For every task, epsilon (0.5, 1, 3, 10; delta = 1e-6, replace-one neighbours for every method) and
seed (a fresh 75/25 split and fresh noise), :func:`mic_dp_helpers.synthetic.comparison.compare_once`
releases synthetic data with each method and scores it: train on synthetic, test on real (ROC AUC
for breast_cancer, accuracy for digits; logistic regression and gradient boosting) and the mean
total variation distance of all two-way marginals against the real hold-out (3 public
equal-width bins per feature, the label as one more column). The table gives the mean and a 95%
t-interval over seeds; the last lines list which orderings hold on every seed.

``--groupings`` runs lesson 06's section 7 instead (ClustMix with its paper's noise, k-d groups,
random groups, random mixing x4) at epsilon 1 and 10.

``--write-stored`` runs the two sweeps lesson 06 shows (``SWEEPS`` in
``mic_dp_helpers.synthetic.comparison``: sections 7 and 10, both on both tasks, 10
seeds each) and writes them to ``mic_dp_helpers/stored/``. The lesson runs split 0 of each live and
checks it against the stored row; ``tests/test_stored_sweeps.py`` re-runs more splits. Run it again
whenever a release, an evaluation or a pinned library changes (the tests say when).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from mic_dp_helpers.synthetic.evaluation import load_task
from mic_dp_helpers.synthetic.comparison import (GROUPING_RELEASES, METHODS, SWEEPS, compare_groupings,
                                                 compare_methods, run_sweep)

STORED = Path(__file__).resolve().parent.parent / "mic_dp_helpers" / "stored"

EPSILONS = (0.5, 1.0, 3.0, 10.0)
DELTA = 1e-6


def interval(values: pd.Series) -> str:
    """Mean and 95% t-interval half-width; NaN scores (single-class releases) are left out, and then n is shown."""
    n_all, values = len(values), values.dropna().to_numpy()
    if len(values) < 2:
        return "n/a"
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return f"{values.mean():.3f} ± {half:.3f}" + (f" (n = {len(values)})" if len(values) < n_all else "")


def every_seed(results: pd.DataFrame, metric: str, model: str, better: str, worse: str, eps: float,
               lower_is_better: bool) -> bool:
    rows = results[(results.model == model) & (results.epsilon == eps)]
    wide = rows.pivot(index="seed", columns="method", values=metric)
    a, b = wide[better], wide[worse]
    return bool(((a < b) if lower_is_better else (a > b)).all())


def single_class_releases(results: pd.DataFrame) -> str:
    """Name the releases with a single class (no classifier trained, score NaN), or return "" if there is none.

    Parameters
    ----------
    results : pandas.DataFrame
        Rows with the columns ``seed``, ``epsilon``, ``method`` and ``score`` (as ``compare_methods`` returns).

    Returns
    -------
    str
        One line naming each such release by seed, epsilon and method, for the table's reader.
    """
    missing = results[results.score.isna()][["seed", "epsilon", "method"]].drop_duplicates()
    if missing.empty:
        return ""
    return ("Single-class releases (no classifier trained, score NaN, left out of the means): " +
            "; ".join(f"seed {r.seed} at epsilon {r.epsilon:g} ({r.method})" for r in missing.itertuples()))


def groupings(tasks: list[str], n_seeds: int) -> None:
    for task in tasks:
        data = load_task(task)
        rows = []
        for seed in range(n_seeds):
            rows += compare_groupings(task, (1.0, 10.0), DELTA, seed, task=data)[0]
        results = pd.DataFrame(rows)
        metric = "ROC AUC" if task == "breast_cancer" else "accuracy"
        print(f"\n## {task}, section 7: TSTR {metric}, mean and 95% interval over {n_seeds} seeds\n")
        print("| release | epsilon | logreg | hgb |")
        print("|---|---|---|---|")
        for label in ["real data", *GROUPING_RELEASES]:
            for eps in (1.0, 10.0):
                cell = results[(results.release == label) & (results.epsilon == eps)]
                if cell.empty:
                    print(f"| {label} | {eps:g} | no release | no release |")
                    continue
                print(f"| {label} | {eps:g} | {interval(cell[cell.model == 'logreg']['score'])} | "
                      f"{interval(cell[cell.model == 'hgb']['score'])} |")


def write_stored() -> None:
    from tqdm import tqdm

    STORED.mkdir(exist_ok=True)
    for name, sweep in SWEEPS.items():
        start = time.perf_counter()
        table = run_sweep(name, progress=lambda grid, name=name: tqdm(grid, desc=name))
        table.to_csv(STORED / sweep.file_name, index=False)
        print(f"{name}: {len(table)} rows, {sweep.n_seeds} seeds, {time.perf_counter() - start:.0f} s -> "
              f"{(STORED / sweep.file_name).relative_to(STORED.parent.parent)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--tasks", nargs="+", default=["breast_cancer", "digits"])
    parser.add_argument("--groupings", action="store_true", help="lesson 06's section 7 instead")
    parser.add_argument("--write-stored", action="store_true", help="write the sweeps lesson 06 shows")
    args = parser.parse_args(argv)
    if args.write_stored:
        write_stored()
        return 0
    if args.groupings:
        groupings(args.tasks, args.seeds)
        return 0
    for task in args.tasks:
        start = time.perf_counter()
        results = compare_methods(task, EPSILONS, DELTA, args.seeds, models=("logreg", "hgb"))
        seconds = time.perf_counter() - start
        metric = "ROC AUC" if task == "breast_cancer" else "accuracy"
        print(f"\n## {task}: mean and 95% interval over {args.seeds} seeds ({seconds:.0f} s)\n")
        print(f"| method | epsilon | TSTR {metric}, logreg | TSTR {metric}, hgb | mean two-way TV |")
        print("|---|---|---|---|---|")
        for method in METHODS:
            for eps in EPSILONS:
                cell = results[(results.method == method) & (results.epsilon == eps)]
                scores = {m: interval(cell[cell.model == m]["score"]) for m in ("logreg", "hgb")}
                print(f"| {method} | {eps:g} | {scores['logreg']} | {scores['hgb']} | "
                      f"{interval(cell[cell.model == 'logreg']['tv'])} |")
        if note := single_class_releases(results):
            print(f"\n{note}")
        print("\nOrderings that hold on every seed:")
        for eps in EPSILONS:
            for better, worse in (("MST", "independent marginals"), ("independent marginals", "MST"),
                                  ("MST", "3A, random groups"), ("independent marginals", "3A, random groups")):
                if every_seed(results, "tv", "logreg", better, worse, eps, lower_is_better=True):
                    print(f"  eps={eps:g}: two-way TV of {better} < {worse}")
            for model in ("logreg", "hgb"):
                for better, worse in (("MST", "3A, random groups"), ("3A, random groups", "MST"),
                                      ("MST", "independent marginals"), ("3A, random groups", "independent marginals")):
                    if every_seed(results, "score", model, better, worse, eps, lower_is_better=False):
                        print(f"  eps={eps:g}: TSTR {model} of {better} > {worse}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
