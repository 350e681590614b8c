"""Start Apache Spark for the course.

Spark's Python workers must run the kernel's own interpreter (``PYSPARK_PYTHON``), or they fail with
``ModuleNotFoundError: pipeline_dp``: :func:`start_spark` sets it. The Java runtime comes from
:mod:`mic_dp_helpers.java_runtime`.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from concurrent.futures import Future

from mic_dp_helpers.java_runtime import _quiet_conf_dir, java_home

__all__ = ["start_spark", "start_spark_in_background", "is_local_master"]


def start_spark(master: str | None = "local[2]", app_name: str = "hands-on-dp", *, memory: str = "512m"):
    """Start (or return the running) Spark session for a lesson or a job, quietly, with no web UI.

    Parameters
    ----------
    master : str or None, default "local[2]"
        Spark master URL. ``"local[2]"`` runs Spark inside this process on two cores of this machine;
        ``"spark://host:7077"`` (a standalone cluster), ``"yarn"`` or ``"k8s://..."`` run executors in their
        own JVMs on other processes or machines. None takes the master ``spark-submit --master`` was given
        (a job script should not name its cluster).
    app_name : str
        Name shown in Spark's logs.
    memory : str
        Driver memory, applied only in local mode, where the executors live in the driver (on a cluster it
        is ``spark-submit --driver-memory``'s business).

    Returns
    -------
    pyspark.sql.SparkSession

    Notes
    -----
    Settings for a 2-core laptop (2 shuffle partitions, parallelism 2, the driver's memory, a JVM tuned to
    start fast and a small initial heap that grows as needed (the JVM's default, 1/64 of the machine's
    memory, made the driver touch about 80 MB more on a 23 GB machine), Python workers forked from a daemon that imports PipelineDP once:
    :mod:`mic_dp_helpers.scale._spark_daemon`, which needs the course package where the workers run; each
    worker reused for later tasks, and at most two idle workers kept, one per core) are
    applied only when the master is ``local`` or ``local[...]``. On a cluster Spark's own defaults apply, and
    the course package reaches the executors with ``spark-submit --py-files`` (see
    :mod:`mic_dp_helpers.scale.cluster`). Every master gets the quiet log settings and no web UI.

    Examples
    --------
    >>> spark = start_spark("local[1]")  # doctest: +SKIP
    >>> spark.sparkContext.parallelize(range(10)).sum()  # doctest: +SKIP
    45
    """
    _check_settings(master, app_name, memory)
    os.environ["JAVA_HOME"] = str(java_home())
    log_config = _quiet_conf_dir() / "log4j2.properties"
    if master is None:
        master = _submitted_master()
    local = is_local_master(master)
    # Python workers run this interpreter; on a cluster a PYSPARK_PYTHON set for the executors is kept.
    if local or not os.environ.get("PYSPARK_PYTHON"):
        os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    if local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # a laptop's Spark listens on loopback only
    from pyspark.sql import SparkSession

    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    if local:
        builder = (builder.config("spark.driver.memory", memory)
                   .config("spark.sql.shuffle.partitions", "2")
                   .config("spark.default.parallelism", "2")
                   .config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss4m -Xms64m "
                           f"-Dlog4j2.configurationFile=file:{log_config}")
                   .config("spark.python.worker.reuse", "true")
                   .config("spark.python.factory.idleWorkerMaxPoolSize", "2")
                   .config("spark.python.daemon.module", "mic_dp_helpers.scale._spark_daemon"))
    else:
        builder = builder.config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{log_config}")
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session


def start_spark_in_background(master: str | None = "local[2]", app_name: str = "hands-on-dp", *,
                              memory: str = "512m", warm_up: bool = True) -> Future:
    """Start Spark in a background thread, so that a notebook can go on while Java starts.

    Spark's JVM and its Python workers take several seconds to start on a laptop. A lesson that calls
    this early does its local work meanwhile and waits only for what is left, with ``future.result()``.

    Parameters
    ----------
    master, app_name, memory
        As in :func:`start_spark` (checked now, before the thread starts).
    warm_up : bool, default True
        Also run a job on two public numbers, so that Spark's Python workers exist before the first real
        job. It reads no data.

    Returns
    -------
    concurrent.futures.Future
        Its ``result()`` is the :class:`pyspark.sql.SparkSession` (or raises what starting Spark raised);
        once done, its ``start_seconds`` says how long the start took (warm-up included).

    Examples
    --------
    >>> starting = start_spark_in_background("local[2]")  # doctest: +SKIP
    >>> spark = starting.result()  # doctest: +SKIP
    """
    _check_settings(master, app_name, memory)
    if not isinstance(warm_up, bool):
        raise TypeError(f"warm_up must be True or False; got {warm_up!r}.")
    future: Future = Future()
    future.start_seconds = None

    def start():
        began = time.perf_counter()
        try:
            session = start_spark(master, app_name, memory=memory)
            if warm_up:
                session.sparkContext.parallelize([0, 1], 2).count()
        except BaseException as error:  # handed to whoever calls future.result()
            future.set_exception(error)
            return
        future.start_seconds = time.perf_counter() - began
        future.set_result(session)

    future.set_running_or_notify_cancel()
    threading.Thread(target=start, name="start-spark", daemon=True).start()
    return future


def _check_settings(master, app_name, memory) -> None:
    """start_spark's argument checks, made before anything starts."""
    if master is not None and (not isinstance(master, str) or not master):
        raise ValueError(f"master must be a Spark master URL such as 'local[2]', or None; got {master!r}.")
    if not isinstance(app_name, str) or not app_name.strip():
        raise ValueError(f"app_name must be a non-empty string; got {app_name!r}.")
    if not isinstance(memory, str) or not re.fullmatch(r"[1-9]\d*[kmgt]?", memory.strip().lower()):
        raise ValueError(f"memory must be a JVM memory size such as '512m' or '2g'; got {memory!r}.")


def is_local_master(master: str) -> bool:
    """Whether ``master`` runs Spark inside the driver (``local``, ``local[2]``, ``local[*]``, ``local[2,3]``).

    ``local-cluster[...]`` is not local: its executors are separate JVMs.

    Parameters
    ----------
    master : str
        A Spark master URL.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_local_master("local[2]"), is_local_master("local-cluster[2,1,512]"), is_local_master("spark://h:7077")
    (True, False, False)
    """
    return bool(re.fullmatch(r"local(\[[^\]]*\])?", master.strip()))


def _submitted_master() -> str:
    """The master ``spark-submit`` passed to this driver, or ``local[2]`` when run without it."""
    if not os.environ.get("PYSPARK_GATEWAY_PORT"):
        return "local[2]"
    from pyspark import SparkConf, SparkContext

    SparkContext._ensure_initialized()  # connects to spark-submit's JVM, whose system properties hold the master
    return SparkConf().get("spark.master", "local[2]")
