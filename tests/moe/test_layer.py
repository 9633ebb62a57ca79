"""Tests of ``interconnect_lab.moe.layer``: one MoE layer on one GPU: attention and experts' compute,
dispatch and combine.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, flag, fraction, make_tests, mixed, optional, positive

from interconnect_lab import catalog, collectives, moe, training
from interconnect_lab.catalog.variants import VARIANT_GPUS
from interconnect_lab.published.moe import DEEPSEEK_V3_TRAINING


def test_layer_step_parts_add_up():
    step = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM")
    assert step.compute_s == pytest.approx(step.attention_s + step.experts_s)
    assert step.communication_s == pytest.approx(step.dispatch.time_s + step.combine.time_s)
    assert 0 < step.communication_share < 1
    hidden = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM", overlap_fraction=1.0)
    assert hidden.step.step_s < step.step.step_s
    training = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM", backward=True)
    assert training.compute_s == pytest.approx(3 * step.compute_s)
    assert training.communication_s == pytest.approx(2 * step.communication_s)


def test_communication_sms_slow_compute():
    free = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM")
    busy = moe.moe_layer_step("DeepSeek-V3", 4096, 64, gpu="H100 SXM", communication_sm_fraction=20 / 132)
    assert busy.compute_s == pytest.approx(free.compute_s / (1 - 20 / 132))


def test_deepseek_v3_compute_to_communication_is_about_one():
    # DeepSeek-V3 report §3.2.1: cross-node expert parallelism gives "an inefficient
    # computation-to-communication ratio of approximately 1:1". Forward pass of one MoE layer,
    # EP 64 over 8 H800 nodes; tolerance 30% for "approximately".
    report = DEEPSEEK_V3_TRAINING
    step = moe.moe_layer_step("DeepSeek-V3", 4096, report.expert_parallel, gpu="H800 SXM",
                              domain_size=report.gpus_per_node, network_link="InfiniBand NDR")
    assert step.compute_to_communication == pytest.approx(report.compute_to_communication, rel=0.30)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

LINKS = tuple(catalog.LINKS)

GPUS = tuple(catalog.GPUS)

NETWORK_LINKS = tuple(name for name in LINKS if name.startswith(("InfiniBand", "Ethernet")))

MOE_MODELS = tuple(moe.MOE_MODELS)

KERNELS = tuple(collectives.EXPERT_PARALLEL_KERNELS)

power_of_two = mixed(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256]))


def layer_step_consistent(result, kwargs):
    assert result.step.step_s > 0
    if math.isinf(result.compute_to_communication):
        assert result.communication_s == 0


network_link = choice(NETWORK_LINKS)

FUZZ_CASES = [
    Case(moe.moe_layer_step, dict(
        model=choice(MOE_MODELS), tokens_per_gpu=positive(1.0, 1e17), ep_degree=power_of_two,
        gpu=choice(GPUS + tuple(VARIANT_GPUS)), domain_size=power_of_two, network_link=network_link,
        imbalance_factor=positive(1.0, 300.0), dispatch_bytes_per_element=positive(0.5, 4.0),
        combine_bytes_per_element=positive(0.5, 4.0), kernel=optional(choice(KERNELS)),
        flop_per_s=optional(positive(1e-3, 1e23)), communication_sm_fraction=fraction(0.0, 0.9),
        overlap_fraction=fraction(), backward=flag()),
        check=layer_step_consistent, infinite=("compute_to_communication",), examples=0.5),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
