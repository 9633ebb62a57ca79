"""Collectives performed on arrays: the right answer, and the traffic the α-β model charges."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from interconnect_lab import collectives as c
from interconnect_lab.collectives import reference as ref


rank_counts = st.integers(min_value=1, max_value=12)


def random_inputs(n, length, seed, dtype=np.int64):
    rng = np.random.default_rng(seed)
    return [rng.integers(-1000, 1000, size=length).astype(dtype) for _ in range(n)]


def model(collective, algorithm, size_bytes, n):
    return c.collective_performance(collective, size_bytes, n, 1e9, 1e-6, algorithm)


@given(rank_counts, st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_ring_all_reduce_is_the_sum(n, length, seed):
    inputs = random_inputs(n, length, seed)
    run = ref.ring_all_reduce(inputs)
    expected = np.sum(inputs, axis=0)
    for output in run.outputs:
        np.testing.assert_array_equal(output, expected)


@given(rank_counts, st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_halving_doubling_all_reduce_is_the_sum(n, length, seed):
    inputs = random_inputs(n, length, seed)
    run = ref.halving_doubling_all_reduce(inputs)
    for output in run.outputs:
        np.testing.assert_array_equal(output, np.sum(inputs, axis=0))


@settings(max_examples=50)
@given(st.integers(1, 8), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_floating_point_sums_match_to_rounding(n, length, seed):
    rng = np.random.default_rng(seed)
    inputs = [rng.normal(size=(length, 3)) for _ in range(n)]
    for run in (ref.ring_all_reduce(inputs), ref.halving_doubling_all_reduce(inputs)):
        for output in run.outputs:
            assert output.shape == (length, 3)
            np.testing.assert_allclose(output, np.sum(inputs, axis=0), rtol=1e-12, atol=1e-12)


@given(rank_counts, st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_ring_reduce_scatter_gives_each_rank_its_share(n, length, seed):
    inputs = random_inputs(n, length, seed)
    run = ref.ring_reduce_scatter(inputs)
    shares = np.array_split(np.sum(inputs, axis=0), n)
    for rank, output in enumerate(run.outputs):
        np.testing.assert_array_equal(output, shares[rank])


@given(rank_counts, st.integers(0, 10), st.integers(0, 2**32 - 1))
def test_ring_all_gather_gives_everyone_everything(n, length, seed):
    blocks = random_inputs(n, length, seed)
    run = ref.ring_all_gather(blocks)
    for output in run.outputs:
        np.testing.assert_array_equal(output, np.concatenate(blocks))


@given(rank_counts, st.integers(0, 20), st.integers(0, 2**32 - 1), st.data())
def test_ring_broadcast_copies_the_root(n, length, seed, data):
    inputs = random_inputs(n, length, seed)
    root = data.draw(st.integers(0, n - 1))
    pieces = data.draw(st.integers(1, 5))
    run = ref.ring_broadcast(inputs, root=root, pipeline_chunks=pieces)
    for output in run.outputs:
        np.testing.assert_array_equal(output, inputs[root])
    assert run.n_steps == (n - 2 + pieces if n > 1 else 0)


@given(rank_counts, st.integers(0, 5), st.integers(0, 2**32 - 1))
def test_direct_all_to_all_transposes_the_blocks(n, block, seed):
    inputs = random_inputs(n, n * block, seed)
    run = ref.direct_all_to_all(inputs)
    for receiver, output in enumerate(run.outputs):
        expected = np.concatenate([np.array_split(inputs[sender], n)[receiver] for sender in range(n)])
        np.testing.assert_array_equal(output, expected)


@given(rank_counts, st.integers(1, 6))
def test_ring_all_reduce_bytes_and_steps_match_the_model(n, elements_per_chunk):
    inputs = random_inputs(n, n * elements_per_chunk, seed=n)
    run = ref.ring_all_reduce(inputs)
    size_bytes = inputs[0].nbytes
    expected = model("all_reduce", "ring", size_bytes, n)
    # The ring is balanced: every rank sends exactly 2(n-1)/n S, in 2(n-1) steps.
    assert run.bytes_sent().tolist() == [expected.bytes_sent_per_rank] * n
    assert run.bytes_received().tolist() == [expected.bytes_sent_per_rank] * n
    assert run.n_steps == expected.steps


@given(rank_counts, st.integers(1, 6))
def test_ring_reduce_scatter_and_all_gather_match_the_model(n, elements_per_chunk):
    inputs = random_inputs(n, n * elements_per_chunk, seed=n)
    size_bytes = inputs[0].nbytes  # nccl-tests: S is the whole array for both
    reduce_scatter = ref.ring_reduce_scatter(inputs)
    expected = model("reduce_scatter", "ring", size_bytes, n)
    assert reduce_scatter.bytes_sent().max() == expected.bytes_sent_per_rank
    assert reduce_scatter.n_steps == expected.steps
    blocks = [a[:elements_per_chunk] for a in inputs]
    all_gather = ref.ring_all_gather(blocks)
    expected = model("all_gather", "ring", n * blocks[0].nbytes, n)
    assert all_gather.bytes_sent().max() == expected.bytes_sent_per_rank
    assert all_gather.n_steps == expected.steps


@given(rank_counts, st.integers(1, 4))
def test_halving_doubling_bytes_and_steps_match_the_model(n, elements_per_chunk):
    p = 1 << (n.bit_length() - 1)
    inputs = random_inputs(n, p * elements_per_chunk, seed=n)
    run = ref.halving_doubling_all_reduce(inputs)
    expected = model("all_reduce", "halving_doubling", inputs[0].nbytes, n)
    # The busiest rank is a partner of an extra rank when n is not a power of two.
    assert run.bytes_sent().max() == pytest.approx(expected.bytes_sent_per_rank)
    assert run.n_steps == expected.steps


@given(rank_counts, st.integers(1, 6))
def test_broadcast_and_all_to_all_bytes_match_the_model(n, elements_per_block):
    inputs = random_inputs(n, n * elements_per_block, seed=n)
    size_bytes = inputs[0].nbytes
    broadcast = ref.ring_broadcast(inputs, root=n - 1)
    expected = model("broadcast", "ring", size_bytes, n)
    assert broadcast.bytes_sent().max() == expected.bytes_sent_per_rank
    assert broadcast.n_steps == expected.steps  # one piece: no pipelining
    all_to_all = ref.direct_all_to_all(inputs)
    expected = model("all_to_all", "direct", size_bytes, n)
    assert all_to_all.bytes_sent().tolist() == [expected.bytes_sent_per_rank] * n
    assert all_to_all.n_steps == expected.steps


def test_uneven_chunks_send_no_more_than_one_element_extra_per_step():
    inputs = random_inputs(5, 23, seed=1)
    run = ref.ring_all_reduce(inputs)
    expected = model("all_reduce", "ring", inputs[0].nbytes, 5).bytes_sent_per_rank
    assert abs(run.bytes_sent().max() - expected) <= run.n_steps * inputs[0].itemsize


def test_ring_all_reduce_log_on_three_ranks():
    # Worked by hand: at reduce-scatter step s rank r sends chunk (r - s - 1) mod 3 to r + 1;
    # at all-gather step s it forwards chunk (r - s) mod 3.
    run = ref.ring_all_reduce([np.arange(3)] * 3)
    log = [(t.step, t.sender, t.receiver, t.chunks, t.operation) for t in run.transfers]
    assert log == [
        (0, 0, 1, (2,), "reduce"), (0, 1, 2, (0,), "reduce"), (0, 2, 0, (1,), "reduce"),
        (1, 0, 1, (1,), "reduce"), (1, 1, 2, (2,), "reduce"), (1, 2, 0, (0,), "reduce"),
        (2, 0, 1, (0,), "copy"), (2, 1, 2, (1,), "copy"), (2, 2, 0, (2,), "copy"),
        (3, 0, 1, (2,), "copy"), (3, 1, 2, (0,), "copy"), (3, 2, 0, (1,), "copy"),
    ]
    counts = run.contribution_counts()
    assert counts.shape == (5, 3, 3)
    assert (counts[0] == 1).all() and (counts[-1] == 3).all()
    # After the reduce-scatter (2 steps) rank r holds the full sum of chunk r only.
    assert np.diag(counts[2]).tolist() == [3, 3, 3]


def test_halving_doubling_folds_extra_ranks_in_and_out():
    run = ref.halving_doubling_all_reduce([np.arange(4)] * 6)
    first, last = run.transfers_at(0), run.transfers_at(run.n_steps - 1)
    assert [(t.sender, t.receiver, t.operation) for t in first] == [(0, 1, "reduce"), (2, 3, "reduce")]
    assert [(t.sender, t.receiver, t.operation) for t in last] == [(1, 0, "copy"), (3, 2, "copy")]
    assert (run.contribution_counts()[-1] == 6).all()


def test_every_reference_matches_a_model_algorithm():
    for collective, algorithm in ref.IMPLEMENTATIONS:
        assert algorithm in c.algorithms_for(collective)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ref.ring_all_reduce([]), ValueError, r"at least 1, got 0"),
    (lambda: ref.ring_all_reduce([[1, 2], [1, 2, 3]]), ValueError, r"same shape"),
    (lambda: ref.ring_all_reduce([["a"], ["b"]]), TypeError, r"numeric"),
    (lambda: ref.ring_broadcast([[1], [2]], root=2), ValueError, r"root = 2 is not valid: it must be in \[0, 1\]"),
    (lambda: ref.ring_broadcast([[1], [2]], pipeline_chunks=0), ValueError, r"pipeline_chunks = 0"),
    (lambda: ref.run_collective("all_reduce", [[1]], "tree"), ValueError,
     r"unknown algorithm 'tree' for 'all_reduce'; valid algorithms are: 'ring', 'halving_doubling'"),
    (lambda: ref.run_collective("gather", [[1]]), ValueError, r"unknown collective 'gather'"),
])
def test_bad_input_is_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()
