"""Lesson 08's conclusions must hold beyond the lesson's three training seeds.

The lesson trains every sweep on seeds 0, 1 and 2 and the membership attack on one seed (2024).
Here the same experiments run on ten training seeds (clipping norm, batch size) and 13 attack
seeds, and each conclusion the lesson states is asserted on every one of them.

Measured while writing this test (the lesson's settings, seeds 0-9): C = 1 was the best of the
five clipping norms on 9 of 10 seeds (C = 3 won on seed 5), so the lesson claims only that C = 1
beats both extremes and that the best is 1 or 3; batch 256 beat batch 32 on all 10 seeds, but
beat batch 64 on 9 of 10 (seed 4 reverses), so the lesson claims only the first.

The attack, measured on 19 attack seeds (2024 and 0-17; the test runs the first 13): against the
non-private model the advantage was 0.293 to 0.403, its interval's lower end 0.181 to 0.319
(so "above 0.1" is asserted, not "above 0.2", which failed on seeds 9 and 17). Against the
models at epsilon about 0.9 (sigma 8) the advantage was -0.030 to 0.113 and its interval's
upper end at most 0.240, below the non-private point estimate on every seed (closest: seed 17,
0.236 against 0.300); the two intervals were disjoint on 17 of 19 seeds (not on 9 and 17), so
the lesson does not claim that. The sigma-8 AUC interval lay above 0.5 on 17 of 19 seeds, so
the lesson says "much weaker", not "about none". The AUC at sigma 1.5 (epsilon about 7) was
above the AUC at sigma 8 on 19 of 19 seeds (closest: seed 14, 0.554 against 0.542), while the
advantages' intervals overlapped on every seed, so the lesson cites the AUC. The bound held for
sigma 8, 3 and 1.5 on every seed, by a wide margin.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from mic_dp_helpers.attacks.membership import advantage_bound, loss_threshold_attack
from mic_dp_helpers.ml import dpsgd
from mic_dp_helpers.ml.dpsgd import Architecture, accuracy, train_dpsgd

pytestmark = pytest.mark.slow

ARCH = Architecture(64, 10)
DELTA = 1e-5
TRAINING_SEEDS = range(10)
ATTACK_SEEDS = (2024, *range(12))


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    return X, y, train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


def _train(split, seed, **settings):
    X_train, X_test, y_train, y_test = split
    run = train_dpsgd(ARCH, X_train, y_train, rng=seed, **settings)
    return accuracy(ARCH, run.params, X_test, y_test)


def test_the_best_clipping_norm_is_in_the_middle_on_every_seed(digits):
    split = digits[2]
    q = 64 / len(split[0])
    for seed in TRAINING_SEEDS:
        acc = {clip: _train(split, seed, clip_norm=clip, noise_multiplier=1.0, sample_rate=q, expected_batch_size=64,
                            steps=round(15 / q), learning_rate=1.0)
               for clip in (0.1, 0.3, 1.0, 3.0, 10.0)}
        assert acc[1.0] > acc[0.1] and acc[1.0] > acc[10.0], (seed, acc)
        assert max(acc, key=acc.get) in (1.0, 3.0), (seed, acc)


def test_the_largest_batch_beats_the_smallest_at_equal_epsilon_on_every_seed(digits):
    split = digits[2]
    n = len(split[0])
    accuracies = {}
    for batch in (32, 256):
        q = batch / n
        steps = round(15 / q)
        sigma = dpsgd.noise_multiplier_for_epsilon(2.0, q, steps, DELTA, accountant="pld", rel_tol=0.01)
        accuracies[batch] = [_train(split, seed, clip_norm=1.0, noise_multiplier=sigma, sample_rate=q,
                                    expected_batch_size=batch, steps=steps, learning_rate=2.0)
                             for seed in TRAINING_SEEDS]
    assert all(big > small for big, small in zip(accuracies[256], accuracies[32])), accuracies


def test_dp_makes_the_attack_much_weaker_but_never_beyond_its_bound(digits):
    X, y, _ = digits
    members, batch, runs = 120, 30, 5
    q = batch / members
    settings = {"no DP": (math.inf, 0.0, 2000, 4.0)}
    settings.update({sigma: (1.0, sigma, 60, 2.0) for sigma in (8.0, 3.0, 1.5)})
    epsilon = {sigma: dpsgd.dpsgd_epsilon(q, sigma, 60, DELTA) for sigma in (8.0, 3.0, 1.5)}
    for seed in ATTACK_SEEDS:
        losses = {name: ([], []) for name in settings}
        for run_id in range(runs):
            generator = np.random.default_rng([seed, run_id])
            order = generator.permutation(len(X))
            inside, outside = order[:members], order[members:2 * members]
            for name, (clip, sigma, steps, rate) in settings.items():
                model = train_dpsgd(ARCH, X[inside], y[inside], clip_norm=clip, noise_multiplier=sigma, sample_rate=q,
                                    expected_batch_size=batch, steps=steps, learning_rate=rate, rng=generator)
                losses[name][0].append(dpsgd.per_example_loss(ARCH, model.params, X[inside], y[inside]))
                losses[name][1].append(dpsgd.per_example_loss(ARCH, model.params, X[outside], y[outside]))
        attack = {name: loss_threshold_attack(np.concatenate(losses[name][0]), np.concatenate(losses[name][1]),
                                              rng=seed, n_boot=500) for name in settings}
        plain = attack.pop("no DP")
        for sigma, private in attack.items():  # the attack never refutes any model's claim
            assert private.advantage_interval[0] <= advantage_bound(epsilon[sigma], DELTA), (seed, sigma)
        assert plain.advantage > attack[8.0].advantage_interval[1], seed  # the smallest epsilon against no DP
        assert plain.advantage_interval[0] > 0.1, seed
        assert attack[1.5].auc > attack[8.0].auc, seed  # the attack does better at the largest epsilon
