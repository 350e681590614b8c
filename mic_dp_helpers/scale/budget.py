"""How PipelineDP divides one pipeline's budget among its mechanisms, read from PipelineDP itself.

PipelineDP's ``NaiveBudgetAccountant`` gives every mechanism a pipeline requests an equal share (by
weight, all 1 here): lesson 09's count and sum get epsilon/2 each with public partitions, and the count,
the sum and private partition selection epsilon/3 each without them, all of delta going to the selection.
:func:`budget_split` asks PipelineDP rather than typing those fractions, so the lesson cannot drift from
the library.
"""

from __future__ import annotations

import pandas as pd

from mic_dp_helpers._validation import check_positive_float
from mic_dp_helpers.scale.pipeline import _aggregate_params, _make_extractors

__all__ = ["budget_split"]


def budget_split(epsilon: float = 1.0, delta: float = 1e-6, *, public_partitions: bool = True) -> pd.DataFrame:
    """How PipelineDP's ``NaiveBudgetAccountant`` divides one pipeline's budget, read from PipelineDP itself.

    Builds (but never runs) :func:`private_statistics`' pipeline on one made-up row, asks PipelineDP's
    accountant for its budgets and returns what each mechanism got. No data is read and nothing is spent.

    Parameters
    ----------
    epsilon, delta : float
        The pipeline's total budget.
    public_partitions : bool, default True
        Whether the partition keys are public (no partition selection) or chosen privately.

    Returns
    -------
    pandas.DataFrame
        One row per mechanism: ``mechanism``, ``noise``, ``epsilon``, ``delta``.

    Examples
    --------
    >>> budget_split(1.0, 1e-6, public_partitions=False)[["mechanism", "epsilon"]]  # doctest: +SKIP
                mechanism   epsilon
    0               Count  0.333333
    1                 Sum  0.333333
    2  PartitionSelection  0.333333
    """
    import pipeline_dp

    epsilon = check_positive_float(epsilon, "epsilon")
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1); got {delta!r}.")
    if not isinstance(public_partitions, bool):
        raise TypeError(f"public_partitions must be True or False, got {public_partitions!r}.")
    accountant = pipeline_dp.NaiveBudgetAccountant(total_epsilon=epsilon, total_delta=delta)
    engine = pipeline_dp.DPEngine(accountant, pipeline_dp.LocalBackend())
    made_up = [("someone", 1, 0.5)]  # PipelineDP refuses an empty input; the lazy result is never read
    engine.aggregate(made_up, _aggregate_params(1, 1, 0.0, 1.0), _make_extractors(),
                     public_partitions=[1] if public_partitions else None)
    accountant.compute_budgets()
    # The accountant keeps its requests in a private list (PipelineDP 0.3.1 has no public way to list them).
    specs = [request.mechanism_spec for request in accountant._mechanisms]
    return pd.DataFrame({"mechanism": [spec.name for spec in specs],
                         "noise": [spec.mechanism_type.name.lower() for spec in specs],
                         "epsilon": [float(spec.eps) for spec in specs],
                         "delta": [float(spec.delta) for spec in specs]})
