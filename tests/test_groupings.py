"""Input checks of mic_dp_helpers.synthetic.groupings (the groupings' privacy is tested in test_synthetic.py)."""

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.synthetic import groupings as G


@pytest.mark.parametrize("call, name", [
    (lambda huge: G.random_groups(huge, 2, rng=0), "n"),
    (lambda huge: G.kd_leaf_sizes(huge, 2), "n"),
    (lambda huge: G.groups_touched("kd", huge, 2), "n"),
    (lambda huge: G.cluster_groups(np.zeros((10, 2)), 5, n_init=huge, rng=0), "n_init"),
    (lambda huge: G.cluster_groups(np.zeros((10, 2)), 5, max_iter=huge, rng=0), "max_iter"),
])
def test_huge_sizes_are_a_clear_error_not_a_memory_error(call, name):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call(10**12)


@pytest.mark.parametrize("call, name", [
    (lambda v: G.groups_touched(v, 10, 2), "grouping"),
    (lambda v: G.cluster_groups(np.random.default_rng(0).random((10, 2)), 5, method=v, rng=0), "method"),
])
def test_a_grouping_name_that_is_not_a_string_is_a_clear_error(call, name):
    for bad in (pd.Series(["kd"]), np.array(["kd"]), ["kd"], None, 1):
        with pytest.raises(TypeError, match=f"{name} must be one of .* \\(a string\\)"):
            call(bad)
