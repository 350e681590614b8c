"""Plot style for the course: colour-blind-safe colours, readable labels, a takeaway under each figure."""

from __future__ import annotations

import textwrap

import matplotlib as mpl
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker

__all__ = ["OKABE_ITO", "use_course_style", "add_takeaway", "plain_log_labels", "show_figure", "figure_bundle",
           "FIGURE_DPI"]

#: Resolution of every figure a lesson shows: sharp on a projector.
FIGURE_DPI = 130

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
            # the dpi of the saved image: text is then measured once, at that dpi, for the layout and for
            # the image (matplotlib caches rendered text per dpi; log-axis labels are slow to typeset)
            "figure.dpi": FIGURE_DPI,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 13,
            "axes.labelsize": 11,
            "legend.frameon": False,
        }
    )


def _check_figure(fig) -> None:
    if not isinstance(fig, mpl.figure.Figure):
        raise TypeError(f"fig must be a matplotlib Figure (from plt.subplots()), got {type(fig).__name__}.")


def add_takeaway(fig: plt.Figure, text: str) -> plt.Figure:
    """Write a one-line takeaway under ``fig`` (wrapped to the figure's width) and return the figure.

    The axes are laid out first (``tight_layout``), then moved up to make room for the text.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The finished figure.
    text : str
        One sentence that says what the figure shows.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig``, with the takeaway drawn.

    Raises
    ------
    TypeError
        If ``fig`` is not a Figure.
    ValueError
        If ``text`` is empty.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> _ = add_takeaway(fig, "More attributes, more unique people.")
    >>> plt.close(fig)
    """
    _check_figure(fig)
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a non-empty sentence that says what the figure shows.")
    width, height = fig.get_size_inches()
    # Agg-based canvases (inline, ipympl, Qt, Tk) have a renderer at hand; others get one from the figure
    renderer = fig.canvas.get_renderer() if hasattr(fig.canvas, "get_renderer") else fig._get_renderer()
    room = (width - 0.3) * fig.dpi  # pixels, inside a 0.15-inch margin on each side
    characters = max(60, min(130, int(width * 14)))
    label = fig.text(0.5, 0.01, "", ha="center", va="bottom", fontsize=10.5, style="italic")
    while True:  # the widest wrapping whose longest line fits the measured room
        lines = textwrap.wrap("Takeaway: " + text, characters)
        label.set_text("\n".join(lines))
        if characters <= 20 or label.get_window_extent(renderer).width <= room:
            break
        characters = int(characters * 0.9)
    label.set_in_layout(False)
    fig.tight_layout()
    # room for the wrapped lines (about 0.19 inch each at 10.5 pt) under the axes' labels
    fig.subplots_adjust(bottom=min(0.6, fig.subplotpars.bottom + (0.19 * len(lines) + 0.06) / height))
    return fig


def _reaches_outside(fig: plt.Figure) -> bool:
    """Whether ``fig`` may draw outside its canvas after ``tight_layout``.

    That is so with figure-level artists that a layout of the axes does not place (a legend of the
    whole figure, a title placed above it, free text) and with axes of a fixed aspect ratio (an image),
    which ``tight_layout`` can misplace. The image must then be cropped to what was drawn, which costs
    two more layout passes.
    """
    title = getattr(fig, "_suptitle", None)  # tight_layout makes room for a title inside the canvas
    side_labels = [getattr(fig, name, None) for name in ("_supxlabel", "_supylabel")]
    free_texts = [text for text in fig.texts if text is not title]
    return bool(fig.legends or free_texts or fig.images or fig.patches or fig.lines or fig.artists
                or (title is not None and (title.get_position()[1] > 1.0 or not title.get_in_layout()))
                or any(label is not None for label in side_labels)
                or any(ax.get_aspect() != "auto" for ax in fig.axes))


