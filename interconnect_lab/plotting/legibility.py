"""Whether a figure reads: texts that do not collide, stay in the figure and legends that name what is drawn.

matplotlib knows where every text it draws lands (``Text.get_window_extent``)
but never checks that two of them do not sit on each other: a long title runs
into the axis label of the plot beside it, direct labels at the ends of two
close lines overprint, a legend lists curves the controls have hidden. This
module draws a figure once, records every text actually drawn (titles, axis
and tick labels, annotations, legend entries) with its box on the canvas, and
reports:

- two texts whose boxes overlap (:func:`overlapping_texts`);
- a text that leaves the figure (cut off on the canvas), or that runs into
  the plotting area of another axes (:func:`texts_outside`);
- a legend entry that names nothing drawn: no visible artist with that label
  or that style shows any data in view (:func:`undrawn_legend_entries`);
- two entries of one legend that look the same but name different things
  (:func:`ambiguous_legend_entries`).

:func:`figure_problems` runs them all and returns plain-language lines, empty
when the figure reads well. The book's tests run it on every panel and on
every figure the chapters display (``tests/plotting/test_legibility.py``).

Example
-------
>>> from interconnect_lab.plotting.style import new_figure
>>> figure, ax = new_figure(3.0, 2.0)
>>> _ = ax.plot([0, 1], [0, 1], label="drawn")
>>> _ = ax.plot([0, 1], [1, 0], label="hidden", visible=False)
>>> _ = ax.legend()
>>> figure_problems(figure)
["legend entry 'hidden' names nothing drawn"]
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.collections import Collection, PathCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.transforms import Bbox

__all__ = ["DrawnText", "drawn_texts", "overlapping_texts", "texts_outside", "undrawn_legend_entries",
           "ambiguous_legend_entries", "figure_problems", "TOLERANCE_PX"]

#: How far two text boxes may overlap, or a text may stand over an edge, before it counts [px at
#: the figure's dpi]: glyph boxes include some empty space above and below the letters.
TOLERANCE_PX = 1.5


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: its string, box on the canvas [px], the axes it belongs to and what it is.

    ``box`` holds the text upright or turned; ``corners`` are the text's own rectangle, turned
    with it (a label at 40 degrees fills only a strip of its box).
    """

    text: str
    box: Bbox
    axes: object          # the Axes it belongs to, or None for the figure's own texts
    kind: str             # "title", "label", "tick", "legend", "annotation" or "figure"
    artist: Text
    corners: tuple = ()   # ((x, y), ...) of the turned rectangle [px]; empty: the box itself

    def __str__(self):
        return repr(self.text.replace("\n", " ")[:60])


def _owners(figure):
    """Which axes each text of the figure belongs to, and what it is: ``{id(text): (axes, kind)}``."""
    owners = {}
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            owners[id(axis.label)] = (ax, "label")
            owners[id(axis.offsetText)] = (ax, "tick")
            for tick in [*axis.majorTicks, *axis.minorTicks]:
                owners[id(tick.label1)] = owners[id(tick.label2)] = (ax, "tick")
        for title in (ax.title, ax._left_title, ax._right_title):
            owners[id(title)] = (ax, "title")
        for text in ax.texts:
            owners[id(text)] = (ax, "annotation")
    for legend in _legends(figure):
        for text in [*legend.texts, legend.get_title()]:
            owners[id(text)] = (legend.axes, "legend")
    return owners


def _legends(figure):
    found = list(figure.legends)
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend is not None:
            found.append(legend)
    return found


@contextlib.contextmanager
def _recording_texts(into):
    original = Text.draw

    def draw(self, renderer):
        result = original(self, renderer)
        if self.get_visible() and self.get_text().strip():
            box = self.get_window_extent(renderer)
            into.append((self, box, _turned_corners(self, box, renderer)))
        return result

    Text.draw = draw
    try:
        yield
    finally:
        Text.draw = original


