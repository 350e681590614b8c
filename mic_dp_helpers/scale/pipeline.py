"""DP at scale with PipelineDP: contribution bounding, partition selection and one pipeline on any backend.

PipelineDP (OpenMined and Google) runs the same private aggregation on a local backend, on Apache Spark
and on Apache Beam. This module holds what lesson 09 needs around it:

* :func:`purchase_log` makes a larger, seeded version of lesson 04's purchase log, with a long-tailed
  ``product`` column whose set of values is *not* public;
* :func:`bound_contributions` is the course's own (teaching) version of PipelineDP's contribution
  bounding, and :func:`bounding_tradeoff` measures what the two bounds trade;
* :func:`private_statistics` builds one PipelineDP pipeline (count, sum and mean per partition) that runs
  unchanged on ``pipeline_dp.LocalBackend()`` and ``pipeline_dp.SparkRDDBackend(sc)``, and records its
  budget in the course's :class:`~mic_dp_helpers.accounting.ledger.PrivacyAccountant` before it runs;
* :func:`sum_noise_scale` is the Laplace scale PipelineDP uses for a sum.

**Neighbour relation.** Every release here is DP for *adding or removing one person* (a customer with
all of their rows), the privacy unit of PipelineDP's ``privacy_id_extractor``. What is assumed public:
the contribution bounds, the value bounds, and, when ``public_partitions`` is given, the list of
partition keys (the days of 2024 are public; the products people bought are not).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import (
    as_generator,
    check_column_name,
    check_dataframe,
    check_finite_float,
    check_int_at_least,
    check_positive_float,
    check_size,
    ndim_of,
)
from mic_dp_helpers.accounting.ledger import PrivacyAccountant
from mic_dp_helpers.datasets import _PURCHASE_VALUES_PER_CUSTOMER, purchases

__all__ = [
    "purchase_log", "rows_for_pipeline", "bound_contributions", "bounding_tradeoff", "sum_noise_scale",
    "count_noise_scale", "private_statistics", "select_private_partitions", "public_contribution_bounds",
]

_METRIC_NAMES = ("count", "sum", "mean")


def purchase_log(n_rows: int = 100_000, rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """A purchase log of about ``n_rows`` rows: lesson 04's generator, scaled, with a ``product`` column.

    Columns: ``customer_id``, ``date``, ``day`` (1 to 366), ``category``, ``product`` and ``amount``.
    Products follow a long tail (a Zipf law over 5,000 codes), so many products are bought by one or two
    customers only: their mere existence is private.

    Parameters
    ----------
    n_rows : int, default 100_000
        Approximate number of rows (the generator makes about 7.1 rows per customer).
    rng : int, Generator or None, default 0
        Source of randomness (a seed for reproducibility).

    Returns
    -------
    pandas.DataFrame
        One row per purchase.

    Examples
    --------
    >>> log = purchase_log(5_000, rng=1)
    >>> sorted(log.columns)
    ['amount', 'category', 'customer_id', 'date', 'day', 'product']
    >>> bool(log["day"].between(1, 366).all())
    True
    """
    n_rows = check_size(n_rows, "n_rows", 10, per_item=_PURCHASE_VALUES_PER_CUSTOMER // 7 + 1)
    rng = as_generator(rng)
    log = purchases(max(1, round(n_rows / 7.1)), rng=rng)
    log["day"] = log["date"].dt.day_of_year.astype(np.int64)
    code = np.minimum(rng.zipf(1.3, len(log)), 5_000)
    log["product"] = pd.array([f"P{c:04d}" for c in code], dtype=object)
    return log[["customer_id", "date", "day", "category", "product", "amount"]]


def rows_for_pipeline(log: pd.DataFrame, partition: str = "day", value: str = "amount") -> list[tuple]:
    """The log as a list of ``(person, partition, value)`` tuples, the plain records PipelineDP reads.

    Parameters
    ----------
    log : pandas.DataFrame
        The purchase log, with ``customer_id``.
    partition : str, default "day"
        Column of the partition key.
    value : str, default "amount"
        Numeric column of the value.

    Returns
    -------
    list of tuple
        ``(customer_id, partition, value)`` per row.

    Examples
    --------
    >>> rows_for_pipeline(purchase_log(200, rng=0))[0][1] >= 1
    True
    """
    check_dataframe(log, "log", columns=["customer_id", check_column_name(partition, "partition"),
                                         check_column_name(value, "value")])
    amounts = log[value]
    if pd.api.types.is_bool_dtype(amounts) or not pd.api.types.is_numeric_dtype(amounts):
        raise TypeError(f"the value column {value!r} must be numeric (PipelineDP sums it), got dtype {amounts.dtype}.")
    if amounts.isna().any() or log[["customer_id", partition]].isna().any().any():
        raise ValueError(f"log has missing values in customer_id, {partition!r} or {value!r}; drop or impute them "
                         "first (PipelineDP would count a missing person or key as one more).")
    return list(zip(log["customer_id"].tolist(), log[partition].tolist(), log[value].astype(float).tolist()))


def _check_keys(log, name: str, person, partition) -> None:
    """``log`` has the person and partition columns, with no missing key (a groupby would drop those rows)."""
    columns = [check_column_name(person, "person"), check_column_name(partition, "partition")]
    check_dataframe(log, name, columns=columns)
    missing = [column for column in columns if log[column].isna().any()]
    if missing:
        raise ValueError(f"{name} has missing values in {missing}; every row needs its person and partition "
                         "(drop or fill those rows first), or it would silently be left out.")


def bound_contributions(log: pd.DataFrame, max_partitions: int, max_per_partition: int, *,
                        person: str = "customer_id", partition: str = "day",
                        rng: int | np.random.Generator | None = None) -> pd.DataFrame:
    """Keep at most ``max_partitions`` partitions per person and ``max_per_partition`` rows in each.

    Teaching version of what PipelineDP does before it adds noise (``max_partitions_contributed`` and
    ``max_contributions_per_partition``): for each person, a uniformly random set of their partitions is
    kept, and in each kept partition a uniformly random set of their rows. After it, adding or removing one
    person changes any count by at most ``max_per_partition`` in at most ``max_partitions`` partitions, so
    the L1 sensitivity of the vector of counts is ``max_partitions * max_per_partition``, whatever the data.
    Which rows are kept never depends on the order of the table.

    Parameters
    ----------
    log : pandas.DataFrame
        One row per contribution.
    max_partitions, max_per_partition : int
        The two bounds (at least 1).
    person, partition : str
        Column names of the privacy unit and of the partition key.
    rng : int, Generator or None
        Randomness for the choice of kept partitions and rows.

    Returns
    -------
    pandas.DataFrame
        The kept rows (a subset of ``log``, with its index).

    Examples
    --------
    >>> log = pd.DataFrame({"customer_id": ["a"] * 5, "day": [1, 1, 1, 2, 3]})
    >>> kept = bound_contributions(log, 2, 1, rng=0)
    >>> len(kept), kept["day"].nunique()
    (2, 2)
    """
    max_partitions = check_int_at_least(max_partitions, "max_partitions", 1)
    max_per_partition = check_int_at_least(max_per_partition, "max_per_partition", 1)
    rng = as_generator(rng, "rng")
    person, partition = check_column_name(person, "person"), check_column_name(partition, "partition")
    if isinstance(log, pd.DataFrame) and log.empty and {person, partition} <= set(log.columns):
        return log.copy()
    _check_keys(log, "log", person, partition)
    # Random ranks break every tie at random: the first k by rank is a uniform random k-subset.
    rows = pd.DataFrame({"who": log[person].to_numpy(), "where": log[partition].to_numpy(),
                         "row_rank": rng.random(len(log))}, index=log.index)
    rows["row_order"] = rows.groupby(["who", "where"], sort=False)["row_rank"].rank(method="first")
    cells = rows[["who", "where"]].drop_duplicates()
    cells = cells.assign(cell_rank=rng.random(len(cells)))
    cells["cell_order"] = cells.groupby("who", sort=False)["cell_rank"].rank(method="first")
    rows = rows.merge(cells[["who", "where", "cell_order"]], on=["who", "where"], how="left").set_axis(rows.index)
    keep = (rows["row_order"] <= max_per_partition) & (rows["cell_order"] <= max_partitions)
    return log.loc[keep.to_numpy()]


def count_noise_scale(max_partitions: int, max_per_partition: int, epsilon: float) -> float:
    """Laplace scale of a DP count per partition: ``max_partitions * max_per_partition / epsilon``.

    Parameters
    ----------
    max_partitions : int
        Partitions one person may contribute to (>= 1).
    max_per_partition : int
        Contributions per person and partition (>= 1).
    epsilon : float
        Epsilon of the count (> 0).

    Returns
    -------
    float
        The Laplace scale.

    Examples
    --------
    >>> count_noise_scale(3, 2, 0.5)
    12.0
    """
    max_partitions = check_int_at_least(max_partitions, "max_partitions", 1)
    max_per_partition = check_int_at_least(max_per_partition, "max_per_partition", 1)
    return max_partitions * max_per_partition / check_positive_float(epsilon, "epsilon")


def sum_noise_scale(max_partitions: int, max_per_partition: int, min_value: float, max_value: float,
                    epsilon: float) -> float:
    """Laplace scale PipelineDP uses for a per-partition sum with each value clamped to ``[min_value, max_value]``.

    One person changes at most ``max_partitions`` sums, each by at most ``max_per_partition`` values of
    size up to ``max(|min_value|, |max_value|)``: the L1 sensitivity is the product, divided by epsilon.

    Parameters
    ----------
    max_partitions : int
        Partitions one person may contribute to (>= 1).
    max_per_partition : int
        Contributions per person and partition (>= 1).
    min_value, max_value : float
        Public bounds of each value, ``min_value <= max_value``.
    epsilon : float
        Epsilon of the sum (> 0).

    Returns
    -------
    float
        The Laplace scale.

    Examples
    --------
    >>> sum_noise_scale(2, 1, 0.0, 10.0, 0.25)
    80.0
    """
    min_value = check_finite_float(min_value, "min_value")
    max_value = check_finite_float(max_value, "max_value")
    if min_value > max_value:
        raise ValueError(f"min_value and max_value must be finite with min_value <= max_value; got "
                         f"[{min_value}, {max_value}].")
    return count_noise_scale(max_partitions, max_per_partition, epsilon) * max(abs(min_value), abs(max_value))


def bounding_tradeoff(log: pd.DataFrame, max_partitions: Sequence[int], max_per_partition: Sequence[int],
                      epsilon: float, *, person: str = "customer_id", partition: str = "day",
                      rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Bias and noise of DP counts per partition for each pair of contribution bounds.

    For every pair, the rows are bounded with :func:`bound_contributions`; the bias is the mean over
    partitions of (bounded count - true count), the noise is the Laplace standard deviation
    ``sqrt(2) * max_partitions * max_per_partition / epsilon``, and ``rmse`` combines them. This reads the
    private data without noise: it is a teaching tool to *see* the trade-off. A real analysis chooses the
    bounds from public knowledge or a public sample (:func:`public_contribution_bounds`), or pays for them.

    Parameters
    ----------
    log : pandas.DataFrame
        One row per contribution (private).
    max_partitions : sequence of int
        Values of the bound on partitions per person to try.
    max_per_partition : sequence of int
        Values of the bound on contributions per person and partition to try.
    epsilon : float
        Epsilon of the count (> 0).
    person, partition : str
        Column names of the privacy unit and of the partition key.
    rng : int, Generator or None, default 0
        Randomness of the bounding.

    Returns
    -------
    pandas.DataFrame
        One row per pair of bounds: ``bias``, ``noise_sd``, ``rmse`` and ``rows_kept``.

    Examples
    --------
    >>> table = bounding_tradeoff(purchase_log(3_000, rng=0), [1, 4], [1], 1.0)
    >>> list(table.columns)
    ['max_partitions', 'max_per_partition', 'bias', 'noise_sd', 'rmse', 'rows_kept']
    """
    _check_keys(log, "log", person, partition)
    epsilon = check_positive_float(epsilon, "epsilon")
    rng = as_generator(rng, "rng")
    candidates = []
    for name, values in (("max_partitions", max_partitions), ("max_per_partition", max_per_partition)):
        if isinstance(values, (str, bytes, dict, pd.DataFrame)) or ndim_of(values) != 1:
            raise TypeError(f"{name} must be a list of candidate bounds (ints >= 1), e.g. [1, 2, 4]; "
                            f"got {type(values).__name__} {values!r}.")
        candidates.append(list(values))
        if not candidates[-1]:
            raise ValueError(f"{name} is empty; list at least one candidate bound, e.g. [1, 2, 4].")
    max_partitions, max_per_partition = candidates
    true = log.groupby(partition).size()
    records = []
    for l0 in max_partitions:
        for linf in max_per_partition:
            kept = bound_contributions(log, l0, linf, person=person, partition=partition, rng=rng)
            bounded = kept.groupby(partition).size().reindex(true.index, fill_value=0)
            bias = float((bounded - true).mean())
            noise = math.sqrt(2) * count_noise_scale(l0, linf, epsilon)
            records.append({"max_partitions": int(l0), "max_per_partition": int(linf), "bias": bias,
                            "noise_sd": noise, "rmse": math.sqrt(float(((bounded - true) ** 2).mean()) + noise**2),
                            "rows_kept": len(kept) / max(len(log), 1)})
    return pd.DataFrame.from_records(records)


