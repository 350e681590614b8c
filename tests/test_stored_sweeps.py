"""Lesson 06's stored sweeps: complete, and what the code computes today.

Lesson 06 shows 10-split results that ``benchmarks/synthetic_comparison.py --write-stored`` ran once
and stored in the package; the lesson re-runs split 0 live. These tests re-run other splits (all of
them in the slow set), so a stored table can never drift from the code that made it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mic_dp_helpers.synthetic.comparison import (GROUPING_RELEASES, METHODS, SWEEPS, reproduction_gap, run_sweep,
                                                 stored_sweep)


@pytest.mark.parametrize("name", sorted(SWEEPS))
def test_stored_sweep_covers_its_whole_grid_once(name):
    sweep, table = SWEEPS[name], stored_sweep(name)
    assert not table.duplicated(list(sweep.keys)).any()
    assert sorted(table["seed"].unique()) == list(range(sweep.n_seeds))
    assert set(table["data"]) == set(sweep.tasks)
    assert set(table["epsilon"]) == set(sweep.epsilons)
    assert set(table["model"]) == {"hgb", "logreg"}
    label = "release" if name == "groupings" else "method"
    expected = {"real data", *GROUPING_RELEASES} if name == "groupings" else set(METHODS)
    assert set(table[label]) <= expected and "real data" in set(table[label])
    # every (task, seed, epsilon, model) has the same releases: a missing one means "none fits the noise
    # limit", which cannot depend on the seed (the group size comes from public counts and parameters)
    per_cell = table.groupby(["data", "seed", "epsilon", "model"])[label].apply(frozenset)
    assert per_cell.groupby(level=["data", "epsilon", "model"]).nunique().eq(1).all()
    scores = table["score"].dropna()
    assert ((scores >= 0) & (scores <= 1)).all()


@pytest.mark.parametrize("name, seed", [("groupings", 3), ("methods", 7)])
def test_a_stored_split_is_what_the_code_computes(name, seed):
    """One split besides the lesson's split 0, run afresh: identical to the stored rows."""
    live = run_sweep(name, seeds=[seed])
    stored = stored_sweep(name)
    assert len(live) == len(stored[stored.seed == seed])
    assert reproduction_gap(live, stored) == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SWEEPS))
def test_every_stored_split_is_what_the_code_computes(name):
    live, stored = run_sweep(name), stored_sweep(name)
    assert len(live) == len(stored)
    assert reproduction_gap(live, stored) == 0.0


def test_reproduction_gap_measures_the_largest_difference():
    stored = pd.DataFrame({"seed": [0, 0, 1], "model": ["a", "b", "a"], "score": [0.5, 0.7, 0.9]})
    live = pd.DataFrame({"seed": [0, 0], "model": ["a", "b"], "score": [0.5, 0.65]})
    assert reproduction_gap(live, stored) == pytest.approx(0.05)
    assert reproduction_gap(live.iloc[:1], stored) == 0.0


def test_reproduction_gap_refuses_rows_that_were_never_stored():
    stored = pd.DataFrame({"seed": [0], "score": [0.5]})
    with pytest.raises(ValueError, match="no stored counterpart.*--write-stored"):
        reproduction_gap(pd.DataFrame({"seed": [1], "score": [0.5]}), stored)


def test_reproduction_gap_refuses_a_release_missing_on_one_side():
    stored = pd.DataFrame({"seed": [0, 1], "score": [np.nan, 0.5]})
    with pytest.raises(ValueError, match="missing on one side"):
        reproduction_gap(pd.DataFrame({"seed": [0], "score": [0.5]}), stored)
    assert reproduction_gap(pd.DataFrame({"seed": [0], "score": [np.nan]}), stored) == 0.0


def test_reproduction_gap_needs_results_and_keys():
    with pytest.raises(ValueError, match="result columns"):
        reproduction_gap(pd.DataFrame({"seed": [0]}), pd.DataFrame({"seed": [0]}))


def test_unknown_sweep_is_named_in_the_error():
    with pytest.raises(ValueError, match="unknown sweep 'tstr'.*groupings"):
        stored_sweep("tstr")
    with pytest.raises(ValueError, match="seeds"):
        run_sweep("methods", seeds=[-1])