_SUPERSCRIPTS = str.maketrans("0123456789-", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b")


class _PlainLogFormatter(mticker.LogFormatterSciNotation):
    """matplotlib's log-axis labels (10^-3, 2 x 10^-3) as plain Unicode text instead of mathtext."""

    def __call__(self, x, pos=None):
        label = super().__call__(x, pos)
        prefix, suffix = "$\\mathdefault{", "}$"
        if not (label.startswith(prefix) and label.endswith(suffix)):
            return label
        body = label[len(prefix):-len(suffix)].replace("\\times", "\u00d7")
        head, caret, exponent = body.partition("^{")
        if caret:
            if not exponent.endswith("}"):
                return label
            body = head + exponent[:-1].translate(_SUPERSCRIPTS)
        if any(character in body for character in "\\{}^$"):
            return label  # a form this converter does not know: keep matplotlib's own
        return body.replace("-", "\u2212") if body.startswith("-") else body


def plain_log_labels(fig: plt.Figure) -> plt.Figure:
    """Label ``fig``'s log-scaled axes with plain text (``10\u207b\u00b3``), not mathtext; return ``fig``.

    matplotlib typesets each log-axis label (``$10^{-3}$``) with its mathtext engine, which costs
    about 10 ms per distinct label and is most of the time a log-log figure takes to draw. The same
    labels written with Unicode superscripts look alike and draw as ordinary text. Axes with a
    formatter of their own are left alone.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A figure with (possibly) log-scaled axes.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig``, relabelled in place.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> ax.set_yscale("log")
    >>> _ = plain_log_labels(fig)
    >>> ax.yaxis.get_major_formatter()(1e-3), ax.yaxis.get_major_formatter()(100.0)
    ('10\u207b\u00b3', '10\u00b2')
    >>> plt.close(fig)
    """
    _check_figure(fig)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for get, set_ in ((axis.get_major_formatter, axis.set_major_formatter),
                              (axis.get_minor_formatter, axis.set_minor_formatter)):
                current = get()
                if type(current) is mticker.LogFormatterSciNotation:
                    set_(_PlainLogFormatter(base=current._base, labelOnlyBase=current.labelOnlyBase,
                                            minor_thresholds=current.minor_thresholds,
                                            linthresh=current._linthresh))
    return fig


def _thin_log_minor_ticks(fig: plt.Figure) -> plt.Figure:
    """Minor ticks at 2 and 5 of each decade (the 1-2-5 steps) on base-10 log axes spanning over a decade.

    matplotlib's default puts eight unlabelled minor ticks in every decade, and each tick is a set
    of artists that costs about a millisecond to lay out and draw: a two-panel log-log figure spends
    more time on its minor ticks than on everything else. On an axis that spans more than a decade
    the minor ticks carry no labels, so 2 and 5 read as well. Narrower axes (whose minor ticks are
    labelled) and locators set by hand are left alone.
    """
    for ax in fig.axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            locator = axis.get_minor_locator()
            if (axis.get_scale() != "log" or type(locator) is not mticker.LogLocator
                    or not isinstance(locator._subs, str) or locator._base != 10.0):
                continue
            low, high = sorted(abs(value) for value in limits)
            if low > 0 and high / low > 10.0:
                axis.set_minor_locator(mticker.LogLocator(base=10.0, subs=(2.0, 5.0), numticks=locator.numticks))
    return fig


def _drawn_area(fig: plt.Figure):
    """What ``savefig(bbox_inches="tight")`` crops ``fig`` to: everything drawn, plus the usual padding.

    matplotlib's ``"tight"`` first draws the whole figure without output to place its artists, then
    measures them, then draws it again. A figure laid out by :func:`add_takeaway` has its artists
    placed, so measuring them directly gives the same box (the same pixels) for one drawing less.
    Axes placed by a locator need that first drawing, and text measured at another dpi than the
    image's is a pixel or two off, so for those figures this returns ``"tight"``.
    """
    if fig.dpi != FIGURE_DPI or any(ax.get_axes_locator() is not None for ax in fig.axes):
        return "tight"
    renderer = fig.canvas.get_renderer() if hasattr(fig.canvas, "get_renderer") else fig._get_renderer()
    return fig.get_tightbbox(renderer).padded(mpl.rcParams["savefig.pad_inches"])


def figure_bundle(fig: plt.Figure, takeaway: str, alt: str) -> tuple[dict, dict]:
    """Render ``fig`` with its takeaway into a display bundle: a PNG with ``alt`` as its text form.

    Returns ``(data, metadata)`` for ``IPython.display.display(data, raw=True, metadata=metadata)``
    or a display handle's ``update``: what :func:`show_figure` shows, without the Markdown
    description, for a figure that a widget redraws in place. The figure is closed.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The finished figure (closed on return).
    takeaway : str
        One sentence that says what the figure shows.
    alt : str
        A description of the figure for someone who cannot see it.

    Returns
    -------
    data : dict
        MIME type -> content (a base64 PNG and a plain-text form).
    metadata : dict
        ``{"image/png": {"alt": alt}}``.

    Raises
    ------
    ValueError
        If ``takeaway`` or ``alt`` is empty.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> data, metadata = figure_bundle(fig, "Nothing yet.", "An empty set of axes.")
    >>> sorted(data), metadata["image/png"]["alt"]
    (['image/png', 'text/plain'], 'An empty set of axes.')
    """
    import base64
    import io

    _check_figure(fig)
    for name, value in (("takeaway", takeaway), ("alt", alt)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name} must be a non-empty sentence; got {value!r}.")
    plain_log_labels(fig)
    _thin_log_minor_ticks(fig)
    crop = _reaches_outside(fig)
    add_takeaway(fig, takeaway)
    fig.set_layout_engine(None)  # laid out once above; no second layout pass while saving
    buffer = io.BytesIO()
    # zlib level 3 instead of 6: a third less encoding time for about a tenth more bytes
    fig.savefig(buffer, format="png", dpi=FIGURE_DPI, bbox_inches=_drawn_area(fig) if crop else None,
                pil_kwargs={"compress_level": 3})
    plt.close(fig)
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"image/png": png, "text/plain": f"Figure: {alt}"}, {"image/png": {"alt": alt}}


