"""Spark's Python worker daemon, with the course's libraries imported once, before it forks.

Spark starts one daemon per executor and forks its Python workers from it. By default
every worker then imports PipelineDP (and NumPy, python-dp) itself. Imported here once, before the
fork, the import costs no time in the workers, and the pages of those modules that the workers do not
write to stay shared (lesson 09's workers went from about 110 to 80 MB of proportional memory each).
:func:`mic_dp_helpers.scale.spark.start_spark` names this module in ``spark.python.daemon.module``; nothing
else changes in how Spark runs the tasks.

The daemon then freezes its objects (:func:`gc.freeze`): the garbage collector of a forked worker no
longer writes to the daemon's objects, so fewer of their pages are copied into each worker.

NumPy's global random state is seeded when NumPy is imported, so a worker forked after the import would
inherit the daemon's state: every worker (each runs many tasks, as :func:`start_spark` sets
``spark.python.worker.reuse``) would make the same ``np.random`` draws. PipelineDP draws from that global
state, for example when :meth:`pipeline_dp.DPEngine.select_partitions` keeps each person's ``L0``
partitions (``sampling_utils.choose_from_list_without_replacement``), and identical draws in every worker
would make that choice the same for everyone with the same partitions, in every job. So each forked worker
reseeds NumPy's global state from fresh operating-system entropy (:func:`os.register_at_fork`). Python's own
:mod:`random` is reseeded at fork by CPython; python-dp's noise draws from its own secure source.
"""

import gc
import os

import numpy
import pipeline_dp  # noqa: F401
from pyspark import daemon


def _reseed_numpy() -> None:
    """Give a forked worker its own NumPy global random state (``seed()`` with no argument: OS entropy)."""
    numpy.random.seed()


os.register_at_fork(after_in_child=_reseed_numpy)
gc.freeze()

if __name__ == "__main__":
    daemon.manager()
