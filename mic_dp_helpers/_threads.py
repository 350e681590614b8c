"""One thread for small linear algebra: BLAS and OpenMP threads only add overhead on the course's
small matrices, and on a busy machine their spinning costs ten to fifty times the work itself
(lesson 06's kernel inducing points ran ten times faster on one thread)."""

from __future__ import annotations

_CONTROLLER: list = []


def one_thread():
    """A context in which BLAS and OpenMP use one thread (the library scan is done once per process).

    Returns
    -------
    threadpoolctl context manager
        Use it in a ``with`` statement; the previous limits come back on exit.

    Examples
    --------
    >>> import numpy as np
    >>> with one_thread():
    ...     float(np.eye(2).sum())
    2.0
    """
    if not _CONTROLLER:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1)