def show_figure(fig: plt.Figure, takeaway: str, alt: str) -> None:
    """Show ``fig`` in a notebook with its takeaway, as a sharp image and as text a screen reader reads.

    The figure gets its one-line takeaway (see :func:`add_takeaway`) and is rendered at
    :data:`FIGURE_DPI`. The image output carries ``alt`` as its text form (what a screen reader or a
    renderer without images shows), and a Markdown output under it repeats the takeaway and gives the
    description in words. The figure is then closed, so it is not drawn twice.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The finished figure (axes labelled, with units).
    takeaway : str
        One sentence that says what the figure shows, and no more.
    alt : str
        A description of the figure for someone who cannot see it: what is plotted against what, and the
        shape of the result.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [0, 1])
    >>> show_figure(fig, "A straight line.", "A line rising from (0, 0) to (1, 1).")  # doctest: +SKIP
    """
    from IPython.display import Markdown, display

    data, metadata = figure_bundle(fig, takeaway, alt)
    display(data, raw=True, metadata=metadata)
    display(Markdown(f"**Takeaway:** {takeaway.strip()}\n\n*Figure description:* {alt.strip()}"))


# ---------------------------------------------------------------- lesson 02: Laplace mechanism plots
from typing import NamedTuple as _NamedTuple  # noqa: E402

import numpy as _np  # noqa: E402


class BinnedLogRatio(_NamedTuple):
    """Result of :func:`binned_log_ratio` (one entry per bin).

    Attributes
    ----------
    edges : numpy.ndarray
        Bin edges (``len(centres) + 1`` values).
    centres : numpy.ndarray
        Bin centres.
    log_ratio : numpy.ndarray
        ``log(share of A in bin / share of B in bin)``; NaN where either side has fewer than
        ``min_count`` samples in the bin (too few to estimate the ratio).
    standard_error : numpy.ndarray
        Approximate standard error of each log ratio (delta method), NaN where ``log_ratio`` is.
    count_a, count_b : numpy.ndarray
        Samples of A and of B in each bin.
    """

    edges: _np.ndarray
    centres: _np.ndarray
    log_ratio: _np.ndarray
    standard_error: _np.ndarray
    count_a: _np.ndarray
    count_b: _np.ndarray


