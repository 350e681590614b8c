"""A real Spark standalone cluster on this machine: a master and workers on loopback, for lesson 09's job.

:func:`standalone_cluster` starts Spark's standalone master and ``n_workers`` workers from the
pip-installed ``pyspark`` (its ``bin/spark-class``; the pip package has no ``sbin/start-master.sh``), with
the course's Java (:func:`mic_dp_helpers.java_runtime.java_home`, no system Java needed), all listening on
127.0.0.1 only. A job submitted to it with :meth:`StandaloneCluster.submit` runs its executors in their own
JVMs, started by the workers, exactly as on a cluster of machines; only the network is a loopback. The
course package reaches the executors the way it would on a real cluster, as a ``--py-files`` zip (the
workers are started *without* the course on their ``PYTHONPATH``); the Python interpreter is this
machine's (on a real cluster: ship an environment with ``--archives``).

Everything the context manager started (master, workers and the executors they launched) is stopped,
and its temporary folder removed, whatever happens inside the ``with`` block.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mic_dp_helpers.java_runtime import _LOG_CONFIG, _quiet_conf_dir, java_home

__all__ = ["standalone_cluster", "StandaloneCluster", "package_zip", "spark_home", "JOB_SCRIPT"]

#: The job script lesson 09 submits (:mod:`mic_dp_helpers.scale.job`).
JOB_SCRIPT = Path(__file__).with_name("job.py")

# The daemons log INFO to their own files, which standalone_cluster reads to see them ready.
_DAEMON_LOG_CONFIG = _LOG_CONFIG.replace("rootLogger.level = error", "rootLogger.level = info")
assert _DAEMON_LOG_CONFIG != _LOG_CONFIG


def spark_home() -> Path:
    """The folder of the pip-installed ``pyspark`` (it holds ``bin/spark-class`` and ``bin/spark-submit``).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> (spark_home() / "bin" / "spark-submit").exists()  # doctest: +SKIP
    True
    """
    import pyspark

    return Path(pyspark.__file__).parent


def package_zip(destination: str | os.PathLike) -> Path:
    """Zip the ``mic_dp_helpers`` package (Python files only) for ``spark-submit --py-files``.

    Parameters
    ----------
    destination : path
        The zip file to write.

    Returns
    -------
    pathlib.Path
        ``destination``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> package_zip(pathlib.Path(tempfile.mkdtemp()) / "course.zip").name
    'course.zip'
    """
    destination = Path(destination)
    package = Path(__file__).resolve().parents[1]
    with zipfile.ZipFile(destination, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(package.rglob("*.py")):
            archive.write(path, path.relative_to(package.parent).as_posix())
    return destination


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(conf_dir: Path) -> dict[str, str]:
    """What every Spark process here needs: the course's Java, Spark's home, loopback, small daemons."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYSPARK_GATEWAY_PORT",
                                                                           "PYSPARK_GATEWAY_SECRET")}
    env.update(JAVA_HOME=str(java_home()), SPARK_HOME=str(spark_home()), SPARK_LOCAL_IP="127.0.0.1",
               SPARK_CONF_DIR=str(conf_dir), SPARK_DAEMON_MEMORY="256m", PYSPARK_PYTHON=sys.executable,
               PYSPARK_DRIVER_PYTHON=sys.executable)
    return env


@dataclass
class StandaloneCluster:
    """A running standalone cluster (made by :func:`standalone_cluster`).

    Attributes
    ----------
    master_url : str
        ``spark://127.0.0.1:PORT``.
    folder : pathlib.Path
        Its temporary folder (logs, the workers' scratch space, the course zip), removed on exit.
    n_workers, cores_per_worker : int
        Its workers, and the cores each offers.
    """

    master_url: str
    folder: Path
    n_workers: int
    cores_per_worker: int
    _processes: list = field(default_factory=list, repr=False)
    _env: dict = field(default_factory=dict, repr=False)

    def submit(self, script: str | os.PathLike, arguments: Sequence[str] = (), *,
               executor_memory: str = "512m", timeout: float = 600.0) -> subprocess.CompletedProcess:
        """Run ``spark-submit --master <this cluster> --py-files <course zip> script arguments``.

        The driver runs in a new process on this machine (client mode); the executors run in the JVMs the
        workers start. Raises ``RuntimeError`` with the end of Spark's output if the job fails.

        Parameters
        ----------
        script : path
            The job script (for lesson 09: :data:`JOB_SCRIPT`).
        arguments : sequence of str or path
            The script's command-line arguments.
        executor_memory : str, default "512m"
            Memory of each executor JVM.
        timeout : float, default 600
            Seconds before the submission is abandoned: spark-submit and everything it started (the
            Python driver included) are killed, and ``subprocess.TimeoutExpired`` is raised.

        Returns
        -------
        subprocess.CompletedProcess
            With ``stdout`` and ``stderr`` as text.
        """
        command = self.submit_command(script, arguments, executor_memory=executor_memory)
        # Its own session: spark-submit's JVM starts the Python driver as its child, and killing only the
        # JVM on a timeout (what subprocess.run does) would leave that driver running, orphaned.
        process = subprocess.Popen(command, env=self._env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, cwd=self.folder, start_new_session=True)
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except BaseException:  # the timeout, or an interrupt: stop the whole session, driver included
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
        completed = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
        if completed.returncode != 0:
            raise RuntimeError(f"spark-submit failed (exit {completed.returncode}):\n{completed.stderr[-3000:]}")
        return completed

    def submit_command(self, script: str | os.PathLike, arguments: Sequence[str] = (), *,
                       executor_memory: str = "512m") -> list[str]:
        """The ``spark-submit`` command :meth:`submit` runs (to print it, or run it yourself).

        Parameters
        ----------
        script : path
            The job script.
        arguments : sequence of str or path
            The script's command-line arguments.
        executor_memory : str, default "512m"
            Memory of each executor JVM.

        Returns
        -------
        list of str
            The command, program first.
        """
        course = self.folder / "mic_dp_helpers.zip"
        if not course.exists():
            package_zip(course)
        return [str(spark_home() / "bin" / "spark-submit"), "--master", self.master_url,
                "--conf", "spark.ui.enabled=false", "--executor-memory", executor_memory,
                "--driver-java-options", f"-Dlog4j2.configurationFile=file:{_quiet_conf_dir() / 'log4j2.properties'}",
                "--total-executor-cores", str(self.n_workers * self.cores_per_worker),
                "--py-files", str(course), str(script), *map(str, arguments)]


