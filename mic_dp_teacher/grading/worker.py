"""The sandboxed student kernel: runs one submission's cells, then answers the grader's calls.

Started by :mod:`mic_dp_teacher.grading.sandbox` as ``python -m mic_dp_teacher.grading.worker CONFIG``.
It first closes itself in (hidden folders, read-only package, resource limits, an unprivileged user when
started as root; see :mod:`~mic_dp_teacher.grading.confinement`), then runs the notebook's code cells
in an IPython shell with a per-cell timeout, keeping a bounded amount of each cell's output, and finally
serves requests on its private pipe: look up a name, call the student's function with arguments sent as
plain data. It never decides anything: every verdict is computed by the grader from what this process sends back.
"""

from __future__ import annotations

import builtins
import json
import os
import signal
import sys
import time
import traceback
import types

from mic_dp_teacher.grading import protocol
from mic_dp_teacher.grading.confinement import close_in


class _Timeout(BaseException):
    """Raised in the student's code when its time is up (only :func:`_on_alarm` raising it counts)."""


class _Clock:
    """Whether the worker's own alarm has fired since it was last set.

    A time-out is reported only when this flag says the alarm really went off: a ``_Timeout`` (or any
    other exception) raised by the student's code is the student's error. The grader also checks the
    time itself, so even a student who flips this flag cannot turn a wrong answer into a time-out.
    """

    fired = False


class _ForbiddenHelpers:
    """The course helpers each exercise forbids (``checks._core.FORBIDDEN``), made to refuse during its checks.

    Captured when the kernel starts, before any of the student's cells run: the table of exercises and
    the helpers' function objects with their original code. For each call of the student's function by
    the check of exercise X, the helpers forbidden for X get the refusing code of
    :func:`mic_dp_helpers.checks._core.forbidden_helpers` (so ``from ... import helper`` done earlier,
    or an alias, refuses too: it is the same function object); afterwards the worker verifies that the
    stand-ins are still in place and puts the originals back. Same rule and message as the notebook's
    own ``check()``.
    """

    def __init__(self) -> None:
        import mic_dp_helpers.checks  # noqa: F401 - registers every exercise and fills FORBIDDEN
        from mic_dp_helpers.checks import _core, _guard

        self.refuse = _guard._REFUSE_CODE
        self.table = {str(k): tuple(v) for k, v in _core.FORBIDDEN.items()}
        self.functions = {}
        for target in sorted({t for targets in self.table.values() for t in targets}):
            function = _guard._resolve(target)
            if isinstance(function, types.FunctionType) and not function.__closure__:  # as forbidden_helpers
                self.functions[target] = (function, function.__code__, function.__kwdefaults__)

    def install(self, exercise: str, record: list) -> list:
        installed = []
        for target in self.table.get(exercise, ()):
            if target not in self.functions:
                continue
            function, code, kwdefaults = self.functions[target]
            message = (f"{target.replace(':', '.')} is the course's own answer to this exercise; the exercise "
                       "asks you to write it yourself")
            stand_in = {"_record": record, "_message": message}
            function.__code__, function.__kwdefaults__ = self.refuse, stand_in
            installed.append((function, code, kwdefaults, stand_in, message))
        return installed

    def remove(self, installed: list, record: list) -> None:
        """Put the originals back; a stand-in the student's code changed counts as a call of that helper."""
        for function, code, kwdefaults, stand_in, message in installed:
            if (function.__code__ is not self.refuse or function.__kwdefaults__ is not stand_in
                    or stand_in.get("_record") is not record or stand_in.get("_message") != message):
                record.append(message)
            function.__code__, function.__kwdefaults__ = code, kwdefaults


