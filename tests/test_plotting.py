"""Tests of the plotting helpers (figures are built on the Agg backend and closed)."""

import doctest

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from mic_dp_helpers import plotting  # noqa: E402
from mic_dp_helpers.plotting import (  # noqa: E402
    binned_log_ratio,
    plot_error_vs_epsilon,
    plot_neighbouring_outputs,
)


# ------------------------------------------------------------- lesson 02: binned_log_ratio
def test_binned_log_ratio_stays_in_the_epsilon_band_for_laplace():
    rng = np.random.default_rng(0)
    epsilon = 0.7
    a = rng.laplace(16.0, 1 / epsilon, 200_000)
    b = rng.laplace(15.0, 1 / epsilon, 200_000)
    result = binned_log_ratio(a, b, bins=50, min_count=1000)
    shown = np.isfinite(result.log_ratio)
    assert shown.sum() >= 20
    # each bin's ratio is within 4 standard errors of the band (false-fail odds ~1e-4 per bin, fixed seed)
    assert np.all(np.abs(result.log_ratio[shown]) <= epsilon + 4 * result.standard_error[shown])
    # the band is reached: the bound is tight for the Laplace mechanism
    assert np.nanmax(result.log_ratio) > 0.85 * epsilon and np.nanmin(result.log_ratio) < -0.85 * epsilon


def test_binned_log_ratio_matches_exact_ratio_and_counts():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0.5, 1, 300_000), rng.normal(-0.5, 1, 300_000)
    result = binned_log_ratio(a, b, bins=40, min_count=2000, value_range=(-2.0, 2.0))
    assert result.edges[0] == -2.0 and result.edges[-1] == 2.0 and len(result.centres) == 40
    assert result.count_a.sum() == np.sum((a >= -2) & (a <= 2))
    shown = np.isfinite(result.log_ratio)
    exact = np.log(np.diff(stats.norm.cdf(result.edges, 0.5)) / np.diff(stats.norm.cdf(result.edges, -0.5)))
    assert np.all(np.abs(result.log_ratio[shown] - exact[shown]) < 4 * result.standard_error[shown])


def test_binned_log_ratio_hides_sparse_bins():
    result = binned_log_ratio(np.arange(100.0), np.arange(100.0), bins=10, min_count=11)
    assert np.isnan(result.log_ratio).all() and np.isnan(result.standard_error).all()
    result = binned_log_ratio(np.arange(100.0), np.arange(100.0), bins=10, min_count=5)
    assert np.allclose(result.log_ratio, 0.0)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(samples_a=[1.0], samples_b=[1.0, 2.0]), ValueError),
        (dict(samples_a=[1.0, np.nan], samples_b=[1.0, 2.0]), ValueError),
        (dict(samples_a=["a", "b"], samples_b=[1.0, 2.0]), TypeError),
        (dict(samples_a=[1.0, 2.0], samples_b=[1.0, 2.0], bins=1), ValueError),
        (dict(samples_a=[1.0, 2.0], samples_b=[1.0, 2.0], min_count=0), ValueError),
        (dict(samples_a=[1.0, 2.0], samples_b=[1.0, 2.0], value_range=(3.0, 1.0)), ValueError),
        (dict(samples_a=[1.0, 1.0], samples_b=[1.0, 1.0]), ValueError),
    ],
)
def test_binned_log_ratio_rejects_bad_input(kwargs, error):
    with pytest.raises(error):
        binned_log_ratio(**kwargs)


# ---------------------------------------------------------- lesson 02: plot_neighbouring_outputs
def test_plot_neighbouring_outputs_draws_band_samples_and_exact_ratio():
    rng = np.random.default_rng(2)
    epsilon = 0.5
    fig, (left, right) = plot_neighbouring_outputs(
        rng.laplace(3, 2, 50_000), rng.laplace(2, 2, 50_000), epsilon,
        density_a=lambda x: stats.laplace.pdf(x, 3, 2), density_b=lambda x: stats.laplace.pdf(x, 2, 2),
        labels=("with Ana", "without Ana"), xlabel="count (patients)")
    try:
        assert left.get_xlabel() == right.get_xlabel() == "count (patients)"
        labels = [text.get_text() for text in right.get_legend().get_texts()]
        assert any("epsilon = 0.5" in label for label in labels) and "exact log ratio" in labels
        exact_line = [line for line in right.get_lines() if line.get_label() == "exact log ratio"][0]
        assert np.nanmax(np.abs(exact_line.get_ydata())) == pytest.approx(epsilon)
        assert any("with Ana" in text.get_text() for text in left.get_legend().get_texts())
    finally:
        plt.close(fig)


