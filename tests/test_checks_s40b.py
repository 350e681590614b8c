"""Fixes for referee s39rE D3 (04.2: any dependence between people's choices) and D7 (06.4: a release whose rows
are put in an order read from the release itself is post-processing, and correct)."""

from __future__ import annotations

import numpy as np
import pytest

from mic_dp_helpers.checks import _choice_agreement, _group_release, run_check


def _independent(rng, calls, people, m, k):
    return (np.argsort(np.argsort(rng.random((calls, people, m)), axis=2), axis=2) < k).astype(int)


@pytest.mark.parametrize("m, k", [(3, 1), (7, 2), (20, 5)])
def test_agreement_p_values_are_calibrated_under_independence(m, k):
    rng = np.random.default_rng([40, m, k])
    p = []
    for _ in range(300):
        x = _independent(rng, 40, 30, m, k)
        e = _choice_agreement.centred_overlaps(x.astype(float), k)
        p.append((_choice_agreement._agreement_p(e, np.arange(30), m, k)[1],
                  _choice_agreement._all_pairs_p(e, m, k)[1], _choice_agreement._all_overlap_p(x, m, k)[1]))
    below = (np.array(p) < 0.05).mean(axis=0)
    assert np.all((below > 0.01) & (below < 0.10)), below  # about 0.05 each (300 draws: sd 0.013)


def test_sum_law_is_the_exact_law_of_a_chain_of_overlaps():
    law = _choice_agreement.sum_law(_choice_agreement.overlap_law(3, 1), 5)
    binomial = [0.131687, 0.329218, 0.329218, 0.164609, 0.041152, 0.004115]  # Binomial(5, 1/3)
    assert np.allclose(law, binomial, atol=1e-6)


@pytest.mark.parametrize("relation", ["shift", "disjoint"])
def test_a_relation_between_a_few_pairs_of_people_is_seen(relation):
    rng = np.random.default_rng(7)
    x = _independent(rng, 60, 30, 7, 2)
    for i in range(0, 6, 2):  # people 0-5 only: 3 tied pairs
        x[:, i + 1] = np.roll(x[:, i], 1, axis=1) if relation == "shift" else 0
        if relation == "disjoint":  # 2 of the 5 positions person i does not keep
            for c in range(60):
                free = np.flatnonzero(x[c, i] == 0)
                x[c, i + 1, rng.choice(free, 2, replace=False)] = 1
    with pytest.raises(Exception, match="tied to"):
        _choice_agreement.check_people_independent(x, 2, [np.arange(30)], "test")


def test_rows_shuffled_keeps_each_release_s_rows():
    releases = np.random.default_rng(1).random((4, 5, 3))
    shuffled = _group_release.rows_shuffled(releases, np.random.default_rng(2))
    for before, after in zip(releases, shuffled):
        assert sorted(map(tuple, before)) == sorted(map(tuple, after))


def _release_sorted_by(key):
    def release(X, l, sigma, rng):
        X = np.asarray(X, dtype=float)
        groups = np.array_split(rng.permutation(len(X)), len(X) // l)
        noisy = np.stack([X[g].mean(axis=0) for g in groups]) + rng.normal(0.0, sigma, (len(groups), X.shape[1]))
        return noisy[np.argsort(key(noisy), kind="stable")]
    return release


@pytest.mark.slow
@pytest.mark.parametrize("key", [lambda r: r[:, 0], lambda r: -np.linalg.norm(r, axis=1)], ids=["first", "norm"])
def test_06_4_a_release_sorted_afterwards_passes(key):
    result = run_check("06.4", _release_sorted_by(key))
    assert result.passed, result.message
