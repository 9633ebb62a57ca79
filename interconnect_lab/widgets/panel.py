"""The pattern every interactive panel follows.

A panel is a set of controls, a one-line readout and a figure. When a control
moves, ``update()`` calls the panel's model (``compute()``, a
thin call into a tested model function), writes the readout and redraws the
figure. Panels hold no model logic of their own.

Speed: a slider must feel instant, so a full update (model, readout, figure,
PNG) should take well under 50 ms (``benchmarks/`` measures every panel).
Redrawing a matplotlib figure from scratch costs more than that on a small
machine; most of it goes to tick labels, legends and layout, which rarely
change. So a panel may also implement :meth:`Panel.redraw`, which updates in
place the few artists that :meth:`Panel.draw` made and that depend on the
result (bar widths, a line's data, a title) and returns them. The panel then
renders the unchanging rest once, keeps it as a background and, on each
update, draws only those artists on top of it ("blitting"). Panels without
``redraw`` are cleared and drawn again each time, with the layout computed
once and reused while the axes' limits, ticks and labels stay the same.

In the rendered book (static HTML, no kernel), a panel answers its controls
from values computed when the book was built: while ``jupyter-book build``
runs, displaying a panel evaluates ``compute``, ``describe`` and the figure
over a grid of control values and shows an HTML panel that holds them (see
``interconnect_lab.widgets.static``). A new panel gets this without any
code, as long as its controls are dropdowns, selection sliders, checkboxes
or numeric sliders and their combinations stay within
``static.MAX_COMBINATIONS`` (numeric sliders are thinned to
``static.MAX_SLIDER_POSITIONS`` positions). Otherwise declare its *static
variant*, in a line or two:

- ``static_controls = ("pattern", "failed_links")``: the few controls that
  carry the chapter's lesson; the page offers only these, and names the
  others, at their initial values, in plain words under the panel;
- ``static_grid = {"size_bytes": (2**20, 2**30), ...}``: the values the page
  offers for some of them (a subset of a selection's options, or a numeric
  slider's positions; the initial value is always kept);
- ``static_note = "..."``: a plain sentence the page adds under the panel
  (what only the notebook can do, such as pasting your own measurements).

The page never shows a still: a panel too large for the page stops the
book's build with a message saying what to declare.

``tests/widgets/test_static.py`` checks every panel's export and
``tests/browser/test_static_panels.py`` moves every control in the built book.
"""

from __future__ import annotations

import base64
import html
import io

import ipywidgets as widgets
import numpy as np
from IPython.display import display
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from ..plotting.style import new_figure
from . import static
from .static import error_html

__all__ = ["Panel"]

#: CSS class of a control whose panel updates when it is released
#: (``continuous_update=False``: slow, simulator-backed models).
ON_RELEASE_CLASS = "il-updates-on-release"

# zlib level 1: a panel's figure (flat colours) compresses to within a few per
# cent of the default level's size in a fraction of the time.
_PNG_COMPRESS_LEVEL = 1


