"""Panels in the rendered book, without a kernel: every control value computed at build time.

Most readers meet the book as static HTML, where no Python runs. When the book
is built (``jupyter-book build``; the Sphinx extension
``tools/sphinxext/static_panels.py`` sets :data:`ENV`), a panel displayed in a
notebook does not show its ipywidgets. It evaluates its own ``compute``,
``describe`` and figure over a grid of control values (:func:`export`) and
displays an HTML panel (:func:`static_html`) that holds the results as JSON;
the page's renderer (``static-panels.js``, drawing with Chart.js) shows the
readout and redraws the figure when the reader moves a control. Every number
on the page comes from the library: the readout is ``describe()``'s own HTML
and the figure is read from the matplotlib figure ``draw``/``redraw`` made
(:func:`figure_scene`: lines, bars and other patches, collections, texts,
ticks, labels and legends, in data coordinates), so nothing is re-implemented
in JavaScript. Scenes are stored as shared items: an axis frame or a curve
that a control does not change is written once.

The grid, per control (:func:`control_grid`):

- dropdowns, selection sliders, radio and toggle buttons: every option;
- checkboxes and toggle buttons: off and on;
- numeric sliders: every step, or, beyond :data:`MAX_SLIDER_POSITIONS`
  steps, that many evenly spaced ones (always with the initial value); a
  panel may declare its own values in ``Panel.static_grid``.

A panel whose controls make more than :data:`MAX_COMBINATIONS` combinations
(or take more than ``TIME_BUDGET_S`` to evaluate) declares a *static
variant*: ``Panel.static_controls`` names the few controls that carry the
chapter's lesson, and the page offers those, precomputed, while every other
control keeps its initial value, named in plain words under the panel
(:func:`fixed_settings`). There is no still: a panel that is too large and
declares no variant stops the build with a message saying what to declare
(:class:`NotStatic`), and ``tests/widgets/test_static.py`` finds it first.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import itertools
import json
import math
import os
import re
import time
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
from matplotlib import colors as mcolors
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

__all__ = ["ENV", "MAX_COMBINATIONS", "MAX_SLIDER_POSITIONS", "StaticControl", "NotStatic", "build_mode",
           "control_grid", "grid", "fixed_settings", "export", "figure_scene", "encode_data", "decode_data",
           "static_html", "note_html", "ERROR_CLASS", "GENERIC_REFUSAL", "refusal_text", "error_html"]

#: Environment variable that turns build mode on ("1"): set by the book's Sphinx extension.
ENV = "INTERCONNECT_LAB_STATIC_PANELS"
#: Most control combinations one panel may precompute (page weight and build time).
MAX_COMBINATIONS = 2000
#: Most positions a numeric slider gets in the page unless the panel declares its values.
MAX_SLIDER_POSITIONS = 11
#: Most processor time one panel's grid may take at build time before it falls back to the note [s]
#: (processor time, not wall time, so that a loaded machine builds the same page).
TIME_BUDGET_S = 30.0
#: Significant digits of figure coordinates (the readout is describe()'s text, unrounded).
FIGURE_DIGITS = 5

# The readout of a refused combination lives here, not in panel.py, because the live panel and the
# precomputed page both show it and panel.py imports this module (so this one cannot import panel.py).

#: CSS class of the readout's message when the model refuses the controls' combination.
ERROR_CLASS = "il-panel-error"


#: What a panel says of a refused combination whose reason the model states only for programmers.
GENERIC_REFUSAL = "The model cannot compute these settings together: change one of them."


def refusal_text(error) -> str:
    """A refused combination in a reader's words: the model's plain sentence, else :data:`GENERIC_REFUSAL`.

    The model raises :class:`interconnect_lab._validation.NotPossible` for values that are each
    valid but cannot go together; its ``plain`` sentence names no parameter or code. Any other
    error's message is written for programmers and is not shown to a reader.

    Parameters
    ----------
    error : Exception
        What the model raised.

    Examples
    --------
    >>> refusal_text(ValueError("ep_degree = 64 must divide experts = 8"))
    'The model cannot compute these settings together: change one of them.'
    """
    return getattr(error, "plain", None) or GENERIC_REFUSAL


def error_html(error) -> str:
    """The readout for a combination the model refuses: why, in a sentence, marked ``ERROR_CLASS``.

    Parameters
    ----------
    error : Exception
        What the model raised.
    """
    return (f'<span class="{ERROR_CLASS}" style="color:#b2182b">&#9888; Not possible. '
            f"{html.escape(refusal_text(error))}</span>")


class NotStatic(Exception):
    """Why a panel cannot be precomputed for the page, addressed to its developer.

    The book's build stops on it: declare a static variant (``Panel.static_controls``,
    ``Panel.static_grid``) that the page can hold.
    """


def build_mode() -> bool:
    """True while the book is being built (:data:`ENV` is ``"1"``)."""
    return os.environ.get(ENV) == "1"


# --- The grid ---------------------------------------------------------------------------
@dataclass(frozen=True)
class StaticControl:
    """One control as the page shows it: its kind, label, values and their labels."""

    name: str
    kind: str            # "range", "select" or "check"
    label: str
    values: tuple
    labels: tuple
    index: int           # of the control's current value

    def as_json(self):
        return {"name": self.name, "kind": self.kind, "label": self.label, "labels": list(self.labels),
                "index": self.index, "uneven": self.kind == "range" and uneven_steps(self.values)}


def _format(value, spec):
    try:
        return format(value, spec or "")
    except (TypeError, ValueError):
        return str(value)


def _close(a, b):
    try:
        return a == b or math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError):
        return False


def _index_of(values, value):
    for i, v in enumerate(values):
        if _close(v, value):
            return i
    return None


def control_grid(name: str, control, declared=None) -> StaticControl:
    """The values the page offers for one control, with their labels.

    ``declared`` replaces a numeric slider's steps or narrows a selection's
    options; the control's current value is always included.

    Parameters
    ----------
    name : str
        The control's name in ``panel.controls``.
    control : ipywidgets.Widget
        A dropdown, selection slider, checkbox, toggle button or numeric slider.
    declared : sequence, optional
        The values ``Panel.static_grid`` declares for it.

    Examples
    --------
    >>> import ipywidgets as widgets
    >>> grid = control_grid("share", widgets.FloatSlider(value=0.5, min=0, max=1, step=0.25, readout_format=".0%"))
    >>> grid.kind, grid.values, grid.labels, grid.index
    ('range', (0.0, 0.25, 0.5, 0.75, 1.0), ('0%', '25%', '50%', '75%', '100%'), 2)
    """
    label = control.description or name
    if hasattr(control, "_options_values"):  # Dropdown, SelectionSlider, RadioButtons, ToggleButtons
        values, labels = tuple(control._options_values), tuple(control._options_labels)
        if declared is not None:
            keep = [i for i, v in enumerate(values) if any(_close(v, d) for d in declared)
                    or _close(v, control.value)]
            values, labels = tuple(values[i] for i in keep), tuple(labels[i] for i in keep)
        kind = "range" if isinstance(control, widgets.SelectionSlider) else "select"
        index = _index_of(values, control.value)
        if index is None:
            raise NotStatic(f"control '{name}': its value {control.value!r} is not one of its options")
        return StaticControl(name, kind, label, values, labels, index)
    if isinstance(control, (widgets.Checkbox, widgets.ToggleButton)):
        return StaticControl(name, "check", label, (False, True), ("off", "on"), int(bool(control.value)))
    if isinstance(control, (widgets.FloatSlider, widgets.IntSlider, widgets.FloatLogSlider)):
        value, spec = control.value, getattr(control, "readout_format", "")
        if isinstance(control, widgets.FloatLogSlider):
            exponents = _steps(control.min, control.max, control.step)
            steps = [control.base ** e for e in exponents]
        else:
            steps = _steps(control.min, control.max, control.step)
            if isinstance(control, widgets.IntSlider):
                steps = [int(round(s)) for s in steps]
        if declared is not None:
            steps = [s for s in declared]
        elif len(steps) > MAX_SLIDER_POSITIONS:
            picks = np.unique(np.round(np.linspace(0, len(steps) - 1, MAX_SLIDER_POSITIONS)).astype(int))
            steps = [steps[i] for i in picks]
        if _index_of(steps, value) is None:
            steps = sorted([*steps, value])
        values = tuple(steps)
        return StaticControl(name, "range", label, values, tuple(_format(v, spec) for v in values),
                             _index_of(values, value))
    raise NotStatic(f"control '{name}' is a {type(control).__name__}, which the page cannot show")


def _steps(low, high, step):
    count = int(math.floor((high - low) / step + 1e-9)) + 1
    decimals = max(0, -int(math.floor(math.log10(step))) + 2) if step > 0 else 6
    return [round(low + i * step, decimals) for i in range(count)]


def _offered(panel) -> list[str]:
    """The names of the controls the page offers: ``static_controls``, or every control."""
    if getattr(panel, "static_kernel_only", None):
        raise NotStatic(f"{type(panel).__name__}.static_kernel_only is no longer supported: the page shows no "
                        "stills; declare static_controls (the few controls that carry the lesson) instead")
    offered = getattr(panel, "static_controls", None)
    if offered is None:
        return list(panel.controls)
    unknown = [name for name in offered if name not in panel.controls]
    if unknown or not offered:
        raise ValueError(f"{type(panel).__name__}.static_controls names {unknown or 'no control'}; choose "
                         f"among its controls {list(panel.controls)}")
    return [name for name in panel.controls if name in offered]  # in the panel's order


def grid(panel) -> list[StaticControl]:
    """The controls of ``panel`` the page offers, with their values (raises :class:`NotStatic`).

    Parameters
    ----------
    panel : Panel
    """
    offered = _offered(panel)
    declared = getattr(panel, "static_grid", None) or {}
    unknown = set(declared) - set(offered)
    if unknown:
        raise ValueError(f"{type(panel).__name__}.static_grid names {sorted(unknown)}, which are not controls "
                         f"the page offers (valid: {offered})")
    controls = []
    for name in offered:
        try:
            controls.append(control_grid(name, panel.controls[name], declared.get(name)))
        except NotStatic as reason:
            raise NotStatic(f"{type(panel).__name__}: {reason}; leave it out of static_controls") from None
    count = math.prod(len(c.values) for c in controls)
    if count > MAX_COMBINATIONS:
        raise NotStatic(f"{type(panel).__name__}'s controls make {count:,} combinations, more than the "
                        f"{MAX_COMBINATIONS:,} a page holds: declare static_controls (the few controls that carry "
                        "the chapter's lesson) and, if needed, static_grid (fewer values for them)")
    return controls


def fixed_settings(panel) -> list[tuple[str, str]]:
    """The controls the page does not offer, as (label, value) in the reader's words.

    Each keeps its initial value; a text box left empty is not listed.

    Parameters
    ----------
    panel : Panel
    """
    offered = set(_offered(panel))
    settings = []
    for name, control in panel.controls.items():
        if name in offered:
            continue
        value = _control_value_text(name, control)
        if value.strip():
            settings.append((_plain(control.description or name), value))
    return settings


# --- The figure as data -----------------------------------------------------------------
def _num(value):
    value = float(value)
    if not math.isfinite(value):
        return None
    return float(f"{value:.{FIGURE_DIGITS}g}")


def _color(color, alpha=None):
    """``#rrggbbaa`` (or None for nothing drawn)."""
    if color is None or (isinstance(color, str) and color.lower() == "none"):
        return None
    rgba = mcolors.to_rgba(color, alpha)
    if rgba[3] == 0:
        return None
    return mcolors.to_hex(rgba, keep_alpha=True)


