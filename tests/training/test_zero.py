"""Tests of ``interconnect_lab.training.zero``: communication volumes of the data-parallel family:
ZeRO, ZeRO++ and gradient compression.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import Case, choice, count, flag, fraction, make_tests, mixed

from interconnect_lab import training as tr, training
from interconnect_lab.published import ZERO_PLUS_PLUS_VOLUME


def test_zero_plus_plus_volume_is_four_times_smaller():
    # Wang et al. 2023 (ZeRO++), §3-4: 3M -> 0.75M, exactly.
    zero3 = tr.zero_communication_volume(3)
    plus = tr.zero_communication_volume(3, quantized_weights=True, hierarchical_partition=True,
                                        quantized_gradients=True)
    assert zero3.total == ZERO_PLUS_PLUS_VOLUME["zero3_total"]
    assert plus.forward_all_gather == ZERO_PLUS_PLUS_VOLUME["qwz_forward_all_gather"]
    assert plus.cross_node - plus.forward_all_gather - plus.gradient_reduction == \
        ZERO_PLUS_PLUS_VOLUME["hpz_backward_all_gather_across_nodes"]
    assert plus.gradient_reduction == ZERO_PLUS_PLUS_VOLUME["qgz_reduce_scatter"]
    assert plus.cross_node == ZERO_PLUS_PLUS_VOLUME["zero_plus_plus_total"]
    assert zero3.cross_node / plus.cross_node == 4.0


def test_gradient_compression_volume_and_error():
    g = np.random.default_rng(3).standard_normal(50_000)
    eight = tr.gradient_compression(g, "quantize", bits=8, rng=0)
    four = tr.gradient_compression(g, "quantize", bits=4, rng=0)
    assert eight.compression_ratio == pytest.approx(2.0, rel=1e-3)
    assert four.compression_ratio == pytest.approx(4.0, rel=1e-3)
    assert four.relative_error > eight.relative_error
    topk = tr.gradient_compression(g, "top-k", fraction=0.1)
    assert topk.bytes_sent == 5000 * 6
    everything = tr.gradient_compression(g, "top-k", fraction=1.0)
    assert everything.relative_error == 0.0


def test_block_quantization_scales_each_block():
    g = np.random.default_rng(3).standard_t(3, 10_000)
    whole = tr.gradient_compression(g, "quantize", bits=4, rng=7)
    one_block = tr.gradient_compression(g, "quantize", bits=4, block_size=g.size, rng=7)
    assert one_block == whole                                        # one block is the whole-tensor scale
    blocks = tr.gradient_compression(g, "quantize", bits=4, block_size=100, rng=7)
    assert blocks.bytes_sent == g.size * 4 / 8 + 4 * 100            # a 4-byte scale per block
    assert blocks.relative_error < whole.relative_error / 2
    ragged = tr.gradient_compression(g[:1050], "quantize", bits=8, block_size=100, rng=7)
    assert ragged.bytes_sent == 1050 + 4 * 11                        # the last, short block has a scale too
    assert tr.gradient_compression(np.zeros(10), "quantize", block_size=3).relative_error == 0.0
    with pytest.raises(ValueError, match="block_size"):
        tr.gradient_compression(g, "quantize", block_size=0)


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(training.zero_communication_volume, dict(stage=count(0, 3), quantized_weights=flag(),
                                                  hierarchical_partition=flag(), quantized_gradients=flag())),
    Case(training.gradient_compression, dict(
        gradient=mixed(st.integers(1, 2000).map(lambda n: np.random.default_rng(n).standard_normal(n))),
        method=choice(("quantize", "top-k")), bits=count(1, 16), fraction=fraction(0.001, 1.0),
        rng=st.just(0)), exempt=("relative_error",)),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
