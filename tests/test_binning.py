"""Input checks of mic_dp_helpers.synthetic.binning (its privacy behaviour is tested in test_marginals.py)."""

import numpy as np
import pytest

from mic_dp_helpers.synthetic.binning import discretize, equal_width_bins, quantile_bins, undiscretize


@pytest.mark.parametrize("call", [
    lambda n: equal_width_bins([0.0], [1.0], n),
    lambda n: equal_width_bins([0.0] * 10, [1.0] * 10, n // 10 + 1),  # every column gets n_bins + 1 edges
    lambda n: quantile_bins([[0.0], [1.0]], n),
])
def test_huge_n_bins_is_a_clear_error_not_a_memory_error(call):
    with pytest.raises(ValueError, match="n_bins=.* is too large"):
        call(10**12)


@pytest.mark.parametrize("lower, upper, match", [
    ([0, 0, 0], [1, 1], "upper has 2 values but there are 3 columns"),
    ([0], [1, 1, 1, 1], None),  # one number for every column is fine
    ([[0, 0]], [1, 1], "lower must be a number or a 1-D list"),
    ([0, 2], [1, 1], "every lower bound must be < its upper bound; column 1"),
])
def test_equal_width_bins_checks_one_bound_per_column(lower, upper, match):
    if match is None:
        assert len(equal_width_bins(lower, upper, 2)) == 4
        return
    with pytest.raises(ValueError, match=match):
        equal_width_bins(lower, upper, 2)


@pytest.mark.parametrize("edges", [None, 5, np.float64(1.0), "01", {"a": [0, 1]}])
def test_edges_must_be_a_list_of_arrays(edges):
    with pytest.raises(TypeError, match="edges must be a list with one array of bin edges per column"):
        discretize([[0.5]], edges)
    with pytest.raises(TypeError, match="edges must be a list with one array of bin edges per column"):
        undiscretize([[0]], edges, rng=0)


@pytest.mark.parametrize("edges, match", [
    ([[0, 1], [0, 1]], "give one array of bin edges per column: 1 columns, 2 edge arrays"),
    ([[0, 1, 2]] * 2, "codes have 1 columns but there are 2 domain sizes"),
    ([0.0, 1.0], r"for a single column, wrap its edges in a list"),
    ([[1.0, 0.0]], r"edges\[0\] must be increasing with at least 2 values"),
])
def test_wrong_number_or_shape_of_edges_is_a_clear_error(edges, match):
    with pytest.raises(ValueError, match=match):
        if "domain sizes" in match:
            undiscretize([[0]], edges, rng=0)
        else:
            discretize([[0.5]], edges)


@pytest.mark.parametrize("codes", [[[0, [1]]], [0, 1], [[0.0]], [["a"]]])
def test_undiscretize_needs_a_2d_array_of_integer_codes(codes):
    with pytest.raises(ValueError, match="codes must be a 2-D array of integer bin indices"):
        undiscretize(codes, [[0, 1, 2]], rng=0)