def test_plot_neighbouring_outputs_validates_arguments():
    a = np.random.default_rng(3).laplace(0, 1, 1000)
    with pytest.raises(ValueError, match="both density_a and density_b"):
        plot_neighbouring_outputs(a, a, 1.0, density_a=lambda x: x)
    with pytest.raises(ValueError):
        plot_neighbouring_outputs(a, a, -1.0)
    with pytest.raises(ValueError, match="labels"):
        plot_neighbouring_outputs(a, a, 1.0, labels=("only one",))
    with pytest.raises(TypeError, match="density_a"):
        plot_neighbouring_outputs(a, a, 1.0, density_a=1.0, density_b=2.0)
    plt.close("all")


# -------------------------------------------------------------- lesson 02: plot_error_vs_epsilon
def test_plot_error_vs_epsilon_plots_means_percentiles_and_theory():
    eps = np.array([0.1, 1.0, 10.0])
    errors = np.random.default_rng(4).laplace(0, 1 / eps[:, None], (3, 2000))
    fig, ax = plt.subplots()
    try:
        plot_error_vs_epsilon(ax, eps, errors, label="Laplace", theory=lambda e: 1 / e, theory_label="1/eps")
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
        theory_line = [line for line in ax.get_lines() if line.get_label() == "1/eps"][0]
        assert np.allclose(theory_line.get_ydata(), 1 / eps)
        points = [line for line in ax.get_lines() if line.get_label() == "Laplace"]
        means = points[0].get_ydata() if points else ax.containers[0].lines[0].get_ydata()
        assert np.allclose(means, np.abs(errors).mean(axis=1))
    finally:
        plt.close(fig)


@pytest.mark.parametrize(
    "epsilons, errors, kwargs",
    [
        ([0.1, -1.0], np.ones((2, 5)), {}),
        ([0.1, 1.0], np.ones((3, 5)), {}),
        ([0.1, 1.0], np.ones(2), {}),
        ([0.1, 1.0], np.ones((2, 5)), dict(interval=(90, 10))),
        ([0.1, 1.0], np.ones((2, 5)), dict(theory=[1.0, 2.0, 3.0])),
        ([0.1, 1.0], np.full((2, 5), np.nan), {}),
    ],
)
def test_plot_error_vs_epsilon_rejects_bad_input(epsilons, errors, kwargs):
    fig, ax = plt.subplots()
    try:
        with pytest.raises(ValueError):
            plot_error_vs_epsilon(ax, epsilons, errors, **kwargs)
    finally:
        plt.close(fig)


def test_lesson02_plotting_examples_run():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for function in (binned_log_ratio, plot_neighbouring_outputs, plot_error_vs_epsilon):
        for test in finder.find(function, globs=vars(plotting).copy()):
            runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3


def _png_size(data: dict) -> tuple[int, int]:
    import base64
    import struct

    png = base64.b64decode(data["image/png"])
    return struct.unpack(">II", png[16:24])


def test_log_axes_are_labelled_without_mathtext(monkeypatch):
    import matplotlib.mathtext

    parsed = []
    original = matplotlib.mathtext.MathTextParser.parse
    monkeypatch.setattr(matplotlib.mathtext.MathTextParser, "parse",
                        lambda self, s, *args, **kwargs: parsed.append(s) or original(self, s, *args, **kwargs))
    fig, (left, right) = plt.subplots(1, 2)
    left.loglog(np.logspace(-3, 2, 20), np.logspace(-16, 0, 20))
    right.plot([0.2, 0.9], [0.2, 0.9])
    right.set_yscale("log")  # less than a decade: minor ticks get labels such as 2 x 10^-1
    plotting.figure_bundle(fig, "Plain labels.", "Two log-scaled panels.")
    assert parsed == []
    formatter = plotting._PlainLogFormatter()
    assert formatter(1e-3) == "10\u207b\u00b3" and formatter(1.0) == "10\u2070" and formatter(1e12) == "10\u00b9\u00b2"


