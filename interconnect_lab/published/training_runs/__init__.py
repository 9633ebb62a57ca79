"""Published training runs, with every input their sources state, for the fidelity table.

Each :class:`PublishedRun` is one row of a published table (or one sentence of
a paper) that reports the throughput of a real training run, stored with the
model's shape, the hardware, the parallel split, the training stack and the
published figure, and with the source. Inputs the source does not state are
named in ``assumptions`` with the value used and why; nothing here is tuned.
:func:`interconnect_lab.training.fidelity_table` replays every run through
:func:`interconnect_lab.training.training_step` with the library's defaults.

**Development and validation families.** Written down before the model's mechanisms of
2026-12 (sharding across nodes through the collective model, context-parallel
implementations, DeepSpeed's pipeline engine) were added, by stack: the *development*
runs are those of the stacks the model's defaults were built and calibrated on, the
Megatron-LM family (NVIDIA's Megatron-LM, Megatron-Core, NeMo and Megatron Bridge;
ByteDance's MegaScale, in ``published.runs``) and MosaicML's Composer;
the *validation* runs are every other stack (PyTorch FSDP in torchtitan, IBM's fms-fsdp and
others; DeepSpeed; metaseq; Meta's Llama 3 stack; flash-attention's GPT). Mechanisms are
developed on the first and the second is reported as it comes out (``family``).

One module per publisher: ``mosaicml``, ``meta``, ``ibm``, ``nvidia``, ``microsoft``, ``bigscience``
and ``flash_attention`` (Dao, 2023); :class:`PublishedRun` itself is in ``run``. Every name is
available from this package.
"""

from __future__ import annotations

# Every run and source of the publishers' modules, here too: readers import them from this package.
from .bigscience import BLOOM_176B, BLOOM_TRAINING  # noqa: F401
from .flash_attention import FLASH_ATTENTION_2_RUNS
from .ibm import FMS_FSDP, FMS_FSDP_A100_RUNS, FMS_FSDP_H100_RUNS, PYTORCH_FSDP_BLOG  # noqa: F401
from .microsoft import DEEPSPEED_AZURE_BLOG, MT_NLG, MT_NLG_530B  # noqa: F401
from .meta import (  # noqa: F401
    LLAMA3_405B_RUNS, TORCHTITAN_A100_RUNS, TORCHTITAN_H100_COMPILE_RUNS, TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS,
    TORCHTITAN_PERFORMANCE,
)
from .mosaicml import (  # noqa: F401
    LLM_FOUNDRY, LLM_FOUNDRY_1B_A100_40GB, LLM_FOUNDRY_1B_BY_LENGTH, LLM_FOUNDRY_30B_32_A100_40GB,
    LLM_FOUNDRY_A100_80GB_ONE_NODE, LLM_FOUNDRY_BENCHMARKS,
)
from .nvidia import (  # noqa: F401
    DGXC_BENCHMARKING, DGXC_LLAMA31_2025, DGXC_LLAMA31_2025_GB200, DGXC_LLAMA31_2025_H100, DGXC_NEMOTRON_2025,
    DGXC_NEMOTRON_2025_GB200, DGXC_NEMOTRON_2025_H100, DGXC_RUNS, KORTHIKANTI_2022, KORTHIKANTI_RUNS,
    SC21_TABLE2, SC21_TABLE2_PTD_RUNS, SC21_TABLE2_ZERO3_RUNS,
    MEGATRON_BRIDGE_2511_BLACKWELL, MEGATRON_BRIDGE_2511_H100, MEGATRON_BRIDGE_PERFORMANCE, NEMO_FLOPS_FORMULAS,
    NEMO_LONG_SEQUENCE, NEMO_LONG_SEQUENCE_H100, nemo_llama2_flops_per_token,
)
from .run import METRICS, PublishedRun

__all__ = ["PublishedRun", "TRAINING_RUNS", "FLASH_ATTENTION_2_RUNS", "LLM_FOUNDRY_BENCHMARKS",
           "LLM_FOUNDRY_1B_A100_40GB", "LLM_FOUNDRY_1B_BY_LENGTH", "LLM_FOUNDRY_A100_80GB_ONE_NODE", "DGXC_RUNS",
           "METRICS", "FAMILIES", "DEVELOPMENT_ORGANISATIONS", "DEVELOPMENT_STACKS", "family"]

#: The two families every published run belongs to.
FAMILIES = ("development", "validation")

#: Publishers whose stacks the model was built and calibrated on: the Megatron-LM family and Composer.
#: Kept for readers; ``family`` goes by ``DEVELOPMENT_STACKS``, the run's software, not its publisher.
DEVELOPMENT_ORGANISATIONS = ("NVIDIA", "ByteDance", "MosaicML")

#: The stacks (names in ``training.SOFTWARE``) the model was built and calibrated on: the Megatron-LM
#: family (Megatron-LM, Megatron-Core, MegaScale) and MosaicML's Composer (llm-foundry). Every other
#: stack is validation: DeepSpeed (ZeRO-3, Megatron-DeepSpeed's pipeline engine), PyTorch FSDP
#: (torchtitan, fms-fsdp), metaseq, Llama 3's, flash-attention's GPT.
DEVELOPMENT_STACKS = (
    "Megatron-LM SC21", "Megatron-LM SC21, torch DDP", "Megatron-LM 2022", "Megatron-LM 2023", "MegaScale",
    "Megatron-Core 2024", "Megatron-Core 2024 FP8", "llm-foundry 2023, PURE", "llm-foundry 2023, DEFAULT",
)


def family(run) -> str:
    """``"development"`` or ``"validation"``: the family of a published run, by its stack (see the module docstring).

    A run is *development* when its ``software`` is one of ``DEVELOPMENT_STACKS``, whoever
    published it: NVIDIA's own run of a DeepSpeed stack is validation.

    Parameters
    ----------
    run : PublishedRun
        A published run.

    Examples
    --------
    >>> family(TRAINING_RUNS[0]), family(BLOOM_176B)
    ('development', 'validation')
    """
    if not isinstance(run, PublishedRun):
        raise TypeError(f"run must be a PublishedRun, got {run!r}")
    return "development" if run.software in DEVELOPMENT_STACKS else "validation"

#: Every run of the fidelity table beyond SC21 Table 1 and MegaScale Table 2.
TRAINING_RUNS: tuple[PublishedRun, ...] = (KORTHIKANTI_RUNS + (BLOOM_176B,) + LLAMA3_405B_RUNS
                                           + LLM_FOUNDRY_BENCHMARKS + FLASH_ATTENTION_2_RUNS + DGXC_RUNS
                                           + DGXC_NEMOTRON_2025_H100 + DGXC_LLAMA31_2025_H100
                                           + MEGATRON_BRIDGE_2511_H100 + TORCHTITAN_A100_RUNS + FMS_FSDP_A100_RUNS
                                           + TORCHTITAN_H100_CONTEXT_PARALLEL_RUNS + SC21_TABLE2_ZERO3_RUNS
                                           + SC21_TABLE2_PTD_RUNS + (MT_NLG_530B,))
