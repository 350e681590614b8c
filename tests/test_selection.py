"""Tests of the selection module: the exponential mechanism, report-noisy-max and DP quantiles.

Distribution claims are tested with chi-square / binomial tests at fixed seeds and tolerances of
many standard errors; privacy is tested with the course's audit (correct mechanisms not flagged,
planted bugs caught), as in tests/test_audit.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from mic_dp_helpers.attacks.audit import audit_epsilon
from mic_dp_helpers.mechanisms.broken_selection import planted_selection_bugs
from mic_dp_helpers.mechanisms.selection import (
    dp_quantile,
    dp_quantiles,
    exponential_mechanism,
    quantile_interval_probabilities,
    report_noisy_max,
    selection_probabilities,
)

SEEDS = (0, 1)
N = 200_000


def _chi_square_p(choices, probabilities) -> float:
    observed = np.bincount(choices, minlength=len(probabilities))
    expected = np.asarray(probabilities) * len(choices)
    keep = expected > 5
    observed, expected = observed[keep], expected[keep]
    expected = expected * observed.sum() / expected.sum()
    return float(stats.chisquare(observed, expected).pvalue)


# ---------------------------------------------------------------------- exact probabilities
def test_probabilities_follow_the_definition():
    u = np.array([3.0, 1.0, -2.0, 0.5])
    for epsilon, sensitivity in [(1.0, 1.0), (0.3, 2.0), (5.0, 0.5)]:
        expected = np.exp(epsilon * u / (2 * sensitivity))
        np.testing.assert_allclose(selection_probabilities(u, sensitivity, epsilon), expected / expected.sum())
        expected = np.exp(epsilon * u / sensitivity)
        np.testing.assert_allclose(selection_probabilities(u, sensitivity, epsilon, monotonic=True),
                                   expected / expected.sum())


def test_probabilities_do_not_overflow_and_shift_invariant():
    p = selection_probabilities([1e6, 1e6 - 1, 0.0], 1.0, 10.0)
    assert np.isfinite(p).all() and math.isclose(p.sum(), 1.0)
    np.testing.assert_allclose(selection_probabilities([1, 2, 3], 1, 1), selection_probabilities([101, 102, 103], 1, 1))


def test_probability_ratio_on_neighbours_is_at_most_e_epsilon():
    rng = np.random.default_rng(0)
    for _ in range(200):
        u = rng.normal(0, 5, 6)
        shift = rng.uniform(-1, 1, 6)  # any change with |shift| <= sensitivity = 1
        epsilon = rng.uniform(0.1, 3)
        ratio = selection_probabilities(u, 1.0, epsilon) / selection_probabilities(u + shift, 1.0, epsilon)
        assert np.all(np.abs(np.log(ratio)) <= epsilon + 1e-9)


def test_monotonic_weights_are_private_for_monotonic_changes_only():
    rng = np.random.default_rng(1)
    worst_opposite = 0.0
    for _ in range(300):
        u = rng.normal(0, 5, 5)
        epsilon = rng.uniform(0.1, 3)
        same_sign = rng.uniform(0, 1, 5) * rng.choice([-1, 1])  # every utility moves the same way, by <= 1
        ratio = (selection_probabilities(u, 1.0, epsilon, monotonic=True)
                 / selection_probabilities(u + same_sign, 1.0, epsilon, monotonic=True))
        assert np.all(np.abs(np.log(ratio)) <= epsilon + 1e-9)
        opposite = np.zeros(5)
        opposite[0], opposite[1:] = 1.0, -1.0  # one up, the others down: not monotonic
        ratio = (selection_probabilities(u, 1.0, epsilon, monotonic=True)
                 / selection_probabilities(u + opposite, 1.0, epsilon, monotonic=True))
        worst_opposite = max(worst_opposite, float(np.max(np.abs(np.log(ratio))) / epsilon))
    assert worst_opposite > 1.5, "without monotonicity the dropped factor 2 is really needed"


# ---------------------------------------------------------------------- sampling
@pytest.mark.parametrize("seed", SEEDS)
def test_exponential_mechanism_samples_its_probabilities(seed):
    u = np.array([4.0, 3.0, 3.0, 0.0, -1.0])
    probabilities = selection_probabilities(u, 1.0, 1.0)
    choices = exponential_mechanism(u, 1.0, 1.0, rng=seed, size=N)
    assert _chi_square_p(choices, probabilities) > 1e-4


@pytest.mark.parametrize("seed", SEEDS)
def test_gumbel_noisy_max_equals_the_exponential_mechanism(seed):
    u = np.array([4.0, 3.0, 3.0, 0.0, -1.0])
    for monotonic in (False, True):
        probabilities = selection_probabilities(u, 2.0, 1.5, monotonic=monotonic)
        choices = report_noisy_max(u, 2.0, 1.5, rng=seed, size=N, monotonic=monotonic)
        assert _chi_square_p(choices, probabilities) > 1e-4


@pytest.mark.parametrize("seed", SEEDS)
def test_exponential_noise_is_permute_and_flip_and_more_accurate(seed):
    # Two candidates with gap g: P(best) = 1 - exp(-g / scale) / 2 with exponential noise of scale
    # 2 Delta / epsilon; the exponential mechanism gives 1 / (1 + exp(-g / scale)), which is smaller.
    u, epsilon = np.array([2.0, 0.0]), 1.0
    choices = report_noisy_max(u, 1.0, epsilon, rng=seed, size=N, noise="exponential")
    expected = 1 - math.exp(-2.0 / 2.0) / 2
    share = float(np.mean(choices == 0))
    assert abs(share - expected) < 5 * math.sqrt(expected * (1 - expected) / N)
    assert share > selection_probabilities(u, 1.0, epsilon)[0] + 0.05


def test_two_dimensional_utilities_give_one_choice_per_row():
    u = np.array([[100.0, 0.0, 0.0], [0.0, 0.0, 100.0]])
    for select in (exponential_mechanism, report_noisy_max):
        assert select(u, 1.0, 1.0, rng=0).tolist() == [0, 2]
    with pytest.raises(ValueError, match="size"):
        exponential_mechanism(u, 1.0, 1.0, size=3)


def test_same_seed_same_choice_and_scalar_type():
    u = [1.0, 2.0, 1.5]
    assert exponential_mechanism(u, 1.0, 1.0, rng=7) == exponential_mechanism(u, 1.0, 1.0, rng=7)
    assert isinstance(exponential_mechanism(u, 1.0, 1.0, rng=7), int)
    assert isinstance(report_noisy_max(u, 1.0, 1.0, rng=7, noise="exponential"), int)


@pytest.mark.parametrize("bad, match", [
    (dict(utilities=[]), "shape"), (dict(utilities=[1.0, np.nan]), "NaN"), (dict(utilities="abc"), "string"),
    (dict(sensitivity=0.0), "sensitivity"), (dict(epsilon=-1.0), "epsilon"), (dict(size=0), "size"),
    (dict(monotonic="yes"), "monotonic"), (dict(utilities=np.array([True, False])), "booleans"),
])
def test_bad_arguments_are_named(bad, match):
    kwargs = dict(utilities=[1.0, 2.0], sensitivity=1.0, epsilon=1.0) | bad
    with pytest.raises((TypeError, ValueError), match=match):
        exponential_mechanism(**kwargs)
    with pytest.raises((TypeError, ValueError), match=match):
        report_noisy_max(**kwargs)


def test_unknown_noise_is_refused():
    with pytest.raises(ValueError, match="noise must be one of"):
        report_noisy_max([1, 2], 1.0, 1.0, noise="laplace")


# ---------------------------------------------------------------------- quantiles
def test_quantile_intervals_are_the_sorted_clipped_data():
    edges, p = quantile_interval_probabilities([5.0, -3.0, 12.0, 2.0], 0.5, 0.0, 10.0, 1.0)
    assert edges.tolist() == [0.0, 0.0, 2.0, 5.0, 10.0, 10.0]
    assert p[0] == 0 and p[-1] == 0 and math.isclose(p.sum(), 1.0)
    utility = -np.abs(np.arange(5) - 2.0)
    weights = np.diff(edges) * np.exp(utility / 2)
    np.testing.assert_allclose(p, weights / weights.sum())


@pytest.mark.parametrize("seed", SEEDS)
def test_dp_quantile_stays_in_bounds_and_concentrates(seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(50, 10, 5000)
    releases = dp_quantile(values, 0.5, 0.0, 100.0, 1.0, rng=seed, size=2000)
    assert releases.min() >= 0 and releases.max() <= 100
    # With n = 5000 and epsilon = 1 the rank error is a few units: the release is within the 45%-55% quantiles.
    low, high = np.quantile(values, [0.45, 0.55])
    assert np.mean((releases > low) & (releases < high)) > 0.99
    assert np.ptp(releases) > 0, "the release is random"


def test_dp_quantile_error_shrinks_with_epsilon_and_n():
    rng = np.random.default_rng(3)
    population = rng.exponential(30, 20_000)
    def rank_error(n, epsilon):
        data = population[:n]
        releases = dp_quantile(data, 0.9, 0.0, 1000.0, epsilon, rng=rng, size=400)
        return np.mean(np.abs(np.searchsorted(np.sort(data), releases) / n - 0.9))
    assert rank_error(2000, 1.0) < rank_error(2000, 0.1) / 3
    assert rank_error(20_000, 0.5) < rank_error(500, 0.5) / 3


def test_dp_quantiles_split_the_budget_and_are_sorted():
    values = np.arange(1000.0)
    out = dp_quantiles(values, [0.9, 0.1, 0.5], 0, 1000, epsilon=3.0, rng=0)
    assert out[1] <= out[2] <= out[0]
    assert abs(out[2] - 500) < 50


@pytest.mark.parametrize("bad, match", [
    (dict(lower=5.0, upper=5.0), "lower must be < upper"), (dict(quantile=1.5), "quantile"),
    (dict(values=[1.0, np.nan]), "NaN"), (dict(epsilon=0.0), "epsilon"), (dict(upper=np.inf), "upper"),
    (dict(values="text"), "string"),
])
def test_dp_quantile_bad_arguments(bad, match):
    kwargs = dict(values=[1.0, 2.0, 3.0], quantile=0.5, lower=0.0, upper=10.0, epsilon=1.0) | bad
    with pytest.raises((TypeError, ValueError), match=match):
        dp_quantile(**kwargs)


# ---------------------------------------------------------------------- privacy audits
BUGS = planted_selection_bugs()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("bug", BUGS, ids=lambda bug: bug.name)
def test_audit_catches_the_planted_bug_and_passes_its_fix(bug, seed):
    broken = audit_epsilon(bug.mechanism, bug.dataset_a, bug.dataset_b, n_samples=100_000, rng=seed)
    fixed = audit_epsilon(bug.fixed, bug.dataset_a, bug.dataset_b, n_samples=100_000, rng=seed)
    assert broken.refutes(bug.claimed_epsilon), broken
    assert not fixed.refutes(bug.claimed_epsilon), fixed


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("noise", ["gumbel", "exponential"])
def test_noisy_max_is_not_flagged_on_a_tight_pair(noise, seed):
    # Replace-one on counts (non-monotonic): A = (0, 3), B = (1, 2), the pair where the normaliser
    # moves against the chosen candidate. At epsilon = 1 the exact log ratio for the Gumbel version
    # is 0.73, so the audit has room to find most of it but must not pass 1.
    def mechanism(counts, size, rng):
        return report_noisy_max(np.asarray(counts, float), 1.0, 1.0, rng, noise=noise, size=size)

    result = audit_epsilon(mechanism, [0, 3], [1, 2], n_samples=100_000, rng=seed)
    assert 0.4 < result.epsilon_lower_bound <= 1.0, result


@pytest.mark.parametrize("seed", SEEDS)
def test_halving_the_noise_of_a_non_monotonic_selection_is_caught(seed):
    def mechanism(counts, size, rng):
        return report_noisy_max(np.asarray(counts, float), 1.0, 1.0, rng, monotonic=True, size=size)

    assert audit_epsilon(mechanism, [0, 3], [1, 2], n_samples=100_000, rng=seed).refutes(1.0)


def test_docstring_examples_run():
    import doctest

    from mic_dp_helpers.mechanisms import broken_selection
    from mic_dp_helpers.mechanisms import selection

    for module in (selection, broken_selection):
        assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


@pytest.mark.parametrize("bad", ["0.5", True, None, object(), np.array(["a"]), np.array([True])])
def test_dp_quantiles_rejects_non_numeric_levels(bad):
    with pytest.raises(TypeError, match="quantiles must be a list of levels in"):
        dp_quantiles(np.arange(10.0), bad, 0, 10, 1.0, rng=0)


@pytest.mark.parametrize("bad", [[0.5, 2.0], [np.nan], [-0.1]])
def test_dp_quantiles_rejects_levels_outside_unit_interval(bad):
    with pytest.raises(ValueError, match=r"quantiles must all be levels in \[0, 1\]"):
        dp_quantiles(np.arange(10.0), bad, 0, 10, 1.0, rng=0)


@pytest.mark.parametrize("draw", [
    lambda size: exponential_mechanism([1.0, 2.0], 1.0, 1.0, rng=0, size=size),
    lambda size: report_noisy_max([1.0, 2.0], 1.0, 1.0, rng=0, size=size),
    lambda size: dp_quantile(np.arange(10.0), 0.5, 0, 10, 1.0, rng=0, size=size),
])
def test_huge_size_is_a_clear_error_not_a_memory_error(draw):
    with pytest.raises(ValueError, match="size=.* is too large"):
        draw(10**12)


@pytest.mark.parametrize("k", [2, 1000])
def test_report_noisy_max_caps_size_times_candidates(k):
    # report-noisy-max draws size x k noise values: the shared cap counts all of them
    with pytest.raises(ValueError, match=r"size=.* is too large: at most \d+ with \d+ values each"):
        report_noisy_max(np.zeros(k), 1.0, 1.0, rng=0, size=10**8 // k + 1)


@pytest.mark.parametrize("name", ["most_common_category", "most_common_category_without_noise",
                                  "most_common_category_halved_twice", "randomized_response_one",
                                  "randomized_response_wrong_flip", "median_with_public_bounds",
                                  "median_with_data_bounds"])
def test_broken_selection_samplers_cap_size(name):
    import mic_dp_helpers.mechanisms.broken_selection as bs

    data = [1] if name.startswith("randomized") else [0, 1, 1]
    with pytest.raises(ValueError, match="size=.* is too large"):
        getattr(bs, name)(data, 10**12, rng=0)


@pytest.mark.parametrize("bad", [np.array(["gumbel"]), ["gumbel"], None, 1])
def test_report_noisy_max_refuses_a_noise_that_is_not_a_string(bad):
    with pytest.raises(TypeError, match="noise must be one of .* \\(a string\\)"):
        report_noisy_max([1.0, 2.0], 1.0, 1.0, noise=bad)


@pytest.mark.parametrize("name", ["category_counts", "category_spend"])
@pytest.mark.parametrize("data, error, match", [
    ([np.nan, 1.0], ValueError, "data contains NaN"),
    (["a", "b"], TypeError, "data must hold numbers only"),
    (None, TypeError, "data must be an array of numbers"),
])
def test_broken_selection_data_must_be_numbers(name, data, error, match):
    import mic_dp_helpers.mechanisms.broken_selection as bs

    with pytest.raises(error, match=match):
        getattr(bs, name)(data)


@pytest.mark.parametrize("call, error, match", [
    (lambda bs: bs.category_counts([0, 2]), ValueError, "must be category indices, whole numbers from 0 to K - 1"),
    (lambda bs: bs.category_counts([-1]), ValueError, "must be category indices"),
    (lambda bs: bs.category_counts([0.5]), ValueError, "must be category indices"),
    (lambda bs: bs.category_spend([0, 1.0, 1]), ValueError, r"data must be rows \(category, amount\)"),
    (lambda bs: bs.category_spend([[3, 1.0]]), ValueError, "the categories .* must be category indices"),
    (lambda bs: bs.randomized_response_wrong_flip([1], 2, rng=0, epsilon="1"), TypeError, "epsilon must be a positive"),
    (lambda bs: bs.most_common_category_without_noise([0, 1], 2, rng="seed"), TypeError, "rng must be None"),
    (lambda bs: bs.median_with_data_bounds([], 2, rng=0), ValueError, "data is empty"),
    (lambda bs: bs.randomized_response_one([], 2, rng=0), ValueError, "one person's yes/no answer"),
    (lambda bs: bs.randomized_response_one([2], 2, rng=0), ValueError, "one person's yes/no answer"),
])
def test_broken_selection_samplers_explain_bad_input(call, error, match):
    import mic_dp_helpers.mechanisms.broken_selection as bs

    with pytest.raises(error, match=match):
        call(bs)


@pytest.mark.parametrize("utilities", [[True, False], np.array([True, False])])
def test_boolean_utilities_are_refused_in_any_container(utilities):
    with pytest.raises(TypeError, match="got booleans"):
        selection_probabilities(utilities, 1.0, 1.0)


@pytest.mark.parametrize("sensitivity, epsilon", [(1e300, 1e-300), (1e-300, 1e300)])
def test_a_noise_scale_out_of_floating_point_range_is_a_clear_error(sensitivity, epsilon):
    for call in (lambda: report_noisy_max([1.0, 2.0], sensitivity, epsilon, rng=0),
                 lambda: selection_probabilities([1.0, 2.0], sensitivity, epsilon)):
        with pytest.raises(ValueError, match="out of floating-point range"):
            call()


# ------------------------------------------------------------------ floating point (issue 25)
class _OneUniform:
    """Stands in for a Generator whose random() returns one chosen grid point m * 2**-53."""

    def __init__(self, m: int):
        self.value = m * 2.0**-53

    def random(self, size):
        return np.full(size, self.value)


def _realised_probabilities(utilities, epsilon, monkeypatch) -> np.ndarray:
    """The exact probabilities of exponential_mechanism's float sampler: for each candidate, the share of
    the 2**53 values of Generator.random() that choose it (found by bisection: the choice grows with m)."""
    from mic_dp_helpers.mechanisms import selection

    def choice(m: int) -> int:
        monkeypatch.setattr(selection, "as_generator", lambda rng: _OneUniform(m))
        return selection.exponential_mechanism(utilities, 1.0, epsilon)

    starts = []
    for candidate in range(len(utilities)):
        low, high = 0, 2**53  # smallest m with choice(m) >= candidate
        while low < high:
            middle = (low + high) // 2
            low, high = (middle + 1, high) if choice(middle) < candidate else (low, middle)
        starts.append(low)
    return np.diff(np.array(starts + [2**53], dtype=object)).astype(float) / 2.0**53


def test_float_sampler_realises_probabilities_to_the_documented_precision(monkeypatch):
    """The module warning: each probability is realised to within about k * 2**-53, and a candidate whose
    exact probability is below that is never chosen (so the sampler is epsilon-DP only up to a tiny slack)."""
    rng = np.random.default_rng(5)
    for _ in range(3):
        utilities = rng.normal(0, 5, 12)
        realised = _realised_probabilities(utilities, 1.0, monkeypatch)
        exact = selection_probabilities(utilities, 1.0, 1.0)
        assert np.abs(realised - exact).max() <= len(utilities) * 2.0**-53
    far = np.array([80.0, 0.0, 80.0])  # the middle candidate's exact probability is e^-40 / 2, about 2e-18
    assert selection_probabilities(far, 1.0, 1.0)[1] > 0
    realised = _realised_probabilities(far, 1.0, monkeypatch)
    assert realised[1] == 0.0  # never chosen
    far_first = np.array([0.0, 80.0, 80.0])  # first in line, the same candidate gets one grid step: 2**-53
    assert _realised_probabilities(far_first, 1.0, monkeypatch)[0] == 2.0**-53
