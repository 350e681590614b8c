"""Tests of mic_dp_helpers.attacks.reconstruction: the Dinur-Nissim attack works with little noise, fails with DP noise."""

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.attacks.reconstruction import (
    answer_subset_queries,
    random_subset_queries,
    reconstruct,
    reconstruction_accuracy,
)


def _secret(n, seed):
    return (np.random.default_rng(seed).random(n) < 0.4).astype(int)


def test_queries_are_random_halves():
    queries = random_subset_queries(200, 300, rng=0)
    assert queries.shape == (300, 200) and set(np.unique(queries)) == {0.0, 1.0}
    assert abs(queries.mean() - 0.5) < 0.01  # 60,000 fair coins: standard error 0.002
    assert not np.array_equal(queries, random_subset_queries(200, 300, rng=1))


def test_answers_are_exact_counts_plus_laplace_noise():
    secret = _secret(100, 0)
    queries = random_subset_queries(100, 20_000, rng=1)
    exact = queries @ secret
    assert np.array_equal(answer_subset_queries(secret, queries, 0.0, rng=2), exact)
    noise = answer_subset_queries(secret, queries, 3.0, rng=2) - exact
    # Laplace(3): mean |noise| 3, standard error 3 / sqrt(20000) = 0.02.
    assert abs(np.abs(noise).mean() - 3.0) < 0.1 and abs(noise.mean()) < 0.1
    several = answer_subset_queries(secret, queries, [0.0, 1.0, 3.0], rng=2)
    assert several.shape == (20_000, 3) and np.allclose(several[:, 2], exact + noise)


@pytest.mark.parametrize("seed", range(5))
def test_little_noise_reveals_almost_every_secret(seed):
    n = 120
    secret = _secret(n, seed)
    queries = random_subset_queries(n, 6 * n, rng=seed + 10)
    answers = answer_subset_queries(secret, queries, 1.0, rng=seed + 20)  # epsilon = 1 per answer
    assert reconstruction_accuracy(secret, reconstruct(queries, answers)) >= 0.97


@pytest.mark.parametrize("seed", range(2))
def test_dinur_nissim_linear_program_also_reconstructs(seed):
    n = 60
    secret = _secret(n, seed)
    queries = random_subset_queries(n, 4 * n, rng=seed + 10)
    answers = answer_subset_queries(secret, queries, 0.5, rng=seed + 20)
    assert reconstruction_accuracy(secret, reconstruct(queries, answers, "linear_program")) >= 0.95


def test_dp_noise_on_one_budget_leaves_the_attacker_guessing():
    # 720 answers on one budget of epsilon = 1: Laplace scale 720 each. Over 10 seeds of 120
    # people the attacker's accuracy must be that of a coin (0.5, standard error 0.014 over
    # 1200 guesses), not the 97% above.
    n, m = 120, 720
    right = []
    for seed in range(10):
        secret = _secret(n, seed)
        queries = random_subset_queries(n, m, rng=seed + 10)
        guess = reconstruct(queries, answer_subset_queries(secret, queries, m / 1.0, rng=seed + 20))
        right.append(reconstruction_accuracy(secret, guess))
    assert abs(np.mean(right) - 0.5) < 0.06


def test_accuracy_falls_as_noise_grows():
    n = 120
    secret = _secret(n, 3)
    queries = random_subset_queries(n, 6 * n, rng=4)
    scales = np.array([0.5, 4.0, 30.0, 300.0])
    accuracy = reconstruction_accuracy(secret, reconstruct(queries, answer_subset_queries(secret, queries, scales, rng=5)))
    assert accuracy.shape == (4,) and accuracy[0] == 1.0 and accuracy[-1] < 0.7
    assert np.all(np.diff(accuracy) <= 0.02)


@pytest.mark.parametrize(
    ("call", "error", "pattern"),
    [
        (lambda: random_subset_queries(0, 5), ValueError, "n_people must be an integer >= 1"),
        (lambda: random_subset_queries(5, 2.5), TypeError, "n_queries must be an integer"),
        (lambda: answer_subset_queries([0, 2], np.ones((3, 2)), 1.0), ValueError, "secret must hold only 0/1"),
        (lambda: answer_subset_queries([0, 1], np.ones((3, 3)), 1.0), ValueError, "3 columns but there are 2 people"),
        (lambda: answer_subset_queries([0, 1], np.ones((3, 2)), -1.0), ValueError, "noise_scale must be a number >= 0"),
        (lambda: answer_subset_queries([0, 1], np.full((3, 2), 0.5), 1.0), ValueError, "queries must hold only 0/1"),
        (lambda: reconstruct(np.ones((3, 2)), np.ones(4)), ValueError, "one row per query \\(3\\)"),
        (lambda: reconstruct(np.ones((3, 2)), np.ones(3), "magic"), ValueError, "method must be one of"),
        (lambda: reconstruct(np.ones((3, 2)), np.ones((3, 2)), "linear_program"), ValueError, "one answer vector"),
        (lambda: reconstruction_accuracy([0, 1], [0, 1, 1]), ValueError, "guess has 3 rows but secret has 2"),
    ],
)
def test_bad_input_is_explained(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_fewer_questions_than_people_still_gives_a_guess_per_person():
    secret = _secret(50, 1)
    queries = random_subset_queries(50, 20, rng=2)
    guess = reconstruct(queries, answer_subset_queries(secret, queries, 0.0))
    assert guess.shape == (50,) and set(np.unique(guess)) <= {0, 1}


@pytest.mark.parametrize("n_people, n_queries, name", [
    (10**12, 2, "n_people"),
    (2, 10**12, "n_queries"),
    (10**5, 10**5, "n_queries"),  # each fits, the matrix does not
])
def test_huge_query_matrices_are_a_clear_error_not_a_memory_error(n_people, n_queries, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        random_subset_queries(n_people, n_queries, rng=0)


@pytest.mark.parametrize("bad", [pd.Series(["least_squares"]), np.array(["least_squares"]), None, 3])
def test_reconstruct_refuses_a_method_that_is_not_a_string(bad):
    with pytest.raises(TypeError, match="method must be one of .* \\(a string\\)"):
        reconstruct(np.ones((3, 2)), np.ones(3), bad)


def test_reconstruct_suggests_the_closest_method():
    with pytest.raises(ValueError, match="did you mean 'linear_program'"):
        reconstruct(np.ones((3, 2)), np.ones(3), "linear_programme")


@pytest.mark.parametrize("call, error, match", [
    (lambda: answer_subset_queries([1, 0], np.ones((2, 2)), "abc"), TypeError, "noise_scale must be numeric"),
    (lambda: answer_subset_queries([1, 0], np.ones((2, 2)), [np.nan]), ValueError, "noise_scale contains NaN"),
    (lambda: reconstruct(np.ones((3, 2)), ["a", "b", "c"]), TypeError, "answers must be numeric"),
    (lambda: reconstruction_accuracy([1, 0], None), TypeError, "guess must be a 1-D"),
    (lambda: reconstruction_accuracy([1, 0], 1.0), TypeError, "guess must be a 1-D"),
    (lambda: reconstruction_accuracy([1, 0], ["a", "b"]), TypeError, "guess must be a 1-D"),
])
def test_reconstruction_helpers_check_their_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()