def _plain(text: str) -> str:
    """Matplotlib mathtext as plain text: ``$10^{3}$`` → ``10³``."""
    if "$" not in text:
        return text
    superscripts = str.maketrans("0123456789-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻")
    text = re.sub(r"\^\{([^{}]*)\}", lambda m: m.group(1).translate(superscripts), text)
    text = re.sub(r"\\mathdefault\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\^(\w)", lambda m: m.group(1).translate(superscripts), text)
    for tex, plain in ((r"\times", "×"), (r"\cdot", "·"), (r"\,", " "), (r"\mu", "µ"), (r"\alpha", "α"),
                       (r"\beta", "β"), (r"\div", "÷"), (r"\leq", "≤"), (r"\geq", "≥"), (r"\%", "%")):
        text = text.replace(tex, plain)
    return re.sub(r"\\(?:mathrm|text|mathit|mathbf)\{([^{}]*)\}", r"\1", text).replace("$", "")


def _to_data(ax, transform, points):
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if transform is ax.transData or not len(points):
        return points
    return ax.transData.inverted().transform(transform.transform(points))


def _flat(points):
    values = np.asarray(points, dtype=float).ravel()
    return [None if v != v or v in (math.inf, -math.inf) else float(f"{v:.{FIGURE_DIGITS}g}") for v in values.tolist()]


