"""The processes of a student's kernel, as root: a user id of its own, a memory cgroup, and cleaning up.

Each kernel runs under a user id nobody else uses (:func:`free_kernel_uid`), so its process limit counts
its own processes only and everything it started can be killed at the end (:func:`kill_uid`). The
grading process adopts orphans (:func:`become_subreaper`) and kills them (:func:`kill_descendants`);
:class:`MemoryCgroup` bounds the memory of the kernel's whole process tree where the machine allows it.
"""

from __future__ import annotations

import functools
import os
import signal
import time

KERNEL_UID_BASE = 200000  # as root, each kernel runs under a user id of its own from here (no passwd entry)
KERNEL_UID_SLOTS = 60000


def count_processes(uid: int) -> int:
    """The number of processes running under ``uid``.

    Parameters
    ----------
    uid : int
        A user id.

    Returns
    -------
    int
        How many processes :func:`pids_of_uid` finds.
    """
    return len(pids_of_uid(uid))


def pids_of_uid(uid: int, *, living_only: bool = False) -> list[int]:
    """Processes whose real, effective, saved or file-system user id is ``uid``.

    Parameters
    ----------
    uid : int
        A user id.
    living_only : bool, default False
        Leave out the dead: zombies of a single thread, which wait for their parent to reap them (they still
        count towards the user's process limit). A zombie main thread with other threads still running is
        alive.

    Returns
    -------
    list of int
        Process ids.
    """
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        if str(uid) not in fields.get("Uid", "").split():
            continue
        dead = fields.get("State", "").split()[:1] in (["Z"], ["X"]) and fields.get("Threads", "").strip() == "1"
        if not (living_only and dead):
            found.append(int(entry))
    return found


_CLAIMS: dict[int, int] = {}  # user id -> fd of its lock file, held while a kernel of this grader may use it