def test_own_formatters_are_kept():
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots()
    ax.set_xscale("log")
    own = FuncFormatter(lambda x, pos: f"{x:g} s")
    ax.xaxis.set_major_formatter(own)
    plotting.plain_log_labels(fig)
    assert ax.xaxis.get_major_formatter() is own
    plt.close(fig)


def test_log_axes_over_a_decade_get_minor_ticks_at_2_and_5_only():
    from matplotlib.ticker import LogLocator

    fig, (wide, narrow, own) = plt.subplots(1, 3, figsize=(12, 4))
    wide.loglog([1e-2, 10.0], [1.0, 1e3])
    narrow.semilogy([0, 1], [0.2, 0.9])  # less than a decade: labelled minor ticks, left as they are
    own.semilogx([1.0, 1e3], [0, 1])
    mine = LogLocator(subs=(3.0,))
    own.xaxis.set_minor_locator(mine)
    default_narrow = narrow.yaxis.get_minor_locator()
    plotting._thin_log_minor_ticks(fig)
    fig.canvas.draw()
    for axis in (wide.xaxis, wide.yaxis):
        low, high = sorted(axis.get_view_interval())
        minor = [x for x in axis.get_minorticklocs() if low <= x <= high]
        mantissas = {round(x / 10 ** np.floor(np.log10(x) + 1e-9), 6) for x in minor}
        assert mantissas == {2.0, 5.0}
        assert len(minor) >= 2 * (np.log10(high / low) - 1)  # two per decade, none missing
    assert narrow.yaxis.get_minor_locator() is default_narrow
    assert own.xaxis.get_minor_locator() is mine
    plt.close(fig)


@pytest.mark.parametrize("width", [4.0, 7.5, 11.0])
def test_takeaway_fits_the_figure_and_is_not_cropped(width):
    fig, ax = plt.subplots(figsize=(width, 3.0))
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x (units)")
    long = "A takeaway that goes on for a while, " * 6 + "and ends here."
    data, _ = plotting.figure_bundle(fig, long, "A rising line.")
    # laid out once, saved uncropped: the image is the figure's full size
    assert _png_size(data) == (round(width * plotting.FIGURE_DPI), round(3.0 * plotting.FIGURE_DPI))
    fig, ax = plt.subplots(figsize=(width, 3.0))
    plotting.add_takeaway(fig, long)
    label = fig.texts[-1]
    extent = label.get_window_extent(fig.canvas.get_renderer())
    assert 0 <= extent.x0 and extent.x1 <= width * fig.dpi
    plt.close(fig)


def test_figure_level_artists_outside_the_canvas_are_kept():
    fig, axes = plt.subplots(1, 2, figsize=(6.0, 3.0))
    for ax in axes:
        ax.plot([0, 1], [0, 1], label="line")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle("A title above the canvas", y=1.08)
    data, _ = plotting.figure_bundle(fig, "A legend to the right.", "Two panels and a legend.")
    width, height = _png_size(data)
    assert width > 6.0 * plotting.FIGURE_DPI and height > 3.0 * plotting.FIGURE_DPI  # cropped to what was drawn


