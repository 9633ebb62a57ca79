"""The book's visual style: a colour-blind-safe palette and readable defaults.

Nothing here touches matplotlib's global settings. Plotting functions draw
inside :func:`styled`, which applies ``STYLE`` only while a figure is
built, and create figures with :func:`new_figure`, which does not register
them with pyplot (so an interactive panel redrawn a hundred times leaks none).
"""

from __future__ import annotations

import contextlib
import functools

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure
from matplotlib.transforms import ScaledTranslation

from ..units import ms, ns, us

__all__ = ["PALETTE", "COLORS", "STYLE", "styled", "new_figure", "legend_below", "legend_label", "bar_legend",
           "bar_legend_is_current", "text_width_in", "axes_size_in", "time_unit"]

#: Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies.
PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
    "grey": "#777777",
}

#: What each colour means across the book, so a figure in chapter 7 reads like one in chapter 1.
COLORS = {
    "compute": PALETTE["blue"],
    "communication": PALETTE["vermillion"],
    "hidden": PALETTE["orange"],
    "idle": PALETTE["grey"],
    "algorithm": PALETTE["green"],
    "computation": PALETTE["sky"],
    "other": PALETTE["purple"],
}

#: Applied only inside :func:`styled`. Figures keep an opaque white background so
#: they stay legible on any notebook theme; the rendered book shows each as its dark
#: variant in its dark colour scheme (a CSS filter: tools/sphinxext/static/book.css).
STYLE = {
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.dpi": 100,
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "legend.fontsize": 10,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": mpl.cycler(color=[PALETTE[c] for c in (
        "blue", "vermillion", "green", "orange", "sky", "purple", "black", "yellow")]),
}


@contextlib.contextmanager
def _style_context():
    with mpl.rc_context(STYLE):
        yield


def styled(function):
    """Decorator: run a plotting function with ``STYLE`` applied.

    Parameters
    ----------
    function : callable
        A plotting function.
    """

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with _style_context():
            return function(*args, **kwargs)

    return wrapper


def new_figure(width_in=7.0, height_in=3.5, **subplots):
    """A figure and its axes, not registered with pyplot.

    Parameters
    ----------
    width_in, height_in : float
        Size [inch].
    **subplots
        Passed to ``matplotlib.figure.Figure.subplots`` (``nrows``, ``ncols``...).

    Returns
    -------
    (matplotlib.figure.Figure, matplotlib.axes.Axes or array of Axes)
    """
    with _style_context():
        figure = Figure(figsize=(width_in, height_in), layout="constrained")
        axes = figure.subplots(**subplots)
    return figure, axes


def legend_below(ax, *, gap_pt=36.0, **legend):
    """A legend just under the axes' x-axis label, at a fixed distance whatever the axes' height.

    Anchoring at an axes fraction (``bbox_to_anchor=(0.5, -0.2)``) puts the legend
    further below the label the taller the axes; this anchors it ``gap_pt`` points
    below the axes, which clears one line of tick labels and an x-axis label.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes whose legend to draw.
    gap_pt : float
        Distance from the bottom of the axes to the top of the legend [pt].
    **legend
        Passed to ``Axes.legend`` (``handles``, ``ncols``, ``fontsize``...).

    Returns
    -------
    matplotlib.legend.Legend
    """
    offset = ScaledTranslation(0.0, -gap_pt / 72.0, ax.figure.dpi_scale_trans)
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=ax.transAxes + offset,
                     borderaxespad=0.0, **legend)


def legend_label(label, values):
    """``label``, or no legend entry (matplotlib's leading underscore) when ``values`` draw nothing.

    A stacked bar's part that is zero everywhere is not drawn, so the legend does not name it.

    Parameters
    ----------
    label : str
        The part's name.
    values : float or array_like
        Its sizes, one per bar.

    Examples
    --------
    >>> legend_label("pipeline bubble", [0.0, 0.0]), legend_label("compute", [1.5, 0.0])
    ('_pipeline bubble', 'compute')
    """
    return label if np.any(np.asarray(values, dtype=float) > 0) else f"_{label}"


def _drawn_bar_groups(ax):
    """Each label of the axes' bar groups that draws something, once, with its first such group."""
    groups = {}
    for container in ax.containers:
        label = container.get_label()
        if label.startswith("_") or label in groups:
            continue
        if any(bar.get_visible() and bar.get_width() > 0 and bar.get_height() > 0 for bar in container):
            groups[label] = container
    return groups


def bar_legend(ax, **legend):
    """A legend that names each group of bars drawing something, once per label.

    For figures whose bars change in place (a panel's fast redraw): a part of zero
    length draws nothing and is not named; :func:`bar_legend_is_current` says when
    the bars no longer match the legend.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    **legend
        Passed to ``Axes.legend``.

    Returns
    -------
    matplotlib.legend.Legend
    """
    groups = _drawn_bar_groups(ax)
    return ax.legend(handles=list(groups.values()), labels=list(groups), **legend)


def bar_legend_is_current(ax):
    """Whether the legend :func:`bar_legend` drew still names exactly the bar groups that draw something.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    """
    legend = ax.get_legend()
    named = [text.get_text() for text in legend.texts] if legend is not None else []
    return named == list(_drawn_bar_groups(ax))


def text_width_in(text, fontsize):
    """Rough width of one line of text [inch]: DejaVu Sans averages about 0.6 em a character.

    For placing labels before the figure is laid out (no renderer needed).

    Parameters
    ----------
    text : str
        One line.
    fontsize : float
        Font size [pt].
    """
    return 0.6 * fontsize * len(text) / 72


def axes_size_in(ax):
    """Width and height of ``ax`` [inch] before the layout runs (a little less than after).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    """
    box = ax.get_position()
    return box.width * ax.figure.get_figwidth(), box.height * ax.figure.get_figheight()


def time_unit(seconds):
    """A time unit ``(name, size in seconds)`` that keeps ``seconds``, the largest value, readable.

    Parameters
    ----------
    seconds : float
        The largest time to show [s].

    Examples
    --------
    >>> time_unit(0.0042)
    ('ms', 0.001)
    """
    for name, size in (("s", 1.0), ("ms", ms), ("µs", us), ("ns", ns)):
        if seconds >= size:
            return name, size
    return "ns", ns