def public_contribution_bounds(public_sample: pd.DataFrame, quantile: float = 0.9, *,
                               person: str = "customer_id", partition: str = "day") -> tuple[int, int]:
    """Contribution bounds read from a *public* sample: the smallest bounds that cover ``quantile`` of it.

    ``max_partitions`` is the smallest k such that at least ``quantile`` of the sample's people contribute
    to at most k partitions; ``max_per_partition`` likewise over (person, partition) cells. Spend no
    privacy only if the sample really is public (an earlier survey, a disjoint consenting panel).

    Parameters
    ----------
    public_sample : pandas.DataFrame
        A public sample of contributions, one row each.
    quantile : float, default 0.9
        Share of the sample the bounds must cover, in (0, 1].
    person, partition : str
        Column names of the privacy unit and of the partition key.

    Returns
    -------
    max_partitions, max_per_partition : int
        The two bounds.

    Examples
    --------
    >>> sample = pd.DataFrame({"customer_id": list("aabbbc"), "day": [1, 2, 1, 1, 3, 1]})
    >>> public_contribution_bounds(sample, 0.5)
    (2, 1)
    """
    _check_keys(public_sample, "public_sample", person, partition)
    if not (isinstance(quantile, (int, float)) and 0 < quantile <= 1):
        raise ValueError(f"quantile must be a share in (0, 1]; got {quantile!r}.")
    if public_sample.empty:
        raise ValueError("public_sample is empty: bounds cannot be read from no data.")
    partitions = public_sample.groupby(person)[partition].nunique().to_numpy()
    per_cell = public_sample.groupby([person, partition]).size().to_numpy()

    def smallest_covering(counts: np.ndarray) -> int:
        values = np.sort(counts)
        index = math.ceil(quantile * len(values) - 1e-12) - 1
        return int(values[max(index, 0)])

    return smallest_covering(partitions), smallest_covering(per_cell)


