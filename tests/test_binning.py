"""Input checks of mic_dp_helpers.binning (its privacy behaviour is tested in test_marginals.py)."""

import numpy as np
import pytest

from mic_dp_helpers.binning import discretize, equal_width_bins, quantile_bins, undiscretize


@pytest.mark.parametrize("call", [
    lambda n: equal_width_bins([0.0], [1.0], n),
    lambda n: equal_width_bins([0.0] * 10, [1.0] * 10, n // 10 + 1),  # every column gets n_bins + 1 edges
    lambda n: quantile_bins([[0.0], [1.0]], n),
])
def test_huge_n_bins_is_a_clear_error_not_a_memory_error(call):
    with pytest.raises(ValueError, match="n_bins=.* is too large"):
        call(10**12)
