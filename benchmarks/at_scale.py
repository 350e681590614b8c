"""Rows per second of lesson 09's PipelineDP pipeline on the local backend and on Spark.

Usage: ``.venv/bin/python benchmarks/at_scale.py [--sizes 100000 1000000] [--master local[2]]``

Each size runs the same ``mic_dp_helpers.scale.pipeline.private_statistics`` (DP count and sum per day, bounds
L0 = 14 days and L-infinity = 1 purchase, epsilon = 1) once per backend. Spark's start-up is timed apart
from the pipeline. Prints a Markdown table for the README.
"""

from __future__ import annotations

import argparse
import time
import warnings

warnings.filterwarnings("ignore")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()

    import pipeline_dp

    from mic_dp_helpers.scale.pipeline import private_statistics, purchase_log, rows_for_pipeline
    from mic_dp_helpers.scale.spark import start_spark

    settings = dict(epsilon=1.0, max_partitions=14, max_per_partition=1, min_value=0.0, max_value=150.0,
                    public_partitions=range(1, 367))
    started = time.perf_counter()
    spark = start_spark(args.master, app_name="benchmark")
    spark.sparkContext.parallelize(range(10), 2).sum()  # starts the Python workers too
    spark_start = time.perf_counter() - started
    print(f"Spark {spark.version} ({args.master}) start-up: {spark_start:.1f} s\n")
    print("| rows | backend | seconds | rows per second |\n|---:|---|---:|---:|")
    for size in args.sizes:
        rows = rows_for_pipeline(purchase_log(size, rng=0))
        for name, backend, data in (("local", pipeline_dp.LocalBackend(), lambda: rows),
                                    (f"Spark {args.master}", pipeline_dp.SparkRDDBackend(spark.sparkContext),
                                     lambda: spark.sparkContext.parallelize(rows, 4))):
            started = time.perf_counter()
            private_statistics(data(), backend, **settings)
            seconds = time.perf_counter() - started
            print(f"| {len(rows):,} | {name} | {seconds:.1f} | {len(rows) / seconds:,.0f} |", flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
