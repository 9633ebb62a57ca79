"""Panel for the appendix *Measuring your own cluster*: pick a shipped nccl-tests log or paste
your own, and see the fitted regimes and the comparison with the book's catalog prediction.

Everything the panel shows comes from
:func:`interconnect_lab.calibrate.workflow.calibrate_nccl_tests` (parse, fit, calibrate,
compare) and :func:`interconnect_lab.plotting.calibrate.calibration_plot`.
A text the parser rejects is not guessed at: the readout shows the parser's
message, which names the line.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import ipywidgets as widgets

from .. import units as u
from ..calibrate import COLLECTIVES_FOR_TEXT, REFERENCES, SHIPPED_LOGS, Calibration, calibrate_nccl_tests
from ..plotting.calibrate import calibration_plot
from ..plotting.style import styled
from .panel import Panel
from .static import refusal_text

__all__ = ["CalibrationPanel"]

PASTE = "paste"
FROM_SOURCE = "source"

_CONTROL = {"style": {"description_width": "10em"}, "layout": widgets.Layout(width="40em")}


@dataclass(frozen=True)
class _Outcome:
    calibration: Calibration | None
    error: str | None


def log_options():
    """(label, name) of every shipped nccl-tests log, then the paste option."""
    options = [(f"{entry.system.split(',')[0]}: {entry.program} ({entry.name})", name)
               for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]
    return tuple(options) + (("your own: paste nccl-tests output below", PASTE),)


def _reason(error, *, pasted):
    """Why a log was not calibrated, in a reader's words.

    The model's plain sentence when it has one; for a pasted text the parser's messages are
    written for programmers, so the reader learns where the text stopped reading as nccl-tests
    output and what to paste.
    """
    if getattr(error, "plain", None) or not pasted:
        return refusal_text(error)
    line = re.search(r"\bline (\d+)", str(error))
    where = f" at its line {line.group(1)}" if line else ""
    return (f"The pasted text does not read as nccl-tests output{where}: paste what the program printed, from its "
            "first line to the '# Avg bus bandwidth' line, and choose its collective if it does not name one.")


class CalibrationPanel(Panel):
    """Pick a shipped log or paste one; see the fit per regime and the comparison with the catalog.

    Parameters
    ----------
    log : str
        A shipped log's name, or ``"paste"`` to read the text box.
    text : str
        nccl-tests output for ``log="paste"``.
    """

    #: The rendered book's variant: the shipped logs and what to compare them with.
    static_controls = ("log", "reference")
    static_grid = {"log": tuple(name for _, name in log_options() if name != PASTE)}
    static_note = "Pasting your own nccl-tests output also needs the notebook."

    def __init__(self, *, log="v100_dgx2_all_reduce", text=""):
        self.controls = {
            "log": widgets.Dropdown(options=log_options(), value=log, description="nccl-tests log", **_CONTROL),
            "collective": widgets.Dropdown(
                options=(("as the log's source says", FROM_SOURCE),) + tuple((c, c) for c in COLLECTIVES_FOR_TEXT),
                value=FROM_SOURCE, description="collective", **_CONTROL),
            "reference": widgets.Dropdown(
                options=(("the shipped log's catalog system", FROM_SOURCE),) + tuple((k, k) for k in REFERENCES),
                value=FROM_SOURCE, description="compare with", **_CONTROL),
            "text": widgets.Textarea(
                value=text, placeholder="Paste what all_reduce_perf (or another nccl-tests program) printed, "
                "from '# nThread ...' to '# Avg bus bandwidth', then choose 'your own' above.",
                description="your output", continuous_update=False,
                style={"description_width": "10em"}, layout=widgets.Layout(width="40em", height="8em")),
        }
        super().__init__(figure_size_in=(7.5, 5.2),
                         subplots={"nrows": 2, "sharex": True, "gridspec_kw": {"height_ratios": [2.2, 1.0]}})

    def compute(self, log, collective, reference, text):
        collective = None if collective == FROM_SOURCE else collective
        chosen = None if reference == FROM_SOURCE else REFERENCES[reference]
        source = text if log == PASTE else log
        if log == PASTE and not text.strip():
            return _Outcome(None, "Paste nccl-tests output in the box below, or pick a shipped log.")
        if log == PASTE and chosen is None:
            return _Outcome(None, "Choose what to compare your output with ('compare with').")
        try:
            return _Outcome(calibrate_nccl_tests(source, collective=collective, reference=chosen), None)
        except (ValueError, TypeError) as error:
            return _Outcome(None, _reason(error, pasted=log == PASTE))

    def describe(self, outcome):
        if outcome.error:
            return f"<b>Not calibrated.</b> {html.escape(outcome.error)}"
        c = outcome.calibration
        fit, link = c.fit, c.link
        worst = c.comparison.worst_by_regime()
        gaps = "; ".join(f"{regime} {ratio:.2f}× at {u.format_bytes(size)}" for regime, (size, ratio) in worst.items())
        return (f"{c.run.n_ranks} ranks on {c.run.n_nodes} node(s): busbw plateau "
                f"<b>{fit.plateau_bus_bandwidth_bytes_per_s / u.GB_per_s:.0f} GB/s</b>, "
                f"{len(fit.segments)} α-β line(s) within {fit.max_relative_error():.1%} above 1 MiB; "
                f"calibrated α = {link.latency_s / u.us:.2f} µs per step. "
                f"Measured / {c.comparison.prediction_label}, worst per regime: {gaps}.")

    @styled
    def draw(self, outcome):
        top, bottom = self.axes
        if outcome.error:
            top.text(0.02, 0.5, "No figure: see the message above.", transform=top.transAxes)
            top.set_axis_off()
            bottom.set_axis_off()
            return
        top.set_axis_on()
        bottom.set_axis_on()
        calibration_plot(outcome.calibration.comparison, fit=outcome.calibration.fit, axes=self.axes)
