"""Input checks shared by the dataset generators (their content is tested in test_datasets_*.py)."""

import numpy as np
import pytest

from mic_dp_helpers import datasets


@pytest.mark.parametrize("call, name", [
    (lambda n: datasets.medical(n), "n"),
    (lambda n: datasets.coffee_shop_revenue(n), "n"),
    (lambda n: datasets.nonlinear_features(n), "n"),
    (lambda n: datasets.purchases(n), "n_customers"),
    (lambda n: datasets.public_register(datasets.medical(20), n_others=n), "n_others"),
])
@pytest.mark.parametrize("huge", [10**12, np.int64(10**9)])
def test_huge_sizes_are_a_clear_error_not_a_memory_error(call, name, huge):
    with pytest.raises(ValueError, match=f"{name}=.* is too large"):
        call(huge)
