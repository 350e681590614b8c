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


def send(fd: int, message: dict) -> None:
    data = json.dumps(message, allow_nan=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_MESSAGE:
        raise ProtocolError(f"message of {len(data)} bytes is larger than {MAX_MESSAGE}")
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
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
    """Read one message; with ``deadline`` (a ``time.monotonic()`` value) raise TimeoutError after it."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > MAX_MESSAGE:
        raise ProtocolError(f"announced message of {size} bytes is larger than {MAX_MESSAGE}")
    try:
        message = json.loads(_read_exact(fd, size, deadline).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ProtocolError("the message is not valid JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise ProtocolError("the message has no operation")
    return message
