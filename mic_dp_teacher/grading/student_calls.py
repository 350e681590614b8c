"""A call of the student's function from a check: the function as the check sees it, how a call can end, and
how the student's in-place changes to the arguments come back.

The kernel itself (:class:`mic_dp_teacher.grading.sandbox.StudentKernel`) is started and spoken to in
:mod:`~mic_dp_teacher.grading.sandbox`, which raises the exceptions defined here.
"""

from __future__ import annotations

import numpy as np

from mic_dp_helpers.checks._core import CheckFailed
from mic_dp_teacher.grading import wire


class KernelStopped(BaseException):
    """The student's kernel died, stopped answering, or broke the protocol (see ``StudentKernel.stopped``)."""


def apply_changes(changed, args: tuple) -> None:
    """Make the student's in-place changes to the checker's arguments, as a local call would have.

    Parameters
    ----------
    changed : list
        The kernel's report of changed arguments: ``[position, new value]`` pairs (anything else is
        ignored, since the kernel is not trusted).
    args : tuple
        The checker's own argument objects, changed in place.
    """
    import pandas as pd

    if not isinstance(changed, list):
        return
    for entry in changed:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and 0 <= entry[0] < len(args)):
            continue
        try:
            new = wire.decode(entry[1])
        except (wire.WireError, RecursionError):
            continue
        orig = args[entry[0]]
        try:
            if isinstance(orig, np.ndarray) and isinstance(new, np.ndarray) and orig.shape == new.shape:
                orig[...] = new
            elif isinstance(orig, list) and isinstance(new, list):
                orig[:] = new
            elif isinstance(orig, (dict, set)) and type(new) is type(orig):
                orig.clear()
                orig.update(new)
            elif isinstance(orig, pd.Series) and isinstance(new, pd.Series) and len(orig) == len(new):
                orig[:] = new.to_numpy()
            elif isinstance(orig, pd.DataFrame) and isinstance(new, pd.DataFrame):
                gone = orig.index.difference(new.index)
                if len(gone):
                    orig.drop(index=gone, inplace=True)
                if orig.index.is_unique and new.index.is_unique and not orig.index.equals(new.index) \
                        and len(orig.index) == len(new.index) and set(orig.index) == set(new.index):
                    orig.sort_index(key=lambda index: pd.Index(new.index.get_indexer(index)), inplace=True)
                for column in [c for c in orig.columns if c not in new.columns]:
                    del orig[column]
                for column in new.columns:
                    orig[column] = new[column].reindex(orig.index)
        except (TypeError, ValueError, KeyError):
            continue


class StudentError(Exception):
    """An exception the student's function raised in its kernel (of a type the grader does not rebuild)."""


class ForbiddenHelperCalled(CheckFailed):
    """The student's function called a course helper its exercise forbids (the notebook's check fails it the same way)."""


class StudentTimeout(Exception):
    """The student's function ran past its time limit during a check."""

    student_summary = "a time-out"


class GraderLimitation(Exception):
    """The check handed the student something the grader cannot send across the sandbox."""


class StudentFunction:
    """The student's function as a check sees it: each call runs in the sandboxed kernel.

    Arguments travel as plain data; callables, NumPy generators and other objects of the checker stay
    in the grader (the student's side gets stand-ins). :meth:`call_repeatedly` makes ``n`` calls in one
    round trip, so :func:`mic_dp_helpers.checks._core.call_repeatedly` is as fast as a local loop.

    Parameters
    ----------
    kernel : StudentKernel
        The kernel the function lives in.
    exercise : str
        The exercise whose check calls it.
    name : str
        The function's name in the student's namespace.
    """

    def __init__(self, kernel: "StudentKernel", exercise: str, name: str) -> None:
        self._kernel, self._exercise, self.__name__ = kernel, exercise, name
        self.problem: BaseException | None = None  # why the grader, not the answer, stopped the check
        self.refused: str | None = None  # set when the function called a forbidden course helper: always wrong

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs, None)

    def call_repeatedly(self, n: int, *args) -> list:
        """``n`` calls ``self(*args)`` in one round trip to the kernel (see the class docstring).

        Parameters
        ----------
        n : int
            Number of calls (>= 0).
        *args
            Arguments of every call.

        Returns
        -------
        list
            The ``n`` results, in order.
        """
        n = int(n)
        if n < 0:
            raise ValueError("n must be >= 0")
        return self._call(args, {}, n)

    def _call(self, args, kwargs, repeat):
        try:
            return self._kernel.call(self._exercise, self.__name__, args, kwargs, repeat)
        except wire.WireError as error:
            self.problem = GraderLimitation(str(error))
            raise self.problem from None
        except (KernelStopped, StudentTimeout, GraderLimitation) as error:
            self.problem = error
            raise
        except ForbiddenHelperCalled as error:
            self.refused = self.refused or str(error)
            raise
