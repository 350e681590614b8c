"""Plot style for the course: colour-blind-safe colours, readable labels, a takeaway under each figure."""

from __future__ import annotations

import textwrap

import matplotlib as mpl
import matplotlib.pyplot as plt

__all__ = ["OKABE_ITO", "use_course_style", "add_takeaway"]

#: The Okabe-Ito palette, distinguishable with the common forms of colour blindness.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")


def use_course_style() -> None:
    """Set matplotlib defaults for the lessons (call once at the top of a notebook).

    Examples
    --------
    >>> use_course_style()
    >>> mpl.rcParams["axes.prop_cycle"].by_key()["color"][0]
    '#0072B2'
    """
    mpl.rcParams.update(
        {
            "axes.prop_cycle": mpl.cycler(color=OKABE_ITO),
            "figure.figsize": (7.5, 4.2),
            "figure.dpi": 90,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 13,
            "axes.labelsize": 11,
            "legend.frameon": False,
        }
    )


def add_takeaway(fig: plt.Figure, text: str) -> plt.Figure:
    """Write a one-line takeaway under ``fig`` (wrapped if long) and return the figure.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> _ = add_takeaway(fig, "More attributes, more unique people.")
    >>> plt.close(fig)
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a non-empty sentence that says what the figure shows.")
    fig.tight_layout()
    fig.subplots_adjust(bottom=fig.subplotpars.bottom + 0.08)
    fig.text(0.5, 0.01, "\n".join(textwrap.wrap("Takeaway: " + text, 110)), ha="center", va="bottom", fontsize=10.5, style="italic")
    return fig