def _collect(result) -> list:
    """Run the (lazy) pipeline. A failure reading the rows depends on the data: it stays charged, explained."""
    try:
        return result.collect() if hasattr(result, "collect") else list(result)
    except (IndexError, KeyError, TypeError, ValueError) as error:
        raise ValueError(f"PipelineDP could not read the data ({type(error).__name__}: {error}). Every row must be a "
                         "(person, partition, value) tuple with a numeric value, as rows_for_pipeline(log) makes "
                         "them. The analysis was attempted, so its budget stays spent.") from error


_MAX_PIPELINE_BOUND = 2**31 - 1  # PipelineDP's partition selection takes a 32-bit int


def _check_pipeline_inputs(data, backend, max_partitions, ledger, label) -> None:
    """Check what does not depend on the data (its type, the backend, the bounds, the ledger) before any charge."""
    import pipeline_dp

    if ledger is not None and not isinstance(ledger, PrivacyAccountant):
        raise TypeError(f"ledger must be a PrivacyAccountant or None, got {type(ledger).__name__}.")
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {type(label).__name__} {label!r}.")
    if not isinstance(backend, pipeline_dp.pipeline_backend.PipelineBackend):
        raise TypeError(f"backend must be a PipelineDP backend such as pipeline_dp.LocalBackend() or "
                        f"pipeline_dp.SparkRDDBackend(sc), got {type(backend).__name__} {backend!r}.")
    if (isinstance(data, (str, bytes, pd.DataFrame, pd.Series, np.ndarray))
            or not (hasattr(data, "__iter__") or hasattr(data, "map"))):
        raise TypeError(f"data must be a list (or RDD) of (person, partition, value) tuples, e.g. from "
                        f"rows_for_pipeline(log); got {type(data).__name__}.")
    if max_partitions > _MAX_PIPELINE_BOUND:
        raise ValueError(f"max_partitions must be at most {_MAX_PIPELINE_BOUND}, got {max_partitions}; "
                         "a person contributes to far fewer partitions (see public_contribution_bounds).")


