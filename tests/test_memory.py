"""The memory wall (chapter 3): training state, KV cache, offload traffic and its time.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fuzzing import Case, choice, count, flag, fraction, make_tests, nonnegative, optional, positive

from interconnect_lab import catalog, memory as m, memory, published, training as tr, training, units as u

PCIE5 = "host DDR5 over PCIe Gen5 x16"

OPT_13B = tr.TransformerModel.gpt(name="OPT-13B", layers=40, hidden_size=5120, heads=40,
                                  vocabulary_size=50272, sequence_length=2048)


def test_kv_cache_of_opt_13b_matches_vllm():
    # "the KV cache of a single token demands 800 KB of space, calculated as
    # 2 x 5120 x 40 x 2 (bytes per FP16)" -- KB there is 1,024 bytes.
    assert m.kv_cache_bytes(OPT_13B, 1) == 2 * 5120 * 40 * 2 == 800 * u.KiB
    # "the memory required to store the KV cache of one request can be as much as 1.6 GB" (2,048 tokens)
    assert m.kv_cache_bytes(OPT_13B, 2048) == pytest.approx(1.6 * u.GiB, rel=0.03)


def test_kv_cache_counts_only_key_value_heads():
    llama = tr.transformer_model("Llama 3 70B")     # 80 layers, 8 KV heads of 128 (GQA)
    assert m.kv_cache_bytes(llama, 1) == 2 * 80 * 8 * 128 * 2
    multi_head = dataclasses.replace(llama, kv_heads=llama.heads, name="MHA")
    assert m.kv_cache_bytes(multi_head, 1) == llama.heads // llama.kv_heads * m.kv_cache_bytes(llama, 1)


def test_kv_cache_is_linear_in_tokens_and_element_size():
    llama = tr.transformer_model("Llama 3 8B")
    tokens = np.array([0, 1, 1000, 131072])
    sizes = m.kv_cache_bytes(llama, tokens)
    assert isinstance(sizes, np.ndarray)
    np.testing.assert_allclose(sizes, tokens * m.kv_cache_bytes(llama, 1))
    assert m.kv_cache_bytes(llama, 10, bytes_per_element=1) == m.kv_cache_bytes(llama, 10) / 2


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"tokens": -1}, "tokens = -1 token"),
    ({"tokens": 1, "bytes_per_element": 0}, "bytes_per_element = 0 B"),
])
def test_kv_cache_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        m.kv_cache_bytes(OPT_13B, **kwargs)
    with pytest.raises(TypeError, match="TransformerModel"):
        m.kv_cache_bytes("Llama 3 8B", 1)


def test_training_state_is_sixteen_bytes_per_parameter():
    state = m.training_state(1e9)
    assert (state.weights_bytes, state.gradients_bytes, state.optimizer_bytes) == (2e9, 2e9, 12e9)
    assert state.total_bytes == 16e9
    model = tr.transformer_model("GPT-3 175B")
    assert m.training_state(model).total_bytes == 16 * tr.parameter_count(model)
    assert m.training_state(1e9, optimizer_bytes=4).total_bytes == 8e9


def test_training_state_takes_arrays_and_rejects_negative_counts():
    state = m.training_state(np.array([1e9, 2e9]))
    np.testing.assert_allclose(state.total_bytes, [16e9, 32e9])
    with pytest.raises(ValueError, match="parameters = -1"):
        m.training_state(-1)
    with pytest.raises(ValueError, match="unknown state 'activations'"):
        state.part("activations")


@pytest.mark.parametrize("plan", list(m.OFFLOAD_PLANS.values()), ids=lambda p: p.name)
def test_every_plan_keeps_each_byte_in_one_place(plan):
    state = m.training_state(1e9)
    moved = plan.bytes(state)
    assert moved["gpu"] + moved["host"] == state.total_bytes
    assert set(plan.on_gpu) | set(plan.on_host) == {"weights", "gradients", "optimizer"}


def test_zero_offload_moves_four_bytes_per_parameter():
    # Ren et al. 2021: 16-bit gradients to the CPU, updated 16-bit weights back.
    moved = m.offload_plan("ZeRO-Offload").bytes(m.training_state(1e9))
    assert (moved["to_host"], moved["to_device"]) == (2e9, 2e9)
    assert moved["gpu"] == 2e9
    nothing = m.offload_plan("none").bytes(m.training_state(1e9))
    assert (nothing["to_host"], nothing["to_device"], nothing["host"]) == (0, 0, 0)
    streamed = m.offload_plan("optimizer state streamed").bytes(m.training_state(1e9))
    assert streamed["to_host"] == streamed["to_device"] == 12e9


def test_issue_37_error_3_zero_offload_keeps_every_weight_on_every_gpu():
    # Issue 37, error 3. DeepSpeed: "ZeRO-Offload extends ZeRO-2"; "Unlike ZeRO-2 and ZeRO-Offload where the
    # parameters have to fit in the memory of a single GPU, ZeRO-3 Offload can partition the parameters
    # across GPUs". The book's old "ZeRO-Offload" split the weights: that is ZeRO-3 with CPU offload.
    model = tr.transformer_model("Llama 3 70B")
    weights = 2 * tr.parameter_count(model)
    zo = m.offload_step(model, "H100 SXM", "ZeRO-Offload", PCIE5, tokens_per_gpu=8192, shards=8)
    z3 = m.offload_step(model, "H100 SXM", "ZeRO-3 + CPU optimizer offload", PCIE5, tokens_per_gpu=8192, shards=8)
    assert zo.gpu_bytes == pytest.approx(weights)                  # 141 GB on every GPU, whatever the shards
    assert weights > catalog.gpu("H100 SXM").hbm_bytes and not zo.fits_hbm
    assert z3.gpu_bytes == pytest.approx(weights / 8) and z3.fits_hbm
    # Both move each GPU's share across PCIe: 2 bytes per parameter out, 2 back.
    assert (zo.to_host_bytes, zo.to_device_bytes) == (z3.to_host_bytes, z3.to_device_bytes)
    assert zo.host_bytes == z3.host_bytes == pytest.approx(14 * tr.parameter_count(model) / 8)


def test_where_each_plan_stops_fitting():
    # 80 GB of HBM over 2 bytes per weight: 40 billion parameters for ZeRO-Offload at any data-parallel size.
    h100 = catalog.gpu("H100 SXM")
    for shards in (1, 8, 512):
        assert m.offload_limits("ZeRO-Offload", h100, shards=shards).hbm_parameters == pytest.approx(40e9)
    z3 = m.offload_limits("ZeRO-3 + CPU optimizer offload", h100, shards=8)
    assert z3.hbm_parameters == pytest.approx(8 * 40e9)
    host_share = m.offload_path(PCIE5).capacity_per_gpu_bytes          # 2 TB over 8 GPUs
    assert z3.host_parameters == pytest.approx(host_share * 8 / 14)    # 14 bytes per parameter in host memory
    assert z3.parameters == min(z3.hbm_parameters, z3.host_parameters)
    assert m.offload_limits("none", h100, shards=8).host_parameters == np.inf
    assert m.offload_limits("ZeRO-Infinity", h100, shards=8).hbm_parameters == np.inf
    with pytest.raises(ValueError, match="shards = 0"):
        m.offload_limits("ZeRO-Offload", h100, shards=0)


@given(shards=st.integers(1, 4096), parameters=st.floats(1e6, 1e13))
@settings(max_examples=60, deadline=None)
def test_a_replicated_part_counts_whole_and_the_rest_splits(shards, parameters):
    state = m.training_state(parameters)
    zo = m.offload_plan("ZeRO-Offload").bytes(state, shards)
    z3 = m.offload_plan("ZeRO-3 + CPU optimizer offload").bytes(state, shards)
    assert zo["gpu"] == pytest.approx(state.weights_bytes)
    assert z3["gpu"] == pytest.approx(state.weights_bytes / shards)
    assert zo["host"] == pytest.approx(z3["host"]) == pytest.approx(
        (state.gradients_bytes + state.optimizer_bytes) / shards)


def test_the_host_is_a_parameter_of_a_path_to_host_memory():
    # Issue 37, error 4: the chapter's own formula on a 12-channel DDR5-6400 host gives PCIe Gen6 about
    # twice Gen5 for ZeRO-Offload's one-way copies; on the 2023 host (8 x DDR5-4800) barely more.
    plan, kw = "ZeRO-3 + CPU optimizer offload", dict(tokens_per_gpu=8192, shards=8)
    old = {g: m.offload_step("Llama 3 70B", "H100 SXM", plan, f"host DDR5 over PCIe {g} x16", **kw)
           for g in ("Gen5", "Gen6")}
    new = {g: m.offload_step("Llama 3 70B", "H100 SXM", plan, f"host DDR5 over PCIe {g} x16",
                             host="Xeon 6 6900P, 12 x DDR5-6400", **kw) for g in ("Gen5", "Gen6")}
    assert old["Gen5"].transfer_s / old["Gen6"].transfer_s == pytest.approx(76.8 / 63.015, rel=1e-3)  # 1.22x
    assert new["Gen5"].transfer_s / new["Gen6"].transfer_s == pytest.approx(121.0 / 63.015, rel=1e-3)  # 1.92x
    assert new["Gen5"].transfer_s == pytest.approx(old["Gen5"].transfer_s)   # Gen5 was never memory-bound
    path = m.offload_path("host DDR5 over PCIe Gen6 x16", host="Xeon 6 6900P, 12 x MRDIMM-8800")
    assert path.memory_bytes_per_s == pytest.approx(12 * 8800e6 * 8 / 4)
    assert path.capacity_per_gpu_bytes == m.offload_path("host DDR5 over PCIe Gen6 x16").capacity_per_gpu_bytes
    with pytest.raises(ValueError, match="host = 'Xeon 6 6900P, 12 x DDR5-6400' is not valid for path "
                                         "'Grace LPDDR5X over NVLink-C2C'"):
        m.offload_path("Grace LPDDR5X over NVLink-C2C", host="Xeon 6 6900P, 12 x DDR5-6400")
    with pytest.raises(ValueError, match="unknown host 'Xeon 7'"):
        m.offload_path(PCIE5, host="Xeon 7")


def test_unknown_plan_and_path_list_the_valid_ones():
    with pytest.raises(ValueError, match="valid offload plan names are: 'none', 'ZeRO-Offload'"):
        m.offload_plan("ZeRO-5")
    with pytest.raises(ValueError, match="valid offload path names are"):
        m.offload_path("NVMe")
    with pytest.raises(ValueError, match="unknown OffloadPlan.on_gpu state 'moments'"):
        m.OffloadPlan(name="bad", on_gpu=("moments",), to_host=(), to_device=(), directions_overlap=True,
                      description="")
    with pytest.raises(ValueError, match="unknown link name"):
        m.OffloadPath(name="bad", links=("PCIe Gen9 x16",), memory="Host DDR5 (one Xeon socket)")


def test_a_path_is_as_fast_as_its_narrowest_link():
    pcie5, gen6 = catalog.link("PCIe Gen5 x16"), catalog.link("PCIe Gen6 x16")
    cxl = m.offload_path("CXL 2.0 expander behind the host")
    assert cxl.link_bytes_per_s == min(pcie5.per_direction_bytes_per_s,
                                       catalog.link("CXL 2.0 x16").per_direction_bytes_per_s)
    c2c = m.offload_path("Grace LPDDR5X over NVLink-C2C")
    assert c2c.link_bytes_per_s == u.per_direction(900 * u.GB_per_s)     # NVIDIA's "900 GB/s"
    ddr = catalog.memory_tier("Host DDR5 (one Xeon socket)")
    host6 = m.offload_path("host DDR5 over PCIe Gen6 x16")
    assert host6.memory_bytes_per_s == ddr.bandwidth_bytes_per_s / m.GPUS_PER_HOST_SOCKET
    # A Gen6 link is faster than four GPUs' share of one socket's DDR5: memory sets the rate.
    assert host6.read_bytes_per_s == host6.memory_bytes_per_s < gen6.per_direction_bytes_per_s
    assert host6.capacity_per_gpu_bytes == ddr.capacity_bytes / m.GPUS_PER_HOST_SOCKET


def test_measured_host_copy_stays_below_the_path():
    measured = published.HOST_DEVICE_TRANSFER
    assert measured.per_direction_bytes_per_s < m.offload_path(PCIE5).read_bytes_per_s
    assert measured.per_direction_bytes_per_s / catalog.link(measured.link).per_direction_bytes_per_s \
        == pytest.approx(0.88, abs=0.005)


def test_transfer_time_by_hand():
    path = m.offload_path(PCIE5)
    link = catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    ddr_share = 8 * 4800e6 * 8 / 4
    assert m.transfer_time(0, 10 * u.GB, path) == pytest.approx(10 * u.GB / link)
    # Both ways at once: 20 GB through a 76.8 GB/s share of DDR5 is slower than 10 GB through the link.
    assert m.transfer_time(10 * u.GB, 10 * u.GB, path) == pytest.approx(20 * u.GB / ddr_share)
    # One after the other: each way at the link's rate.
    assert m.transfer_time(10 * u.GB, 10 * u.GB, path, directions_overlap=False) \
        == pytest.approx(20 * u.GB / link)
    assert m.transfer_time(0, 0, path) == 0.0


def test_transfer_time_through_memory_quoted_per_direction():
    cxl = m.offload_path("CXL 2.0 expander behind the host")    # expander bandwidth per direction
    link = cxl.link_bytes_per_s
    assert m.transfer_time(10 * u.GB, 10 * u.GB, cxl) == pytest.approx(10 * u.GB / link)


@settings(max_examples=60, deadline=None)
@given(down=st.floats(0, 1e12), up=st.floats(0, 1e12), extra=st.floats(0, 1e12),
       path=st.sampled_from(sorted(m.OFFLOAD_PATHS)), overlap=st.booleans())
def test_transfer_time_properties(down, up, extra, path, overlap):
    p = m.offload_path(path)
    t = m.transfer_time(down, up, p, directions_overlap=overlap)
    assert t >= max(down, up) / p.link_bytes_per_s * (1 - 1e-12)
    assert m.transfer_time(down + extra, up, p, directions_overlap=overlap) >= t
    assert m.transfer_time(down, up, p, directions_overlap=False) >= m.transfer_time(down, up, p) * (1 - 1e-12)


def test_transfer_time_rejects_bad_input():
    with pytest.raises(ValueError, match="to_host_bytes = -1 B"):
        m.transfer_time(-1, 0, PCIE5)
    with pytest.raises(TypeError, match="directions_overlap must be True or False"):
        m.transfer_time(1, 1, PCIE5, directions_overlap="yes")


def test_no_offload_costs_nothing_and_may_not_fit():
    step = m.offload_step("Llama 3 70B", "H100 SXM", "none", PCIE5, tokens_per_gpu=8192, shards=8)
    assert step.transfer_s == 0 and step.added_fraction == 0 and step.step_s == step.compute_s
    assert step.gpu_bytes == step.all_on_gpu_bytes == 16 * tr.parameter_count(tr.transformer_model("Llama 3 70B")) / 8
    assert not step.fits_hbm


def test_zero3_cpu_offload_step_by_hand():
    model, gpu = tr.transformer_model("Llama 3 70B"), catalog.gpu("H100 SXM")
    step = m.offload_step(model, gpu, "ZeRO-3 + CPU optimizer offload", PCIE5, tokens_per_gpu=8192, shards=8,
                          overlap_fraction=0.5)
    per_gpu = tr.parameter_count(model) / 8
    assert step.to_host_bytes == step.to_device_bytes == 2 * per_gpu
    link = catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    assert step.transfer_s == pytest.approx(4 * per_gpu / link)           # one direction after the other
    rate = gpu.bf16_flop_per_s * tr.DEFAULT_EFFICIENCIES.gemm * tr.matmul_fraction_of_peak(gpu)
    assert step.compute_s == pytest.approx(tr.flops_per_token(model) * 8192 / rate)
    assert step.exposed_s == pytest.approx(0.5 * step.transfer_s)
    assert step.fits_hbm and step.fits_host
    assert step.gpu_bytes + step.host_bytes == step.all_on_gpu_bytes


def test_offload_cost_falls_with_tokens_and_faster_paths_and_is_nearly_size_free():
    tokens = np.array([2048, 8192, 32768])
    steps = {path: m.offload_step("Llama 3 70B", "H100 SXM", "ZeRO-3 + CPU optimizer offload", path,
                                  tokens_per_gpu=tokens, shards=8)
             for path in m.OFFLOAD_PATHS}
    for step in steps.values():
        assert np.all(np.diff(step.added_fraction) < 0)
    gen3, gen5 = steps["host DDR5 over PCIe Gen3 x16"], steps[PCIE5]
    c2c = steps["Grace LPDDR5X over NVLink-C2C"]
    assert np.all(gen3.added_fraction > gen5.added_fraction) and np.all(gen5.added_fraction > c2c.added_fraction)
    # The model's size cancels: bytes moved and FLOPs both scale with it (attention and logits aside).
    small = m.offload_step("Llama 3 8B", "H100 SXM", "ZeRO-3 + CPU optimizer offload", PCIE5, tokens_per_gpu=8192,
                           shards=8)
    large = m.offload_step("Llama 3 405B", "H100 SXM", "ZeRO-3 + CPU optimizer offload", PCIE5, tokens_per_gpu=8192,
                           shards=8)
    assert small.added_fraction == pytest.approx(large.added_fraction, rel=0.35)


def test_streaming_the_optimizer_state_costs_six_times_the_traffic():
    kw = dict(tokens_per_gpu=8192, shards=8)
    offload = m.offload_step("Llama 3 70B", "H100 SXM", "ZeRO-Offload", "Grace LPDDR5X over NVLink-C2C", **kw)
    streamed = m.offload_step("Llama 3 70B", "H100 SXM", "optimizer state streamed",
                              "Grace LPDDR5X over NVLink-C2C", **kw)
    assert (streamed.to_host_bytes + streamed.to_device_bytes) == 6 * (offload.to_host_bytes + offload.to_device_bytes)
    assert streamed.transfer_s > offload.transfer_s


def test_offload_step_rejects_bad_input():
    with pytest.raises(ValueError, match="tokens_per_gpu = 0 token"):
        m.offload_step("Llama 3 8B", "H100 SXM", "none", PCIE5, tokens_per_gpu=0)
    with pytest.raises(ValueError, match="shards = 0"):
        m.offload_step("Llama 3 8B", "H100 SXM", "none", PCIE5, tokens_per_gpu=1, shards=0)
    with pytest.raises(ValueError, match="overlap_fraction = 2"):
        m.offload_step("Llama 3 8B", "H100 SXM", "none", PCIE5, tokens_per_gpu=1, overlap_fraction=2)
    with pytest.raises(ValueError, match="unknown model"):
        m.offload_step("Llama 9", "H100 SXM", "none", PCIE5, tokens_per_gpu=1)


def test_decode_all_in_hbm_reads_weights_and_cache_once():
    model, gpu = tr.transformer_model("Llama 3 8B"), catalog.gpu("H100 SXM")
    step = m.decode_step(model, gpu, context_tokens=4096, batch=4)
    weights = 2 * tr.parameter_count(model)
    kv = m.kv_cache_bytes(model, 4 * 4096)
    assert step.step_s == pytest.approx((weights + kv) / gpu.hbm_bandwidth_bytes_per_s)
    assert step.tokens_per_s == pytest.approx(4 / step.step_s)
    assert step.fits_hbm


def test_decode_with_the_cache_over_pcie():
    model, gpu = tr.transformer_model("Llama 3 70B"), catalog.gpu("H200 SXM")
    kw = dict(context_tokens=131072, batch=8, gpus=8, path=PCIE5)
    hidden = m.decode_step(model, gpu, offloaded_fraction=1.0, **kw)
    serial = m.decode_step(model, gpu, offloaded_fraction=1.0, overlap_fraction=0.0, **kw)
    kv = m.kv_cache_bytes(model, 8 * 131072) / 8
    link_s = kv / catalog.link("PCIe Gen5 x16").per_direction_bytes_per_s
    assert hidden.step.communication_s == pytest.approx(link_s)
    assert hidden.step_s == pytest.approx(max(link_s, hidden.step.compute_s))
    assert serial.step_s == pytest.approx(link_s + serial.step.compute_s)
    # Reading the cache over PCIe is slower than from HBM by the ratio of their bandwidths.
    in_hbm = m.decode_step(model, gpu, offloaded_fraction=0.0, **kw)
    assert in_hbm.step_s < hidden.step_s
    fractions = m.decode_step(model, gpu, offloaded_fraction=np.linspace(0, 1, 5), **kw)
    assert np.all(np.diff(fractions.step_s) >= 0)


def test_decode_rejects_bad_input():
    with pytest.raises(ValueError, match="needs a `path`"):
        m.decode_step("Llama 3 8B", "H100 SXM", context_tokens=1, offloaded_fraction=0.5)
    with pytest.raises(ValueError, match="offloaded_fraction = 1.5"):
        m.decode_step("Llama 3 8B", "H100 SXM", context_tokens=1, offloaded_fraction=1.5, path=PCIE5)
    with pytest.raises(ValueError, match="batch = 0"):
        m.decode_step("Llama 3 8B", "H100 SXM", context_tokens=1, batch=0)


def test_catalog_cxl_latency_lies_within_the_published_ranges():
    local = catalog.memory_tier("Host DDR5 (one Xeon socket)").latency_s
    cxl = catalog.memory_tier("CXL memory expander (x16)").latency_s
    pond, melody = published.CXL_LATENCY_MEASUREMENTS
    assert pond.quantity == "added" and melody.quantity == "load"
    assert local + pond.low_s <= cxl <= local + pond.high_s
    assert melody.low_s <= cxl <= melody.high_s


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

size = nonnegative(1.0, 1e13)

FUZZ_CASES = [
    Case(memory.training_state, dict(model_or_parameters=count(1, 10 ** 13),
                                     parameter_bytes=positive(0.5, 8), gradient_bytes=positive(0.5, 8))),
    Case(memory.offload_plan, dict(name=choice(tuple(memory.OFFLOAD_PLANS)))),
    Case(memory.offload_path, dict(name=choice(tuple(memory.OFFLOAD_PATHS)),
                                   host=optional(choice(tuple(catalog.HOSTS))))),
    Case(memory.offload_limits, dict(plan=choice(tuple(memory.OFFLOAD_PLANS)), gpu=choice(tuple(catalog.GPUS)),
                                     path=choice(tuple(memory.OFFLOAD_PATHS)), shards=count(1, 4096)),
         infinite=("hbm_parameters", "host_parameters", "parameters")),
    Case(memory.transfer_time, dict(to_host_bytes=size, to_device_bytes=size,
                                    path=choice(tuple(memory.OFFLOAD_PATHS)), directions_overlap=flag())),
]


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

MODELS = tuple(training.MODELS)

GPUS = tuple(catalog.GPUS)

model = choice(MODELS)


FUZZ_CASES += [
    Case(memory.kv_cache_bytes, dict(model=st.builds(training.transformer_model, st.sampled_from(MODELS)),
                                     tokens=nonnegative(1.0, 1e9), bytes_per_element=positive(0.5, 4))),
    Case(memory.offload_step, dict(model=model, gpu=choice(GPUS), plan=choice(tuple(memory.OFFLOAD_PLANS)),
                                   path=choice(tuple(memory.OFFLOAD_PATHS)), tokens_per_gpu=count(1, 65_536),
                                   shards=count(1, 1024), overlap_fraction=fraction()), examples=0.5,
         exempt=("added_fraction",)),  # step over compute time minus one: any size,
    Case(memory.decode_step, dict(model=model, gpu=choice(GPUS), context_tokens=count(1, 1_000_000),
                                  batch=count(1, 256), offloaded_fraction=fraction(), gpus=count(1, 8),
                                  overlap_fraction=fraction()), examples=0.5),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_decode_step_context_has_a_bound():
    from interconnect_lab import memory
    with pytest.raises(ValueError, match=r"context_tokens = 1\.7e\+308 token is not valid: it must be in \[0, 1e\+15\]"):
        memory.decode_step("Llama 3 8B", "H100 SXM", context_tokens=1.7e308, batch=2)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