_DASHES = {"-": [], "solid": [], "--": [6, 4], "dashed": [6, 4], ":": [1.5, 3], "dotted": [1.5, 3],
           "-.": [6, 3, 1.5, 3], "dashdot": [6, 3, 1.5, 3]}
_STEPS = {"steps": "before", "steps-pre": "before", "steps-post": "after", "steps-mid": "middle"}


def _line_item(ax, line):
    xy = _to_data(ax, line.get_transform(), line.get_xydata())
    style = line.get_linestyle()
    marker = line.get_marker()
    marker = None if marker in (None, "", " ", "None", "none") else str(marker)
    if style in ("None", "none", "", " ") and marker is None:
        return None
    return {"k": "line", "xy": _flat(xy), "c": _color(line.get_color(), line.get_alpha()),
            "lw": _num(line.get_linewidth()), "dash": _DASHES.get(style, []) if style not in ("None", "none", "", " ")
            else None, "step": _STEPS.get(line.get_drawstyle()), "m": marker, "ms": _num(line.get_markersize()),
            "mfc": _color(line.get_markerfacecolor(), line.get_alpha()),
            "mec": _color(line.get_markeredgecolor(), line.get_alpha()), "z": _num(line.get_zorder()),
            "clip": bool(line.get_clip_on())}


