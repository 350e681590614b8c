"""Checks of mic_dp_helpers.scale.spark and .cluster that run without starting Java (lesson 09 runs Spark itself).

The settings start_spark gives each kind of master are read from its builder (its getOrCreate replaced);
a timed-out submission is simulated with a shell script that starts a child, as spark-submit starts the driver.
"""

import pytest

from mic_dp_helpers.scale.spark import start_spark, start_spark_in_background


@pytest.mark.parametrize("kwargs, match", [
    (dict(master=""), "master must be a Spark master URL"),
    (dict(app_name=None), "app_name must be a non-empty string"),
    (dict(memory=512), "memory must be a JVM memory size"),
    (dict(memory="lots"), "memory must be a JVM memory size"),
])
def test_start_spark_checks_its_settings_before_starting_java(kwargs, match):
    with pytest.raises(ValueError, match=match):
        start_spark(**kwargs)
    with pytest.raises(ValueError, match=match):  # in the caller, not later in the background thread
        start_spark_in_background(**kwargs)


@pytest.mark.parametrize("cache_dir", [5, ["dir"]])
def test_java_home_needs_a_folder_path(cache_dir):
    from mic_dp_helpers.java_runtime import java_home

    with pytest.raises(TypeError, match="cache_dir must be a folder path"):
        java_home(cache_dir)


class _CapturedSession:
    """What start_spark's builder would have made: its options, and a context that takes setLogLevel."""

    def __init__(self, options):
        self.options = dict(options)
        self.sparkContext = self

    def setLogLevel(self, level):
        self.level = level


def _built_options(monkeypatch, master):
    """start_spark(master)'s builder options and environment, captured instead of starting Java."""
    from pyspark.sql import SparkSession

    import mic_dp_helpers.scale.spark as spark_module

    for name in ("JAVA_HOME", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_LOCAL_IP", "PYSPARK_GATEWAY_PORT"):
        monkeypatch.delenv(name, raising=False)  # restored after the test
    monkeypatch.setattr(spark_module, "java_home", lambda: "/no/java/needed")
    monkeypatch.setattr(SparkSession.Builder, "getOrCreate", lambda self: _CapturedSession(self._options))
    session = start_spark(master)
    import os

    return session.options, os.environ.get("SPARK_LOCAL_IP")


_LOCAL_ONLY = ("spark.driver.memory", "spark.sql.shuffle.partitions", "spark.default.parallelism",
               "spark.python.worker.reuse", "spark.python.daemon.module", "spark.python.factory.idleWorkerMaxPoolSize")


@pytest.mark.parametrize("master", ["spark://127.0.0.1:7077", "yarn", "k8s://https://host:443",
                                    "local-cluster[2,1,512]"])
def test_a_cluster_master_gets_none_of_the_local_settings(monkeypatch, master):
    options, local_ip = _built_options(monkeypatch, master)
    assert options["spark.master"] == master and options["spark.ui.enabled"] == "false"
    assert not set(_LOCAL_ONLY) & set(options), sorted(set(_LOCAL_ONLY) & set(options))
    java_options = options["spark.driver.extraJavaOptions"]
    assert "-XX:" not in java_options and "-Xms" not in java_options  # the laptop JVM flags
    assert "log4j2.configurationFile" in options["spark.driver.extraJavaOptions"]  # quiet logs everywhere
    assert local_ip is None, "a cluster driver must not be pinned to loopback"


@pytest.mark.parametrize("master", ["local", "local[2]", "local[*]"])
def test_a_local_master_gets_the_laptop_settings(monkeypatch, master):
    options, local_ip = _built_options(monkeypatch, master)
    assert set(_LOCAL_ONLY) <= set(options) and options["spark.driver.memory"] == "512m"
    assert "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss4m -Xms64m" in options["spark.driver.extraJavaOptions"]
    assert local_ip == "127.0.0.1"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed but not yet reaped, does not)."""
    import os
    from pathlib import Path

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[-1].split()[0] == "Z")


def test_a_submission_that_times_out_leaves_no_driver_behind(tmp_path, monkeypatch):
    """spark-submit's JVM starts the Python driver as a child: on a timeout both must die, not just the JVM."""
    import os
    import subprocess
    import time

    from mic_dp_helpers.scale.cluster import StandaloneCluster

    pid_file = tmp_path / "driver.pid"
    # A stand-in for spark-submit: it starts a long-running child (the "driver") and waits for it.
    script = f"sleep 300 & echo $! > {pid_file}; wait"
    cluster = StandaloneCluster("spark://127.0.0.1:1", tmp_path, 1, 1, _env=dict(os.environ))
    monkeypatch.setattr(StandaloneCluster, "submit_command", lambda self, *a, **k: ["bash", "-c", script])
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        cluster.submit("job.py", timeout=1.0)
    assert time.monotonic() - started < 30
    driver = int(pid_file.read_text())
    for _ in range(50):  # killed by SIGKILL: gone (or a zombie waiting to be reaped) within moments
        if not _alive(driver):
            break
        time.sleep(0.1)
    else:
        os.kill(driver, 9)  # clean up what the code under test left behind, then fail
        pytest.fail(f"the driver (pid {driver}) outlived the timed-out submission")


def test_start_in_background_hands_over_the_session_or_the_error(monkeypatch):
    """The thread's outcome reaches future.result(): the session (after the warm-up job) or the exception."""
    import mic_dp_helpers.scale.spark as spark_module

    counted = []

    class _Context:
        def parallelize(self, values, slices):
            assert list(values) == [0, 1]  # the warm-up touches two public numbers, nothing else
            return self

        def count(self):
            counted.append(True)
            return 2

    session = type("Session", (), {"sparkContext": _Context()})()
    monkeypatch.setattr(spark_module, "start_spark", lambda *a, **k: session)
    started = spark_module.start_spark_in_background("local[2]")
    assert started.result(timeout=30) is session and counted == [True] and started.start_seconds >= 0

    def no_java(*args, **kwargs):
        raise RuntimeError("no Java here")

    monkeypatch.setattr(spark_module, "start_spark", no_java)
    failed = spark_module.start_spark_in_background("local[2]", warm_up=False)
    with pytest.raises(RuntimeError, match="no Java here"):
        failed.result(timeout=30)
    with pytest.raises(TypeError, match="warm_up must be True or False"):
        spark_module.start_spark_in_background(warm_up="yes")
