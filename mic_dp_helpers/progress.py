"""Progress bars that a saved notebook shows in their final state.

tqdm's notebook bar is a widget, and a notebook file keeps a widget's text as it was when the bar
*appeared*: ``0%| | 0/5``. That is what a reader of the saved lesson sees (on GitHub, in nbviewer, in
a JupyterLab that has not stored the widget state). :func:`progress_bar` shows the same live widget while
the loop runs and, when the loop ends, replaces it with one line of text: the bar's final state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

Item = TypeVar("Item")


class _FinalLine:
    """What replaces the widget when the loop ends: plain text, so every viewer renders it."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": self.text}


def _in_a_notebook() -> bool:
    from tqdm.auto import tqdm as chosen
    from tqdm.notebook import tqdm_notebook

    return issubclass(chosen, tqdm_notebook)


def progress_bar(iterable: Iterable[Item], desc: str, *, total: int | None = None,
             disable: bool = False) -> Iterator[Item]:
    """Iterate over ``iterable`` with a tqdm progress bar that leaves its final state behind.

    Parameters
    ----------
    iterable : iterable
        What the loop runs over.
    desc : str
        The bar's label, for instance ``"training seeds"``.
    total : int, optional
        The number of items, when ``len(iterable)`` does not exist.
    disable : bool, default False
        No bar at all (the items are yielded unchanged).

    Yields
    ------
    item
        The items of ``iterable``, in order.

    Notes
    -----
    In Jupyter the bar is tqdm's widget, shown with a display id; when the loop ends (or is left
    early) that display is updated to a plain-text line such as
    ``training seeds: 100%|██████████| 3/3 [00:12<00:00,  4.1s/it]``, which the notebook file then
    keeps. Outside Jupyter it is tqdm's text bar on standard error.

    Examples
    --------
    >>> [seed for seed in progress_bar(range(3), "seeds", disable=True)]
    [0, 1, 2]
    """
    if not isinstance(desc, str):
        raise TypeError(f"desc must be the bar's label as a str, got {type(desc).__name__}.")
    if disable:
        yield from iterable
        return
    if not _in_a_notebook():
        from tqdm.std import tqdm

        yield from tqdm(iterable, desc=desc, total=total)
        return
    from IPython.display import display
    from tqdm.notebook import tqdm_notebook

    bar = tqdm_notebook(iterable, desc=desc, total=total, display=False)
    handle = display(bar.container, display_id=True)
    try:
        yield from bar
    finally:
        bar.close()
        handle.update(_FinalLine(str(bar)))