def _turned_corners(text, box, renderer):
    """The corners of a turned text's own rectangle [px] (empty for upright and sideways text).

    A turned rectangle's centre is its bounding box's; its sides are the upright text's.
    """
    angle = text.get_rotation() % 180
    if angle % 90 == 0:
        return ()
    text.set_rotation(0)
    try:
        upright = text.get_window_extent(renderer)
    finally:
        text.set_rotation(angle)
    theta = np.radians(angle)
    along, across = np.array([np.cos(theta), np.sin(theta)]), np.array([-np.sin(theta), np.cos(theta)])
    centre = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
    w, h = upright.width / 2, upright.height / 2
    return tuple(tuple(centre + sx * w * along + sy * h * across) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def drawn_texts(figure, draw=None) -> list[DrawnText]:
    """Every text ``figure`` draws, with its box on the canvas [px].

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    draw : callable, optional
        Draws the figure (a panel's own renderer, which also draws the
        artists it updates in place); by default ``figure.draw_without_rendering``.
    """
    recorded = []
    with _recording_texts(recorded):
        (draw or figure.draw_without_rendering)()
    owners = _owners(figure)
    seen, texts = set(), []
    for artist, box, corners in recorded:
        if id(artist) in seen:
            continue
        seen.add(id(artist))
        if _clipped_away(artist, box):
            continue
        owner, kind = owners.get(id(artist), (artist.axes, "figure" if artist.axes is None else "annotation"))
        texts.append(DrawnText(artist.get_text(), Bbox(box.get_points().copy()), owner, kind, artist, corners))
    return texts


def _clipped_away(artist, box):
    """A clipped text wholly outside its clip box draws nothing."""
    clip = artist.get_clip_box() if artist.get_clip_on() else None
    return clip is not None and not box.overlaps(clip)


def _shrunk(box, by=TOLERANCE_PX):
    x0, y0, x1, y1 = box.extents
    return Bbox([[x0 + by, y0 + by], [max(x0 + by, x1 - by), max(y0 + by, y1 - by)]])


def _overlap(a, b, by=TOLERANCE_PX):
    a, b = _shrunk(a, by), _shrunk(b, by)
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _polygon(text):
    """A text's outline, shrunk by :data:`TOLERANCE_PX` on every side, as a (4, 2) array."""
    if not text.corners:
        x0, y0, x1, y1 = _shrunk(text.box).extents
        return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    corners = np.array(text.corners)
    centre = corners.mean(axis=0)
    toward = centre - corners
    return corners + TOLERANCE_PX * toward / np.maximum(np.linalg.norm(toward, axis=1, keepdims=True), 1e-9)


def _polygons_overlap(a, b):
    """Whether two convex outlines overlap: no side of either separates them (separating axes)."""
    for outline in (a, b):
        for i in range(len(outline)):
            edge = outline[(i + 1) % len(outline)] - outline[i]
            normal = np.array([-edge[1], edge[0]])
            pa, pb = a @ normal, b @ normal
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return False
    return True


def overlapping_texts(texts) -> list[tuple[DrawnText, DrawnText]]:
    """Pairs of drawn texts whose boxes overlap by more than :data:`TOLERANCE_PX`.

    Parameters
    ----------
    texts : list of DrawnText
        From :func:`drawn_texts`.
    """
    pairs = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if _overlap(a.box, b.box) and (not (a.corners or b.corners)
                                           or _polygons_overlap(_polygon(a), _polygon(b))):
                pairs.append((a, b))
    return pairs


def texts_outside(figure, texts, *, saved_tight=False) -> list[tuple[DrawnText, str]]:
    """Texts cut off at the figure's edge, or running into the plotting area of another axes.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    texts : list of DrawnText
        From :func:`drawn_texts`.
    saved_tight : bool
        The figure is saved with ``bbox_inches="tight"`` (as the notebook's inline backend
        does), which grows the image to hold every text: none is cut at its edge.
    """
    canvas = figure.bbox
    problems = []
    areas = [(ax, ax.get_window_extent()) for ax in figure.axes if ax.get_visible() and ax.axison]
    for text in texts:
        box = text.box
        if not saved_tight and (box.x0 < canvas.x0 - TOLERANCE_PX or box.y0 < canvas.y0 - TOLERANCE_PX
                                or box.x1 > canvas.x1 + TOLERANCE_PX or box.y1 > canvas.y1 + TOLERANCE_PX):
            problems.append((text, "leaves the figure"))
        if text.axes is None or text.kind == "legend":
            continue
        for ax, area in areas:
            if ax is text.axes or _same_place(ax, text.axes) or _related(ax, text.axes):
                continue
            if _overlap(box, area):
                problems.append((text, "runs into another plot"))
                break
    return problems


def _same_place(a, b):
    """Twin axes share their plotting area (``twinx``/``twiny``)."""
    return np.allclose(a.get_position().extents, b.get_position().extents)


def _related(a, b):
    """An inset axes lies inside its parent, which may label around it."""
    return a in getattr(b, "child_axes", ()) or b in getattr(a, "child_axes", ())


# --- Legends -------------------------------------------------------------------------------
def _rgb(color):
    try:
        return tuple(round(c, 3) for c in mcolors.to_rgb(color))
    except (TypeError, ValueError):
        return None


def _style(handle):
    """What a legend swatch looks like: kind, colour, line style, marker and hatch."""
    if isinstance(handle, Line2D):
        line = handle.get_linestyle() not in ("None", "none", "", " ")
        marker = handle.get_marker() not in (None, "", " ", "None", "none")
        color = handle.get_color() if line else handle.get_markerfacecolor()
        if not line and _rgb(color) in (None, (1.0, 1.0, 1.0)):   # a hollow marker: its edge tells
            color = handle.get_markeredgecolor()
        return ("line" if line else "marker", _rgb(color), handle.get_linestyle() if line else None,
                str(handle.get_marker()) if marker else None, None)
    if isinstance(handle, Patch):
        face = handle.get_facecolor() if handle.get_fill() else handle.get_edgecolor()
        return ("patch", _rgb(face), None, None, handle.get_hatch() or None)
    if isinstance(handle, Collection):
        faces = handle.get_facecolor()
        paths = handle.get_paths()
        shape = (tuple(np.round(paths[0].vertices, 2).ravel()) if isinstance(handle, PathCollection) and paths
                 else None)   # a scatter's marker
        return ("patch", _rgb(faces[0]) if len(faces) else None, None, shape, handle.get_hatch() or None)
    return ("other", None, None, None, None)


def _shows_data(artist, ax):
    """Whether a visible artist puts anything inside ``ax``'s view."""
    if not artist.get_visible():
        return False
    view = ax.viewLim
    if isinstance(artist, Line2D):
        xy = np.asarray(artist.get_xydata(), dtype=float)
        if xy.size == 0:
            return False
        if artist.get_transform() is not ax.transData:
            return bool(np.isfinite(xy).all(axis=1).any())  # in axes fractions (axhline...): across the view
        x0, x1 = sorted(view.intervalx)
        y0, y1 = sorted(view.intervaly)
        finite = np.isfinite(xy).all(axis=1)
        if not finite.any():
            return False
        xs, ys = xy[finite, 0], xy[finite, 1]
        if ((xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)).any():
            return True
        # A segment may cross the view with both ends outside it.
        return bool(xs.min() <= x1 and xs.max() >= x0 and ys.min() <= y1 and ys.max() >= y0 and len(xs) > 1)
    if isinstance(artist, Patch):
        try:
            extent = artist.get_window_extent()
        except (RuntimeError, ValueError):
            return True
        return extent.width > 0 and extent.height > 0 and extent.overlaps(ax.bbox)
    if isinstance(artist, Collection):
        return len(artist.get_paths()) > 0 or len(artist.get_offsets()) > 0
    return True


def _artists(figure):
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        for artist in [*ax.lines, *ax.patches, *ax.collections]:
            yield ax, artist


def _achromatic(rgb):
    return rgb is not None and max(rgb) - min(rgb) < 0.02


def _looks_like(style, artist):
    """Whether a drawn artist shows what a legend swatch of ``style`` stands for.

    A swatch in grey or black that names a marker, a line style or a hatch stands for that
    shape in any colour (a key to the shapes); otherwise the colours must agree, whatever
    the kind (a coloured line in the legend may stand for a shaded band of that colour).
    """
    kind, color, linestyle, marker, hatch = style
    drawn = _style(artist)
    colors = {drawn[1]}
    if isinstance(artist, Collection):
        colors |= {_rgb(c) for c in [*artist.get_facecolor(), *artist.get_edgecolor()]}
    if _achromatic(color) and (marker or hatch or (kind == "line" and linestyle not in ("-", "solid"))):
        return ((marker is None or drawn[3] == marker) and (hatch is None or drawn[4] == hatch)
                and (kind != "line" or marker or hatch or drawn[2] == linestyle))
    if color not in colors:
        return False
    return hatch is None or drawn[4] == hatch


def _flatten(items):
    for item in items:
        if isinstance(item, (tuple, list)):
            yield from _flatten(item)
        elif item is not None:
            yield item


def _labelled(figure, label):
    """The artists that carry ``label``: lines, patches and collections, and the parts of a labelled
    container (the bars of ``ax.bar``, the lines of ``ax.errorbar``)."""
    found = [(ax, a) for ax, a in _artists(figure) if a.get_label() == label]
    for ax in figure.axes:
        for container in ax.containers:
            parts = [part for part in _flatten(container) if hasattr(part, "get_visible")]
            # ``ax.hist`` labels its first bar only, which may be empty: the label is the container's.
            if container.get_label() == label or any(part.get_label() == label for part in parts):
                found += [(ax, part) for part in parts]
    return found


def _entry_drawn(figure, handle, label):
    """Whether the figure draws what a legend entry names (see :func:`undrawn_legend_entries`)."""
    by_label = _labelled(figure, label)
    if any(_shows_data(a, ax) for ax, a in by_label):
        return True
    stand_ins = all(isinstance(a, Line2D) and a.get_visible() and len(a.get_xdata()) == 0 for _, a in by_label)
    if by_label and not stand_ins:
        return False  # what it names is hidden, out of view, or of zero size
    # A legend of stand-ins (``ax.plot([], [], label=...)`` or handles made for it): what looks the same.
    style = _style(handle)
    if style[1] is None:
        return True  # a swatch we cannot compare: give it the benefit of the doubt
    return any(_shows_data(artist, ax) and _looks_like(style, artist) for ax, artist in _artists(figure))


def _entries(legend):
    for handle, text in zip(legend.legend_handles, legend.texts):
        if text.get_visible() and text.get_text().strip():
            yield handle, text.get_text()


def undrawn_legend_entries(figure) -> list[str]:
    """Labels of legend entries that name nothing drawn in the figure.

    An entry is drawn when a visible artist with its label shows data in its
    axes' view or, for a legend made of stand-in handles, when a visible
    artist of its colour does (of its shape, for a grey or black swatch that
    keys a marker, line style or hatch). A bar of zero width draws nothing.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    """
    return [label for legend in _legends(figure) if legend.get_visible()
            for handle, label in _entries(legend) if not _entry_drawn(figure, handle, label)]


def ambiguous_legend_entries(figure) -> list[tuple[str, str]]:
    """Pairs of labels in one legend whose swatches look the same.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    """
    pairs = []
    for legend in _legends(figure):
        seen = {}
        for handle, label in _entries(legend):
            style = _style(handle)
            if style[1] is None:
                continue
            if style in seen and seen[style] != label:
                pairs.append((seen[style], label))
            seen.setdefault(style, label)
    return pairs


def figure_problems(figure, draw=None, *, saved_tight=False) -> list[str]:
    """Everything that keeps ``figure`` from reading well, one plain line each (empty when none).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    draw : callable, optional
        Draws the figure; see :func:`drawn_texts`.
    saved_tight : bool
        The figure is saved with ``bbox_inches="tight"``; see :func:`texts_outside`.
    """
    texts = drawn_texts(figure, draw)
    problems = [f"text {a} overlaps text {b}" for a, b in overlapping_texts(texts)]
    problems += [f"text {text} {why}" for text, why in texts_outside(figure, texts, saved_tight=saved_tight)]
    problems += [f"legend entry {label!r} names nothing drawn" for label in undrawn_legend_entries(figure)]
    problems += [f"legend entries {a!r} and {b!r} look the same" for a, b in ambiguous_legend_entries(figure)]
    return problems

