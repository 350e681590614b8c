"""Finding the submissions: every notebook below the folder, read once, under a name a spreadsheet can show.

A file name is whatever bytes the file system holds: an archive unpacked on another system can leave
bytes that are not UTF-8, control characters, or a name that differs from a classmate's only in its
Unicode normalisation (macOS writes "é" as "e" plus a combining accent). Each submission is graded under
:func:`readable_name` of its path, which is always valid UTF-8 and shows what is unusual in it; two
files that would be shown alike get a short hash of their real name, so every file keeps a row of its own.
"""

from __future__ import annotations

import hashlib
import os
import stat
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

MAX_NOTEBOOK_BYTES = 50 * 1024 * 1024
_KEEP = {"\u200d"}  # the zero-width joiner holds emoji together: shown as it is


def readable_name(name: str) -> str:
    r"""``name`` (as ``os`` returns it) as a spreadsheet can show it: valid UTF-8 in NFC, nothing invisible.

    Bytes that are not UTF-8 become ``\xNN``; control, format and line-separator characters (a newline,
    an escape, a right-to-left override) become ``\xNN`` or ``\uNNNN``; the rest is normalised to NFC.

    Parameters
    ----------
    name : a file name or relative path from ``os.walk`` (undecodable bytes held as surrogates)

    Returns
    -------
    str

    Examples
    --------
    >>> readable_name("caf\udce9.ipynb"), readable_name("a\nb"), readable_name("Mu\u0308ller")
    ('caf\\xe9.ipynb', 'a\\x0ab', 'Müller')
    """
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    shown = []
    for char in text:
        if char not in _KEEP and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            shown.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        else:
            shown.append(char)
    return unicodedata.normalize("NFC", "".join(shown))


def _shown(relative: Path) -> str:
    return "/".join(readable_name(part) for part in relative.parts) or "."


def _submission(relative: Path, path: Path, refused: str | None = None) -> Submission:
    parts = [readable_name(part) for part in relative.parts]
    student = parts[0] if len(parts) > 1 else Path(parts[-1]).stem if parts else "."
    return Submission("/".join(parts) or ".", student, path, refused=refused, raw=os.fsencode(str(relative)))


def _unique(found: list[Submission]) -> list[Submission]:
    """Files shown alike (e.g. "é" written two ways) stay apart: in each one whose real path is not exactly what is
    shown, the first part shown differently gets `` #`` and a hash of the real path (the same on every run), so a
    twin folder is a student of its own and a twin file a notebook of its own."""
    shared = Counter(sub.name for sub in found)
    for sub in found:
        if shared[sub.name] < 2 or sub.raw == sub.name.encode("utf-8"):
            continue
        digest = hashlib.sha256(sub.raw).hexdigest()[:8]
        parts = [os.fsdecode(part) for part in sub.raw.split(b"/")]
        shown = [readable_name(part) for part in parts]
        at = next(i for i, part in enumerate(parts) if os.fsencode(part) != shown[i].encode("utf-8"))
        stem, dot, suffix = shown[at].rpartition(".")
        shown[at] = f"{stem} #{digest}.{suffix}" if dot and at == len(shown) - 1 else f"{shown[at]} #{digest}"
        sub.name = "/".join(shown)
        sub.student = shown[0] if len(shown) > 1 else Path(shown[0]).stem
    return found


@dataclass
class Submission:
    """A notebook file found in the submissions folder, read once (later changes on disk are ignored).

    Attributes
    ----------
    name : str
        Path below the submissions folder.
    student : str
        The student's id (the sub-folder, or the file's stem).
    path : pathlib.Path
        Where the file is.
    data : bytes or None
        Its content, read once; None when refused.
    sha256 : str
        Hash of ``data``.
    refused : str or None
        Why it is not graded (a link, an unreadable file), or None.
    raw : bytes
        The path below the submissions folder as the file system holds it.
    """

    name: str
    student: str
    path: Path
    data: bytes | None = None
    sha256: str = ""
    refused: str | None = None
    raw: bytes = b""  # the path below the submissions folder, as the file system holds it


def find_submissions(folder: Path | str) -> list[Submission]:
    """Every ``*.ipynb`` below ``folder``, read into memory; symbolic links and special files are refused.

    Nothing outside ``folder`` is ever opened: links (to files or folders) are reported, not followed.

    Parameters
    ----------
    folder : path
        The submissions folder.

    Returns
    -------
    list of Submission
        Sorted by name; refused files are included with ``refused`` set.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(f"submissions folder {folder} does not exist or is not a folder")
    root = Path(os.path.realpath(folder))
    found: list[Submission] = []

    def unreadable(error: OSError) -> None:  # a folder the grader may not list: say so, never skip it silently
        relative = Path(error.filename).relative_to(root) if error.filename else Path(".")
        found.append(_submission(relative, Path(error.filename or root), refused=(
            f"refused: the folder `{_shown(relative)}` could not be read ({error.strerror or error}); nothing in it was graded")))

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d != ".ipynb_checkpoints" and not d.startswith("."))
        for name in list(dirnames):
            if os.path.islink(here / name):
                dirnames.remove(name)
                relative = (here / name).relative_to(root)
                found.append(_submission(relative, here / name, refused=(
                    f"refused: `{_shown(relative)}` is a symbolic link to a folder; links are not followed")))
            elif name.endswith(".ipynb"):  # a folder named like a notebook: say so, do not look inside
                dirnames.remove(name)
                relative = (here / name).relative_to(root)
                found.append(_submission(relative, here / name, refused=(
                    f"refused: `{_shown(relative)}` is a folder, not a notebook file; hand in the notebook file itself "
                    "(nothing inside the folder was graded)")))
        for name in sorted(filenames):
            if not name.endswith(".ipynb"):
                continue
            path = here / name
            relative = path.relative_to(root)
            submission = _submission(relative, path)
            found.append(submission)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                submission.refused = (f"refused: `{_shown(relative)}` is a symbolic link; the grader reads only files inside "
                                      "the submissions folder and never follows links")
                continue
            if not stat.S_ISREG(info.st_mode):
                submission.refused = f"refused: `{_shown(relative)}` is not a regular file"
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                try:
                    if not stat.S_ISREG(os.fstat(fd).st_mode):
                        raise OSError("not a regular file")
                    if os.fstat(fd).st_size > MAX_NOTEBOOK_BYTES:
                        raise OSError(f"larger than {MAX_NOTEBOOK_BYTES // 2**20} MB")
                    with os.fdopen(fd, "rb", closefd=False) as handle:
                        data = handle.read(MAX_NOTEBOOK_BYTES + 1)
                finally:
                    os.close(fd)
            except OSError as error:
                submission.refused = f"refused: `{_shown(relative)}` could not be read ({error.strerror or error})"
                continue
            submission.data = data
            submission.sha256 = hashlib.sha256(data).hexdigest()
    return _unique(found)
