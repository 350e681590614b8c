"""Rules for the whole test run: how pytest-xdist shares the work, and what a solution notebook must print.

Two workers share the suite (``-n 2 --dist loadfile`` in ``pyproject.toml``). A notebook runs in one kernel
from top to bottom, and a test module with a module- or class-scoped fixture (a graded class, a Spark
session) pays for it once per worker, so those stay whole on one worker; every other test goes to whichever
worker is free, so one long module (``tests/test_checks.py``) no longer holds a worker alone.

The solution notebooks' ``check(...)`` cells must print that the reference solution passed: nbval runs them
with ``--nbval-lax``, which fails only on errors, so without this rule a check rejecting its own reference
solution would go unnoticed in the default run (``tests/test_checks.py::test_reference_solution_passes``
runs with the slow tests).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdist.scheduler import LoadFileScheduling

ROOT = Path(__file__).resolve().parent
CHECK_CALL = re.compile(r"""^check\(\s*["'](\d\d\.\d)["']""", re.MULTILINE)
_VERDICT = re.compile(r"^(\S+) Exercise (\d\d\.\d): (.*)$", re.MULTILINE)


def _relative(item: pytest.Item) -> str:
    try:
        return item.path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return item.path.as_posix()


class ShareOutIndependentTests(LoadFileScheduling):
    """pytest-xdist's ``loadfile`` scheduling, except that a test module without shared fixtures is shared out
    test by test.

    A module stays whole on one worker when it is not a ``tests/test_*.py`` file (a notebook runs in one
    kernel from top to bottom; doctests are cheap) or when its source sets a fixture's ``scope=`` (a graded
    class or a Spark session is set up once per module and worker). pytest-xdist's own ``loadgroup`` cannot
    be used here: with pytest 9 it can no longer rename the tests it groups.
    """

    def __init__(self, config: pytest.Config, log=None) -> None:
        super().__init__(config, log)
        self._independent: dict[str, bool] = {}

    def _is_independent(self, path: str) -> bool:
        if path not in self._independent:
            file = ROOT / path
            self._independent[path] = (path.startswith("tests/test_") and path.endswith(".py") and file.is_file()
                                       and "scope=" not in file.read_text(encoding="utf-8"))
        return self._independent[path]

    def _split_scope(self, nodeid: str) -> str:
        path = super()._split_scope(nodeid)
        return nodeid if self._is_independent(path) else path


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getvalue("dist") == "loadfile":
        return ShareOutIndependentTests(config, log)
    return None


def solution_check_verdicts(source: str, printed: str) -> list[str]:
    """Return what is wrong with a solution cell's check output: a call without a pass, or any non-pass.

    Parameters
    ----------
    source : str
        The cell's code.
    printed : str
        Everything the cell printed.

    Returns
    -------
    list of str
        One line per problem; empty when every ``check("NN.N", ...)`` call in the cell printed a pass.

    Examples
    --------
    >>> solution_check_verdicts('check("01.1", f)', "✅ Exercise 01.1: passed")
    []
    >>> solution_check_verdicts('check("01.1", f)', "❌ Exercise 01.1: wrong")
    ['01.1 printed: ❌ wrong', '01.1 did not print a pass']
    """
    passed_icon = "✅"
    verdicts = [match.groups() for match in _VERDICT.finditer(printed)]  # (icon, exercise id, message)
    problems = [f"{exercise_id} printed: {icon} {message}" for icon, exercise_id, message in verdicts
                if icon != passed_icon]
    passed = {exercise_id for icon, exercise_id, _ in verdicts if icon == passed_icon}
    problems += [f"{exercise_id} did not print a pass" for exercise_id in CHECK_CALL.findall(source)
                 if exercise_id not in passed]
    return problems


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    result = yield
    relative = _relative(item)
    if relative.startswith("solutions/") and relative.endswith(".ipynb") and hasattr(item, "cell"):
        printed = "".join(output.get("text", "") for output in (getattr(item, "test_outputs", None) or [])
                          if output.get("output_type") == "stream")
        problems = solution_check_verdicts(item.cell.source, printed)
        if problems:
            raise AssertionError(f"a reference solution did not pass its check in {relative}: "
                                 + "; ".join(problems))
    return result
