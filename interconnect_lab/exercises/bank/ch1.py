"""Chapter 1, the GPU paradox: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, training
from ... import units as u
from ... import utilization
from ._common import choice, numeric


def _h100_peak():
    return catalog.gpu("H100 SXM").bf16_flop_per_s


def _ch1_step():
    compute = utilization.compute_time(500 * u.TFLOP, _h100_peak(), compute_efficiency=0.70)
    return utilization.step_time(compute, 0.3, overlap_fraction=0.4)


def _ch1_mfu_after_upgrade_falls():
    before = utilization.step_time(1.0, 0.5, 0.5).step_s * 1.0          # peak P
    after = utilization.step_time(0.5, 0.5, 0.5).step_s * 2.0           # peak 2P, same network
    return after > before                                               # MFU ∝ 1 / (step × peak)


ENTRIES = [
    numeric("ch1.ex1", "Step time with partial overlap",
            "One H100 SXM runs a training step that needs 500 TFLOP of model FLOPs; its kernels reach 70 % "
            "of the catalog's dense BF16 peak. The step's communication takes 0.3 s on its own, and 40 % of "
            "it overlaps with compute. How long is the step?",
            lambda: _ch1_step().step_s, unit="s",
            hint="Exposed communication is the part not hidden behind compute; "
                 "`utilization.compute_time` and `utilization.step_time`."),
    numeric("ch1.ex2", "MFU of that step",
            "For the step of ch1.ex1, what is the model FLOPs utilization, against the H100 SXM's dense "
            "BF16 peak from the catalog?",
            lambda: utilization.model_flops_utilization(500 * u.TFLOP, _ch1_step().step_s, _h100_peak()),
            unit="%", scale=0.01,
            hint="MFU = model FLOPs / (step time × peak); the step time includes exposed communication."),
    numeric("ch1.ex3", "The same step on a B200",
            "The same 500 TFLOP of model FLOPs run on one B200 at 70 % of its dense BF16 peak (catalog). "
            "How long does the compute take, in milliseconds?",
            lambda: utilization.compute_time(500 * u.TFLOP, catalog.gpu("B200").bf16_flop_per_s, 0.70),
            unit="ms", scale=u.ms,
            hint="Compute time = FLOPs / (peak × efficiency); mind TFLOP against PFLOP/s."),
    numeric("ch1.ex4", "HFU from MFU",
            "A Llama 3 70B run with full activation recomputation reports 40 % MFU. What is its HFU, taking "
            "the library's exact ratio of executed to model FLOPs per token for that model?",
            lambda: 0.40 * training.flops_per_token(training.transformer_model("Llama 3 70B"), recompute="full")
            / training.flops_per_token(training.transformer_model("Llama 3 70B")),
            unit="%", scale=0.01,
            hint="Recomputation adds a second forward pass to the executed FLOPs, not to the model FLOPs; "
                 "`training.flops_per_token(model, recompute=...)`."),
    choice("ch1.q1", "What MFU counts",
           "Model FLOPs utilization divides by the peak rate the FLOPs that ...",
           ["every kernel executed, activation recomputation included",
            "the model needs per token (about six per parameter), recomputation excluded",
            "the matrix multiplications ran at their measured rate"], "b",
           hint="MFU is comparable across implementations because it ignores how the work was done."),
    choice("ch1.q2", "HFU against MFU",
           "A run recomputes every layer's activations in the backward pass. Its HFU is ... its MFU.",
           ["higher than", "equal to", "lower than"],
           lambda: "a" if training.flops_per_token(training.transformer_model("Llama 3 70B"), recompute="full")
           > training.flops_per_token(training.transformer_model("Llama 3 70B")) else "c",
           hint="Which FLOPs does each count?"),
    choice("ch1.q3", "Fully hidden communication",
           "Communication is shorter than compute and overlaps with it completely. The step time is ...",
           ["the compute time", "compute plus communication", "the communication time"],
           lambda: "a" if utilization.step_time(1.0, 0.5, 1.0).step_s == 1.0 else "b",
           hint="Exposed communication = communication × (1 − overlap)."),
    choice("ch1.q4", "A faster GPU, the same network",
           "Every GPU's peak doubles and kernels keep the same share of it; the network and the overlapped "
           "share stay the same. Compute took 1.0 s and communication 0.5 s with half of it overlapped. MFU ...",
           ["rises", "falls", "stays the same"], lambda: "b" if _ch1_mfu_after_upgrade_falls() else "a",
           hint="MFU is inversely proportional to step time × peak."),
    numeric("ch1.q5", "MFU from throughput",
            "A 7-billion-parameter model (count 6 FLOPs per parameter per token) trains at 3.5 million "
            "tokens per second on 512 H100 SXM. What is its MFU against the catalog's dense BF16 peak?",
            lambda: utilization.model_flops_utilization(6 * 7e9 * 3.5e6, 1.0, _h100_peak(), n_gpus=512),
            unit="%", scale=0.01, hint="Model FLOPs per second divided by the whole cluster's peak."),
]