@pytest.mark.parametrize("dpi", [plotting.FIGURE_DPI, 100])  # the course's, and a figure's own
def test_the_crop_is_the_one_savefig_tight_makes(dpi):
    """Cropped without matplotlib's extra drawing: the same pixels as ``bbox_inches="tight"``."""
    import base64
    import io
    import pickle

    from PIL import Image

    fig, axes = plt.subplots(1, 3, figsize=(8.0, 3.0), dpi=dpi)
    axes[0].plot([0, 1], [0, 1], label="line")
    axes[1].imshow(np.arange(12.0).reshape(3, 4))  # a fixed aspect ratio
    axes[2].set_yscale("log")
    axes[2].plot([1, 2], [1e-3, 1e2])
    fig.legend(loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle("A title above the canvas", y=1.08)
    assert plotting._reaches_outside(fig)
    copy = pickle.loads(pickle.dumps(fig))
    data, _ = plotting.figure_bundle(fig, "Three panels.", "A line, an image and a log-scaled line.")
    plotting.plain_log_labels(copy)
    plotting._thin_log_minor_ticks(copy)
    plotting.add_takeaway(copy, "Three panels.")
    buffer = io.BytesIO()
    copy.savefig(buffer, format="png", dpi=plotting.FIGURE_DPI, bbox_inches="tight", pil_kwargs={"compress_level": 3})
    plt.close(copy)
    ours = np.asarray(Image.open(io.BytesIO(base64.b64decode(data["image/png"]))))
    theirs = np.asarray(Image.open(buffer))
    assert ours.shape == theirs.shape and np.array_equal(ours, theirs)


def test_a_title_inside_the_canvas_needs_no_crop():
    fig, axes = plt.subplots(1, 2, figsize=(6.0, 3.0))
    fig.suptitle("A title that tight_layout makes room for")
    assert not plotting._reaches_outside(fig)
    data, _ = plotting.figure_bundle(fig, "Two panels.", "Two empty panels under a title.")
    assert _png_size(data) == (round(6.0 * plotting.FIGURE_DPI), round(3.0 * plotting.FIGURE_DPI))
    fig, ax = plt.subplots()
    fig.suptitle("Above the canvas", y=1.05)
    assert plotting._reaches_outside(fig)
    plt.close(fig)


def test_a_figure_on_a_canvas_without_a_renderer_is_still_shown():
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    fig = Figure()
    FigureCanvasSVG(fig)  # no get_renderer(): the takeaway is measured with the figure's own renderer
    fig.subplots().plot([1, 2])
    data, _ = plotting.figure_bundle(fig, "A line.", "A rising line.")
    assert _png_size(data)[0] > 0


def test_binned_log_ratio_refuses_a_huge_bin_count():
    with pytest.raises(ValueError, match="bins=.* is too large"):
        plotting.binned_log_ratio(np.arange(10.0), np.arange(10.0), bins=10**12)


@pytest.mark.parametrize("value_range, error, match", [
    ((0, 1, 2), ValueError, r"value_range must be \(low, high\)"),
    ("ab", ValueError, r"value_range must be \(low, high\)"),
    (5, ValueError, r"value_range must be \(low, high\)"),
    ((None, 1), TypeError, r"value_range\[0\] must be a finite number"),
    ((0, np.inf), ValueError, r"value_range\[1\] must be finite"),
])
def test_binned_log_ratio_checks_value_range(value_range, error, match):
    with pytest.raises(error, match=match):
        plotting.binned_log_ratio(np.arange(10.0), np.arange(10.0), value_range=value_range)


@pytest.mark.parametrize("call", [
    lambda fig: plotting.add_takeaway(fig, "text"), lambda fig: plotting.plain_log_labels(fig),
    lambda fig: plotting.figure_bundle(fig, "takeaway.", "alt."), lambda fig: plotting.show_figure(fig, "t.", "a."),
])
def test_figure_helpers_need_a_figure(call):
    for fig in (None, "figure", 5):
        with pytest.raises(TypeError, match="fig must be a matplotlib Figure"):
            call(fig)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(epsilons=["a", "b"]), TypeError, "epsilons must be numeric"),
    (dict(errors=[["a"] * 3] * 2), TypeError, "errors must be numeric"),
    (dict(interval=None), ValueError, "interval contains NaN"),
    (dict(interval=(10,)), ValueError, "interval must be two percentiles"),
    (dict(interval=("a", "b")), TypeError, "interval must be numeric"),
    (dict(theory=lambda e: ["x"] * len(e)), TypeError, "theory must be numeric"),
    (dict(marker=None), TypeError, "marker must be a matplotlib format string"),
])
def test_plot_error_vs_epsilon_checks_before_drawing(kwargs, error, match):
    fig, ax = plt.subplots()
    arguments = dict(epsilons=[0.5, 1.0], errors=np.ones((2, 3))) | kwargs
    with pytest.raises(error, match=match):
        plotting.plot_error_vs_epsilon(ax, **arguments)
    assert not ax.lines and not ax.containers, "nothing is drawn before the arguments are checked"
    plt.close(fig)
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        plotting.plot_error_vs_epsilon(None, [0.5, 1.0], np.ones((2, 3)))


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(labels=None), ValueError, "labels must be two strings"),
    (dict(figsize=(1,)), ValueError, r"figsize must be \(width, height\)"),
    (dict(figsize=(-1, 2)), ValueError, r"figsize must be \(width, height\)"),
    (dict(figsize=("a", "b")), TypeError, "figsize must be numeric"),
])
def test_plot_neighbouring_outputs_checks_labels_and_size(kwargs, error, match):
    with pytest.raises(error, match=match):
        plotting.plot_neighbouring_outputs(np.arange(100.0), np.arange(100.0), 1.0, bins=5, min_count=1, **kwargs)
