"""Measure how often a check rejects a correct answer, over many seeds (shared by the test and the benchmark).

A check's statistical tests are run on a correct answer with ``seed`` = 0, 1, 2, ...: the inputs
and the check's own random draws change with the seed (PyDP's noise changes with every run).
Where a check calls the answer thousands of times, the correct answer is handed over with a
``call_repeatedly`` that draws the same distribution in one vectorized step (the protocol of
:func:`mic_dp_helpers.checks._core.call_repeatedly`), so the measurement takes seconds; each such
answer is the reference solution's algorithm, written with NumPy arrays.
"""

from __future__ import annotations

import time

import numpy as np

from conftest import solution_namespace
from mic_dp_helpers.checks import EXERCISES
from mic_dp_helpers.checks._core import CheckFailed

#: The exercises whose check is statistical (the answer is random, or is judged from random draws).
RANDOM_EXERCISES = ("02.1", "02.4", "03.3", "04.1", "04.2", "04.4", "05.4", "06.4") + ("07.1", "07.3", "07.4", "07.5") + (
    "08.2", "08.5", "09.1")
_NOTEBOOKS = {"02": "02_laplace_mechanism_solutions.ipynb", "03": "03_privacy_budget_solutions.ipynb",
              "04": "04_pydp_solutions.ipynb", "05": "05_mic_dp_solutions.ipynb",
              "06": "06_synthetic_data_solutions.ipynb", "07": "07_selection_and_local_dp_solutions.ipynb",
              "08": "08_dp_machine_learning_solutions.ipynb", "09": "09_dp_at_scale_solutions.ipynb"}


def _batched(function, repeat):
    """The reference ``function``, with a vectorized ``call_repeatedly(n, *args)``."""
    namespace = {"__call__": lambda self, *args: function(*args),
                 "call_repeatedly": lambda self, n, *args: repeat(n, *args)}
    return type("Batched", (), namespace)()


def _laplace_many(n, value, sensitivity, epsilon, rng):
    return (value + rng.laplace(0.0, sensitivity / epsilon, n)).tolist()


def _sum_many(n, values, lower, upper, epsilon, rng):
    centre = float(np.clip(values, lower, upper).sum())
    return (centre + rng.laplace(0.0, max(abs(lower), abs(upper)) / epsilon, n)).tolist()


def _group_release_many(n, X, l, sigma, rng):
    X = np.asarray(X, dtype=float)
    size, k = len(X), len(X) // l
    starts = np.array([part[0] for part in np.array_split(np.arange(size), k)])
    sizes = np.diff(np.r_[starts, size])[:, None]
    out = []
    for _ in range(n):
        means = np.add.reduceat(X[rng.permutation(size)], starts, axis=0) / sizes
        out.append(means + rng.normal(0.0, sigma, means.shape))
    return out


def _bound_many(n, df, person_column, k, rng):
    person = df[person_column].to_numpy()
    out = []
    for _ in range(n):
        order = np.lexsort((rng.random(len(df)), person))
        sorted_person = person[order]
        starts = np.flatnonzero(np.r_[True, sorted_person[1:] != sorted_person[:-1]])
        rank = np.arange(len(df)) - np.repeat(starts, np.diff(np.r_[starts, len(df)]))
        keep = np.zeros(len(df), dtype=bool)
        keep[order] = rank < k
        out.append(df[keep])
    return out


# ---- lesson 07: the reference algorithms, vectorized over calls
def _rr_many(n, truth, epsilon, rng):
    truth = np.asarray(truth, dtype=bool)
    keep = rng.random((n, truth.size)) < 1.0 / (1.0 + np.exp(-epsilon))
    return list(np.where(keep, truth, ~truth))


def _noisy_max_many(n, scores, sensitivity, epsilon, rng):
    scores = np.asarray(scores, dtype=float)
    chunk = max(1, 2_000_000 // scores.size)
    choices = [np.argmax(scores + rng.gumbel(0.0, 2.0 * sensitivity / epsilon, (min(chunk, n - start), scores.size)),
                         axis=1) for start in range(0, n, chunk)]
    return [int(c) for c in np.concatenate(choices)]


def _bound_and_mean_many(n, values, level, high, epsilon, share, rng):
    from mic_dp_helpers.mechanisms.selection import dp_quantile

    values = np.sort(np.asarray(values, dtype=float))
    uppers = dp_quantile(values, level, 0.0, high, share * epsilon, rng, size=n)
    below = np.searchsorted(values, uppers)  # values < upper keep their value, the rest become upper
    totals = np.concatenate([[0.0], np.cumsum(values)])[below] + uppers * (values.size - below)
    means = totals / values.size + rng.laplace(0.0, uppers / (values.size * (1 - share) * epsilon))
    return list(zip(uppers.tolist(), means.tolist()))


# ---- lesson 08: the reference algorithms, vectorized over calls
def _noisy_clipped_sum_many(n, grads, clip_norm, sigma, rng):
    grads = np.asarray(grads, dtype=float)
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    total = (grads * np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))).sum(axis=0)
    return list(total + rng.normal(0.0, sigma * clip_norm, (n, len(total))))


def _dpsgd_step_many(n, w, X, y, clip_norm, sigma, q, batch, lr, rng):
    from scipy.special import expit

    w, X, y = np.asarray(w, dtype=float), np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    grads = (expit(X @ w) - y)[:, None] * X
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    clipped = grads * np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))
    chunk = max(1, min(50, 5_000_000 // max(1, len(X))))  # at most 5 million coins at a time
    sums = np.concatenate([(rng.random((min(chunk, n - start), len(X))) < q) @ clipped
                           for start in range(0, n, chunk)])
    return list(w - lr * (sums + rng.normal(0.0, sigma * clip_norm, (n, len(w)))) / batch)


def correct_answer(exercise_id: str):
    """The reference solution of ``exercise_id`` (batched where its check calls it thousands of times)."""
    spec = EXERCISES[exercise_id]
    solution = solution_namespace(_NOTEBOOKS[spec.lesson])[spec.answer_name]
    repeat = {"02.1": _laplace_many, "02.4": _sum_many, "04.2": _bound_many,
              "06.4": _group_release_many, "07.1": _rr_many, "07.3": _noisy_max_many,
              "07.4": _bound_and_mean_many, "08.2": _noisy_clipped_sum_many,
              "08.5": _dpsgd_step_many}.get(exercise_id)
    return solution if repeat is None else _batched(solution, repeat)


def rejection_rate(exercise_id: str, seeds) -> tuple[int, int, list[str], float]:
    """(rejections, runs, the first hints, seconds) of the check of ``exercise_id`` on a correct answer."""
    answer = correct_answer(exercise_id)
    checker = EXERCISES[exercise_id].checker
    rejected, hints = 0, []
    start = time.perf_counter()
    seeds = list(seeds)
    for seed in seeds:
        try:
            checker(answer, seed=seed)
        except CheckFailed as failure:
            rejected += 1
            hints.append(f"seed {seed}: {failure}")
    return rejected, len(seeds), hints[:3], time.perf_counter() - start
