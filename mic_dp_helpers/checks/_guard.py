"""Run a student's function inside a check so that it cannot pass without solving the exercise.

In the student's own process a function can reach everything the check can. The checks therefore

- compute the expected answer only *after* the student's function returns, from inputs they
  regenerate, so nothing worth reading sits in a frame the function can walk up to;
- use references to NumPy, SciPy and builtins bound when their module is imported;
- run the student's function inside :func:`student_call`, which snapshots the namespaces a
  check relies on (every course module loaded, so the check's own module, its helpers and the
  reference mechanisms; ``builtins``, ``math``, NumPy, SciPy's statistics, pandas' table classes;
  and the code, defaults and class namespaces of the check machinery ``_core`` and ``_guard``) and,
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
import operator
import sys
import types
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.special
import scipy.stats

__all__ = ["CheckFailed", "FORBIDDEN", "student_call", "forbidden_helpers", "ForbiddenHelperCalled"]


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


def _course_module_names(package_dir: Path, package: str = "mic_dp_helpers") -> tuple:
    """The dotted name of every module and package of the course, from its files, sorted."""
    names = set()
    for path in package_dir.rglob("*.py"):
        parts = path.relative_to(package_dir).with_suffix("").parts
        names.add(".".join((package, *parts[:-1])) if parts[-1] == "__init__" else ".".join((package, *parts)))
    for folder in package_dir.rglob("*"):
        if folder.is_dir() and folder.name != "__pycache__":
            names.add(".".join((package, *folder.relative_to(package_dir).parts)))
    names.add(package)
    return tuple(sorted(names))


#: Every module the course has, whether loaded or not (read once: the package's files do not change).
COURSE_MODULE_NAMES = _course_module_names(Path(__file__).resolve().parent.parent)


def _course_modules(_modules=sys.modules, _names=COURSE_MODULE_NAMES, _isinstance=isinstance,
                    _module_type=types.ModuleType, _map=map) -> list:
    """Every course module (``mic_dp_helpers...``) loaded now, sorted by name.

    Looked up by name in ``sys.modules``: going through all of ``sys.modules`` (over a thousand names once
    SciPy and pandas are loaded) on every call of the student's function cost about 4 ms a call.
    """
    return [module for module in _map(_modules.get, _names) if _isinstance(module, _module_type)]


def _watched_namespaces(extra_modules, _base=_BASE_NAMESPACES, _list=list, _course=_course_modules,
                        _set=set, _id=id) -> list:
    """(name, namespace, own) triples; in ``own`` namespaces a new key counts as tampering too.

    Every course module loaded at the time of the call is watched, not only the check's: a check runs code of
    many modules (its sweeps, the statistics helpers, the reference mechanisms), and the student's function is
    called from frames of any of them, so a patch through such a frame's ``f_globals`` is undone wherever it
    lands. ``extra_modules`` (modules outside the course) are watched too.
    """
    spaces = _list(_base)
    seen = _set(_id(space) for _, space, _ in spaces)
    for module in [*_course(), *extra_modules]:
        space = module.__dict__
        if _id(space) not in seen:  # by identity: a stand-in of the same name must not hide the real module
            seen.add(_id(space))
            spaces.append((module.__name__, space, module.__name__.startswith("mic_dp_helpers.checks")))
    return spaces


#: The modules of the check machinery whose functions and classes are watched beyond their names.
MACHINERY = ("mic_dp_helpers.checks._core", "mic_dp_helpers.checks._guard")


def _function_record(function, _dict=dict) -> tuple:
    """A function with its code, defaults and a copy of its keyword defaults, for :func:`_restore_internals`."""
    kwdefaults = function.__kwdefaults__
    return function, function.__code__, function.__defaults__, None if kwdefaults is None else _dict(kwdefaults)


def _internals(spaces, _isinstance=isinstance, _function=types.FunctionType, _type=type, _getattr=getattr,
               _dict=dict, _list=list, _id=id, _set=set, _machinery=MACHINERY, _record=_function_record) -> list:
    """The parts of the machinery's functions and classes that a patch can change without rebinding a name.

    For every function defined in :data:`MACHINERY` (and every method of a class defined there): its code,
    defaults and keyword defaults (a copy); for every such class: a copy of its namespace. Replacing
    ``f.__code__`` or ``f.__kwdefaults__["x"]``, or a class's method, leaves the module's namespace as it was,
    and would switch the guard itself off. (Doing the same for every course function would cost about 2 ms per
    call of the student's function; the other checks' functions are not watched this way.)
    """
    records, seen = [], _set()
    for name, space, _ in spaces:
        if name not in _machinery:
            continue
        for value in _list(space.values()):
            if _id(value) in seen or _getattr(value, "__module__", None) != name:
                continue
            seen.add(_id(value))
            if _isinstance(value, _function):
                records.append(_record(value))
            elif _isinstance(value, _type):
                members = _dict(value.__dict__)
                records.append((value, members, None, None))
                for member in members.values():
                    if _isinstance(member, _function) and _id(member) not in seen:
                        seen.add(_id(member))
                        records.append(_record(member))
    return records


def _restore_internals(records, _isinstance=isinstance, _type=type, _setattr=setattr, _delattr=delattr,
                       _list=list, _dict=dict, _any=any) -> list:
    """Put back what :func:`_internals` recorded; return the names of what had been changed."""
    changed = []
    for owner, code, defaults, kwdefaults in records:
        if _isinstance(owner, _type):
            now = owner.__dict__
            altered = [key for key, value in code.items() if now.get(key, changed) is not value]
            added = [key for key in _list(now) if key not in code]
            for key in altered:
                _setattr(owner, key, code[key])
            for key in added:
                _delattr(owner, key)
            changed.extend(f"{owner.__module__}.{owner.__qualname__}.{key}" for key in altered + added)
            continue
        if (owner.__code__ is not code or owner.__defaults__ is not defaults
                or (owner.__kwdefaults__ is None) != (kwdefaults is None)
                or (kwdefaults is not None and (owner.__kwdefaults__.keys() != kwdefaults.keys() or _any(
                    owner.__kwdefaults__[key] is not value for key, value in kwdefaults.items())))):
            owner.__code__, owner.__defaults__ = code, defaults
            owner.__kwdefaults__ = None if kwdefaults is None else _dict(kwdefaults)
            changed.append(f"{owner.__module__}.{owner.__qualname__}")
    return changed


def _snapshot(spaces, _dict=dict):
    return [(name, space, own, _dict(space)) for name, space, own in spaces]


_MISSING = object()


def _unchanged(space, before, _len=len, _all=all, _map=map, _is=operator.is_) -> bool:
    """Whether ``space`` holds the very same keys and values, in the same order, as its copy ``before``.

    Identity only (``is``), compared in C: ``==`` would call a student's ``__eq__``. A namespace that fails
    this quick test may still be unchanged in every way :func:`_restore` counts (a rebound ``_``, a key added
    to a library's namespace); :func:`_restore` then compares it key by key.
    """
    return (_len(space) == _len(before) and _all(_map(_is, before, space))
            and _all(_map(_is, before.values(), space.values())))


def _restore(snapshots, _isinstance=isinstance, _proxy=types.MappingProxyType, _setattr=setattr,
             _delattr=delattr, _frame=pd.DataFrame, _series=pd.Series, _ignored=_IGNORED_KEYS,
             _missing=_MISSING, _same=_unchanged) -> list:
    """Put every watched namespace back as it was; return the names that had been changed.

    Only locals and default arguments are used here (no globals, no builtins by name), so a student
    who shadowed names in this module's globals cannot disturb the restoration. A namespace whose keys
    and values are all the same objects in the same order is passed over without a key-by-key look
    (that look, over every key of every watched namespace, cost about 5 ms a call of the student's function).
    """
    changed = []
    for name, space, own, before in snapshots:
        if _same(space, before):
            continue
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


#: The guard's own helpers with their code and defaults as imported: :func:`student_call` puts them back before
#: it uses them, so a student's function that swapped their code (say, a ``_restore`` that finds nothing) cannot
#: switch the guard off for that call or any later one. Tuples, so nothing in them can be changed in place.
_OWN_HELPERS = tuple((function, function.__code__, function.__defaults__, function.__qualname__)
                     for function in (_course_modules, _watched_namespaces, _function_record, _internals,
                                      _restore_internals, _snapshot, _unchanged, _restore))


def student_call(exercise_id: str, check_module, function, *args, extra_modules=(), _restore=_restore,
                 _snapshot=_snapshot, _watched=_watched_namespaces, _forbidden=forbidden_helpers,
                 _internals=_internals, _restore_internals=_restore_internals,
                 _table=FORBIDDEN, _failed=CheckFailed, _sorted=sorted, _set=set, _base=BaseException,
                 _own=_OWN_HELPERS, _modules=sys.modules, _names=COURSE_MODULE_NAMES, _list=list, _map=map,
                 _all=all, _is=operator.is_, _zip=zip):
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
    for helper, code, defaults, _ in _own:  # a patch made outside any check is undone too
        if helper.__code__ is not code or helper.__defaults__ is not defaults or helper.__kwdefaults__ is not None:
            helper.__code__, helper.__defaults__, helper.__kwdefaults__ = code, defaults, None
    spaces = _watched([check_module, *extra_modules])
    snapshots, internals = _snapshot(spaces), _internals(spaces)
    loaded = _list(_map(_modules.get, _names))
    failure = None
    try:
        with _forbidden(_table.get(exercise_id, ()), record):
            result = function(*args)
    except _base as error:  # re-raised below, after the namespaces are restored
        failure = error
    changed = []
    for helper, code, defaults, name in _own:  # first, so that what follows runs the guard's own code
        if helper.__code__ is not code or helper.__defaults__ is not defaults or helper.__kwdefaults__ is not None:
            helper.__code__, helper.__defaults__, helper.__kwdefaults__ = code, defaults, None
            changed.append(f"mic_dp_helpers.checks._guard.{name}")
    now = _list(_map(_modules.get, _names))
    if not _all(_map(_is, loaded, now)):  # a course module swapped in sys.modules hides the real one
        for name, module, current in _zip(_names, loaded, now):
            if module is not None and current is not module:
                _modules[name] = module
                changed.append(f"sys.modules[{name!r}]")
    changed += _restore(snapshots) + _restore_internals(internals)
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
