"""Length-prefixed JSON messages over a pipe (the only channel between grader and student kernel)."""

from __future__ import annotations

import json
import os
import select
import struct
import time

__all__ = ["ProtocolError", "send", "recv", "MAX_MESSAGE"]

MAX_MESSAGE = 64 * 1024 * 1024
_HEADER = struct.Struct(">Q")


class ProtocolError(RuntimeError):
    """The other side sent something that is not a well-formed message, or hung up."""


def send(fd: int, message: dict, deadline: float | None = None) -> None:
    """Write one message; with ``deadline`` (a ``time.monotonic()`` value; ``fd`` should be non-blocking)
    raise TimeoutError if the other side has not taken all of it by then.

    Parameters
    ----------
    fd : int
        File descriptor to write to.
    message : dict
        A JSON-serialisable message with an ``"op"``.
    deadline : float, optional
        A ``time.monotonic()`` value.

    Raises
    ------
    ProtocolError
        If the encoded message is too large.
    TimeoutError
        If ``deadline`` passes first.
    """
    data = json.dumps(message, allow_nan=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_MESSAGE:
        raise ProtocolError(f"message of {len(data)} bytes is larger than {MAX_MESSAGE}")
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([], [fd], [], remaining)[1]:
                raise TimeoutError("the other side did not read the message before the deadline")
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            continue
        view = view[written:]


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes:
    chunks, left = [], n
    while left:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError("no message before the deadline")
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise ProtocolError("the other side closed the channel")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv(fd: int, deadline: float | None = None) -> dict:
    """Read one message; with ``deadline`` (a ``time.monotonic()`` value) raise TimeoutError after it.

    Parameters
    ----------
    fd : int
        File descriptor to read from.
    deadline : float, optional
        A ``time.monotonic()`` value.

    Returns
    -------
    dict
        The message (it has a string ``"op"``).

    Raises
    ------
    ProtocolError
        If the message is too large, not JSON, or not an object with an ``"op"``.
    TimeoutError
        If ``deadline`` passes first.
    """
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_MESSAGE:
        raise ProtocolError(f"announced message of {size} bytes is larger than {MAX_MESSAGE}")
    try:
        message = json.loads(_read_exact(fd, size, deadline).decode("utf-8"))
    except (ValueError, RecursionError) as error:  # bad UTF-8 or JSON, or e.g. an integer of 5000 digits
        raise ProtocolError(f"the message is not valid JSON ({str(error)[:100]})") from None
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise ProtocolError("the message has no operation")
    return message