def _samples_1d(samples, name: str) -> _np.ndarray:
    try:
        array = _np.asarray(samples, dtype=float).ravel()
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of numbers, got {type(samples).__name__}: {error}") from None
    if array.size < 2:
        raise ValueError(f"{name} needs at least 2 samples, got {array.size}.")
    if not _np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinite values; pass finite outputs of the mechanism.")
    return array


def binned_log_ratio(samples_a, samples_b, bins: int = 60, *, min_count: int = 500,
                     value_range: tuple[float, float] | None = None) -> BinnedLogRatio:
    """Estimate ``log(P_A(bin) / P_B(bin))`` from samples of a mechanism's outputs on two datasets.

    For an epsilon-DP mechanism on neighbouring datasets every such log ratio lies in
    ``[-epsilon, epsilon]`` (up to sampling error, see ``standard_error``). Bins where either
    side has fewer than ``min_count`` samples get NaN: their ratio is too noisy to read.

    Parameters
    ----------
    samples_a, samples_b : array_like
        Outputs of the mechanism on dataset A and on dataset B (1-D, finite).
    bins : int, default 60
        Number of equal-width bins (>= 2).
    min_count : int, default 500
        Fewest samples per side for a bin's ratio to be reported (>= 1).
    value_range : (float, float), optional
        Range of the bins; by default the 0.1% to 99.9% quantiles of the pooled samples.

    Returns
    -------
    BinnedLogRatio

    Examples
    --------
    >>> rng = _np.random.default_rng(0)
    >>> result = binned_log_ratio(rng.laplace(10, 1, 50_000), rng.laplace(11, 1, 50_000), bins=20)
    >>> bool(_np.nanmax(_np.abs(result.log_ratio)) < 1.2)
    True
    """
    from mic_dp_helpers._validation import check_finite_float, check_int_at_least, check_size, describe, ndim_of

    a = _samples_1d(samples_a, "samples_a")
    b = _samples_1d(samples_b, "samples_b")
    bins = check_size(bins, "bins", 2)
    min_count = check_int_at_least(min_count, "min_count", 1)
    if value_range is None:
        low, high = _np.quantile(_np.concatenate([a, b]), [0.001, 0.999])
    else:
        if isinstance(value_range, (str, bytes)) or ndim_of(value_range) != 1 or len(value_range) != 2:
            raise ValueError(f"value_range must be (low, high), two numbers, got {describe(value_range)}.")
        low, high = (check_finite_float(v, f"value_range[{i}]") for i, v in enumerate(value_range))
    if not (_np.isfinite(low) and _np.isfinite(high) and low < high):
        raise ValueError(f"the bin range must be finite with low < high, got ({low}, {high}).")
    edges = _np.linspace(low, high, bins + 1)
    count_a = _np.histogram(a, edges)[0]
    count_b = _np.histogram(b, edges)[0]
    enough = (count_a >= min_count) & (count_b >= min_count)
    safe_a, safe_b = _np.maximum(count_a, 1), _np.maximum(count_b, 1)
    log_ratio = _np.where(enough, _np.log(safe_a / a.size) - _np.log(safe_b / b.size), _np.nan)
    variance = 1 / safe_a - 1 / a.size + 1 / safe_b - 1 / b.size
    standard_error = _np.where(enough, _np.sqrt(_np.maximum(variance, 0.0)), _np.nan)
    return BinnedLogRatio(edges, (edges[:-1] + edges[1:]) / 2, log_ratio, standard_error, count_a, count_b)


