"""The pattern every interactive panel follows.

A panel is a set of controls, a one-line readout and a figure. When a control
moves, ``update()`` calls the panel's model (``compute()``, a
thin call into a tested model function), writes the readout and redraws the
figure. Panels hold no model logic of their own.
"""

from __future__ import annotations

import io

import ipywidgets as widgets
from IPython.display import Image, clear_output, display

from ..plotting.style import new_figure

__all__ = ["Panel"]


class Panel:
    """Controls, a readout and a figure, recomputed whenever a control changes.

    Subclasses set ``controls`` (an ordered ``dict`` of name to ipywidget)
    before calling ``super().__init__()`` and implement ``compute()``,
    ``describe()`` and ``draw()``.

    Parameters
    ----------
    figure_size_in : tuple of float
        Figure width and height [inch].
    subplots : dict, optional
        Passed to :func:`interconnect_lab.plotting.new_figure`.
    """

    controls: dict

    def __init__(self, *, figure_size_in=(7.0, 3.0), subplots=None):
        self.readout = widgets.HTML(layout=widgets.Layout(margin="0.3em 0"))
        self.output = widgets.Output(layout=widgets.Layout(min_height="10em"))
        self.figure, self.axes = new_figure(*figure_size_in, **(subplots or {}))
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
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

    # The machinery -------------------------------------------------------------
    def values(self) -> dict:
        """The controls' current values, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def update(self) -> None:
        """Recompute, rewrite the readout and redraw the figure."""
        self.result = self.compute(**self.values())
        self.readout.value = self.describe(self.result)
        for ax in self.figure.axes:
            ax.clear()
        self.draw(self.result)
        with self.output:
            clear_output(wait=True)
            display(Image(data=self.png(), format="png"))

    def png(self) -> bytes:
        """The figure as PNG bytes (independent of the notebook's matplotlib backend)."""
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png")
        return buffer.getvalue()

    def _on_change(self, change):
        self.update()

    def _ipython_display_(self):
        display(self.widget)