def _shapes(inverse, polygons):
    """Polygons in data coordinates: axis-aligned rectangles as ``r`` [x0, y0, x1, y1], others as ``p``."""
    rects, others = [], []
    for polygon in polygons:
        points = inverse.transform(polygon)
        xs, ys = np.unique(points[:, 0]), np.unique(points[:, 1])
        if len(points) in (4, 5) and len(xs) <= 2 and len(ys) <= 2:
            rects.append([_num(xs.min()), _num(ys.min()), _num(xs.max()), _num(ys.max())])
        else:
            others.append(_flat(points))
    return rects, others


def _shape_item(rects, others, face, edge, width, z, clip, closed=True, hatch=None):
    item = {"k": "poly", "fc": face, "ec": edge, "lw": _num(width), "z": z, "clip": clip}
    if hatch:
        item["h"] = hatch  # matplotlib's hatch string ("///", "xx"...), drawn in the edge colour
    if rects:
        item["r"] = rects
    if others:
        item["p"] = others
    if not closed:
        item["open"] = True
    return item


def _patch_item(ax, patch):
    # to_polygons(transform) applies only a transform's affine part: log axes need transform_path.
    polygons = patch.get_transform().transform_path(patch.get_path()).to_polygons(closed_only=True)
    if not polygons:
        return None
    face = _color(patch.get_facecolor()) if patch.get_fill() else None
    edge = _color(patch.get_edgecolor()) if patch.get_linewidth() > 0 else None
    if face is None and edge is None:
        return None
    rects, others = _shapes(ax.transData.inverted(), polygons)
    return _shape_item(rects, others, face, edge, patch.get_linewidth(), _num(patch.get_zorder()),
                       bool(patch.get_clip_on()), hatch=patch.get_hatch())


def _collection_items(ax, collection):
    faces = [_color(c) for c in collection.get_facecolor()] or [None]
    edges = [_color(c) for c in collection.get_edgecolor()] or [None]
    widths = list(collection.get_linewidth()) or [1.0]
    z, clip = _num(collection.get_zorder()), bool(collection.get_clip_on())
    if isinstance(collection, PathCollection):  # scatter: one marker per offset
        offsets = _to_data(ax, collection.get_offset_transform(), collection.get_offsets())
        sizes = list(collection.get_sizes()) or [36.0]
        return [{"k": "pts", "xy": _flat(offsets), "fc": faces, "ec": edges,
                 "s": [_num(math.sqrt(s)) for s in sizes], "z": z, "clip": clip}]
    transform = collection.get_transform()
    inverse = ax.transData.inverted()
    closed = not isinstance(collection, LineCollection)
    groups = {}  # paths of one colour and width share an item
    for i, path in enumerate(collection.get_paths()):
        face = faces[i % len(faces)] if closed else None
        edge = edges[i % len(edges)]
        if face is None and edge is None:
            continue
        polygons = transform.transform_path(path).to_polygons(closed_only=closed)
        if polygons:
            groups.setdefault((face, edge, float(widths[i % len(widths)])), []).extend(polygons)
    items = []
    for (face, edge, width), polygons in groups.items():
        if closed:
            rects, others = _shapes(inverse, polygons)
        else:
            rects, others = [], [_flat(inverse.transform(p)) for p in polygons]
        items.append(_shape_item(rects, others, face, edge, width, z, clip, closed, hatch=collection.get_hatch()))
    return items


