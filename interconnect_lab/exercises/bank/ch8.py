"""Chapter 8, training at scale: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, training
from ... import units as u
from ._common import choice, numeric


def _llama70():
    return training.transformer_model("Llama 3 70B")


ENTRIES = [
    numeric("ch8.ex1", "Counting parameters",
            "How many parameters does the library count for Llama 3 70B, in billions?",
            lambda: training.parameter_count(_llama70()), unit="billion", scale=1e9, rtol=0.002,
            hint="`training.parameter_count`; embeddings included."),
    numeric("ch8.ex2", "Model FLOPs per token",
            "How many model FLOPs per token (Megatron's convention, no recomputation) does Llama 3 70B "
            "take for a full training step (forward and backward)?",
            lambda: training.flops_per_token(_llama70()), unit="GFLOP", scale=u.GFLOP,
            hint="About 6 per parameter, plus attention; `training.flops_per_token`."),
    numeric("ch8.ex3", "The pipeline bubble",
            "With 8 pipeline stages and 32 microbatches per step (no interleaving), what share of the "
            "step is bubble, as the library defines it?",
            lambda: training.pipeline_bubble_fraction(8, 32), unit="%", scale=0.01,
            hint="(p − 1)/m; `training.pipeline_bubble_fraction`."),
    numeric("ch8.ex4", "Training time",
            "How many days does it take to train a 70-billion-parameter model on 15 trillion tokens on "
            "16,384 GPUs that each deliver 400 TFLOP/s of model FLOPs?",
            lambda: training.training_time_s(70e9, 15e12, 16384, 400 * u.TFLOP_per_s), unit="days",
            scale=u.day, hint="6 N D / (GPUs × rate); `training.training_time_s`."),
    choice("ch8.q1", "Six FLOPs per parameter",
           "Where do the ~6 FLOPs per parameter per token come from?",
           ["2 in the forward pass, 4 in the backward pass", "3 forward, 3 backward",
            "6 in the optimizer"], "a"),
    choice("ch8.q2", "Shrinking the bubble",
           "Which shrinks the pipeline bubble's share of a step?",
           ["fewer microbatches per step", "more microbatches per step", "more pipeline stages"],
           lambda: "b" if training.pipeline_bubble_fraction(8, 64) < training.pipeline_bubble_fraction(8, 32)
           else "a"),
    choice("ch8.q3", "Where tensor parallelism goes",
           "Why does Megatron-LM keep tensor parallelism inside a node?",
           ["it all-reduces activations in every layer, so it needs NVLink's bandwidth",
            "it only runs once per step", "pipeline parallelism cannot cross nodes"], "a"),
    choice("ch8.q4", "ZeRO stage 3",
           "ZeRO stage 3 partitions across the data-parallel GPUs ...",
           ["the optimizer state only", "the optimizer state and gradients",
            "the optimizer state, gradients and parameters"], "c"),
    numeric("ch8.q5", "An interleaved bubble",
            "With 4 pipeline stages, 16 microbatches and 2 model chunks per stage (interleaved schedule), "
            "what is the bubble's share?",
            lambda: training.pipeline_bubble_fraction(4, 16, 2), unit="%", scale=0.01,
            hint="Interleaving divides the bubble by the number of chunks."),
    numeric("ch8.ex5", "Attention at short sequences",
            "On an H100 SXM, what share of the BF16 peak does cuDNN's fused attention reach in the causal "
            "forward pass on sequences of 1,024 tokens with heads of dimension 128 (FlashAttention-3's "
            "benchmark, as the library reads it)?",
            lambda: training.attention_share("cuDNN", "H100 SXM", 1024, head_dim=128).forward, unit="%",
            scale=0.01, hint="`training.attention_share`; compare with its 16K share in `training.ATTENTION_KERNELS`."),
    numeric("ch8.ex6", "The power limit",
            "A training step holds a GPU at its power limit, below the clock of the short bursts its best measured "
            "matmul rate comes from. By what share does the library slow a B200's training GEMMs below that best "
            "rate (catalog.gpu('B200').measured_matmul_flop_per_s)?",
            lambda: 1 - training.matmul_fraction_of_peak(catalog.gpu("B200")) / catalog.gpu("B200").matmul_fraction_of_peak,
            unit="%", scale=0.01,
            hint="`training.matmul_fraction_of_peak`. Not 1 minus the B200's sustained rate over its best one: the "
                 "efficiency already allows for what the reference GPU (`training.SUSTAINED_REFERENCE_GPU`) loses, so "
                 "the B200 runs at the reference's best rate times the ratio of the two GPUs' sustained rates."),
    numeric("ch8.ex7", "Two meanings of selective",
            "Llama 3 8B trains with FSDP (ZeRO-3) on one DGX H100 (training.system_cluster('DGX H100')), one "
            "sequence per GPU per step, with the 'PyTorch FSDP' stack. By what share is its step longer with "
            "torchtitan's default selective checkpointing (every second layer checkpointed whole) than with "
            "Megatron's selective recomputation?",
            lambda: _titan_selective_cost(), unit="%", scale=0.01,
            hint="`training.RECOMPUTATION` names torchtitan's policy 'every other layer'; compare "
                 "`training_step(...).step_s` under it and under 'selective'."),
    numeric("ch8.ex8", "What checkpointing cost",
            "torchtitan's A100 table (published.training_runs.TORCHTITAN_A100_RUNS) ran Llama 2 13B on 64 A100s "
            "at the same batch without activation checkpointing and with every other layer checkpointed. "
            "Replaying both rows with training.replay, by what share is the checkpointed run's step longer? "
            "Then compare with what the two published throughputs say.",
            lambda: _titan_checkpointing_charge(), unit="%", scale=0.01,
            hint="`training.replay(run).step_s` for the two rows with `run.layers == 40` and recompute 'none' "
                 "and 'every other layer'; the published rows give tokens per second at the same batch."),
    numeric("ch8.ex9", "What eager kernels cost",
            "torchtitan's Llama 2 13B row without checkpointing (published.training_runs.TORCHTITAN_A100_RUNS) "
            "ran its RMSNorm, rotary embedding and SwiGLU op by op. Replay it with its own stack and with the "
            "same stack but those ops charged as one kernel each (Kernels.elementwise 'one kernel each'). By what share "
            "is the eager step longer?",
            lambda: _titan_eager_cost(), unit="%", scale=0.01,
            hint="`training.replay(run, software=...)` with `training.software(run.software).replace(kernels="
                 "{'elementwise': 'one kernel each'})`; compare the two `step_s`."),
    numeric("ch8.ex10", "What an op-by-op optimizer costs a hybrid-sharded run",
            "IBM's Llama 2 13B row (published.training_runs.FMS_FSDP_A100_RUNS) shares each copy of the weights "
            "among the 8 GPUs of a node, so every GPU updates an eighth of the model each step, with PyTorch's "
            "default AdamW, which runs op by op. Replay it with its own stack and with the same stack stepping "
            "one fused Adam kernel (Optimizer.update 'fused'). By what share is its step longer?",
            lambda: _fms_optimizer_cost(), unit="%", scale=0.01,
            hint="`training.software(run.software).replace(optimizer={'update': 'fused'})`; compare the "
                 "two `step_s`. Then try `dataclasses.replace(run, shard_group_size=None)`: what happens to "
                 "`optimizer_s`, and why?"),
]


def _titan_13b(recompute):
    """torchtitan's Llama 2 13B row on 64 A100 with the given recomputation policy."""
    from ...published.training_runs import TORCHTITAN_A100_RUNS
    (run,) = [run for run in TORCHTITAN_A100_RUNS if run.layers == 40 and run.recompute == recompute]
    return run


def _titan_eager_cost():
    run = _titan_13b("none")
    one_kernel_each = training.software(run.software).replace(kernels={"elementwise": "one kernel each"})
    return training.replay(run).step_s / training.replay(run, software=one_kernel_each).step_s - 1


def _fms_optimizer_cost():
    from ...published.training_runs import FMS_FSDP_A100_RUNS
    (run,) = [run for run in FMS_FSDP_A100_RUNS if run.layers == 40]
    fused = training.software(run.software).replace(optimizer={"update": "fused"})
    return training.replay(run).step_s / training.replay(run, software=fused).step_s - 1


def _titan_checkpointing_charge():
    steps = [training.replay(_titan_13b(policy)).step_s for policy in ("every other layer", "none")]
    return steps[0] / steps[1] - 1


def _titan_selective_cost():
    steps = [training.training_step("Llama 3 8B", training.system_cluster("DGX H100"),
                                    training.parallel_config(8, global_batch_size=8, recompute=name, zero_stage=3),
                                    "PyTorch FSDP").step_s
             for name in ("every other layer", "selective")]
    return steps[0] / steps[1] - 1
