"""How a student kernel closes itself in, before it runs any of the submission's code.

Called by :mod:`mic_dp_teacher.grading.worker` (inside the sandbox, after
:mod:`~mic_dp_teacher.grading.jail`): in the kernel's own mount namespace, when it starts as root there,
it hides folders, mounts the package and the Python environment read-only and makes the folders the
kernel needs reachable for its unprivileged user; then it sets resource limits and drops privileges.
Standard library only: it runs in the sandbox and must stay light.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource

__all__ = ["close_in"]

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18


def _mount(libc, source, target, fstype, flags, data=None) -> None:
    encode = lambda v: None if v is None else v.encode()  # noqa: E731
    if libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount {target}: {os.strerror(error)}")


def _passable(path: str) -> bool:
    """Whether a user who owns nothing on the way (the kernel's own user id) can pass through ``path``."""
    return bool(os.stat(path).st_mode & 0o001)


def _first_blocked(path: str) -> str | None:
    """The outermost folder above ``path`` that other users cannot pass through, if any (e.g. /root)."""
    parts = path.strip("/").split("/")
    for depth in range(1, len(parts)):
        ancestor = "/" + "/".join(parts[:depth])
        if not _passable(ancestor):
            return ancestor
    return None


def _same_folder(path: str, fd: int) -> bool:
    try:
        return os.path.isdir(path) and os.path.samestat(os.stat(path), os.fstat(fd))
    except OSError:
        return False


def _put_back(libc, path: str, fd: int) -> None:
    """Bind the folder open as ``fd`` at ``path`` again (after something was mounted over one of its ancestors)."""
    os.makedirs(path, exist_ok=True)
    _mount(libc, f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)


def _make_reachable(libc, paths: list[str]) -> list[str]:
    """Let an unprivileged kernel reach every one of ``paths``, whatever folders lie above them.

    The first folder above a path that others cannot pass through (a 0700 workspace, ``/root`` holding the
    Python the kernel runs, a private ``TMPDIR``) is covered, in this mount namespace only, with an empty
    tmpfs others can pass through, and the paths below it are put back; repeated until every path is
    reachable (a put-back folder may hold another private one). Nothing else of the covered folder is
    visible to the kernel. Returns the folders covered.
    """
    covered: list[str] = []
    wanted = sorted({p for p in paths if os.path.isdir(p)})
    for _ in range(32):
        blocked: dict[str, list[str]] = {}
        for path in wanted:
            ancestor = _first_blocked(path)
            if ancestor is not None:
                blocked.setdefault(ancestor, []).append(path)
        if not blocked:
            return covered
        for ancestor, below in sorted(blocked.items()):
            kept = [(path, os.open(path, os.O_RDONLY | os.O_DIRECTORY)) for path in below]
            _mount(libc, "tmpfs", ancestor, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=755")
            for path, fd in kept:
                _put_back(libc, path, fd)
                os.close(fd)
            covered.append(ancestor)
    raise OSError(f"could not make {', '.join(wanted)} reachable for the kernel's user")


def _self_test(scratch: str) -> None:
    """The kernel's own folders work (or the grader is told now, before any submission is graded)."""
    if os.path.realpath(os.getcwd()) != os.path.realpath(scratch):
        raise OSError(f"the kernel's working folder is {os.getcwd()}, not its scratch folder {scratch}")
    for folder in (scratch, "/tmp"):
        if not os.path.isdir(folder):
            continue
        probe = os.path.join(folder, f".mic-dp-probe-{os.getpid()}")
        with open(probe, "w", encoding="utf-8") as handle:
            handle.write("ok")
        os.remove(probe)


def close_in(config: dict) -> list[str]:
    """Hide folders, make the package read-only, set limits and drop privileges.

    Parameters
    ----------
    config : dict
        The kernel's settings from the grader (``scratch``, ``namespace``, ``uid``, ``gid``, ``reach``,
        ``readonly``, ``hide``, ``limits``).

    Returns
    -------
    list of str
        What was done: ``"namespace"`` (mounts made), ``"unprivileged"`` (user id dropped).
    """
    done = []
    scratch = config["scratch"]
    os.umask(0o022)  # folders made here to put paths back must be passable by the kernel's user
    keep = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY)  # before anything is mounted over it
    if config.get("namespace") and os.geteuid() == 0:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        _mount(libc, None, "/", None, MS_REC | MS_PRIVATE)
        if config.get("uid") is not None:  # the kernel gives up root: it must still reach Python and its scratch
            _make_reachable(libc, [*config.get("reach", []), scratch])
        for path in config.get("readonly", []):
            if os.path.exists(path):
                _mount(libc, path, path, None, MS_BIND | MS_REC)
                _mount(libc, None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        for path in config.get("hide", []):
            if os.path.isdir(path) and not os.path.islink(path):
                _mount(libc, "tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=755")
            elif os.path.isfile(path) and not os.path.islink(path):
                _mount(libc, "/dev/null", path, None, MS_BIND)
        if not _same_folder(scratch, keep):  # the scratch folder sat under a hidden or covered one: put it back
            _put_back(libc, scratch, keep)
        if config.get("uid") is not None:  # hiding may have covered a folder above it again
            _make_reachable(libc, [scratch])
        _loopback_up()
        done.append("namespace")
    limits = config.get("limits", {})
    for name, value in limits.items():
        which = getattr(resource, name)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            soft, hard = resource.getrlimit(which)
            resource.setrlimit(which, (min(value, hard) if hard != resource.RLIM_INFINITY else value, hard))
    uid = config.get("uid")
    if uid is not None and os.geteuid() == 0:
        os.setgroups([])
        os.setgid(config["gid"])
        os.setuid(uid)
        if os.getuid() != uid or os.geteuid() != uid:
            raise SystemExit("could not drop privileges")
        done.append("unprivileged")
    os.close(keep)
    os.chdir(scratch)
    _self_test(scratch)
    return done


def _loopback_up() -> None:
    """In the kernel's own network namespace only the loopback exists; switch it on (local servers work)."""
    import fcntl
    import socket
    import struct

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            request = struct.pack("16sH14s", b"lo", 0, b"")
            flags = struct.unpack("16sH14s", fcntl.ioctl(sock, 0x8913, request))[1]  # SIOCGIFFLAGS
            fcntl.ioctl(sock, 0x8914, struct.pack("16sH14s", b"lo", flags | 1, b""))  # SIOCSIFFLAGS, IFF_UP
    except OSError:
        pass
