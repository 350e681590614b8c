"""Rows per second and peak memory of lesson 09's job on the local backend, Spark local[2] and a standalone cluster.

Usage::

    .venv/bin/python benchmarks/at_scale.py [--sizes 100000 1000000 10000000] \
        [--backends local spark-local cluster]

For each size the purchase log is written once as 4 CSV part files (``write_purchase_files``, not timed).
Each backend then runs the same job, ``mic_dp_helpers/scale/job.py`` (DP count and sum per public day,
L0 = 14 days, L-infinity = 1 purchase, epsilon = 1; the bounds lesson 09 reads from its public panel),
in fresh processes, from the files to one written release:

* ``local``: ``python -m mic_dp_helpers.scale.job --backend local`` (PipelineDP's local backend);
* ``spark-local``: ``spark-submit --master local[2] job.py --backend spark`` (one JVM, two cores);
* ``cluster``: ``standalone_cluster(n_workers=2)`` (a master and two 1-core workers on loopback, executors
  in their own JVMs), then ``spark-submit`` to it. The cluster's start-up is timed apart.

"seconds" is wall time of the whole command, JVM and Python start-up included (what a user waits for).
"peak memory" is the largest sum, sampled every 0.2 s, of the resident memory of every process the run
started (driver, JVMs, Python workers; for the cluster also its master and workers). Prints a Markdown
table for the README. Each run releases on a benchmark-only synthetic dataset, charged to its own ledger.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")

JOB_ARGUMENTS = ["--epsilon", "1", "--max-partitions", "14", "--max-per-partition", "1", "--total-epsilon", "100"]


class PeakMemory:
    """Samples the summed RSS of a set of process trees in a thread; ``peak`` is the largest sum, in MB."""

    def __init__(self, roots):
        import psutil

        self._psutil, self._roots, self.peak = psutil, list(roots), 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def add(self, pid: int) -> None:
        self._roots.append(pid)

    def _total(self) -> float:
        seen, total = set(), 0
        for pid in list(self._roots):
            try:
                root = self._psutil.Process(pid)
                for process in [root, *root.children(recursive=True)]:
                    if process.pid not in seen:
                        seen.add(process.pid)
                        total += process.memory_info().rss
            except self._psutil.Error:
                continue
        return total / 2**20

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._total())
            time.sleep(0.2)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def _run(command, env, memory: PeakMemory) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    memory.add(process.pid)
    _, stderr = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"{command[0]} failed:\n{stderr[-2000:]}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    parser.add_argument("--backends", nargs="+", default=["local", "spark-local", "cluster"],
                        choices=["local", "spark-local", "cluster"])
    args = parser.parse_args()

    from mic_dp_helpers.java_runtime import java_home
    from mic_dp_helpers.scale.cluster import JOB_SCRIPT, spark_home, standalone_cluster
    from mic_dp_helpers.scale.job import write_purchase_files

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root), JAVA_HOME=str(java_home()), SPARK_LOCAL_IP="127.0.0.1",
               PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at start\n")
    print("| rows | backend | seconds | rows per second | peak memory (MB) |\n|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="at-scale-") as work:
        for size in args.sizes:
            data = write_purchase_files(Path(work) / f"data-{size}", size, n_files=4, rng=0)
            n_rows = sum(sum(1 for _ in open(part)) - 1 for part in data.glob("part-*.csv"))
            for backend in args.backends:
                output = Path(work) / f"out-{size}-{backend}.csv"
                cluster_start = None
                if backend == "local":
                    command = [sys.executable, "-m", "mic_dp_helpers.scale.job", str(data), str(output),
                               "--backend", "local", *JOB_ARGUMENTS]
                    with PeakMemory([]) as memory:
                        seconds = _run(command, env, memory)
                elif backend == "spark-local":
                    command = [str(spark_home() / "bin" / "spark-submit"), "--master", "local[2]", str(JOB_SCRIPT),
                               str(data), str(output), "--backend", "spark", *JOB_ARGUMENTS]
                    with PeakMemory([]) as memory:
                        seconds = _run(command, env, memory)
                else:
                    started = time.perf_counter()
                    with standalone_cluster(n_workers=2) as cluster:
                        cluster_start = time.perf_counter() - started
                        with PeakMemory([p.pid for p in cluster._processes]) as memory:
                            command = cluster.submit_command(JOB_SCRIPT, [data, output, "--backend", "spark",
                                                                          *JOB_ARGUMENTS])
                            seconds = _run(command, cluster._env, memory)
                name = backend if cluster_start is None else f"cluster (2 workers; start-up {cluster_start:.0f} s apart)"
                print(f"| {n_rows:,} | {name} | {seconds:.1f} | {n_rows / seconds:,.0f} | {memory.peak:,.0f} |",
                      flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
