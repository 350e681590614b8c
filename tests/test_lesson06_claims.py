"""Lesson 06 claims that the lesson makes on one seed, measured on other seeds here.

Measured while writing this test:

* KIP on public data (section 9): on the lesson's split the AUC of logistic regression moved by
  +0.040; on splits 1 to 6 (each with its own noise seed) by +0.034, +0.002, +0.017, +0.064, 0.000
  and +0.008. The lesson says "a few hundredths at most"; the test asserts |move| < 0.1.
* Cluster centres on digits (section 6): whether some neighbour moves the matched centres past
  sqrt(C D)/l depends on the class and the k-means seed. Neighbours past the bound, of nine, for
  (digit, seed): (3, 0) 8, (3, 1) 3, (3, 2) 7, (5, 0) 0, (5, 1) 0, (5, 2) 3, (8, 0) 8, (8, 1) 0,
  (8, 2) 1: 6 of 9 setups have at least one. The lesson scopes its count to the 3s with seed 0;
  the k-d leaves stayed within their proved bound (at most 0.23 of it) on all 9.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mic_dp_helpers import synthetic

# The lesson asserts each claim on its own seed; these other seeds and splits take minutes, so they run
# with the slow tests (CI runs both).
pytestmark = pytest.mark.slow

KIP_SPLITS = [1, 2, 3, 4, 5, 6]
CLUSTER_SETUPS = [(digit, seed) for digit in (3, 5, 8) for seed in (0, 1, 2)]


@pytest.mark.parametrize("split", KIP_SPLITS)
def test_kip_on_public_data_moves_the_auc_by_a_few_hundredths_at_most(split):
    X, y, lower, upper = synthetic.load_task("breast_cancer")
    X_train, X_test, y_train, y_test = synthetic.split_real(X, y, rng=split)
    X_private, X_public, y_private, y_public = synthetic.split_real(X_train, y_train, test_size=0.2, rng=split + 100)
    base = synthetic.release_group_means(X_private, y_private, lower, upper, 10.0, 1e-6, max_sigma=0.3, rng=split)
    adapted = synthetic.kip_adapt(base, X_public, y_public, target_is_public=True)
    auc = [synthetic.evaluate_tstr(r.X, r.y, X_test, y_test, models=["logreg"])["logreg"] for r in (base, adapted)]
    assert abs(auc[1] - auc[0]) < 0.1, auc


def _shift_ratios(digit: int, seed: int) -> tuple[list[float], list[float]]:
    X, y, lower, upper = synthetic.load_task("digits")
    X_train, _, y_train, _ = synthetic.split_real(X, y, rng=0)
    unit = synthetic.scale_to_unit(X_train, lower, upper)
    rows, l = unit[y_train == digit], 29
    bound = math.sqrt((len(rows) // l) * 64) / l

    def centres(data, groups):
        return np.stack([data[g].mean(axis=0) for g in groups])

    clustered = centres(rows, synthetic.cluster_groups(rows, l, rng=seed, n_init=3))
    kd = centres(rows, synthetic.kd_groups(rows, l))
    cluster_ratios, kd_ratios = [], []
    for other in [d for d in range(10) if d != digit]:
        changed = rows.copy()
        changed[0] = unit[y_train == other][0]
        after = centres(changed, synthetic.cluster_groups(changed, l, rng=seed, n_init=3))
        cluster_ratios.append(synthetic.matched_centroid_shift(clustered, after) / bound)
        kd_ratios.append(synthetic.matched_centroid_shift(kd, centres(changed, synthetic.kd_groups(changed, l))) / bound)
    return cluster_ratios, kd_ratios


@pytest.mark.parametrize("digit, seed", CLUSTER_SETUPS)
def test_kd_leaves_stay_within_their_proved_bound_on_every_setup(digit, seed):
    _, kd_ratios = _shift_ratios(digit, seed)
    assert max(kd_ratios) <= 1.0, kd_ratios


def test_clusters_exceed_the_assumed_bound_on_the_lessons_setup_and_on_most_others():
    exceeding = {setup: sum(r > 1 for r in _shift_ratios(*setup)[0]) for setup in CLUSTER_SETUPS}
    assert exceeding[(3, 0)] >= 5, exceeding  # the lesson's setup
    assert sum(n > 0 for n in exceeding.values()) >= 5, exceeding
