"""First step of a student kernel, before any of the course's or the student's code is imported.

Run by :mod:`mic_dp_teacher.grading.sandbox` as ``python -I -S jail.py CONFIG -- WORKER COMMAND...``, inside
the kernel's new namespaces and still privileged there. It:

- moves itself (and so everything the kernel will start) into the kernel's own memory cgroup, if the
  grader made one (``"cgroup_procs"``), so the memory of the whole process tree is bounded;
- gives the kernel private ``/tmp``, ``/var/tmp`` and ``/dev/shm`` (``"tmpfs"``): one size-limited tmpfs
  of its own that exists only in its mount namespace and is gone when the kernel ends;

and then replaces itself with the worker (:mod:`mic_dp_teacher.grading.worker`). It imports nothing but
the standard library, and refuses to start the worker if any step fails (the grader is told why).
"""

import ctypes
import ctypes.util
import json
import os
import struct
import sys

MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 4096, 16384, 1 << 18
MNT_DETACH = 2
PRIVATE_DIRS = ("/tmp", "/var/tmp", "/dev/shm")


def _fail(message: str) -> None:
    data = json.dumps({"op": "sandbox_failed", "message": message[:300]}).encode()
    try:
        os.write(1, struct.pack(">Q", len(data)) + data)
    finally:
        os._exit(3)


def _mount(libc, source, target, fstype, flags, data=None) -> None:
    encode = lambda v: None if v is None else v.encode()  # noqa: E731
    if libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount {target}: {os.strerror(error)}")


def _private_tmp(size: int, scratch: str, needed: list, uid=None) -> None:
    """One tmpfs of ``size`` bytes behind /tmp, /var/tmp and /dev/shm; the scratch folder and the ``needed``
    folders (Python, the course package) stay reachable where they were."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    _mount(libc, None, "/", None, MS_REC | MS_PRIVATE)
    under = lambda path: any(path == d or path.startswith(d + "/") for d in PRIVATE_DIRS)  # noqa: E731
    kept = [(path, os.open(path, os.O_RDONLY | os.O_DIRECTORY)) for path in [scratch, *needed]
            if under(path) and os.path.isdir(path)]
    staging = os.path.dirname(scratch)  # the run's folder: hidden from the kernel anyway, briefly used here
    _mount(libc, "tmpfs", staging, "tmpfs", MS_NOSUID | MS_NODEV, f"size={int(size)},nr_inodes=65536,mode=755")
    held = []
    for target in PRIVATE_DIRS:
        if not os.path.isdir(target) or os.path.islink(target):
            continue
        inner = os.path.join(staging, target.strip("/").replace("/", "_"))
        os.mkdir(inner)
        os.chmod(inner, 0o1777)
        held.append((target, os.open(inner, os.O_RDONLY | os.O_DIRECTORY)))
    if uid is not None:  # the kernel's own user id has no name on the machine: give it one here (Java needs it)
        for name, line in (("passwd", f"student:x:{uid}:{uid}:student:{scratch}:/usr/sbin/nologin\n"),
                           ("group", f"student:x:{uid}:\n")):
            try:
                text = open(f"/etc/{name}", encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            copy = os.path.join(staging, name)
            with open(copy, "w", encoding="utf-8") as handle:
                handle.write(text + ("" if text.endswith("\n") or not text else "\n") + line)
            os.chmod(copy, 0o644)
            _mount(libc, copy, f"/etc/{name}", None, MS_BIND)
    for target, fd in held:
        _mount(libc, f"/proc/self/fd/{fd}", target, None, MS_BIND)
    for _, fd in held:
        os.close(fd)
    libc.umount2(staging.encode(), MNT_DETACH)  # may already be covered by the new /tmp: then nothing to undo
    for path, fd in sorted(kept):  # e.g. the scratch folder, or a course checkout under /tmp: put them back
        if not os.path.isdir(path) or not os.path.samestat(os.stat(path), os.fstat(fd)):
            os.makedirs(path, exist_ok=True)
            _mount(libc, f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
        os.close(fd)


def main(argv: list) -> None:
    """Set up the kernel's cgroup and private /tmp from ``argv``, then replace this process with the worker.

    Parameters
    ----------
    argv : list of str
        ``[CONFIG_JSON, "--", WORKER_COMMAND...]``.
    """
    config = json.loads(argv[0])
    command = argv[2:]
    try:
        if config.get("cgroup_procs"):
            with open(config["cgroup_procs"], "w") as handle:
                handle.write("0")  # this process; every process the kernel starts stays in the cgroup
        if config.get("tmpfs"):
            _private_tmp(config["tmpfs"], config["scratch"], config.get("needed", []), config.get("uid"))
    except Exception as error:  # noqa: BLE001 - never run the student's code half closed in
        _fail(f"{type(error).__name__}: {error}")
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