def _text_item(ax, text, renderer):
    string = text.get_text()
    if not string.strip() or not text.get_visible():
        return None
    box = text.get_window_extent(renderer)
    ha, va = text.get_horizontalalignment(), text.get_verticalalignment()
    x = {"left": box.x0, "right": box.x1}.get(ha, (box.x0 + box.x1) / 2)
    y = {"bottom": box.y0, "baseline": box.y0, "top": box.y1}.get(va, (box.y0 + box.y1) / 2)
    x, y = ax.transData.inverted().transform((x, y))
    return {"k": "text", "xy": [_num(x), _num(y)], "s": _plain(string), "ha": ha,
            "va": "bottom" if va == "baseline" else va, "fs": _num(text.get_fontsize()),
            "c": _color(text.get_color(), text.get_alpha()),
            "b": str(text.get_fontweight()) in ("bold", "heavy", "700", "800", "900"),
            "rot": _num(text.get_rotation()), "z": _num(text.get_zorder())}


#: Legend swatches of dashed and dotted lines (the page draws them so).
_LINE_SWATCHES = {"--": "dash", "dashed": "dash", "-.": "dash", "dashdot": "dash", ":": "dot", "dotted": "dot"}
#: Legend swatches of markers other than a dot (the page draws them so; every other marker is a dot).
_MARKER_SWATCHES = {"D": "diamond", "d": "diamond", "s": "square", "^": "triangle", "v": "triangle",
                    "<": "triangle", ">": "triangle"}


def _legend_entries(legend):
    entries = []
    for handle, text in zip(legend.legend_handles, legend.texts):
        if isinstance(handle, Line2D):
            markers_only = handle.get_linestyle() in ("None", "none", "", " ")
            kind = (_MARKER_SWATCHES.get(str(handle.get_marker()), "marker") if markers_only
                    else _LINE_SWATCHES.get(handle.get_linestyle(), "line"))
            color = _color(handle.get_markerfacecolor() if markers_only else handle.get_color())
        elif isinstance(handle, Patch):
            kind, color = "patch", _color(handle.get_facecolor()) or _color(handle.get_edgecolor())
        else:
            try:
                kind, color = "patch", _color(handle.get_facecolor()[0])
            except (AttributeError, IndexError, TypeError):
                kind, color = "patch", None
        entry = [_plain(text.get_text()), kind, color]
        hatch = handle.get_hatch() if kind == "patch" and hasattr(handle, "get_hatch") else None
        if hatch:
            entry.append(hatch)   # the swatch is hatched as the patches it names
        entries.append(entry)
    return entries


def _ticks(axis, low, high):
    if not axis.get_visible() or not axis._major_tick_kw.get("label1On", True):
        return []
    locations = [v for v in axis.get_majorticklocs()
                 if min(low, high) * (1 - 1e-9) - 1e-12 <= v <= max(low, high) * (1 + 1e-9) + 1e-12]
    labels = axis.get_major_formatter().format_ticks(locations) if locations else []
    return [[_num(v), _plain(label)] for v, label in zip(locations, labels)]


def _axes_item(ax, index, outer):
    x0, y0, width, height = ax.get_position().bounds
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    legend = ax.get_legend()
    return {"k": "axes", "i": index, "box": [_num(x0), _num(y0), _num(width), _num(height)],
            "outer": [_num(max(0.0, outer.x0)), _num(max(0.0, outer.y0)), _num(min(1.0, outer.x1)),
                      _num(min(1.0, outer.y1))],
            "on": bool(ax.axison), "xs": ax.get_xscale(), "ys": ax.get_yscale(),
            "xl": [_num(min(xlim)), _num(max(xlim))], "yl": [_num(min(ylim)), _num(max(ylim))],
            "xinv": bool(xlim[0] > xlim[1]), "yinv": bool(ylim[0] > ylim[1]),
            "xt": _ticks(ax.xaxis, *xlim), "yt": _ticks(ax.yaxis, *ylim),
            "xlab": _plain(ax.get_xlabel()), "ylab": _plain(ax.get_ylabel()),
            "title": [_plain(ax.get_title(loc)) for loc in ("left", "center", "right")],
            "grid": bool(ax.xaxis._major_tick_kw.get("gridOn", False) or ax.yaxis._major_tick_kw.get("gridOn", False)),
            "legend": _legend_entries(legend) if legend is not None and legend.get_visible() else []}


