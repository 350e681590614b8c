"""Input checks of lesson 06's comparison runner (its results are tested in test_stored_sweeps.py)."""

import pytest

from mic_dp_helpers.synthetic_comparison import compare_methods


@pytest.mark.parametrize("epsilons, n_seeds, error, match", [
    ([1.0], 10**12, ValueError, "n_seeds=.* is too large"),
    ([1.0, 2.0], 10**8, ValueError, "n_seeds=.* is too large: at most 50000000 with 2 values each"),
    ([], 1, ValueError, "epsilons is empty"),
    (None, 1, TypeError, "epsilons must be a list of positive numbers"),
    (1.0, 1, TypeError, "epsilons must be a list of positive numbers"),
    ([1.0, -1.0], 1, ValueError, r"epsilons\[1\] must be > 0"),
])
def test_compare_methods_checks_its_grid_before_any_work(epsilons, n_seeds, error, match):
    with pytest.raises(error, match=match):
        compare_methods("digits", epsilons, 1e-5, n_seeds)


@pytest.mark.parametrize("bad, error", [(["methods"], TypeError), (None, TypeError), ("method", ValueError)])
def test_stored_sweep_names_the_sweeps(bad, error):
    from mic_dp_helpers.synthetic_comparison import stored_sweep

    with pytest.raises(error, match=r"name \(the sweep\) must be one of|unknown sweep"):
        stored_sweep(bad)


@pytest.mark.parametrize("keys, error, match", [
    (["nope"], KeyError, r"live has no column\(s\) \['nope'\]"),
    ([["seed"]], TypeError, "every entry of keys must be one column name"),
    (5, TypeError, "keys must be a list of column names"),
])
def test_reproduction_gap_checks_its_keys(keys, error, match):
    import pandas as pd

    from mic_dp_helpers.synthetic_comparison import reproduction_gap

    table = pd.DataFrame({"seed": [0], "score": [0.9]})
    with pytest.raises(error, match=match):
        reproduction_gap(table, table, keys=keys)
