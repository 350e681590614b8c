"""Check 06.4's hints name the symptom they detected (outside referee, lessons 05-06)."""

from __future__ import annotations

import pytest

from conftest import first_in_default_tier
from mic_dp_helpers.checks import run_check
from wrong_answers import lesson06

RELEASES = lesson06.WRONG_ANSWERS["06.4"]


@pytest.mark.parametrize(("mistake", "symptom"), first_in_default_tier([
    ("not the noisy means (valid, but clipped to [0, 1])", "valid post-processing"),
    ("non-private (calls): memoised release", "same release again and again"),
    ("non-private (calls): noise from a generator seeded by the sizes", "same release again and again"),
    ("non-private: one noise vector shared by every group", "two groups"),
    ("non-private (size): exact for groups of 100 or more", "without noise"),
    ("non-private (size): exact when there is a single group", "without noise"),
    ("non-private (shape): Gaussian clipped at 3.5 sigma", "point mass"),
]))
def test_hint_names_the_symptom(mistake, symptom, capsys):
    result = run_check("06.4", RELEASES[mistake])
    hint = str(getattr(result, "message", result)) + capsys.readouterr().out
    assert symptom in hint


def test_a_clipped_valid_release_is_never_called_non_private(capsys):
    result = run_check("06.4", lesson06.clipped_output)
    hint = str(getattr(result, "message", result)) + capsys.readouterr().out
    assert "valid post-processing" in hint and "non-private" not in hint and "not the Gaussian" not in hint


@pytest.mark.parametrize("mistake", first_in_default_tier([
    "non-private: sorted by the first feature, dealt round-robin",
    "non-private: sorted by distance from the mean, dealt round-robin",
    "non-private: sorted by the angle around the centre, in contiguous chunks",
    "non-private: sorted, dealt round-robin from a random start, groups in random order",
]))
def test_a_grouping_from_an_order_of_the_data_is_named(mistake, capsys):
    result = run_check("06.4", RELEASES[mistake])
    hint = str(getattr(result, "message", result)) + capsys.readouterr().out
    assert result.status == "failed" and "data-independent grouping" in hint


def test_a_fixed_partition_is_rejected_as_not_random_never_as_non_private(capsys):
    result = run_check("06.4", lesson06.index_round_robin)
    hint = str(getattr(result, "message", result)) + capsys.readouterr().out
    assert result.status == "failed" and "ignores rng" in hint and "it is private" in hint
    assert "non-private" not in hint and "not private" not in hint


def test_the_rank_shift_audit_alone_refutes_a_sorted_round_robin_grouping():
    """The audit backs the coupling test: it sees sorting at the real sigma, whatever the answer does elsewhere."""
    import numpy as np

    from mic_dp_helpers import synthetic
    from mic_dp_helpers.attacks.audit import audit_epsilon
    from mic_dp_helpers.checks.lesson06_grouping import _rank_shift_pair

    A, B = _rank_shift_pair()
    sigma = synthetic.group_mean_sigma(48, 2, 1.0, 1e-5)
    sorted_release = RELEASES["non-private: sorted by the first feature, dealt round-robin"]

    def second_coordinate(data, size, rng):
        return np.array([sorted_release(data, 48, sigma, rng)[:, 1] for _ in range(size)])

    assert audit_epsilon(second_coordinate, A, B, n_samples=2000, rng=1, delta=1e-5).refutes(1.0)


@pytest.mark.parametrize("mistake", ["float32 precision, returned as a Python float (referee)", "a NumPy float32",
                                     "float32 arithmetic"])
def test_a_float32_noise_scale_gets_the_float64_hint(mistake):
    from wrong_answers import lesson06_marginals

    result = run_check("06.5", lesson06_marginals.WRONG_ANSWERS["06.5"][mistake])
    assert result.status == "failed" and "float32 precision" in result.message


def _honest_answers():
    from wrong_answers import lesson06_marginals

    return {**lesson06.HONEST_ANSWERS, **lesson06_marginals.HONEST_ANSWERS}


@pytest.mark.slow  # each runs a whole check (seconds); CI runs them with the slow tests
@pytest.mark.parametrize(("exercise_id", "name"), [(ex, name) for ex, answers in _honest_answers().items()
                                                   for name in answers])
def test_honest_variant_passes(exercise_id, name):
    result = run_check(exercise_id, _honest_answers()[exercise_id][name])
    assert result.passed, f"{exercise_id} {name}: {result.message}"


@pytest.mark.parametrize("mistake", first_in_default_tier([
    "non-private (data): noise scaled by the data's SD (sigma on constant data)",
    "non-private (data): noise scaled by each feature's range (sigma on constant data)",
    "non-private (data): half the noise on nearly constant data",
    "non-private (data): noise times 1 + the data's SD",
]))
def test_a_noise_scale_read_from_the_data_is_named_not_blamed_on_the_groups(mistake):
    result = run_check("06.4", RELEASES[mistake])
    assert result.status == "failed" and "never rescaled by the data" in result.message
    assert "Your groups depend on the values" not in result.message


@pytest.mark.parametrize(("mistake", "symptom"), first_in_default_tier([
    ("non-private (data): leftover records join the nearest group", "data-independent grouping"),
    ("non-private (data): leftover records dealt in the order of their values", "data-independent grouping"),
    ("non-private (data): duplicate rows dealt out first, round-robin", "data-independent grouping"),
    ("non-private (size): nearest-neighbour groups when n > 100 or 3+ features", "data-independent grouping"),
    ("non-private (shape): a sum of 12 uniforms", "thinner tails than a Gaussian"),
]))
def test_referee_fourth_pass_hints(mistake, symptom):
    result = run_check("06.4", RELEASES[mistake])
    assert result.status == "failed" and symptom in result.message


def test_a_sigma_a_hair_too_small_is_named_for_06_5():
    from wrong_answers import lesson06_marginals

    result = run_check("06.5", lesson06_marginals.WRONG_ANSWERS["06.5"][
        "sigma 4.5e-8 too small: spends 9e-8 more than rho (referee)"])
    assert result.status == "failed" and "hair too small" in result.message


def test_the_worked_example_is_a_case_of_06_5():
    from mic_dp_helpers.checks.lesson06_marginals import WORKED_EXAMPLE, _noise_cases

    assert WORKED_EXAMPLE == (0.5, 2, False) and WORKED_EXAMPLE in _noise_cases()


def _sorted_then_shuffled(X, l, sigma, rng):
    """Referee s39rA D7: a fixed order by value, then a uniform shuffle from rng: a uniformly random partition, so
    private, but the check's coupling (same rng, neighbouring data) cannot tell it from a sorted grouping."""
    import numpy as np

    X = np.asarray(X, float)
    order = np.lexsort(X.T[::-1])[rng.permutation(len(X))]
    groups = np.array_split(order, len(X) // l)
    return np.stack([X[g].mean(axis=0) for g in groups]) + rng.standard_normal((len(groups), X.shape[1])) * sigma


def test_a_shuffle_after_a_sort_is_not_called_non_private():
    result = run_check("06.4", _sorted_then_shuffled)
    assert result.status == "failed" and "data-independent grouping" in result.message
    assert "a sort followed by a uniform shuffle is private" in result.message
    assert "the release is not private" not in result.message