class _Capture:
    """A text stream keeping the first ``limit`` characters and counting the rest."""

    encoding = "utf-8"

    def __init__(self, limit: int) -> None:
        self.limit, self.kept, self.total = limit, [], 0

    def write(self, text) -> int:
        text = str(text)
        room = self.limit - min(self.total, self.limit)
        if room > 0:
            self.kept.append(text[:room])
        self.total += len(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("no file descriptor")

    def text(self) -> str:
        return "".join(self.kept)


def _summary(error: BaseException) -> dict:
    frames = traceback.extract_tb(error.__traceback__)
    own = [f for f in frames if "site-packages" not in f.filename and "mic_dp_helpers" not in f.filename
           and "IPython" not in f.filename and "/lib/python" not in f.filename]
    where = f" (line {own[-1].lineno} of your code)" if own else ""
    message = str(error).strip().splitlines()
    first = message[0][:300] if message else ""
    found = {"type": type(error).__name__, "message": first,
             "summary": f"{type(error).__name__}: {first}{where}".strip()}
    module = type(error).__module__ or ""
    if module.startswith("mic_dp_helpers."):
        from mic_dp_teacher.grading import wire

        found["cls"] = f"{module}:{type(error).__qualname__}"
        try:
            found["attrs"] = wire.encode({k: v for k, v in vars(error).items() if not k.startswith("_")})
        except Exception:
            pass
    return found


class Worker:
    """The student's side of a grading kernel: runs the cells in an IPython shell, then serves the grader.

    Parameters
    ----------
    config : dict
        The kernel's configuration (time-outs, output limit) from the grader.
    fd_in, fd_out : int
        File descriptors of the channel to the grader.
    """

    def __init__(self, config: dict, fd_in: int, fd_out: int) -> None:
        self.config, self.fd_in, self.fd_out = config, fd_in, fd_out
        self.started = time.monotonic()
        self.shell = None
        self.forbidden = _ForbiddenHelpers()  # before any of the student's code runs
        _defer_notebook_checks()

    # ----- the channel -----------------------------------------------------------------------------
    def send(self, message: dict) -> None:
        """Send one message to the grader.

        Parameters
        ----------
        message : dict
            A message with an ``"op"`` (see :mod:`~mic_dp_teacher.grading.protocol`).
        """
        protocol.send(self.fd_out, message)

    def recv(self) -> dict:
        """Wait for the grader's next message.

        Returns
        -------
        dict
            The message.
        """
        return protocol.recv(self.fd_in)

    def _alarm(self, seconds: float) -> None:
        _Clock.fired = False
        left = self.config["total_timeout"] - (time.monotonic() - self.started)
        signal.setitimer(signal.ITIMER_REAL, max(0.01, min(seconds, left)))

    # ----- the notebook ----------------------------------------------------------------------------
    def start_shell(self) -> None:
        """Start the IPython shell the cells run in (no history file)."""
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        config = Config()
        config.HistoryManager.enabled = False
        self.shell = InteractiveShell.instance(config=config)

    def run_cells(self, cells: list[str]) -> None:
        """Run the notebook's code cells in order, reporting each to the grader (status, output, error).

        Parameters
        ----------
        cells : list of str
            Sources of the code cells.
        """
        if self.shell is None:
            self.start_shell()
        limit = self.config["output_limit"]
        for index, source in enumerate(cells, start=1):
            self.send({"op": "cell", "index": index})
            capture = _Capture(limit)
            sys.stdout = sys.stderr = capture
            status, error = "ok", None
            try:
                self._alarm(self.config["cell_timeout"])
                result = self.shell.run_cell(source, store_history=True)
                signal.setitimer(signal.ITIMER_REAL, 0)
                failure = result.error_before_exec or result.error_in_exec
            except BaseException as exc:  # a timeout outside the student's code, or the shell broke
                signal.setitimer(signal.ITIMER_REAL, 0)
                failure = exc
            finally:
                sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
            if _Clock.fired:  # the alarm really went off (a _Timeout the student raises is just an error)
                status = "timeout"
            elif isinstance(failure, MemoryError):
                status, error = "memory", _summary(failure)
            elif failure is not None:
                status, error = "error", _summary(failure)
            self.send({"op": "cell_done", "index": index, "status": status, "error": error,
                       "output": capture.text(), "output_chars": capture.total})

    # ----- calls from the grader -------------------------------------------------------------------
    def _decode_handle(self, node: dict):
        import numpy as np

        kind = node.get("t")
        if kind == "rng":
            seed = node.get("seed")
            if not isinstance(seed, list) or not all(isinstance(s, int) for s in seed):
                raise ValueError("bad generator seed")
            key = ("rng", node.get("k"))
            if key not in self._memo:  # the same generator twice in one request stays one generator
                self._memo[key] = np.random.Generator(np.random.PCG64(seed))
            return self._memo[key]
        if kind == "callable":
            return _Callback(self, node.get("k"), node.get("name", "function"))
        if kind == "obj":
            return _RemoteObject(self, node.get("k"), str(node.get("type")), list(node.get("methods", [])))
        if kind == "course":  # a course object travels by value; its final state goes back with the result
            from mic_dp_teacher.grading import wire

            key = ("course", node.get("k"))
            if key not in self._memo:
                self._memo[key] = wire.course_object(node.get("cls"), wire.decode(node.get("state")))
                self._synced.append((node.get("k"), self._memo[key]))
            return self._memo[key]
        raise ValueError(f"unknown handle {kind!r}")

    def _states(self) -> list:
        from mic_dp_teacher.grading import wire

        states = []
        for key, obj in self._synced:
            try:
                states.append([key, wire.encode(dict(vars(obj)))])
            except Exception:  # what the student's code put in it cannot travel: the grader keeps its own copy
                pass
        return states

    def callback(self, key, method, name, args, kwargs):
        """Call back into the grader: a callable or an object's method the check handed the student's function.

        Parameters
        ----------
        key : int
            The handle's key.
        method : str or None
            The method to call, or None to call the handle itself.
        name : str
            Its name, for messages.
        args : tuple
            Positional arguments.
        kwargs : dict
            Keyword arguments.

        Returns
        -------
        object
            What the grader's side returned.
        """
        import numpy as np

        from mic_dp_teacher.grading import wire

        generators = {}

        def handle(value):  # the student's own generator goes by state, and comes back advanced
            if isinstance(value, np.random.Generator):
                generators[id(value)] = value
                return {"t": "rngstate", "k": id(value), "state": wire.encode(value.bit_generator.state)}
            return None

        self.send({"op": "callback", "k": key, "method": method, "name": name,
                   "args": wire.encode(list(args), handle), "kwargs": wire.encode(dict(kwargs), handle)})
        reply = self.recv()
        for ident, state in reply.get("rng_states", []):
            if ident in generators:
                generators[ident].bit_generator.state = wire.decode(state)
        if "ok" in reply:
            return wire.decode(reply["ok"])
        raised = reply.get("raised") or {}
        message = str(raised.get("message", "the checker's function failed"))
        error = wire.course_exception(raised.get("cls"), message, None) if raised.get("cls") else None
        if error is not None:
            raise error
        kind = getattr(builtins, str(raised.get("type")), None)
        if not (isinstance(kind, type) and issubclass(kind, Exception)):
            kind = RuntimeError
        raise kind(message)

    def call(self, request: dict) -> dict:
        """Run one call request of the grader on the student's function and build the reply.

        Parameters
        ----------
        request : dict
            The ``"call"`` message.

        Returns
        -------
        dict
            A ``"result"`` message: the value, the exception raised, a time-out or a refused helper.
        """
        from mic_dp_helpers.checks._core import running_student_code
        from mic_dp_teacher.grading import wire

        function = self.shell.user_ns.get(request.get("name"))
        if not callable(function):
            return {"op": "result", "raised": {"type": "TypeError", "message": "not callable", "summary": "not callable"}}
        self._memo, self._synced = {}, []
        try:
            args = wire.decode(request.get("args"), handle=self._decode_handle)
            kwargs = wire.decode(request.get("kwargs", {"t": "dict", "v": []}), handle=self._decode_handle)
        except (ValueError, TypeError) as error:
            return {"op": "result", "bad_request": str(error)}
        repeat = request.get("repeat")
        exercise = str(request.get("exercise"))
        capture = _Capture(self.config["output_limit"])
        record: list[str] = []
        outcome, result, error = "ok", None, None
        sys.stdout = sys.stderr = capture
        try:
            installed = self.forbidden.install(exercise, record)
            try:
                with running_student_code(exercise):
                    self._alarm(float(request.get("timeout", self.config["cell_timeout"])))
                    if isinstance(repeat, int) and not isinstance(repeat, bool):
                        result = [function(*args, **kwargs) for _ in range(repeat)]
                    else:
                        result = function(*args, **kwargs)
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except BaseException as raised:  # the student's function raised (or the alarm went off)
                signal.setitimer(signal.ITIMER_REAL, 0)
                outcome, error = "raised", raised
            finally:
                self.forbidden.remove(installed, record)
        except BaseException as raised:  # the alarm went off in the worker's own code, around the call
            signal.setitimer(signal.ITIMER_REAL, 0)
            outcome, error = "raised", raised
        finally:
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        if record:  # a forbidden helper was called, even inside try/except: the notebook's rule and message
            return {"op": "result", "refused": f"{record[0]} (do not call it, not even inside try/except).",
                    "states": self._states(), "changed": self._changed(request, args)}
        if _Clock.fired:  # only the worker's own alarm makes a time-out, never an exception the student raised
            return {"op": "result", "timeout": True}
        if outcome == "raised":  # describe it, nothing more
            return {"op": "result", "raised": _summary(error), "states": self._states(),
                    "changed": self._changed(request, args)}
        changed = self._changed(request, args)
        try:
            return {"op": "result", "ok": wire.encode(result), "states": self._states(), "changed": changed}
        except (wire.WireError, RecursionError) as error:
            return {"op": "result", "unsendable": f"{type(result).__name__} ({error})"[:300], "states": self._states(),
                    "changed": changed}

    def _changed(self, request: dict, args) -> list:
        """[[position, new value]] for arguments (lists, dicts, arrays, pandas objects) the function modified."""
        import numpy as np
        import pandas as pd

        from mic_dp_teacher.grading import wire

        sent = request.get("args", {}).get("v", [])
        changed = []
        for position, value in enumerate(args if isinstance(args, list) else []):
            if not isinstance(value, (list, dict, set, np.ndarray, pd.DataFrame, pd.Series)) or position >= len(sent):
                continue
            try:
                now = wire.encode(value)
            except Exception:
                continue
            if json.dumps(now, sort_keys=True) != json.dumps(sent[position], sort_keys=True):
                changed.append([position, now])
        return changed

    def lookup(self, name) -> dict:
        """Whether the student's namespace holds ``name``, and if it is callable.

        Parameters
        ----------
        name : str
            The name to look up.

        Returns
        -------
        dict
            A ``"found"`` message (``kind`` "missing", "callable" or "other").
        """
        value = self.shell.user_ns.get(name, None) if isinstance(name, str) else None
        if value is None or value is Ellipsis:
            return {"op": "found", "kind": "missing"}
        return {"op": "found", "kind": "callable" if callable(value) else "other", "type": type(value).__name__}

    def serve(self) -> None:
        """Answer the grader's lookups and calls until it says ``"exit"``."""
        while True:
            request = self.recv()
            op = request["op"]
            if op == "exit":
                return
            if op == "lookup":
                self.send(self.lookup(request.get("name")))
            elif op == "call":
                self.send(self.call(request))
            else:
                self.send({"op": "error", "message": f"unknown operation {op!r}"})


class _Callback:
    """A function of the checker, as the student's code sees it: calling it asks the grader."""

    def __init__(self, worker: Worker, key, name: str) -> None:
        self._worker, self._key, self.__name__ = worker, key, name

    def __call__(self, *args, **kwargs):
        return self._worker.callback(self._key, None, self.__name__, args, kwargs)

    def __repr__(self) -> str:
        return f"<the checker's function {self.__name__}>"


class _RemoteObject:
    """An object of the checker: its public methods and attributes are fetched from the grader."""

    def __init__(self, worker: Worker, key, type_name: str, methods: list) -> None:
        object.__setattr__(self, "_state", (worker, key, type_name, frozenset(map(str, methods))))

    def __getattr__(self, name: str):
        worker, key, type_name, methods = object.__getattribute__(self, "_state")
        if name.startswith("_"):
            raise AttributeError(f"the checker's {type_name} has no public attribute {name!r}")
        if name in methods:
            return lambda *args, **kwargs: worker.callback(key, name, name, args, kwargs)
        return worker.callback(key, "__getattr__", name, (name,), {})

    def __setattr__(self, name, value) -> None:
        raise AttributeError("the checker's objects are read-only")

    def __repr__(self) -> str:
        return f"<the checker's {object.__getattribute__(self, '_state')[2]}>"


def _defer_notebook_checks() -> None:
    """Make the notebook's own ``check(...)`` calls print a note, and run the check only if its result is read.

    The grader checks every exercise itself, in its own process, after the cells have run; the verdicts come
    from that run only. The same check run in here as well doubled the grading time of a finished notebook.
    A notebook that reads the returned result (``result.passed``, ``result.status``, as lesson 00 does) gets
    the real check, run then, as it would outside the grader. Installed before the student's first cell, so
    ``from mic_dp_helpers.checks import check`` gets this one.
    """
    from mic_dp_helpers import checks
    from mic_dp_helpers.checks import _core

    run_check, not_done = _core.run_check, _core.ICONS[_core.NOT_DONE]

    def check(exercise_id, answer):
        print(f"{not_done} Exercise {exercise_id}: checked by the grader after the notebook has run (see your "
              "feedback).")
        return _CheckedWhenRead(run_check, exercise_id, answer)

    check.__doc__ = _core.check.__doc__
    checks.check = _core.check = check


class _CheckedWhenRead:
    """What the notebook's ``check()`` returns while graded: the real check runs when the result is first read."""

    def __init__(self, run_check, exercise_id, answer) -> None:
        self._run, self._answer, self._result = run_check, answer, None
        self.exercise = exercise_id

    def _checked(self):
        if self._result is None:
            self._result = self._run(self.exercise, self._answer)
        return self._result

    status = property(lambda self: self._checked().status)
    message = property(lambda self: self._checked().message)
    passed = property(lambda self: self._checked().passed)

    def to_dict(self) -> dict:
        return self._checked().to_dict()

    def __str__(self) -> str:
        return str(self._checked())

    def _ipython_display_(self) -> None:
        """Show nothing: the note is already printed."""


def _on_alarm(signum, frame):
    _Clock.fired = True
    raise _Timeout()


def _one_line(error: BaseException) -> str:
    """The error's type and the line of its message that names the cause (the last, for a long message)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[-1] if lines else ''}"[:300]


def main(argv: list[str]) -> int:
    """The worker process: close itself in, run the cells, then serve the grader's requests.

    Parameters
    ----------
    argv : list of str
        ``[CONFIG_JSON]``.

    Returns
    -------
    int
        Exit status: 0 when the grader ended it, 1 on a broken channel or a crash, 3 when it could not set
        itself up (close itself in, load the checks).
    """
    config = json.loads(argv[0])
    fd_in, fd_out = os.dup(0), os.dup(1)
    os.set_inheritable(fd_in, False)
    os.set_inheritable(fd_out, False)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # what the student's code or its subprocesses write to a raw fd goes nowhere
        os.dup2(null, fd)
    try:
        isolation = close_in(config)
    except BaseException as error:  # could not close itself in (SystemExit included): refuse to run the student's code
        protocol.send(fd_out, {"op": "sandbox_failed", "message": _one_line(error)})
        return 3
    for name in ("HOME", "TMPDIR", "IPYTHONDIR", "MPLCONFIGDIR"):
        os.environ[name] = config["scratch"]
    signal.signal(signal.SIGALRM, _on_alarm)
    sys.argv = ["mic_dp_helpers"]
    sys.path[:] = [config["scratch"], *[p for p in sys.path if p and p != os.getcwd()]]
    try:
        worker = Worker(config, fd_in, fd_out)
    except BaseException as error:  # without the forbidden helpers' table no check could be trusted
        protocol.send(fd_out, {"op": "sandbox_failed", "message": f"loading the checks: {_one_line(error)}"})
        return 3
    try:  # everything a submission needs, before it is said to be ready: a failure here is the machine's
        with open(os.path.join(config["scratch"], "cells.json"), encoding="utf-8") as handle:
            cells = json.load(handle)
        worker.start_shell()
    except BaseException as error:
        protocol.send(fd_out, {"op": "sandbox_failed", "message": f"starting the kernel: {_one_line(error)}"})
        return 3
    worker.started = time.monotonic()  # the submission's time starts now, as the grader's does
    worker.send({"op": "ready", "isolation": isolation, "uid": os.getuid()})
    try:
        worker.run_cells(cells)
        worker.send({"op": "cells_finished"})
        worker.serve()
    except protocol.ProtocolError:
        return 1
    except BaseException as error:  # tell the grader what broke (the grader decides what it means)
        try:
            worker.send({"op": "crashed", "message": f"{type(error).__name__}: {error}"[:300]})
        except Exception:
            pass
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
