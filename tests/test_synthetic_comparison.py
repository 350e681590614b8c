"""Input checks of lesson 06's comparison runner (its results are tested in test_stored_sweeps.py)."""

import pytest

from mic_dp_helpers.synthetic.comparison import compare_methods


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
    from mic_dp_helpers.synthetic.comparison import stored_sweep

    with pytest.raises(error, match=r"name \(the sweep\) must be one of|unknown sweep"):
        stored_sweep(bad)


@pytest.mark.parametrize("keys, error, match", [
    (["nope"], KeyError, r"live has no column\(s\) \['nope'\]"),
    ([["seed"]], TypeError, "every entry of keys must be one column name"),
    (5, TypeError, "keys must be a list of column names"),
])
def test_reproduction_gap_checks_its_keys(keys, error, match):
    import pandas as pd

    from mic_dp_helpers.synthetic.comparison import reproduction_gap

    table = pd.DataFrame({"seed": [0], "score": [0.9]})
    with pytest.raises(error, match=match):
        reproduction_gap(table, table, keys=keys)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(name=None), TypeError, r"name \(the task\) must be one of"),
    (dict(name="digit"), ValueError, "unknown task 'digit'"),
    (dict(task="breast_cancer"), TypeError, r"task must be \(X, y, lower, upper\)"),
    (dict(epsilons=None), TypeError, "epsilons must be a list of positive numbers"),
    (dict(epsilons=[-1.0]), ValueError, r"epsilons\[0\] must be > 0"),
    (dict(delta=2.0), ValueError, "delta must be in"),
    (dict(max_sigma=-1.0), ValueError, "max_sigma must be > 0"),
    (dict(cluster_n_init=0), ValueError, "cluster_n_init must be an integer >= 1"),
    (dict(rng=-1), ValueError, "rng must be a non-negative integer seed"),
])
def test_compare_groupings_checks_its_arguments_before_skipping_anything(kwargs, error, match):
    # a bad argument must not read as "no group size met the noise limit" (a skipped release)
    from mic_dp_helpers.synthetic.comparison import compare_groupings

    arguments = dict(name="breast_cancer", task=(None,) * 4, epsilons=[1.0], delta=1e-6, rng=0) | kwargs
    with pytest.raises(error, match=match):
        compare_groupings(**arguments)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(max_sigma=-1.0), ValueError, "max_sigma must be > 0"),
    (dict(epsilon=0.0), ValueError, "epsilon must be > 0"),
    (dict(rng=2**40), ValueError, "rng=.* is too large"),
    (dict(task=("X", "y")), TypeError, r"task must be \(X, y, lower, upper\)"),
])
def test_compare_once_checks_what_its_fallback_would_hide(kwargs, error, match):
    from mic_dp_helpers.synthetic.comparison import compare_once

    arguments = dict(name="breast_cancer", epsilon=1.0, delta=1e-6, rng=0) | kwargs
    with pytest.raises(error, match=match):
        compare_once(**arguments)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(seeds=[]), TypeError, "seeds must be None .* or a non-empty list"),
    (dict(seeds=5), TypeError, "seeds must be None .* or a non-empty list"),
    (dict(seeds=[1.5]), TypeError, "every entry of seeds must be an integer"),
    (dict(seeds=[0], progress="bar"), TypeError, "progress must be None or a function"),
])
def test_run_sweep_checks_seeds_and_progress(kwargs, error, match):
    from mic_dp_helpers.synthetic.comparison import run_sweep

    with pytest.raises(error, match=match):
        run_sweep("methods", **kwargs)


def test_reproduction_gap_needs_numeric_results():
    import pandas as pd

    from mic_dp_helpers.synthetic.comparison import reproduction_gap

    with pytest.raises(TypeError, match=r"stored\['score'\] must hold numbers"):
        reproduction_gap(pd.DataFrame({"seed": [0], "score": [0.9]}), pd.DataFrame({"seed": [0], "score": ["x"]}))


def test_no_two_releases_of_the_stored_sweeps_draw_one_noise_stream():
    """Every (split seed, dataset, release, epsilon) of both sweeps draws its own stream, none of them the split
    seed's ``default_rng(seed)``; only "3A, random groups" (section 10) draws the stream of "random groups"
    (section 7), because it is the same release (an alias, so that re-making it is not a second release)."""
    import numpy as np

    from mic_dp_helpers.synthetic.comparison import GROUPING_RELEASES, METHODS, SWEEPS, release_stream

    same = {"3A, random groups": "random groups"}
    keys = {(seed, data, release, eps) for sweep in SWEEPS.values() for seed in range(sweep.n_seeds)
            for data in sweep.tasks for eps in sweep.epsilons
            for release in (*GROUPING_RELEASES, *METHODS) if release != "real data"}
    first = {key: release_stream(*key).random(4).tobytes() for key in keys}
    by_release = {}
    for (seed, data, release, eps), draws in first.items():
        by_release.setdefault(draws, set()).add((seed, data, same.get(release, release), eps))
    assert all(len(releases) == 1 for releases in by_release.values())
    assert len(by_release) == len({(s, d, same.get(r, r), e) for s, d, r, e in keys})
    split_seeds = {np.random.default_rng(seed).random(4).tobytes() for seed in range(max(s for s, *_ in keys) + 1)}
    assert not split_seeds & set(first.values())


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(name="digit"), ValueError, "name \\(the task\\) must be one of"),
    (dict(release="real data"), ValueError, "release must be one of"),
    (dict(epsilon=0.0), ValueError, "epsilon must be > 0"),
    (dict(seed=-1), ValueError, "seed must be"),
])
def test_release_stream_checks_its_key(kwargs, error, match):
    from mic_dp_helpers.synthetic.comparison import release_stream

    with pytest.raises(error, match=match):
        release_stream(**(dict(seed=0, name="digits", release="MST", epsilon=1.0) | kwargs))
