"""Lesson 09's job: daily DP statistics of the purchase log, from files to files, with one ledger.

Run it on the local backend, on Spark on this machine, or on a Spark cluster::

    python -m mic_dp_helpers.scale.job DATA OUT.csv --backend local ...
    spark-submit --master local[2] mic_dp_helpers/scale/job.py DATA OUT.csv --backend spark ...
    spark-submit --master spark://127.0.0.1:7077 --py-files mic_dp_helpers.zip \\
        mic_dp_helpers/scale/job.py DATA OUT.csv --backend spark ...

``DATA`` is a folder of CSV part files written by :func:`write_purchase_files` (on a cluster, a folder on
shared storage that every executor can read: HDFS, S3, a network file system). The job

1. loads the data's ledger (``DATA/ledger.json``, created with the total budget on first use) and charges
   it *before* reading a row, so a refused job never touches the data;
2. reads the purchases and runs :func:`~mic_dp_helpers.scale.pipeline.private_statistics` (DP count, sum
   and mean per public day) on the chosen backend;
3. writes the result **once** to ``OUT.csv`` (it refuses to overwrite a release) and saves the ledger.

Reading ``OUT.csv`` again is free post-processing; running the job again is a new release, charged again.
The ledger file belongs to the data, not to a job: every analysis of that data is recorded in it (this
simple version serialises jobs on one machine or shared file system with an exclusive ``fcntl.flock`` on
``DATA/ledger.json.lock``, held from loading the ledger to saving it, so two concurrent jobs cannot both
pass the charge; where ``fcntl`` is missing (Windows) it assumes one job at a time; a team would keep the
ledger in a transactional table).

Neighbour relation: adding or removing one customer with all of their purchases. Public: the bounds passed
on the command line, the amount bounds and the days of 2024.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["write_purchase_files", "read_purchase_log", "read_purchase_rows", "load_ledger", "save_ledger", "ledger_lock", "run_job", "read_release",
           "main", "COLUMNS"]

#: Columns of the part files, in order.
COLUMNS = ("customer_id", "day", "product", "amount")
LEDGER_FILE = "ledger.json"
LOCK_SUFFIX = ".lock"


def write_purchase_files(folder: str | os.PathLike, n_rows: int, n_files: int = 4,
                         rng: int | np.random.Generator | None = 0) -> Path:
    """Write a purchase log of about ``n_rows`` rows as ``n_files`` CSV part files, as a data lake holds it.

    Each part is made by :func:`~mic_dp_helpers.scale.pipeline.purchase_log` with its own seed (derived from
    ``rng`` and the part's number) and holds its own customers (ids prefixed by the part), so a
    customer's rows sit in one file, in date order, as a shop's export would write them. Generated one part
    at a time, so ``10**7`` rows never sit in memory at once.

    Parameters
    ----------
    folder : path
        A new or empty folder.
    n_rows : int
        Approximate total number of rows.
    n_files : int, default 4
        Number of part files.
    rng : int, Generator or None, default 0
        Seed.

    Returns
    -------
    pathlib.Path
        The folder.

    Examples
    --------
    >>> import tempfile
    >>> folder = write_purchase_files(tempfile.mkdtemp(), 2_000, n_files=2)
    >>> sorted(p.name for p in folder.glob("part-*.csv"))
    ['part-00000.csv', 'part-00001.csv']
    """
    from mic_dp_helpers._validation import as_generator, check_int_at_least
    from mic_dp_helpers.scale.pipeline import purchase_log

    n_rows = check_int_at_least(n_rows, "n_rows", 10)
    n_files = check_int_at_least(n_files, "n_files", 1)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        raise FileExistsError(f"folder {str(folder)!r} is not empty; write the purchase files to a new folder.")
    seeds = as_generator(rng, "rng").spawn(n_files)  # one independent stream per part
    for part, seed in enumerate(seeds):
        log = purchase_log(max(10, n_rows // n_files), rng=seed)
        log = log.assign(customer_id=f"F{part}-" + log["customer_id"].astype(str))
        log[list(COLUMNS)].to_csv(folder / f"part-{part:05d}.csv", index=False)
    return folder


def _part_files(folder: Path) -> list[Path]:
    parts = sorted(Path(folder).glob("part-*.csv"))
    if not parts:
        raise FileNotFoundError(f"no part-*.csv files in {str(folder)!r}: write them with write_purchase_files.")
    return parts


def read_purchase_log(folder: str | os.PathLike) -> pd.DataFrame:
    """The part files as one table (columns :data:`COLUMNS`).

    Parameters
    ----------
    folder : path
        Folder of ``part-*.csv`` files.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> log = read_purchase_log(folder)  # doctest: +SKIP
    """
    frames = [pd.read_csv(part, dtype={"customer_id": str, "product": str}) for part in _part_files(Path(folder))]
    return pd.concat(frames, ignore_index=True)


def read_purchase_rows(folder: str | os.PathLike) -> list[tuple]:
    """All ``(customer_id, day, amount)`` rows of the part files, for the local backend.

    Parameters
    ----------
    folder : path
        Folder of ``part-*.csv`` files.

    Returns
    -------
    list of tuple

    Examples
    --------
    >>> rows = read_purchase_rows(folder)  # doctest: +SKIP
    """
    from mic_dp_helpers.scale.pipeline import rows_for_pipeline

    return rows_for_pipeline(read_purchase_log(folder))


def _spark_rows(spark, folder: Path):
    """The same rows as an RDD, read by the executors (on a cluster, from shared storage).

    The part files are read as text and parsed with Python's ``csv`` module: the same rows as
    :func:`read_purchase_rows` (pandas), quoted fields included. Spark's DataFrame CSV reader differs on
    doubled quotes inside a quoted field (it keeps them), and its query planner adds seconds and memory to
    the first job of a laptop's session; the pipeline needs an RDD of tuples anyway.
    """
    _part_files(folder)  # a clear error before Spark's own
    lines = spark.sparkContext.textFile(str(Path(folder).resolve() / "part-*.csv"))
    return lines.mapPartitions(_parse_part_lines)


def _parse_part_lines(lines):
    """``(customer_id, day, amount)`` from the lines of part files (columns :data:`COLUMNS`, headers skipped)."""
    import csv

    header = list(COLUMNS)
    for record in csv.reader(lines):
        if record and record != header:
            yield record[0], int(record[1]), float(record[3])


# ------------------------------------------------------------------------------------------ the ledger
def load_ledger(path: str | os.PathLike, total_epsilon: float, total_delta: float = 0.0):
    """The data's ledger from ``path`` (a JSON file), or a new one with this total if the file does not exist.

    A stored ledger keeps its own total: asking for another total is an error (a budget is set once per
    dataset, not per job).

    Parameters
    ----------
    path : path
        The ledger's JSON file (it need not exist yet).
    total_epsilon, total_delta : float
        The data's total budget.

    Returns
    -------
    PrivacyAccountant
        With every recorded spend replayed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> ledger = load_ledger(pathlib.Path(tempfile.mkdtemp()) / "ledger.json", 3.0)
    >>> ledger.spent_epsilon
    0.0
    """
    from mic_dp_helpers.accounting.ledger import PrivacyAccountant

    path = Path(path)
    if not path.exists():
        return PrivacyAccountant(total_epsilon, total_delta)
    stored = json.loads(path.read_text())
    if (stored["total_epsilon"], stored["total_delta"]) != (float(total_epsilon), float(total_delta)):
        raise ValueError(f"the ledger at {str(path)!r} has total budget ({stored['total_epsilon']}, "
                         f"{stored['total_delta']}), not ({total_epsilon}, {total_delta}): a dataset's budget is "
                         "fixed when its ledger is created.")
    ledger = PrivacyAccountant(stored["total_epsilon"], stored["total_delta"])
    for entry in stored["entries"]:
        if entry["kind"] == "parallel":
            ledger.spend_parallel(entry["parts"], label=entry["label"], deltas=entry.get("delta_parts"))
        else:
            ledger.spend(entry["epsilon"], entry["delta"], label=entry["label"])
    return ledger


def save_ledger(ledger, path: str | os.PathLike) -> None:
    """Write ``ledger`` to ``path`` as JSON (atomically: a crash leaves the old file or the new one).

    Parameters
    ----------
    ledger : PrivacyAccountant
        The data's ledger.
    path : path
        The JSON file.

    Examples
    --------
    >>> save_ledger(ledger, "ledger.json")  # doctest: +SKIP
    """
    path = Path(path)
    entries = [{"label": e.label, "epsilon": e.epsilon, "delta": e.delta, "kind": e.kind, "parts": list(e.parts)}
               for e in ledger.ledger]
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"total_epsilon": ledger.total_epsilon, "total_delta": ledger.total_delta,
                                     "entries": entries}, indent=1))
    temporary.replace(path)


# ------------------------------------------------------------------------------------------ the job
@contextlib.contextmanager
def ledger_lock(path: str | os.PathLike):
    """Hold an exclusive lock on the ledger at ``path`` (a ``.lock`` file beside it) for the ``with`` block.

    A second job waits until the first has saved its charge, then loads the updated ledger. It uses
    ``fcntl.flock`` (Linux, macOS; on a network file system only if it supports flock); where ``fcntl`` is
    missing it does not lock, and the ledger assumes one job at a time.

    Parameters
    ----------
    path : path
        The ledger's JSON file (it need not exist yet; its folder must).

    Yields
    ------
    pathlib.Path
        The lock file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with ledger_lock(pathlib.Path(tempfile.mkdtemp()) / "ledger.json") as lock:
    ...     lock.name
    'ledger.json.lock'
    """
    lock = Path(path).with_name(Path(path).name + LOCK_SUFFIX)
    try:
        import fcntl
    except ImportError:  # Windows: no flock; one job at a time
        yield lock
        return
    with open(lock, "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield lock
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def run_job(data: str | os.PathLike, output: str | os.PathLike, *, backend: str = "local", spark=None,
            epsilon: float, max_partitions: int, max_per_partition: int, min_value: float = 0.0,
            max_value: float = 150.0, total_epsilon: float = 3.0, total_delta: float = 1e-6,
            label: str | None = None) -> pd.DataFrame:
    """Charge the data's ledger, compute DP daily statistics on ``backend`` and write them once to ``output``.

    Parameters
    ----------
    data : path
        Folder of part files (:func:`write_purchase_files`); its ``ledger.json`` is the data's ledger.
    output : path
        CSV file to create; an existing file is never overwritten (that would be a second release).
    backend : {"local", "spark"}
        PipelineDP's local backend, or Spark.
    spark : pyspark.sql.SparkSession, optional
        The session to run on when ``backend="spark"`` (default: start one with the master ``spark-submit``
        was given).
    epsilon : float
        Budget of this job (split by PipelineDP between the count and the sum).
    max_partitions, max_per_partition : int
        Public contribution bounds.
    min_value, max_value : float
        Public bounds of an amount.
    total_epsilon, total_delta : float
        The data's total budget, used when its ledger is created.
    label : str, optional
        Ledger label (default: says which backend ran).

    Returns
    -------
    pandas.DataFrame
        The released table, as read back from ``output``.

    Examples
    --------
    >>> table = run_job(folder, "daily.csv", epsilon=1.0, max_partitions=8, max_per_partition=1)  # doctest: +SKIP
    """
    if backend not in ("local", "spark"):
        raise ValueError(f"backend must be 'local' or 'spark', got {backend!r}.")
    data, output = Path(data), Path(output)
    if output.exists():
        raise FileExistsError(f"{str(output)!r} exists: a release is written once. Read it with read_release, or "
                              "choose a new file for a new (charged) release.")
    _part_files(data)
    with ledger_lock(data / LEDGER_FILE):
        return _charged_job(data, output, backend, spark, epsilon, max_partitions, max_per_partition, min_value,
                            max_value, total_epsilon, total_delta, label)


def _charged_job(data: Path, output: Path, backend, spark, epsilon, max_partitions, max_per_partition, min_value,
                 max_value, total_epsilon, total_delta, label) -> pd.DataFrame:
    """run_job's work, with the ledger's lock held: charge, compute, save the ledger, write the release."""
    import pipeline_dp

    from mic_dp_helpers.scale.pipeline import private_statistics

    if output.exists():  # checked again under the lock: a concurrent job may have written it meanwhile
        raise FileExistsError(f"{str(output)!r} exists: a release is written once. Read it with read_release, or "
                              "choose a new file for a new (charged) release.")
    ledger_path = data / LEDGER_FILE
    ledger = load_ledger(ledger_path, total_epsilon, total_delta)
    # A refused job must not read a row: try the charge on a throwaway copy of the ledger first.
    load_ledger(ledger_path, total_epsilon, total_delta).spend(epsilon, 0.0, label=label or "daily statistics")
    if backend == "spark":
        if spark is None:
            from mic_dp_helpers.scale.spark import start_spark

            spark = start_spark(None, app_name="daily-statistics")
        rows, engine_backend = _spark_rows(spark, data), pipeline_dp.SparkRDDBackend(spark.sparkContext)
        where = f"Spark {spark.sparkContext.master}"
    else:
        rows, engine_backend, where = read_purchase_rows(data), pipeline_dp.LocalBackend(), "local backend"
    try:
        table = private_statistics(rows, engine_backend, epsilon=epsilon, max_partitions=max_partitions,
                                   max_per_partition=max_per_partition, min_value=min_value, max_value=max_value,
                                   public_partitions=range(1, 367), ledger=ledger,
                                   label=label or f"daily count and sum, {where}")
    finally:
        save_ledger(ledger, ledger_path)  # charged when attempted, also if the job failed after the charge
    output.parent.mkdir(parents=True, exist_ok=True)
    temporary = output.with_name(output.name + ".partial")
    table.to_csv(temporary)
    temporary.replace(output)
    return read_release(output)


def read_release(path: str | os.PathLike) -> pd.DataFrame:
    """Read a released table written by :func:`run_job` (free: it is post-processing of one release).

    Parameters
    ----------
    path : path
        The CSV file :func:`run_job` wrote.

    Returns
    -------
    pandas.DataFrame
        Indexed by partition.

    Examples
    --------
    >>> read_release("daily.csv").columns.tolist()  # doctest: +SKIP
    ['count', 'mean', 'sum', 'count_sd', 'sum_sd']
    """
    return pd.read_csv(Path(path), index_col="partition")


def main(argv: list[str] | None = None) -> int:
    """Command line of the job (see the module docstring).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status, 0 when the release was written.
    """
    parser = argparse.ArgumentParser(prog="daily_statistics", description=__doc__.splitlines()[0])
    parser.add_argument("data", help="folder of part-*.csv files (and the data's ledger.json)")
    parser.add_argument("output", help="CSV file to write the release to (must not exist)")
    parser.add_argument("--backend", choices=["local", "spark"], default="spark")
    parser.add_argument("--epsilon", type=float, required=True)
    parser.add_argument("--max-partitions", type=int, required=True)
    parser.add_argument("--max-per-partition", type=int, required=True)
    parser.add_argument("--min-value", type=float, default=0.0)
    parser.add_argument("--max-value", type=float, default=150.0)
    parser.add_argument("--total-epsilon", type=float, default=3.0)
    parser.add_argument("--total-delta", type=float, default=1e-6)
    parser.add_argument("--label", default=None)
    args = parser.parse_args(argv)
    spark = None
    if args.backend == "spark":
        from mic_dp_helpers.scale.spark import start_spark

        spark = start_spark(None, app_name="daily-statistics")  # the master spark-submit was given
    try:
        table = run_job(args.data, args.output, backend=args.backend, spark=spark, epsilon=args.epsilon,
                        max_partitions=args.max_partitions, max_per_partition=args.max_per_partition,
                        min_value=args.min_value, max_value=args.max_value, total_epsilon=args.total_epsilon,
                        total_delta=args.total_delta, label=args.label)
    finally:
        if spark is not None:
            spark.stop()
    print(f"released {len(table)} days to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
