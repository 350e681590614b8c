"""Spark's Python worker daemon, with the course's libraries imported once, before it forks.

Spark starts one daemon per executor and forks a Python worker from it for each task. By default
every worker then imports PipelineDP (and NumPy, python-dp) itself. Imported here once, before the
fork, the import costs no time in the workers, and the pages of those modules that the workers do not
write to stay shared (lesson 09's workers went from about 110 to 80 MB of proportional memory each).
:func:`mic_dp_helpers.scale.spark.start_spark` names this module in ``spark.python.daemon.module``; nothing
else changes in how Spark runs the tasks.
"""

import numpy  # noqa: F401  (imported for the workers forked below)
import pipeline_dp  # noqa: F401
from pyspark import daemon

if __name__ == "__main__":
    daemon.manager()
