"""PipelineDP's Spark backend with uniform contribution bounding.

PipelineDP 0.3.1 bounds contributions with one backend operation, ``sample_fixed_per_key(col, n)``: for
each key (a person, or a (person, partition) pair) keep ``n`` of its values. ``LocalBackend`` keeps a
uniformly random ``n``-subset. ``SparkRDDBackend`` merges values pairwise inside ``reduceByKey`` with
``random.sample(x + y, n)``, which is not uniform (its docstring says so): a value that enters the reduction
early must survive every later merge, so, keeping 14 of 100 ordered values per key, the first ten were kept
with probability 0.002 and the last ten with 0.70 (measured 2026-11-26, 1, 2 or 8 partitions), against
0.14 for each on the local backend. Privacy is not affected (at most ``n`` values per key are kept whatever
the choice), but which contributions survive, and so the bias of every count, depends on where a row sits
in the files.

:class:`UniformSparkRDDBackend` replaces that one operation by **bottom-n sampling**: every value gets an
independent uniform random priority, and each key keeps the ``n`` values with the smallest priorities.
The ``n`` smallest of i.i.d. continuous priorities are a uniformly random ``n``-subset, whatever the order
of the values and however Spark splits and merges them, because "the ``n`` smallest" of a union is the
``n`` smallest of the two sides' ``n`` smallest: the merge is associative and commutative, so it runs
inside ``reduceByKey`` (map-side combine included) and never holds more than ``n`` values per key. (Ties
between two float64 priorities have probability about ``k**2 * 2**-54`` for ``k`` values of one key; a tie
is broken by position.) This is the priority or "bottom-k" sampling of Cohen and Kaplan (2007).

Everything else is PipelineDP's own Spark backend. In particular the bounding inside private partition
selection (``DPEngine.select_partitions``) does not call ``sample_fixed_per_key``: it groups each person's
partitions with ``group_by_key`` and keeps ``L0`` of them with ``np.random.choice`` (PipelineDP's
``choose_from_list_without_replacement``), a uniform choice on every backend, drawn from NumPy's global
random state. On Spark that state must differ between the forked Python workers;
:mod:`mic_dp_helpers.scale._spark_daemon` reseeds it in each one.
"""

from __future__ import annotations

import heapq
import itertools

import pipeline_dp

__all__ = ["UniformSparkRDDBackend", "keep_smallest"]


def keep_smallest(first: list, second: list, n: int) -> list:
    """Merge two lists of ``(priority, value)`` pairs, each sorted by priority, keeping the ``n`` smallest.

    Parameters
    ----------
    first, second : list of (float, object)
        Sorted by priority (the first item of each pair).
    n : int
        How many pairs to keep.

    Returns
    -------
    list of (float, object)
        The ``n`` pairs with the smallest priorities, sorted.

    Examples
    --------
    >>> keep_smallest([(0.1, "a"), (0.7, "b")], [(0.3, "c")], 2)
    [(0.1, 'a'), (0.3, 'c')]
    """
    return list(itertools.islice(heapq.merge(first, second, key=_priority), n))


def _priority(pair) -> float:
    return pair[0]


def _with_priorities(seed, stage: int):
    """A ``mapPartitionsWithIndex`` function giving each ``(key, value)`` a one-element list ``[(u, value)]``.

    Each Spark partition draws from its own generator: fresh operating-system entropy when ``seed`` is None,
    else one seeded by ``(seed, stage, partition index)`` so that a test can repeat a run.
    """

    def attach(index, items):
        import numpy as np

        rng = np.random.default_rng(None if seed is None else [seed, stage, index])
        for batch in _batches(items, 4096):
            priorities = rng.random(len(batch)).tolist()
            for (key, value), priority in zip(batch, priorities):
                yield key, [(priority, value)]

    return attach


def _batches(items, size: int):
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


class UniformSparkRDDBackend(pipeline_dp.SparkRDDBackend):
    """``pipeline_dp.SparkRDDBackend`` whose per-key sampling keeps a uniformly random subset.

    Use it wherever PipelineDP takes a backend: ``pipeline_dp.DPEngine(accountant,
    UniformSparkRDDBackend(sc))``. Only ``sample_fixed_per_key`` (the contribution bounding of
    ``DPEngine.aggregate``) differs from PipelineDP's Spark backend; the bounding before private partition
    selection is PipelineDP's own, already uniform (see the module docstring).

    Parameters
    ----------
    sc : pyspark.SparkContext
        The Spark context.
    seed : int or None, default None
        None (the default) draws the sampling priorities from fresh entropy on every run. An int makes the
        *choice of kept rows* repeatable for tests; PipelineDP's noise is never seeded.

    Examples
    --------
    >>> backend = UniformSparkRDDBackend(spark.sparkContext)  # doctest: +SKIP
    >>> backend.sample_fixed_per_key(sc.parallelize([("a", i) for i in range(10)]), 3).collect()  # doctest: +SKIP
    [('a', [7, 2, 9])]
    """

    def __init__(self, sc, seed: int | None = None):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise TypeError(f"seed must be None or a non-negative int, got {seed!r}.")
        super().__init__(sc)
        self._seed = seed
        # Each call gets its own stage number, so that seeded runs still draw fresh priorities per stage.
        self._stages = itertools.count()

    def sample_fixed_per_key(self, rdd, n: int, stage_name: str | None = None):
        """For each key, a uniformly random ``n``-subset of its values (all of them if it has fewer).

        Parameters
        ----------
        rdd : pyspark.RDD
            ``(key, value)`` pairs.
        n : int
            Values to keep per key.
        stage_name : str, optional
            Unused (PipelineDP's interface).

        Returns
        -------
        pyspark.RDD
            ``(key, [value, ...])``, like PipelineDP's backends.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be an int >= 1 (values to keep per key), got {n!r}.")
        attach = _with_priorities(self._seed, next(self._stages))
        return (rdd.mapPartitionsWithIndex(attach, preservesPartitioning=True)
                .reduceByKey(lambda x, y: keep_smallest(x, y, n))
                .mapValues(lambda pairs: [value for _, value in pairs[:n]]))