def _start(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    with open(log, "wb") as handle:
        # Its own session, so that stopping it also stops what it started (a worker's executors).
        return subprocess.Popen(command, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)


def _wait_for(log: Path, text: str, process: subprocess.Popen, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and text in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            raise RuntimeError(f"the {what} exited (code {process.returncode}) before it was ready:\n"
                               f"{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.25)
    raise TimeoutError(f"the {what} was not ready after {timeout:.0f} s; its log ends:\n"
                       f"{log.read_text(errors='replace')[-3000:]}")


def _stop(process: subprocess.Popen, grace: float = 10.0) -> None:
    """Stop one process this module started, and its session (a worker's executors), by their ids."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError):  # the session's stragglers (executors), even if it exited
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(grace)


@contextlib.contextmanager
def standalone_cluster(n_workers: int = 2, cores_per_worker: int = 1, worker_memory: str = "768m", *,
                       timeout: float = 180.0) -> Iterator[StandaloneCluster]:
    """Start a standalone master and ``n_workers`` workers on 127.0.0.1; stop them and clean up on exit.

    Parameters
    ----------
    n_workers : int, default 2
        Number of worker daemons (each in its own JVM; each starts one executor JVM per job).
    cores_per_worker : int, default 1
        Cores each worker offers.
    worker_memory : str, default "768m"
        Memory each worker offers its executors.
    timeout : float, default 180
        Seconds to wait for each daemon to be ready.

    Yields
    ------
    StandaloneCluster

    Examples
    --------
    >>> with standalone_cluster(2) as cluster:  # doctest: +SKIP
    ...     cluster.submit(JOB_SCRIPT, [data, "daily.csv", "--epsilon", "1", "--max-partitions", "8",
    ...                                 "--max-per-partition", "1"])
    """
    for value, name in ((n_workers, "n_workers"), (cores_per_worker, "cores_per_worker")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, got {value!r}.")
    if not isinstance(worker_memory, str) or not worker_memory[:-1].isdigit() or worker_memory[-1] not in "mg":
        raise ValueError(f"worker_memory must be a size such as '768m' or '1g', got {worker_memory!r}.")
    folder = Path(tempfile.mkdtemp(prefix="course-spark-cluster-"))
    processes: list[subprocess.Popen] = []
    try:
        conf = folder / "conf"
        conf.mkdir()
        (conf / "log4j2.properties").write_text(_DAEMON_LOG_CONFIG)
        env = _environment(conf)
        spark_class = str(spark_home() / "bin" / "spark-class")
        port = _free_port()
        master_url = f"spark://127.0.0.1:{port}"
        master_log = folder / "master.log"
        processes.append(_start([spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                 "--port", str(port), "--webui-port", str(_free_port())], env, master_log))
        _wait_for(master_log, "I have been elected leader", processes[0], timeout, "Spark master")
        workers = []
        for index in range(n_workers):
            work_dir = folder / f"worker-{index}"
            work_dir.mkdir()
            log = folder / f"worker-{index}.log"
            processes.append(_start([spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                                     "--cores", str(cores_per_worker), "--memory", worker_memory,
                                     "--webui-port", str(_free_port()), "--work-dir", str(work_dir), master_url],
                                    env, log))
            workers.append((processes[-1], log))
        for index, (process, log) in enumerate(workers):
            _wait_for(log, "Successfully registered with master", process, timeout, f"Spark worker {index}")
        yield StandaloneCluster(master_url, folder, n_workers, cores_per_worker, processes, env)
    finally:
        for process in reversed(processes):
            _stop(process)
        shutil.rmtree(folder, ignore_errors=True)