def figure_scene(figure, renderer, cache=None) -> list[dict]:
    """What ``figure`` shows, as JSON-able items in each axes' data coordinates.

    One ``axes`` item per visible axes (frame, scales, limits, ticks with
    matplotlib's labels, axis labels, titles, legend), then its artists:
    ``line`` (Line2D), ``poly`` (patches and collections' paths: rectangles
    as ``r``, other polygons as ``p``, a hatch as ``h``; a legend entry of a
    hatched patch carries its hatch too), ``pts`` (scatter markers) and
    ``text``. Each artist item carries ``ax``, its axes' index. First, a
    ``fig`` item with the suptitle and figure legends. ``cache`` (a dict kept
    between calls on one figure) skips artists that have not changed.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    renderer : matplotlib.backend_bases.RendererBase
        The figure's renderer (text extents).
    cache : dict, optional
        Kept between calls on one figure.
    """
    cache = {} if cache is None else cache
    items = []
    suptitle = figure._suptitle.get_text() if figure._suptitle is not None else ""
    legends = [entry for legend in figure.legends for entry in _legend_entries(legend)]
    items.append({"k": "fig", "title": _plain(suptitle), "legend": legends})
    for index, ax in enumerate(figure.axes):
        if not ax.get_visible():
            continue
        frame = (ax.get_position().bounds, ax.get_xlim(), ax.get_ylim())
        key = ("axes", id(ax), *frame, ax.axison, ax.get_xscale(), ax.get_yscale(), ax.get_xlabel(),
               ax.get_ylabel(), tuple(ax.get_title(loc) for loc in ("left", "center", "right")),
               _legend_key(ax.get_legend()))
        items.append(_cached(cache, key, lambda: _axes_item(ax, index, _cached(
            cache, ("outer", id(ax), frame[0]), lambda: _outer(ax, renderer)))))
        artists = []
        for line in ax.get_lines():
            if line.get_visible():
                key = ("line", id(line), line.get_xydata().tobytes(), line.get_color(), line.get_alpha(),
                       line.get_linestyle(), line.get_linewidth(), line.get_marker(), line.get_markersize(),
                       str(line.get_markerfacecolor()), str(line.get_markeredgecolor()), line.get_drawstyle(),
                       line.get_zorder(), line.get_clip_on(), frame)
                artists.append(_cached(cache, key, lambda: _line_item(ax, line)))
        for patch in ax.patches:
            if patch.get_visible():
                shape = ((patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height())
                         if hasattr(patch, "get_width") and hasattr(patch, "get_x") else None)
                if shape is None:
                    artists.append(_patch_item(ax, patch))
                    continue
                key = ("patch", id(patch), shape, tuple(patch.get_facecolor()), tuple(patch.get_edgecolor()),
                       patch.get_linewidth(), patch.get_fill(), patch.get_hatch(), patch.get_zorder(),
                       patch.get_clip_on(), frame)
                artists.append(_cached(cache, key, lambda: _patch_item(ax, patch)))
        for collection in ax.collections:
            if collection.get_visible():
                artists.extend(_collection_items(ax, collection))
        for text in ax.texts:
            key = ("text", id(text), text.get_text(), text.get_position(), getattr(text, "xy", None),
                   text.get_horizontalalignment(), text.get_verticalalignment(), text.get_fontsize(),
                   str(text.get_color()), text.get_alpha(), text.get_visible(), text.get_fontweight(),
                   text.get_rotation(),
                   text.get_zorder(), frame)
            artists.append(_cached(cache, key, lambda: _text_item(ax, text, renderer)))
        for item in artists:
            if item is not None:
                item = dict(item, ax=index)
                items.append(item)
    return items


def _outer(ax, renderer):
    """Where the axes with its labels and title lies in the figure (figure fractions; costly, so cached)."""
    return ax.get_tightbbox(renderer).transformed(ax.figure.transFigure.inverted())


def _legend_key(legend):
    if legend is None or not legend.get_visible():
        return None
    return tuple(text.get_text() for text in legend.texts)


def _cached(cache, key, make):
    try:
        return cache[key]
    except KeyError:
        value = cache[key] = make()
        return value
    except TypeError:  # an unhashable part: compute every time
        return make()


