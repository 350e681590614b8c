"""Start a sandboxed student kernel and talk to it; the student's function as the checks see it is in
:mod:`~mic_dp_teacher.grading.student_calls`.

How closed in the kernel is depends on what the machine allows (:func:`isolation_mode`):

- ``"root"``: the grader runs as root. The kernel starts in new PID, mount and network namespaces (``unshare``),
  hides the submissions folder, the gradebook's folder, ``solutions/``, ``tests/`` and ``.git`` beside the
  package, mounts the package and the Python environment read-only, and then runs under a user id of its own (see :mod:`~mic_dp_teacher.grading.processes`).
- ``"userns"``: not root, but unprivileged user namespaces work: the same namespaces and mounts, as the
  teacher's own user id (files the teacher can write outside the hidden and read-only folders stay writable).
- ``"plain"``: neither: the kernel runs as the teacher, in its own session, with resource limits only.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import numpy as np

from mic_dp_teacher.grading import protocol, wire
from mic_dp_teacher.grading.processes import MemoryCgroup, count_processes, kill_uid
from mic_dp_teacher.grading.student_calls import (
    ForbiddenHelperCalled,
    GraderLimitation,
    KernelStopped,
    StudentError,
    StudentTimeout,
    apply_changes,
)

NOBODY = 65534
GRACE = 5.0  # seconds a kernel may take beyond its own alarm before it is killed
SEND_GRACE = 30.0  # seconds a kernel may leave a message to it unread (it reads each one at once)
START_LIMIT = 60.0  # seconds a kernel may take to get ready (none of the submission's code runs before)


@functools.lru_cache(maxsize=1)
def isolation_mode() -> str:
    """The strongest sandbox this machine allows: "root", "userns" or "plain".

    ``MIC_DP_GRADING_ISOLATION=plain`` (or ``userns``) forces a weaker mode, to test it or where
    namespaces misbehave.
    """
    forced = os.environ.get("MIC_DP_GRADING_ISOLATION")
    if forced in ("plain", "userns"):
        return forced
    unshare = shutil.which("unshare")
    if unshare is None:
        return "plain"
    base = [unshare, "--pid", "--fork", "--kill-child", "--mount", "--mount-proc", "--net", "--propagation", "private"]
    if os.geteuid() != 0:
        base[1:1] = ["--user", "--map-root-user"]
    try:
        ok = subprocess.run([*base, "true"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        return "plain"
    return "root" if os.geteuid() == 0 else "userns"


def kernel_uid(settings: dict) -> int | None:
    """The user id the kernel runs as: its own (from the run's slot) as root, None to keep the grader's.

    Parameters
    ----------
    settings : dict
        The run's settings (:meth:`Settings.for_kernel`).

    Returns
    -------
    int or None
        The user id, or None.
    """
    if not settings["as_nobody"]:
        return None
    return int(settings.get("kernel_uid") or NOBODY)


class StudentKernel:
    """One sandboxed worker running one submission. ``stopped`` says why it ended early, if it did."""

    def __init__(self, scratch: str, settings: dict, deadline: float) -> None:
        """``deadline``: when the submission's time is up; the kernel's start (at most ``START_LIMIT`` seconds,
        before any of its code runs) moves it later, so a loaded machine does not eat the submission's time.

        Parameters
        ----------
        scratch : str
            The submission's scratch folder (its working directory).
        settings : dict
            The run's settings (:meth:`~mic_dp_teacher.grading.runner.Settings.for_kernel`).
        deadline : float
            A ``time.monotonic()`` value.
        """
        budget = max(0.0, deadline - time.monotonic())
        self.settings, self.deadline = settings, time.monotonic() + START_LIMIT
        self.stopped: str | None = None
        self.ready = False  # the kernel closed itself in, loaded the checks and read its cells
        self.setup_failed = False  # it said it could not (never the submission's doing: none of its code ran)
        self.isolation: list[str] = []
        self.expired = False
        self.cgroup: MemoryCgroup | None = None
        self.watchdog: threading.Timer | None = None
        mode = settings["isolation"]
        self.uid = kernel_uid(settings)
        uid = self.uid if self.uid is not None else os.getuid()
        limits = {"RLIMIT_AS": settings["memory"], "RLIMIT_CORE": 0, "RLIMIT_FSIZE": settings["file_size"]}
        if settings["nproc"]:
            limits["RLIMIT_NPROC"] = count_processes(uid) + settings["nproc"]
        needed = sorted({os.path.realpath(p) for p in [*settings["readonly"], settings["package_parent"], sys.base_prefix,
                                                       os.path.dirname(sys.executable),
                                                       os.path.dirname(os.path.realpath(sys.executable))] if p})
        config = {
            "scratch": scratch,
            "namespace": mode in ("root", "userns"),
            "hide": settings["hide"],
            "readonly": settings["readonly"],
            "reach": needed if mode == "root" else [],
            "limits": limits,
            "uid": self.uid,
            "gid": self.uid,
            "cell_timeout": settings["timeout"],
            "total_timeout": max(1.0, budget) + GRACE,  # the grader's watchdog, from ready, ends it first
            "output_limit": settings["output_limit"],
        }
        command = [sys.executable, "-s", "-m", "mic_dp_teacher.grading.worker", __import__("json").dumps(config)]
        jail = {"scratch": scratch, "tmpfs": int(settings.get("tmp_size") or 0) if mode in ("root", "userns") else 0,
                "needed": needed,
                "uid": self.uid}
        if settings["as_nobody"] and settings.get("cgroup", True):
            try:
                self.cgroup = MemoryCgroup(settings["memory"])
                jail["cgroup_procs"] = self.cgroup.procs
            except OSError:
                self.cgroup = None
        if jail["tmpfs"] or jail.get("cgroup_procs"):
            command = [sys.executable, "-I", "-S", os.path.join(os.path.dirname(__file__), "jail.py"),
                       __import__("json").dumps(jail), "--", *command]
        if mode in ("root", "userns"):
            prefix = [shutil.which("unshare"), "--pid", "--fork", "--kill-child", "--mount", "--mount-proc", "--net",
                      "--propagation", "private"]
            if mode == "userns":
                prefix[1:1] = ["--user", "--map-root-user"]
            command = prefix + command
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "PYTHONPATH": settings["package_parent"],
            "PYTHONDONTWRITEBYTECODE": "1",
            "MPLBACKEND": "Agg",
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "HOME": scratch,
            "TMPDIR": scratch,
        }
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=scratch, env=env, start_new_session=True, close_fds=True,
        )
        self.fd_out, self.fd_in = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self.fd_out, False)  # every write has a deadline (see protocol.send)
        # the total time limit holds even if the grader is blocked: at the deadline the kernel is killed
        self._watch(START_LIMIT)
        ready = self._recv(self.deadline)
        if ready is None:
            return
        if ready["op"] == "sandbox_failed":
            self.setup_failed = True
            self.kill(f"the sandbox could not be set up ({str(ready.get('message'))[:300]})")
        elif ready["op"] != "ready" or not isinstance(ready.get("isolation", []), list):
            self.kill("the kernel did not start properly")
        else:
            self.isolation = [str(x) for x in ready.get("isolation", [])]
            self.ready = True
            self.watchdog.cancel()
            self.deadline = time.monotonic() + budget
            self._watch(budget)

    def _watch(self, seconds: float) -> None:
        self.watchdog = threading.Timer(max(0.0, seconds), self._expire)
        self.watchdog.daemon = True
        self.watchdog.start()

    # ----- life and death --------------------------------------------------------------------------
    def _kill_all(self) -> None:
        """SIGKILL the kernel and everything it started (its cgroup, its user id, its process group)."""
        if self.cgroup is not None:
            self.cgroup.kill()
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.kill()
        except ProcessLookupError:
            pass
        kill_uid(self.uid)

    def _expire(self) -> None:
        """The watchdog: the submission's total time is up, whatever the grader is doing."""
        if self.stopped is None:
            self.expired = True
            self._kill_all()

    def kill(self, reason: str) -> None:
        """Stop the kernel and everything it started (its user's processes, its cgroup), recording ``reason``.

        Parameters
        ----------
        reason : str
            Why it is stopped (the first reason given stays).
        """
        if self.expired and self.stopped is None:
            reason = "time"
        if self.stopped is None:
            self.stopped = reason
        if self.watchdog is not None:
            self.watchdog.cancel()
        self._kill_all()
        self.process.wait()
        kill_uid(self.uid)
        if self.cgroup is not None:
            self.cgroup.destroy()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def close(self) -> None:
        """Ask the worker to exit, then make sure it and everything it started are gone."""
        if self.stopped is None:
            try:
                protocol.send(self.fd_out, {"op": "exit"}, time.monotonic() + GRACE)
                self.process.wait(timeout=5)
            except (OSError, TimeoutError, subprocess.TimeoutExpired, protocol.ProtocolError):
                pass
            self.stopped = "closed"
        self.kill(self.stopped)

    def _death(self) -> str:
        code = self.process.poll()
        if code is None:
            return "the kernel stopped answering"
        if code < 0 or code >= 128:
            number = -code if code < 0 else code - 128
            name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
            return f"the kernel died (signal {name})"
        return f"the kernel exited (exit code {code})"

    def _recv(self, deadline: float) -> dict | None:
        """The next message, or None after killing the kernel (timeout, death, garbage)."""
        if self.stopped is not None:
            return None
        limit = min(deadline, self.deadline)
        try:
            message = protocol.recv(self.fd_in, limit)
            if message["op"] in ("crashed", "error"):
                self.kill(f"the kernel failed ({str(message.get('message'))[:200]})")
                return None
            return message
        except TimeoutError:
            if time.monotonic() >= self.deadline or self.expired:
                self.kill("time")
            else:
                self.kill("timeout")
        except protocol.ProtocolError as error:
            time.sleep(0.05)
            reason = self._death() if self.process.poll() is not None else f"the kernel broke the protocol ({error})"
            self.kill(reason)
        except OSError as error:
            self.kill(f"the channel to the kernel failed ({error})")
        return None

    def _send(self, message: dict) -> bool:
        if self.stopped is not None:
            return False
        try:
            protocol.send(self.fd_out, message, min(self.deadline, time.monotonic() + SEND_GRACE))
            return True
        except TimeoutError:
            self.kill("time" if time.monotonic() >= self.deadline else "the kernel stopped reading what the grader sent")
            return False
        except (OSError, protocol.ProtocolError):
            time.sleep(0.05)
            self.kill(self._death())
            return False

    # ----- running the notebook --------------------------------------------------------------------
    def run_cells(self, n_cells: int) -> list[dict]:
        """Reports of the cells that ran; the last one has status "stopped" if the kernel was stopped.

        Parameters
        ----------
        n_cells : int
            Number of code cells the worker runs.

        Returns
        -------
        list of dict
            One report per cell that ran.
        """
        reports: list[dict] = []
        current = 0
        timeout = self.settings["timeout"]
        while self.stopped is None:
            message = self._recv(time.monotonic() + (timeout + GRACE if current else 120))
            if message is None:
                break
            if message["op"] == "cell":
                current = message.get("index") if isinstance(message.get("index"), int) else current + 1
            elif message["op"] == "cell_done":
                status, error = message.get("status"), message.get("error")
                if status not in ("ok", "error", "memory", "timeout") or (
                        status in ("error", "memory") and not (isinstance(error, dict)
                                                               and isinstance(error.get("summary", ""), str))):
                    self.kill("the kernel broke the protocol (a malformed cell report)")
                    break
                reports.append({
                    "index": current,
                    "status": status,
                    "error": error if isinstance(error, dict) else None,
                    "output": str(message.get("output", ""))[: self.settings["output_limit"]],
                    "output_chars": message.get("output_chars") if isinstance(message.get("output_chars"), int) else 0,
                })
            elif message["op"] == "cells_finished":
                return reports
            elif message["op"] == "crashed":
                self.kill(f"the kernel failed ({str(message.get('message'))[:200]})")
            else:
                self.kill("the kernel sent an unexpected message")
        reports.append({"index": current, "status": "stopped", "reason": self.stopped})
        return reports

    def lookup(self, name: str) -> dict | None:
        """What the student's namespace holds under ``name`` (the worker's reply), or None if the kernel stopped.

        Parameters
        ----------
        name : str
            The name to look up.

        Returns
        -------
        dict or None
            The reply.
        """
        if not self._send({"op": "lookup", "name": name}):
            return None
        reply = self._recv(time.monotonic() + GRACE * 2)
        if reply is not None and reply.get("op") != "found":
            self.kill("the kernel sent an unexpected message")
            return None
        return reply

    # ----- calling the student's function ----------------------------------------------------------
    def call(self, exercise: str, name: str, args: tuple, kwargs: dict, repeat: int | None):
        """Call the student's function ``name`` in the kernel (``repeat`` times in one round trip if given).

        Parameters
        ----------
        exercise : str
            The exercise whose check calls it.
        name : str
            The function's name in the student's namespace.
        args : tuple
            Positional arguments (plain data travels, other objects become handles).
        kwargs : dict
            Keyword arguments.
        repeat : int or None
            Number of calls, or None for one call.

        Returns
        -------
        object
            What the function returned (a list of ``repeat`` results when ``repeat`` is given).

        Raises
        ------
        KernelStopped
            If the kernel stopped (time, memory, a crash).
        ForbiddenHelperCalled
            If the function called a course helper the check forbids.
        CheckFailed
            If it returned something that cannot be sent.
        """
        if self.stopped is not None:
            raise KernelStopped(self.stopped)
        handles: dict[int, object] = {}
        seeds: dict[int, list] = {}
        by_value: dict[int, int] = {}

        def handle(value) -> dict:
            key = len(handles)
            if isinstance(value, np.random.Generator):
                if id(value) not in seeds:  # an independent stream drawn from the checker's generator
                    seeds[id(value)] = [int(x) for x in value.integers(0, 2**63 - 1, size=4)]
                return {"t": "rng", "k": id(value) % (2**52), "seed": seeds[id(value)]}
            if isinstance(value, type):
                raise wire.WireError(f"a class ({value.__name__}) cannot be passed to the student's function")
            if wire.is_course_object(value):  # by value; the student's changes come back with the result
                if id(value) not in by_value:
                    by_value[id(value)] = key
                    handles[key] = value
                return {"t": "course", "k": by_value[id(value)], "cls": f"{type(value).__module__}:{type(value).__qualname__}",
                        "state": wire.encode(dict(vars(value)))}
            handles[key] = value
            if callable(value):
                return {"t": "callable", "k": key, "name": str(getattr(value, "__name__", "function"))[:100]}
            methods = sorted(n for n in dir(type(value)) if not n.startswith("_") and callable(getattr(type(value), n, None)))
            return {"t": "obj", "k": key, "type": type(value).__name__, "methods": methods}

        request = {"op": "call", "exercise": exercise, "name": name, "timeout": self.settings["timeout"],
                   "args": wire.encode(list(args), handle), "kwargs": wire.encode(dict(kwargs), handle),
                   "repeat": repeat}
        if not self._send(request):
            raise KernelStopped(self.stopped)
        started = sent = time.monotonic()
        while True:
            message = self._recv(started + self.settings["timeout"] + GRACE)
            if message is None:
                raise KernelStopped(self.stopped)
            if message["op"] == "callback":
                started = time.monotonic()  # the checker's own time does not count against the student
                reply = self._answer_callback(message, handles)
                started = time.monotonic()
                if not self._send(reply):
                    raise KernelStopped(self.stopped)
                continue
            if message["op"] != "result":
                self.kill("the kernel sent an unexpected message")
                raise KernelStopped(self.stopped)
            self._sync(message.get("states"), handles, set(by_value.values()))
            apply_changes(message.get("changed"), args)
            return self._result(message, repeat, sent, request)

    def _sync(self, states, handles: dict, keys: set) -> None:
        """Give the checker's course objects the state the student's code left them in."""
        if not isinstance(states, list):
            return
        for entry in states:
            if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in keys):
                continue
            try:
                state = wire.decode(entry[1])
            except (wire.WireError, RecursionError):
                continue
            if isinstance(state, dict) and all(isinstance(k, str) for k in state):
                target = handles[entry[0]]
                target.__dict__.clear()
                target.__dict__.update(state)

    def _answer_callback(self, message: dict, handles: dict) -> dict:
        key, method = message.get("k"), message.get("method")
        target = handles.get(key) if isinstance(key, int) else None
        try:
            if target is None:
                raise LookupError("no such object")
            generators: dict = {}

            def rebuild(node):  # the student's own generator, by state; its new state goes back
                if node.get("t") != "rngstate":
                    raise wire.WireError("unexpected handle")
                state = wire.decode(node.get("state"))
                name = state.get("bit_generator") if isinstance(state, dict) else None
                if name not in ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"):
                    raise wire.WireError("unsupported generator")
                bit_generator = getattr(np.random, name)()
                bit_generator.state = state
                generators[node.get("k")] = np.random.Generator(bit_generator)
                return generators[node.get("k")]

            args = wire.decode(message.get("args"), rebuild)
            kwargs = wire.decode(message.get("kwargs"), rebuild)
            if not isinstance(args, list) or not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
                raise TypeError("bad arguments")
            if method is None:
                if not callable(target):
                    raise TypeError("not callable")
                value = target(*args, **kwargs)
            elif method == "__getattr__":
                attribute = args[0] if args and isinstance(args[0], str) else ""
                if not attribute or attribute.startswith("_") or not hasattr(target, attribute):
                    raise AttributeError(f"no public attribute {attribute!r}")
                value = getattr(target, attribute)
                if callable(value):
                    raise AttributeError(f"{attribute!r} is a method")
            else:
                if not isinstance(method, str) or method.startswith("_") or not callable(getattr(type(target), method, None)):
                    raise AttributeError(f"no public method {method!r}")
                value = getattr(target, method)(*args, **kwargs)
            reply = {"op": "reply", "ok": wire.encode(value)}
            reply["rng_states"] = [[k, wire.encode(g.bit_generator.state)] for k, g in generators.items()]
            return reply
        except Exception as error:  # the checker's function refused: the student's code sees the error
            raised = {"type": type(error).__name__, "message": str(error)[:500]}
            if (type(error).__module__ or "").startswith("mic_dp_helpers."):
                raised["cls"] = f"{type(error).__module__}:{type(error).__qualname__}"
            return {"op": "reply", "raised": raised}

    def _timed_out(self, sent: float) -> bool:
        """Whether the call really ran into its time limit, by the grader's own clock (the kernel's word is not enough)."""
        now = time.monotonic()
        return now - sent >= self.settings["timeout"] - 0.5 or now >= self.deadline - 1.0

    @staticmethod
    def _readable(request: dict) -> bool:
        """Whether the arguments the grader sent decode here (then a kernel saying it could not read them lies)."""
        def handle(node):
            if node.get("t") == "course":
                return wire.course_object(node.get("cls"), wire.decode(node.get("state")))
            if node.get("t") not in ("rng", "callable", "obj"):
                raise ValueError("unknown handle")
            return None

        try:
            wire.decode(request.get("args"), handle=handle)
            wire.decode(request.get("kwargs"), handle=handle)
        except Exception:
            return False
        return True

    def _result(self, message: dict, repeat: int | None, sent: float = 0.0, request: dict | None = None):
        from mic_dp_helpers.checks._core import CheckFailed

        if "ok" in message:
            try:
                value = wire.decode(message["ok"])
            except (wire.WireError, RecursionError) as error:
                self.kill(f"the kernel sent a value the grader could not read ({error})")
                raise KernelStopped(self.stopped) from None
            if repeat is not None and (not isinstance(value, list) or len(value) != repeat):
                self.kill("the kernel sent the wrong number of results")
                raise KernelStopped(self.stopped)
            return value
        if "refused" in message:  # a forbidden course helper was called: the notebook's own message
            raise ForbiddenHelperCalled(str(message["refused"])[:500])
        if message.get("timeout"):
            if not self._timed_out(sent):  # the student's code raised the kernel's time-out, or forged the reply
                error = StudentError("the kernel reported a time-out that did not happen")
                error.student_summary = (f"a fake time-out after {time.monotonic() - sent:.1f} s (the limit is "
                                         f"{self.settings['timeout']:g} s); the grader measures time itself")
                raise error
            error = StudentTimeout(f"ran past the {self.settings['timeout']} s limit")
            raise error
        if "unsendable" in message:
            raise CheckFailed(
                f"it returned {str(message['unsendable'])[:200]}, which the grader cannot receive; "
                "return plain data (numbers, strings, lists, dicts, NumPy arrays, pandas objects)."
            )
        if "bad_request" in message:
            if request is not None and self._readable(request):  # the student's code broke the kernel's reading
                error = StudentError("the kernel refused the check's arguments, which are valid")
                error.student_summary = ("an error reading the check's arguments, which are valid: your notebook "
                                         "changed how its kernel reads them")
                raise error
            raise GraderLimitation(f"the kernel could not read the check's arguments ({str(message['bad_request'])[:200]})")
        raised = message.get("raised") if isinstance(message.get("raised"), dict) else {}
        name, text = str(raised.get("type", "Exception"))[:100], str(raised.get("message", ""))[:500]
        summary = str(raised.get("summary", f"{name}: {text}"))[:600]
        kind = getattr(__import__("builtins"), name, None)
        if name == "NotImplementedError":
            raise NotImplementedError(text)
        if raised.get("cls"):
            try:
                attrs = wire.decode(raised["attrs"]) if "attrs" in raised else None
            except (wire.WireError, RecursionError):
                attrs = None
            error = wire.course_exception(raised["cls"], text, attrs)
            if error is not None:
                error.student_summary = summary
                raise error
        if isinstance(kind, type) and issubclass(kind, Exception) and kind.__module__ == "builtins":
            try:
                error = kind(text)
            except Exception:
                error = StudentError(text)
        else:
            error = StudentError(text)
        error.student_summary = summary
        raise error


Call = Callable[..., object]