def plot_neighbouring_outputs(samples_a, samples_b, epsilon: float, *, density_a=None, density_b=None,
                              bins: int = 60, min_count: int = 500,
                              labels: tuple[str, str] = ("dataset A", "dataset B"),
                              xlabel: str = "released value", band_label: str | None = None,
                              figsize: tuple[float, float] = (11.0, 4.6)):
    """Draw a mechanism's output distributions on two neighbouring datasets and their log ratio.

    Left panel: histograms of both samples (and the exact densities, if given). Right panel:
    the binned log ratio ``log(P_A / P_B)`` with +-2 standard errors (see
    :func:`binned_log_ratio`), the exact log ratio of the densities (if given) and the band
    ``[-epsilon, epsilon]`` inside which an epsilon-DP mechanism must stay.

    Parameters
    ----------
    samples_a, samples_b : array_like
        Outputs on dataset A and dataset B.
    epsilon : float
        The claimed epsilon (> 0): the half-width of the band.
    density_a, density_b : callable, optional
        Exact densities ``f(x) -> array``, drawn as lines (both or neither).
    bins, min_count : int
        Passed to :func:`binned_log_ratio`.
    labels : (str, str)
        Legend names of the two datasets.
    xlabel : str
        Label of the x axes (say the unit).
    band_label : str, optional
        Legend label of the band; default ``"allowed: |log ratio| <= epsilon = ..."``.
    figsize : (float, float)
        Figure size in inches.

    Returns
    -------
    fig : matplotlib.figure.Figure
    axes : (Axes, Axes)
        The distribution panel and the log-ratio panel.

    Examples
    --------
    >>> rng = _np.random.default_rng(0)
    >>> fig, (left, right) = plot_neighbouring_outputs(rng.laplace(5, 1, 20_000), rng.laplace(4, 1, 20_000), 1.0)
    >>> right.get_ylabel()
    'log( P_A / P_B )'
    >>> plt.close(fig)
    """
    from mic_dp_helpers._validation import check_finite_array, check_positive_float

    epsilon = check_positive_float(epsilon, "epsilon")
    size = None if figsize is None else check_finite_array(figsize, "figsize")
    if size is not None and (size.shape != (2,) or (size <= 0).any()):
        raise ValueError(f"figsize must be (width, height) in inches, two numbers > 0, got {figsize!r}.")
    if (density_a is None) != (density_b is None):
        raise ValueError("pass both density_a and density_b, or neither.")
    for name, density in (("density_a", density_a), ("density_b", density_b)):
        if density is not None and not callable(density):
            raise TypeError(f"{name} must be a function of x, got {type(density).__name__}.")
    if not isinstance(labels, (tuple, list)) or len(labels) != 2 or not all(isinstance(x, str) for x in labels):
        raise ValueError(f"labels must be two strings, got {labels!r}.")
    ratio = binned_log_ratio(samples_a, samples_b, bins, min_count=min_count)
    a, b = _np.asarray(samples_a, dtype=float).ravel(), _np.asarray(samples_b, dtype=float).ravel()
    grid = _np.linspace(ratio.edges[0], ratio.edges[-1], 600)

    fig, (left, right) = plt.subplots(1, 2, figsize=figsize)
    for samples, label, colour in ((a, labels[0], OKABE_ITO[0]), (b, labels[1], OKABE_ITO[1])):
        left.hist(samples, bins=ratio.edges, density=True, histtype="stepfilled", alpha=0.3, color=colour,
                  label=f"{label}: {samples.size:,} samples")
    if density_a is not None:
        left.plot(grid, density_a(grid), color=OKABE_ITO[0], lw=2, label=f"{labels[0]}: exact")
        left.plot(grid, density_b(grid), color=OKABE_ITO[1], lw=2, ls="--", label=f"{labels[1]}: exact")
    left.set_xlabel(xlabel)
    left.set_ylabel("probability density")
    left.set_title("Output distributions")
    left.set_ylim(0, 1.35 * left.get_ylim()[1])  # headroom for the legend above the peaks
    left.legend(fontsize=8.5, loc="upper left")

    right.axhspan(-epsilon, epsilon, color=OKABE_ITO[2], alpha=0.15,
                  label=band_label or f"allowed: |log ratio| <= epsilon = {epsilon:g}")
    for level in (-epsilon, epsilon):
        right.axhline(level, color=OKABE_ITO[2], lw=1.2)
    if density_a is not None:
        with _np.errstate(divide="ignore", invalid="ignore"):
            exact = _np.log(density_a(grid)) - _np.log(density_b(grid))
        right.plot(grid, exact, color=OKABE_ITO[7], lw=1.5, label="exact log ratio")
    shown = _np.isfinite(ratio.log_ratio)
    right.errorbar(ratio.centres[shown], ratio.log_ratio[shown], yerr=2 * ratio.standard_error[shown], fmt="o",
                   ms=3.5, color=OKABE_ITO[3], capsize=2, label="from samples (±2 SE)")
    right.set_xlim(ratio.edges[0], ratio.edges[-1])
    right.set_xlabel(xlabel)
    right.set_ylabel("log( P_A / P_B )")
    right.set_title("Privacy loss: log ratio of the two")
    low, high = right.get_ylim()
    right.set_ylim(low, high + 0.45 * (high - low))  # headroom for the legend
    right.legend(fontsize=8.5, loc="upper left")
    return fig, (left, right)