def _charge(ledger: PrivacyAccountant | None, epsilon: float, delta: float, label: str) -> None:
    if ledger is not None:
        # Charged when attempted: PipelineDP's own accountant does not stop a second analysis.
        ledger.spend(epsilon, delta, label=label)


def private_statistics(data: Iterable, backend, *, epsilon: float, delta: float = 0.0,
                       max_partitions: int, max_per_partition: int, min_value: float, max_value: float,
                       public_partitions: Sequence | None = None, ledger: PrivacyAccountant | None = None,
                       label: str = "PipelineDP count, sum and mean") -> pd.DataFrame:
    """DP count, sum and mean per partition with PipelineDP, on any backend, with the course's ledger.

    The same code runs locally (``pipeline_dp.LocalBackend()``, ``data`` a list of
    ``(person, partition, value)`` tuples) and on Spark (``pipeline_dp.SparkRDDBackend(sc)``, ``data`` an
    RDD of the same tuples). PipelineDP's ``NaiveBudgetAccountant`` splits ``(epsilon, delta)`` equally among
    the mechanisms the pipeline requests: with ``public_partitions`` given, the count and the sum get
    epsilon/2 each (delta is not used); with ``public_partitions=None``, the count, the sum and private
    partition selection get epsilon/3 each, and all of delta goes to partition selection (the Laplace count
    and sum use none). :func:`mic_dp_helpers.scale.budget.budget_split` reads this split from PipelineDP itself. The mean is the ratio of
    the count and the sum, post-processing that costs nothing. The whole amount is first charged to
    ``ledger`` if one is given, so a refused analysis never touches the data.

    A plain ``pipeline_dp.SparkRDDBackend`` is replaced by
    :class:`~mic_dp_helpers.scale.spark_backend.UniformSparkRDDBackend` (same Spark context), whose
    contribution bounding keeps a uniformly random subset of each person's rows, as the local backend does;
    PipelineDP's own Spark sampling favours the rows that come last. The result is collected once: the
    returned table is the release (collecting PipelineDP's lazy result again would draw fresh noise, a second
    release nobody charged).

    Neighbour relation: add or remove one person. Each value is clamped to ``[min_value, max_value]``
    (public bounds); contributions are bounded by ``max_partitions`` and ``max_per_partition``.

    Parameters
    ----------
    data : iterable
        ``(person, partition, value)`` tuples: a list (local backend) or an RDD (Spark).
    backend : pipeline_dp backend
        ``pipeline_dp.LocalBackend()`` or ``pipeline_dp.SparkRDDBackend(sc)``.
    epsilon : float
        Total epsilon (> 0).
    delta : float, default 0.0
        Total delta, in [0, 1); > 0 when the partitions are not public.
    max_partitions : int
        Partitions one person may contribute to (>= 1).
    max_per_partition : int
        Contributions per person and partition (>= 1).
    min_value, max_value : float
        Public bounds of each value.
    public_partitions : sequence, optional
        Public partition keys; without them the keys are chosen privately.
    ledger : PrivacyAccountant, optional
        Charged ``(epsilon, delta)`` before the data is read.
    label : str, optional
        Name of the spend in the ledger.

    Returns
    -------
    pandas.DataFrame
        Indexed by partition (sorted), columns ``count``, ``sum``, ``mean`` and the noise standard
        deviations ``count_sd`` and ``sum_sd`` PipelineDP reports.

    Examples
    --------
    >>> import pipeline_dp  # doctest: +SKIP
    >>> rows = rows_for_pipeline(purchase_log(2_000, rng=0))  # doctest: +SKIP
    >>> table = private_statistics(rows, pipeline_dp.LocalBackend(), epsilon=1.0, max_partitions=2,
    ...     max_per_partition=1, min_value=0.0, max_value=100.0, public_partitions=range(1, 367))  # doctest: +SKIP
    """
    import pipeline_dp

    epsilon = check_positive_float(epsilon, "epsilon")
    if not (isinstance(delta, (int, float)) and 0 <= delta < 1):
        raise ValueError(f"delta must be in [0, 1); got {delta!r}.")
    if public_partitions is None and delta == 0:
        raise ValueError("delta must be > 0 when the partitions are not public: private partition selection "
                         "needs a small delta (for instance 1e-6). Or pass public_partitions.")
    max_partitions = check_int_at_least(max_partitions, "max_partitions", 1)
    max_per_partition = check_int_at_least(max_per_partition, "max_per_partition", 1)
    sum_noise_scale(max_partitions, max_per_partition, min_value, max_value, epsilon)  # validates the bounds
    if not min_value < max_value:
        raise ValueError(f"min_value must be < max_value (public bounds of each value), got "
                         f"[{min_value}, {max_value}].")
    _check_pipeline_inputs(data, backend, max_partitions, ledger, label)
    if public_partitions is not None:
        if isinstance(public_partitions, (str, bytes)) or not hasattr(public_partitions, "__iter__"):
            raise TypeError(f"public_partitions must be None or a list of partition keys, e.g. range(1, 367); "
                            f"got {type(public_partitions).__name__} {public_partitions!r}.")
        public_partitions = list(public_partitions)
        for key in public_partitions:
            try:
                hash(key)
            except TypeError:
                raise TypeError(f"public_partitions must list partition keys (numbers or strings), got the "
                                f"unhashable {type(key).__name__} {key!r}.") from None
    backend = _uniform_backend(backend)
    _charge(ledger, epsilon, delta, label)

    accountant = pipeline_dp.NaiveBudgetAccountant(total_epsilon=epsilon, total_delta=delta)
    engine = pipeline_dp.DPEngine(accountant, backend)
    params = _aggregate_params(max_partitions, max_per_partition, min_value, max_value)
    result = engine.aggregate(data, params, _make_extractors(),
                              public_partitions=None if public_partitions is None else list(public_partitions))
    accountant.compute_budgets()
    records = [{"partition": key, "count": m.count, "sum": m.sum, "count_sd": m.count_noise_stddev,
                "sum_sd": m.sum_noise_stddev} for key, m in _collect(result)]
    frame = pd.DataFrame.from_records(records, columns=["partition", "count", "sum", "count_sd", "sum_sd"])
    # The mean is post-processing of the two DP releases (free), kept inside the public value bounds.
    frame.insert(2, "mean", (frame["sum"] / frame["count"].clip(lower=1.0)).clip(min_value, max_value))
    return frame.set_index("partition").sort_index()