class Panel:
    """Controls, a readout and a figure, recomputed whenever a control changes.

    Subclasses set ``controls`` (an ordered ``dict`` of name to ipywidget)
    before calling ``super().__init__()`` and implement ``compute()``,
    ``describe()`` and ``draw()``; for speed, also ``redraw()``.

    Parameters
    ----------
    figure_size_in : tuple of float
        Figure width and height [inch].
    subplots : dict, optional
        Passed to :func:`interconnect_lab.plotting.style.new_figure`.
    """

    controls: dict
    #: The controls the rendered book offers (None: all); the others keep their initial values there.
    static_controls: tuple | None = None
    #: Values the rendered book offers for some controls (name to values); see the module docstring.
    static_grid: dict | None = None
    #: A plain sentence the rendered book shows under the panel (None: none).
    static_note: str | None = None

    def __init__(self, *, figure_size_in=(7.0, 3.0), subplots=None):
        self.readout = widgets.HTML(layout=widgets.Layout(margin="0.3em 0"))
        self.output = widgets.Output(layout=widgets.Layout(min_height="10em"))
        self.figure, self.axes = new_figure(*figure_size_in, **(subplots or {}))
        self._canvas = FigureCanvasAgg(self.figure)
        self._layout_engine = self.figure.get_layout_engine()
        self._layout_signature = None
        self._drawn = False       # draw() has run on the current axes
        self._animated = {}       # artists redraw() updates, drawn over the background
        self._background = None   # (key, saved region) of everything else
        self._png = None          # PNG of the figure as last rendered
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
            if getattr(control, "continuous_update", True) is False:
                control.add_class(ON_RELEASE_CLASS)  # lets the browser tests and benchmarks tell
        self.widget = widgets.VBox(
            [widgets.VBox(list(self.controls.values())), self.readout, self.output],
            layout=widgets.Layout(width="100%"),
        )
        self.result = None
        self.update()

    # What subclasses provide -------------------------------------------------
    def compute(self, **values):
        """Call the model with the controls' values; return its result."""
        raise NotImplementedError

    def describe(self, result) -> str:
        """HTML for the readout line."""
        raise NotImplementedError

    def draw(self, result) -> None:
        """Draw ``result`` on ``axes`` (already cleared)."""
        raise NotImplementedError

    def redraw(self, result):
        """Optional fast path: update in place what ``draw`` made; return the artists changed.

        Called after every ``draw`` (with the same result) and, instead of
        clearing the axes and calling ``draw``, on every later update. Change
        only artists' data and text (``Rectangle.set_width``,
        ``Line2D.set_ydata``, ``Text.set_text``...) and return every artist
        that may change, as a list; everything else in the figure (axes
        limits, ticks, labels, legend) must stay as ``draw`` left it. Return
        ``None`` (the default) to have the figure cleared and drawn again.
        Returned artists are drawn on top of the rest, in their ``zorder``.
        """
        return None

    # The machinery -------------------------------------------------------------
    def values(self) -> dict:
        """The controls' current values, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def update(self) -> None:
        """Recompute, rewrite the readout and redraw the figure.

        A combination of controls the model refuses (a ``ValueError`` or
        ``TypeError``, whose message names the parameter and its valid range)
        is shown in the readout instead of a traceback; the figure keeps the
        last result the model accepted.
        """
        try:
            result = self.compute(**self.values())
        except (ValueError, TypeError) as error:
            self.readout.value = error_html(error)
            return
        self.result = result
        self.readout.value = self.describe(self.result)
        self._redraw_figure(self.result)
        self._show(self.png())

    def png(self) -> bytes:
        """The figure as PNG bytes (independent of the notebook's matplotlib backend)."""
        if self._png is None or self.figure.stale:
            self._render()
            self._png = _encode_png(np.asarray(self._canvas.buffer_rgba()))
            self.figure.stale = False
        return self._png

    def _redraw_figure(self, result) -> None:
        artists = self.redraw(result) if self._drawn else None
        if artists is None:
            for ax in self.figure.axes:
                ax.clear()
            self.draw(result)
            self._drawn = True
            self._animated = {}
            self._background = None
            # Ask at once which artists move, so that this render already
            # leaves them out of the background and the next update is fast.
            artists = self.redraw(result) or []
        for artist in artists:
            if not artist.get_animated():
                artist.set_animated(True)
                self._background = None  # it was part of the background
            self._animated[id(artist)] = artist
        self._png = None

    def _render(self) -> None:
        if not self._animated:
            self._render_full()
            return
        key = self._background_key()
        if self._background is None or self._background[0] != key:
            self._render_full()  # everything but the animated artists
            self._background = (key, self._canvas.copy_from_bbox(self.figure.bbox))
        else:
            self._canvas.restore_region(self._background[1])
        renderer = self._canvas.get_renderer()
        for artist in sorted(self._animated.values(), key=lambda a: a.get_zorder()):
            artist.draw(renderer)

    def _render_full(self) -> None:
        # Constrained layout costs a third of a draw; it only moves the axes
        # when what surrounds them changes, so it runs only then.
        if self._layout_engine is not None:
            signature = self._layout_key()
            if signature != self._layout_signature:
                self.figure.set_layout_engine(self._layout_engine)
                self._canvas.draw()
                self._layout_signature = signature
                self.figure.set_layout_engine("none")
                return
        self._canvas.draw()

    def _layout_key(self):
        # What moves the axes under constrained layout: sizes, labels and the
        # tick labels, which follow from the limits, scales and tick settings.
        # (Asking matplotlib for the tick labels themselves costs as much as
        # the layout on log axes.)
        key = [tuple(self.figure.get_size_inches()), self.figure.dpi,
               self.figure._suptitle.get_text() if self.figure._suptitle else None,
               tuple(len(legend.texts) for legend in self.figure.legends)]
        for ax in self.figure.axes:
            key.append((ax.get_visible(), ax.get_xlim(), ax.get_ylim(), _axis_key(ax.xaxis), _axis_key(ax.yaxis),
                        tuple(ax.get_title(loc).count("\n") + bool(ax.get_title(loc))
                              for loc in ("left", "center", "right")),
                        # a legend's size: more entries take more rows, which the layout makes room for
                        None if ax.get_legend() is None else len(ax.get_legend().texts)))
        return key

    def _background_key(self):
        return [tuple(self.figure.get_size_inches()), self.figure.dpi] + [
            (ax.get_position().bounds, ax.get_xlim(), ax.get_ylim()) for ax in self.figure.axes]

    def _show(self, png: bytes) -> None:
        # Replacing the Output widget's outputs is one message to the browser
        # and never flickers (clear_output and display are two).
        self.output.outputs = ({
            "output_type": "display_data",
            "data": {"image/png": base64.b64encode(png).decode("ascii"),
                     "text/plain": f"<{type(self).__name__} figure>"},
            "metadata": {},
        },)

    def _on_change(self, change):
        self.update()

    def static_export(self) -> dict:
        """Readout and figure for every combination of control values (for the rendered book).

        See ``interconnect_lab.widgets.static.export``; raises
        ``static.NotStatic`` (saying what to declare) when the page cannot hold them.
        """
        return static.export(self)

    def _ipython_display_(self):
        if static.build_mode():  # the book is being built: the page gets the precomputed panel
            display({"text/html": static.static_html(self), "text/plain": f"<{type(self).__name__}>"}, raw=True)
            return
        display(self.widget)


def _axis_key(axis):
    """What sets an axis's tick labels, besides its limits."""
    formatter, locator = axis.get_major_formatter(), axis.get_major_locator()
    return (axis.get_scale(), axis.label.get_text(), axis.get_visible(), type(formatter).__name__,
            tuple(getattr(formatter, "seq", None) or ()), type(locator).__name__,
            tuple(np.atleast_1d(getattr(locator, "locs", ())).tolist()),
            tuple(getattr(getattr(axis, "units", None), "_mapping", None) or ()))


def _encode_png(rgba: np.ndarray) -> bytes:
    """PNG bytes of an RGBA image; RGB when it is opaque (smaller, as fast)."""
    if bool((rgba[..., 3] == 255).all()):
        image = Image.fromarray(np.ascontiguousarray(rgba[..., :3]))
    else:
        image = Image.fromarray(np.ascontiguousarray(rgba))
    buffer = io.BytesIO()
    image.save(buffer, format="png", compress_level=_PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