def free_kernel_uid(taken=()) -> int:
    """Claim an unused user id for a kernel: no process runs under it, and no other grader (even another
    run at the same time) holds its lock. :func:`release_kernel_uid` gives it back.

    Parameters
    ----------
    taken : collection of int, optional
        User ids not to use.

    Returns
    -------
    int
        The claimed user id.

    Raises
    ------
    RuntimeError
        If every user id of the range is in use.
    """
    import fcntl
    import tempfile

    folder = os.path.join(tempfile.gettempdir(), f"mic-dp-grading-uids-{os.geteuid()}")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    for uid in range(KERNEL_UID_BASE, KERNEL_UID_BASE + KERNEL_UID_SLOTS):
        if uid in taken or uid in _CLAIMS:
            continue
        fd = os.open(os.path.join(folder, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        if pids_of_uid(uid):
            os.close(fd)
            continue
        _CLAIMS[uid] = fd
        return uid
    raise RuntimeError("no free user id for a kernel")


def release_kernel_uid(uid: int | None) -> None:
    """Kill what is left of ``uid`` and give it back to other runs.

    Parameters
    ----------
    uid : int or None
        A user id from :func:`free_kernel_uid`.
    """
    kill_uid(uid)
    fd = _CLAIMS.pop(uid, None)
    if fd is not None:
        os.close(fd)


def kill_uid(uid: int | None) -> None:
    """SIGKILL every process of ``uid`` (a kernel's own user id) until none is alive, for at most 5 s.

    Every process of the user id is signalled, zombies too (a zombie main thread may have live threads);
    a zombie of one thread is dead, and its parent reaps it (the grading process does, as subreaper).

    Parameters
    ----------
    uid : int or None
        The kernel's user id; None, 0 and the grader's own uid are ignored.
    """
    if uid is None or uid in (0, os.getuid()):
        return
    deadline, pause = time.monotonic() + 5.0, 0.005
    while True:  # a process of many threads can take a while to die on a loaded machine
        pids = pids_of_uid(uid, living_only=True)
        if not pids or time.monotonic() > deadline:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(pause)
        pause = min(2 * pause, 0.1)


PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Orphans of this process's descendants (e.g. a double-forked daemon) become its children, not init's.

    Returns
    -------
    bool
        Whether the kernel accepted (Linux only).
    """
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def kill_descendants() -> None:
    """SIGKILL every descendant of this process (with :func:`become_subreaper`, daemons included) and reap them."""
    me = os.getpid()
    for _ in range(50):
        parents = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", "rb") as handle:
                        text = handle.read()
                    parents[int(entry)] = int(text[text.rindex(b")") + 2:].split()[1])
                except (OSError, ValueError, IndexError):
                    pass
        mine, frontier = set(), {me}
        while frontier:
            frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in mine}
            mine |= frontier
        for pid in mine:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not mine:
            return
        time.sleep(0.01)


# ----- a memory cgroup per kernel ------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def cgroup_parent() -> tuple[str, str] | None:
    """("v2" or "v1", folder in which this process may create memory cgroups), or None."""
    if os.geteuid() != 0 or os.environ.get("MIC_DP_GRADING_CGROUP") == "off":
        return None
    try:
        lines = open("/proc/self/cgroup", encoding="ascii").read().splitlines()
    except OSError:
        return None
    for line in lines:
        number, controllers, path = line.split(":", 2)
        candidates = []
        if number == "0" and controllers == "":
            candidates.append(("v2", "/sys/fs/cgroup" + path))
            candidates.append(("v2", "/sys/fs/cgroup/unified" + path))
        elif "memory" in controllers.split(","):
            candidates.append(("v1", "/sys/fs/cgroup/memory" + path))
        for version, folder in candidates:
            limit = "memory.max" if version == "v2" else "memory.limit_in_bytes"
            probe = os.path.join(folder.rstrip("/"), f"mic-dp-probe-{os.getpid()}")
            try:
                os.mkdir(probe)
            except OSError:
                continue
            try:
                if os.path.exists(os.path.join(probe, limit)):
                    return version, folder.rstrip("/")
            finally:
                os.rmdir(probe)
    return None


def memory_bound(memory: int) -> str:
    """How the memory of a kernel's whole process tree is bounded on this machine (for gradebook_run.json).

    Parameters
    ----------
    memory : int
        Memory limit per kernel, in bytes.

    Returns
    -------
    str
        One sentence for the run's record.
    """
    found = cgroup_parent()
    if found is None:
        return ("per process only: RLIMIT_AS of each kernel process; no memory cgroup is available here, so a "
                "kernel's processes together may use up to --processes times --memory-gb")
    name = "memory.max" if found[0] == "v2" else "memory.limit_in_bytes"
    return f"cgroup {found[0]} {name} = {memory} bytes for each kernel's whole process tree (and its /tmp)"


class MemoryCgroup:
    """A memory cgroup holding one kernel's process tree; :meth:`destroy` kills what is in it and removes it.

    Parameters
    ----------
    memory : int
        Memory limit of the whole process tree, in bytes.

    Raises
    ------
    OSError
        If no memory cgroup is available or it cannot be created.
    """

    count = 0

    def __init__(self, memory: int) -> None:
        found = cgroup_parent()
        if found is None:
            raise OSError("no memory cgroup available")
        self.version, parent = found
        MemoryCgroup.count += 1
        self.path = os.path.join(parent, f"mic-dp-kernel-{os.getpid()}-{MemoryCgroup.count}")
        os.mkdir(self.path)
        try:
            if self.version == "v2":
                self._write("memory.max", memory)
                if os.path.exists(os.path.join(self.path, "memory.swap.max")):
                    self._write("memory.swap.max", 0)
            else:
                self._write("memory.limit_in_bytes", memory)
                if os.path.exists(os.path.join(self.path, "memory.memsw.limit_in_bytes")):
                    try:
                        self._write("memory.memsw.limit_in_bytes", memory)
                    except OSError:
                        pass
        except OSError:
            os.rmdir(self.path)
            raise
        self.procs = os.path.join(self.path, "cgroup.procs")

    def _write(self, name: str, value) -> None:
        with open(os.path.join(self.path, name), "w") as handle:
            handle.write(str(value))

    def kill(self) -> None:
        """SIGKILL every process in the cgroup (safe to call from another thread)."""
        if self.version == "v2" and os.path.exists(os.path.join(self.path, "cgroup.kill")):
            try:
                self._write("cgroup.kill", 1)
            except OSError:
                pass
        try:
            pids = [int(p) for p in open(self.procs).read().split()]
        except OSError:
            pids = []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def destroy(self) -> None:
        """Kill every process in the cgroup and remove it (retrying while the kernel lets go)."""
        for _ in range(200):
            self.kill()
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)