def _person(row):
    return row[0]


def _partition_key(row):
    return row[1]


def _value(row):
    return row[2]


def _zero(row):
    return 0


def _make_extractors():
    import pipeline_dp

    return pipeline_dp.DataExtractors(privacy_id_extractor=_person, partition_extractor=_partition_key,
                                      value_extractor=_value)


def _aggregate_params(max_partitions, max_per_partition, min_value, max_value):
    import pipeline_dp

    return pipeline_dp.AggregateParams(
        metrics=[pipeline_dp.Metrics.COUNT, pipeline_dp.Metrics.SUM],
        noise_kind=pipeline_dp.NoiseKind.LAPLACE, max_partitions_contributed=max_partitions,
        max_contributions_per_partition=max_per_partition, min_value=float(min_value),
        max_value=float(max_value), output_noise_stddev=True)


def _uniform_backend(backend):
    """PipelineDP's own Spark backend, swapped for the one whose bounding is uniform (same Spark context)."""
    import pipeline_dp

    if type(backend) is pipeline_dp.SparkRDDBackend:
        from mic_dp_helpers.scale.spark_backend import UniformSparkRDDBackend

        return UniformSparkRDDBackend(backend._sc)
    return backend


def select_private_partitions(data: Iterable, backend, *, epsilon: float, delta: float, max_partitions: int,
                              ledger: PrivacyAccountant | None = None,
                              label: str = "PipelineDP partition selection") -> list:
    """The partition keys that may be released at all, chosen with PipelineDP's private partition selection.

    A key is kept with a probability that grows with the number of people who have it (after bounding
    each person to ``max_partitions`` keys); a key only one person has is almost never kept, so its
    existence does not reveal that person. (epsilon, delta)-DP for adding or removing one person.

    Parameters
    ----------
    data : iterable
        ``(person, partition, value)`` tuples: a list (local backend) or an RDD (Spark).
    backend : pipeline_dp backend
        ``pipeline_dp.LocalBackend()`` or ``pipeline_dp.SparkRDDBackend(sc)``.
    epsilon : float
        Epsilon of the selection (> 0).
    delta : float
        Delta of the selection, in (0, 1).
    max_partitions : int
        Partitions one person may contribute to (>= 1).
    ledger : PrivacyAccountant, optional
        Charged ``(epsilon, delta)`` before the data is read.
    label : str, optional
        Name of the spend in the ledger.

    Returns
    -------
    list
        The kept partition keys.

    Examples
    --------
    >>> import pipeline_dp  # doctest: +SKIP
    >>> keys = select_private_partitions(rows, pipeline_dp.LocalBackend(), epsilon=1.0, delta=1e-6,
    ...                                  max_partitions=1)  # doctest: +SKIP
    """
    import pipeline_dp

    epsilon = check_positive_float(epsilon, "epsilon")
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1) for partition selection; got {delta!r}.")
    max_partitions = check_int_at_least(max_partitions, "max_partitions", 1)
    _check_pipeline_inputs(data, backend, max_partitions, ledger, label)
    backend = _uniform_backend(backend)
    _charge(ledger, epsilon, delta, label)
    accountant = pipeline_dp.NaiveBudgetAccountant(total_epsilon=epsilon, total_delta=delta)
    engine = pipeline_dp.DPEngine(accountant, backend)
    extractors = pipeline_dp.DataExtractors(privacy_id_extractor=_person, partition_extractor=_partition_key,
                                            value_extractor=_zero)
    result = engine.select_partitions(data, pipeline_dp.SelectPartitionsParams(max_partitions_contributed=max_partitions),
                                      extractors)
    accountant.compute_budgets()
    return sorted(_collect(result))