# --- The export ---------------------------------------------------------------------------
def export(panel) -> dict:
    """Every combination of ``panel``'s control values: readout HTML and figure scene.

    Raises :class:`NotStatic` when the panel cannot be precomputed. The
    result is JSON-able: ``controls`` (as the page shows them), ``fixed``
    (the others, with their values: :func:`fixed_settings`), ``readouts``
    and ``scenes`` (unique, indexed), ``items`` (unique scene items) and, per
    combination in row-major order of the controls (the last varies fastest),
    ``readout`` and ``scene`` indices. A combination the model refuses
    (``ValueError``/``TypeError``) gets the live panel's error readout and
    scene -1: the page keeps the figure it shows, as the live panel does.

    Parameters
    ----------
    panel : Panel
    """
    controls = grid(panel)
    started = time.process_time()
    renderer = panel._canvas.get_renderer()
    interned, items, cache = {}, [], {}
    readout_index, readouts = {}, []
    scene_index, scenes = {}, []
    combo_readouts, combo_scenes = [], []
    initial = panel.values()
    try:
        for combination in itertools.product(*(range(len(c.values)) for c in controls)):
            values = dict(initial, **{c.name: c.values[i] for c, i in zip(controls, combination)})
            try:
                result = panel.compute(**values)
            except (ValueError, TypeError) as error:
                # As the live panel does: the model's message in the readout, the last figure kept
                # (scene -1: the page leaves the figure as it is).
                text, scene = error_html(error), -1
            else:
                text = panel.describe(result)
                panel._redraw_figure(result)
                ids = []
                for item in figure_scene(panel.figure, renderer, cache):
                    key = json.dumps(item, separators=(",", ":"), ensure_ascii=False)
                    if key not in interned:
                        interned[key] = len(items)
                        items.append(item)
                    ids.append(interned[key])
                scene_key = tuple(ids)
                if scene_key not in scene_index:
                    scene_index[scene_key] = len(scenes)
                    scenes.append(ids)
                scene = scene_index[scene_key]
            if text not in readout_index:
                readout_index[text] = len(readouts)
                readouts.append(text)
            combo_readouts.append(readout_index[text])
            combo_scenes.append(scene)
            if time.process_time() - started > TIME_BUDGET_S:
                raise NotStatic(f"{type(panel).__name__}: evaluating its controls took more than "
                                f"{TIME_BUDGET_S:.0f} s of processor time; offer fewer (static_controls, "
                                "static_grid)")
    finally:
        panel.result = panel.compute(**initial)
        panel._redraw_figure(panel.result)
    width, height = panel.figure.get_size_inches()
    return {"version": 1, "panel": type(panel).__name__, "controls": [c.as_json() for c in controls],
            "fixed": [list(setting) for setting in fixed_settings(panel)],
            "figure": {"width_in": _num(width), "height_in": _num(height)},
            "readouts": readouts, "scenes": scenes, "items": items,
            "readout": combo_readouts, "scene": combo_scenes,
            "seconds": round(time.process_time() - started, 3)}


def _control_html(uid, index, control: StaticControl, uneven: bool = False) -> str:
    cid = f"{uid}-c{index}"
    label = f'<label for="{cid}">{html.escape(control.label)}</label>'
    if control.kind == "select":
        options = "".join(f'<option value="{i}"{" selected" if i == control.index else ""}>{html.escape(text)}'
                          "</option>" for i, text in enumerate(control.labels))
        disabled = " disabled" if len(control.labels) == 1 else ""
        field = f'<select id="{cid}" data-control="{index}"{disabled}>{options}</select>'
    elif control.kind == "check":
        field = (f'<input type="checkbox" id="{cid}" data-control="{index}"'
                 f'{" checked" if control.index else ""}>')
        return f'<div class="il-sp-control il-sp-check">{field}{label}</div>'
    else:
        current = html.escape(control.labels[control.index])
        field = (f'<input type="range" id="{cid}" data-control="{index}" min="0" max="{len(control.labels) - 1}" '
                 f'step="1" value="{control.index}" aria-valuetext="{current}"'
                 f'{" disabled" if len(control.labels) == 1 else ""}>'
                 f'<output for="{cid}" id="{cid}-value">{current}</output>' + (_ticks_html(control) if uneven else ""))
    return f'<div class="il-sp-control">{label}{field}</div>'


#: Most tick labels under an unevenly stepped slider (every position still gets a tick mark).
MAX_TICK_LABELS = 6


def uneven_steps(values) -> bool:
    """Whether a slider's values are numbers spaced unevenly (1, 2, 4, 8 or 1,024 to 100,000).

    Such a slider's positions are evenly spaced on the track, so the page labels them;
    an evenly stepped slider (a FloatSlider's steps) needs no labels.

    >>> uneven_steps((8, 16, 32, 64)), uneven_steps((0.0, 0.25, 0.5)), uneven_steps(("a", "b"))
    (True, False, False)
    """
    try:
        numbers = [float(v) for v in values]
    except (TypeError, ValueError):
        return False
    if len(numbers) < 3:
        return False
    gaps = np.diff(numbers)
    return not np.allclose(gaps, gaps[0], rtol=1e-6, atol=0.0)


