"""Input checks of the planted-bug samplers (their privacy behaviour is tested in test_audit.py)."""

import numpy as np
import pytest

from mic_dp_helpers.mechanisms import broken as bm

SAMPLERS = [bm.laplace_count, bm.laplace_bounded_sum, bm.laplace_clipped_mean, bm.laplace_histogram,
            bm.sum_with_count_sensitivity, bm.count_with_inverted_scale, bm.count_without_noise_at_zero,
            bm.mean_clamped_to_data_range, bm.histogram_with_shared_noise]


@pytest.mark.parametrize("sampler", SAMPLERS, ids=lambda f: f.__name__)
def test_huge_size_is_a_clear_error_not_a_memory_error(sampler):
    with pytest.raises(ValueError, match="size=.* is too large"):
        sampler([0.0, 1.0], 10**12, rng=0)


@pytest.mark.parametrize("sampler", [bm.laplace_histogram, bm.histogram_with_shared_noise], ids=lambda f: f.__name__)
@pytest.mark.parametrize("n_categories, error, match", [
    (10**12, ValueError, "n_categories=.* is too large"),
    (0, ValueError, "n_categories must be an integer >= 1"),
    (1.5, TypeError, "n_categories must be an integer"),
    (None, TypeError, "n_categories must be an integer"),
])
def test_histograms_check_n_categories(sampler, n_categories, error, match):
    with pytest.raises(error, match=match):
        sampler([0, 1], 2, rng=0, n_categories=n_categories)


@pytest.mark.parametrize("sampler", [bm.laplace_histogram, bm.histogram_with_shared_noise], ids=lambda f: f.__name__)
@pytest.mark.parametrize("labels", [[-1, 0], [0, 3], [0.5, 1]])
def test_histograms_refuse_labels_outside_the_public_categories(sampler, labels):
    with pytest.raises(ValueError, match="category labels, whole numbers from 0 to"):
        sampler(labels, 2, rng=0, n_categories=3)


@pytest.mark.parametrize("data", [["a", "b"], "abc", None, {"a": 1}, np.array([1, "x"], dtype=object)])
def test_data_that_is_not_numbers_is_a_clear_type_error(data):
    for sampler in SAMPLERS:
        with pytest.raises(TypeError, match="data must"):
            sampler(data, 2, rng=0)


@pytest.mark.parametrize("bounds, error, match", [
    (dict(lower="0"), TypeError, "lower must be a finite number"),
    (dict(upper=None), TypeError, "upper must be a finite number"),
    (dict(lower=np.nan), ValueError, "lower is NaN"),
    (dict(lower=20.0, upper=10.0), ValueError, "lower must be < upper"),
])
def test_bounds_are_checked(bounds, error, match):
    for sampler in (bm.laplace_bounded_sum, bm.laplace_clipped_mean, bm.sum_with_count_sensitivity,
                    bm.mean_clamped_to_data_range):
        with pytest.raises(error, match=match):
            sampler([0.5], 2, rng=0, **bounds)


@pytest.mark.parametrize("sampler", [bm.laplace_clipped_mean, bm.mean_clamped_to_data_range], ids=lambda f: f.__name__)
def test_a_mean_of_no_records_is_a_clear_error(sampler):
    with pytest.raises(ValueError, match="data is empty: a mean needs at least one record"):
        sampler([], 2, rng=0)


@pytest.mark.parametrize("sampler", [bm.laplace_count, bm.laplace_bounded_sum, bm.laplace_histogram],
                         ids=lambda f: f.__name__)
def test_counts_and_sums_of_no_records_are_fine(sampler):
    assert len(sampler([], 3, rng=0)) == 3  # add/remove neighbours: an empty dataset is a dataset
