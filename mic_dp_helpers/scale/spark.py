"""Start Apache Spark for the course.

Spark's Python workers must run the kernel's own interpreter (``PYSPARK_PYTHON``), or they fail with
``ModuleNotFoundError: pipeline_dp``: :func:`start_spark` sets it. The Java runtime comes from
:mod:`mic_dp_helpers.java_runtime`.
"""

from __future__ import annotations

import os
import re
import sys

from mic_dp_helpers.java_runtime import _quiet_conf_dir, java_home

__all__ = ["start_spark"]


def start_spark(master: str = "local[2]", app_name: str = "hands-on-dp", *, memory: str = "512m"):
    """Start (or return the running) Spark session for a lesson, quietly, with no web UI.

    Parameters
    ----------
    master : str
        Spark master URL. ``"local[2]"`` uses two cores of this machine; on a cluster this is the
        only line that changes (``"spark://host:7077"``, ``"yarn"``, ...).
    app_name : str
        Name shown in Spark's logs.
    memory : str
        Driver memory (the workers of ``local`` mode live in the driver).

    Returns
    -------
    pyspark.sql.SparkSession

    Examples
    --------
    >>> spark = start_spark("local[1]")  # doctest: +SKIP
    >>> spark.sparkContext.parallelize(range(10)).sum()  # doctest: +SKIP
    45
    """
    if not isinstance(master, str) or not master:
        raise ValueError(f"master must be a Spark master URL such as 'local[2]'; got {master!r}.")
    if not isinstance(app_name, str) or not app_name.strip():
        raise ValueError(f"app_name must be a non-empty string; got {app_name!r}.")
    if not isinstance(memory, str) or not re.fullmatch(r"[1-9]\d*[kmgt]?", memory.strip().lower()):
        raise ValueError(f"memory must be a JVM memory size such as '512m' or '2g'; got {memory!r}.")
    os.environ["JAVA_HOME"] = str(java_home())
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    log_config = _quiet_conf_dir() / "log4j2.properties"
    if master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # a laptop's Spark listens on loopback only
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", memory)
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.extraJavaOptions",
                f"-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss4m -Dlog4j2.configurationFile=file:{log_config}")
        .config("spark.python.worker.reuse", "false")
        .config("spark.python.daemon.module", "mic_dp_helpers.scale._spark_daemon")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session