def plot_error_vs_epsilon(ax, epsilons, errors, *, label: str | None = None, color: str | None = None,
                          interval: tuple[float, float] = (10.0, 90.0), theory=None,
                          theory_label: str = "theory", marker: str = "o"):
    """Plot a privacy-utility curve: mean absolute error against epsilon, both on log axes.

    Each point is the mean of ``|error|`` over the trials at one epsilon; its error bar spans
    the ``interval`` percentiles of ``|error|`` (what a single release may look like).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    epsilons : array_like
        Privacy parameters, shape ``(k,)``, all > 0.
    errors : array_like
        Errors (released minus true value), shape ``(k, trials)``; their absolute value is used.
    label, color, marker : optional
        Legend label, colour and marker of the points.
    interval : (float, float), default (10, 90)
        Percentiles of ``|error|`` spanned by the error bars.
    theory : array_like or callable, optional
        Expected absolute error at each epsilon (values of shape ``(k,)``, or a function of the
        epsilons), drawn as a dashed line.
    theory_label : str
        Legend label of the theory line.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> eps = _np.array([0.1, 1.0])
    >>> errs = _np.random.default_rng(0).laplace(0, 1 / eps[:, None], (2, 500))
    >>> _ = plot_error_vs_epsilon(ax, eps, errs, theory=lambda e: 1 / e)
    >>> ax.get_xscale(), ax.get_yscale()
    ('log', 'log')
    >>> plt.close(fig)
    """
    from mic_dp_helpers._validation import check_finite_array

    if not isinstance(ax, mpl.axes.Axes):
        raise TypeError(f"ax must be a matplotlib Axes (from plt.subplots()), got {type(ax).__name__}.")
    eps = check_finite_array(epsilons, "epsilons").ravel()
    if (eps <= 0).any():
        raise ValueError("epsilons must be a non-empty array of finite numbers > 0.")
    abs_errors = _np.abs(check_finite_array(errors, "errors"))
    if abs_errors.ndim != 2 or abs_errors.shape[0] != eps.size or abs_errors.shape[1] == 0:
        raise ValueError(f"errors must have shape (len(epsilons), trials) = ({eps.size}, trials), "
                         f"got {abs_errors.shape}.")
    percentiles = check_finite_array(interval, "interval")
    if percentiles.shape != (2,) or not 0 <= percentiles[0] < percentiles[1] <= 100:
        raise ValueError(f"interval must be two percentiles 0 <= low < high <= 100, got {interval!r}.")
    if not isinstance(marker, str):
        raise TypeError(f"marker must be a matplotlib format string such as 'o', got {type(marker).__name__}.")
    expected = None
    if theory is not None:
        expected = check_finite_array(theory(eps) if callable(theory) else theory, "theory").ravel()
        if expected.shape != eps.shape:
            raise ValueError(f"theory must give one value per epsilon ({eps.size}), got shape {expected.shape}.")
    mean = abs_errors.mean(axis=1)
    low, high = _np.percentile(abs_errors, percentiles, axis=1)
    yerr = _np.vstack([_np.maximum(mean - low, 0.0), _np.maximum(high - mean, 0.0)])
    ax.errorbar(eps, mean, yerr=yerr, fmt=marker, color=color, capsize=3, label=label)
    if expected is not None:
        ax.plot(eps, expected, ls="--", color=color or OKABE_ITO[7], label=theory_label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    return ax
