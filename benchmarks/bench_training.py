"""Benchmark interconnect_lab.training: speed, and error against the published tables.

Runs the chapter-8 step-time model on every row of SC21 Table 1 and MegaScale
Table 2, times one step evaluation and a sweep over every valid split of 1,024
GPUs, and — when it is installed (``pip install -r benchmarks/requirements.txt``)
— runs the peer model ``mlsysim`` (``DistributedModel``) on the same
configurations, so speed and error sit side by side.

Both models are given the same sustained compute efficiency
(``training.DEFAULT_EFFICIENCIES.gemm``) and the same FLOP counts (SC21 Eq. 3 for
Table 1's TFLOP/s, MegaScale's model FLOPs for Table 2's MFU): the comparison is
of step times. mlsysim has no switches for the parallel transformer block,
TP/PP overlap, sequence parallelism or selective recomputation; MegaScale rows
run in mlsysim with ``overlap_comm=True`` (DP overlap) and full recomputation off.

Usage::

    python benchmarks/bench_training.py [--json results.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import benchlib  # noqa: E402
from interconnect_lab import catalog  # noqa: E402
from interconnect_lab import training as tr  # noqa: E402
from interconnect_lab.published import (  # noqa: E402
    MEGASCALE_TABLE2, SC21_TABLE1, SC21_TABLE1_SEQUENCE_LENGTH, SC21_TABLE1_VOCABULARY,
)


def _timed(function, repeat):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def sc21_cases():
    for run in SC21_TABLE1:
        model = tr.TransformerModel.gpt(layers=run.layers, hidden_size=run.hidden_size, heads=run.heads,
                                        vocabulary_size=SC21_TABLE1_VOCABULARY,
                                        sequence_length=SC21_TABLE1_SEQUENCE_LENGTH,
                                        name=f"{run.parameters / 1e9:g}B")
        config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size,
                                    tensor_parallel=run.tensor_parallel,
                                    pipeline_parallel=run.pipeline_parallel,
                                    microbatch_size=run.microbatch_size, interleave=run.interleave or 1,
                                    recompute="full")
        yield run, model, "Selene", config, run.software


def megascale_cases():
    model = tr.transformer_model("MegaScale 175B")
    for run in MEGASCALE_TABLE2:
        megatron = run.system == "Megatron-LM"
        config = tr.parallel_config(run.gpus, global_batch_size=run.batch_size, tensor_parallel=8,
                                    pipeline_parallel=8, interleave=6,
                                    microbatch_size=tr.MEGASCALE_MICROBATCH_SIZE, recompute="selective",
                                    sequence_parallel=True, zero_stage=0 if megatron else 2)
        yield run, model, "MegaScale", config, "Megatron-LM 2023" if megatron else "MegaScale"


def mlsysim_solver():
    """A function (model, config, megascale) -> step seconds using mlsysim, or None if not installed."""
    try:
        from mlsysim.core.units import Q_
        from mlsysim.engine.solvers.distributed import DistributedModel
        from mlsysim.models.types import TransformerWorkload
        from mlsysim.systems.registry import Fabrics, Nodes
        from mlsysim.systems.types import Fleet
    except ImportError:
        return None
    solver = DistributedModel()

    def solve(model, config, megascale):
        workload = TransformerWorkload(
            name=model.name, architecture="Transformer", parameters=Q_(tr.parameter_count(model), "count"),
            layers=model.layers, hidden_dim=model.hidden_size, heads=model.heads,
            vocab_size=model.vocabulary_size, context_length=model.sequence_length)
        fleet = Fleet(name="cluster", node=Nodes.DGX_A100, count=config.gpus // 8,
                      fabric=Fabrics.InfiniBand_HDR)     # mlsysim has no 200G Ethernet/RoCE A100 fleet
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = solver.solve(
                workload, fleet, batch_size=config.global_batch_size, precision="fp16",
                # The same share of the A100's peak that our model's GEMMs run at.
                efficiency=tr.DEFAULT_EFFICIENCIES.gemm * tr.matmul_fraction_of_peak(catalog.gpu("A100 SXM")),
                tp_size=config.tensor_parallel,
                pp_size=config.pipeline_parallel, v_stages=config.interleave,
                microbatch_count=config.microbatches,
                activation_recomputation=config.recompute == "full",
                overlap_comm=megascale, seq_len=model.sequence_length)
        return result.step_latency_total.to("s").magnitude

    return solve


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=Path(__file__).with_name("bench_training.json"))
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    peer = mlsysim_solver()
    rows = []

    for run, model, cluster, config, stack in sc21_cases():
        step, seconds = _timed(lambda: tr.training_step(model, cluster, config, stack), args.repeat)
        hardware_flops = tr.training_flops(model, config.global_batch_size, recompute="full")
        ours = step.hardware_flop_per_s_per_gpu
        row = {"table": "SC21 Table 1", "case": model.name, "metric": "TFLOP/s per GPU",
               "published": run.flop_per_s_per_gpu / 1e12, "ours": ours / 1e12,
               "ours_error": ours / run.flop_per_s_per_gpu - 1, "ours_ms": seconds * 1e3}
        if peer:
            peer_step, peer_seconds = _timed(lambda: peer(model, config, False), max(3, args.repeat // 5))
            value = hardware_flops / (peer_step * config.gpus)
            row.update(mlsysim=value / 1e12, mlsysim_error=value / run.flop_per_s_per_gpu - 1,
                       mlsysim_ms=peer_seconds * 1e3)
        rows.append(row)

    steps = {}
    for run, model, cluster, config, stack in megascale_cases():
        step, seconds = _timed(lambda: tr.training_step(model, cluster, config, stack), args.repeat)
        steps[(run.system, run.gpus, run.batch_size)] = step
        row = {"table": "MegaScale Table 2", "case": f"{run.system} {run.gpus} GPUs, batch {run.batch_size}",
               "metric": "MFU", "published": run.mfu, "ours": step.mfu, "ours_error": step.mfu / run.mfu - 1,
               "ours_ms": seconds * 1e3}
        if peer:
            peer_step, peer_seconds = _timed(lambda: peer(model, config, run.system == "MegaScale"),
                                             max(3, args.repeat // 5))
            value = step.model_flops / (peer_step * config.gpus * step.peak_flop_per_s)
            row.update(mlsysim=value, mlsysim_error=value / run.mfu - 1, mlsysim_ms=peer_seconds * 1e3)
        rows.append(row)
    ours_speedup = (steps[("MegaScale", 12288, 6144)].tokens_per_s
                    / steps[("Megatron-LM", 12288, 6144)].tokens_per_s)

    sweep, sweep_s = _timed(lambda: tr.parallel_sweep("GPT-3 175B", "Selene", 1024, 1536, recompute="full"),
                            max(3, args.repeat // 4))
    best = sweep.row(sweep.best())

    def summary(key):
        errors = [abs(r[key]) for r in rows if key in r]
        return {"max_abs_error": max(errors), "mean_abs_error": statistics.mean(errors)} if errors else None

    by_table = {}
    for table in ("SC21 Table 1", "MegaScale Table 2"):
        subset = [r for r in rows if r["table"] == table]
        by_table[table] = {
            "ours_max_abs_error": max(abs(r["ours_error"]) for r in subset),
            "ours_median_ms": statistics.median(r["ours_ms"] for r in subset),
        }
        if peer:
            by_table[table].update(
                mlsysim_max_abs_error=max(abs(r["mlsysim_error"]) for r in subset),
                mlsysim_median_ms=statistics.median(r["mlsysim_ms"] for r in subset))

    print(f"{'table':18s} {'case':38s} {'published':>9s} {'ours':>8s} {'err':>7s} {'ms':>6s}"
          + (f" {'mlsysim':>8s} {'err':>7s} {'ms':>6s}" if peer else ""))
    for r in rows:
        scale = 100 if r["metric"] == "MFU" else 1
        line = (f"{r['table']:18s} {r['case']:38s} {r['published'] * scale:9.1f} {r['ours'] * scale:8.1f} "
                f"{r['ours_error']:+7.1%} {r['ours_ms']:6.2f}")
        if peer:
            line += f" {r['mlsysim'] * scale:8.1f} {r['mlsysim_error']:+7.1%} {r['mlsysim_ms']:6.2f}"
        print(line)
    print()
    for table, figures in by_table.items():
        print(table, {k: round(v, 4) for k, v in figures.items()})
    print(f"MegaScale speed-up at 12,288 GPUs: ours {ours_speedup:.2f} (published 1.34)")
    print(f"sweep of 1,024 GPUs (GPT-3 175B, batch 1536): {len(sweep)} configurations in {sweep_s * 1e3:.1f} ms; "
          f"best TP {best['tensor_parallel']} PP {best['pipeline_parallel']} DP {best['data_parallel']} "
          f"b {best['microbatch_size']}: MFU {best['mfu']:.1%}")
    result = {"rows": rows, "summary": by_table, "ours_speedup_12288": ours_speedup,
              "sweep": {"gpus": 1024, "configurations": len(sweep), "seconds": sweep_s, "best": best},
              "overall": {"ours": summary("ours_error"), "mlsysim": summary("mlsysim_error")},
              "mlsysim": peer is not None}
    args.json.write_text(json.dumps(result, indent=2))
    print(f"wrote {args.json}")
    step_ms = [r["ours_ms"] / 1e3 for r in rows]
    benchlib.record("training", "one step evaluation (SC21 Table 1 and MegaScale Table 2 cases)",
                    samples_s=step_ms, budget_ms=1)
    benchlib.record("training", f"sweep of every split of 1,024 GPUs ({len(sweep)} configurations)",
                    seconds=sweep_s, budget_s=1)
    for table, figures in by_table.items():
        benchlib.record("training", f"{table}: largest error, ours", value=100 * figures["ours_max_abs_error"],
                        unit="%", budget=10)
        if peer:
            benchlib.record("training", f"{table}: largest error, mlsysim (peer model)",
                            value=100 * figures["mlsysim_max_abs_error"], unit="%",
                            note=f"median {figures['mlsysim_median_ms']:.2f} ms per evaluation")
    benchlib.record("training", "MegaScale speed-up at 12,288 GPUs (published 1.34)", value=ours_speedup,
                    unit="x")
    started = time.perf_counter()
    fidelity = tr.fidelity_summary()
    fidelity_s = time.perf_counter() - started
    note = (f"{fidelity['runs']} runs beyond SC21 and MegaScale, {len(fidelity['organisations'])} organisations, "
            f"{', '.join(fidelity['gpus'])}; replayed in {fidelity_s:.2f} s")
    benchlib.record("training", "fidelity table: median |error|", value=100 * fidelity["median_abs_error"],
                    unit="%", budget=7, note=note)
    benchlib.record("training", "fidelity table: largest |error|", value=100 * fidelity["max_abs_error"],
                    unit="%", budget=15, note=note)


if __name__ == "__main__":
    main()
