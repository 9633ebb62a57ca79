"""Panel for the appendix *Measuring your own cluster*: pick a shipped nccl-tests log or paste your
own with the machine it ran on, and see it against the collective model, with the fitted regimes.

Everything the panel shows comes from
:func:`interconnect_lab.calibrate.workflow.calibrate_nccl_tests` (parse, fit, calibrate,
compare with :func:`interconnect_lab.collectives.nccl_collective`) and
:func:`interconnect_lab.plotting.calibrate.calibration_plot`. A text the parser
rejects is not guessed at: the readout shows the parser's message, which
names the line.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import ipywidgets as widgets

from .. import catalog
from .. import units as u
from ..calibrate import COLLECTIVES_FOR_TEXT, SHIPPED_LOGS, Calibration, calibrate_nccl_tests
from ..collectives.system import architecture_of
from ..plotting.calibrate import calibration_plot
from ..plotting.style import styled
from .panel import Panel
from .static import refusal_text

__all__ = ["CalibrationPanel", "calibration_summary"]

PASTE = "paste"
FROM_SOURCE = "source"
FROM_LOG = None

#: How the readout says where the number of ranks comes from.
_RANKS_FROM = {"rank lines": "listed", "last rank line": "from the last rank line", "header": "from the header",
               "caller": "given: the log does not list them", "unknown": "not stated"}

_CONTROL = {"style": {"description_width": "12em"}, "layout": widgets.Layout(width="40em")}


@dataclass(frozen=True)
class _Outcome:
    calibration: Calibration | None
    error: str | None


def log_options():
    """(label, name) of every shipped nccl-tests log, then the paste option."""
    options = [(f"{entry.system.split(',')[0]}: {entry.program} ({entry.name})", name)
               for name, entry in SHIPPED_LOGS.items() if entry.tool == "nccl-tests"]
    return tuple(options) + (("your own: paste nccl-tests output below", PASTE),)


def gpu_options():
    """Catalog GPUs NCCL runs on (those the collective model has tuning for)."""
    names = []
    for name in catalog.GPUS:
        try:
            architecture_of(name)
        except ValueError:
            continue
        names.append(name)
    return tuple(names)


def network_options():
    """Catalog network ports (InfiniBand and Ethernet links)."""
    return tuple(name for name, link in catalog.LINKS.items() if link.family in ("InfiniBand", "Ethernet"))


def calibration_summary(calibration) -> str:
    """One paragraph: the run, the model at the largest size, the worst error per band and the fit [HTML].

    Parameters
    ----------
    calibration : Calibration
        From :func:`~interconnect_lab.calibrate.workflow.calibrate_nccl_tests` (with a machine, not
        the deprecated ``reference=``).

    Returns
    -------
    str
        HTML for the panel's readout.
    """
    run, fit, c = calibration.run, calibration.fit, calibration.comparison
    system = calibration.system
    size = float(c.size_bytes[-1])
    largest = (f"at {u.format_bytes(size, binary=True)}: measured "
               f"<b>{c.measured_bus_bandwidth_bytes_per_s[-1] / u.GB_per_s:.0f} GB/s</b> busbw, model "
               f"<b>{c.predicted_bus_bandwidth_bytes_per_s[-1] / u.GB_per_s:.0f} GB/s</b> "
               f"({c.algorithm[-1]}, {c.protocol[-1]}; error {c.error[-1]:+.0%})")
    bands = "; ".join(f"{band} {error:+.0%} at {u.format_bytes(s, binary=True)}"
                      for band, (s, error) in c.worst_by_band().items())
    if fit.latency_s is None:
        fitted = (f"The sweep has plateau sizes only: it determines the bandwidth "
                  f"({fit.plateau_bus_bandwidth_bytes_per_s / u.GB_per_s:.0f} GB/s busbw), no latency")
    else:
        fitted = (f"Fit: {len(fit.segments)} α-β line(s) within {fit.max_relative_error():.1%} above 1 MiB, "
                  f"latency {fit.latency_s / u.us:.0f} µs")
    ranks = "ranks not stated" if run.n_ranks is None else f"{run.n_ranks} ranks ({_RANKS_FROM[run.rank_count_source]})"
    return (f"{run.program}, {ranks}, on {system.nodes} × {system.gpus_per_node} GPUs; {largest}. "
            f"Largest error per band: {bands or 'none'}. {fitted}.")


def _reason(error, *, pasted):
    """Why a log was not calibrated, in a reader's words.

    The model's plain sentence when it has one; for a pasted text the parser's messages are
    written for programmers, so the reader learns where the text stopped reading as nccl-tests
    output and what to paste.
    """
    if getattr(error, "plain", None) or not pasted:
        return refusal_text(error)
    if "n_ranks" in str(error):
        return ("The pasted log does not say how many GPUs ran it: choose your nodes and your GPUs per node "
                "above.")
    line = re.search(r"\bline (\d+)", str(error))
    where = f" at its line {line.group(1)}" if line else ""
    return (f"The pasted text does not read as nccl-tests output{where}: paste what the program printed, from its "
            "first line to the '# Avg bus bandwidth' line, and choose its collective if it does not name one.")


class CalibrationPanel(Panel):
    """Pick a shipped log or paste one; see it against the collective model and the fit per regime.

    Parameters
    ----------
    log : str
        A shipped log's name, or ``"paste"`` to read the text box.
    text : str
        nccl-tests output for ``log="paste"``.
    """

    #: The rendered book's variant: the shipped logs, each on the machine it was measured on.
    static_controls = ("log",)
    static_grid = {"log": tuple(name for _, name in log_options() if name != PASTE)}
    static_note = "Pasting your own nccl-tests output also needs the notebook."

    def __init__(self, *, log="v100_dgx2_all_reduce", text=""):
        self.controls = {
            "log": widgets.Dropdown(options=log_options(), value=log, description="nccl-tests log", **_CONTROL),
            "collective": widgets.Dropdown(
                options=(("as the log says", FROM_SOURCE),) + tuple((c, c) for c in COLLECTIVES_FOR_TEXT),
                value=FROM_SOURCE, description="collective", **_CONTROL),
            "gpu": widgets.Dropdown(options=gpu_options(), value="H100 SXM", description="your GPU", **_CONTROL),
            "network": widgets.Dropdown(options=network_options(), value="InfiniBand NDR",
                                        description="your network port", **_CONTROL),
            "nodes": widgets.Dropdown(options=(("as the log lists them", FROM_LOG),) + tuple(
                (str(n), n) for n in (1, 2, 4, 8, 16, 32, 64, 128, 256)), value=FROM_LOG,
                description="your nodes (NVLink domains)", **_CONTROL),
            "gpus_per_node": widgets.Dropdown(options=(("as the log lists them", FROM_LOG),) + tuple(
                (str(n), n) for n in (1, 2, 4, 8, 16, 36, 72)), value=FROM_LOG,
                description="your GPUs per node", **_CONTROL),
            "text": widgets.Textarea(
                value=text, placeholder="Paste what all_reduce_perf (or another nccl-tests program) printed, "
                "from '# nThread ...' to '# Avg bus bandwidth', then choose 'your own' above and your machine.",
                description="your output", continuous_update=False,
                style={"description_width": "12em"}, layout=widgets.Layout(width="40em", height="8em")),
        }
        super().__init__(figure_size_in=(7.5, 5.2),
                         subplots={"nrows": 2, "sharex": True, "gridspec_kw": {"height_ratios": [2.2, 1.0]}})

    def compute(self, log, collective, gpu, network, nodes, gpus_per_node, text):
        collective = None if collective == FROM_SOURCE else collective
        if log == PASTE and not text.strip():
            return _Outcome(None, "Paste nccl-tests output in the box below, or pick a shipped log.")
        try:
            if log != PASTE:
                return _Outcome(calibrate_nccl_tests(log, collective=collective), None)
            n_ranks = nodes * gpus_per_node if nodes is not None and gpus_per_node is not None else None
            return _Outcome(calibrate_nccl_tests(text, collective=collective, n_ranks=n_ranks, gpu=gpu, network=network,
                                                 nodes=nodes, gpus_per_node=gpus_per_node), None)
        except (ValueError, TypeError) as error:
            return _Outcome(None, _reason(error, pasted=log == PASTE))

    def describe(self, outcome):
        if outcome.error:
            return f"<b>Not calibrated.</b> {html.escape(outcome.error)}"
        return calibration_summary(outcome.calibration)

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