def _ticks_html(control: StaticControl) -> str:
    """Tick marks under an unevenly stepped slider, with the values of some of them written out."""
    count = len(control.labels)
    shown = set(np.unique(np.round(np.linspace(0, count - 1, min(count, MAX_TICK_LABELS))).astype(int)).tolist())
    marks = "".join(f'<span class="il-sp-tick{" il-sp-tick-label" if i in shown else ""}" '
                    f'style="--il-sp-at: {i / (count - 1):.4f}">{html.escape(text) if i in shown else ""}</span>'
                    for i, text in enumerate(control.labels))
    return f'<div class="il-sp-ticks" aria-hidden="true">{marks}</div>'


#: How a panel's data is stored in the page: its JSON, gzip-compressed (deterministic: no
#: timestamp) and base64-encoded, which makes it 5-17 times smaller; the page's renderer
#: inflates it with the browser's ``DecompressionStream``.
DATA_TYPE = "application/octet-stream"
DATA_ENCODING = "gzip+base64"


def encode_data(payload: str) -> str:
    """A panel's JSON as the page stores it (see ``DATA_ENCODING``).

    Parameters
    ----------
    payload : str
        The panel's data, as JSON.
    """
    return base64.b64encode(gzip.compress(payload.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")


def decode_data(text: str) -> dict:
    """The panel data :func:`encode_data` stored, as a ``dict``.

    Parameters
    ----------
    text : str
        What :func:`encode_data` returned.
    """
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


def static_html(panel, data: dict | None = None) -> str:
    """The panel as the rendered book shows it: labelled controls, readout, figure and its data.

    Parameters
    ----------
    panel : Panel
    data : dict, optional
        Its :func:`export`; computed if None.
    """
    data = export(panel) if data is None else data
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    script = encode_data(payload)
    uid = "il-sp-" + hashlib.sha1(payload.encode()).hexdigest()[:10]
    controls = [StaticControl(c["name"], c["kind"], c["label"], (), tuple(c["labels"]), c["index"])
                for c in data["controls"]]
    initial = sum(c.index * math.prod(len(d.labels) for d in controls[i + 1:]) for i, c in enumerate(controls))
    readout = data["readouts"][data["readout"][initial]]
    width, height = data["figure"]["width_in"], data["figure"]["height_in"]
    return (
        f'<div class="il-static-panel" id="{uid}" data-panel="{html.escape(data["panel"])}">'
        '<div class="il-sp-controls" role="group" aria-label="The panel\'s controls">'
        + "".join(_control_html(uid, i, c, data["controls"][i].get("uneven", False))
                  for i, c in enumerate(controls)) + "</div>"
        f'<div class="il-sp-readout" role="status" aria-live="polite" aria-atomic="true">{readout}</div>'
        f'<div class="il-sp-figure" role="img" aria-label="The panel\'s figure; it changes with the controls '
        f'above, and the line above states its values." style="aspect-ratio: {width} / {height}"></div>'
        + note_html(data.get("fixed", ()), getattr(panel, "static_note", None))
        + f'<script type="{DATA_TYPE}" class="il-sp-data" data-encoding="{DATA_ENCODING}">{script}</script>'
        "</div>")


def note_html(fixed, note=None) -> str:
    """The line under a precomputed panel: what it offers, what it holds fixed, where to change the rest.

    Parameters
    ----------
    fixed : sequence of (str, str)
        The controls the page does not offer and their values (:func:`fixed_settings`).
    note : str, optional
        A plain sentence of the panel's own (``Panel.static_note``).

    Examples
    --------
    >>> note_html([("seed", "0")])  # doctest: +ELLIPSIS
    '<p class="il-sp-note">Other settings as in the text (seed: 0); open the notebook with ... to change them...'
    """
    launch = "the launch buttons (the rocket icon) at the top of the page"
    if fixed:
        settings = "; ".join(f"{html.escape(label)}: {html.escape(value)}" for label, value in fixed)
        text = (f"Other settings as in the text ({settings}); open the notebook with {launch} to change them. "
                "Every value here was computed when the page was built.")
    else:
        text = (f"Every value here was computed when the page was built. For values between those the controls "
                f"offer, open the notebook with {launch}.")
    if note:
        text += " " + html.escape(note)
    return f'<p class="il-sp-note">{text}</p>'


def _control_value_text(name, control) -> str:
    """A control's current value as the page labels it (see :func:`control_grid`)."""
    if isinstance(control.value, str) and not hasattr(control, "_options_values"):
        return control.value  # free text
    try:
        shown = control_grid(name, control)
    except NotStatic:
        return str(control.value)
    text = str(shown.labels[shown.index])
    return f"{int(text):,}" if re.fullmatch(r"\d{5,}", text) else text  # 12,288 GPUs, as the prose writes it
