"""Membership inference: the DP bound on advantage, AUC and its interval, the attack's honesty."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from mic_dp_helpers.attacks.membership import advantage_bound, auc, bootstrap_auc_interval, loss_threshold_attack


@given(st.floats(0.0, 20.0), st.floats(0.0, 0.2))
def test_bound_is_the_best_test_the_dp_inequalities_allow(epsilon, delta):
    # Maximise TPR - FPR over a fine grid of FPR subject to TPR <= e^eps FPR + delta and
    # 1 - FPR <= e^eps (1 - TPR) + delta (Kairouz, Oh & Viswanath 2015).
    fpr = np.linspace(0.0, 1.0, 20_001)
    e = math.exp(epsilon)
    tpr = np.minimum.reduce([np.ones_like(fpr), e * fpr + delta, 1 - (1 - fpr - delta) / e])
    best = float((tpr - fpr).max())
    assert advantage_bound(epsilon, delta) == pytest.approx(best, abs=2e-4)
    assert advantage_bound(epsilon, delta) == pytest.approx(min(1.0, (e - 1 + 2 * delta) / (e + 1)), rel=1e-12, abs=1e-15)


def test_bound_limits():
    assert advantage_bound(0.0) == 0.0
    assert advantage_bound(math.inf) == 1.0
    assert advantage_bound(800.0) == 1.0
    assert advantage_bound(1e-8) == pytest.approx(5e-9)


def test_randomized_response_reaches_the_bound():
    # Releasing "member" with probability e^eps / (1 + e^eps) is eps-DP, and the attack that believes
    # it has advantage exactly the bound: the bound is tight.
    epsilon, n = 1.0, 40_000
    rng = np.random.default_rng(0)
    p = math.exp(epsilon) / (1 + math.exp(epsilon))
    member_loss = (rng.random(n) >= p).astype(float)  # loss 0 when the bit says "member"
    nonmember_loss = (rng.random(n) < p).astype(float)
    result = loss_threshold_attack(member_loss, nonmember_loss, rng=1, n_boot=10)
    low, high = result.advantage_interval
    assert low <= advantage_bound(epsilon) <= high


def test_auc_agrees_with_scikit_learn_including_ties():
    rng = np.random.default_rng(3)
    members, nonmembers = rng.integers(0, 5, 300).astype(float), rng.integers(0, 4, 200).astype(float)
    expected = roc_auc_score(np.r_[np.ones(300), np.zeros(200)], np.r_[members, nonmembers])
    assert auc(members, nonmembers) == pytest.approx(expected, rel=1e-12)


def test_bootstrap_interval_covers_the_true_auc():
    # Members ~ N(1, 1), non-members ~ N(0, 1): true AUC = Phi(1 / sqrt 2) = 0.7602.
    true_auc, hits = 0.7602499, 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        low, high = bootstrap_auc_interval(rng.normal(1, 1, 150), rng.normal(0, 1, 150), rng=seed, n_boot=300)
        hits += low <= true_auc <= high
    assert hits >= 50  # 95% intervals: 57 expected; 50 or fewer has probability < 0.5%


def test_advantage_interval_covers_zero_when_there_is_nothing_to_find():
    covered = 0
    for seed in range(100):
        rng = np.random.default_rng(seed)
        result = loss_threshold_attack(rng.exponential(1, 200), rng.exponential(1, 200), rng=seed, n_boot=20)
        covered += result.advantage_interval[0] <= 0 <= result.advantage_interval[1]
    assert covered >= 93  # each interval has >= 95% coverage; the union bound makes it conservative


def test_attack_finds_an_overfit_models_members():
    rng = np.random.default_rng(4)
    result = loss_threshold_attack(rng.exponential(0.1, 500), rng.exponential(1.0, 500), rng=0, n_boot=100)
    assert result.advantage_interval[0] > 0.4 and result.auc > 0.8
    assert result.n_members == 250 and result.tpr - result.fpr == pytest.approx(result.advantage)
    assert "advantage" in str(result)


def test_the_threshold_is_chosen_on_other_examples_than_it_is_scored_on():
    # With identical distributions, choosing the threshold on the scored examples would show a
    # positive advantage on average; choosing it on a separate half gives mean about 0.
    advantages = []
    for seed in range(200):
        rng = np.random.default_rng(seed)
        advantages.append(loss_threshold_attack(rng.random(60), rng.random(60), rng=seed, n_boot=10).advantage)
    assert abs(np.mean(advantages)) < 0.03


@pytest.mark.parametrize("call, message", [
    (lambda: advantage_bound(-1.0), "epsilon"),
    (lambda: advantage_bound(float("nan")), "epsilon"),
    (lambda: advantage_bound("1"), "epsilon"),
    (lambda: advantage_bound(1.0, 1.0), "delta"),
    (lambda: auc([], [1.0]), "member_scores"),
    (lambda: auc([1.0], [[1.0]]), "nonmember_scores"),
    (lambda: loss_threshold_attack([1.0], [2.0, 3.0]), "at least 2"),
    (lambda: loss_threshold_attack([1.0, np.nan], [2.0, 3.0]), "NaN"),
    (lambda: loss_threshold_attack([1.0, 2.0], [2.0, 3.0], confidence=1.0), "confidence"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


@pytest.mark.parametrize("call", [
    lambda: bootstrap_auc_interval(np.arange(10.0), np.arange(10.0), n_boot=10**12, rng=0),
    lambda: loss_threshold_attack(np.arange(10.0), np.arange(10.0), n_boot=10**12, rng=0),
])
def test_huge_n_boot_is_a_clear_error_not_a_memory_error(call):
    with pytest.raises(ValueError, match="n_boot=.* is too large"):
        call()
