"""Replaying published runs: the fidelity table of chapter 8.

:func:`replay` turns a :class:`~interconnect_lab.published.PublishedRun`
(the inputs its source states) into the model's :class:`TrainingStep`;
:func:`fidelity_table` does it for every run and reports published, predicted
and error, with the library's one set of defaults; :func:`fidelity_summary` sums a table up
and :func:`fidelity_by_family` does it for the development and validation families
(``published.training_runs.family``) separately.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..published.training_runs import FAMILIES, TRAINING_RUNS, PublishedRun, family
from .config import parallel_config
from .hardware import Cluster
from .presets import DEFAULT_EFFICIENCIES
from .models import TransformerModel
from .step import TrainingStep, training_step

__all__ = ["FidelityRow", "replay", "fidelity_table", "fidelity_summary", "fidelity_by_family"]


@dataclass(frozen=True)
class FidelityRow:
    """One published run against the model's prediction.

    Attributes
    ----------
    run : interconnect_lab.published.PublishedRun
        The run, its inputs and its source.
    step : TrainingStep
        What the model predicts for it.
    published : float
        The published figure (``run.value``).
    predicted : float
        The model's figure in the same metric.
    """

    run: object
    step: TrainingStep
    published: float
    predicted: float

    @property
    def error(self) -> float:
        """Relative error of the prediction, predicted / published - 1 [-]."""
        return self.predicted / self.published - 1.0

    @property
    def family(self) -> str:
        """``"development"`` or ``"validation"``: the run's family (``published.training_runs.family``)."""
        return family(self.run)


def replay(run, software=None, *, efficiencies=None) -> TrainingStep:
    """The model's :class:`TrainingStep` for a published run, from the inputs its source states.

    ``software`` (a name in ``training.SOFTWARE`` or a :class:`Software`) replays it
    with another stack instead of the one the run names: what the run would have
    done, by the model, had one thing in its stack been different. ``efficiencies``
    (an :class:`Efficiencies`; the library's defaults if None) does the same for the
    model's rates.

    Parameters
    ----------
    run : PublishedRun
        A published run (:data:`interconnect_lab.published.TRAINING_RUNS`).
    software : Software or str, optional
        Another training stack to replay the run with; the run's own by default.
    efficiencies : Efficiencies, optional
        The model's rates; the library's defaults if None.
    """
    model = TransformerModel.llama(
        layers=run.layers, hidden_size=run.hidden_size, heads=run.heads, kv_heads=run.kv_heads,
        ffn_hidden_size=run.ffn_hidden_size, vocabulary_size=run.vocabulary_size,
        sequence_length=run.sequence_length, name=run.label) if run.gated_mlp else dataclasses.replace(
        TransformerModel.gpt(layers=run.layers, hidden_size=run.hidden_size, heads=run.heads,
                             vocabulary_size=run.vocabulary_size, sequence_length=run.sequence_length,
                             name=run.label),
        kv_heads=run.kv_heads, ffn_hidden_size=run.ffn_hidden_size)
    if run.dropout is not None:
        model = dataclasses.replace(model, dropout=run.dropout)
    hardware = Cluster(name=run.label, gpu=run.gpu, gpus_per_node=run.gpus_per_node,
                       scale_up_link=run.scale_up_link, scale_out_link=run.scale_out_link,
                       nics_per_node=run.nics_per_node, pod_gpus=run.pod_gpus,
                       oversubscription=run.oversubscription, sources=(run.source,))
    config = parallel_config(run.gpus, global_batch_size=run.global_batch_size,
                             tensor_parallel=run.tensor_parallel, pipeline_parallel=run.pipeline_parallel,
                             context_parallel=run.context_parallel, interleave=run.interleave,
                             microbatch_size=run.microbatch_size, recompute=run.recompute,
                             sequence_parallel=run.sequence_parallel, zero_stage=run.zero_stage,
                             shard_group_size=run.shard_group_size, uneven_pipeline=run.uneven_pipeline)
    return training_step(model, hardware, config, run.software if software is None else software,
                         efficiencies=DEFAULT_EFFICIENCIES if efficiencies is None else efficiencies)


_METRIC_OF_STEP = {
    "mfu": lambda step: step.mfu,
    "model_flop_per_s_per_gpu": lambda step: step.model_flop_per_s_per_gpu,
    "hardware_flop_per_s_per_gpu": lambda step: step.hardware_flop_per_s_per_gpu,
    "tokens_per_s": lambda step: step.tokens_per_s,
}


def fidelity_table(runs=None, *, efficiencies=None) -> tuple[FidelityRow, ...]:
    """Every published run replayed with the library's defaults (or ``efficiencies``): published, predicted, error.

    Parameters
    ----------
    runs : sequence of PublishedRun, optional
        The runs to replay; every run of :data:`interconnect_lab.published.TRAINING_RUNS` by default.
    efficiencies : Efficiencies, optional
        The model's rates; the library's defaults if None.
    """
    runs = TRAINING_RUNS if runs is None else runs
    rows = []
    for run in runs:
        step = replay(run, efficiencies=efficiencies)
        rows.append(FidelityRow(run=run, step=step, published=run.value,
                                predicted=float(_METRIC_OF_STEP[run.metric](step))))
    return tuple(rows)


def fidelity_summary(rows=None) -> dict:
    """Median and largest absolute error of a fidelity table, and how many runs, GPUs and organisations it covers.

    Parameters
    ----------
    rows : sequence of FidelityRow, optional
        A fidelity table, at least one row; :func:`fidelity_table` of every published run by default.

    Returns
    -------
    dict
        ``runs`` (how many rows), ``median_abs_error`` and ``max_abs_error`` (of ``|row.error|`` [-]),
        ``organisations`` and ``gpus`` (sorted names).

    Examples
    --------
    >>> summary = fidelity_summary()
    >>> summary["median_abs_error"] <= summary["max_abs_error"]
    True
    """
    rows = fidelity_table() if rows is None else tuple(rows)
    if not rows:
        raise ValueError("rows must hold at least one FidelityRow (a fidelity table to sum up); got none")
    errors = np.abs([row.error for row in rows])
    return {"runs": len(rows), "median_abs_error": float(np.median(errors)),
            "max_abs_error": float(errors.max()),
            "organisations": sorted({row.run.organisation for row in rows}),
            "gpus": sorted({row.run.gpu for row in rows})}


def fidelity_by_family(rows=None) -> dict:
    """:func:`fidelity_summary` of each family of a fidelity table: development and validation apart.

    The families are those of ``published.training_runs.family``: the runs of
    the stacks the model's defaults were built on, and every other stack. A family with no row in
    ``rows`` is left out.

    Parameters
    ----------
    rows : sequence of FidelityRow, optional
        A fidelity table, at least one row; :func:`fidelity_table` of every published run by default.

    Returns
    -------
    dict
        Family name (in the order of ``FAMILIES``) -> its :func:`fidelity_summary`.

    Examples
    --------
    >>> by_family = fidelity_by_family()
    >>> sum(summary["runs"] for summary in by_family.values()) == len(fidelity_table())
    True
    """
    rows = fidelity_table() if rows is None else tuple(rows)
    if not rows:
        raise ValueError("rows must hold at least one FidelityRow (a fidelity table to sum up); got none")
    return {name: fidelity_summary(members) for name in FAMILIES
            if (members := [row for row in rows if row.family == name])}
