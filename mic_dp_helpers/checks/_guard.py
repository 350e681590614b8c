"""Run a student's function inside a check so that it cannot pass without solving the exercise.

In the student's own process a function can reach everything the check can. The checks therefore

- compute the expected answer only *after* the student's function returns, from inputs they
  regenerate, so nothing worth reading sits in a frame the function can walk up to;
- use references to NumPy, SciPy and builtins bound when their module is imported;
- run the student's function inside :func:`student_call`, which snapshots the namespaces a
  check relies on (its own module and every course module it reaches through its globals, the
  check machinery, ``builtins``, ``math``, NumPy, SciPy's statistics, pandas' table classes) and,
  when the function returns, puts back anything it changed and fails the check: patching a
  helper through ``f_globals`` or shadowing a builtin in the check's module is refused, never
  rewarded;
- make the course helpers an exercise asks students to write themselves refuse to run for the
  duration of the call (their code object is swapped for one that records the call and raises),
  so ``from mic_dp_helpers.mechanisms.noise import laplace_mechanism`` done earlier is caught too.

When the grader runs the student's code in another process (a proxy with its own
``call_repeatedly``), the patches cannot reach the check at all; the forbidden helpers of each
exercise are listed in :data:`FORBIDDEN`, and the grader's kernel
(:class:`mic_dp_teacher.grading.worker._ForbiddenHelpers`) installs the same stand-ins there around
every call of the student's function, from the table and function objects it captured before the
student's cells ran, so the verdict is the same as the notebook's ``check()``.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import math
import sys
import types

import numpy as np
import pandas as pd
import scipy.special
import scipy.stats

__all__ = ["CheckFailed", "FORBIDDEN", "student_call", "forbidden_helpers", "ForbiddenHelperCalled", "dependency_modules"]


class CheckFailed(AssertionError):
    """Raised by a checker with a hint for the student (the hint must not give the answer away)."""


#: Exercise id -> the course helpers (``"module:function"``) that already solve it.
FORBIDDEN: dict[str, tuple[str, ...]] = {}

_IGNORED_KEYS = frozenset({"_", "__", "___", "__warningregistry__", "__loader__", "__spec__"})


class ForbiddenHelperCalled(RuntimeError):
    """Raised by a forbidden course helper called inside a check."""


def _base_namespaces() -> tuple:
    return (
        ("builtins", builtins.__dict__, True),
        ("math", math.__dict__, True),
        ("numpy", np.__dict__, False),
        ("numpy.random", np.random.__dict__, False),
        ("scipy.stats", scipy.stats.__dict__, False),
        ("scipy.special", scipy.special.__dict__, False),
        ("pandas", pd.__dict__, False),
        ("pandas.DataFrame", pd.DataFrame.__dict__, False),
        ("pandas.Series", pd.Series.__dict__, False),
        ("mic_dp_helpers.checks._guard", sys.modules[__name__].__dict__, True),
    )


_BASE_NAMESPACES = _base_namespaces()


def _course_module_of(value, _modules=sys.modules, _isinstance=isinstance, _module_type=types.ModuleType,
                      _getattr=getattr, _type=type, _str=str):
    """The course module (``mic_dp_helpers...``) that ``value`` is, or that defines it (or its type); else None."""
    if _isinstance(value, _module_type):
        name = value.__name__
    else:
        name = _getattr(value, "__module__", None)
        if not _isinstance(name, _str):
            name = _getattr(_type(value), "__module__", None)
    if _isinstance(name, _str) and name.startswith("mic_dp_helpers"):
        return _modules.get(name)
    return None


def dependency_modules(module, _cache={}, _course_module_of=_course_module_of, _list=list, _tuple=tuple,
                       _sorted=sorted, _vars=vars) -> tuple:
    """Every course module a check module reaches through its globals, itself included (cached per module).

    A check runs code of many modules (its sweeps, the statistics helpers, the reference mechanisms), and the
    student's function is called from frames of any of them: a patch through such a frame's ``f_globals`` must
    be undone and refused wherever it lands, not only in the module that registered the check.

    Parameters
    ----------
    module : module
        The module of a registered check.

    Returns
    -------
    tuple of module
        ``module`` and the course modules it reaches (modules, or the modules defining its functions, classes and
        objects), transitively, sorted by name.

    Examples
    --------
    >>> import mic_dp_helpers.checks.lesson08_release as release
    >>> names = [m.__name__ for m in dependency_modules(release)]
    >>> "mic_dp_helpers.checks.lesson08" in names and "mic_dp_helpers.checks._vector_noise" in names
    True
    """
    key = module.__name__
    if key not in _cache:
        seen = {key: module}
        todo = [module]
        while todo:
            for value in _list(_vars(todo.pop()).values()):
                found = _course_module_of(value)
                if found is not None and found.__name__ not in seen:
                    seen[found.__name__] = found
                    todo.append(found)
        _cache[key] = _tuple(seen[name] for name in _sorted(seen))
    return _cache[key]


def _watched_namespaces(extra_modules, _base=_BASE_NAMESPACES, _list=list, _closure=dependency_modules,
                        _set=set) -> list:
    """(name, namespace, own) triples; in ``own`` namespaces a new key counts as tampering too."""
    spaces = _list(_base)
    named = _set(name for name, _, _ in spaces)
    for extra in extra_modules:
        for module in _closure(extra):
            if module.__name__ not in named:
                named.add(module.__name__)
                spaces.append((module.__name__, module.__dict__, module.__name__.startswith("mic_dp_helpers.checks")))
    return spaces


def _snapshot(spaces, _dict=dict):
    return [(name, space, own, _dict(space)) for name, space, own in spaces]


_MISSING = object()


def _restore(snapshots, _isinstance=isinstance, _proxy=types.MappingProxyType, _setattr=setattr,
             _delattr=delattr, _frame=pd.DataFrame, _series=pd.Series, _ignored=_IGNORED_KEYS,
             _missing=_MISSING) -> list:
    """Put every watched namespace back as it was; return the names that had been changed.

    Only locals and default arguments are used here (no globals, no builtins by name), so a student
    who shadowed names in this module's globals cannot disturb the restoration.
    """
    changed = []
    for name, space, own, before in snapshots:
        get = space.get
        altered = [key for key, value in before.items() if get(key, _missing) is not value and key not in _ignored]
        added = ([key for key in space if key not in before and key not in _ignored]
                 if own or _isinstance(space, _proxy) else [])
        if not altered and not added:
            continue
        changed.extend(f"{name}.{key}" for key in altered + added)
        if _isinstance(space, _proxy):  # a class: restore with setattr
            owner = _frame if name.endswith("DataFrame") else _series
            for key in altered:
                _setattr(owner, key, before[key])
            for key in added:
                _delattr(owner, key)
        else:
            for key in altered:
                space[key] = before[key]
            for key in added:
                del space[key]
    return changed


def _resolve(target: str):
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _refusing_code():
    def refuse(*args, _record=None, _message="", **kwargs):
        _record.append(_message)
        raise RuntimeError(_message)

    return refuse.__code__


_REFUSE_CODE = _refusing_code()


@contextlib.contextmanager
def forbidden_helpers(targets, record: list):
    """Make each helper in ``targets`` ("module:function") refuse to run, appending its name to ``record``.

    The function objects themselves are changed (code and keyword defaults), so references the
    student took before the check (``from module import function``) refuse too. Everything is put
    back on exit.

    Parameters
    ----------
    targets : iterable of str
        Helpers as ``"module:function"``.
    record : list
        Receives the name of each refused helper that was called.

    Yields
    ------
    None
        The helpers refuse inside the ``with`` block.
    """
    swapped = []
    try:
        for target in targets:
            function = _resolve(target)
            if not isinstance(function, types.FunctionType) or function.__closure__:
                continue
            message = (f"{target.replace(':', '.')} is the course's own answer to this exercise; the exercise "
                       "asks you to write it yourself")
            swapped.append((function, function.__code__, function.__kwdefaults__))
            function.__code__ = _REFUSE_CODE
            function.__kwdefaults__ = {"_record": record, "_message": message}
        yield
    finally:
        for function, code, kwdefaults in swapped:
            function.__code__ = code
            function.__kwdefaults__ = kwdefaults


def student_call(exercise_id: str, check_module, function, *args, extra_modules=(), _restore=_restore,
                 _snapshot=_snapshot, _watched=_watched_namespaces, _forbidden=forbidden_helpers,
                 _table=FORBIDDEN, _failed=CheckFailed, _sorted=sorted, _set=set, _base=BaseException):
    """Call ``function(*args)`` (a student's function, or a helper that calls it) under watch.

    Returns what it returns. Raises :class:`CheckFailed` if, while
    it ran, it called a forbidden course helper or changed a namespace the check relies on (that
    change is undone first). After the call only locals and default arguments are used.

    Parameters
    ----------
    exercise_id : str
        The exercise whose check makes the call.
    check_module : module
        The check's module, whose namespace is watched.
    function : callable
        The function to call.
    *args
        Its arguments.
    extra_modules : sequence of module, optional
        More namespaces to watch.

    Returns
    -------
    object
        What ``function`` returned.
    """
    record: list[str] = []
    snapshots = _snapshot(_watched([check_module, *extra_modules]))
    failure = None
    try:
        with _forbidden(_table.get(exercise_id, ()), record):
            result = function(*args)
    except _base as error:  # re-raised below, after the namespaces are restored
        failure = error
    changed = _restore(snapshots)
    if changed:
        shown = ", ".join(_sorted(_set(changed))[:3])
        raise _failed(
            f"your function changed what the check itself uses ({shown}). Patching a check never makes "
            "it succeed; solve the exercise instead.")
    if record:
        raise _failed(f"{record[0]} (do not call it, not even inside try/except).")
    if failure is not None:
        try:
            raise failure
        finally:  # break the frame -> exception -> traceback -> frame cycle, so nothing lingers until GC
            failure = None
    return result
